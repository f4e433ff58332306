"""Calls to Arms: an NPR at once sends Defensive CtAs when War is declared on it (004 §11.3).

Each CtA comes with what accepting and refusing would mean for the receiving PR, so the GM (or the
caretaker) can answer it immediately.
"""

from __future__ import annotations

from typing import Any

from engine.errors import ValidationError
from engine.realms.diplomacy import active_ally_units, pre_war_tax_value
from engine.realms.loader import Fields, realm_ref
from engine.realms.model import World
from engine.realms.options import half_up
from engine.trace import Dice, Trace
from npr_controller.realms.result import Decision

R_RECEIVE = "004 §11.3 Receiving a CtA"
R_ACCEPT = "004 §11.3 Accepting a CtA"
R_REFUSE = "004 §11.3 Refusing a CtA"


def parse_declaration(world: World, data: Any) -> tuple[str, str]:
    f = Fields(data, "declaration")
    f.check(("attacker", "target"))
    attacker, target = realm_ref(f, "attacker", world.realms), realm_ref(f, "target", world.realms)
    if attacker == target:
        raise ValidationError("declaration.target", "a realm cannot declare War on itself")
    if not world.realms[attacker].is_pr:
        # the declaration this answers is a Player Realm's (004 §11.3 Receiving a CtA: "when they are the
        # target of a DoW"); NPRs never Declare War, and Vassals do not act in Wars (004 §11.4)
        kind = {"npr": "an NPR", "dnpr": "a DNPR", "vassal": "a Vassal"}[world.realms[attacker].kind]
        raise ValidationError("declaration.attacker", f"{attacker!r} is {kind}, not a Player Realm: only a "
                                                      "Player Realm Declares War here")
    if world.in_truce(attacker, target):
        # rules: rules-gaps.md Definitions -- Truce: no War between the two realms until Phase 3 step A
        raise ValidationError("declaration", f"{attacker} and {target} are in a Truce (relations.truces): no War "
                                             "between them until Phase 3 step A of the next round")
    if frozenset((attacker, target)) in world.relations.wars or world.at_war(attacker, target):
        raise ValidationError("declaration", f"{attacker} is already at War with {target}: there is no new "
                                             "Declaration of War, so no Call to Arms")
    if world.realms[target].kind == "vassal":
        # rules: 004 §11.4 Vassals in Wars -- declare War on the Overlord instead
        raise ValidationError("declaration.target", f"{target!r} is a Vassal: declare War on "
                                                    f"its Overlord {world.realms[target].overlord!r}")
    return attacker, target


