"""A caretaker for a vacant realm seat: runs a PR through the rulebook's bookkeeping, conservatively.

It pays upkeep (mandatory Interest first, then units, ships and Advisors while money lasts), takes a
Loan rather than go Bankrupt when the rules allow, keeps Stability up, accepts Defensive CtAs and
never declares War. Every choice is traced with the rule that forced or allowed it. The choices the
rules leave open are the named options ``caretaker_*`` of :class:`engine.realms.options.RealmRules`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.errors import ValidationError
from engine.name_hints import did_you_mean
from engine.realms.economy import (
    LOAN_LIMIT,
    RealmState,
    change_stability,
    gain_mp,
    go_bankrupt,
    income_and_costs,
    interregnum_check,
    monarch_power_income,
    stability_cost,
    take_loan,
)
from engine.realms.model import MP_TYPES, World, alphabetical
from engine.realms.options import LOAN_REPAY_COST, half_up
from engine.trace import Dice, Trace
from npr_controller.realms.cta import consequences
from npr_controller.realms.result import Decision

R_UNPAID = "001 §7.4 Unpaid Upkeep Costs"
R_CARE = "assumptions: caretaker policy"


def _pr(world: World, pr: str) -> None:
    if pr not in world.realms or not world.realms[pr].is_pr:
        raise ValidationError("realm", f"{pr!r} is not a PR in this world"
                              + did_you_mean(pr, [n for n, r in world.realms.items() if r.is_pr]))


def _pay_optional(world: World, pr: str, state: RealmState, trace: Trace) -> tuple[RealmState, dict[str, Any]]:
    """Pay optional upkeep in the caretaker's order; disband or discard what cannot be paid (001 §7.4)."""
    realm = world.realms[pr]
    regular = sum(u.count for u in world.units if u.realm == pr and u.kind == "army")
    ships = sum(s.count for s in world.ships if s.realm == pr)
    kept = {"regular": regular, "mercenary": state.mercenaries, "ships": ships,
            "advisors": [a.name for a in realm.advisors]}
    ducats = state.ducats
    for group in world.rules.caretaker_upkeep_order:
        if group == "advisors":
            paid = []
            for a in state.advisors:
                if a.cost <= ducats:
                    ducats -= a.cost
                    paid.append(a)
                    trace.add("001 §7.2 Advisors", f"pay Advisor {a.name} {a.cost} Ducats")
                else:
                    # rules: 001 §7.4 -- unpaid Advisors leave at once, without their bonuses
                    trace.add(R_UNPAID, f"cannot pay Advisor {a.name} ({a.cost}): it leaves without its bonus")
            state = replace(state, advisors=tuple(paid))
            kept["advisors"] = [a.name for a in paid]
            continue
        count = kept[group]
        if not count:
            continue
        if group == "ships":
            # rules: rules-gaps.md -- 1/2 Ducat per Ship at Sea (halves round up)
            k = count
            while k and half_up(k) > ducats:
                k -= 1
            ducats -= half_up(k)
        else:
            each = 1 if group == "regular" else 2
            k = min(count, ducats // each)
            ducats -= k * each
        if k < count:
            what = {"regular": "Land Units", "mercenary": "Mercenaries", "ships": "Ships at Sea"}[group]
            trace.add(R_UNPAID, f"upkeep paid for {k} of {count} {what}: disband {count - k}")
        else:
            trace.add("rules-gaps.md Turn structure", f"upkeep paid for all {count} {group}")
        kept[group] = k
    state = replace(state, ducats=ducats, mercenaries=kept["mercenary"])
    return state, kept


def income_and_upkeep(world: World, pr: str) -> Decision:
    """Phase 4 steps B and D for a vacant seat (001 §7.1-§7.4, rules-gaps.md Turn structure)."""
    _pr(world, pr)
    realm, rules, trace = world.realms[pr], world.rules, Trace()
    state = RealmState.of(realm)
    lines = income_and_costs(world, pr)
    for ln in lines:
        trace.add(ln.rule, f"{ln.label}: {ln.amount:+d}" + (" (optional)" if ln.optional else ""))
    mandatory = sum(ln.amount for ln in lines if not ln.optional)
    state = replace(state, ducats=state.ducats + mandatory)
    trace.add("001 §7.4 Tax Income and Upkeep Costs", f"income and mandatory costs {mandatory:+d}: treasury "
                                                      f"{realm.ducats} -> {state.ducats}")
    loans_taken = 0
    while state.ducats < 0:
        # rules: 001 §7.4 -- Interest not covered: take another Loan if able, or go Bankrupt
        nxt = take_loan(state, trace, "cannot cover mandatory costs")
        if nxt is None:
            state = go_bankrupt(state, rules, trace)
            break
        state, loans_taken = nxt, loans_taken + 1
    if rules.caretaker_loans_for_upkeep and not state.bankrupt:
        optional = -sum(ln.amount for ln in lines if ln.optional)
        while state.ducats < optional and state.loans < LOAN_LIMIT - 1:
            state = take_loan(state, trace, "caretaker_loans_for_upkeep: cover optional upkeep")
            loans_taken += 1
    state, kept = _pay_optional(world, pr, state, trace)
    gains = monarch_power_income(realm, state.advisors, trace)
    if state.stability == 3:
        # rules: 001 §7.3 -- +3 Stability: a bonus of any 2 Monarch Power; the caretaker takes the scarcest
        kind = min(MP_TYPES, key=lambda k: (state.mp[MP_TYPES.index(k)] + gains[k], MP_TYPES.index(k)))
        gains[kind] += 2
        trace.add("001 §7.3 Positive Stability", f"+3 Stability: +2 {kind} (the caretaker's scarcest type)")
    elif state.stability == -3:
        # rules: 001 §7.3 -- -3 Stability: 1 fewer Monarch Power; the caretaker gives up the most plentiful
        kind = max(MP_TYPES, key=lambda k: (state.mp[MP_TYPES.index(k)] + gains[k], -MP_TYPES.index(k)))
        gains[kind] -= 1
        trace.add("001 §7.3 Negative Stability", f"-3 Stability: 1 fewer {kind} (the most plentiful)")
    state = gain_mp(state, gains, trace, "Phase 4 step D Monarch Power")
    body = {"realm": pr, "lines": [ln.to_dict() for ln in lines], "loans_taken": loans_taken,
            "kept": kept, "state": state.to_dict()}
    summary = (f"{pr}: treasury {realm.ducats} -> {state.ducats}, loans {realm.loans} -> {state.loans}"
               + (", BANKRUPT" if state.bankrupt else ""),
               f"kept {kept['regular']} units, {kept['mercenary']} mercenaries, {kept['ships']} ships, "
               f"advisors {', '.join(kept['advisors']) or 'none'}",
               f"monarch power {state.to_dict()['monarch_power']}")
    return Decision("caretaker.income_upkeep", body, summary, trace, Dice(None))


def phase3(world: World, pr: str) -> Decision:
    """Phase 3 steps F (Interregnum) and H (Stability and Unrest) for a vacant seat."""
    _pr(world, pr)
    realm, trace = world.realms[pr], Trace()
    state = interregnum_check(RealmState.of(realm), realm, trace)
    # rules: 001 §7.3 "1 of your Provinces"; rules-gaps.md Definitions: "an Occupied Province belongs to neither
    # side", so one an enemy (or Rebels) Occupies is not the caretaker's to add Unrest to or take it from
    own = sorted(world.controlled_by(pr), key=lambda p: alphabetical(p.name))  # "alphabetically first" below
    change = None
    if state.stability >= 2:
        restless = [p.name for p in own if p.unrest]
        if restless:
            # rules: 001 §7.3 -- +2 or higher: you may remove Unrest from 1 Province; the caretaker does
            change = {"remove_unrest": restless[0]}
            trace.add("001 §7.3 Positive Stability", f"remove Unrest from {restless[0]} (alphabetically first)")
        else:
            trace.add("001 §7.3 Positive Stability", "no Province has Unrest to remove")
    elif state.stability <= -2:
        calm = [p.name for p in own if not p.unrest]
        if calm:
            # rules: 001 §7.3 -- -2 or lower: add Unrest to 1 of your Provinces (alphabetically first)
            change = {"add_unrest": calm[0]}
            trace.add("001 §7.3 Negative Stability", f"add Unrest to {calm[0]} (alphabetically first)")
    if change is None and -2 < state.stability < 2:
        trace.add("001 §7.3", f"Stability {state.stability:+d}: no Unrest change at Phase 3 H")
    body = {"realm": pr, "interregnum": realm.ruler is None, "unrest": change, "state": state.to_dict()}
    text = (f"{pr}: Stability {realm.stability:+d} -> {state.stability:+d}; unrest {change or 'unchanged'}",)
    return Decision("caretaker.phase3", body, text, trace, Dice(None))


def actions(world: World, pr: str) -> Decision:
    """The caretaker's Action phase: keep Stability, repay Loans when safe, never declare War."""
    _pr(world, pr)
    realm, rules, trace = world.realms[pr], world.rules, Trace()
    state = RealmState.of(realm)
    chosen = []
    trace.add(R_CARE, "a caretaker never declares War (and may not during an Interregnum, 001 §7.2)")
    while state.stability < rules.caretaker_min_stability:
        cost = stability_cost(state.stability)
        if state.mp[0] < cost:
            trace.add("001 §7.3", f"Increase Stability costs {cost} adm; only {state.mp[0]} available")
            break
        trace.add("001 §7.3", f"Increase Stability: pay 5 {state.stability:+d} = {cost} adm")
        state = replace(state, mp=(state.mp[0] - cost, *state.mp[1:]))
        state = change_stability(state, 1, trace, "Increase Stability")
        chosen.append({"action": "increase_stability", "cost_adm": cost})
    upkeep = -sum(ln.amount for ln in income_and_costs(world, pr) if ln.amount < 0)
    while state.loans and state.ducats - LOAN_REPAY_COST >= upkeep:
        # rules: 001 §7.4 -- repay a Loan for 6 Ducats (only with next round's costs still covered)
        state = replace(state, ducats=state.ducats - LOAN_REPAY_COST, loans=state.loans - 1)
        trace.add("001 §7.4 Loans and Interest", f"repay a Loan for {LOAN_REPAY_COST}: Loans {state.loans}, "
                                                 f"{state.ducats} Ducats left (costs {upkeep} still covered)")
        chosen.append({"action": "repay_loan", "cost": LOAN_REPAY_COST})
    body = {"realm": pr, "actions": chosen, "declares_war": False, "state": state.to_dict()}
    text = (f"{pr}: " + (", ".join(a["action"] for a in chosen) or "no action") + "; never declares War",)
    return Decision("caretaker.actions", body, text, trace, Dice(None))


def answer_cta(world: World, pr: str, npr: str, *, attacker: str, kind: str = "defensive") -> Decision:
    """Answer a CtA: accept Defensive CtAs (always allowed), refuse Offensive ones (no new Wars)."""
    _pr(world, pr)
    if npr not in world.realms or attacker not in world.realms:
        raise ValidationError("cta", "unknown sender or attacker")
    if kind not in ("defensive", "offensive"):
        raise ValidationError("cta.kind", "must be 'defensive' or 'offensive'")
    # rules: 004 §11.3 Call to Arms -- "You may receive a CtA when someone Declares War on your Ally, or
    # your Ally Declares War on another Realm": only an Ally sends one
    if not any({a.pr, a.ally} == {pr, npr} for a in world.alliances_of(pr)):
        raise ValidationError("cta_from", f"{npr!r} is not an Ally of {pr} (relations.alliances): only an Ally "
                                          "sends a Call to Arms")
    if attacker in (pr, npr) and kind == "defensive":
        raise ValidationError("attacker", f"{attacker!r} cannot have declared War on {npr} in a Defensive CtA "
                                          f"to {pr}: name the realm that declared War on {npr}")
    if kind == "offensive" and not world.realms[npr].is_pr:
        # rules: 004 §11.3 Receiving a CtA -- an Offensive CtA comes from an Ally that Declares War; NPRs
        # never Declare War (npr_controller/realms/cta.py parse_declaration)
        raise ValidationError("cta_from", f"{npr!r} is not a Player Realm: an NPR never Declares War, so it sends "
                                          "only Defensive CtAs")
    trace = Trace()
    c = consequences(world, pr, npr, attacker, defensive=kind == "defensive")
    if kind == "defensive":
        trace.add("004 §11.3 Receiving a CtA", "a Defensive CtA can always be accepted: the caretaker accepts")
        trace.add("004 §11.3 Accepting a CtA", "; ".join(c["accept"]))
        # rules: 004 §11.3 Accepting a CtA step 4 -- "decide whether you wish to make them an Active Ally":
        # an Ally that is Active already has nothing to decide (its Allied Units were added when it was
        # Activated, and it keeps defending with half MC, 000 §13.4)
        already = world.active_ally_of(npr) == pr
        activate = world.rules.caretaker_activates_allies and world.realms[npr].is_npr and not already
        if already:
            trace.add("004 §11.3 Active Allies", f"{npr} is already {pr}'s Active Ally: it stays Active (no new "
                                                 "Allied Units) and defends with half MC")
        elif world.realms[npr].is_npr:  # rules: 004 §11.3 Active Allies -- only an NPR Ally is Activated
            trace.add("004 §11.3 Active Allies",
                      f"caretaker_activates_allies={world.rules.caretaker_activates_allies}: "
                      + (f"{npr} becomes an Active Ally (+{c['active_ally_units']} Allied Units)" if activate
                         else f"{npr} is not Activated and keeps its full MC"))
        body = {"realm": pr, "from": npr, "kind": kind, "accept": True, "activate": activate}
    else:
        trace.add(R_CARE, "an Offensive CtA would start a new War: the caretaker refuses")
        trace.add("004 §11.3 Refusing a CtA", "; ".join(c["refuse"]))
        body = {"realm": pr, "from": npr, "kind": kind, "accept": False, "activate": False}
    text = (f"{pr}: {'accepts' if body['accept'] else 'refuses'} the {kind} CtA from {npr}",)
    return Decision("caretaker.cta", body, text, trace, Dice(None))
