"""How many env steps the parallel env gives each engine step, from public facts only.

In ``ProtectorsParallelEnv`` every seat picks at once, one small choice per env step, and the engine
resolves the step when the seats' decisions are in. If it resolved as soon as the last seat finished,
when it resolved would tell every seat how many choices the others made (how many Provinces they gave an
order, whether they could afford a Ferry! or an ability, whether their bid was forced by an empty
$Realm): hidden choices and hidden $Realm (rules: 003 "All orders ... revealed ... at the same time";
Protector Ranking: "secret bids"). So each engine step lasts ``step_turns`` env steps: an upper bound on
the choices any deciding seat's planner (``agents.spaces.planner``) can ask for, worked out from what
every seat sees (the step, the options, the cards in play, who holds which Province with how many
units, Golden Work done, green Provinces), never from a $Realm or a stored decision. A seat that
finishes sooner waits out the rest (assumption PARALLEL_STEP_TURNS, docs/envs.md).

Each bound follows the planner's own sequence (``planner_orders``, ``planner_phases``); counts include
forced choices, so they hold with ``skip_forced`` on or off.
"""

from __future__ import annotations

from engine.protectors import cards as C
from engine.protectors.dragon import active_cards
from engine.protectors.factions import TIER
from engine.protectors.legality import orderable
from engine.protectors.state import BANK_BID, BID, CONSOLIDATION, DRAGON, ORDERS, REBID, GameState
from engine.protectors.tables import MAX_LEVEL

# Ability candidates ``abilities.legal_abilities`` can list in a step, each asked at most once by the planner
# (Fight fire with fire!'s Highmagister counts are one COUNT choice). Consolidation adds the Wizard
# Sanctum's refresh/gain lines on a board with the Island: at most one per Tier ability (a seat refreshes one
# it has and gains one it has not). rules: 003 Factions; Island Rules (Wizard Sanctum, Palantír).
ORDERS_ABILITIES = 5  # peek_dragon, discard_event, replace_dragon, palantir sea, palantir end
DRAGON_ABILITIES = 3  # fight_fire_with_fire (one COUNT), nothing_to_see_here, bank_of_lannuvar
CONSOLIDATION_ABILITIES = 3  # faith_alone, bank_of_lannuvar, mountain_king_offer
PROVINCE_ORDER_CHOICES = 3  # KIND, target PROV, COUNT or PLAYER (rules: 003 Orders)


def _abilities(state: GameState, n: int) -> int:
    # the planner offers abilities only with factions or an Island (``Planner._start_abilities``)
    return n if state.options.factions or state.board.island is not None else 0


def choice_bound(state: GameState, seat: str) -> int:
    """The most choices ``seat``'s planner can ask for in the current step (public facts only)."""
    step = state.step
    if step in (BID, REBID, BANK_BID):
        # rules: 003 Factions — the faction is chosen with the turn-1 bid (any seat may be asked: the option
        # is public, whether a seat's faction came from the setup need not be)
        o = state.options
        return 1 + int(step == BID and bool(o.factions) and o.faction_choice == "chosen")
    if step == ORDERS:
        cards = active_cards(state)
        ferry = C.FERRY in cards and C.SEAFARERS not in cards  # rules: 003 Ferry! (YES/DONE per March!)
        per = PROVINCE_ORDER_CHOICES + int(ferry)
        snitch = int(C.PIRATES in cards)  # rules: 003 Pirates! (the snitch)
        return _abilities(state, ORDERS_ABILITIES) + per * len(orderable(state, seat)) + snitch
    if step == DRAGON:
        isl = state.board.island
        n = sum(1 for p in state.owned(seat) if p != isl and state.holder(p) == seat and state.provinces[p].units)
        # COUNT per Province, then burns (one per green Province at most) or the sac picks (at most n - 1)
        return _abilities(state, DRAGON_ABILITIES) + n + max(len(state.green(seat)), n - 1, 0)
    if step == CONSOLIDATION:
        owned = state.owned(seat)
        ups = sum(1 for p in owned if state.golden_work_done.get(p) == seat and state.provinces[p].level < MAX_LEVEL)
        buys = sum(1 for p in owned if state.holder(p) in (seat, None) or state.provinces[p].units == 0)
        sanctum = len(TIER) if state.board.island is not None else 0
        # upgrades, buys, the Capitol, the bid (rules: 003 5. Consolidation)
        return _abilities(state, CONSOLIDATION_ABILITIES + sanctum) + ups + buys + 2
    return 0


def step_turns(state: GameState, seats: list[str]) -> int:
    """Env steps the current engine step lasts: the largest ``choice_bound`` of the deciding ``seats``
    (who decides is public: every seat, the active ones, the tied bidders, the Bank's seats)."""
    return max((choice_bound(state, s) for s in seats), default=0)
