"""The cursor the notation's grammar reads one order with (``WordCursor``: numbers, counts, Provinces, the Island,
players, each refusal naming the whole line), and how players are named: ``seat_map`` (a DM's names -> seats) and
``NameList`` (the names a refusal lists)."""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Collection, Mapping

from engine.errors import OrderSyntaxError
from engine.protectors.board import ISLAND_NAME
from engine.protectors.notation_words import (
    ALL,
    ALL_UNITS,
    DIGITS,
    DISCORD_MENTION,
    GROUPED,
    LARGER_NUMBER_WORD,
    MAX_DIGITS,
    MAX_DM_NUMBER,
    MAX_LINE_ECHO,
    MAX_NAMES_SHOWN,
    MAX_REASON,
    MENTION,
    NUMBER,
    ORDER_HEADS,
    PROVINCE,
    SEAT,
    SEPARATED,
    THEN_MARCH,
    TOKEN,
    WORD_NUMBER,
    clip,
    echo,
    norm_word,
    norm_words,
)

LINE_ENDS = "but the line ends"  # what a refusal of an order cut short at its line's end says (dm_heads.cut_short)


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
    written = {" ".join(norm_words(name)): name for name in (players or {})}
    for name in players or {}:  # "bob" (as a DM names "Bob 🐉") is written "Bob 🐉"
        plain = " ".join(norm_words(_without_symbols(name)))
        if plain:
            written.setdefault(plain, name)
    shown = tuple(listed) if listed is not None else tuple(written.values())
    return NameList(written, tuple(sorted(set(shown), key=norm_word)), island)


# words that say every Province where one is named ("Fortify all", "Work, work! everything"): refused saying to name
# each (docs/dm-syntax.md, "Saying all": 'all' stands only for a count); it said "'all' is not a province like P3"
ALL_PROVINCE_WORDS = frozenset({"all", "everything", "every", "each", "everywhere"})


