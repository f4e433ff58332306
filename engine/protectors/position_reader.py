"""Reading a position map (``setup["position"]``, docs/positions.md): typed reads, each error naming its field path
(``position.provinces.P3.level``), and the names of the internal steps a position may stand in."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from engine.errors import ValidationError
from engine.protectors.board import ISLAND_NAME
from engine.protectors.close_names import MAX_GUESS_CHARS, closest
from engine.protectors.orders import ABILITY_TEXT, SANCTUM_ABILITIES
from engine.protectors.state import GameState

# Two internal points a GM may start from (position_import.STEPS): "ranking" (turn 2+, the bids set aside in the last
# Consolidation not yet revealed) and "reveal" (the cards in ``reveal_queue`` still to draw).
RANKING, REVEAL = "ranking", "reveal"
# where a Dragon Attack resumes after this turn's Execute Orders phase: units have left Provinces (the Island)
AFTER_EXECUTE = ("execute", "consolidate_a", "consolidate_b")
# a seat id inside a longer label, as the reports name seats: 'Player#1 (Alice)', 'Alice (Player#1)'
_SEAT_INSIDE = re.compile(r"\bplayer\s*#\s*0*([0-9]+)\b")
MAX_NUMBER = 10**9  # any number in a position ($Realm, units, turn, DPL...): far above play, far below overflow


class Reader:
    """Typed reads of one position map, each error naming its field path."""

    def __init__(self, state: GameState, pos: dict[str, Any]) -> None:
        self.state = state
        self.pos = pos

    def seat(self, v: Any, field: str) -> str:
        if not isinstance(v, str) or v not in self.state.players:
            raise ValidationError(field, f"unknown seat {v!r}{self.seat_hint(v)}")
        return v

    def seat_hint(self, v: Any) -> str:
        """What an unknown seat may have meant: a player's display name, or a seat key written another way
        (``player#1``, ``Player #1``, ``player 1`` as a DM header names it, ``P#1``); else which seats the game has. A
        position names seats by key only."""
        from engine.protectors.setup import seat_number  # the one reading of a seat id; setup imports this module

        seats = list(self.state.players)
        text = v.casefold() if isinstance(v, str) and len(v) <= MAX_GUESS_CHARS else ""
        number = seat_number(text) if text else None
        if number is None and text:  # a report's label, 'Player#1 (Alice)' or 'Alice (Player#1)'
            inside = _SEAT_INSIDE.search(text)
            number = int(inside.group(1)) if inside is not None else None
        span = f"{seats[0]} to {seats[-1]}" if seats else "none"
        if number is not None and f"Player#{number}" in self.state.players:
            return f" (did you mean Player#{number}? seats are written {span})"
        # a display name, loosely ('alice', '@Alice', 'Alcie'); not for a seat id past the last seat
        names = {p.name: s for s, p in self.state.players.items() if seat_number(p.name) is None}
        named = closest(text.strip().lstrip("@"), names) if text and number is None else None
        if named is not None:
            return f" (did you mean {named}? a position names seats, not players)"
        return f" (this game's seats are {span})"

    def count(self, v: Any, field: str) -> int:
        if isinstance(v, str) and v.strip().lstrip("$").isdigit():  # "5" or "$85" typed by hand
            raise ValidationError(field, f"must be a whole number >= 0 written without quotes (got the text {v!r})")
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise ValidationError(field, "must be a whole number >= 0")
        if v > MAX_NUMBER:
            raise ValidationError(field, f"must be at most {MAX_NUMBER:,}")
        return v

    def flag(self, v: Any, field: str) -> bool:
        if not isinstance(v, bool):
            raise ValidationError(field, "must be true or false")
        return v

    def province(self, v: Any, field: str) -> str:
        if not isinstance(v, str) or v not in self.state.provinces:
            raise ValidationError(field, f"{v!r} is not a Province of this board{self.province_hint(v)}")
        return v

    def province_hint(self, v: Any) -> str:
        """What a Province written another way than its key means (``p13``, ``13``, ``Province 13``, ``the
        Island``): a position names Provinces by key only, as the error says."""
        words = " ".join(v.casefold().replace("#", " ").split()) if isinstance(v, str) else ""
        island = self.state.board.island
        if island is not None and words.removeprefix("the ") in ("island", "wizard sanctum"):
            return f" (did you mean {island}? a position names the Island by its key)"
        if island is None and (v == ISLAND_NAME or words.removeprefix("the ") in ("island", "wizard sanctum")):
            return f" (this board has no Island{self.state.board.island_hint()})"
        number = words.removeprefix("province").removeprefix("prov").removeprefix("p").strip(" .")
        key = f"P{int(number)}" if number.isdigit() else None
        if key in self.state.provinces:
            return f" (did you mean {key}? a position names Provinces P1, P2, ...)"
        return f" (its Provinces are {self.province_names()}{self.state.board.grand_hint(v)})"

    def province_names(self) -> str:
        """The board's Provinces, as an error names them: ``P1 to P24 and the Island P0`` (a GM's own board: the
        first few of its names)."""
        board = self.state.board
        names = list(board.provinces)
        if names == [f"P{i}" for i in range(1, len(names) + 1)]:
            said = f"P1 to P{len(names)}"
        else:
            said = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
        return said + (f" and the Island {board.island}" if board.island is not None else "")

    def seats(self, v: Any, field: str) -> list[str]:
        if not isinstance(v, list):
            raise ValidationError(field, "must be a list of seats")
        out = [self.seat(s, f"{field}[{i}]") for i, s in enumerate(v)]
        twice = [s for i, s in enumerate(out) if s in out[:i]]
        if twice:
            raise ValidationError(field, f"lists {twice[0]} twice")
        return out

    def mapping(self, key: str) -> dict[Any, Any]:
        v = self.pos.get(key)
        if v is None:
            return {}
        if not isinstance(v, dict):
            raise ValidationError(f"position.{key}", "must be a map")
        return v

    def per_seat(self, key: str, read: Callable[[Any, str], Any]) -> dict[str, Any]:
        """``{seat: value}`` under ``key``, each value read by ``read(value, field)``."""
        return {self.seat(s, f"position.{key}"): read(v, f"position.{key}.{s}") for s, v in self.mapping(key).items()}


def one_of(v: Any, names: Any) -> bool:
    """``v`` is one of ``names`` (strings; anything else, hashable or not, is not)."""
    return isinstance(v, str) and v in names


def abilities_of(v: Any, names: Any, field: str, ways: Mapping[str, str] | None = None) -> set[str]:
    """A list of ability keys, each one of ``names`` (``ability_key``)."""
    if not isinstance(v, list):
        raise ValidationError(field, f"must be a list of {', '.join(sorted(names))}")
    return {ability_key(a, names, f"{field}[{i}]", ways) for i, a in enumerate(v)}


def ability_key(a: Any, names: Any, field: str, ways: Mapping[str, str] | None = None) -> str:
    """An ability key, one of ``names``; one written otherwise (the rulebook's name ``Bank of Lannuvar``, a misspelt
    key ``bank_of_lanuvar``, or one of ``ways``: other ways to write a key -> the key) is refused naming the key
    meant."""
    if one_of(a, names):
        return str(a)
    known = {k: k for k in names} | {SANCTUM_ABILITIES.get(k, k): k for k in names}
    known |= {ABILITY_TEXT.get(k, k): k for k in names} | dict(ways or {})
    meant = closest(a, known)
    hint = f" (did you mean {meant}? a position names abilities by these keys)" if meant else ""
    raise ValidationError(field, f"{a!r} is not one of {', '.join(sorted(names))}{hint}")
