"""ProtectorsParallelEnv: PettingZoo's parallel API test, masks in observations, self-play to the end."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test, parallel_seed_test

from agents.spaces import layout as L
from envs.parallel_env import ProtectorsParallelEnv


@pytest.mark.filterwarnings("ignore:ProtectorsParallelEnv.reset ignores option")  # the API test's {"options": 1}
def test_pettingzoo_parallel_api():
    parallel_api_test(ProtectorsParallelEnv(players=4), num_cycles=500)


@pytest.mark.filterwarnings("ignore:ProtectorsParallelEnv.reset ignores option")  # the API test's {"options": 1}
def test_pettingzoo_parallel_api_with_factions_island_and_teams():
    parallel_api_test(ProtectorsParallelEnv(players=6, version="grand", island=True, factions=True), num_cycles=200)
    parallel_api_test(ProtectorsParallelEnv(players=4, teams=2), num_cycles=200)


def test_pettingzoo_seed_determinism():
    parallel_seed_test(lambda: ProtectorsParallelEnv(players=4))


def _play_out(env, obs, rng) -> list:
    """Random masked actions to the game's end; returns the observations seen."""
    seen = []
    while env.agents:
        obs, *_ = env.step({a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents})
        seen.append(b"".join(obs[a]["observation"].tobytes() for a in sorted(obs)))
    return seen


def test_reset_without_a_seed_goes_on_along_the_last_seed():
    """Gymnasium's rule, which PettingZoo follows: reset(seed=s) then reset() gives the same games every time
    (it used to draw the next game from Python's global random module)."""
    runs = []
    for _ in range(2):
        env, rng = ProtectorsParallelEnv(players=3), np.random.default_rng(0)
        obs, _ = env.reset(seed=11)
        seeds, seen = [env.game.setup["seed"]], _play_out(env, obs, rng)
        for _ in range(2):
            obs, _ = env.reset()
            seeds.append(env.game.setup["seed"])
            seen += _play_out(env, obs, rng)
        runs.append((seeds, seen))
    assert runs[0] == runs[1]
    assert len(set(runs[0][0])) == 3  # three different games, not one game again
    env = ProtectorsParallelEnv(players=3)
    env.reset(seed=11)
    assert env.game.setup["seed"] == runs[0][0][0]  # a seeded reset starts the stream again


def test_spaces_are_the_same_object_each_call():
    env = ProtectorsParallelEnv()
    a = env.possible_agents[0]
    assert env.observation_space(a) is env.observation_space(a)
    assert env.action_space(a) is env.action_space(a)


@pytest.mark.parametrize("kw", [{}, {"players": 6, "version": "grand", "island": True, "factions": True},
                                {"players": 4, "teams": 2}])
def test_self_play_games_end_with_rewards_for_every_seat(kw):
    env = ProtectorsParallelEnv(illegal_action="raise", **kw)
    for seed in range(3):
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        deciding_seen = set()
        while env.agents:
            acts = {}
            for a in env.agents:
                mask = obs[a]["action_mask"]
                assert mask.dtype == np.int8 and mask.any()
                if mask.sum() > 1 or not mask[L.DONE]:
                    deciding_seen.add(a)
                acts[a] = int(rng.choice(np.flatnonzero(mask)))
            obs, rewards, terms, _truncs, _infos = env.step(acts)
        assert all(terms.values())
        result = env.game.result
        assert result is not None
        if result["winner"] is None:
            assert all(r == -1.0 for r in rewards.values())
        assert len(deciding_seen) == len(env.possible_agents)  # everybody decided at least once


def test_seats_without_a_choice_only_have_done():
    env = ProtectorsParallelEnv(players=3)
    obs, _ = env.reset(seed=4)
    for a in env.agents:
        if env.open_planner(a) is None:
            assert obs[a]["action_mask"].tolist() == [int(i == L.DONE) for i in range(L.ACTION_SIZE)]
        else:
            assert obs[a]["action_mask"].sum() >= 2


def test_reward_shaping_pays_the_vp_change_from_the_start():
    """Shaping is coef x (VPs now - VPs before) / 10 from the first step: nothing for the starting VPs,
    and over a game it sums to (final - starting VPs) / 10 per seat, as in the seat env."""
    from agents.reward import terminal_reward
    from engine.protectors.victory import victory_points

    env = ProtectorsParallelEnv(reward_shaping=1.0)
    for seed in range(3):
        obs, _ = env.reset(seed=seed)
        start = {a: victory_points(env.game.state, a) for a in env.agents}
        assert any(v != 0 for v in start.values())  # the case the bug paid for: VPs before any step
        rng = np.random.default_rng(seed)
        totals = dict.fromkeys(env.agents, 0.0)
        first = True
        while env.agents:
            before = {a: victory_points(env.game.state, a) for a in env.agents}
            acts = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
            obs, rewards, terms, _, _ = env.step(acts)
            if first and not any(terms.values()):
                for a, r in rewards.items():
                    assert r == pytest.approx((victory_points(env.game.state, a) - before[a]) / 10)
                first = False
            for a, r in rewards.items():
                totals[a] += r
        st = env.game.state
        for a, total in totals.items():
            team = st.players[a].team if st.options.teams else None
            shaping = total - terminal_reward(env.game.result, a, team)
            assert shaping == pytest.approx((victory_points(st, a) - start[a]) / 10, abs=1e-6)


@pytest.mark.filterwarnings("ignore:ProtectorsParallelEnv.reset ignores option")  # the API test's {"options": 1}
@pytest.mark.parametrize("kw", [{"players": 2}, {"players": 16, "teams": 4, "factions": True},
                                {"players": 8, "version": "grand", "island": True, "factions": True, "teams": 2}],
                         ids=["2", "16-teams-factions", "grand8-island-factions-teams"])
def test_pettingzoo_api_and_seeding_from_2_to_16_seats_with_fixed_env_steps_per_engine_step(kw):
    """The padded env steps (a fixed number per engine step, envs/pacing.py) keep PettingZoo's API and seeding."""
    parallel_api_test(ProtectorsParallelEnv(**kw), num_cycles=300)
    parallel_seed_test(lambda: ProtectorsParallelEnv(**kw))
