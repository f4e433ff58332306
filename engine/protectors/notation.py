"""Parse and format the GM's DM text syntax of *Protectors of the Realm* (``protocol.md``).

``parse_line`` reads one order, ``parse_text`` a whole DM (one order per line; a line may hold several
orders separated by ``,``/``;``/``.`` as in ``2 from P6 (sac 2), 1 from P7`` or the team line
``Buy 2, Bid: 25 (110 from Player#2)``), ``format_line`` writes canonical text, and
``parse_line(format_line(x)) == x`` for every value. Parsing is case- and punctuation-tolerant:
``march 2 from p1 to p2.``, ``Work work P2``, ``Fortify! Province 4``, ``Kaluak``, ``Palantir``,
Discord ``*``/``_``/backticks are ignored, ``2 units from``, ``Bid 20 $Realm`` and ``commit 2 from P6``
are read. Seats are ``Player#N`` (any case) or a name from the ``players`` map (display name or colour
-> seat); provinces are ``P<n>``, ``Province#<n>`` or ``Province <n>``. Numbers are non-negative whole
numbers up to ``MAX_DM_NUMBER``; errors are bounded (``MAX_REASON``, ``MAX_LINE_ECHO``) and, given the
waiting ``step``, list only what that step takes (``EXPECTED_BY_STEP``).

A whole DM as players send it (headings, bullets, greetings, sign-offs, what is refused as ambiguous)
is read by ``dm_read.read_dm``; ``parse_text`` is its line-by-line form.

This module reads one order with its pooling brackets and writes canonical text; the rest of the notation lives in
``notation_words`` (the words, numbers and word tables), ``notation_cursor`` (the cursor an order is read with, and
the players' names), ``notation_grammar`` (each order kind), ``notation_split`` (one line into its orders) and
``notation_remarks`` (remarks in brackets). The names other modules read from ``notation`` are all importable here.

Conventions:

* ``Buy 2`` without a province (team games) is ``Buy((("", 2),))``: "default placement", the GM's
  inactivity rule (lowest numbered Provinces first). It must be the only allocation.
* A trailing ``(110 from Player#2)`` / ``(30 from Player#2, 10 from Player#4)`` is team ``Funding``
  attached to the order it follows; ``(sac 2)`` belongs to a Dragon commitment.
* ``Palantír Sea`` / ``Palantír The End`` -> ``Ability("palantir", arg="sea" | "end")``.
* ``Sanctum refresh <ability>`` / ``Sanctum gain <ability>`` -> ``Ability("sanctum",
  arg="refresh <key>")`` where ``<key>`` is a key of ``SANCTUM_ABILITIES`` (the name or the key may
  be written).
* ``all`` as a count or a bid (``March! all from P1 to P7``, ``all from P6``, ``Bid all``, ``Bid the rest``) is
  ``ALL``, written back as ``all``: a number only the game's state gives, which ``dm_submit.settle`` puts in its
  place (a DM read without a game refuses it: ``dm_read.ALL_UNSETTLED``).
* A Fortify! or Work, work! over a list of Provinces (``Fortify P1, P2``, ``Work, work! P1, P2 & P3``) is one
  order per Province: ``split_orders`` gives each its own piece (``Fortify P1``, ``Fortify P2``).

Every failure is an ``OrderSyntaxError(reason, input=<the whole line>)``; the reasons are:

* ``empty line; expected an order`` / ``the line holds 2 orders (...); use parse_text`` -- parse_line.
* ``unknown order 'Marsh!'; expected one of March!, Delayed March!, Support!, ...`` -- first word.
* ``expected 'from' after the unit count, got 'form'`` -- a fixed word ('from', 'to', 'in') missing.
* ``expected the unit count (a whole number), got 'two'`` / ``the unit count must be a whole number,
  got '2.5'`` / ``... must not be negative, got '-2'`` / ``... must be at least 1, got 0`` -- numbers.
* ``'X9' is not a province like P3`` / ``expected the source province like P3, but the line ends``.
* ``'Bob' is not a player like Player#2`` -- neither a seat nor a name in ``players``.
* ``unexpected 'P5' at the end of the order`` -- trailing words.
* ``'all 3' gives the count twice; ...`` / ``'Golden' before a list of Provinces could mean ...`` / ``P1 is named
  twice in the list of Provinces; ...``.
* ``'Golden' applies only to March!, Support!, Fortify! and Work, work!`` / ``'Delayed' applies only
  to March!`` / ``'Golden' given twice``.
* ``sac 3 is more than the 2 units committed`` -- a Dragon commitment.
* ``'Buy' without a province takes a single count`` -- ``Buy 2, 1 in P5``.
* ``unknown faction 'Orcs'; expected one of Cenarion, Kalu'Ak, Hodir, Iron Light, Lannuvár``.
* ``expected 'Sea' or 'The End' after Palantír, ...`` / ``expected 'refresh' or 'gain' after
  Sanctum, ...`` / ``unknown ability 'x' after 'Sanctum gain'; expected one of ...``.
* ``empty funding '()'; expected like '(110 from Player#2)'`` (and the number/word/player reasons).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from engine.errors import OrderSyntaxError
from engine.protectors.factions import FACTIONS, faction_named
from engine.protectors.notation_cursor import NameList, WordCursor, name_list, seat_map
from engine.protectors.notation_grammar import ORDER_WORDS, parse_funding, parse_item
from engine.protectors.notation_remarks import HEDGED_REMARK, asks, no_remark_because, remark_alone, split_remark
from engine.protectors.notation_split import SEND_LIST, segments_of
from engine.protectors.notation_words import (
    ALL,
    EXPECTED_BY_STEP,
    HEAD_ITEMS,
    JOIN,
    MAX_DM_NUMBER,
    MAX_ECHO,
    MAX_LINE_ECHO,
    MAX_NAMES_SHOWN,
    MAX_REASON,
    MAX_TURN_DIGITS,
    NUMBER,
    NUMBER_WORDS,
    TRAILING_PAREN,
    clean,
    clip,
    echo,
    head_item,
    norm_words,
)
from engine.protectors.orders import (
    SANCTUM_ABILITIES,  # key -> rulebook name of the abilities a Wizard Sanctum holder may refresh or gain
    Bid,
    Buy,
    Commit,
    Funding,
    Line,
    March,
)

__all__ = [  # with the names the notation's modules hold that other modules and tests read from here
    "ALL",
    "EXPECTED_BY_STEP",
    "FACTIONS",
    "HEAD_ITEMS",
    "HEDGED_REMARK",
    "JOIN",
    "MAX_DM_NUMBER",
    "MAX_ECHO",
    "MAX_LINE_ECHO",
    "MAX_NAMES_SHOWN",
    "MAX_REASON",
    "MAX_TURN_DIGITS",
    "NUMBER_WORDS",
    "ORDER_WORDS",
    "SANCTUM_ABILITIES",
    "SEND_LIST",
    "NameList",
    "clip",
    "echo",
    "faction_of",
    "format_line",
    "head_item",
    "holds_all",
    "name_list",
    "parse_line",
    "parse_segment",
    "parse_text",
    "remark_alone",
    "seat_map",
    "split_orders",
    "split_remark",
]

# the steps where brackets after an order may pool $Realm from a team-mate (rules: 003 Team Games, Pooled $Realm:
# the bid and the purchases); in the others a refused remark is never called pooling
_NO_POOLING_STEPS = ("orders", "dragon")


# rules: 003 Team Games, Pooled $Realm -- "Orders from Player#1: Buy 2, Bid: 25 (110 from Player#2)": what a player
# takes from a team-mate is one amount for the step's purchases and bid (amounts on several lines are added up), so
# pooling in brackets after one Province of a purchase ("Buy 1 in P1 (20 from Bob), 1 in P2") says what it says at the
# purchase's end: read so (it was refused as "expected 'in' after the number of units to buy, got 'from'"). Other
# brackets there are refused, saying where brackets go. So is pooling in two pairs of brackets after a bid ("Bid 10 (5
# from Red) (5 from Will)", was "unexpected '5 from Red'"), or before what follows it ("Bid 25 (10 from Red) Hodir": the
# refusal names 'Hodir' only); other brackets inside a bid are read as before. Assumption PURCHASE_POOLING
_MID_PAREN = re.compile(r"\(([^()]*)\)")
_POOLING_HEADS = frozenset({"buy", "bid"})


def _purchase_pooling(line: str, segment: str, seats: Mapping[str, str],
                      names: NameList | None) -> tuple[tuple[Funding, ...], str]:
    """The pooling in brackets inside a purchase or a bid (``Buy 1 in P1 (20 from Bob), 1 in P2``, ``Bid 10 (5 from
    Red) (5 from Will)``; not the brackets at its end) and the order without them; ``((), segment)`` for any other
    segment."""
    said = norm_words(segment)
    trailing = TRAILING_PAREN.search(segment)
    inside = list(_MID_PAREN.finditer(segment, 0, trailing.start() if trailing else len(segment)))
    if not said or said[0] not in _POOLING_HEADS or not inside:
        return (), segment
    funding: list[Funding] = []
    for m in inside:
        if "?" in m.group(1):  # "(20 from Bob?)" asks
            raise asks(segment, line)
        try:
            funding.extend(parse_funding(line, m.group(1), seats, names))
        except OrderSyntaxError as err:
            inner = norm_words(m.group(1))
            if said[0] != "buy" and not (inner and NUMBER.fullmatch(inner[0])):  # "Bid 20 (yolo) thanks": as before
                return (), segment
            order = "purchase" if said[0] == "buy" else "bid"
            raise OrderSyntaxError(clip(f"{echo(m.group())} in the middle of the {order} is read as team pooling, "
                                        f"like '(20 from Player#2)': {err.reason}; a note to the GM goes after //",
                                        MAX_REASON), input=clip(line, MAX_LINE_ECHO)) from None
    return tuple(funding), _MID_PAREN.sub(" ", segment[: inside[-1].end()]) + segment[inside[-1].end():]


def _parse_segment(line: str, segment: str, seats: Mapping[str, str], step: str | None = None,
                   names: NameList | None = None) -> Line:
    inside, segment = _purchase_pooling(line, segment, seats, names)
    funding: tuple[Funding, ...] = ()
    m = TRAILING_PAREN.search(segment)
    if m and not "".join(norm_words(m.group(1))).startswith("sac"):
        try:
            funding = parse_funding(line, m.group(1), seats, names)
        except OrderSyntaxError as err:
            if "?" in m.group(1):  # "Bid 4 (?)", "(10 from Bob?)": asks, as "Bid 4?" does (was "expected the funding
                raise asks(segment, line) from None  # amount, but the line ends")
            words = norm_words(m.group(1))
            if len(words) == 1 and NUMBER.fullmatch(words[0]):  # "Bid 4 (5)": a bare number, pooling from nobody
                raise OrderSyntaxError(clip(f"{echo('(' + m.group(1).strip() + ')')} after an order: a number in "
                                            f"brackets is read as team pooling, which names the team-mate it comes "
                                            f"from, like '({words[0]} from Player#2)'; without a team-mate's $Realm, "
                                            "leave the brackets out (a note to the GM goes after //)", MAX_REASON),
                                       input=clip(line, MAX_LINE_ECHO)) from None
            if not words or NUMBER.fullmatch(words[0]):
                raise
            # "(just in case)" read as pooling: say so, not only "expected the funding amount", and say why it is no
            # remark ("(golden)", "(if taken then Cenarion)"); where nothing pools, never speak of pooling
            paren = echo("(" + m.group(1).strip() + ")")
            because = no_remark_because(m.group(1))
            if step in _NO_POOLING_STEPS:
                reason = (f"brackets after an order are left out only as a remark that could not change it, and "
                          f"{paren} is none ({because}); send the order without them: a note to the GM goes after //")
            else:
                reason = (f"brackets after an order are read as team pooling, like '(30 from Player#2)': {err.reason}; "
                          f"and {paren} is no remark to leave out ({because}); a note to the GM goes after //")
            raise OrderSyntaxError(clip(reason, MAX_REASON), input=clip(line, MAX_LINE_ECHO)) from None
        segment = segment[: m.start()]
    return Line(parse_item(WordCursor(line, segment, seats, step, names)), inside + funding)


def parse_line(text: str, *, players: Mapping[str, str] | None = None, step: str | None = None) -> Line:
    """One DM line holding one order -> ``Line``; raises ``OrderSyntaxError``."""
    line = text.strip()
    segments = segments_of(clean(line))
    if not segments:
        raise OrderSyntaxError("empty line; expected an order", input=clip(line, MAX_LINE_ECHO))
    if len(segments) > 1:
        listed = ", ".join(echo(s.rstrip(",;.")) for s in segments[:4]) + (", ..." if len(segments) > 4 else "")
        reason = f"the line holds {len(segments)} orders ({listed}); use parse_text"
        raise OrderSyntaxError(clip(reason, MAX_REASON), input=clip(line, MAX_LINE_ECHO))
    return _parse_segment(line, segments[0], seat_map(players), step, name_list(players))


def faction_of(text: str) -> str | None:
    """The faction a line names on its own (``Hodir``, ``kalu'ak``), or ``None``."""
    return faction_named(" ".join(norm_words(text)))


def split_orders(text: str) -> list[str]:
    """One DM line (free of Discord markup) -> the text of each order on it (``parse_segment`` reads one)."""
    return segments_of(clean(text))


def parse_segment(line: str, segment: str, seats: Mapping[str, str], step: str | None = None,
                  names: NameList | None = None) -> Line:
    """One order from ``split_orders``; errors name ``line``; ``seats`` from ``seat_map``; ``names`` (from
    ``name_list``) say how an unknown player's refusal names the players."""
    return _parse_segment(line, segment, seats, step, names)


def parse_text(text: str, *, players: Mapping[str, str] | None = None, step: str | None = None) -> list[Line]:
    """A whole DM -> one ``Line`` per order, in order (``dm_read.read_dm``: Discord markup is unwrapped,
    greetings, sign-offs, comments and blank lines are left out; no check across lines, see
    ``read_dm``); raises the first refused line's ``OrderSyntaxError``."""
    from engine.protectors.dm_read import read_dm  # dm_read builds on this module

    return read_dm(text, players=players, step=step, one_decision=False).lines_or_raise()


def holds_all(line: Line) -> bool:
    """Whether ``line``'s count or bid is ``ALL`` ("March! all from P1 to P7", "all from P6", "Bid all")."""
    item = line.item
    return ((isinstance(item, March | Commit) and item.count == ALL)
            or (isinstance(item, Bid) and item.amount == ALL))


def format_line(line: Line) -> str:
    """Canonical text; ``parse_line(format_line(x)) == x``. ``Buy`` default placement is ``Buy 2``; ``ALL`` is
    ``all`` (``March! all from P1 to P7``)."""
    item = line.item
    if isinstance(item, Buy):
        text = "Buy " + " ".join(f"{n} in {p}." if p else str(n) for p, n in item.allocations)
    elif holds_all(line):  # the count is the first number of the text ("Delayed March! -1 from P1 to P7", "Bid -1")
        text = item.text().replace(str(ALL), "all", 1)
    else:
        text = item.text()
    if line.funding:
        text += " (" + ", ".join(f.text() for f in line.funding) + ")"
    return text
