"""NPR Invasions, Phase 3 step B (file 000 §13.5, Advanced Rules).

NPRs at War with any PR are resolved alphabetically; each invasion changes the board (Unrest,
battle losses, new Rebels) before the next NPR is considered.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.realms.model import UnitStack, World, alphabetical
from engine.realms.options import half_up
from engine.trace import Dice, Trace
from npr_controller.dice import SeededDice
from npr_controller.realms.battle import MilitaryCard, resolve_battle
from npr_controller.realms.result import Decision

R = "000 §13.5"
R_C1 = "000 §13.5 criterion 1"
R_C2 = "000 §13.5 criterion 2"
R_C3 = "000 §13.5 criterion 3"
R_TARGET = "000 §13.5 criterion 3 (target)"
R_SEA = "000 §13.5 criterion 3 (sea only)"
R_NEUTRAL = "000 §13.5 criterion 3 (PR not at War)"

# Machine-readable codes beside the prose (docs/service.md, "NPR answers"). An entry's ``reason`` is one
# of the failure codes (with ``criterion``: the failed criterion of §13.5, None for the opening
# condition) or, when it invades, the priority code (with ``priority_level``: the step-1 priority,
# None when the target was the only eligible Area).
NOT_AT_WAR, ACTIVE_ALLY, HOSTILE_UNITS, NO_TARGET_AREA = "not_at_war", "active_ally", "hostile_units", \
    "no_eligible_target"
PRIORITIES = {  # choose_target's prose -> (priority_level, reason)
    "only eligible Area": (None, "only_eligible"),
    "1.1 Capital Area": ("1.1", "capital_area"),
    "1.2 most Core Provinces": ("1.2", "most_cores"),
    "1.3 adjacent by Land": ("1.3", "land_adjacent"),
    "1.4 random": ("1.4", "random"),
}
INELIGIBLE = {  # why an Area is not an eligible target (all criterion 3)
    R_TARGET: "no_target",
    R_NEUTRAL: "pr_not_at_war",
    R_SEA: "sea_only_hostile",
}


def controlled_areas(world: World, npr: str) -> set[str]:
    """Areas where the NPR (with its Vassals, 000 §13.2) controls Provinces."""
    return {p.area for m in world.members(npr) for p in world.controlled_by(m)}


def _occupied_areas(world: World, npr: str) -> set[str]:
    return {p.area for m in world.members(npr) for p in world.owned_by(m) if p.occupied_by is not None}


def _has_target(world: World, npr: str, area: str, members: set[str]) -> bool:
    # rules: 000 §13.5 criterion 3 -- a t/v of a Hostile PR, or an NPR Province Occupied by an Enemy
    at_war = world.at_war
    for p in world.provinces_in(area):
        if p.token in ("t", "v") and at_war(world.pr_of_token(p), npr):
            return True
        if p.occupied_by is not None and p.owner in members and at_war(p.occupied_by, npr):
            return True
    return False


def _land_adjacent_to_any(world: World, area: str, base: set[str]) -> bool:
    """``world.land_adjacent(area, b)`` for some ``b`` in ``base``, as one set test."""
    return bool(base) and not world.areas[area].adjacent.isdisjoint(base)


def _ineligible_reason(world: World, npr: str, area: str, base: set[str], own: set[str],
                       members: set[str]) -> str | None:
    if not _has_target(world, npr, area, members):
        return f"{R_TARGET}|no t/v of a PR Hostile to the NPR, no NPR Province Occupied by an Enemy"
    # rules: 000 §13.5 criterion 3 -- Units of a PR not at War with the NPR make it ineligible
    units = world.units_in(area)
    neutral = sorted({u.realm for u in units if u.kind == "army" and u.count > 0
                      and u.realm and world.realms[u.realm].is_pr and not world.at_war(u.realm, npr)}) if units else ()
    if neutral:
        return f"{R_NEUTRAL}|contains Units of {', '.join(neutral)}, not at War with the NPR"
    if area not in own and not _land_adjacent_to_any(world, area, base):
        # rules: 000 §13.5 criterion 3 -- adjacent by Sea only and every connecting Sea Zone Hostile
        seas = sorted(set().union(*(world.shared_seas(area, b) for b in base)))
        if all(world.hostile_ships(s, npr) > 0 for s in seas):
            return f"{R_SEA}|adjacent by Sea only and every connecting Sea Zone ({', '.join(seas)}) " \
                   "holds a Ship Hostile to the NPR"
    return None


def _home(world: World, npr: str) -> tuple[set[str], set[str]]:
    """(Areas where the NPR controls Provinces, its own Areas counted as adjacent by land)."""
    base = controlled_areas(world, npr)
    own = (base | _occupied_areas(world, npr)) if world.rules.own_areas_are_adjacent else set()
    return base, own


def eligible_targets(world: World, npr: str,
                     home: tuple[set[str], set[str]] | None = None) -> tuple[list[str], dict[str, str]]:
    """Eligible and ineligible (with the rule and reason) invasion Areas adjacent to ``npr``."""
    base, own = home or _home(world, npr)
    candidates = set(own)
    for b in base:
        candidates |= world.neighbours(b)
    eligible, ineligible = [], {}
    members = set(world.members(npr))
    for area in sorted(candidates):
        reason = _ineligible_reason(world, npr, area, base, own, members)
        if reason:
            ineligible[area] = reason
        else:
            eligible.append(area)
    return eligible, ineligible


def choose_target(world: World, npr: str, eligible: list[str], dice: Dice, trace: Trace,
                  home: tuple[set[str], set[str]] | None = None) -> tuple[str, str]:
    """Step 1: the four-level priority (successive tie-breakers, see RealmRules)."""
    if len(eligible) == 1:
        trace.add(f"{R} step 1", f"{eligible[0]} is the only eligible Area")
        return eligible[0], "only eligible Area"
    cap = world.area_of_capital(npr)
    # rules: 000 §13.5 step 1.1 -- the NPR's own Capital Area
    if cap in eligible:
        trace.add(f"{R} step 1.1", f"{cap} is {npr}'s own Capital Area")
        return cap, "1.1 Capital Area"
    trace.add(f"{R} step 1.1", f"{npr} has no Capital: no Capital Area to pick" if cap is None
              else f"{npr}'s Capital Area ({cap}) is not eligible")
    pool = list(eligible)
    # rules: 000 §13.5 step 1.2 -- the Area with the most of the NPR's Core Provinces
    cores = {a: sum(1 for p in world.provinces_in(a) if world.core_of(p) == npr) for a in pool}  # 001 §7.6
    best = max(cores.values())
    if best > 0:
        tied = [a for a in pool if cores[a] == best]
        if len(tied) == 1:
            trace.add(f"{R} step 1.2", f"{tied[0]} has the most {npr} Core Provinces ({best})")
            return tied[0], "1.2 most Core Provinces"
        trace.add(f"{R} step 1.2", f"tie on {best} Core Provinces: {', '.join(tied)}")
        if world.rules.priorities_break_ties:
            pool = tied
    else:
        trace.add(f"{R} step 1.2", f"no eligible Area holds a {npr} Core Province")
    # rules: 000 §13.5 step 1.3 -- an Area adjacent by Land to the NPR
    base, own = home or _home(world, npr)
    by_land = [a for a in pool if a in own or _land_adjacent_to_any(world, a, base)]
    if len(by_land) == 1:
        trace.add(f"{R} step 1.3", f"{by_land[0]} is the only one adjacent by Land")
        return by_land[0], "1.3 adjacent by Land"
    if by_land:
        trace.add(f"{R} step 1.3", f"several adjacent by Land: {', '.join(by_land)}")
        pool = by_land
    else:
        trace.add(f"{R} step 1.3", "none adjacent by Land")
    # rules: 000 §13.5 step 1.4 -- a randomly selected adjacent Area (seeded, recorded)
    pick = dice.choice(pool, purpose=f"{npr} invasion target among {', '.join(pool)}")
    trace.add(f"{R} step 1.4", f"randomly selected {pick} among {', '.join(pool)}")
    return pick, "1.4 random"


def _apply_losses(world: World, area: str, npr: str, left: int) -> tuple:
    """Enemy stacks in ``area`` reduced to ``left`` units in total (losses taken stack by stack)."""
    units = []
    for u in world.units:
        if u.where == area and u.kind == "army" and world.at_war(u.realm, npr):
            keep = min(u.count, left)
            left -= keep
            units.append(replace(u, count=keep))
        else:
            units.append(u)
    return tuple(u for u in units if u.count > 0)


def invade_one(world: World, npr: str, dice: Dice, trace: Trace,
               deck: list[MilitaryCard] | None) -> tuple[dict[str, Any], World]:
    """One NPR's Invasion check and, if it happens, its steps 1-5."""
    enemies = sorted(r for r in world.enemies_of(npr) if world.realms[r].is_pr)
    entry: dict[str, Any] = {"npr": npr, "at_war_with": enemies, "eligible": False, "invades": False,
                             "failed": None, "criterion": None, "reason": None, "priority_level": None}
    if not enemies:
        trace.add(R, f"{npr} is not at War with any PR: no Invasion")
        entry.update(failed="not at War with any PR", reason=NOT_AT_WAR)
        return entry, world
    pr = world.active_ally_of(npr)
    if pr:  # rules: 000 §13.5 criterion 1 -- not an Active Ally of any PR
        trace.add(R_C1, f"{npr} is an Active Ally of {pr}: no Invasion")
        entry.update(failed=f"criterion 1: Active Ally of {pr}", criterion=1, reason=ACTIVE_ALLY)
        return entry, world
    trace.add(R_C1, f"{npr} is not an Active Ally of any PR")
    # rules: 000 §13.5 criterion 2 -- no Hostile Units where the NPR controls Provinces
    home = _home(world, npr)  # (the board does not change until the target is chosen)
    held = sorted(home[0])
    hostile = [a for a in held if world.hostile_units(a, npr) > 0]
    if hostile:
        trace.add(R_C2, f"Hostile Units in {', '.join(hostile)}, where {npr} controls Provinces: no Invasion")
        entry.update(failed=f"criterion 2: Hostile Units in {', '.join(hostile)}", criterion=2,
                     reason=HOSTILE_UNITS)
        return entry, world
    trace.add(R_C2, f"no Hostile Units in {npr}'s Areas ({', '.join(held) or 'none'})")
    eligible, ineligible = eligible_targets(world, npr, home)
    no_target = [a for a, why in ineligible.items() if why.startswith(R_TARGET)]
    if no_target:
        trace.add(R_TARGET, f"ineligible, no t/v of a PR Hostile to {npr} and no {npr} Province Occupied "
                            f"by an Enemy: {', '.join(no_target)}")
    for area, why in ineligible.items():
        rule, text = why.split("|", 1)
        if rule != R_TARGET:
            trace.add(rule, f"{area} ineligible: {text}")
    entry.update(eligible_areas=eligible,
                 ineligible_areas={a: w.split("|", 1)[1] for a, w in ineligible.items()},
                 ineligible_codes={a: {"criterion": 3, "reason": INELIGIBLE[w.split("|", 1)[0]]}
                                   for a, w in ineligible.items()})
    if not eligible:
        trace.add(R_C3, f"no eligible Invasion target Area adjacent to {npr}: no Invasion")
        entry.update(failed="criterion 3: no eligible target Area", criterion=3, reason=NO_TARGET_AREA)
        return entry, world
    trace.add(R_C3, f"eligible target Areas: {', '.join(eligible)}")
    target, why = choose_target(world, npr, eligible, dice, trace, home)
    # rules: 000 §13.5 step 2 -- Unrest on 2 t/v of PRs at War with the NPR, alphabetically
    skip = world.rules.unrest_skips_existing
    marks = sorted((p.name for p in world.provinces_in(target) if p.token in ("t", "v")
                    and world.at_war(world.pr_of_token(p), npr) and not (skip and p.unrest)), key=alphabetical)[:2]
    trace.add(f"{R} step 2", f"add Unrest to {', '.join(marks)}" if marks else
              f"no Unrest added: no t/v of a PR at War with {npr} in {target} qualifies")
    # rules: 000 §13.5 step 3 -- Units = half the Tax Value controlled by the NPR and its Vassals
    tokens = world.rules.invasion_counts_manpower_tokens
    tax = sum(world.tax_income(m, manpower_tokens=tokens) for m in world.members(npr))
    units = half_up(tax)
    trace.add(f"{R} step 3", f"Tax Value of {npr} and its Vassals = {tax}; half, rounded up = {units} Units "
                             f"placed in {target}")
    if marks:  # (no marks: the board is unchanged, no new World needed)
        provinces = dict(world.provinces)
        for name in marks:
            provinces[name] = replace(provinces[name], unrest=True)
        world = world.evolve(provinces=provinces)
    level, code = PRIORITIES[why]
    entry.update(eligible=True, invades=True, target=target, priority=why, priority_level=level, reason=code,
                 unrest=marks, units=units, battle=None)
    # rules: 000 §13.5 step 4 -- resolve a Battle at once if Military Units are there
    foes = [u for u in world.units_in(target) if u.kind == "army" and u.count > 0 and world.at_war(u.realm, npr)]
    enemy = sum(u.count for u in foes)
    rebels = any(u.kind == "rebel" and u.count > 0 for u in world.units_in(target))
    left, board_units = units, world.units
    if enemy and units:
        trace.add(f"{R} step 4", f"{enemy} Enemy Units in {target}: Battle at once, normal NPR rules")
        outcome = resolve_battle(world, [npr], target, naval=False, npr_units=units, enemy_units=enemy,
                                 dice=dice, trace=trace, npr_attacks=True, with_rebels=rebels, deck=deck,
                                 invading=True)
        entry["battle"] = {"enemy_units": enemy, "enemy_realms": sorted({u.realm for u in foes}),
                           **outcome.to_dict()}
        left = outcome.npr_left if outcome.winner != "enemy" else 0
        board_units = _apply_losses(world, target, npr, outcome.enemy_left)
    else:
        trace.add(f"{R} step 4", f"no Enemy Military Units in {target}: no Battle")
    # rules: 000 §13.5 step 5 -- from now on these NPR Units behave as Rebels
    if left:
        board_units = (*board_units, UnitStack(None, target, "rebel", left))
    if board_units is not world.units:  # losses and new Rebels: one new World
        world = world.evolve(units=board_units)
    trace.add(f"{R} step 5", f"{left} surviving NPR Units in {target} now behave as Rebels")
    entry["rebels_placed"] = left
    return entry, world