def consequences(world: World, pr: str, npr: str, attacker: str, *, defensive: bool = True) -> dict[str, Any]:
    """What accepting or refusing a CtA from ``npr`` would do to ``pr`` (004 §11.3)."""
    units, tax = active_ally_units(world, npr)
    me = world.realms[pr]
    wars = sorted(r for r in world.realms if world.at_war(pr, r))
    busy = me.passed or bool(wars)
    active = any(a.pr == pr and a.ally == npr and a.active for a in world.alliances_of(npr))
    accept = [f"join {npr}'s side: place {attacker}'s War tokens on {pr}'s own Capital"]
    if world.realms[npr].is_npr:
        # rules: 004 §11.3 Accepting a CtA steps 2 and 4 -- "If accepting a Defensive CtA from an NPR Ally, you
        # may send Defensive CtAs to your other NPR Allies"; "If accepting a CtA from an NPR, decide whether
        # you wish to make them an Active Ally" (a PR Ally is neither)
        others = sorted(a.ally for a in world.alliances_of(pr)
                        if a.pr == pr and a.ally != npr and world.realms[a.ally].is_npr)
        accept += [
            f"you may send Defensive CtAs to your other NPR Allies ({', '.join(others)})" if others
            else "you have no other NPR Ally to send a Defensive CtA to",
            f"{npr} is already your Active Ally: nothing to decide (it defends with half MC)" if active else
            f"decide whether {npr} becomes an Active Ally: +{units} Allied Units (half of Tax Value {tax}, "
            "rounded up, max 5), and it then defends with half MC",
        ]
    if any({a.pr, a.ally} == {pr, attacker} for a in world.alliances_of(pr)):
        accept.append(f"your Alliance with {attacker} (on the opposing side) is terminated")
    refuse = [f"the Alliance with {npr} is terminated: remove your Alliance token"]
    if active:
        loss = half_up(pre_war_tax_value(world, npr))
        refuse.append(f"lose {loss} Allied Unit(s) (half the pre-War Tax Value); {attacker} places a War token "
                      f"on {npr}: a separate War")
    if not defensive:
        pass  # rules: 004 §11.3 Refusing a CtA -- steps 3-4 apply to Defensive CtAs only
    elif busy:
        why = f"{pr} has Passed" if me.passed else f"{pr} is already in another War (with {', '.join(wars)})"
        refuse.append(f"steps 3-4 (the losses for refusing a Defensive CtA) are ignored: {why}")
    else:
        refuse.append(f"lose {world.rules.refuse_cta_stability_loss} Stability and remove "
                      f"{world.rules.refuse_cta_influence_loss} Influence from {npr}'s Areas")
        if world.married(pr, npr):
            # rules: 004 §11.2 Key features of Royal Marriages — "remove 1 fewer I than normal if you
            # have 1+ M in that Area" (the Marriage with the NPR sits in its Areas)
            refuse.append(f"married to {npr}: remove 1 fewer Influence in each of its Areas where you hold "
                          "the Marriage")
    if world.realms[npr].is_pr:
        # rules: 004 §11.3 Refusing a CtA steps 4-5 -- a PR former Ally "-may- place a CB token on your Capital"
        # (a Defensive CtA, steps 3-4 not ignored); if it does not, "you must place a Truce token on their
        # Capital (and if a PR, they must on yours)"
        if defensive and not busy:
            refuse.append(f"{npr} may place a CB token on {pr}'s Capital; if it does not, place a Truce token on "
                          f"{npr}'s Capital and {npr} places one on {pr}'s")
        else:
            refuse.append(f"place a Truce token on {npr}'s Capital and {npr} places one on {pr}'s")
    else:
        refuse.append(f"place a Truce token on {npr}'s Capital")
    return {"accept": accept, "refuse": refuse, "active_ally_units": units, "ignores_steps_3_4": busy}


def call_to_arms(world: World, declaration: Any) -> Decision:
    """``npr.call_to_arms``: the Defensive CtAs the target NPR sends at once."""
    attacker, target = parse_declaration(world, declaration)
    trace = Trace()
    ctas, summary = [], []
    if not world.realms[target].is_npr:
        trace.add(R_RECEIVE, f"{target} is not an NPR: a PR decides its own CtAs")
        return Decision("npr.call_to_arms", {"attacker": attacker, "target": target, "ctas": []},
                        (f"{target} is not an NPR: no automatic CtA",), trace, Dice(None))
    married = world.married(attacker, target)
    if married:
        # rules: 004 §11.2 -- -1 Stability for attacking a Realm you are Married to
        trace.add("004 §11.2 Key features of Royal Marriages", f"{attacker} is Married to {target}: {attacker} "
                                                               "loses 1 Stability (besides any lack of a CB)")
    allies = sorted(a.pr for a in world.alliances_of(target) if a.ally == target)
    if not allies:
        trace.add(R_RECEIVE, f"{target} has no PR Ally: no CtA to send")
    for pr in allies:
        if pr == attacker:
            trace.add("004 §11.3 Ending an Alliance", f"{attacker} is {target}'s own Ally and the attacker: "
                                                      "no CtA to it")
            continue
        # rules: 004 §11.3 Receiving a CtA -- NPRs always send a Defensive CtA at once when targeted
        trace.add(R_RECEIVE, f"{attacker} declared War on {target}: {target} at once sends a Defensive CtA "
                             f"to its Ally {pr}")
        trace.add(R_RECEIVE, f"a Defensive CtA can always be accepted (no DoW restrictions apply); {pr} must "
                             "respond immediately")
        c = consequences(world, pr, target, attacker)
        trace.add(R_ACCEPT, "; ".join(c["accept"]))
        trace.add(R_REFUSE, "; ".join(c["refuse"]))
        ctas.append({"from": target, "to": pr, "kind": "defensive", "can_accept": True, **c})
        summary.append(f"{target} -> {pr}: Defensive CtA (can always be accepted)")
    body = {"attacker": attacker, "target": target, "ctas": ctas, "attacker_stability_loss": 1 if married else 0}
    return Decision("npr.call_to_arms", body, tuple(summary) or (f"{target}: no CtA sent",), trace, Dice(None))
