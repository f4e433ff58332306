"""The chapter 11 rules the NPR side needs: Influence, Marriages, Alliances, Active Allies, Vassals.

Every check returns a :class:`Check` (allowed or not, the rule and the reason) so controllers can put
it straight into a trace. Base Tax Income comes from :mod:`engine.realms.economy`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.realms.economy import base_tax_income
from engine.realms.model import World
from engine.realms.options import (
    ACTIVE_ALLY_MAX_UNITS,
    ALLIANCE_LIMIT,
    CABINET_IDEA,
    INFLUENCE_AREA_LIMIT,
    MARRIAGE_LIMIT,
    half_up,
)


@dataclass(frozen=True, slots=True)
class Check:
    """The answer to "may this be done?", with every rule consulted."""

    ok: bool
    reasons: tuple[tuple[str, str], ...] = ()
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "reasons": [{"rule": r, "because": b} for r, b in self.reasons],
                **self.details}


def _check(steps: list[tuple[bool, str, str]], **details: Any) -> Check:
    failed = [(r, b) for ok, r, b in steps if not ok]
    return Check(not failed, tuple(failed) if failed else tuple((r, b) for _, r, b in steps), details)


def influence_in(world: World, area: str) -> int:
    """Influence in an Area (Marriages are separate and never count toward the limit, 004 §11.2)."""
    return sum(world.relations.influence.get(area, {}).values())


def can_place_influence(world: World, pr: str, area: str, *, from_event: bool = False) -> Check:
    """004 §11.1: the 5-per-Area limit, PR-only Areas, Distant Areas."""
    provinces = world.provinces_in(area)
    full = influence_in(world, area) >= INFLUENCE_AREA_LIMIT
    return _check([
        # rules: 004 §11.1 Influence on Distant Continents -- no I in Distant Areas
        (not world.areas[area].distant, "004 §11.1 Influence on Distant Continents",
         f"{area} is Distant: no Influence can be placed there"),
        # rules: 004 §11.1 Influence and Player Realms -- not where every Province is a PR's
        (not provinces or not all(world.realms[p.owner].is_pr for p in provinces),
         "004 §11.1 Influence and Player Realms", f"every Province in {area} is Owned by PRs"),
        # rules: 004 §11.1 -- no Area holds more than 5 I; Events, Missions, Peace may displace
        (from_event or not full, "004 §11.1",
         f"{area} already holds {INFLUENCE_AREA_LIMIT} Influence" if full
         else f"{area} holds {influence_in(world, area)} of {INFLUENCE_AREA_LIMIT} Influence"),
    ], displaces=from_event and full)


def _limit(world: World, pr: str, base: int) -> int:
    # rules: 004 §11.2 / §11.3 -- the "Cabinet" Idea allows 1 more Marriage / Alliance
    return base + (1 if CABINET_IDEA in world.realms[pr].ideas else 0)


_SPOUSES = {"christian": {"christian"}, "muslim": {"muslim"}, "revolutionary": set(), "other": set()}


def can_marry(world: World, pr: str, target: str) -> Check:
    """004 §11.2 Eligible Marriage Partners, the limit of 3, and 001 §7.2 Interregnum."""
    me, them = world.realms[pr], world.realms[target]
    count = sum(1 for m in world.relations.marriages if pr in m)
    foreign_vassal = them.kind == "vassal" and them.overlord != pr
    return _check([
        (count < _limit(world, pr, MARRIAGE_LIMIT), "004 §11.2",
         f"{pr} has {count} of {_limit(world, pr, MARRIAGE_LIMIT)} Marriages"),
        # rules: 004 §11.2 Eligible Marriage Partners -- by State Religion
        (them.religion in _SPOUSES[me.religion], "004 §11.2 Eligible Marriage Partners",
         f"a {me.religion} PR may marry {', '.join(sorted(_SPOUSES[me.religion])) or 'no other'} Realms; "
         f"{target} is {them.religion}"),
        # rules: 004 §11.2 / §11.4 -- your own Vassals, not those of other players
        (not foreign_vassal, "004 §11.4", f"{target} is a Vassal of {them.overlord}"),
        # rules: 001 §7.2 -- no new Royal Marriages during an Interregnum
        (me.ruler is not None, "001 §7.2 Ruler Death – Interregnum", f"{pr} is in an Interregnum"
         if me.ruler is None else f"{pr} has a Ruler"),
        (not world.married(pr, target), "004 §11.2", f"{pr} is already Married to {target}"),
    ])


def can_forge_alliance(world: World, pr: str, npr: str) -> Check:
    """004 §11.3 Key features: the limit of 3, one PR per NPR, not at War."""
    count = sum(1 for a in world.alliances_of(pr) if a.pr == pr)
    current = [a.pr for a in world.alliances_of(npr) if a.ally == npr]
    return _check([
        (count < _limit(world, pr, ALLIANCE_LIMIT), "004 §11.3", f"{pr} has {count} of "
         f"{_limit(world, pr, ALLIANCE_LIMIT)} Alliances"),
        # rules: 004 §11.3 -- not while you are at War, nor with Realms at War (incl. Active Allies)
        (not any(world.at_war(pr, r) for r in world.realms), "004 §11.3", f"{pr} is at War"
         if any(world.at_war(pr, r) for r in world.realms) else f"{pr} is at peace"),
        (not any(world.at_war(npr, r) for r in world.realms), "004 §11.3", f"{npr} is at War"
         if any(world.at_war(npr, r) for r in world.realms) else f"{npr} is at peace"),
        (pr not in current, "004 §11.3", f"{pr} is already Allied to {npr}"),
    ], replaces=[c for c in current if c != pr])  # rules: 004 §11.3 -- an NPR allies only 1 PR


def active_ally_units(world: World, npr: str) -> tuple[int, int]:
    """Allied Units on Activation: half the NPR's Tax Value, rounded up, max 5 (004 §11.3).

    Returns ``(units, tax_value)``; +1 Manpower tokens count (000 §13.4), Distant doubling does not
    (004 §11.3 Alliances with Distant NPRs).
    """
    tax = world.tax_income(npr, manpower_tokens=True)
    return min(ACTIVE_ALLY_MAX_UNITS, half_up(tax)), tax


def pre_war_tax_value(world: World, npr: str) -> int:
    """Tax Value of the NPR's pre-War Provinces: every Province it owns, Occupied or not (assumption)."""
    return sum(p.tax_value + p.extra_manpower for p in world.owned_by(npr))


