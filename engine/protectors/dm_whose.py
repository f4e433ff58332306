"""Whose orders a DM gives: a header naming another player ("Orders from Bob:", "Here are Carol's orders", also before
an order on its line) refuses the DM (``other_seat``), never leaving the name out with the header.

rules: 003 Each Turn -- each player sends the GM a DM with their own choices ("Once a DM is sent to the GM, your
orders/choices are final"). A header naming another player could head that player's orders, forwarded by a team-mate
or pasted from another chat: stored as the sender's they would be choices the sender never made. The header was left
out, the name with it, and the orders stored as the sender's. The sender's own name, seat or colour may head the DM
("Orders from Alice:"). A player's name alone on a line ("Red:" over the orders, as a GM pastes a channel's messages, or
"-- Red" under them) is such a header, or a signature: it was left out as a signature, and the orders stored as the
sender's. Assumption OTHER_SEAT_HEADER.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from engine.protectors.dm_entry import OTHER_SEAT, DmLine
from engine.protectors.dm_lines import HEADER, chatter, unwrap, words
from engine.protectors.notation import echo

OTHER_SEAT_HEADER = True
SIGNATURE = "a signature"  # dm_lines.chatter's word for a name alone on its line ("Red:", "-- Red"): checked too
MAX_NAME_RUN = 4  # words of a display name looked for in a header ("Orders from Bob the Bold:")
_PLAYER_N = re.compile(r"player#?([0-9]{1,3})")


def other_seat(e: DmLine, seat: str | None, seats: Mapping[str, str]) -> DmLine:
    """``e`` refused when it is, or starts with, a header naming a player other than ``seat`` (the sender; ``None``:
    unknown, so any player named is another), by display name, colour or ``Player#N``; else ``e``. ``seats`` maps the
    names as ``notation.seat_map`` keys them to seats."""
    if not OTHER_SEAT_HEADER:
        return e
    head = _header_text(e)
    if not head:
        return e
    if e.why == SIGNATURE:  # "Red" or "-- Red" on a line of its own, above the orders or below them
        # "-- Alice & Red", "Alice + Red": team-mates signing together (JOINT_SIGNATURE) name Red as well
        who = seat_named(head, seats) or next((s for s in _joint(head, seats) if s != seat), None)
        if seat is None or who is None or who == seat:  # read without its sender (normalise_dm): it may be theirs
            return e
        if chatter(e.text) not in (None, SIGNATURE):  # "Thanks!" where a player is called Thanks: a thank-you first
            return e
        return e.refuse(
            f"{echo(head.strip())} names {who}: a DM gives the orders of the player who sends it, so orders "
            "headed or signed with another player's name are not read as yours; if they are yours, send them without "
            "that line (a note to the GM goes on a line starting with //)",
            OTHER_SEAT,
        )
    others = sorted(s for s in seats_named(head, seats) if s != seat)
    if not others:
        return e
    return e.refuse(
        f"{echo(head.strip())} names {others[0]}: a DM gives the orders of the player who sends it, so "
        f"orders headed for another player are not read as yours; if they are yours, send them without "
        "that line (a note to the GM goes on a line starting with //)",
        OTHER_SEAT,
    )


def _header_text(e: DmLine) -> str:
    """The header ``e`` is, or holds before an order on its line (``Orders from Bob: Fortify P1``), as written; ``""``
    for a line with none."""
    if e.kind == "ignored" and (e.why == HEADER or f": {HEADER}" in e.why or e.why == SIGNATURE):
        return unwrap(e.text)
    if e.kind == "order" and HEADER in e.why:
        before, colon, _ = unwrap(e.text).partition(":")
        return before + colon if colon else ""
    return ""


def seat_named(text: str, seats: Mapping[str, str]) -> str | None:
    """The seat a signature line names whole (``Red``, ``-- Red``, ``**Player#2:**``), else ``None`` ("-- Bob the Bold"
    names no one where a player is called Bob)."""
    w = words(text)
    m = _PLAYER_N.fullmatch("".join(w))
    return f"Player#{int(m.group(1))}" if m is not None else seats.get(" ".join(w))


# rules: 003 Each Turn, Team Games -- a signature naming players joined by '&', '+', 'and', ',' or '/' ("-- Alice &
# Red", "Alice + Red" over the orders) signs for each of them: a team's orders sent together, or the team-mate's? It
# was left out as a signature, and the orders stored as the sender's. Refused as a signature naming another player is,
# when every part of it is a player's name whole ("-- Red Five" names no one). Assumption JOINT_SIGNATURE
JOINT_SIGNATURE = True
_JOINED = re.compile(r"\s*(?:&|\+|/|,|\band\b)\s*", re.IGNORECASE)


def _joint(text: str, seats: Mapping[str, str]) -> list[str]:
    """The seats a signature of names joined by '&', '+', 'and', ',' or '/' names, each part a name whole (``Alice &
    Red``); ``[]`` for any other line."""
    parts = [p for p in _JOINED.split(text.strip().lstrip("-~\u2014 ")) if p.strip()]
    named = [seat_named(p, seats) for p in parts]
    if not JOINT_SIGNATURE or len(parts) < 2 or any(n is None for n in named):
        return []
    return [n for n in named if n is not None]


def seats_named(text: str, seats: Mapping[str, str]) -> set[str]:
    """The seats ``text`` names: a display name or colour (``seats``' keys, also with a possessive 's': ``Carol's``) or
    ``Player#N``."""
    w = words(text)
    out = {f"Player#{int(m.group(1))}" for m in _PLAYER_N.finditer(text.lower().replace(" ", ""))}
    i = 0
    while i < len(w):  # the longest name at each word: "sky blue" is seat 2's colour, not seat 14's "blue"
        for j in range(min(len(w), i + MAX_NAME_RUN), i, -1):
            run = " ".join(w[i:j])
            who = seats.get(run) or (seats.get(run[:-1]) if run.endswith("s") else None)
            if who is not None:
                out.add(who)
                i = j
                break
        else:
            i += 1
    return out
