"""The realm model: Areas, Sea Zones, Provinces, realms, relations, units and ships.

A :class:`World` is an immutable snapshot of a realm game as a GM describes it
(``../shared/design/worlds.md``); :mod:`engine.realms.loader` builds one from JSON/TOML/msgpack
with validation. The queries here (who is at war, what is Hostile, who controls what) are the
definitions of ``../shared/design/rules-gaps.md`` "Definitions".
"""

from __future__ import annotations

import unicodedata
from contextvars import ContextVar
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any

from engine.realms.options import DEFAULT_RULES, RealmRules

# rules: 000 §13.4 / rules-gaps.md MC -- Tax Value: Small 1, Large 2.
TAX_VALUE = {"small": 1, "large": 2}
REALM_KINDS = ("pr", "npr", "vassal", "dnpr")
TOKENS = ("t", "v", "dnpr")
UNIT_KINDS = ("army", "rebel", "npr")
MP_TYPES = ("adm", "dip", "mil")
RELIGIONS = ("christian", "muslim", "revolutionary", "other")


def alphabetical(name: str) -> tuple[str, str]:
    """Sort key for the texts' "alphabetical" order: letters compared without case or accents.

    Plain ``sorted`` compares code points, putting every upper-case name before every lower-case one
    and accented letters after "z" ("Maine" before "le Perche", "Faro" before "Évora").
    """
    # rules: 000 §13 Liberated NPR Provinces / 000 §13.5 -- "alphabetically": letter order, blind to case
    # and accents (assumptions.md ALPHABETICAL); the exact name breaks a tie so the order is total
    letters = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return letters.casefold(), name


@dataclass(frozen=True, slots=True)
class Area:
    name: str
    adjacent: frozenset[str] = frozenset()
    seas: frozenset[str] = frozenset()
    distant: bool = False
    core: str | None = None  # the PR whose Core token (F) is placed in this Area (001 §7.6)


@dataclass(frozen=True, slots=True)
class Sea:
    name: str
    adjacent: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Province:
    name: str
    area: str
    size: str
    flag: str
    owner: str
    token: str | None = None
    dnpr: str | None = None
    occupied_by: str | None = None
    unrest: bool = False
    port: str | None = None
    port_active: bool = True
    h: bool = False
    extra_manpower: int = 0
    capital: bool = False

    @property
    def tax_value(self) -> int:
        return TAX_VALUE[self.size]

    @property
    def core_of(self) -> str:
        """The realm whose Core this is by its own tokens: its flag, superseded by a DNPR token (001 §7.6).
        A Core token in its Area supersedes both: ask :meth:`World.core_of`."""
        # rules: 001 §7.6 -- Cores are the flag's realm, superseded by any DNPR token
        return self.dnpr or self.flag

    @property
    def active_port(self) -> bool:
        """A Port gives NC only if active; a Town, Vassal or DNPR token activates it."""
        # rules: 000 §13.4 Distant Continents -- Inactive until it holds a dnpr, t or v token
        return self.port is not None and (self.port_active or self.token is not None)


@dataclass(frozen=True, slots=True)
class Ruler:
    name: str
    adm: int = 0
    dip: int = 0
    mil: int = 0

    def skill(self, kind: str) -> int:
        return getattr(self, kind)


@dataclass(frozen=True, slots=True)
class Advisor:
    name: str
    kind: str
    skill: int = 1
    cost: int = 0


@dataclass(frozen=True, slots=True)
class Realm:
    name: str
    kind: str
    capital: str | None = None
    overlord: str | None = None
    religion: str = "christian"
    base_tax: int | None = None
    income_tile: bool | None = None
    stability: int = 0
    ducats: int = 0
    loans: int = 0
    prestige: int = 0
    mercenaries: int = 0
    monarch_power: tuple[int, int, int] = (0, 0, 0)
    ruler: Ruler | None = None
    advisors: tuple[Advisor, ...] = ()
    ideas: frozenset[str] = frozenset()
    papal_states: bool = False
    emperor: bool = False
    passed: bool = False

    @property
    def is_pr(self) -> bool:
        return self.kind == "pr"

    @property
    def is_npr(self) -> bool:
        """NPRs and DNPRs (a DNPR is an NPR, 000 §13.3); Vassals are a separate category (004 §11.4)."""
        return self.kind in ("npr", "dnpr")

    def mp(self, kind: str) -> int:
        return self.monarch_power[MP_TYPES.index(kind)]


