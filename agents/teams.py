"""Team games: a seat filler never marches on its own team-mates.

rules: 003 Team Games — the team wins or loses together: "The team left standing is victorious", and at
Time's Up! "Add the VPs from each team member together". A March! into a team-mate's Province moves VPs
inside the team at best and costs both seats units in the battle; taking a team-mate's last Province
eliminates a partner (and lowers the Power Threshold: the Dragon may attack at once). The rules allow it
(the core rules apply unchanged), so it stays a legal order for players; Regent's AI seats never give it.
A GM who puts an AI beside a human team-mate must never see it attack them (issue 19's team tables
measured the cost: docs/table-health.md).

``spare_team_mates`` turns such a March! (and this seat's Support! of it) into a plain Fortify! of its
Province (Work, work! when a card forbids Fortify!, else no order); the heuristic picks another target
instead (``agents/heuristic.py``).
"""

from __future__ import annotations

from dataclasses import replace

from engine.protectors.decisions import Decision, OrdersDecision
from engine.protectors.orders import Fortify, March, Support, Work
from engine.protectors.seat import SeatContext
from engine.protectors.state import GameState


def team_mates(state: GameState, seat: str) -> frozenset[str]:
    """The seat's team-mates still in the game (none outside a team game)."""
    team = state.team_of(seat)
    if team is None:
        return frozenset()
    return frozenset(s for s, p in state.players.items() if s != seat and p.team == team and not p.eliminated)


def spare_team_mates(ctx: SeatContext, decision: Decision) -> Decision:
    """``decision`` with every March! into a team-mate's Province, and this seat's Support! of it, made a
    plain Fortify! of its own Province, or a Work, work!, or no order (validated again)."""
    if not isinstance(decision, OrdersDecision):
        return decision
    state = ctx.state
    mates = team_mates(state, ctx.seat)
    if not mates:
        return decision
    spared = []
    changed = False
    for o in decision.orders:
        if (isinstance(o, March) and state.holder(o.dst) in mates) or (
                isinstance(o, Support) and o.player == ctx.seat and state.holder(o.target) in mates
                and o.src is not None):
            changed = True
            legal = ctx.legal_orders(o.src)
            instead = next((x for x in (Fortify(o.src), Work(o.src)) if x in legal), None)
            if instead is not None:  # Restlessness of Spring forbids Fortify!: then Work, else no order
                spared.append(instead)
        else:
            spared.append(o)
    return ctx.validate(replace(decision, orders=tuple(spared))) if changed else decision
