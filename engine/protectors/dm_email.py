"""What an email (play-by-mail) or a chat reply puts around a player's orders, so the reader leaves it out.

A reply quotes the message it answers: ``> `` lines, an ``On <date>, <name> wrote:`` line above them, or an
Outlook-style ``-----Original Message-----`` rule with the earlier message below it. A mail program adds a
signature below a ``-- `` line (``Sent from my iPhone`` alone is ``dm_lines.chatter``'s). None of it is the
player's decision now: an old order quoted back must never be stored as a new one (docs/dm-syntax.md, "Email").

Quoted lines are left out only when the DM says it is a reply (an ``On ... wrote:`` line, quoted or not, or an
earlier message's ``From:``/``Sent:`` header): in Discord ``>`` is markup a player may put around their own
orders, and markup never hides an order (``dm_lines``). A quoted line that cannot be read is refused with a
hint to send the orders without the quote.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

SIGNATURE_DELIMITER = "--"  # RFC 3676's "-- " line (its trailing space often lost on the way)
_ORIGINAL = re.compile(r"^\s*-{2,}\s*(?:original|forwarded)\s+message\s*-{2,}\s*$", re.IGNORECASE)
_FROM = re.compile(r"^from:\s+\S", re.IGNORECASE)  # Outlook: "From: GM <gm@x.org>" then "Sent: Monday ..."
_SENT = re.compile(r"^(?:sent|date):\s+\S", re.IGNORECASE)
_REPLY_HEADER = re.compile(r"^\s*on\s.{3,300}\swrote:?\s*$", re.IGNORECASE)  # "On Mon, 3 May 2026, Bob wrote:"

QUOTED = "quoted text (an earlier message): only your own lines are read"
BELOW_SIGNATURE = "a signature (from its '--' line down)"
BELOW_ORIGINAL = "an earlier message (from its header down)"
NOT_READ_QUOTE = "if this quotes an earlier message, send your orders without it"
REPLY_HEADER = "a reply's header (the quoted message follows)"


def is_forward_rule(raw: str) -> bool:
    """``-----Original Message-----`` or ``---------- Forwarded message ---------``: an earlier or forwarded message's
    header follows (``dm_forward`` reads one at the top of a DM)."""
    return _ORIGINAL.match(raw.strip()) is not None


def is_quoted(raw: str) -> bool:
    return raw.lstrip().startswith(">")


def _unquoted(raw: str) -> str:
    return raw.strip().lstrip(">").strip()


def is_reply(raw_lines: Sequence[str]) -> bool:
    """The DM says it is a reply: its ``>`` lines are the earlier message."""
    return any(_REPLY_HEADER.match(_unquoted(raw)) for raw in raw_lines) or _earlier_header(raw_lines) is not None


def _earlier_header(raw_lines: Sequence[str]) -> int | None:
    """Where an earlier message's ``From: ...`` / ``Sent: ...`` header starts (Outlook's reply), if any."""
    for i, raw in enumerate(raw_lines):
        if _FROM.match(raw.strip()) and any(_SENT.match(r.strip()) for r in raw_lines[i + 1 : i + 3]):
            return i
    return None


def left_out(raw_lines: Sequence[str]) -> dict[int, str]:
    """0-based line index -> why the line is not the player's own text (quotes aside: ``is_quoted``)."""
    out: dict[int, str] = {}
    header = _earlier_header(raw_lines)
    for i, raw in enumerate(raw_lines):
        s = raw.strip()
        if s == SIGNATURE_DELIMITER or _ORIGINAL.match(s) or i == header:
            why = BELOW_SIGNATURE if s == SIGNATURE_DELIMITER else BELOW_ORIGINAL
            out.update((j, why) for j in range(i, len(raw_lines)) if raw_lines[j].strip())
            break
        if _REPLY_HEADER.match(s):
            out[i] = REPLY_HEADER
    return out
