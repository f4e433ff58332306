"""The levels hand a plain 7-seat Normal table to their specialist (``agents.checkpoints.SPECIALISTS``:
protectors-ppo-v6-ring7), a plain 5-seat Normal table from turn 2 on to protectors-ppo-v7-ring5-midgame, and
every other table and turn to their own network (v5); a ``policy:`` spec is always its own checkpoint."""

from __future__ import annotations

import pytest

from agents.checkpoints import LEVELS, SPECIALISTS, Specialist
from agents.policy import PolicyAgent
from agents.registry import make_agent
from engine.protectors.game import Game
from tests.agents.test_strong import _steps_of

RING7, RING5_MIDGAME = SPECIALISTS


def _decisions(agent, setup: dict, turns: int = 2) -> list:
    return [agent.act(ctx) for ctx, _ in _steps_of(setup, turns)]


def test_the_specialist_is_a_plain_seven_seat_normal_table():
    assert Specialist("protectors-ppo-v6-ring7", players=7) == RING7 and RING7.path.is_file()
    fits = {name: RING7.fits(Game(setup).state) for name, setup in {
        "ring-7": {"board": "ring-7", "players": 7},
        "ring-5": {"board": "ring-5", "players": 5},
        "ring-10": {"board": "ring-10", "players": 10},
        "grand-7": {"board": "ring-7-grand", "players": 7, "options": {"version": "grand"}},
        "factions-7": {"board": "ring-7", "players": 7, "options": {"factions": True}},
        "island-7": {"board": "ring-7+island", "players": 7},
        "teams-8": {"board": "ring-8", "players": [{"team": t} for t in "AABBCCDD"], "options": {"teams": True}},
    }.items()}
    assert fits == {"ring-7": True, "ring-5": False, "ring-10": False, "grand-7": False, "factions-7": False,
                    "island-7": False, "teams-8": False}


def test_a_specialist_from_a_later_turn_leaves_the_earlier_turns_to_the_level():
    late = Specialist("any", players=5, from_turn=2)
    game = Game({"board": "ring-5", "players": 5, "seed": 1})
    assert game.state.turn == 1 and not late.fits(game.state) and Specialist("any", players=5).fits(game.state)
    while game.state.turn == 1:
        game.advance(force=True)
    assert late.fits(game.state)
    assert not Specialist("any", players=5, from_turn=3).fits(game.state)
    assert late.role == "the network for 5-seat tables from turn 2"
    assert RING7.role == "the network for 7-seat tables"


def test_a_level_plays_the_specialist_at_its_table_and_its_own_network_elsewhere():
    ring7 = {"board": "ring-7", "players": 7, "seed": 3}
    hard = make_agent("ppo:hard", 0)
    specialist = PolicyAgent.load(RING7.path, 0, 0.0)
    own = PolicyAgent.load(LEVELS["hard"].path, 0, 0.0)
    at_seven = _decisions(hard, ring7)
    assert at_seven == _decisions(specialist, ring7)
    assert at_seven != _decisions(own, ring7), "the specialist decides like v5 here: the test shows nothing"
    grand = {"board": "ring-7-grand", "players": 7, "seed": 6, "options": {"version": "grand"}}
    assert _decisions(hard, grand) == _decisions(own, grand)  # the same agent, back on another table


def test_at_a_five_seat_table_turn_one_is_the_levels_own_and_later_turns_the_midgame_network():
    assert Specialist("protectors-ppo-v7-ring5-midgame", players=5, from_turn=2) == RING5_MIDGAME
    assert RING5_MIDGAME.path.is_file()
    hard = make_agent("ppo:hard", 0)
    midgame = PolicyAgent.load(RING5_MIDGAME.path, 0, 0.0)
    own = PolicyAgent.load(LEVELS["hard"].path, 0, 0.0)
    turns = {1: [], 2: []}
    for ctx, _ in _steps_of({"board": "ring-5", "players": 5, "seed": 5}, turns=2):
        turns[ctx.state.turn].append((hard.act(ctx), own.act(ctx), midgame.act(ctx), hard.last_specialist))
    assert turns[1] and turns[2]
    assert all(h == o and sp is None for h, o, _, sp in turns[1])  # the opening: v5's
    assert all(h == m and sp == RING5_MIDGAME for h, _, m, sp in turns[2])  # from turn 2: the midgame network
    assert any(o != m for _, o, m, _ in turns[1] + turns[2]), "the two networks agree here: the test shows nothing"


@pytest.mark.parametrize("spec", ["strong", "ppo:normal", "search"])
def test_every_level_carries_the_specialist(spec):
    agent = make_agent(spec, 0)
    policy = getattr(agent, "base", agent)  # expert searches over strong's choices
    assert [sp for sp, _ in policy.specialists] == list(SPECIALISTS)
    for sampler in getattr(agent, "samplers", []):  # expert's extra candidates: the same networks, sampled
        assert sampler.specialists is policy.specialists


def test_a_policy_spec_is_its_own_checkpoint_everywhere():
    agent = make_agent(f"policy:{LEVELS['hard'].path}", 0)
    assert agent.specialists == []


def test_a_decision_line_names_the_specialist_that_made_it():
    from engine.protectors.seat import SeatContext
    from service.explain import reason

    strong = make_agent("strong", 0)
    for setup, named in (({"board": "ring-7", "players": 7, "seed": 3}, True), ({"board": "ring-5", "seed": 3}, False)):
        game = Game(setup)
        game.advance(force=True)  # past the opening bid (strong's own rule there), to the orders step
        ctx = SeatContext(game, "Player#1")
        line = reason("strong", strong, strong.act(ctx), ctx.view)
        said = "by protectors-ppo-v6-ring7, the network for 7-seat tables: its most likely move"
        assert (said in line) == named, line
        assert "the trained policy's choice" in line