def opponent_influence(world: World, pr: str, target: str) -> int:
    areas = {p.area for m in world.members(target) for p in world.owned_by(m)}
    return sum(n for a in areas for r, n in world.relations.influence.get(a, {}).items() if r != pr)


def own_influence(world: World, pr: str, realm: str) -> int:
    areas = {p.area for p in world.owned_by(realm)}
    return sum(world.relations.influence.get(a, {}).get(pr, 0) for a in areas)


def can_subjugate(world: World, pr: str, target: str) -> Check:
    """004 §11.4 Subjugate: Vassalize an NPR Ally, or Annex your Vassal (or a 1-Tax Income Ally)."""
    t = world.realms[target]
    annex = t.kind == "vassal"
    is_ally = any(a.pr == pr and a.ally == target for a in world.alliances_of(target))
    tax = world.tax_income(target, manpower_tokens=True)
    mine = base_tax_income(world, pr)[0]
    married = world.married(pr, target)
    opp = opponent_influence(world, pr, target)
    needed = tax + opp
    cap = world.area_of_capital(target)
    steps = [
        (not (t.papal_states or t.emperor), "004 §11.4 The Papal States and the Emperor",
         f"{target} can never be Vassalized" if t.papal_states or t.emperor else f"{target} is neither"),
        (not (cap and world.areas[cap].distant), "004 §11.4 NPRs on Distant Continents",
         f"{target} is a Distant Realm" if cap and world.areas[cap].distant else f"{target} is not Distant"),
        (t.overlord == pr if annex else (is_ally and t.is_npr), "004 §11.4",
         f"{target} must be {pr}'s {'Vassal' if annex else 'NPR Ally'}"),
    ]
    if not annex and world.vassals_of(target):
        # rules: 004 §11.2 / §11.4 -- an NPR with Vassals needs a Marriage
        steps.append((married, "004 §11.4 Subjugating an NPR with Vassals",
                      f"{target} has Vassals: a Marriage is required"))
    if married:
        # rules: 004 §11.4 -- with a Marriage, Base Tax Income must exceed the target's (+ Opponent I)
        steps.append((mine > needed, "004 §11.4", f"Married: {pr}'s Base Tax Income {mine} must exceed "
                                                  f"{target}'s {tax} + Opponent Influence {opp}"))
    else:
        # rules: 004 §11.4 -- Base Tax Income at least twice the target's (+1 m tokens count)
        steps.append((mine >= 2 * tax, "004 §11.4", f"{pr}'s Base Tax Income {mine} must be at least "
                                                    f"twice {target}'s Tax Income {tax}"))
    have = own_influence(world, pr, target)
    steps.append((have >= needed, "004 §11.4", f"discard Influence {tax} + Opponent {opp} = {needed} "
                                               f"from {target}'s Areas; {pr} has {have} there"))
    vassals = {v: world.tax_income(v, manpower_tokens=True) for v in world.vassals_of(target)}
    return _check(steps, action="annex" if annex else "vassalize", influence_to_discard=needed,
                  direct_annex=(not annex and tax == 1), vassal_influence_costs=vassals)
