"""Read a whole DM line by line: every line is an order, left out (with why), or refused (with why).

``read_dm(text, players=..., step=...)`` gives a ``DmReading``: one ``DmLine`` per line of the DM, in
order, each of kind

* ``order``: the line's orders (``parsed``; ``lines`` without an identical repeat of an earlier line),
  and their canonical text (``canonical``);
* ``nothing``: an explicit choice of nothing -- ``none`` (no orders, no purchases, bid 0) or, in the
  Dragon step, "Turn off the lights" (rules: 003 Resolving a Dragon Attack, option 2: commit 0 Army
  Units) and ``0 from P1``;
* ``ignored``: blank, markup only, a ``//`` comment, a greeting, a sign-off, a header (``dm_lines``);
* ``refused``: not an order, an order of another step, or text that could mean two things (two
  different bids, two orders for one Province, ``none`` beside orders) -- never guessed.

``normalise_dm`` writes an accepted DM in canonical form: one order per line, nothing left out.

This module puts the reading together; its parts live in ``dm_entry`` (``DmLine``, ``DmReading`` and their
constants), ``dm_phrases`` (the choice phrases and the steps they belong to), ``dm_pieces`` (the orders on one
line's text), ``dm_line`` (one line), ``dm_digits`` (digits that are no plain ones), ``dm_notes`` (an order in a note
after //), ``dm_whose`` (a header naming another player), ``dm_chat`` (a chat line pasted with its time and
speaker), ``dm_forward`` (a forwarded DM's header), ``dm_heads`` (``Commit:`` over the commitments) and ``dm_checks``
(the checks over the whole DM). The names other modules read from ``dm_read`` are all importable here.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from engine.protectors.board import ISLAND_NAME
from engine.protectors.dm_chat import chat_line
from engine.protectors.dm_checks import (
    CORRECTIONS_REFUSED,
    SENDS_TO_ONE,
    correction,
    cross_check,
    faction_on_next_line,
    other_turn,
    own_lines,
    stray_numbers,
)
from engine.protectors.dm_entry import (
    ALL_BESIDE_UNSETTLED,
    ALL_UNSETTLED,
    CORRECTION,
    LIGHTS_OUT,
    MAX_DM_CHARS,
    MAX_DM_LINES,
    MAX_LINE_CHARS,
    MAX_NOTE,
    MAX_NOTES,
    MAX_REPORTED,
    NONE,
    OTHER_SEAT,
    OTHER_TURN,
    DmLine,
    DmReading,
)
from engine.protectors.dm_forward import forwarded
from engine.protectors.dm_heads import cut_short, order_word_headers
from engine.protectors.dm_line import STANDALONE_REMARK, read_line
from engine.protectors.dm_lines import words
from engine.protectors.dm_notes import order_in_note
from engine.protectors.dm_phrases import GO_BID, NO_BUYS, NO_SNITCH
from engine.protectors.dm_pieces import MAX_CHAT_WORDS, MAX_NAME_RUN, MAX_SORRY_WORDS, POOLING_STEPS
from engine.protectors.dm_team import addressed_mate
from engine.protectors.dm_whose import other_seat
from engine.protectors.notation import MAX_LINE_ECHO, name_list, seat_map

__all__ = [  # with the names the reader's modules hold that other modules and tests read from here
    "ALL_BESIDE_UNSETTLED",
    "ALL_UNSETTLED",
    "CORRECTION",
    "CORRECTIONS_REFUSED",
    "GO_BID",
    "LIGHTS_OUT",
    "MAX_CHAT_WORDS",
    "MAX_DM_CHARS",
    "MAX_DM_LINES",
    "MAX_LINE_CHARS",
    "MAX_NAME_RUN",
    "MAX_NOTE",
    "MAX_NOTES",
    "MAX_REPORTED",
    "MAX_SORRY_WORDS",
    "NONE",
    "NO_BUYS",
    "NO_SNITCH",
    "OTHER_SEAT",
    "OTHER_TURN",
    "POOLING_STEPS",
    "SENDS_TO_ONE",
    "STANDALONE_REMARK",
    "DmLine",
    "DmReading",
    "normalise_dm",
    "read_dm",
]


def read_dm(text: str, *, players: Mapping[str, str] | None = None, step: str | None = None,
            one_decision: bool = True, turn: int | None = None, listed: Collection[str] | None = None,
            island: str = ISLAND_NAME, seat: str | None = None, mates: Collection[str] = ()) -> DmReading:
    """Read every line of a DM (``players``: display name or colour -> seat; ``step``: the waiting step,
    so errors list only what it takes and orders of other steps are refused; ``turn``: the game's turn, so
    a header naming another turn refuses the DM; ``listed``: the names, as written, that a refusal of an
    unknown player lists -- the game gives the display names of the seats still in the game; default: every
    name in ``players``; ``island``: the Province "the Island" names on the game's board; ``seat``: the sender, whose
    name may head the DM, where another player's refuses it: ``dm_whose.other_seat``; ``mates``: the sender's
    team-mates still in the game, whom a line greeting before its order refuses: ``dm_team.addressed_mate``).
    ``one_decision=False`` reads lines only (no check across lines: the lines of several
    seats may be read together)."""
    seats = seat_map(players)
    names = set(seats) | {" ".join(words(s)) for s in set(seats.values())}
    if len(text) > MAX_DM_CHARS:
        reason = f"a DM holds at most {MAX_DM_CHARS} characters; this one has {len(text)}"
        return DmReading([DmLine(1, text[:MAX_LINE_ECHO].split("\n")[0], "refused", why=reason, error="syntax")], step)
    raw_lines = text.splitlines()
    busy = sum(1 for ln in raw_lines if ln.strip())
    if busy > MAX_DM_LINES:
        reason = f"a DM holds at most {MAX_DM_LINES} lines with text; this one has {busy}"
        return DmReading([DmLine(1, raw_lines[0] if raw_lines else "", "refused", why=reason, error="syntax")], step)
    shown = name_list(players, listed, island)
    entries = [correction(order_in_note(chat_line(n, raw, seats, names, step, shown, seat)
                                        or read_line(n, raw, seats, names, step, shown), seats, names, step, shown))
               for n, raw in enumerate(raw_lines, start=1)]
    if not one_decision:
        return DmReading(entries, step, one_decision)
    choosing = step == "bid" and (turn is None or turn == 1)  # rules: 003 Factions, chosen with the turn-1 bid
    entries, own_raw = forwarded(entries, raw_lines, seats)  # "From: Alice" over the orders: a forward's header
    entries = faction_on_next_line(stray_numbers(own_lines(entries, own_raw), step), choosing)
    entries = cut_short(order_word_headers(entries))  # "Commit:" over "- 3 from P27"; "March 2 from P27" / "to P26"
    if turn is not None:
        entries = [other_turn(e, turn, step) for e in entries]
    entries = [addressed_mate(other_seat(e, seat, seats), seats, mates) for e in entries]
    return DmReading(cross_check(entries, step), step, one_decision)


def normalise_dm(text: str, *, players: Mapping[str, str] | None = None, step: str | None = None) -> str:
    """The DM in canonical form: one order per line, ``Player#N`` and ``P<n>`` spelled out, no markup,
    greetings or comments. Raises the refusal of a DM that would be refused."""
    reading = read_dm(text, players=players, step=step)
    err = reading.error()
    if err is not None:
        raise err
    return "\n".join(reading.canonical())
