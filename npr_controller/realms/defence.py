"""How NPRs defend Areas and Sea Zones this turn (file 000 §13.4).

``defend(world, attacks)`` decides, for every move (or Declaration of War) that may trigger a
battle against Enemy NPRs, which NPRs defend, with how many units, and which Provinces supplied
them when several battles hit the same NPR.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.errors import ValidationError
from engine.name_hints import unknown
from engine.realms.capacity import Capacity, military_capacity, naval_capacity
from engine.realms.loader import Fields, choice, realm_ref
from engine.realms.model import World
from engine.trace import Dice, Trace
from npr_controller.dice import check_seed
from npr_controller.realms.result import Decision

R_AREAS = "000 §13.4 NPRs defending Areas"
R_SEAS = "000 §13.4 NPRs defending Sea Zones"
R_MULTI = "000 §13.4 Triggering multiple Battles"
R_SEVERAL = "000 §13.4 Fighting Several NPRs in one Area"
R_SUPPLY = "000 §13.4 No more NPR Units in Supply"
R_ALLY = "000 §13.4 NPRs defending Areas (Active Ally)"
R_MC = "rules-gaps.md MC"
R_NC = "rules-gaps.md NC"
R_ONCE = "rules-gaps.md Once per turn"


@dataclass(frozen=True, slots=True)
class Attack:
    """A PR force entering an Area or Sea Zone (or there when War is Declared)."""

    index: int
    attacker: str
    where: str
    naval: bool
    units: int
    trigger: str = "move"

    def to_dict(self) -> dict[str, Any]:
        return {"attacker": self.attacker, ("sea" if self.naval else "area"): self.where,
                "units": self.units, "trigger": self.trigger}


def parse_attacks(world: World, data: Any) -> list[Attack]:
    """Validate the ``attacks`` list: ``{"attacker", "area" | "sea", "units", "trigger"?}``."""
    if isinstance(data, dict) and set(data) == {"attacks"}:
        data = data["attacks"]
    if not isinstance(data, list):
        raise ValidationError("attacks", "must be a list of attacks")
    out = []
    for i, raw in enumerate(data):
        f = Fields(raw, f"attacks[{i}]")
        f.check(("attacker", "area", "sea", "units", "trigger"))
        attacker = realm_ref(f, "attacker", world.realms)
        if not world.realms[attacker].is_pr:
            raise ValidationError(f.sub("attacker"), f"{attacker!r} is not a PR")
        if ("area" in f.data) == ("sea" in f.data):
            raise ValidationError(f.path, "give exactly one of 'area' or 'sea'")
        naval = "sea" in f.data
        where = f.get("sea" if naval else "area", str)
        if where not in (world.seas if naval else world.areas):
            what = "Sea Zone" if naval else "Area"
            raise ValidationError(f.sub("sea" if naval else "area"),
                                  unknown(what, where, world.seas if naval else world.areas))
        units = f.nonneg("units")
        if units == 0:
            # rules: 000 §13.4 NPRs defending Areas -- "moves any of their Military Units into an Area" (or has
            # Units there when War is Declared); Sea Zones likewise with Ships: no Units, no attack
            what = "Ships" if naval else "Units"
            raise ValidationError(f.sub("units"), f"must be at least 1: an attack moves {what} in (or has {what} "
                                                  "there when War is Declared)")
        out.append(Attack(i, attacker, where, naval, units, choice(f, "trigger", ("move", "declaration"), "move")))
    return out


def _enemy_nprs(world: World, attack: Attack, trace: Trace) -> tuple[list[str], list[str]]:
    """(Enemy NPRs that engage this attack, Enemy NPRs that do not because Hostile units are already
    there); Vassals' Provinces count as their Overlord's."""
    rule = R_SEAS if attack.naval else R_AREAS
    areas = sorted(world.seas[attack.where].adjacent) if attack.naval else [attack.where]
    found = set()
    for area in areas:
        for p in world.provinces_in(area):
            side = world.side_of(p.owner)
            if p.occupied_by is None and world.realms[side].is_npr and world.at_war(attack.attacker, side):
                found.add(side)
    out, blocked = [], []
    for npr in sorted(found):
        if attack.naval:
            hostile = sum(s.count for s in world.ships_in(attack.where)
                          if world.at_war(s.realm, npr)
                          and not (attack.trigger == "declaration" and s.realm == attack.attacker))
        else:
            hostile = sum(u.count for u in world.units_in(attack.where)
                          if world.unit_hostile_to(u, npr)
                          and not (attack.trigger == "declaration" and u.realm == attack.attacker))
        if hostile:
            # rules: 000 §13.4 NPRs defending Areas / Sea Zones -- Hostile units already there: no Battle
            trace.add(rule, f"battle {attack.index}: {hostile} {'Ships' if attack.naval else 'Units'} "
                            f"Hostile to {npr} are already in {attack.where}: no Battle is triggered")
            blocked.append(npr)
        else:
            out.append(npr)
    return out, blocked


def _priority(world: World, npr: str, attack: Attack) -> tuple[int, int, int]:
    cap_area = world.area_of_capital(npr)
    if attack.naval:
        at_capital = cap_area is not None and attack.where in world.areas[cap_area].seas
    else:
        at_capital = attack.where == cap_area
    # rules: 000 §13.4 Triggering multiple Battles -- Capital Area and its Sea Zones first, then the
    # largest Enemy force, ties to the first Battle resolved
    return (0 if at_capital else 1, -attack.units, attack.index)


def defend(world: World, attacks: list[Attack] | Any, *, seed: int | None = None,
           supply: int | None = None) -> Decision:
    """Decide every NPR defence triggered by ``attacks`` this turn (000 §13.4)."""
    if supply is not None and (isinstance(supply, bool) or not isinstance(supply, int) or supply < 0):
        # rules: 000 §13.4 No more NPR Units in Supply -- a count of pieces in the box, never below 0
        raise ValidationError("supply", f"must be the number of NPR pieces left in the box (0 or more), not {supply!r}")
    if not (isinstance(attacks, list) and all(isinstance(a, Attack) for a in attacks)):
        attacks = parse_attacks(world, attacks)
    # defending rolls nothing: a seed given is recorded, none is drawn (dice {"seed": null, "rolls": []})
    trace, dice = Trace(), Dice(check_seed(seed))
    found = {a.index: _enemy_nprs(world, a, trace) for a in attacks}
    defenders = {i: engaged for i, (engaged, _) in found.items()}
    by_npr: dict[str, list[Attack]] = {}
    for a in attacks:
        for npr in defenders[a.index]:
            by_npr.setdefault(npr, []).append(a)
    caps: dict[tuple[int, str], Capacity] = {}
    ranks: dict[tuple[int, str], int] = {}
    for npr in sorted(by_npr):
        ordered = sorted(by_npr[npr], key=lambda a: _priority(world, npr, a))
        if len(ordered) > 1:
            trace.add(R_MULTI, f"{npr} faces {len(ordered)} Battles: Capital Area and adjacent Sea Zones "
                               "first, then the largest Enemy force, ties to the first resolved: order "
                               + ", ".join(f"battle {a.index} ({a.where}, {a.units})" for a in ordered))
        used_land: set[str] = set()
        used_sea: set[str] = set()
        for rank, a in enumerate(ordered, 1):
            if a.naval:
                cap = naval_capacity(world, npr, a.where, used=used_sea)
                used_sea |= cap.provinces
            else:
                cap = military_capacity(world, npr, a.where, used=used_land)
                used_land |= cap.provinces
            caps[(a.index, npr)] = cap
            ranks[(a.index, npr)] = rank
    battles = []
    summary = []
    for a in attacks:
        rule = R_SEAS if a.naval else R_AREAS
        parts = [caps[(a.index, n)] for n in defenders[a.index]]
        for cap in parts:
            given = ", ".join(str(c) for c in cap.contributions) or "nothing"
            trace.add(R_NC if a.naval else R_MC, f"battle {a.index}: {cap.kind} of {cap.realm} for "
                      f"{a.where} = {cap.raw} from {given}"
                      + "".join(f"; {e.province} left out: {e.reason}" for e in cap.excluded))
            if any("another" in e.reason for e in cap.excluded):
                trace.add(R_ONCE, f"battle {a.index}: Provinces already used this turn by {cap.realm} "
                                  "do not supply it again")
            if cap.halved:
                trace.add(R_ALLY, f"battle {a.index}: {cap.realm} is an Active Ally: half of {cap.raw}, "
                                  f"rounded up = {cap.value}")
        total = sum(c.value for c in parts)
        if len(parts) > 1:
            trace.add(R_SEVERAL, f"battle {a.index}: {' + '.join(c.realm for c in parts)} combine into one "
                                 f"{'Naval' if a.naval else 'Land'} Battle with {total}")
        triggered = total > 0
        kind = "Light Ships" if a.naval else "Infantry Units"
        if parts:
            trace.add(rule, f"battle {a.index}: {a.attacker} ({a.units}) in {a.where}: "
                      + (f"{total} {kind} defend" if triggered else "no defenders, no Battle"))
        elif not found[a.index][1]:  # (an NPR held back by Hostile units already has its reason above)
            trace.add(rule, f"battle {a.index}: no Enemy NPR defends {a.where}: no Battle")
        short = None
        if triggered and supply is not None and total > supply:
            short = total - supply
            trace.add(R_SUPPLY, f"battle {a.index}: only {supply} NPR pieces: defend at full strength "
                                f"{total} and keep count of losses")
        # the attack as given (its "units" are the attacker's) and, named apart, the defenders' total
        battles.append({
            **a.to_dict(), "battle": a.index, "naval": a.naval, "triggered": triggered,
            "defenders": [{**c.to_dict(), "allocation_rank": ranks[(a.index, c.realm)]} for c in parts],
            "defender_units": total, "unit_kind": kind, "pieces_short": short})
        summary.append(f"battle {a.index}: {a.attacker} x{a.units} -> {a.where}: "
                       + (f"{total} {kind} from " + ", ".join(f"{c.realm} {c.value}" for c in parts)
                          if triggered else "no battle"))
    return Decision("npr.defend", {"battles": battles}, tuple(summary), trace, dice)
