"""The rulebook's own defaults for a seat that sends nothing in time.

# rules: 003 — inactive players: bid 0 (and a random faction); Fortify! everywhere with a golden
# Fortify! in the lowest-numbered Province when allowed; commit nothing to the Dragon ("Turn off the
# lights"), burning from the lowest-numbered green Province; buy as many units as affordable, spread
# evenly from the lowest-numbered Province; bid 0.
"""

from __future__ import annotations

from engine.protectors import cards as C
from engine.protectors.decisions import (
    BidDecision,
    ConsolidationDecision,
    Decision,
    DragonDecision,
    OrdersDecision,
)
from engine.protectors.dragon import active_cards
from engine.protectors.orders import Fortify
from engine.protectors.state import BANK_BID, BID, CONSOLIDATION, DRAGON, ORDERS, REBID, GameState
from engine.protectors.tables import UNIT_COST


def default_orders(state: GameState, seat: str) -> OrdersDecision:
    """rules: 003 3. Negotiation and Orders — "their Army Unit(s) will carry out the Fortify! order ...
    If they can play a golden Fortify! they will do so (... in their lowest numbered Province)".
    Under Restlessness of Spring no Fortify! may be played, so the units stay orderless
    (assumption RESTLESS_DEFAULT)."""
    from engine.protectors.legality import golden_limits, orderable

    if C.RESTLESSNESS in active_cards(state):
        return OrdersDecision()
    provs = [p for p in orderable(state, seat) if p != state.board.island]
    golden = golden_limits(state, seat)["fortify"] > 0
    return OrdersDecision(tuple(Fortify(p, golden and i == 0) for i, p in enumerate(provs)))


def even_placement(state: GameState, seat: str, count: int | None = None) -> list[tuple[str, int]]:
    """rules: 003 Consolidation — "fill up an equal number of units in all Provinces (from the lowest
    to highest numbered Province) ... any additional units will be added again starting with the
    lowest numbered Province". ``count`` None: as many as affordable."""
    from engine.protectors.consolidation import supply_limit

    provs = state.mainland(seat)
    units = {p: state.provinces[p].units for p in provs}
    budget = state.players[seat].realm // UNIT_COST if count is None else count
    added: dict[str, int] = {}
    for _ in range(budget):
        room = [p for p in provs if units[p] < supply_limit(state, p, seat)]
        if not room:
            break
        p = min(room, key=lambda q: (units[q], state.board.number(q)))
        units[p] += 1
        added[p] = added.get(p, 0) + 1
    return sorted(added.items(), key=lambda kv: state.board.number(kv[0]))


def default_consolidation(state: GameState, seat: str) -> ConsolidationDecision:
    return ConsolidationDecision(buys=tuple(even_placement(state, seat)), bid=0)


def default_decision(state: GameState, seat: str) -> Decision:
    """The rulebook default for ``seat`` in the current step."""
    if state.step in (BID, REBID, BANK_BID):
        return BidDecision(0)
    if state.step == ORDERS:
        return default_orders(state, seat)
    if state.step == DRAGON:
        return DragonDecision()
    if state.step == CONSOLIDATION:
        return default_consolidation(state, seat)
    raise ValueError(f"no seat decides in the {state.step} step")
