"""A DM the GM forwards or pastes with the header it came with: ``From: Alice`` over the player's orders, or a mail
program's forward (``---------- Forwarded message ---------``, ``From:``, ``Date:``, ``Subject:``, ``To:``).

rules: 003 Each Turn -- each player DMs the GM their own choices. At the top of the DM, above any line of the sender's
own, such a header says whose the orders below it are, so it is read as a header, never as an earlier message: its
``From:``, ``To:`` and ``Subject:`` lines are checked as any header is (``dm_whose.other_seat``: another player's name
refuses the DM, the sender's own is fine; ``dm_checks.other_turn``: another turn refuses it), and a ``From:`` naming no
player of the game refuses it (whose orders are they?). ``dm_email`` then reads what is below it as the DM (an earlier
message quoted further down is still left out). Such a DM was refused as holding no order ("line 1 is an earlier
message"), or ``From: Alice`` alone as an unknown order. Assumption FORWARD_HEADER.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from engine.protectors import dm_email
from engine.protectors.dm_entry import DmLine
from engine.protectors.dm_lines import HEADER, unwrap, words
from engine.protectors.notation import MAX_REASON, clip, echo

FORWARD_HEADER = True
FORWARDED = "a forwarded message's header"
_FIELD = re.compile(r"^(from|sent|date|to|cc|subject)\s*:\s*\S", re.IGNORECASE)
_CHECKED = ("from", "to", "cc", "subject")  # the fields that may name a player or a turn: read as a header's
_PLAYER_N = re.compile(r"player#?[0-9]{1,3}")


def forwarded(entries: list[DmLine], raw_lines: list[str], seats: Mapping[str, str]) -> tuple[list[DmLine], list[str]]:
    """``entries`` with a forward's header at the top of the DM left out (``HEADER`` for its From/To/Cc/Subject lines,
    so whose and which turn they name is checked), and ``raw_lines`` with those lines blanked, for ``dm_email`` to read
    the rest; a ``From:`` naming no player (``seats``: the names as ``notation.seat_map`` keys them) is refused.
    Without such a header, both as given."""
    top = _header_lines(raw_lines) if FORWARD_HEADER else []
    if not top:
        return entries, raw_lines
    out = list(entries)
    for i in top:
        field = _FIELD.match(unwrap(raw_lines[i]))
        key = field.group(1).lower() if field is not None else ""
        e = out[i]
        if key == "from" and not _names_player(raw_lines[i], seats):
            why = (
                f"{echo(raw_lines[i].strip())} heads a forwarded message but names no player of this game, so "
                "whose orders are below it cannot be told: send them without the header"
            )
            out[i] = e.refuse(clip(why, MAX_REASON), "syntax")
        else:
            out[i] = DmLine(e.no, e.text, "ignored", why=HEADER if key in _CHECKED else FORWARDED)
    blanked = ["" if i in top else raw for i, raw in enumerate(raw_lines)]
    return out, blanked


def _header_lines(raw_lines: list[str]) -> list[int]:
    """The indexes of a forward's header lines at the top of the DM (blank lines between them aside): an optional
    ``-- Forwarded message --`` rule, then field lines, one of them ``From:``; ``[]`` without one."""
    found: list[int] = []
    fields: list[str] = []
    for i, raw in enumerate(raw_lines):
        text = unwrap(raw)
        if not text:
            continue
        if not found and dm_email.is_forward_rule(raw):
            found.append(i)
            continue
        field = _FIELD.match(text)
        if field is None:
            break
        found.append(i)
        fields.append(field.group(1).lower())
    return found if "from" in fields else []


def _names_player(raw: str, seats: Mapping[str, str]) -> bool:
    """Whether a ``From:`` line names a player: a display name or colour (its words in a row) or ``Player#N``."""
    w = words(unwrap(raw).partition(":")[2])
    if _PLAYER_N.search(raw.lower().replace(" ", "")):
        return True
    return any(" ".join(w[i:j]) in seats for i in range(len(w)) for j in range(i + 1, len(w) + 1))
