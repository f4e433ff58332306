"""The New World state a Non-Player Nation planner needs (rules file 002).

Pure data plus the questions the planner asks of it: who occupies an Area, who holds political
control (PC) there, the hemispheric hegemon and the next power, the top gold producer, which Areas
are adjacent to a nation's holdings and which Area a landfall letter names.

Build a :class:`World` with :func:`engine.newworld.parse.parse_world` (validated) or load a file
with :func:`engine.newworld.load.load_world`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# rules: 002 rules-gaps "New World": no price list survives; these satisfy the variant's example
# (4 ships + 3 soldiers = $78 out of $80).
DEFAULT_SHIP_PRICE = 12
DEFAULT_SOLDIER_PRICE = 10
# rules: 002 rules-gaps "New World": a ship carries 2 units (Exploration: 4 colonists + 6 soldiers
# on 5 ships).
DEFAULT_SHIP_CAPACITY = 2
# How PC is decided: "derive" = rules-gaps definition (sole European presence, natives cleared, at least
# one colonist); "declared" = trust each holding's ``pc`` flag as the GM sent it.
PC_RULES = ("derive", "declared")
DEFAULT_PC_RULE = "derive"
# rules: 002 Landfall Table #1 / #2 (1d6 -> map letter). A world may replace them (another map edition).
DEFAULT_LANDFALL_TABLES: dict[int, tuple[str, ...]] = {
    1: ("H", "J", "N", "O", "R", "U"),
    2: ("C", "M", "X", "Y", "E", "E"),
}
LANDFALL_TABLE_SIZE = 6  # rules: 002 Landfall Tables: each is rolled on 1d6


@dataclass(frozen=True, slots=True)
class Options:
    """The GM's edition: prices, ship capacity, the PC rule and an optional soldier limit."""

    ship_price: int = DEFAULT_SHIP_PRICE
    soldier_price: int = DEFAULT_SOLDIER_PRICE
    ship_capacity: int = DEFAULT_SHIP_CAPACITY
    pc_rule: str = DEFAULT_PC_RULE
    # rules: 002 Balancing "the maximum ... that its treasury and the normal restrictions will allow";
    # the normal restrictions are not in the file, so by default only the treasury limits it.
    soldier_limit: int | None = None


@dataclass(frozen=True, slots=True)
class Area:
    """A New World land Area: neighbours, coast, natives left, and its landfall letter if any."""

    name: str
    adjacent: tuple[str, ...] = ()
    coastal: bool = False
    natives: int = 0
    climate: int | None = None
    landfall: str | None = None  # the map letter the landfall tables use (defaults to the name)
    landfall_table: int | None = None

    @property
    def letter(self) -> str:
        return self.landfall if self.landfall is not None else self.name


@dataclass(frozen=True, slots=True)
class Holding:
    """One nation's forces in one Area; ``pc`` is the flag the GM declared (None = not sent)."""

    area: str
    colonists: int = 0
    soldiers: int = 0
    pc: bool | None = None

    @property
    def units(self) -> int:
        return self.colonists + self.soldiers


@dataclass(frozen=True, slots=True)
class Nation:
    """A European nation: player or not, money, fleet, holdings, gold produced, exclusive landfall."""

    name: str
    player: bool = False
    treasury: int = 0
    ships: int = 0
    holdings: tuple[Holding, ...] = ()
    gold_produced: int = 0
    exclusive_landfall: str | None = None  # an Area claimed as an Exclusive Landfall

    def holding(self, area: str) -> Holding | None:
        for h in self.holdings:
            if h.area == area:
                return h
        return None

    @property
    def areas(self) -> tuple[str, ...]:
        """Areas this nation occupies (has colonists or soldiers in), sorted."""
        return tuple(sorted(h.area for h in self.holdings if h.units > 0))


@dataclass(frozen=True, slots=True)
class World:
    """A New World situation as the GM sends it (``worlds.md``, "New World world")."""

    turn: int
    areas: dict[str, Area]
    nations: dict[str, Nation]
    options: Options = field(default_factory=Options)
    landfall_tables: dict[int, tuple[str, ...]] = field(default_factory=lambda: dict(DEFAULT_LANDFALL_TABLES))
    chief_rivals: dict[str, str] = field(default_factory=dict)  # nation -> its chief rival
    # landfall letters the GM left off the described map (a landfall there names no Area of the world)
    off_map_landfalls: frozenset[str] = frozenset()

    # -- occupation -------------------------------------------------------------------------------
    def occupants(self, area: str) -> dict[str, int]:
        """Nation -> units (colonists + soldiers) in ``area``, only nations with at least one."""
        out: dict[str, int] = {}
        for name in sorted(self.nations):
            h = self.nations[name].holding(area)
            if h is not None and h.units > 0:
                out[name] = h.units
        return out

    def is_occupied(self, area: str) -> bool:
        """Occupied by any European nation (natives do not count)."""
        return bool(self.occupants(area))

    def claimant(self, area: str) -> str | None:
        """The nation that claimed ``area`` as its Exclusive Landfall, if any."""
        for name in sorted(self.nations):
            if self.nations[name].exclusive_landfall == area:
                return name
        return None

    def adjacent_to(self, nation: str) -> tuple[str, ...]:
        """Areas adjacent to any Area ``nation`` occupies, not themselves occupied by it, sorted."""
        own = set(self.nations[nation].areas)
        near = {n for a in own for n in self.areas[a].adjacent}
        return tuple(sorted(near - own))

    # -- political control ------------------------------------------------------------------------
    def derived_pc(self, nation: str, area: str) -> bool:
        """rules-gaps PC: sole European presence, natives cleared, at least one colonist."""
        h = self.nations[nation].holding(area)
        if h is None or h.colonists < 1:
            return False
        return self.areas[area].natives == 0 and set(self.occupants(area)) == {nation}

    def has_pc(self, nation: str, area: str) -> bool:
        if self.options.pc_rule == "declared":
            h = self.nations[nation].holding(area)
            return bool(h is not None and h.pc)
        return self.derived_pc(nation, area)

    def pc_areas(self, nation: str) -> tuple[str, ...]:
        return tuple(a for a in self.nations[nation].areas if self.has_pc(nation, a))

    def pc_standings(self, exclude: str | None = None) -> list[tuple[str, int]]:
        """(nation, PC Areas) from most to fewest, ties alphabetical; ``exclude`` leaves one out."""
        rows = [(n, len(self.pc_areas(n))) for n in self.nations if n != exclude]
        return sorted(rows, key=lambda r: (-r[1], r[0]))

    def hegemon_lead(self) -> tuple[str | None, int, int]:
        """(hegemon or None on a tie/no PC, its PC count, the next power's PC count)."""
        rows = self.pc_standings()
        if not rows or rows[0][1] == 0:
            return None, 0, 0
        top = rows[0][1]
        nxt = rows[1][1] if len(rows) > 1 else 0
        return (rows[0][0] if top > nxt else None), top, nxt

    # -- landfalls --------------------------------------------------------------------------------
    def landfall_area(self, letter: str) -> str | None:
        """The Area a landfall-table letter names (validated worlds always resolve every letter)."""
        for name in sorted(self.areas):
            if self.areas[name].letter == letter:
                return name
        return None
