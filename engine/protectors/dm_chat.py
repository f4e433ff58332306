"""A chat line pasted with its time and speaker: ``[10:02] Alice: Fortify P27`` (Discord's compact copy, also
``[10:02 PM]Alice: ...``), ``10:02 Alice: ...``, a phone chat's export ``28/11/2026, 22:02 - Alice: ...``, or
Discord's copy header alone on its line over the message, ``Alice — Today at 10:02 PM``.

rules: 003 Each Turn -- each player DMs the GM their own choices. The time and speaker say whose words the line holds:
the sender's are read as the sender's line (the header left out, and said), another player's are never read as the
sender's orders, and a speaker who is no player of the game (the GM, a name Regent does not know) or a DM read without
its sender refuses the line, saying to send the orders without the chat header. Another speaker refuses the DM as a
header naming another player does (``dm_entry.OTHER_SEAT``, also leniently). Such a line was refused as "not a choice
for the orders step" (its time read as a commitment) or as "'Alice' is a player's name". Assumption CHAT_HEADER.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from engine.protectors.dm_entry import OTHER_SEAT, DmLine
from engine.protectors.dm_line import read_line
from engine.protectors.dm_whose import seat_named
from engine.protectors.notation import MAX_REASON, NameList, clip, echo

CHAT_HEADER = True
CHAT_HEADER_WHY = "a chat header (your name and the time)"
_CLOCK = r"[0-9]{1,2}[:.][0-9]{2}(?:[:.][0-9]{2})?(?:\s?[AaPp]\.?[Mm]\.?)?"  # 10:02, 22:02:33, 10:02 PM
_DATE = r"[0-9]{1,4}[./-][0-9]{1,2}[./-][0-9]{1,4}"  # 28/11/2026, 2026-11-28, 28.11.26
_WHO = r"(?P<who>[^:\[\]]{1,60}?)"
# "[10:02] Alice: ...", "[10:02 PM]Alice: ...", "[28/11/2026, 22:02:33] Alice: ...", "[Yesterday at 9:15 PM] Alice:"
_BRACKETED = re.compile(r"^\[(?P<time>[^\]\[]{0,40}?" + _CLOCK + r"[^\]\[]{0,10})\]\s*" + _WHO + r"\s*:(?P<rest>.*)$")
# "10:02 Alice: ...", "28/11/2026, 22:02 - Alice: ..."
_BARE = re.compile(
    r"^(?P<time>(?:" + _DATE + r",?\s+)?" + _CLOCK + r")\s*(?:[-\u2013\u2014]\s*)?" + _WHO + r"\s*:(?P<rest>.*)$"
)
# Discord's copy header alone on its line: "Alice — Today at 10:02 PM", "Alice — 28/11/2026 22:02", "Alice Today at ..."
_DISCORD = re.compile(
    r"^" + _WHO + r"\s*(?:[-\u2013\u2014]\s*)?(?:(?:today|yesterday)\s+at\s+|" + _DATE + r",?\s+)" + _CLOCK + r"\s*$",
    re.IGNORECASE,
)
_LEAD = re.compile(r"^\s*(?:>+\s*)?")  # a quote's '>' before the pasted line


def chat_line(
    no: int,
    raw: str,
    seats: Mapping[str, str],
    names: set[str],
    step: str | None,
    shown: NameList | None,
    seat: str | None,
) -> DmLine | None:
    """The reading of ``raw`` when it is a pasted chat line or chat header: the sender's (``seat``) read as the line
    after the header, another's refused; ``None`` for any other line. ``seats``: the names as ``notation.seat_map``
    keys them."""
    if not CHAT_HEADER:
        return None
    lead = _LEAD.match(raw)
    start = lead.end() if lead is not None else 0
    text = raw[start:].rstrip()
    m = _BRACKETED.match(text) or _BARE.match(text)
    alone = _DISCORD.match(text) if m is None else None
    found = m or alone
    if found is None:
        return None
    who_text = found.group("who").strip()
    head = text[: m.start("rest")] if m is not None else text
    who = seat_named(who_text, seats)
    if seat is None or who != seat:
        return DmLine(
            no,
            raw,
            "refused",
            why=clip(_not_yours(head, who_text, who, seat), MAX_REASON),
            error="syntax" if seat is None else OTHER_SEAT,
        )
    if m is None or not m.group("rest").strip():  # "Alice — Today at 10:02 PM" over the message
        return DmLine(no, raw, "ignored", why=CHAT_HEADER_WHY)
    rest = m.group("rest")  # a chat line quoted in one ("[10:02] Alice: [10:01] Red: Work P29") is read as one too
    e = chat_line(no, rest, seats, names, step, shown, seat) or read_line(no, rest, seats, names, step, shown)
    left = f"{echo(head.strip())}: {CHAT_HEADER_WHY}"
    why = "; ".join(w for w in (left, e.why) if w) if e.kind in ("order", "nothing") else e.why
    return DmLine(no, raw, e.kind, e.parsed, e.lines, e.canonical, why, e.error, e.all_said)


def _not_yours(head: str, who_text: str, who: str | None, seat: str | None) -> str:
    """Why a chat line whose speaker is not the sender is refused."""
    said = echo(head.strip())
    if who is not None and seat is not None:
        return (
            f"{said}, a chat line's time and speaker, names {who}: a DM gives the orders of the player who sends "
            "it, so another player's chat lines are not read as yours; if the orders are yours, send them without "
            "the chat header (the time and name)"
        )
    if seat is None:
        return (
            f"{said} is a chat line's time and speaker: send the orders without the chat header (the time and "
            "name), one order a line"
        )
    return (
        f"{said} is a chat line's time and speaker, and {echo(who_text)} is not you: a DM gives the orders of the "
        "player who sends it; send your orders without the chat header (the time and name)"
    )
