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
from engine.protectors.dm_team import team_mates as engine_team_mates
from engine.protectors.orders import Fortify, March, Support, Work
from engine.protectors.seat import SeatContext
from engine.protectors.state import GameState

# Two AI team-mates never march into one Province together: a Province neither holds goes to the team-mate whose units
# stand nearest, the earlier seat on a tie (``left_to_a_mate``; docs/assumptions.md TEAM_TARGETS). False: each seat
# picks its targets alone.
TEAM_TARGETS = True


def team_mates(state: GameState, seat: str) -> frozenset[str]:
    """The seat's team-mates still in the game (none outside a team game): the engine's ``dm_team.team_mates``, the
    DM reader's, as a set."""
    return frozenset(engine_team_mates(state, seat))


FAR = 10**6  # farther than any two Provinces of a board


def left_to_a_mate(state: GameState, seat: str, dst: str) -> bool:
    """Whether ``dst``, a Province neither this seat nor a team-mate holds, is a team-mate's to march into
    (TEAM_TARGETS): of the seat and its team-mates with Army Units on the board, the one whose units stand nearest to
    it on the board, the earlier in seat order on a tie, takes it. rules: 003 Team Games -- "everyone on the team
    agrees on the orders for the team as a whole before each player sends in their individual orders". AI seats
    decide apart, each on its own seat's view, so they keep a convention a team would agree on, made of what every
    seat sees: two of them never march into one Province together and fight each other there (a March! into a
    Province two players enter is a battle between them, rules: 003 How to resolve battles). Without Seafarers! a
    March! goes next door, so this leaves a Province both can reach to the earlier seat; under it (every Province
    next door) each Province goes to the team-mate nearest to it."""
    mates = team_mates(state, seat) if TEAM_TARGETS else frozenset()
    if not mates or state.holder(dst) == seat or state.holder(dst) in mates:
        return False
    order = list(state.players)
    near: dict[str, int] = {}
    for p, pr in state.provinces.items():
        h = state.holder(p)
        if h is not None and (h == seat or h in mates) and pr.units > 0 and p != dst:
            d = state.board.distance(p, dst)
            if d is not None and d < near.get(h, FAR):
                near[h] = d
    if not near:
        return False
    first = min(near, key=lambda s: (near[s], order.index(s)))
    return first != seat


def spare_team_mates(ctx: SeatContext, decision: Decision) -> Decision:
    """``decision`` with every March! into a team-mate's Province, or into one left to a nearer team-mate
    (``left_to_a_mate``), and this seat's Support! of it, made a plain Fortify! of its own Province, or a Work, work!,
    or no order (validated again)."""
    if not isinstance(decision, OrdersDecision):
        return decision
    state = ctx.state
    mates = team_mates(state, ctx.seat)
    if not mates:
        return decision
    spared = []
    changed = False

    def spared_target(prov: str) -> bool:
        return state.holder(prov) in mates or left_to_a_mate(state, ctx.seat, prov)

    for o in decision.orders:
        if (isinstance(o, March) and spared_target(o.dst)) or (
                isinstance(o, Support) and o.player == ctx.seat and spared_target(o.target)
                and o.src is not None):
            changed = True
            legal = ctx.legal_orders(o.src)
            instead = next((x for x in (Fortify(o.src), Work(o.src)) if x in legal), None)
            if instead is not None:  # Restlessness of Spring forbids Fortify!: then Work, else no order
                spared.append(instead)
        else:
            spared.append(o)
    return ctx.validate(replace(decision, orders=tuple(spared))) if changed else decision


def spared_note(ctx: SeatContext, wanted: Decision, decision: Decision) -> str:
    """What ``spare_team_mates`` changed in ``wanted`` to give ``decision``, for the decision's trace (the seat's own
    secret, like its DM): "its March! into P2 was left to a team-mate whose units stand nearer (TEAM_TARGETS) (rules:
    003 Team Games)"; "" when nothing changed."""
    if decision == wanted or not isinstance(wanted, OrdersDecision) or not isinstance(decision, OrdersDecision):
        return ""
    state = ctx.state
    mates = team_mates(state, ctx.seat)
    kept = set(decision.orders)
    notes = []
    for o in wanted.orders:
        if o in kept or not isinstance(o, March):
            continue
        holder = state.holder(o.dst)
        if holder in mates:
            notes.append(f"its March! into {o.dst} was not given: {o.dst} is team-mate {holder}'s")
        else:
            notes.append(f"its March! into {o.dst} was left to a team-mate whose units stand nearer "
                         "(TEAM_TARGETS)")
    return "; ".join(notes) + " (rules: 003 Team Games)" if notes else ""

