"""Autoregressive decision building: one engine decision as a sequence of small masked choices.

A ``Planner`` is made for one seat when the engine waits for that seat. It offers a mask over the
actions of ``agents.spaces.layout``, takes one action at a time, and once ``finished`` gives the whole engine
``Decision``. Masks come from the engine's legal enumeration (``legality.order_options``,
``golden_limits``, ``orderable``, ``march_targets``) plus the decision-wide limits the planner
tracks (one order per Province, one golden order per type, the $Realm still free), so every
finished decision passes ``Game.submit``. A mask is never empty: when nothing else is legal,
DONE is.

Orders (rules: 003 Negotiation and Orders): Provinces are taken lowest number first; for each:
KIND (or DONE: no order there) -> [Ferry! YES/DONE] -> target PROV -> COUNT (March!) or PLAYER
(Support!). Then, on a Pirates! turn, PLAYER to snitch on or DONE. $Realm transfers are left out
(the issue allows it).
Abilities (orders, Dragon, Consolidation) come first: each one the engine lists as usable now
(``abilities.legal_abilities``) is offered YES/DONE (Fight fire with fire!: COUNT Highmagisters).
Bids: [FACTION] -> AMOUNT. Dragon: abilities -> COUNT per Province (DONE = none) -> PROV to burn
per missing min.US point (DONE = rulebook default), or, when min.US is met with more units than it
from several Provinces, PROV among the committed Provinces for the casualties (``sac``; DONE = engine
default; see ``DragonPlanner``). Consolidation: abilities -> upgrade YES/DONE per
eligible Province -> COUNT to buy per Province (DONE = none) -> [Capitol PROV] -> AMOUNT bid of what
is left (none with The Bank of Lannuvár).
"""

from __future__ import annotations

from agents.spaces.planner_base import ALONE_IN_DRAGON, STAGE_INDEX, STAGES, Planner
from agents.spaces.planner_orders import OrdersPlanner
from agents.spaces.planner_phases import BidPlanner, ConsolidationPlanner, DragonPlanner
from engine.protectors.state import BANK_BID, BID, CONSOLIDATION, DRAGON, ORDERS, REBID, GameState

__all__ = ["ALONE_IN_DRAGON", "PLANNERS", "STAGES", "STAGE_INDEX", "BidPlanner", "ConsolidationPlanner",
           "DragonPlanner", "OrdersPlanner", "Planner", "make_planner"]

PLANNERS = {BID: BidPlanner, REBID: BidPlanner, BANK_BID: BidPlanner, ORDERS: OrdersPlanner,
            DRAGON: DragonPlanner, CONSOLIDATION: ConsolidationPlanner}


def make_planner(state: GameState, seat: str) -> Planner:
    """The planner for ``seat``'s decision in the current step."""
    return PLANNERS[state.step](state, seat)
