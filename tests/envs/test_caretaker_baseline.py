"""The seat env's ``caretaker_baseline`` option: the reward against the caretaker from the same start."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from agents.registry import make_agent
from agents.runner import finish
from engine.errors import ValidationError
from envs.seat_env import ProtectorsSeatEnv
from training.evaluate import record_positions, seat_outcome


def play_out(env, obs, info, rng):
    total = 0.0
    while True:
        _, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        total += r
        if term or trunc:
            return total, info


@pytest.fixture(scope="module")
def positions():
    return record_positions(6, turn=2, players=5, seed=777, progress=False)


def test_baseline_is_the_takeover_benchmarks_caretaker_score(positions):
    """From a recorded position, the env's caretaker score is exactly the one ``regent eval takeover``
    gives the caretaker in that seat (heuristic opponents, the same engine state)."""
    env = ProtectorsSeatEnv(opponents=("heuristic",), caretaker_baseline="sign")
    plain = ProtectorsSeatEnv(opponents=("heuristic",))
    for k, (game_seed, pos) in enumerate(positions):
        seat = list(pos.state.players)[k % 5]
        obs, _ = env.reset_from(pos, seat, seed=k)
        assert (obs == plain.reset_from(pos, seat, seed=k)[0]).all()  # the episode itself is untouched
        game = pos.clone()
        agents = {s: make_agent("heuristic", game_seed * 100 + i) for i, s in enumerate(game.state.players)}
        agents[seat] = make_agent("caretaker", 0)
        finish(game, agents)
        assert env.baseline_score == seat_outcome(game, seat)["score"]


@pytest.mark.parametrize("mode", ["sign", "difference", "beats"])
def test_terminal_reward_is_measured_against_the_caretaker(positions, mode):
    env = ProtectorsSeatEnv(opponents=("heuristic",), caretaker_baseline=mode)
    plain = ProtectorsSeatEnv(opponents=("heuristic",))
    seen = set()
    for k, (_, pos) in enumerate(positions):
        seat = list(pos.state.players)[k % 5]
        obs, info = env.reset_from(pos, seat, seed=k)
        if env.planner is None:
            continue  # the seat has no choice before the game ends: no episode to reward
        total, info = play_out(env, obs, info, np.random.default_rng(k))
        obs2, info2 = plain.reset_from(pos, seat, seed=k)
        score, info2 = play_out(plain, obs2, info2, np.random.default_rng(k))  # the same actions, the same game
        assert info2["result"] == info["result"] and info2["caretaker_score"] is None
        assert info["caretaker_score"] == env.baseline_score
        want = {"difference": score - env.baseline_score, "sign": float(np.sign(score - env.baseline_score)),
                "beats": float(score > env.baseline_score)}[mode]
        assert total == pytest.approx(want)
        seen.add(np.sign(score - env.baseline_score))
    assert len(seen) >= 2  # the positions give more than one outcome against the caretaker


def test_baseline_off_by_default_and_bad_modes_refused():
    env = ProtectorsSeatEnv(opponents=("random",))
    _, info = env.reset(seed=3)
    assert env.caretaker_baseline == "off" and info["caretaker_score"] is None
    with pytest.raises(ValidationError, match="caretaker_baseline"):
        ProtectorsSeatEnv(caretaker_baseline="yes")


def test_fresh_games_get_a_baseline_too():
    env = ProtectorsSeatEnv(opponents=("heuristic", "random"), caretaker_baseline="difference")
    _, info = env.reset(seed=5)
    assert isinstance(info["caretaker_score"], float) and env.game.state.turn == 1


def test_policy_opponents_are_replayed_on_the_same_networks():
    """A frozen-policy opponent is copied for the caretaker's game with its generator, not its network."""
    agent = make_agent("policy:checkpoints/protectors-ppo-v5/model.zip", 3)
    twin = copy.deepcopy(agent)
    assert twin is not agent and twin.model is agent.model and twin.rng is not agent.rng
    assert [twin.rng.random() for _ in range(3)] == [agent.rng.random() for _ in range(3)]
    env = ProtectorsSeatEnv(opponents=("policy:checkpoints/protectors-ppo-v5/model.zip",), caretaker_baseline="sign")
    _, info = env.reset(seed=2)
    assert isinstance(info["caretaker_score"], float)