@dataclass(frozen=True, slots=True)
class Alliance:
    pr: str
    ally: str
    active: bool = False


@dataclass(frozen=True, slots=True)
class Relations:
    wars: frozenset[frozenset[str]] = frozenset()
    alliances: tuple[Alliance, ...] = ()
    marriages: frozenset[frozenset[str]] = frozenset()
    truces: frozenset[frozenset[str]] = frozenset()
    influence: dict[str, dict[str, int]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class UnitStack:
    realm: str | None
    where: str
    kind: str = "army"
    count: int = 1


@dataclass(frozen=True, slots=True)
class ShipStack:
    realm: str
    sea: str
    count: int = 1


@dataclass(frozen=True, eq=False)
class World:
    """An immutable realm-game snapshot with precomputed indexes for fast queries."""

    areas: dict[str, Area]
    seas: dict[str, Sea]
    provinces: dict[str, Province]
    realms: dict[str, Realm]
    relations: Relations = field(default_factory=Relations)
    units: tuple[UnitStack, ...] = ()
    ships: tuple[ShipStack, ...] = ()
    round: int = 1
    phase: str = "3B"
    rules: RealmRules = DEFAULT_RULES
    _ix: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        parts = set(_INDEX_BUILDERS)
        hint = _EVOLVING.get()
        if hint is not None:  # made by ``evolve``: reuse the indexes of fields that did not change
            old, changed = hint
            _EVOLVING.set(None)  # consumed: any other World made meanwhile builds in full
            parts = {name for name, sources in _INDEX_SOURCES.items() if sources & changed}
            self._ix.update({k: v for k, v in old._ix.items() if k not in _MEMOS})
            if not changed & {"relations", "realms"}:
                for memo in _MEMOS:  # memos of war relations: still true, so shared along the chain
                    self._ix[memo] = old._ix[memo]
            if "provinces" in parts and "areas" not in changed:
                patched = _ix_provinces_patched(old, self)
                if patched is not None:  # only some Provinces' flags changed: patch, do not re-sort
                    self._ix.update(patched)
                    parts.discard("provinces")
        for name in sorted(parts):
            self._ix.update(_INDEX_BUILDERS[name](self))
        for memo in _MEMOS:
            self._ix.setdefault(memo, {})

    # -- construction helpers -------------------------------------------------------------
    def evolve(self, **changes: Any) -> World:
        """A new World with some fields replaced; only the indexes those fields feed are rebuilt.

        What ``dataclasses.replace`` does (copy every field, set the changed ones, fresh indexes,
        ``__post_init__``) without passing each field through the frozen ``__init__`` again: a third
        of the cost of an ``evolve``, which ``npr.invasions`` makes about seven times a call."""
        if not changes.keys() <= _EVOLVABLE:
            raise TypeError(f"World.evolve() cannot change {sorted(changes.keys() - _EVOLVABLE)}")
        token = _EVOLVING.set((self, frozenset(changes)))
        try:
            new = object.__new__(World)
            state = new.__dict__
            state.update(self.__dict__)
            state.update(changes)
            state["_ix"] = {}
            new.__post_init__()
            return new
        finally:
            _EVOLVING.reset(token)

    # -- provinces ------------------------------------------------------------------------
    def provinces_in(self, area: str) -> list[Province]:
        return self._ix["by_area"].get(area, [])

    def owned_by(self, realm: str) -> list[Province]:
        return self._ix["by_owner"].get(realm, [])

    def controlled_by(self, realm: str) -> list[Province]:
        """Provinces a realm Owns: lawfully owns *and* controls (not Occupied)."""
        # rules: rules-gaps.md Definitions -- Own = owns and controls; Occupied belong to neither
        return [p for p in self.owned_by(realm) if p.occupied_by is None]

    def vassals_of(self, realm: str) -> list[str]:
        return sorted(self._ix["vassals"].get(realm, []))

    def members(self, realm: str) -> list[str]:
        """An NPR and its Vassals, which fight as if their Provinces were the NPR's (000 §13.2)."""
        # rules: 000 §13.2 -- an NPR's Vassals assist their Overlord as if its own Provinces
        return [realm, *self.vassals_of(realm)]

    def side_of(self, realm: str | None) -> str | None:
        """The realm that acts in war for ``realm``: a Vassal's Overlord (004 §11.4 Vassals in Wars)."""
        seen = set()
        while realm in self.realms and self.realms[realm].overlord and realm not in seen:
            seen.add(realm)
            realm = self.realms[realm].overlord
        return realm

    def pr_of_token(self, p: Province) -> str | None:
        """The PR a ``t``/``v`` on this Province belongs to (``v``: the Vassal's PR Overlord)."""
        if p.token == "t":
            return p.owner
        if p.token == "v":
            return self.realms[p.owner].overlord
        return None

    def core_of(self, p: Province) -> str:
        """The realm whose Core Province ``p`` is: the PR whose Core token is in its Area, else its DNPR
        token's realm, else its flag's (001 §7.6)."""
        # rules: 001 §7.6 Core Provinces -- "superceded by any æ on the Province or F placed in its Area";
        # "All Provinces in an Area where a PR has placed a F are considered Core Provinces of that PR (and
        # no other Realm)"
        return self.areas[p.area].core or p.core_of

    def area_of_capital(self, realm: str) -> str | None:
        cap = self.realms[realm].capital
        return self.provinces[cap].area if cap in self.provinces else None

    def tax_income(self, realm: str, *, manpower_tokens: bool = True) -> int:
        """Tax Value of the Provinces a realm controls (+1 per +1 Manpower token, 000 §13.4)."""
        # rules: 000 §13.4 Extra Manpower -- each +1 m token is 1 extra Tax Value for peace,
        # an NPR Ally's contribution and Subjugation; 004 §11.4 -- 1 extra Tax Income
        return sum(p.tax_value + (p.extra_manpower if manpower_tokens else 0)
                   for p in self.controlled_by(realm))

    # -- geography ------------------------------------------------------------------------
    def land_adjacent(self, a: str, b: str) -> bool:
        return b in self.areas[a].adjacent

    def shared_seas(self, a: str, b: str) -> frozenset[str]:
        return self.areas[a].seas & self.areas[b].seas

    def neighbours(self, area: str) -> set[str]:
        """Areas adjacent by land or by a shared Sea Zone (not ``area`` itself)."""
        out = set(self.areas[area].adjacent)
        for s in self.areas[area].seas:
            out |= self.seas[s].adjacent
        out.discard(area)
        return out

    # -- relations ------------------------------------------------------------------------
    def active_ally_of(self, npr: str) -> str | None:
        """The PR an NPR is the Active Ally of, if any."""
        return self._ix["active"].get(npr)

    def alliances_of(self, realm: str) -> list[Alliance]:
        return self._ix["allies"].get(realm, [])

    def _war_side(self, realm: str) -> tuple[frozenset[str], frozenset[str]]:
        """(the realms that fight a War for ``realm``, every realm those are at War with), memoised."""
        memo = self._ix["parties"]
        got = memo.get(realm)
        if got is None:
            side = self.side_of(realm)
            pr = self._ix["active"].get(side)
            # rules: 004 §11.3 -- Active Allies are part of every War their PR is in
            parties = frozenset((side, pr) if pr else (side,))
            wars = self._ix["wars"]
            got = memo[realm] = (parties, frozenset().union(*(wars.get(x, ()) for x in parties)))
        return got

    def at_war(self, a: str | None, b: str | None) -> bool:
        """Are two realms Enemies (directly, through a Vassal's Overlord or an Active Alliance)?"""
        if a is None or b is None or a == b:
            return False
        key = (a, b)
        cache = self._ix["at_war"]
        hit = cache.get(key)
        if hit is None:
            pa, foes = self._war_side(a)
            pb = self._war_side(b)[0]
            # no common party, and a party of one is at War with a party of the other
            hit = cache[key] = pa.isdisjoint(pb) and not foes.isdisjoint(pb)
        return hit

    def enemies_of(self, realm: str) -> set[str]:
        """Every realm :meth:`at_war` with ``realm`` (the same test, without memoising each pair)."""
        if realm is None:
            return set()
        pa, foes = self._war_side(realm)
        out = set()
        if not foes:  # its side is at War with nobody
            return out
        for r in self.realms:
            pb = self._war_side(r)[0]
            if r != realm and not foes.isdisjoint(pb) and pa.isdisjoint(pb):
                out.add(r)
        return out

    def married(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.relations.marriages

    def in_truce(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.relations.truces

    # -- units and ships ------------------------------------------------------------------
    def units_in(self, area: str) -> list[UnitStack]:
        return self._ix["units"].get(area, [])

    def ships_in(self, sea: str) -> list[ShipStack]:
        return self._ix["ships"].get(sea, [])

    def unit_hostile_to(self, u: UnitStack, realm: str) -> bool:
        """Is a unit stack Hostile to ``realm``? Rebels are Hostile to every PR (rules-gaps.md)."""
        if u.count <= 0:
            return False
        if u.kind == "rebel":
            # rules: rules-gaps.md Definitions -- Rebels are hostile to all player realms
            r = self.realms.get(realm)
            return bool(r and (r.is_pr or self.rules.rebels_hostile_to_nprs))
        return self.at_war(u.realm, realm)

    def hostile_units(self, area: str, realm: str) -> int:
        return sum(u.count for u in self.units_in(area) if self.unit_hostile_to(u, realm))

    def hostile_ships(self, sea: str, realm: str) -> int:
        return sum(s.count for s in self.ships_in(sea) if s.count > 0 and self.at_war(s.realm, realm))


# -- indexes ---------------------------------------------------------------------------------
# ``World.evolve`` passes the World it starts from through this context variable (per thread and
# per task, so concurrent service calls never see each other's), and ``__post_init__`` rebuilds only
# the indexes fed by the fields that changed.
_EVOLVING: ContextVar[tuple[Any, frozenset[str]] | None] = ContextVar("_EVOLVING", default=None)


def _ix_provinces(w: World) -> dict[str, Any]:
    by_area: dict[str, list[Province]] = {a: [] for a in w.areas}
    by_owner: dict[str, list[Province]] = {}
    for p in sorted(w.provinces.values(), key=attrgetter("name")):
        by_area[p.area].append(p)
        by_owner.setdefault(p.owner, []).append(p)
    return {"by_area": by_area, "by_owner": by_owner}


def _ix_provinces_patched(old: World, new: World) -> dict[str, Any] | None:
    """``old``'s Province index with the Provinces ``new`` replaced put in their places, if every
    replaced Province keeps its name, Area and owner (so the sorted lists keep their order);
    None if anything else changed (then the index is built in full)."""
    if old.provinces.keys() != new.provinces.keys():
        return None
    swaps = {}
    for name, p in new.provinces.items():
        before = old.provinces[name]
        if p is not before:
            if (p.name, p.area, p.owner) != (before.name, before.area, before.owner) or id(before) in swaps:
                return None
            swaps[id(before)] = p
    by_area, by_owner = dict(old._ix["by_area"]), dict(old._ix["by_owner"])
    for index, key in ((by_area, "area"), (by_owner, "owner")):
        for k in {getattr(p, key) for p in swaps.values()}:
            index[k] = [swaps.get(id(q), q) for q in index[k]]
    return {"by_area": by_area, "by_owner": by_owner}


def _ix_units(w: World) -> dict[str, Any]:
    units: dict[str, list[UnitStack]] = {}
    for u in w.units:
        units.setdefault(u.where, []).append(u)
    return {"units": units}


def _ix_ships(w: World) -> dict[str, Any]:
    ships: dict[str, list[ShipStack]] = {}
    for s in w.ships:
        ships.setdefault(s.sea, []).append(s)
    return {"ships": ships}


def _ix_relations(w: World) -> dict[str, Any]:
    wars: dict[str, set[str]] = {}
    for pair in w.relations.wars:
        a, b = sorted(pair)
        wars.setdefault(a, set()).add(b)
        wars.setdefault(b, set()).add(a)
    active: dict[str, str] = {}
    allies: dict[str, list[Alliance]] = {}
    for al in w.relations.alliances:
        allies.setdefault(al.pr, []).append(al)
        allies.setdefault(al.ally, []).append(al)
        if al.active:
            active[al.ally] = al.pr
    return {"wars": wars, "active": active, "allies": allies}


def _ix_vassals(w: World) -> dict[str, Any]:
    vassals: dict[str, list[str]] = {}
    for r in w.realms.values():
        if r.overlord:
            vassals.setdefault(r.overlord, []).append(r.name)
    return {"vassals": vassals}


# Memos filled as queries are asked (pairs at war, each realm's war side); valid while the
# realms and relations stay the same.
_MEMOS = ("at_war", "parties")
_EVOLVABLE = frozenset(f.name for f in fields(World) if f.init)
_INDEX_BUILDERS = {"provinces": _ix_provinces, "units": _ix_units, "ships": _ix_ships,
                   "wars": _ix_relations, "vassals": _ix_vassals}
# which World fields each index is built from
_INDEX_SOURCES = {"provinces": frozenset({"provinces", "areas"}), "units": frozenset({"units"}),
                  "ships": frozenset({"ships"}), "wars": frozenset({"relations"}),
                  "vassals": frozenset({"realms"})}