def _battle_result(npr: str, battle: dict[str, Any]) -> str:
    """The invasion battle's outcome in names: who won it."""
    enemy = " and ".join(battle["enemy_realms"]) or "the Enemy"
    return {"npr": f"battle won by {npr}", "enemy": f"battle won by {enemy}",
            "none": "both sides destroyed: nobody wins the battle",
            "undecided": "battle undecided"}[battle["winner"]]


def invasions(world: World, *, seed: int | None = None,
              deck: tuple[MilitaryCard, ...] | None = None) -> Decision:
    """``npr.invasions``: Phase 3 step B for every NPR, alphabetically (000 §13.5).

    ``seed`` None draws a fresh secret seed (recorded in ``dice.seed``); each NPR rolls from its own
    stream of it (npr_controller/dice.py), so no two NPRs share dice.
    """
    trace, dice = Trace(), SeededDice(seed)
    # rules: 000 §13.5 -- resolve NPRs in alphabetical order
    nprs = sorted((n for n, r in world.realms.items() if r.is_npr), key=alphabetical)
    trace.add(R, f"NPRs in alphabetical order: {', '.join(nprs) or 'none'}")
    entries, summary = [], []
    pile = None if deck is None else list(deck)  # drawn from in order, one card a Battle (000 §13.4: discarded)
    for npr in nprs:
        entry, world = invade_one(world, npr, dice.stream("npr.invasions", npr, world.round), trace, pile)
        entries.append(entry)
        if entry["invades"]:
            b = entry["battle"]
            unrest = f"Unrest on {', '.join(entry['unrest'])}" if entry["unrest"] else "no Unrest added"
            summary.append(f"{npr}: invades {entry['target']} ({entry['priority']}) with {entry['units']} "
                           f"Units; {unrest}" + (f"; {_battle_result(npr, b)}" if b else "")
                           + f"; {entry['rebels_placed']} become Rebels")
        else:
            summary.append(f"{npr}: no invasion ({entry['failed']})")
    return Decision("npr.invasions", {"invasions": entries}, tuple(summary), trace, dice, world)
