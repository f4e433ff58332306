"""Military Capacity (MC) and Naval Capacity (NC) of a realm, with a per-Province breakdown.

Per ``../shared/design/rules-gaps.md`` (the rulebook's p. 22-23) and file 000 §13.4. Every number
comes with the Provinces that gave it and the ones left out and why, so a GM can audit it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine.realms.model import Province, World
from engine.realms.options import half_up


@dataclass(frozen=True, slots=True)
class Contribution:
    """What one Province gave to an MC or NC."""

    province: str
    realm: str
    via: str
    tax_value: int
    doubled: bool
    manpower: int

    @property
    def value(self) -> int:
        return self.tax_value * (2 if self.doubled else 1) + self.manpower

    def to_dict(self) -> dict[str, Any]:
        return {"province": self.province, "realm": self.realm, "via": self.via,
                "tax_value": self.tax_value, "distant_doubled": self.doubled,
                "extra_manpower": self.manpower, "value": self.value}

    def __str__(self) -> str:
        extra = (" x2 Distant" if self.doubled else "") + (f" +{self.manpower} m" if self.manpower else "")
        return f"{self.province} ({self.realm}, {self.via}): {self.tax_value}{extra} = {self.value}"


@dataclass(frozen=True, slots=True)
class Exclusion:
    province: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"province": self.province, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Capacity:
    """An MC (for an Area) or NC (for a Sea Zone) of one realm, with its breakdown."""

    kind: str
    realm: str
    target: str
    contributions: tuple[Contribution, ...]
    excluded: tuple[Exclusion, ...]
    halved: bool

    @property
    def raw(self) -> int:
        return sum(c.value for c in self.contributions)

    @property
    def value(self) -> int:
        # rules: 000 §13.4 -- an Active Ally defends with half its MC (rounded up, rules-gaps.md)
        return half_up(self.raw) if self.halved else self.raw

    @property
    def provinces(self) -> frozenset[str]:
        return frozenset(c.province for c in self.contributions)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "realm": self.realm, "target": self.target, "raw": self.raw,
                "active_ally_halved": self.halved, "value": self.value,
                "contributions": [c.to_dict() for c in self.contributions],
                "excluded": [e.to_dict() for e in self.excluded]}

    def __str__(self) -> str:
        lines = [f"{self.kind} of {self.realm} for {self.target}: {self.value}"
                 + (f" (half of {self.raw}, Active Ally)" if self.halved else "")]
        lines += [f"  + {c}" for c in self.contributions]
        lines += [f"  - {e.province}: {e.reason}" for e in self.excluded]
        return "\n".join(lines)


def _doubled(world: World, p: Province) -> bool:
    # rules: 000 §13.4 Distant Continents -- double a Distant Province's Tax Value unless it has an H
    return world.areas[p.area].distant and not p.h


def _mc_candidates(world: World, area: str) -> Iterable[tuple[Province, str]]:
    a = world.areas[area]
    for p in world.provinces_in(area):
        yield p, "own Area"
    for adj in sorted(a.adjacent):
        for p in world.provinces_in(adj):
            yield p, f"adjacent Area {adj}"
    seen = {area, *a.adjacent}
    for sea in sorted(a.seas):
        for other in sorted(world.seas[sea].adjacent - seen):
            for p in world.provinces_in(other):
                if p.port == sea:
                    yield p, f"Port on {sea}"


def military_capacity(world: World, realm: str, area: str, *, used: Iterable[str] = (),
                      halve_active_ally: bool = True) -> Capacity:
    """MC of ``realm`` (with its Vassals) for ``area`` (rules-gaps.md MC; 000 §13.4)."""
    # rules: rules-gaps.md MC -- own and Vassals' Provinces in the Area or adjacent Areas
    members = set(world.members(realm))
    used = set(used)
    rules = world.rules
    hostile_area: dict[str, bool] = {}
    contributions, excluded = [], []
    for p, via in _mc_candidates(world, area):
        if p.owner not in members:
            continue
        reason = None
        if p.occupied_by is not None:
            # rules: rules-gaps.md MC blocking -- an Occupied Province never counts
            reason = f"Occupied by {p.occupied_by}"
        elif p.area != area:
            if p.area not in hostile_area:
                hostile_area[p.area] = world.hostile_units(p.area, realm) > 0
            if hostile_area[p.area]:
                # rules: rules-gaps.md MC blocking -- Hostile Units keep a Province to its own Area
                reason = f"its Area {p.area} contains Hostile Units"
            elif via.startswith("Port"):
                if not (p.active_port or rules.inactive_ports_link_mc):
                    reason = f"Inactive Port on {p.port}"
                elif world.hostile_ships(p.port, realm) > 0:
                    # rules: rules-gaps.md MC blocking -- every Sea Zone between is Hostile
                    reason = f"the only Sea Zone between, {p.port}, is Hostile"
        if reason is None and p.name in used:
            # rules: rules-gaps.md Once per turn -- each Province feeds MC once per turn
            reason = "already supplied another land battle this turn"
        if reason:
            excluded.append(Exclusion(p.name, reason))
            continue
        # rules: 000 §13.4 Extra Manpower -- +1 MC per +1 m token in the Area or adjacent Areas
        contributions.append(Contribution(p.name, p.owner, via, p.tax_value, _doubled(world, p),
                                          p.extra_manpower))
    halved = halve_active_ally and world.active_ally_of(realm) is not None
    return Capacity("MC", realm, area, tuple(contributions), tuple(excluded), halved)


def naval_capacity(world: World, realm: str, sea: str, *, used: Iterable[str] = (),
                   halve_active_ally: bool = True) -> Capacity:
    """NC of ``realm`` for ``sea``: its own Ports facing it, Large 2 (rules-gaps.md NC)."""
    used = set(used)
    contributions, excluded = [], []
    for area in sorted(world.seas[sea].adjacent):
        for p in world.provinces_in(area):
            if p.port != sea:
                continue
            if p.owner != realm:
                if world.realms[p.owner].overlord == realm:
                    # rules: 004 §11.4 -- Vassal Provinces contribute to MC, not to NC
                    excluded.append(Exclusion(p.name, f"Vassal {p.owner}'s Port: Vassals never add NC"))
                continue
            reason = None
            if p.occupied_by is not None:
                reason = f"Occupied by {p.occupied_by}"
            elif not p.active_port:
                # rules: 000 §13.4 Distant Continents -- Inactive Ports provide no NC
                reason = "Inactive Port"
            elif p.name in used:
                # rules: rules-gaps.md Once per turn -- each Province feeds NC once per turn
                reason = "already supplied another naval battle this turn"
            if reason:
                excluded.append(Exclusion(p.name, reason))
                continue
            contributions.append(Contribution(p.name, p.owner, f"Port on {sea}", p.tax_value,
                                              _doubled(world, p), 0))
    halved = (halve_active_ally and world.rules.active_ally_halves_nc
              and world.active_ally_of(realm) is not None)
    return Capacity("NC", realm, sea, tuple(contributions), tuple(excluded), halved)
