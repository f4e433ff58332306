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

import difflib
import re
import unicodedata
from collections.abc import Callable, Collection, Mapping

from engine.errors import OrderSyntaxError
from engine.protectors.board import ISLAND_NAME
from engine.protectors.dm_lines import TURN_AROUND
from engine.protectors.factions import FACTIONS, faction_named
from engine.protectors.orders import (
    ABILITY_TEXT,
    SANCTUM_ABILITIES,  # key -> rulebook name of the abilities a Wizard Sanctum holder may refresh or gain
    Ability,
    Bid,
    Burn,
    Buy,
    Capitol,
    ChooseFaction,
    Commit,
    Ferry,
    Fortify,
    Funding,
    Item,
    Line,
    March,
    Send,
    Snitch,
    Support,
    Upgrade,
    Work,
)

__all__ = [
    "ALL",
    "FACTIONS",
    "JOIN",
    "MAX_DM_NUMBER",
    "NUMBER_WORDS",
    "ORDER_WORDS",
    "SANCTUM_ABILITIES",
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


_TOKEN = re.compile(r"\d+(?:[.,]\d+)+|[^\s.,;:!?()\[\]]+")
_NUMBER = re.compile(r"\$?-?[0-9]+(?:[.,][0-9]+)*\$?")
# a count spelled out where an order takes a number ("buy two units in P19"); larger ones go in digits
_NUMBER_WORDS = {w: n for n, w in enumerate(("zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
                                              "nine", "ten", "eleven", "twelve"))}
NUMBER_WORDS = tuple(_NUMBER_WORDS)  # the numbers a DM may write in words, zero to twelve
# "fifteen", "twenty", "twentyfive", "a hundred": numbers past _NUMBER_WORDS, said to go in digits
_LARGER_NUMBER_WORD = re.compile(r"(?:thir|four|fif|six|seven|eigh|nine)teen"
                                 r"|(?:twen|thir|for|fif|six|seven|eigh|nine)ty[a-z]*|hundred|thousand")
# "P3", "P#3", and "#3" where a Province is asked for ("Fortify #3", "2 from #6"): every Province is P<n>
# (board.PROVINCE_RE), and a player is never named so (Player#3); a number alone is never a Province
_PROVINCE = re.compile(r"(?:p#?|#)([0-9]+)")
_SEAT = re.compile(r"player#([0-9]+)")
_DIGITS = re.compile(r"[0-9]+")
# "1,000": a comma between groups of three digits. A ',' between orders is followed by a space
# (_segments), so a grouped number never clashes with one; in funding brackets it does (_parse_funding).
_GROUPED = re.compile(r"-?[1-9][0-9]{0,2}(?:,[0-9]{3})+")
_COMMA_NUMBER = re.compile(r"[0-9],[0-9]{3}")
_SEPARATED = re.compile(r"-?[0-9]+(?:[.,][0-9]{3})+")  # "1.000": a thousands separator, not a decimal point
_TRAILING_PAREN = re.compile(r"\(([^()]*)\)[\s.,;!]*$")
_PROVINCE_WORD = re.compile(r"\b(?:province|prov\.?)\s*#?\s*(?=\d)", re.IGNORECASE)  # "Province 3", "Prov. 3"
# "Province three", "prov six": a Province's number in words, one to twelve, as a count may be written (assumption
# DM_PLAYERS_WORDS); was refused as "'province' is not a province like P3". Never "P three" nor a number alone.
_PROVINCE_IN_WORDS = re.compile(r"\b(?:province|prov\.?)\s*#?\s*(" + "|".join(NUMBER_WORDS[1:]) + r")\b",
                                re.IGNORECASE)
_PLAYER_WORD = re.compile(r"\bplayer\s*#?\s*(?=\d)", re.IGNORECASE)  # "Player#2", "player # 2", "Player 2"
# an arrow written against its provinces ("P1->P2", "P1 >P2") is a word of its own, as with spaces
_TIGHT_ARROW = re.compile(r"(?<=\d)\s*(-->|->|=>|>|→|⟶|➡)\s*(?=p\s*#?\s*\d)", re.IGNORECASE)

_EXPECTED_ORDERS = (
    "March!, Delayed March!, Support!, Fortify!, Work, work! (each may be Golden), Bid, Buy, Upgrade, "
    "Capitol, Send, Snitch, Ferry, Burn, Faction, a Dragon commitment like '2 from P6 (sac 2)', "
    "or an ability like 'Fight fire with fire: 5'"
)
# What each waiting step takes (an error lists only these; ``None``: no step known, everything).
EXPECTED_BY_STEP: dict[str | None, str] = {
    None: _EXPECTED_ORDERS,
    "bid": "Bid 20 (in turn 1 with factions also Faction Hodir), or none",
    "rebid": "Bid 20, or none",
    "bank_bid": "Bid 20, or none",
    "orders": "March! 2 from P1 to P2, Delayed March!, Support! Player#2 in P2, Fortify! P1, Work, work! P1 "
    "(each may be Golden), Send 40 to Player#2, Snitch Player#2, Ferry P1, an ability, or none",
    "dragon": "a commitment like '2 from P6 (sac 2)' or 'commit 2 from P6', Turn off the lights, Burn P3, "
    "or an ability like 'Fight fire with fire: 5'",
    "consolidation": "'Buy 2 in P6. 1 in P5.', Bid 17, Upgrade P3, Capitol P3, an ability like "
    "'Faith alone sustains us!', or none",
}
# rules: none (input hygiene) -- the largest number a DM may hold. No count, bid or amount in a game comes
# near it ($Realm holdings are in the thousands); a longer number is refused before it is converted.
MAX_DM_NUMBER = 1_000_000
_MAX_DIGITS = len(str(MAX_DM_NUMBER))
MAX_ECHO = 60  # characters of a player's word quoted back in an error
MAX_REASON = 400  # characters of an error's reason
MAX_LINE_ECHO = 200  # characters of the offending DM line an error names

MAX_NAMES_SHOWN = 16
"""an unknown player name's error lists at most this many of the names (display names and colours)"""

# rules: 003 March! ("The specified number of Army Unit(s) ... must march"), Determine Protector US step (how many
# units "they want to commit"), Each Turn (the bid is "the amount of $Realm they wish to spend"): every order names a
# number. "March! all from P1 to P7", "all from P6", "Bid all" name one only the game's state gives: the seat's Army
# Units in that Province, or the $Realm it may bid. The reader has no state, so it reads "all" as ``ALL`` and
# ``dm_submit.settle`` turns it into that number, or refuses the line (assumption DM_ALL). ``ALL`` is no number a DM
# can write (numbers are never negative), and legality refuses it anywhere (a March! moves at least 1 unit, a
# commitment commits at least 1, a bid is at least 0), so it is never stored as a count.
ALL = -1
_ALL_UNITS = ("all", "everything")  # "March! all from P1 to P7", "Move everything from P1 to P7", "all from P6"
_COUNT_WORDS = frozenset(_NUMBER_WORDS) | frozenset(_ALL_UNITS)  # a count in words after "commit"
MAX_TURN_DIGITS = 3  # "turn 3" in a header or "my bid for turn 3 is 10"; a longer number is no turn


def _norm(word: str) -> str:
    """Lower-case without accents or apostrophes: "Kalu’Ak" -> "kaluak", "Palantír" -> "palantir"."""
    if word.isascii():  # the common case, without Unicode decomposition
        return word.replace("'", "").replace("`", "").lower()
    decomposed = unicodedata.normalize("NFKD", word)
    return "".join(c for c in decomposed if not unicodedata.combining(c) and c not in "'’`").lower()


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, with ``…`` where it was cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def echo(text: str) -> str:
    """``repr`` of a player's word, clipped to ``MAX_ECHO`` characters (errors stay short)."""
    return repr(text if len(text) <= MAX_ECHO else text[: MAX_ECHO - 1] + "…")


def _words(text: str) -> tuple[str, ...]:
    return tuple(_norm(t) for t in _TOKEN.findall(text.replace("_", " ")))


def _clean(line: str) -> str:
    """Drop Discord markup and spell ``Province 4`` / ``player # 2`` as ``P4`` / ``Player#2``."""
    text = re.sub(r"[*`~]", "", line).replace("_", " ")
    text = _PROVINCE_IN_WORDS.sub(lambda m: f"P{_NUMBER_WORDS[m.group(1).lower()]}", text)
    return _TIGHT_ARROW.sub(r" \1 ", _PLAYER_WORD.sub("Player#", _PROVINCE_WORD.sub("P", text)))


# ability key -> accepted spellings (as word tuples); longest spellings are tried first
_ABILITY_ALIASES: dict[str, set[tuple[str, ...]]] = {
    name: {_words(text), _words(name)} for name, text in ABILITY_TEXT.items()
}
_ABILITY_ALIASES["bank_of_lannuvar"].add(_words("Bank of Lannuvár"))
_ABILITY_ALIASES["mountain_king_offer"].add(_words("Mountain King's protection"))
_ABILITY_MATCHES = sorted(
    ((alias, name) for name, aliases in _ABILITY_ALIASES.items() for alias in aliases),
    key=lambda pair: -len(pair[0]),
)
_SANCTUM_ALIASES = {
    alias: key for key, text in SANCTUM_ABILITIES.items() for alias in (_words(text), _words(key))
}


class NameList:
    """How a refusal names the players: each name of the players map as written (by its normalised form),
    and the names an unknown player's refusal lists (the caller may give only the seats still in the game)."""

    def __init__(self, written: dict[str, str], listed: tuple[str, ...], island: str = ISLAND_NAME) -> None:
        self.written = written
        self.listed = listed
        self.island = island
        """the Province "the Island" names on this board (a GM's board may give it another number)"""


def name_list(players: Mapping[str, str] | None, listed: Collection[str] | None = None,
              island: str = ISLAND_NAME) -> NameList:
    """The ``NameList`` of a players map (display name or colour -> seat); ``listed``: the names to list when
    a player is not known (default: every name of the map), as written; ``island``: the board's Island."""
    written = {" ".join(_words(name)): name for name in (players or {})}
    for name in players or {}:  # "bob" (as a DM names "Bob 🐉") is written "Bob 🐉"
        plain = " ".join(_words(_without_symbols(name)))
        if plain:
            written.setdefault(plain, name)
    shown = tuple(listed) if listed is not None else tuple(written.values())
    return NameList(written, tuple(sorted(set(shown), key=_norm)), island)


class _Words:
    """A cursor over the words of one order; every failure names the whole line."""

    def __init__(self, line: str, text: str, seats: Mapping[str, str], step: str | None = None,
                 names: NameList | None = None):
        self.line, self.seats, self.i, self.step, self.names = line, seats, 0, step, names
        self.text = text
        matches = list(_TOKEN.finditer(text))
        self.raw = [m.group() for m in matches]
        self.norm = [_norm(w) for w in self.raw]
        self.spelled = [text[m.start() :].split()[0] for m in matches]  # with its punctuation

    def fail(self, reason: str) -> OrderSyntaxError:
        return OrderSyntaxError(clip(reason, MAX_REASON), input=clip(self.line, MAX_LINE_ECHO))

    def peek(self) -> str | None:
        return self.norm[self.i] if self.i < len(self.norm) else None

    def got(self) -> str:
        return f"got {echo(self.raw[self.i])}" if self.i < len(self.raw) else "but the line ends"

    def accept(self, *words: str) -> bool:
        if self.peek() in words:
            self.i += 1
            return True
        return False

    def expect(self, word: str, after: str) -> None:
        if not self.accept(word):
            raise self.fail(f"expected {word!r} after {after}, {self.got()}")

    def rest(self) -> tuple[str, str]:
        """The remaining words, as written and normalised; consumes them."""
        raw, norm = " ".join(self.raw[self.i :]), " ".join(self.norm[self.i :])
        self.i = len(self.raw)
        return raw, norm

    def end(self) -> None:
        if self.i < len(self.raw):
            if _THEN_MARCH.match(" ".join(self.norm[self.i :])):  # "Fortify P2 then March! 2 from P1 to P7"
                raise self.fail(f"{echo(' '.join(self.raw[self.i :]))}: 'then' before a March! could mean it moves "
                                "after the others, which is a Delayed March!; write 'Delayed March!' if so, else put "
                                "the March! on its own line")
            raise self.fail(f"unexpected {echo(' '.join(self.raw[self.i :]))} at the end of the order")

    def number(self, what: str, minimum: int = 0) -> int:
        token = self.raw[self.i] if self.i < len(self.raw) else None
        spelled = _NUMBER_WORDS.get(self.norm[self.i]) if token is not None else None
        if spelled is None and token is not None and self.norm[self.i] in ("a", "an") \
                and self.norm[self.i + 1 : self.i + 2] in (["unit"], ["army"]):
            spelled = 1  # "Buy a unit in P6"
        if spelled is not None:  # "buy two units in P19"
            if spelled < minimum:
                raise self.fail(f"{what} must be at least {minimum}, got {spelled}")
            self.i += 1
            return spelled
        if token is None or not _NUMBER.fullmatch(token):
            larger = token is not None and _LARGER_NUMBER_WORD.fullmatch(self.norm[self.i])
            hint = "; write numbers over twelve in digits" if larger else ""
            raise self.fail(f"expected {what} (a whole number), {self.got()}{hint}")
        digits = token.strip("$")
        if _GROUPED.fullmatch(digits):  # "1,000"
            digits = digits.replace(",", "")
        if not _DIGITS.fullmatch(digits.lstrip("-")):
            hint = "; write a thousand as 1000 or 1,000" if _SEPARATED.fullmatch(digits) else ""  # 1.000: 1 or 1000?
            raise self.fail(f"{what} must be a whole number, got {echo(token)}{hint}")
        if digits.startswith("-"):
            raise self.fail(f"{what} must not be negative, got {echo(token)}")
        digits = digits.lstrip("0") or "0"
        if len(digits) > _MAX_DIGITS or int(digits) > MAX_DM_NUMBER:
            raise self.fail(f"{what} must be at most {MAX_DM_NUMBER}, got a {len(digits)}-digit number")
        if int(digits) < minimum:
            raise self.fail(f"{what} must be at least {minimum}, got {int(digits)}")
        self.i += 1
        return int(digits)

    def count(self, what: str, minimum: int) -> int:
        """A unit count, or ``ALL`` for ``all`` / ``everything`` (``all units``, ``all my army units``)."""
        if self.peek() not in _ALL_UNITS:
            return self.number(what, minimum)
        self.i += 1
        if self.peek() == "my" and self.norm[self.i + 1 : self.i + 2] in (["unit"], ["units"], ["army"]):
            self.i += 1  # "all my units"
        after = self.peek()
        if after is not None and (_NUMBER.fullmatch(after) or after in _NUMBER_WORDS):  # "March! all 3 from P1 ..."
            raise self.fail(f"{echo(self.raw[self.i - 1] + ' ' + self.raw[self.i])} gives the count twice; write "
                            "either the number or 'all'")
        return ALL

    def units(self) -> None:
        """The optional word after a unit count: ``2 units``, ``2 army units``, ``1 unit``."""
        if self.accept("army", "armies"):
            self.accept("unit", "units")
        else:
            self.accept("unit", "units")

    def province(self, what: str) -> str:
        if self.i >= len(self.raw):
            raise self.fail(f"expected {what} like P3, but the line ends")
        island = self._island_words()
        if island:  # "to the Island", "to Wizard Sanctum": the rulebook's names of the Island
            self.i += island  # on a board without one, P0: the rules then say "this board has no Island (P0)"
            return self.names.island if self.names is not None else ISLAND_NAME
        if self._spaced_province():  # "P 1": every Province is named P<n> (board.PROVINCE_RE)
            number = self.norm[self.i + 1]
            if (self.spelled[self.i + 1] == self.raw[self.i + 1] and self.i + 2 < len(self.norm)
                    and _DIGITS.fullmatch(self.norm[self.i + 2])):  # "P 1 2"; "P 6. 1 in P5" is P6
                spelled = " ".join(self.raw[self.i : self.i + 3])
                raise self.fail(f"{echo(spelled)} could be P{number} or P{number}{self.norm[self.i + 2]}; "
                                "write the Province without spaces, like P3")
            self.i += 1
            self.norm[self.i] = "p" + number
        m = _PROVINCE.fullmatch(self.norm[self.i])
        if not m and self.norm[self.i] in ("province", "prov"):  # "Province twenty": past twelve, in digits
            said = _number_in_words(self.norm[self.i + 1 : self.i + 3])
            if said is not None:
                spelled = " ".join(self.raw[self.i : self.i + 1 + said[1]])
                raise self.fail(f"{echo(spelled)} spells a Province's number past twelve: write it in digits, like "
                                f"P{said[0]}")
        if not m or len(m.group(1).lstrip("0")) > _MAX_DIGITS:
            raise self.fail(f"{echo(self.raw[self.i])} is not a province like P3")
        self.i += 1
        return f"P{int(m.group(1).lstrip('0') or '0')}"

    def at_province(self) -> bool:
        """Whether the next word names a Province (``P1``, ``P 1``, ``the Island``)."""
        return self.i < len(self.norm) and (_PROVINCE.fullmatch(self.norm[self.i]) is not None
                                            or self._spaced_province() or self._island_words() > 0)

    def _island_words(self) -> int:
        """How many of the next words name the Island (``Island``, ``the Island``, ``Wizard Sanctum``, ``the
        Wizard Sanctum``), or 0."""
        start = self.i + 1 if self.i < len(self.norm) and self.norm[self.i] == "the" else self.i
        for name in _ISLAND_WORDS:
            if tuple(self.norm[start : start + len(name)]) == name:
                return start - self.i + len(name)
        return 0

    def _spaced_province(self) -> bool:
        """``P 1``: a lone ``P`` followed by a space and digits (``P. 1`` is not one)."""
        return (self.norm[self.i] == "p" and self.spelled[self.i] == self.raw[self.i]
                and self.i + 1 < len(self.norm) and _DIGITS.fullmatch(self.norm[self.i + 1]) is not None)

    def players(self) -> list[str]:
        """The rest of the order as a list of two or more players, each as written (``Carol and Dan``, ``Carol, Dan``,
        ``Carol & Dan``), when every one of them names a player and the whole names none; else ``[]``. Consumes
        nothing."""
        if " ".join(self.norm[self.i :]) in self.seats:
            return []
        groups: list[list[int]] = [[]]
        for k in range(self.i, len(self.norm)):
            if self.norm[k] in ("and", "&", "+"):
                groups.append([])
                continue
            groups[-1].append(k)
            if self.spelled[k].endswith(","):
                groups.append([])
        named = [g for g in groups if g]
        if len(named) < 2 or len(named) != len(groups) or not all(
                " ".join(self.norm[k] for k in g) in self.seats or _SEAT.fullmatch("".join(self.norm[k] for k in g))
                for g in named):
            return []
        written = self.names.written if self.names is not None else {}
        return [written.get(" ".join(self.norm[k] for k in g), " ".join(self.raw[k] for k in g)) for g in named]

    def seat(self, stop: str | None = None) -> str:
        """``Player#N``, or the words up to ``stop`` looked up in the players map; a leading ``@`` (a mention
        typed by hand: ``@Sam2``) is left out."""
        if self.i < len(self.norm) and self.norm[self.i].startswith("@") and len(self.norm[self.i]) > 1:
            self.norm[self.i] = self.norm[self.i][1:]
        m = _SEAT.fullmatch(self.peek() or "")
        if m and 1 <= len(m.group(1).lstrip("0")) <= _MAX_DIGITS:
            self.i += 1
            return f"Player#{int(m.group(1).lstrip('0'))}"
        start = self.i
        while self.i < len(self.norm) and self.norm[self.i] != stop:
            self.i += 1
        raw, key = " ".join(self.raw[start : self.i]), " ".join(self.norm[start : self.i])
        if not key:
            raise self.fail(f"expected a player like Player#2, {self.got()}")
        if key in self.seats:
            return self.seats[key]
        close = difflib.get_close_matches(key, list(self.seats), n=1, cutoff=0.75)
        if close:  # a typo of a display name or a colour
            meant = self.names.written.get(close[0], close[0]) if self.names is not None else close[0]
            raise self.fail(f"{echo(raw)} is not a player like Player#2; did you mean {meant}?")
        names = list(self.names.listed) if self.names is not None else sorted(self.seats)
        shown = ", ".join(names[:MAX_NAMES_SHOWN]) + (", ..." if len(names) > MAX_NAMES_SHOWN else "")
        known = f" or one of {shown}" if names else ""
        raise self.fail(f"{echo(raw)} is not a player like Player#2{known}")


_TEENS = {w: 13 + k for k, w in enumerate(("thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
                                            "nineteen"))}
_TENS = {w: 20 + 10 * k for k, w in enumerate(("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty",
                                               "ninety"))}


def _number_in_words(words: list[str]) -> tuple[int, int] | None:
    """A number from thirteen to ninety-nine in words at the start of ``words`` (``twenty``, ``twenty-one``, ``twenty
    one``) and how many words it takes, for a refusal to write it in digits; else ``None``."""
    if not words:
        return None
    if words[0] in _TEENS:
        return _TEENS[words[0]], 1
    tens, _, unit = words[0].partition("-")
    if tens not in _TENS:
        return None
    if unit:
        return (_TENS[tens] + _NUMBER_WORDS[unit], 1) if 0 < _NUMBER_WORDS.get(unit, 0) < 10 else None
    if len(words) > 1 and 0 < _NUMBER_WORDS.get(words[1], 0) < 10:
        return _TENS[tens] + _NUMBER_WORDS[words[1]], 2
    return _TENS[tens], 1


def _without_symbols(text: str) -> str:
    """``text`` without emoji and other pictographs (Unicode symbols ``So``), as a DM's line is read
    (``dm_lines.unwrap``): "Bob 🐉" -> "Bob "."""
    return text if text.isascii() else "".join(c for c in text if unicodedata.category(c) != "So")


def _seat_map(players: Mapping[str, str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    bare: dict[str, set[str]] = {}  # a display name with an emoji, as a DM can write it: without the emoji
    for name, seat in (players or {}).items():
        m = _SEAT.fullmatch(_norm(seat.replace(" ", "")))
        who = f"Player#{int(m.group(1))}" if m else seat
        key = " ".join(_words(name))
        out[key] = who
        plain = " ".join(_words(_without_symbols(name)))
        if plain and plain != key:
            bare.setdefault(plain, set()).add(who)
    # "Bob 🐉" is named "Bob" (a DM's emoji are left out, so "send 10 to Bob 🐉" was refused as "'Bob' is not a
    # player; did you mean Bob 🐉?"), unless "Bob" names another seat or two seats' names differ only by emoji
    for plain, who_all in bare.items():
        if len(who_all) == 1 and plain not in out:
            out[plain] = next(iter(who_all))
    return out


def _segments(text: str) -> list[str]:
    """Split a line into orders at top-level ``,;.`` where the next piece starts a new order."""
    chunks, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c == "(":
            depth += 1
        elif c == ")":
            depth = max(depth - 1, 0)
        elif depth == 0 and c in ",;." and (i + 1 == len(text) or text[i + 1].isspace()):
            chunks.append(text[start : i + 1])
            start = i + 1
    chunks.append(text[start:])
    chunks = [piece for chunk in chunks for piece in _split_at_and(chunk)]
    segments: list[str] = []
    current: tuple[str, ...] = ()  # the words of segments[-1]
    for chunk in chunks:
        words = _words(chunk)
        if segments and words and _is_send(current) and _sends_more(words):  # "Send 10 to Carol, 5 to Dan"
            segments.append("Send " + chunk.strip())
            current = ("send", *words)
        elif not segments or (words and _starts_order(words, current)):
            segments.append(chunk)
            current = words
        else:
            segments[-1] += chunk
            current += words
    return [piece for s in segments if _TOKEN.search(s) for piece in _each_province(s.strip())]


# rules: 003 Orders -- "One order can be given per Province that contains at least one Army Unit": "Fortify P1, P2",
# "Work P1 and P2", "Work, work! P1, P2 & P3" give the order of one Province to each Province of a list, read as one
# order each ("Fortify! P1", "Fortify! P2"). Only a Fortify! or Work, work!, which names its Province and nothing else
# ("March! 2 from P1 to P2 and P3" stays refused); a Golden one over a list, or a list naming a Province twice, is
# refused, saying why (_not_a_list; assumption DM_PROVINCE_LIST)
_LIST_TOKEN = re.compile(r"[,&+]|[^\s,&+]+")
_LIST_SEPARATORS = frozenset({",", "and", "&", "+"})
_ELLIPSIS = re.compile(r"\.\.+[\s,;.!]*$")  # "Fortify P1, P2, ...": a list that may go on


def _province_name(word: str) -> str | None:
    """``P3`` for a word naming a Province like ``P3``, ``p#3`` or ``#3`` (case aside), else ``None``."""
    m = _PROVINCE.fullmatch(word.lower())
    if m is None or len(m.group(1).lstrip("0")) > _MAX_DIGITS:
        return None
    return f"P{int(m.group(1).lstrip('0') or '0')}"


def _each_province(segment: str) -> list[str]:
    """``Fortify P1, P2 & P3`` -> ``Fortify P1``, ``Fortify P2``, ``Fortify P3``: a Fortify! or Work, work! over a
    list of Provinces, each joined by ``,`` ``and`` ``&`` or ``+``, as one segment per Province, and so a commitment of
    'all' (``all from P6 and P7``: ``all from P6``, ``all from P7``); else ``[segment]``.
    Brackets after the list go with its last piece (``Fortify P1, P2 (just in case)``), read as after any order."""
    remark = _TRAILING_PAREN.search(segment)
    tail = f" {segment[remark.start():].strip()}" if remark is not None else ""
    body = segment[: remark.start()] if remark is not None else segment
    tokens = list(_LIST_TOKEN.finditer(body.rstrip(" ,;.!?")))  # "Fortify P1 and P2.", "Fortify P1, P2, Work P3"
    listed: list[tuple[re.Match[str], str]] = []  # from the last Province back
    k = len(tokens) - 1
    while k >= 0:
        name = _province_name(tokens[k].group())
        if name is None:
            break
        listed.append((tokens[k], name))
        j = k - 1
        while j >= 0 and tokens[j].group().lower() in _LIST_SEPARATORS:
            j -= 1
        if j == k - 1:  # no separator before it: the list starts here ("Fortify P1 P2" is no list)
            break
        k = j
    names = [name for _, name in listed]
    if len(names) < 2 or len(set(names)) < len(names) or _ELLIPSIS.search(body):
        return [segment]  # "Work P1 and P1", "Fortify P1, P2, ...": refused, saying so (_not_a_list)
    first = listed[-1][0]
    head = body[: first.start()]
    try:
        item = _parse_item(_Words(segment, head + first.group(), {}))
    except OrderSyntaxError:
        return [segment]
    # "all from P6 and P7": every unit from each (never a number: "2 from P6 and P7", from each or in all? nor a sac:
    # "all from P6 and P7 (sac 1)", in each or in all?)
    every = isinstance(item, Commit) and item.count == ALL and item.sac is None and not tail
    if not (isinstance(item, Fortify | Work) and not item.golden) and not every:
        return [segment]  # "Golden Fortify! P1 and P2": refused (_not_a_list)
    pieces = [head + m.group() for m, _ in reversed(listed)]
    return [*pieces[:-1], pieces[-1] + body[listed[0][0].end():].rstrip() + tail]  # "Fortify P1, P2?" asks


def _split_at_and(chunk: str) -> list[str]:
    said = _words(chunk)
    commitment, send = _is_commitment(said), _is_send(said)
    pieces, start = [], 0
    for m in sorted((*_AND_ORDER.finditer(chunk), *(_AND_COMMIT.finditer(chunk) if commitment else ()),
                     *(_AND_SEND.finditer(chunk) if send else ())), key=lambda m: m.start()):
        if (chunk.count("(", 0, m.start()) == chunk.count(")", 0, m.start())  # not inside brackets
                and not _THEN_MARCH.match(chunk, m.start() + len(m.group()) - len(m.group().lstrip()))):
            pieces.append(chunk[start : m.start()])
            start = m.end()
    return [*pieces, chunk[start:]]


# rules: 003 3. Negotiation and Orders -- "state to the GM the amount and to whom you want to send $Realm": "Send 10 to
# Carol, 5 to Dan" (also "and", "&", "+" before the next "N to <player>") gives two amounts to two players, read as two
# Sends, as "Buy 2 in P6, 1 in P5" is one purchase in two Provinces. Two of them to one player are refused across the
# DM (dm_read.SENDS_TO_ONE); "Send 10 to Carol and Dan" (10 each, or in all?) is refused (assumption SEND_LIST)
SEND_LIST = True
_SEND_WORDS = ("send", "sending", "sends")


def _is_send(words: tuple[str, ...]) -> bool:
    """Whether ``words`` start a Send (``Send 10 to Bob``, ``I'm sending 10 to Bob``)."""
    i = next((k for k, x in enumerate(words) if x not in _FILLERS), None)
    return SEND_LIST and i is not None and words[i] in _SEND_WORDS


def _sends_more(words: tuple[str, ...]) -> bool:
    """Whether ``words`` are a Send's next amount and player without its word (``5 to Dan``, ``5 $Realm to Dan``)."""
    if not words or not (_NUMBER.fullmatch(words[0]) or words[0] in _NUMBER_WORDS):
        return False
    k = 2 if words[1:2] and words[1] in _REALM_WORDS else 1
    return words[k : k + 1] == ("to",) and len(words) > k + 1


def _starts_order(words: tuple[str, ...], current: tuple[str, ...]) -> bool:
    if words[0] == "work":  # "Work, work!" is one order
        return current not in (("work",), ("golden", "work"))
    if current == ("faction",):  # "Faction - Iron Light" is one
        return False
    if _is_count(words, 0):
        return _is_commitment(current)  # "2 from P6, 1 from P7" is two; "Buy 2 in P6, 1 in P5" is one
    return words[0] in _SEGMENT_STARTS


def _is_commitment(words: tuple[str, ...]) -> bool:
    """Whether ``words`` start a commitment (``2 from P6``, ``commit 2 from P6``, ``I commit 2 ...``)."""
    i = next((k for k, x in enumerate(words) if x not in _FILLERS), None)
    if i is None:
        return False
    return words[i] in _COMMIT_WORDS or _is_count(words, i)


def _is_count(words: tuple[str, ...], i: int) -> bool:
    """Whether ``words[i]`` is a count: digits, or a number word a commitment's word follows (``two from P6``,
    ``one unit``; "two" alone may be a name's), or 'all' so followed (``all from P6``, ``all my units from P6``)."""
    if _NUMBER.fullmatch(words[i]):
        return True
    after = words[i + 1 : i + 2]
    return (words[i] in _NUMBER_WORDS and after in _COUNTED) or (words[i] in _ALL_UNITS and after in _ALL_COUNTED)


def _parse_funding(line: str, inner: str, seats: Mapping[str, str], names: NameList | None) -> tuple[Funding, ...]:
    # "(20 from Bob + 10 from Carol)": '+' and '&' join fundings as 'and' does (they join a purchase's Provinces too)
    parts = [p for p in re.split(r"[,;+&]|\band\b", inner, flags=re.IGNORECASE) if p.strip()]
    if not parts:
        raise OrderSyntaxError(f"empty funding {echo('(' + inner + ')')}; expected like '(110 from Player#2)'",
                               input=clip(line, MAX_LINE_ECHO))
    out = []
    try:
        for part in parts:
            w = _Words(line, part, seats, names=names)
            amount = w.number("the funding amount", 1)
            w.accept(*_REALM_WORDS)
            w.expect("from", "the funding amount")
            out.append(Funding(amount, w.seat()))
    except OrderSyntaxError as err:
        m = _COMMA_NUMBER.search(inner)
        if m is None:
            raise
        # "(1,000 from Bob)": in brackets ',' separates the fundings ("(10 from Player#2,100 from Player#3)")
        raise OrderSyntaxError(clip(f"{err.reason}; in the brackets ',' separates the fundings, so a number "
                                    "there is written without one (1000, not 1,000)", MAX_REASON),
                               input=clip(line, MAX_LINE_ECHO)) from None
    return tuple(out)


# words that keep brackets after an order from being a remark ("(just in case)"): an order's, a pooling's, a
# Province's or a player's, and those that may turn the order around ("(not really)", "(cancel)")
_NOT_A_REMARK = frozenset({"from", "sac", "sacrifice", "realm", "realms", "$realm", "p", "province", "player",
                           "island", "none", "nothing", "pass", "move", "attack", "lights", "commit", "faction",
                           "kalu", "ak", *(x for f in FACTIONS for x in _words(f))}  # "Bid 20 (Hodir)"
                          | TURN_AROUND)  # "(not really)", "(jk)", "(if allowed)", "(unless Bob attacks)"
# ... and the words that give a number or change one: a number in words ("(minus one)", "(leave one)") and what may
# change a count or an amount ("(keep some)", "(half)", "(save a little)", "(a unit stays)"). "March! all from P1 to
# P7 (leave one)" and "Bid all (save some)" were stored as all the units or $Realm, the remark left out
_COUNT_CHANGING = frozenset({*_NUMBER_WORDS, "minus", "less", "fewer", "more", "times", "twice", "double", "triple",
                             "half", "third", "quarter", "percent", "each", "per", "leave", "leaving", "keep",
                             "keeping", "save", "saving", "bar", "barring", "most", "least", "max", "maximum", "min",
                             "minimum", "some", "few", "rest", "remaining", "remainder", "dozen", "extra", "unit",
                             "units"})


# ... and the words that hedge an order ("(I think)", "(I guess)", "(prob)"): tentative, as "(maybe)" is (dm_lines.
# TURN_AROUND), never left out as a remark; "Fortify P1 (I think)" was stored as Fortify! P1 (assumption HEDGED_REMARK)
HEDGED_REMARK = frozenset({"think", "thinking", "guess", "guessing", "prob", "probs", "idk", "dunno", "believe",
                           "likely", "unlikely", "presumably", "suppose", "supposedly", "reckon", "tbc", "tba",
                           "approx", "approximately", "roughly", "circa", "ish"})  # "Bid 7 (roughly)": about 7


def split_remark(segment: str) -> tuple[str, str]:
    """``Fortify! P9 (just in case)`` -> (``Fortify! P9``, ``(just in case)``): brackets at the end of an order
    holding words only, none a number (in digits or words) or a word orders, poolings, Provinces or players are made
    of, nor one that may turn the order around or change a count (``(minus one)``, ``(keep some)``); else
    (``segment``, ``""``): the brackets are read as team pooling."""
    m = _TRAILING_PAREN.search(segment)
    if m is None or any(c.isdigit() or c == "?" for c in m.group(1)):  # "(right?)" asks: no remark to leave out
        return segment, ""
    w = _words(m.group(1))
    if not w or faction_named(" ".join(w)) is not None or any(_no_remark_word(x) for x in w):
        return segment, ""
    return segment[: m.start()].rstrip(), m.group().strip().rstrip(".,;! ")


def _no_remark_word(x: str) -> bool:
    """Whether the word ``x`` keeps brackets from being a remark (``split_remark``)."""
    # "the" starts The Bank of Lannuvár, which is also read without it: "(the Bank ...)" has "bank"
    return (x in _NOT_A_REMARK or x in _COUNT_CHANGING or x in HEDGED_REMARK or _LARGER_NUMBER_WORD.fullmatch(x)
            is not None or (x in ORDER_WORDS and x != "the") or _SEAT.fullmatch(x) is not None)


def remark_alone(inner: str) -> str | None:
    """Why brackets holding ``inner`` on a line of their own ("(sorry for the late reply, was at work)") are no remark
    to leave out, in words for the player; ``None`` when they are one (assumption STANDALONE_REMARK). As after an order
    (``split_remark``), but a word orders are made of may stand inside the remark ("was at work") unless it could start
    an order there ("(fortify everything)"); the reader has already refused brackets that read as an order."""
    if "?" in inner or any(c.isdigit() for c in inner):
        return _no_remark_because(inner)
    for piece in _segments(_clean(inner)):  # "(sorry, work was busy)": 'work' could start an order there
        w = _words(piece)
        first = next((x for x in w if x not in _FILLERS), None)
        if first is not None and first in ORDER_WORDS and first != "the":
            return f"{echo(first)} could start an order"
    w = _words(inner)
    kept = " ".join(x for x in w if x not in ORDER_WORDS or x in _NOT_A_REMARK)
    if faction_named(" ".join(w)) is not None or any(_no_remark_word(x) for x in _words(kept)):
        return _no_remark_because(kept)
    return None


def _no_remark_because(inner: str) -> str:
    """Why brackets holding ``inner`` are no remark ``split_remark`` leaves out, in words for the player: the first
    word that could change the order (``(if taken then Cenarion)``: 'if'), or what else keeps it."""
    if "?" in inner:
        return "it asks ('?')"
    w = _words(inner)
    if faction_named(" ".join(w)) is not None:
        return "it names a faction"
    for x in w:
        if x in TURN_AROUND:
            return f"{echo(x)} could take the order back or make it depend on something"
        if x in HEDGED_REMARK:
            return f"{echo(x)} makes the order tentative, and a DM's orders are final"
    for x in w:
        if _SEAT.fullmatch(x) or x == "player":
            return f"{echo(x)} names a player"
        if x in ("p", "province", "island") or re.fullmatch(r"p[0-9]+", x):
            return f"{echo(x)} names a Province"
        if x in _COUNT_CHANGING or _LARGER_NUMBER_WORD.fullmatch(x) or any(c.isdigit() for c in x):
            return f"{echo(x)} could give or change a number"
        if x in _NOT_A_REMARK or (x in ORDER_WORDS and x != "the"):  # as split_remark: "the" starts no order
            return f"{echo(x)} is a word orders are made of"
    return "it could change the order"


# the steps where brackets after an order may pool $Realm from a team-mate (rules: 003 Team Games, Pooled $Realm:
# the bid and the purchases); in the others a refused remark is never called pooling
_NO_POOLING_STEPS = ("orders", "dragon")


def _parse_segment(line: str, segment: str, seats: Mapping[str, str], step: str | None = None,
                   names: NameList | None = None) -> Line:
    funding: tuple[Funding, ...] = ()
    m = _TRAILING_PAREN.search(segment)
    if m and not "".join(_words(m.group(1))).startswith("sac"):
        try:
            funding = _parse_funding(line, m.group(1), seats, names)
        except OrderSyntaxError as err:
            first = _words(m.group(1))[:1]
            if not first or _NUMBER.fullmatch(first[0]):
                raise
            # "(just in case)" read as pooling: say so, not only "expected the funding amount", and say why it is no
            # remark ("(golden)", "(if taken then Cenarion)"); where nothing pools, never speak of pooling
            paren = echo("(" + m.group(1).strip() + ")")
            because = _no_remark_because(m.group(1))
            if step in _NO_POOLING_STEPS:
                reason = (f"brackets after an order are left out only as a remark that could not change it, and "
                          f"{paren} is none ({because}); send the order without them: a note to the GM goes after //")
            else:
                reason = (f"brackets after an order are read as team pooling, like '(30 from Player#2)': {err.reason}; "
                          f"and {paren} is no remark to leave out ({because}); a note to the GM goes after //")
            raise OrderSyntaxError(clip(reason, MAX_REASON), input=clip(line, MAX_LINE_ECHO)) from None
        segment = segment[: m.start()]
    return Line(_parse_item(_Words(line, segment, seats, step, names)), funding)


def _parse_item(w: _Words) -> Item:
    # "Turn 1 bid is 10", "My turn 4 bid = 10", "turn 1 bid 10": the bid's turn said before it, as "my bid for turn 1
    # is 10" says it after (dm_read._other_turn checks it as a header's)
    at = w.i + (w.peek() == "my")
    if (w.norm[at : at + 1] == ["turn"] and at + 3 < len(w.norm) and _DIGITS.fullmatch(w.norm[at + 1])
            and len(w.norm[at + 1]) <= MAX_TURN_DIGITS and w.norm[at + 2] in ("bid", "rebid")
            and not w.spelled[at + 2].endswith(":")  # "Turn 1 bid: 10": a header, then the bid
            and (w.norm[at + 3] in ("is", "=") or _NUMBER.fullmatch(w.norm[at + 3]))):
        w.i = at + 2
    # "My bid: 20", "I march 2 from P1 to P2", "please fortify P1": a filler word before an order word
    while (w.peek() in _FILLERS and w.i + 1 < len(w.norm) and w.norm[w.i + 1] in _FILLER_NEXT
           and not (w.i == 0 and w.peek() in w.seats)  # "Will bid 10" with a player named Will: whose bid?
           and not (w.peek() == "id" and w.norm[w.i + 1] not in _CHOOSE_VERBS)):  # "I'd bid 10": I would, if ...
        w.i += 1
    # "I'd like to bid 20", "I want to fortify P1", "I'm going to bid 10", "I want to play Hodir"
    if w.peek() in ("like", "want", "going") and tuple(w.norm[w.i + 1 : w.i + 2]) == ("to",) and w.i + 2 < len(w.norm) \
            and (w.norm[w.i + 2] in HEAD_ITEMS or w.norm[w.i + 2] == "play"):
        w.i += 2
    golden = delayed = False
    while w.peek() in ("golden", "delayed"):
        word = w.raw[w.i].capitalize()
        if (golden, delayed)[w.peek() == "delayed"]:
            raise w.fail(f"{word!r} given twice")
        golden, delayed = golden or word == "Golden", delayed or word == "Delayed"
        w.i += 1
    head = w.peek()
    if head is None:
        raise w.fail(f"expected an order after {w.raw[w.i - 1]!r}" if w.i else "expected an order")
    head = _ALIASES.get(head, head)
    if delayed and head != "march":
        raise w.fail(f"'Delayed' applies only to March!, not {w.spelled[w.i]!r}")
    if golden and head not in ("march", "support", "fortify", "work"):
        only = "March!, Support!, Fortify! and Work, work!"
        raise w.fail(f"'Golden' applies only to {only}, not {w.spelled[w.i]!r}{_did_you_mean(head)}")
    if (_is_count(tuple(w.norm), w.i) and w.step == "consolidation" and not (golden or delayed)
            and _BUY_PLACE.match(" ".join(w.norm[w.i + 1 : w.i + 4]))):
        bought = _buy(w, golden, delayed)  # "1 in P6" alone: in the Consolidation only a purchase places units
        w.end()
        return bought
    if _is_count(tuple(w.norm), w.i):
        return _parse_commit(w)  # "2 from P6", "one from P7" (after "commit two from P6 and")
    if head in _COMMIT_WORDS and not (golden or delayed):  # "commit 2 from P6" (rules: 003 "commit ... to the fight")
        w.i += 1
        if w.peek() is not None and (_NUMBER.fullmatch(w.peek() or "") or w.peek() in _COUNT_WORDS):
            return _parse_commit(w)  # "commit 2 from P6", "commit two from P6", "commit all units from P6"
        raise w.fail(f"expected the unit count after {echo(w.raw[w.i - 1])}, like 'commit 2 from P6', {w.got()}")
    if head in _SIMPLE:
        w.i += 1
        item = _SIMPLE[head](w, golden, delayed)
        w.end()
        return item
    for alias, name in _ABILITY_MATCHES:
        if tuple(w.norm[w.i : w.i + len(alias)]) == alias:
            w.i += len(alias)
            return _parse_ability(w, name)
    if not (golden or delayed) and (head in _CHOOSE_VERBS or head in _FACTION_FIRST_WORDS):
        said = tuple(w.norm[w.i + (head in _CHOOSE_VERBS):])
        said = next((said[: -len(tail)] for tail in _AS_FACTION if said[-len(tail):] == tail), said)
        named = faction_named(" ".join(said))
        if named is not None:  # the rest of the segment is a faction's name
            w.i = len(w.norm)
            return ChooseFaction(named)
    expected = EXPECTED_BY_STEP.get(w.step, _EXPECTED_ORDERS)
    hint = f" ({echo(w.raw[w.i])} is a player's name: a DM gives your own orders, write them without it)" \
        if w.i == 0 and head in w.seats and w.i + 1 < len(w.norm) else \
        " ('I'd' is 'I would', which may depend on something: write the order alone, or 'I'd like to ...')" \
        if head == "id" and w.raw[w.i].lower() != "id" else ""
    raise w.fail(f"unknown order {echo(w.spelled[w.i])}{hint or _did_you_mean(head)}; expected one of {expected}")


def _did_you_mean(head: str) -> str:
    """" (did you mean Fortify!?)" for a misspelt order word ("Fortfy!", "Marsh!", "Bdi"); "" for an order word
    spelt right or none close."""
    if head in _HEAD_NAMES:
        return ""
    close = (difflib.get_close_matches(head, list(_HEAD_NAMES), n=1, cutoff=0.75)  # "Fortfy!", "Marsh!"
             or [n for n in _HEAD_NAMES if sorted(n) == sorted(head)])  # "Bdi": two letters swapped; not "ok"
    return f" (did you mean {_HEAD_NAMES[close[0]]}?)" if close else ""


# an order's first word as the rulebook writes it, for "did you mean ...?" after a misspelt one
_HEAD_NAMES = {"march": "March!", "support": "Support!", "fortify": "Fortify!", "work": "Work, work!", "bid": "Bid",
               "buy": "Buy", "upgrade": "Upgrade", "capitol": "Capitol", "burn": "Burn", "send": "Send",
               "snitch": "Snitch", "ferry": "Ferry", "faction": "Faction", "commit": "commit", "golden": "Golden",
               "delayed": "Delayed"}


def _march(w: _Words, golden: bool, delayed: bool) -> March:
    count = w.count("the unit count", 1)  # "March! all from P1 to P7": ALL
    w.units()
    if not (w.accept("from") or w.at_province()):  # "March! 2 P1 to P2": 'from' may go
        raise w.fail(f"expected 'from' after the unit count, {w.got()}")
    src = w.province("the source province")
    if not w.accept(*_TO_WORDS):  # "March! 2 from P1 -> P2"
        raise w.fail(f"expected 'to' after the source province, {w.got()}")
    return March(count, src, w.province("the destination province"), golden, delayed)


# rules: 003 Island Rules -- "the Island" holds "a Wizard Sanctum"; a DM may name it so (the board's Island is P0)
_ISLAND_WORDS = (("island",), ("wizard", "sanctum"))
_TO_WORDS = ("to", "into", "->", "-->", "=>", ">", "→", "⟶", "➡")  # an arrow says 'to' as plainly


def _support(w: _Words, golden: bool, delayed: bool) -> Support:
    # rules: 003 Support! — "Support! <player> in <province> [from <province>]"; players also write 'at' for 'in'
    # ("Support! Bob at P3", as a purchase's "at P6"), or leave it out before the Province ("Support! Bob P3 from P2")
    rest = w.norm[w.i:]
    stop = next((word for word in ("in", "at") if word in rest), None)
    if stop is not None:
        player = w.seat(stop=stop)
        w.expect(stop, "the player")
    else:
        player = w.seat(stop=next((word for word in rest if _PROVINCE.fullmatch(word)), None))
    target = w.province("the supported province")
    src = w.province("the supporting province") if w.accept("from") else None
    return Support(player, target, src, golden)


def _work(w: _Words, golden: bool, delayed: bool) -> Work:
    w.accept("work")  # "Work, work!" or a lone "Work"
    if w.peek() is None:
        return Work(None, golden)
    order = Work(_in_province(w, "the province"), golden)
    _not_a_list(w, order)
    return order


def _fortify(w: _Words, golden: bool, delayed: bool) -> Fortify:
    order = Fortify(_in_province(w, "the province"), golden)
    _not_a_list(w, order)
    return order


def _not_a_list(w: _Words, order: Fortify | Work) -> None:
    """Refuses a list of Provinces after a Fortify! or Work, work! that ``split_orders`` left as it is: a Golden one
    ("Golden Fortify! P1 and P2": Golden in each, or only in P1?), or one naming a Province twice ("Work P1 and P1");
    anything else after the Province is refused as usual (``_Words.end``)."""
    first, name = order.province, ("Fortify!" if isinstance(order, Fortify) else "Work, work!")
    after = w.norm[w.i : w.i + 2]
    if first is not None and len(after) == 2 and set(after[0]) == {"-"} and _province_name(after[1]) is not None:
        # "Fortify P1 - P3" (dm_lines.unwrap keeps a dash between Provinces): P1 and P3, or P1 to P3?
        then = _province_name(after[1])
        raise w.fail(f"'{first} - {then}' could mean {first} and {then} or every Province from {first} to {then}: "
                     f"name each Province, joined by ',' or 'and', like '{name} {first}, {then}'")
    listed = [_province_name(x) for x in w.norm[w.i :] if x not in _LIST_SEPARATORS]
    if not listed or None in listed or first is None:
        return
    if _ELLIPSIS.search(w.text):  # "Fortify P1, P2, ...": and more?
        raise w.fail(f"'...' after the list of Provinces could mean more of them: name each Province, like '{name} "
                     f"{first}, {listed[0]}'")
    provinces = [first, *(p for p in listed if p is not None)]
    if order.golden:
        raise w.fail(f"'Golden' before a list of Provinces could mean a Golden order in each of them or only in "
                     f"{first} (one Golden order of each kind a turn): write each order on its own line, like 'Golden "
                     f"{name} {first}' and '{name} {provinces[1]}'")
    twice = next((p for k, p in enumerate(provinces) if p in provinces[:k]), None)
    if twice is not None:
        raise w.fail(f"{twice} is named twice in the list of Provinces; name each Province once")


def _in_province(w: _Words, what: str) -> str:
    """The Province of a Fortify! or Work, work!, also after 'in' or 'at' ("Fortify! in P1")."""
    if w.peek() in ("in", "at") and w.i + 1 < len(w.norm):
        w.i += 1
    return w.province(what)


def _buy(w: _Words, golden: bool, delayed: bool) -> Buy:
    allocations: list[tuple[str, int]] = []
    while True:
        count = w.number("the number of units to buy", 1)
        w.units()
        if w.accept("in", "at", "@") or w.at_province():  # "Buy 1 unit at P6", "Buy 1 @ P6", "buy 1 P5"
            allocations.append((w.province("the province to buy in"), count))
        elif w.peek() is None or _NUMBER.fullmatch(w.peek() or ""):
            allocations.append(("", count))  # team form: default placement
        else:
            w.expect("in", "the number of units to buy")
        if w.peek() is None:
            break
        w.accept("and", "+", "&")  # "Buy 2 in P6 and 1 in P5", "Buy 2 in P6 + 1 in P5"
        if allocations[-1][0] and w.at_province():  # "Buy 1 in P5 and P6": 1 in each, or 1 in all?
            place, count = allocations[-1]
            then = w.province("the province to buy in")
            raise w.fail(f"'{count} in {place} and {then}' could mean {count} in each or {count} in all: give each "
                         f"Province its count, like 'Buy {count} in {place}. {count} in {then}.' if you buy {count} in "
                         "each")
    if len(allocations) > 1 and any(p == "" for p, _ in allocations):
        raise w.fail("'Buy' without a province takes a single count")
    return Buy(tuple(allocations))


def _send(w: _Words, golden: bool, delayed: bool) -> Send:
    if w.peek() in _ALL_UNITS or w.norm[w.i : w.i + 2] == ["the", "rest"]:
        # rules: 003 Negotiation and Orders — "state to the GM the amount"; what a seat holds when the Sends are
        # revealed (Execute Orders) is no fixed number at the DM (others' Sends to it, its purchases), so never
        # guessed (assumption DM_ALL)
        raise w.fail("a Send names its amount ('state to the GM the amount', rules 003): 'all' is no fixed number "
                     "there, so write the $Realm to send, like 'Send 40 to Bob'")
    amount = w.number("the amount", 1)
    w.accept(*_REALM_WORDS)
    w.expect("to", "the amount")
    rest = w.norm[w.i:]
    if " ".join(rest) not in w.seats and any(rest[k] == "and" and _NUMBER.fullmatch(rest[k + 1])
                                             for k in range(1, len(rest) - 1)):
        # "Send 40 to Bob and 10 Carol": one amount per Send, said so instead of "'Bob and 10 Carol' is not a player"
        raise w.fail("a Send gives one amount to one player: write each Send with its amount and player, like 'Send 40 "
                     "to Bob, 10 to Carol', or each Send on its own line")
    players = w.players()
    if len(players) > 1:  # "Send 10 to Carol and Dan": 10 to each, or 10 in all? (SEND_LIST)
        each = " and ".join(f"'Send {amount} to {p}'" for p in players)
        raise w.fail(f"a Send gives its amount to one player: {amount} to each of {' and '.join(players)}, or {amount} "
                     f"in all? write one Send per player with its amount, like {each} if each gets {amount}")
    return Send(amount, w.seat())


def _faction(w: _Words, golden: bool, delayed: bool) -> ChooseFaction:
    # rules: 003 Factions -- each player selects their faction on turn 1: "Faction Hodir", "My faction is Hodir"
    w.accept("is", "=")
    raw, norm = w.rest()
    named = faction_named(norm)
    if named is None:
        raise w.fail(f"unknown faction {raw!r}; expected one of {', '.join(FACTIONS)}")
    return ChooseFaction(named)


def _snitch(w: _Words, golden: bool, delayed: bool) -> Snitch:
    w.accept("on")
    players = w.players()
    if len(players) > 1:  # "snitch carol & dan"
        # rules: 003 Pirates! -- "If you wish to snitch on another Protector, simply submit their name": one player
        one = " or ".join(f"'Snitch {p}'" for p in players)
        raise w.fail(f"a Snitch names one player (rules 003 Pirates!: 'snitch on another Protector ... submit their "
                     f"name'), and this one names {len(players)}: send one Snitch line, {one}")
    return Snitch(w.seat())


_SIMPLE: dict[str, Callable[[_Words, bool, bool], Item]] = {
    "march": _march,
    "support": _support,
    "fortify": _fortify,
    "work": _work,
    "bid": lambda w, golden, delayed: _bid(w),
    "buy": _buy,
    "upgrade": lambda w, golden, delayed: Upgrade(w.province("the province to upgrade")),
    "capitol": lambda w, golden, delayed: Capitol(w.province("the Capitol province")),
    "capital": lambda w, golden, delayed: Capitol(w.province("the Capitol province")),
    "burn": lambda w, golden, delayed: Burn(w.province("the province to burn")),
    "send": _send,
    "snitch": _snitch,
    "ferry": lambda w, golden, delayed: Ferry(w.province("the ferry province")),
    "faction": _faction,
}
# the words players use for an order beside the rulebook's: "Move 2 from P1 to P2", "rebid 12", "Purchase 1 in P6"
_ALIASES = {"move": "march", "rebid": "bid", "purchase": "buy", "bidding": "bid",  # "I'm bidding 5"
            "buying": "buy",  # "Buying 2 units in P6"
            "re-bid": "bid", "rebidding": "bid", "moving": "march", "marching": "march", "supporting": "support",
            "fortifying": "fortify", "sending": "send", "snitching": "snitch"}  # "I'm snitching on Bob"
# "buy 1 unit in P6 and bid 5": 'and' before an order's own word (never before a number: "Buy 2 in P6 and 1 in P5"
# is one purchase, "(30 from Bob and 10 from Player#4)" one pooling) starts a new order; so do 'then', 'and then',
# '&' and '+' ("March! 2 from P1 to P7, then Fortify! P2", "Fortify P1 & Work P2"): the orders of a DM are given
# together (rules: 003 Each Turn, one DM of orders), so 'then' orders nothing after anything. Before anything else
# ("Fortify P1 then P2", "Bid 10 then 12") they stay where they are, and the order is refused
JOIN = r"\s+(?:and\s+then|and|then|[&+])\s+"
# ... and before a faction's name, the turn-1 choice beside the bid ("Bid 10 and Hodir", as "Bid 10, Hodir")
# (each name as players type it: any case, an apostrophe or none, any accent: "Kalu'ak", "kaluak", "Lannuvar")
_FACTION_AHEAD = "|".join(re.sub(r"[^a-z]", lambda m: {"'": r"\W?", " ": r"\s+"}.get(m.group(), r"\w"), f.lower())
                          for f in FACTIONS)
# ... and before a faction chosen in a player's words ("Bid 6 and I pick Hodir", "bid 6 & I'll take Kalu'ak": rules: 003
# Factions, chosen on turn 1 with the bid; was refused: "unexpected 'and I pick Hodir'")
_CHOOSING = r"(?:(?:i|i'?ll|i'?d|i\s+will)\s+)?(?:take|choose|pick|want|like|prefer|play)"
_AND_ORDER = re.compile(JOIN + r"(?=(?:golden\s+|delayed\s+)?(?:" + "|".join(sorted({*_SIMPLE, *_ALIASES}))
                        + "|" + _FACTION_AHEAD + "|" + _CHOOSING + r")\b)", re.IGNORECASE)
# ... and, in a commitment, before the next "N from P" ("I commit 2 from P2 and 1 from P3", "2 from P6 + 1 from P7")
# ... but never 'then' before a March!: the rules' Delayed March! moves after the others, so "Fortify P2 then March! 2
# from P1 to P7" could mean one; it is refused, saying to write Delayed March! or the March! on its own line
_THEN_MARCH = re.compile(r"(?:and\s+)?then\s+(?:golden\s+)?(?:march|move|moving|marching)\b", re.IGNORECASE)
_AND_COMMIT = re.compile(JOIN + r"(?=(?:[0-9]+|" + "|".join(_NUMBER_WORDS) + r"|(?:all|everything)(?:\s+my)?)"
                         r"\s+(?:army\s+)?(?:units?\s+)?from\b)",
                         re.IGNORECASE)
# ... and, in a Send, before the next "N to <player>" ("Send 40 to Bob and 10 to Carol": SEND_LIST)
_AND_SEND = re.compile(JOIN + r"(?=\$?(?:[0-9][0-9,]*|" + "|".join(_NUMBER_WORDS) + r")\$?\s+"
                       r"(?:(?:\$?realms?|gold|\$)\s+)?to\b)", re.IGNORECASE)
_COMMIT_WORDS = ("commit", "commits", "committing")
_COUNTED = (("from",), ("unit",), ("units",), ("army",))  # after a spelled count, a commitment's next word
_ALL_COUNTED = (*_COUNTED, ("my",))  # ... and after 'all' ("all my units from P6")
# the first word of an order -> the kind of order it starts (an error names the step that takes it)
HEAD_ITEMS: dict[str, type] = {
    "march": March, "golden": March, "delayed": March, "support": Support, "fortify": Fortify, "work": Work,
    "bid": Bid, "buy": Buy, "upgrade": Upgrade, "capitol": Capitol, "capital": Capitol, "burn": Burn,
    "send": Send, "snitch": Snitch, "ferry": Ferry, "faction": ChooseFaction,
    "commit": Commit, "commits": Commit, "committing": Commit,  # _COMMIT_WORDS
}
HEAD_ITEMS.update({alias: HEAD_ITEMS[word] for alias, word in _ALIASES.items()})


def head_item(segment: str) -> type | None:
    """The kind of order ``segment`` (from ``split_orders``) starts with, if its first word says."""
    w = _words(segment)
    if not w:
        return None
    return Commit if _NUMBER.fullmatch(w[0]) else HEAD_ITEMS.get(w[0])
# the word after an amount that names its money: $Realm, also "gold" (rules: 003 has no money but $Realm; "Golden" names
# orders, never an amount, so "Bid 10 gold" can only be 10 $Realm)
_REALM_WORDS = ("realm", "$realm", "$", "realms", "gold")
# "Bid all", "Bid everything", "Bid the rest", "Bid all I have", "Bid all my $Realm" (and "All in" alone in a step that
# takes only a bid: dm_read._as_bid): the most the seat may bid, ALL until dm_submit.settle gives the number
# (also "Bid all I've got", "Bid all I have left", "Bid it all", "Bid all of it", "Bid the rest of my $Realm"), longest
# first
_ALL_BIDS = tuple(sorted({
    ("all", "in"), ("all-in",), ("all", "of", "it"), ("it", "all"), ("the", "rest"), ("all",), ("everything",),
    *((every, *have, *left) for every in ("all", "everything") for have in (("i", "have"), ("i", "got"), ("ive", "got"))
      for left in ((), ("left",))),
    *((*every, *of, "my", word) for every in (("all",), ("the", "rest")) for of in ((), ("of",))
      for word in _REALM_WORDS),
}, key=lambda phrase: (-len(phrase), phrase)))
# "ok so I'm bidding 5", "I will bid 10", "I'm gonna bid 10", "just bid 10", "my new bid is 5": skipped only before an
# order's word or another of these ("I will not bid" stays refused)
_FILLERS = ("my", "i", "ill", "id", "im", "am", "please", "a", "ok", "okay", "so", "will", "gonna", "just", "new")
# turn 1 with factions, the choice in a player's words: "I'll take Kalu'ak", "I'd like Cenarion as my faction", or
# the name alone after the bid ("Bid 9, Hodir"; "I bid 0. Iron Light please"). Only a faction's name may follow
# such a verb, and after the name only "as my faction".
_CHOOSE_VERBS = frozenset({"take", "choose", "pick", "want", "like", "prefer", "play"})  # "I want to play Hodir"
_AS_FACTION = (("as", "my", "faction"), ("for", "my", "faction"), ("as", "faction"))
_FACTION_FIRST_WORDS = frozenset(_words(f)[0] for f in FACTIONS)
# may follow a filler ("going": "I'm going to bid 10")
_FILLER_NEXT = frozenset(HEAD_ITEMS) | frozenset(_FILLERS) | frozenset(_ALIASES) | _CHOOSE_VERBS | {"going"}
ORDER_WORDS = frozenset({"golden", *_COMMIT_WORDS, "delayed", *_SIMPLE, *HEAD_ITEMS}
                        | {alias[0] for alias, _ in _ABILITY_MATCHES})  # the words an order may start with
# words after ",;." that start a new piece of the line: an order, or what dm_lines.chatter may leave out
# ("Hi GM, I bid 20, thanks"); not the fillers a remark may hold ("Fortify! P1. (just in case)")
_SEGMENT_STARTS = ORDER_WORDS | set(_FILLERS) - {"a", "will", "gonna", "just", "new"} | _CHOOSE_VERBS \
    | _FACTION_FIRST_WORDS | {
    "hi", "hello", "hey", "thanks", "thank", "thx", "ty", "cheers", "regards", "bye", "gl", "glhf", "good", "sorry",
    "apologies", "no"}  # "... Good luck all!", "Rebid: 0, sorry", "Bid 5, no buys"


def _bid(w: _Words) -> Bid:
    said = _this_turn(w)
    numbered = said == 3 and w.norm[w.i + 1] == "turn"  # "for turn 1"
    # "for turn 1:", and when the bid's word starts the line "for this turn:" / "for next turn:" ("My bid for this
    # turn: 4" is read as a header, as "Here is my bid: 4")
    colon = said == 3 and (numbered or w.i == 1) and w.spelled[w.i + 2].endswith(":")
    if said and (w.norm[w.i + said : w.i + said + 1] in (["is"], ["="]) or colon):
        w.i += said  # "my bid for this turn is 4", "... for turn 1 is 4", "My bid for turn 1 = 4", "Bid for turn 1: 4",
        # "Bid for this turn: 4"
    w.accept("is", "of", "=")  # "my bid is 20", "a bid of 20"
    if w.accept("nothing", "none"):  # "I bid nothing"
        return Bid(0)
    every = next((len(a) for a in _ALL_BIDS if tuple(w.norm[w.i : w.i + len(a)]) == a), 0)
    w.i += every
    amount = ALL if every else w.number("the bid", 0)
    w.accept(*_REALM_WORDS)  # "Bid 20 $Realm"
    said = _this_turn(w)
    if said == len(w.norm) - w.i:  # "I bid 10 this turn", as "my bid for this turn is"
        w.i += said
    return Bid(amount)


def _this_turn(w: _Words) -> int:
    """How many words from ``w``'s cursor say the bid is this DM's: ``for this turn``, ``this turn``, or ``for turn
    3`` (a turn number, which ``dm_read._other_turn`` checks as it checks a header's), and in the Consolidation, whose
    bid is the next turn's (rules: 003 Consolidation, the buying and bidding step), also ``for next turn`` / ``next
    turn``; else 0 (``next turn`` outside the Consolidation: refused)."""
    words = w.norm[w.i :]
    phrases = (("for", "next", "turn"), ("next", "turn"), ("for", "this", "turn"), ("this", "turn")) \
        if w.step == "consolidation" else (("for", "this", "turn"), ("this", "turn"))
    for this_turn in phrases:
        if tuple(words[: len(this_turn)]) == this_turn:
            return len(this_turn)
    if words[:2] == ["for", "turn"] and len(words) > 2 and _DIGITS.fullmatch(words[2]) \
            and len(words[2]) <= MAX_TURN_DIGITS:  # "my bid for turn 1 is 10"
        return 3
    return 0


# "1 in P6", "2 units at P6": the words after a count that make it a purchase in the Consolidation (never a number
# alone, "20", which could be a count or the bid)
_BUY_PLACE = re.compile(r"(?:(?:army )?units? )?(?:in|at|@) ")


def _parse_commit(w: _Words) -> Commit:
    # rules: 003 "Turn off the lights" commits 0 Army Units: in the Dragon step '0 from P1' says the same
    count = w.count("the unit count", 0 if w.step == "dragon" else 1)  # "all from P6": ALL
    w.units()
    if count == ALL and not w.accept("from"):  # "commit all my units", "commit everything": from where?
        # rules: 003 Determine Protector US step -- units are committed from Provinces ("sac 2 on Province#6"), and
        # 'all' stands for a number only with its Province (assumption DM_ALL)
        raise w.fail("'all' commits every unit of yours in one Province, so it needs its Province: write 'all from P6' "
                     "for each Province you commit from ('all from P6 and P7'), or the counts ('2 from P6')")
    if count != ALL:
        w.expect("from", "the unit count")
    src = w.province("the province")
    sac = w.number("the sacrifice", 0) if w.accept("sac", "sacrifice") else None
    if sac is not None and count != ALL and sac > count:  # with 'all': checked on the number it becomes
        raise w.fail(f"sac {sac} is more than the {count} units committed")
    w.end()
    return Commit(src, count, sac)


def _parse_ability(w: _Words, name: str) -> Ability:
    if name == "fight_fire_with_fire":
        value = w.number("the number of Highmagisters", 1)
        w.end()
        return Ability(name, value)
    if name == "palantir":
        got = w.got()
        words = [x for x in w.rest()[1].split() if x not in ("the", "deck")]
        if words not in (["sea"], ["end"]):
            raise w.fail(f"expected 'Sea' or 'The End' after Palantír, {got}")
        return Ability(name, arg=words[0])
    if name == "sanctum":
        mode = w.peek()
        if not w.accept("refresh", "gain"):
            raise w.fail(f"expected 'refresh' or 'gain' after Sanctum, {w.got()}")
        raw, norm = w.rest()
        key = _SANCTUM_ALIASES.get(tuple(norm.split()))
        if key is None:
            known = ", ".join(SANCTUM_ABILITIES.values())
            raise w.fail(f"unknown ability {echo(raw)} after 'Sanctum {mode}'; expected one of {known}")
        return Ability(name, arg=f"{mode} {key}")
    w.end()
    return Ability(name)


def parse_line(text: str, *, players: Mapping[str, str] | None = None, step: str | None = None) -> Line:
    """One DM line holding one order -> ``Line``; raises ``OrderSyntaxError``."""
    line = text.strip()
    segments = _segments(_clean(line))
    if not segments:
        raise OrderSyntaxError("empty line; expected an order", input=clip(line, MAX_LINE_ECHO))
    if len(segments) > 1:
        listed = ", ".join(echo(s.rstrip(",;.")) for s in segments[:4]) + (", ..." if len(segments) > 4 else "")
        reason = f"the line holds {len(segments)} orders ({listed}); use parse_text"
        raise OrderSyntaxError(clip(reason, MAX_REASON), input=clip(line, MAX_LINE_ECHO))
    return _parse_segment(line, segments[0], _seat_map(players), step, name_list(players))


def faction_of(text: str) -> str | None:
    """The faction a line names on its own (``Hodir``, ``kalu'ak``), or ``None``."""
    return faction_named(" ".join(_words(text)))


def split_orders(text: str) -> list[str]:
    """One DM line (free of Discord markup) -> the text of each order on it (``parse_segment`` reads one)."""
    return _segments(_clean(text))


def parse_segment(line: str, segment: str, seats: Mapping[str, str], step: str | None = None,
                  names: NameList | None = None) -> Line:
    """One order from ``split_orders``; errors name ``line``; ``seats`` from ``seat_map``; ``names`` (from
    ``name_list``) say how an unknown player's refusal names the players."""
    return _parse_segment(line, segment, seats, step, names)


def seat_map(players: Mapping[str, str] | None) -> dict[str, str]:
    """``{display name or colour: seat}`` -> the lookup ``parse_orders`` takes (normalised names)."""
    return _seat_map(players)


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