class WordCursor:
    """A cursor over the words of one order; every failure names the whole line."""

    def __init__(self, line: str, text: str, seats: Mapping[str, str], step: str | None = None,
                 names: NameList | None = None):
        self.line, self.seats, self.i, self.step, self.names = line, seats, 0, step, names
        self.text = text
        matches = list(TOKEN.finditer(text))
        self.raw = [m.group() for m in matches]
        self.norm = [norm_word(w) for w in self.raw]
        self.spelled = [text[m.start() :].split()[0] for m in matches]  # with its punctuation

    def fail(self, reason: str) -> OrderSyntaxError:
        return OrderSyntaxError(clip(reason, MAX_REASON), input=clip(self.line, MAX_LINE_ECHO))

    def peek(self) -> str | None:
        return self.norm[self.i] if self.i < len(self.norm) else None

    def got(self) -> str:
        if self.i >= len(self.raw):
            return LINE_ENDS
        if self.i > 0 and self.norm[self.i] in ORDER_HEADS:  # "buy 2 in P6 bid 5"
            return (f"got {echo(self.raw[self.i])}, which starts another order: put each order on its own line, or "
                    "after a comma")
        return f"got {echo(self.raw[self.i])}"

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
            if THEN_MARCH.match(" ".join(self.norm[self.i :])):  # "Fortify P2 then March! 2 from P1 to P7"
                raise self.fail(f"{echo(' '.join(self.raw[self.i :]))}: 'then' before a March! could mean it moves "
                                "after the others, which is a Delayed March!; write 'Delayed March!' if so, else put "
                                "the March! on its own line")
            if (self.i > 0 and DIGITS.fullmatch(self.norm[self.i - 1]) and _GROUP.fullmatch(self.norm[self.i])
                    and self.spelled[self.i - 1] == self.raw[self.i - 1]):  # "1 000", not "1, 000"
                # "Bid 1 000" (a thousands separator some keyboards write as a space): 1, or 1000?
                a, b = self.raw[self.i - 1], self.raw[self.i]
                raise self.fail(f"{echo(a + ' ' + b)} could be {a} or {a}{b}: write a number without spaces, like "
                                f"{a}{b} or {a},{b}")
            raise self.fail(f"unexpected {echo(' '.join(self.raw[self.i :]))} at the end of the order")

    def number(self, what: str, minimum: int = 0) -> int:
        token = self.raw[self.i] if self.i < len(self.raw) else None
        spelled = WORD_NUMBER.get(self.norm[self.i]) if token is not None else None
        if spelled is None and token is not None and self.norm[self.i] in ("a", "an") \
                and self.norm[self.i + 1 : self.i + 2] in (["unit"], ["army"]):
            spelled = 1  # "Buy a unit in P6"
        if spelled is not None:  # "buy two units in P19"
            if spelled < minimum:
                raise self.fail(f"{what} must be at least {minimum}, got {spelled}")
            self.i += 1
            return spelled
        if token is None or not NUMBER.fullmatch(token):
            larger = token is not None and LARGER_NUMBER_WORD.fullmatch(self.norm[self.i])
            hint = "; write numbers over twelve in digits" if larger else ""
            raise self.fail(f"expected {what} (a whole number), {self.got()}{hint}")
        digits = token.strip("$")
        if GROUPED.fullmatch(digits):  # "1,000"
            digits = digits.replace(",", "")
        if not DIGITS.fullmatch(digits.lstrip("-")):
            hint = "; write a thousand as 1000 or 1,000" if SEPARATED.fullmatch(digits) else ""  # 1.000: 1 or 1000?
            raise self.fail(f"{what} must be a whole number, got {echo(token)}{hint}")
        if digits.startswith("-"):
            raise self.fail(f"{what} must not be negative, got {echo(token)}")
        digits = digits.lstrip("0") or "0"
        if len(digits) > MAX_DIGITS or int(digits) > MAX_DM_NUMBER:
            raise self.fail(f"{what} must be at most {MAX_DM_NUMBER}, got a {len(digits)}-digit number")
        if int(digits) < minimum:
            raise self.fail(f"{what} must be at least {minimum}, got {int(digits)}")
        self.i += 1
        return int(digits)

    def count(self, what: str, minimum: int) -> int:
        """A unit count, or ``ALL`` for ``all`` / ``everything`` (``all units``, ``all my army units``)."""
        if self.peek() not in ALL_UNITS:
            return self.number(what, minimum)
        self.i += 1
        if self.peek() == "my" and self.norm[self.i + 1 : self.i + 2] in (["unit"], ["units"], ["army"]):
            self.i += 1  # "all my units"
        after = self.peek()
        if after is not None and (NUMBER.fullmatch(after) or after in WORD_NUMBER):  # "March! all 3 from P1 ..."
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
            raise self.fail(f"expected {what} like P3, {LINE_ENDS}")
        island = self._island_words()
        if island:  # "to the Island", "to Wizard Sanctum": the rulebook's names of the Island
            self.i += island  # on a board without one, P0: the rules then say "this board has no Island (P0)"
            return self.names.island if self.names is not None else ISLAND_NAME
        if self._spaced_province():  # "P 1": every Province is named P<n> (board.PROVINCE_RE)
            number = self.norm[self.i + 1]
            if (self.spelled[self.i + 1] == self.raw[self.i + 1] and self.i + 2 < len(self.norm)
                    and DIGITS.fullmatch(self.norm[self.i + 2])):  # "P 1 2"; "P 6. 1 in P5" is P6
                spelled = " ".join(self.raw[self.i : self.i + 3])
                raise self.fail(f"{echo(spelled)} could be P{number} or P{number}{self.norm[self.i + 2]}; "
                                "write the Province without spaces, like P3")
            self.i += 1
            self.norm[self.i] = "p" + number
        m = PROVINCE.fullmatch(self.norm[self.i])
        if not m and self.norm[self.i] in ("province", "prov"):  # "Province twenty": past twelve, in digits
            said = _number_in_words(self.norm[self.i + 1 : self.i + 3])
            if said is not None:
                spelled = " ".join(self.raw[self.i : self.i + 1 + said[1]])
                raise self.fail(f"{echo(spelled)} spells a Province's number past twelve: write it in digits, like "
                                f"P{said[0]}")
        if not m and self.norm[self.i] in ALL_PROVINCE_WORDS:  # "Fortify all", "work everything"
            raise self.fail(f"{echo(self.raw[self.i])} names no Province: name each one, like 'P1, P4'")
        if not m and DIGITS.fullmatch(self.norm[self.i]) and len(self.norm[self.i]) <= MAX_DIGITS:
            # "Fortify 27": a number alone is never a Province (docs/dm-syntax.md); say how to name the one it may be
            n = int(self.norm[self.i])
            raise self.fail(f"{echo(self.raw[self.i])} is not a province like P3: a Province is named with its P, "
                            f"like P{n}")
        if "/" in self.norm[self.i] or any(x.startswith("/") for x in self.norm[self.i + 1 : self.i + 2]):
            self._slashed(what)  # "Fortify P27/P28", "Fortify P27 / P28"
        if not m and "-" in self.norm[self.i]:
            self._dashed(what)  # "Fortify P28-P32"
        if not m or len(m.group(1).lstrip("0")) > MAX_DIGITS:
            raise self.fail(f"{echo(self.raw[self.i])} is not a province like P3")
        self.i += 1
        return f"P{int(m.group(1).lstrip('0') or '0')}"

    def _slashed(self, what: str) -> None:
        """Raise the refusal of Provinces joined by '/' where one is asked for (``Fortify P27/P28``: each, or one of
        them?), saying what to write; return when the word is no such join."""
        end = self.i + 1  # the words joined by '/': "P27/P28", "P27 / P28", "P27/ P28"
        while end < len(self.raw) and (self.raw[end - 1].endswith("/") or self.raw[end].startswith("/")):
            end += 1
        raw = " ".join(self.raw[self.i : end])
        parts = [p.strip() for p in raw.split("/")]
        if len(parts) < 2 or not all(PROVINCE.fullmatch(p.lower()) or DIGITS.fullmatch(p) for p in parts[1:]) \
                or not PROVINCE.fullmatch(parts[0].lower()):
            return
        parts = [p if not DIGITS.fullmatch(p) else f"P{p}" for p in parts]  # "P27/28": P28
        said = f"{echo(raw)} joins Provinces with '/' (each of them, or one or the other?)"
        if what in _ONE_PROVINCE:  # "March 2 from P1 to P2/P3": one destination
            raise self.fail(f"{said}: name one Province there")
        if end < len(self.norm) and PROVINCE.fullmatch(self.norm[end]):  # "Fortify P27 /P28, P32": a list after it
            raise self.fail(f"{said}: one order per Province, each on its own line")
        before, after = " ".join(self.raw[: self.i]), " ".join(self.raw[end:])
        lines = " and ".join(echo(" ".join(x for x in (before, p, after) if x)) for p in parts)
        raise self.fail(f"{said}: one order per Province, each on its own line, like {lines}")

    def _dashed(self, what: str) -> None:
        """Raise the refusal of two Provinces joined by '-' with no spaces where one is asked for (``Fortify
        P28-P32``: both, or every Province from P28 to P32?), as ``Fortify P28 - P32`` is refused (it said "'P28-P32'
        is not a province like P3"); return when the word is no such join. Never read as a March!'s 'to'."""
        parts = self.raw[self.i].split("-")
        if len(parts) != 2 or not all(PROVINCE.fullmatch(p.lower()) for p in parts):
            return
        a, b = (f"P{int(DIGITS.findall(p)[0])}" for p in parts)
        if what in _ONE_PROVINCE or what == "the source province":  # "March 2 from P27-P26": from P27 to P26?
            raise self.fail(f"{echo(self.raw[self.i])} joins Provinces with '-': name one Province there")
        raise self.fail(dashed_provinces(echo(self.raw[self.i]), a, b, " ".join(self.raw[: self.i])))

    def at_province(self) -> bool:
        """Whether the next word names a Province (``P1``, ``P 1``, ``the Island``)."""
        return self.i < len(self.norm) and (PROVINCE.fullmatch(self.norm[self.i]) is not None
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
                and self.i + 1 < len(self.norm) and DIGITS.fullmatch(self.norm[self.i + 1]) is not None)

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
                " ".join(self.norm[k] for k in g) in self.seats or SEAT.fullmatch("".join(self.norm[k] for k in g))
                for g in named):
            return []
        written = self.names.written if self.names is not None else {}
        return [written.get(" ".join(self.norm[k] for k in g), " ".join(self.raw[k] for k in g)) for g in named]

    def seat(self, stop: str | None = None) -> str:
        """``Player#N``, or the words up to ``stop`` looked up in the players map; a leading ``@`` (a mention
        typed by hand: ``@Sam2``) is left out."""
        if self.i < len(self.norm) and self.norm[self.i].startswith("@") and len(self.norm[self.i]) > 1:
            self.norm[self.i] = self.norm[self.i][1:]
        m = SEAT.fullmatch(self.peek() or "")
        if m and 1 <= len(m.group(1).lstrip("0")) <= MAX_DIGITS:
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
        # a first name of one player only ("Bob" for "Bob the Builder"): said, never read as that player (a guess)
        first = {self.seats[s] for s in self.seats if s.startswith(key + " ")}
        if not close and len(first) == 1:
            close = [min(s for s in self.seats if s.startswith(key + " "))]
        if close:  # a typo of a display name or a colour
            meant = self.names.written.get(close[0], close[0]) if self.names is not None else close[0]
            raise self.fail(f"{echo(raw)} is not a player like Player#2; did you mean {meant}?")
        names = list(self.names.listed) if self.names is not None else sorted(self.seats)
        shown = ", ".join(names[:MAX_NAMES_SHOWN]) + (", ..." if len(names) > MAX_NAMES_SHOWN else "")
        known = f" or one of {shown}" if names else ""
        mention = raw.replace(" ", "")  # "<@!123>" is read as the words "<@" and "123>"
        if DISCORD_MENTION.fullmatch(mention):  # "Support <@222> in P29": whom? (the bot made a seat holder's the seat)
            raise self.fail(f"{echo(mention)} is {MENTION}: name the player, like Player#2{known}")
        raise self.fail(f"{echo(raw)} is not a player like Player#2{known}")


