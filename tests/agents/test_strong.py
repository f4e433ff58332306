"""``strong``: the shipped policy's most likely choice, opening with no bid at a table of 7 or more."""

from __future__ import annotations

import pytest

from agents.heuristic import HeuristicAgent
from agents.registry import make_agent
from agents.runner import play_turn_step
from agents.strong import BIG_TABLE_OPENING_BID, BIG_TABLE_SEATS, BIG_TABLE_VERSIONS, StrongAgent
from engine.protectors.decisions import BidDecision
from engine.protectors.game import Game
from engine.protectors.seat import SeatContext
from engine.protectors.state import BID
from service.ai import resolve
from service.explain import reason


def _steps_of(setup: dict, turns: int = 3):
    """Every decision Player#1 faces in a heuristic game of ``setup`` up to ``turns``: (context, step)."""
    game = Game(setup)
    field = {s: HeuristicAgent(i) for i, s in enumerate(game.state.players)}
    while not game.over and game.state.turn <= turns:
        for p in game.pending():
            if p.seat == "Player#1" and not p.submitted:
                yield SeatContext(game, p.seat), game.state.step
        play_turn_step(game, field)


@pytest.mark.parametrize("setup", [
    {"board": "ring-7", "players": 7, "seed": 3},
    {"board": "ring-10", "players": 10, "seed": 4, "options": {"factions": True}},
    {"board": "ring-5", "players": 5, "seed": 5},
    {"board": "ring-7-grand", "players": 7, "seed": 6, "options": {"version": "grand"}},
], ids=["ring-7", "ring-10-factions", "ring-5", "grand-7"])
def test_only_the_opening_bid_at_a_big_table_differs_from_the_policy(setup):
    strong, policy = make_agent("strong", 0), make_agent("ppo:hard", 0)
    assert isinstance(strong, StrongAgent)
    state = Game(setup).state
    big = len(state.players) >= BIG_TABLE_SEATS and state.options.version in BIG_TABLE_VERSIONS
    assert big == (setup["board"] in ("ring-7", "ring-10")), "Grand games are the policy's (BIG_TABLE_VERSIONS)"
    bids = 0
    for ctx, step in _steps_of(setup):
        mine, theirs = strong.act(ctx), policy.act(ctx)
        if step == BID:
            bids += 1
            assert isinstance(mine, BidDecision) and mine.faction == theirs.faction
            if big:
                assert mine.bid == BIG_TABLE_OPENING_BID != theirs.bid  # the policy itself bids to rank first
                assert strong.last_rule and "first rank" in strong.last_reasons[0]
                continue
        assert mine == theirs and strong.last_rule == "" and strong.last_reasons == ()
    assert bids == 1


def test_the_levels_and_their_decision_lines():
    assert resolve("strong") == "strong"
    assert make_agent("search", 0).base_spec == "strong"  # expert searches over strong's choices
    game = Game({"board": "ring-7", "players": 7, "seed": 3})
    ctx = SeatContext(game, "Player#1")
    strong = make_agent("strong", 0)
    line = reason("strong", strong, strong.act(ctx), ctx.view)
    assert line.startswith(f"bids {BIG_TABLE_OPENING_BID} (at a table of 7 it leaves first rank"), line
    expert = make_agent("search", 0)
    decision = expert.act(ctx)
    assert decision.bid == BIG_TABLE_OPENING_BID
    line = reason("search", expert, decision, ctx.view)
    assert "strong's choice: this step is not searched; at a table of 7 it leaves first rank" in line, line
    small = Game({"board": "ring-5", "players": 5, "seed": 3})
    ctx = SeatContext(small, "Player#1")
    line = reason("strong", strong, strong.act(ctx), ctx.view)
    assert "first rank" not in line and "the trained policy's choice" in line, line
