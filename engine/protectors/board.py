"""Game boards: which Provinces exist and which share a land border.

# rules: 003 Setup ("Normal version: equal number of Provinces as starting players; Grand version:
# 2x or more"), Province numbering ("Province#1 (P1)"), Island Rules.
# rules-gaps: 003 "the board's adjacency (the pictures are missing: boards are data, with built-in
# ring boards around a central sea for 2-16 players, normal and grand)".

Built-in boards are rings around a central sea: ``ring-N`` has N Provinces P1..PN, each bordering
its two ring neighbours; ``ring-N-grand`` has 2N. Every ring Province touches the central sea,
which is what Seafarers!/Ferry! use. ``ring-N+island`` (or ``ring-N-grand+island``) adds the
Wizard Sanctum ``P0`` in the sea. Custom boards come from a GM's adjacency list.
"""

from __future__ import annotations

import functools
import re
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.errors import ValidationError
from engine.protectors.close_names import unknown_keys
from engine.protectors.values import Shared

PROVINCE_RE = re.compile(r"^P(\d+)$")
MIN_PLAYERS, MAX_PLAYERS = 2, 16
ISLAND_NAME = "P0"
BOARD_KEYS = frozenset({"provinces", "island", "coastal", "name"})  # a GM's own board (from_adjacency)


def ring_name(players: int, grand: bool = False, island: bool = False) -> str:
    """The name of a built-in board (``Board.builtin`` reads it): ``ring-5``, ``ring-7-grand+island``."""
    return f"ring-{players}" + ("-grand" if grand else "") + ("+island" if island else "")


def province_number(name: str) -> int:
    """``"P12"`` -> 12; raises ValidationError for anything else."""
    m = PROVINCE_RE.match(name) if isinstance(name, str) else None
    if not m:
        raise ValidationError("province", f"{name!r} is not a province name like 'P3'")
    return int(m.group(1))