_GROUP = re.compile(r"[0-9]{3}")  # a group of three digits after a number and a space ("1 000")
_TEENS = {w: 13 + k for k, w in enumerate(("thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
                                            "nineteen"))}
_TENS = {w: 20 + 10 * k for k, w in enumerate(("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty",
                                               "ninety"))}


def dashed_provinces(said: str, a: str, b: str, order: str) -> str:
    """The refusal of the Provinces ``a`` and ``b`` joined by '-' where a list of them may be (``said``, as written:
    ``'P28-P32'``, ``'P1 - P3'``): both, or every Province from one to the other? ``order``: what comes before them,
    to write the list after."""
    meant = f"{said} could mean {a} and {b} or every Province from {a} to {b}" \
        if abs(int(a[1:]) - int(b[1:])) > 1 else f"{said} joins Provinces with '-'"
    return f"{meant}: name each Province, joined by ',' or 'and', like '{order} {a}, {b}'"


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
        return (_TENS[tens] + WORD_NUMBER[unit], 1) if 0 < WORD_NUMBER.get(unit, 0) < 10 else None
    if len(words) > 1 and 0 < WORD_NUMBER.get(words[1], 0) < 10:
        return _TENS[tens] + WORD_NUMBER[words[1]], 2
    return _TENS[tens], 1


