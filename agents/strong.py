"""``strong``: the shipped policy's most likely choice, except turn 1's opening bid at a big table.

At a table of BIG_TABLE_SEATS or more, ``strong`` opens with a bid of BIG_TABLE_OPENING_BID instead
of the policy's (rules: 003 1. Protector Ranking, turn 1: the highest bid ranks first, and the Grand
Protector is spared the Dragon's Wrath). The policy, trained mostly at 5 seats, bids just over the
heuristics' 15 in ring-7 to rank first; a Grand Protector that is spared the Wrath keeps its units out
of the fight, and in 7 or more seats its table lost more games to the Dragon than an all-heuristic one.
Opening with nothing leaves the Grand Protector's place to another seat, puts this seat's units into
the Dragon fights, and keeps 16 $Realm for units. Every other decision, and every decision at a
smaller table, is the policy's (``ppo:hard``).

Measured on tuning seeds (``regent eval settings`` harness, 1,000 games a setting from seed 0, v4,
session 12; the Dragon as points against the all-heuristic table of the same games):

| setting | own bid: wins, Dragon | bid 0: wins, Dragon |
|---|---|---|
| ring-7 | 25.6%, -2.3 | 25.6%, **-13.0** |
| ring-10 | 15.2%, -2.4 | 17.5%, **-8.3** |
| 16 players | 1.8%, +1.3 | 4.7%, **-0.7** |
| ring-5 | 45.9%, +0.6 | 32.3%, -10.0 |
| the Island (5) | 42.4%, +1.6 | 33.1%, -8.3 |
| factions (6) | 24.9%, -4.2 | 23.7%, -10.2 |
| 2 players | 84.3% | 0.0% |

Session 18, v5 under the corrected No Quarter! rule, selection seeds 20000-21999: in ring-7 no bid won 21.9%
with the Dragon at 55.4%, the policy's own bid 23.0% and 58.9% (the rule kept: it is there for the table);
in Grand with 7 players no bid lost on both counts (35.5% and 44.6% against 41.2% and 41.3%), so Grand games
are left to the policy (BIG_TABLE_VERSIONS).

Below 7 seats the bid costs the seat too many of its wins (and at 2 seats all of them), so it is kept
to big tables. In ring-7 (seeds 0-2099) bids of 1 to 15 won 21.3-22.3% with the Dragon 6.5-9.1 points down,
16 to 20 (first rank, the policy's own is 16) won 23.2-24.2% with the Dragon -0.5 to +0.2, and 0 won
24.9% with the Dragon 10.2 points down. docs/evaluation.md has the held-out figures.
"""

from __future__ import annotations

from agents.checkpoints import LEVELS, level_policy
from agents.policy import PolicyAgent
from engine.protectors.decisions import BidDecision, Decision
from engine.protectors.seat import SeatContext
from engine.protectors.state import BID, GameState

BIG_TABLE_SEATS = 7
"""the smallest table (seats at the start) at which ``strong`` opens with BIG_TABLE_OPENING_BID"""
BIG_TABLE_OPENING_BID = 0
"""``strong``'s turn-1 ranking bid at a big table (rules: 003 1. Protector Ranking)"""


BIG_TABLE_VERSIONS = ("normal",)
"""the rules versions whose big tables get the opening-bid rule: not Grand (twice the Provinces), where v5's own
bid won more and left the Dragon fewer games (session 18, selection seeds 20000-21999, Grand 7 players: own bid
41.2% wins, the Dragon 41.3%; no bid 35.5%, 44.6%)"""


def big_table_bid(state: GameState, seat: str, decision: Decision) -> BidDecision | None:
    """rules: 003 1. Protector Ranking: turn 1, the highest bid is Grand Protector.
    ``decision`` with the big-table opening bid (BIG_TABLE_OPENING_BID, at most the seat's $Realm; the faction
    and team funding as chosen) when the rule applies: turn 1's bid step, a table of BIG_TABLE_SEATS or more seats
    at the start, a version in BIG_TABLE_VERSIONS; else None. ``strong`` plays it, and the seat env can train a
    policy under it (``ProtectorsSeatEnv(strong_opening=True)``), so one rule lives in one place."""
    if (state.step == BID and len(state.players) >= BIG_TABLE_SEATS and state.options.version in BIG_TABLE_VERSIONS
            and isinstance(decision, BidDecision)):
        return BidDecision(min(BIG_TABLE_OPENING_BID, state.players[seat].realm), decision.faction, decision.funding)
    return None


class StrongAgent(PolicyAgent):
    """``ppo:hard`` (the shipped policy, greedy) with the big-table opening bid."""

    def __init__(self, seed: int | None = None):
        base = level_policy(LEVELS["hard"].path, seed, 0.0)
        super().__init__(base.models, seed, 0.0, name="strong")
        self.specialists = base.specialists  # agents/checkpoints.py SPECIALISTS (7 seats; 5 seats from turn 2)
        self.decided_by = "policy"
        """every decision but the big-table opening bid is the policy's (service/explain.py words it)"""
        self.last_rule = ""
        """why, when the latest decision was the opening-bid rule's and not the policy's"""
        self.last_reasons: tuple[str, ...] = ()
        """the same as a decision line's reason (agents.base.reasons_of, service/explain.py)"""

    def act(self, ctx: SeatContext) -> Decision:
        decision = super().act(ctx)
        self.last_rule, self.last_reasons = "", ()
        seats = len(ctx.state.players)
        bid = big_table_bid(ctx.state, ctx.seat, decision)
        if bid is not None:
            self.last_rule = (f"at a table of {seats} it leaves first rank to another Protector and keeps "
                              "its $Realm for units to meet the Dragon")
            faction = f", and picks the {bid.faction} faction (the trained policy's choice)" if bid.faction else ""
            self.last_reasons = (f"bids {bid.bid} ({self.last_rule}){faction}",)
            return bid
        return decision