@dataclass(frozen=True)
class Board(Shared):  # immutable: games cloned from one another share their board
    """An immutable board. ``provinces`` are the mainland Provinces sorted by number."""

    name: str
    provinces: tuple[str, ...]
    neighbours: dict[str, frozenset[str]] = field(repr=False)
    island: str | None = None
    coastal: frozenset[str] = field(default=frozenset(), repr=False)
    # Derived once in __post_init__ (plain fields rather than cached_property, which a mypyc-compiled
    # class cannot cache: see tools/build_fast.py).
    # Mainland Provinces then the Island (if any): everything that can be held.
    all_provinces: tuple[str, ...] = field(init=False, repr=False, compare=False)
    # #Provinces on the game board (used by DPL, threshold, Power Overwhelming).
    # rules: 003 Island Rules — the Island is not one of the Provinces counted for the
    # Dragon (assumption ISLAND_NOT_COUNTED in docs/assumptions.md).
    count: int = field(init=False, repr=False, compare=False)
    _numbers: dict[str, int] = field(init=False, repr=False, compare=False)
    _distances: dict[str, dict[str, int]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # built only by builtin/from_adjacency, after their validation
        everything = self.provinces + ((self.island,) if self.island else ())
        object.__setattr__(self, "all_provinces", everything)
        object.__setattr__(self, "count", len(self.provinces))
        object.__setattr__(self, "_numbers", {p: province_number(p) for p in everything})
        object.__setattr__(self, "_distances", self._bfs())

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def builtin(cls, name: str) -> Board:
        """``ring-N``, ``ring-N-grand``, optionally with ``+island`` (one shared instance per name:
        boards are immutable)."""
        return _builtin(name) if isinstance(name, str) else cls._make_builtin(name)  # the latter: its error

    @classmethod
    def _make_builtin(cls, name: str) -> Board:
        m = re.fullmatch(r"ring-(\d+)(-grand)?(\+island)?", name or "")
        if not m:
            raise ValidationError("board", f"unknown built-in board {name!r}{_board_hint(name)}; use ring-N or "
                                           "ring-N-grand (N = 2..16), +island for the Island")
        players = int(m.group(1))
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            half = players // 2
            grand = "" if m.group(2) or players % 2 or not MIN_PLAYERS <= half <= MAX_PLAYERS else (
                f"; a Grand board of {players} Provinces is {ring_name(half, True, bool(m.group(3)))} (ring-N-grand: "
                "2N Provinces for N players)")
            raise ValidationError("board", f"{name!r}: ring boards exist for 2 to 16 players{grand}")
        n = players * (2 if m.group(2) else 1)
        provs = tuple(f"P{i}" for i in range(1, n + 1))
        adj: dict[str, set[str]] = {p: set() for p in provs}
        for i in range(n):
            a, b = provs[i], provs[(i + 1) % n]
            if a != b:
                adj[a].add(b)
                adj[b].add(a)
        island = ISLAND_NAME if m.group(3) else None
        return cls(
            name=name,
            provinces=provs,
            neighbours={p: frozenset(v) for p, v in adj.items()},
            island=island,
            coastal=frozenset(provs),
        )

    @classmethod
    def from_adjacency(cls, spec: Any, name: str = "custom") -> Board:  # Any: checked below
        """A GM's board: ``{"provinces": {"P1": {"neighbors": [...]}, ...}, "island": "P0"|None}``.

        Validated: names are ``P<n>``, every neighbour is a known Province, borders are symmetric,
        no Province borders itself, and the mainland is connected.
        """
        if not isinstance(spec, dict):
            raise ValidationError("board", "must be a built-in name or a map with 'provinces'")
        unknown = set(spec) - BOARD_KEYS
        if unknown:
            raise ValidationError("board", unknown_keys(unknown, BOARD_KEYS))
        provs = spec.get("provinces")
        if not isinstance(provs, dict) or len(provs) < 2:
            raise ValidationError("board.provinces", "must map at least 2 Province names to neighbours")
        island = spec.get("island")
        if island is not None:
            province_number(island)
        adj: dict[str, frozenset[str]] = {}
        for p, entry in provs.items():
            province_number(p)
            if p == island:
                raise ValidationError(f"board.provinces.{p}", "the Island has no land neighbours")
            if isinstance(entry, dict):
                extra = set(entry) - {"neighbors", "neighbours"}
                if extra:
                    raise ValidationError(f"board.provinces.{p}", unknown_keys(extra, ("neighbors", "neighbours")))
                nb = entry.get("neighbors", entry.get("neighbours"))
            else:
                nb = entry
            if not isinstance(nb, list) or not all(isinstance(x, str) for x in nb):
                raise ValidationError(f"board.provinces.{p}.neighbors", "must be a list of Province names")
            for q in nb:
                if q == p:
                    raise ValidationError(f"board.provinces.{p}.neighbors", f"{p} cannot border itself")
                if q not in provs:
                    raise ValidationError(f"board.provinces.{p}.neighbors", f"unknown Province {q!r}")
            adj[p] = frozenset(nb)
        for p, nb in adj.items():
            for q in nb:
                if p not in adj[q]:
                    raise ValidationError(
                        f"board.provinces.{q}.neighbors",
                        f"{p} lists {q} as a neighbour but {q} does not list {p} (borders are symmetric)",
                    )
        order = tuple(sorted(adj, key=province_number))
        seen = {order[0]}
        todo = deque([order[0]])
        while todo:
            for q in adj[todo.popleft()]:
                if q not in seen:
                    seen.add(q)
                    todo.append(q)
        if len(seen) != len(order):
            cut = sorted(set(order) - seen, key=province_number)
            raise ValidationError(
                "board.provinces", f"not connected: {cut} cannot be reached from {order[0]}"
            )
        coastal = spec.get("coastal", list(order))
        if not isinstance(coastal, list) or any(c not in adj for c in coastal):
            raise ValidationError("board.coastal", "must list known Provinces")
        return cls(
            name=str(spec.get("name", name)), provinces=order, neighbours=adj, island=island,
            coastal=frozenset(coastal),
        )

    @classmethod
    def from_setup(cls, board: Any) -> Board:
        if isinstance(board, str):
            return cls.builtin(board)
        return cls.from_adjacency(board)

    def to_setup(self) -> str | dict[str, Any]:
        if re.fullmatch(r"ring-(\d+)(-grand)?(\+island)?", self.name):
            return self.name
        return {
            "name": self.name,
            "provinces": {p: {"neighbors": sorted(self.neighbours[p], key=province_number)}
                          for p in self.provinces},
            "island": self.island,
            "coastal": sorted(self.coastal, key=province_number),
        }

    def grand_hint(self, province: Any) -> str:
        """Where a ``province`` not on this Normal ring board is: on its Grand board (``P17`` on ``ring-16``: on
        ``ring-16-grand``, the Island kept: ``ring-16-grand+island``), said as an error's end naming the board to write
        (a 16-player Grand game whose board is written without ``-grand``); "" for any other."""
        m = re.fullmatch(r"ring-(\d+)(\+island)?", self.name)
        number = PROVINCE_RE.match(province) if m is not None and isinstance(province, str) else None
        n = len(self.provinces)
        if m is None or number is None or not n < int(number.group(1)) <= 2 * n:
            return ""
        grand = ring_name(int(m.group(1)), True, bool(m.group(2)))
        return (f"; {province} is a Province of the Grand board {grand} (P1 to P{2 * n}): for a Grand game write "
                f"\"board\": \"{grand}\" in the setup")

    def island_hint(self) -> str:
        """What to write for the Island on a built-in board without one (``ring-12``: ``ring-12+island``), said as an
        error's end; "" on a board with the Island or a GM's own board."""
        if self.island is not None or not re.fullmatch(r"ring-\d+(-grand)?", self.name):
            return ""
        return f"; for a game with the Island write \"board\": \"{self.name}+island\" in the setup"

    # -- queries ------------------------------------------------------------------------------
    def number(self, p: str) -> int:
        n = self._numbers.get(p)
        return province_number(p) if n is None else n

    def by_number(self, provinces: Iterable[str]) -> list[str]:
        """``provinces`` in Province-number order, ties kept in their order (``sorted(key=self.number)``
        without a key call per item: a decorated sort compiles to direct code)."""
        items = list(provinces)
        keyed = [(self.number(p), i) for i, p in enumerate(items)]
        keyed.sort()
        return [items[k[1]] for k in keyed]

    def is_neighbour(self, a: str, b: str) -> bool:
        return b in self.neighbours.get(a, ())

    def _bfs(self) -> dict[str, dict[str, int]]:
        out = {}
        for src in self.provinces:
            dist = {src: 0}
            todo = deque([src])
            while todo:
                x = todo.popleft()
                for y in self.neighbours[x]:
                    if y not in dist:
                        dist[y] = dist[x] + 1
                        todo.append(y)
            out[src] = dist
        return out

    def distance(self, a: str, b: str) -> int | None:
        """Land distance in borders crossed, or None (the Island has no land borders)."""
        return self._distances.get(a, {}).get(b)


def _board_hint(name: Any) -> str:
    """`` (did you mean ring-16-grand?)`` for a built-in board's name written loosely (``Ring-16-Grand``,
    ``ring16 grand``, ``ring-16-grand-island``, ``ring_12+Island``); "" for any other."""
    words = re.sub(r"[\s_+-]+", "", name.casefold()) if isinstance(name, str) and len(name) <= 64 else ""
    m = re.fullmatch(r"ring(\d+)(grand)?(island)?", words)
    if m is None or not MIN_PLAYERS <= int(m.group(1)) <= MAX_PLAYERS:
        return ""
    return f" (did you mean {ring_name(int(m.group(1)), bool(m.group(2)), bool(m.group(3)))}?)"


@functools.lru_cache(maxsize=128)
def _builtin(name: str) -> Board:
    return Board._make_builtin(name)