def _without_symbols(text: str) -> str:
    """``text`` without emoji and other pictographs (Unicode symbols ``So``), as a DM's line is read
    (``dm_lines.unwrap``): "Bob 🐉" -> "Bob "."""
    return text if text.isascii() else "".join(c for c in text if unicodedata.category(c) != "So")


def seat_map(players: Mapping[str, str] | None) -> dict[str, str]:
    """``{display name or colour: seat}`` -> the lookup ``parse_orders`` takes (normalised names)."""
    out: dict[str, str] = {}
    bare: dict[str, set[str]] = {}  # a display name with an emoji, as a DM can write it: without the emoji
    for name, seat in (players or {}).items():
        m = SEAT.fullmatch(norm_word(seat.replace(" ", "")))
        who = f"Player#{int(m.group(1))}" if m else seat
        key = " ".join(norm_words(name))
        out[key] = who
        plain = " ".join(norm_words(_without_symbols(name)))
        if plain and plain != key:
            bare.setdefault(plain, set()).add(who)
    # "Bob 🐉" is named "Bob" (a DM's emoji are left out, so "send 10 to Bob 🐉" was refused as "'Bob' is not a
    # player; did you mean Bob 🐉?"), unless "Bob" names another seat or two seats' names differ only by emoji
    for plain, who_all in bare.items():
        if len(who_all) == 1 and plain not in out:
            out[plain] = next(iter(who_all))
    return out


# where an order takes one Province only, however many it is given to: a March!'s destination, the Province a Support!
# is for, a purchase's (its count goes with it); '/' there is never read as several orders (WordCursor._slashed)
_ONE_PROVINCE = frozenset({"the destination province", "the supported province", "the province to buy in"})


# rules: 003 Island Rules -- "the Island" holds "a Wizard Sanctum"; a DM may name it so (the board's Island is P0)
_ISLAND_WORDS = (("island",), ("wizard", "sanctum"))
