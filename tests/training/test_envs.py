"""The training env: curriculum stages pick the game, league weights pick the opponents."""

from __future__ import annotations

import random

import numpy as np

from agents.heuristic import HeuristicAgent
from agents.random_agent import RandomAgent
from training.config import Scenario, Stage
from training.envs import LeagueSeatEnv, WeightedPool


def stages():
    return [Stage(0.0, [Scenario(players=3)]), Stage(0.5, [Scenario(players=4, island=True), Scenario(players=6)])]


def test_the_stage_decides_the_game():
    env = LeagueSeatEnv(stages(), {"caretaker": 1.0}, seed=1)
    env.reset(seed=1)
    assert len(env.current.game.state.players) == 3
    env.set_stage(1)
    seen = set()
    for _ in range(8):
        env.reset()
        st = env.current.game.state
        seen.add((len(st.players), st.board.island is not None))
    assert seen == {(4, True), (6, False)}


def test_weights_decide_the_opponents():
    env = LeagueSeatEnv(stages(), {"random": 1.0}, seed=2)
    env.reset(seed=2)
    assert all(isinstance(a, RandomAgent) for a in env.current.agents.values())
    env.set_weights({"heuristic": 1.0})
    env.reset()
    assert all(isinstance(a, HeuristicAgent) for a in env.current.agents.values())


def test_weighted_pool_draws_in_proportion():
    pool = WeightedPool({"random": 0.9, "caretaker": 0.1})
    rng = random.Random(0)
    names = [a.name for _ in range(300) for a in pool.draw(["a", "b"], rng)[0].values()]
    assert 0.8 < names.count("random") / len(names) < 0.97


def test_an_episode_under_the_mask_ends_with_a_terminal_reward():
    env = LeagueSeatEnv(stages(), {"caretaker": 0.5, "random": 0.5}, seed=3)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(5000):
        mask = env.action_masks()
        assert mask.any()
        obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert "illegal_action" not in info
        if term or trunc:
            break
    assert term and info["result"] is not None
    assert -1.0 <= reward <= 1.0
    assert env.observation_space.contains(obs)


def test_evaluation_during_training_reports_the_plain_terminal_reward():
    # a takeover config (caretaker_baseline = "sign") had its eval/ and best/ scored against the caretaker, though the
    # evaluation env is meant to report the plain terminal reward (make_eval_env drops the reward shaping too)
    from pathlib import Path

    from training.config import load_config
    from training.envs import make_eval_env

    root = Path(__file__).resolve().parents[2]
    cfg = load_config(root / "training" / "configs" / "protectors-ppo-v7-takeover-sign.toml")
    assert cfg.env_options["caretaker_baseline"] == "sign"
    env = make_eval_env(cfg, cfg.eval_scenario)
    seat_env = env.envs[0].unwrapped
    assert seat_env.caretaker_baseline == "off" and seat_env.reward_shaping == 0
