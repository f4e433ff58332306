"""The envs' options as users meet them: bad combinations refused when the env is made, in the env's own
terms; reset options checked; info keys, truncation, state_space and render as docs/envs.md says."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest

import envs  # noqa: F401  (registers regent/Protectors-v0)
from engine.errors import ValidationError
from envs import seat_env
from envs.parallel_env import ProtectorsParallelEnv
from envs.seat_env import ProtectorsSeatEnv

BOTH = [ProtectorsSeatEnv, ProtectorsParallelEnv]
TRIANGLE = {"provinces": {"P1": {"neighbors": ["P2", "P3"]}, "P2": {"neighbors": ["P1", "P3"]},
                          "P3": {"neighbors": ["P1", "P2"]}}, "island": None, "coastal": ["P1", "P2"],
            "name": "triangle"}


@pytest.mark.parametrize("cls", BOTH)
@pytest.mark.parametrize(("kw", "message"), [
    ({"board": "ring-5-grand"}, r"board: 'ring-5-grand' has 10 Provinces for players=5: version='normal' needs one "
                                r"per player \(such as 'ring-5'\); a board of 10\+ Provinces needs version='grand'"),
    ({"board": "ring-7"}, r"board: 'ring-7' has 7 Provinces for players=5: version='normal' needs one per player"),
    ({"board": "ring-5", "version": "grand"}, r"version='grand' needs at least two per player \(such as "
                                              r"'ring-5-grand'\)"),
    ({"version": "epic"}, r"version: one of \('normal', 'grand'\), not 'epic'"),
    ({"board": "ring-5", "island": True}, r"island: island=True, but board 'ring-5' has no Island: give the board "
                                          r"one \('ring-5\+island'\)"),
    ({"board": TRIANGLE, "players": 3, "island": True}, r"island: island=True, but board 'triangle' has no Island"),
    ({"board": 5}, r"board: a built-in board name .* not int"),
    ({"board": {"provinces": {"P1": {"neighbors": ["P40"]}, "P40": {"neighbors": ["P1"]}}}, "players": 2},
     r"P40: the envs encode Provinces up to P32"),
])
def test_bad_boards_are_refused_when_the_env_is_made(cls, kw, message):
    with pytest.raises(ValidationError, match=message) as err:
        cls(**kw)
    assert "grand_boards" not in str(err.value)  # an engine option the envs do not take


@pytest.mark.parametrize("cls", BOTH)
def test_a_custom_board_and_boards_with_the_island_play(cls):
    env = cls(board=TRIANGLE, players=3)
    env.reset(seed=0)
    assert env.game.state.board.name == "triangle"
    island = cls(board="ring-5+island")  # the board decides the Island; island=False is no conflict
    island.reset(seed=0)
    assert island.game.state.board.island == "P0"
    grand = cls(board="ring-5-grand+island", version="grand", island=True)
    grand.reset(seed=0)
    assert len(grand.game.state.board.provinces) == 10


def test_unknown_reset_options_are_refused_with_the_known_ones():
    with pytest.raises(ValidationError, match=r"unknown reset option\(s\) 'gmae_seed'; known: game_seed, midgame, "
                                              r"seat"):
        ProtectorsSeatEnv().reset(seed=0, options={"gmae_seed": 3})
    # the parallel env warns instead: PettingZoo's own parallel_api_test resets with options={"options": 1}
    with pytest.warns(UserWarning, match=r"ignores option\(s\) 'seat'; it reads only: game_seed"):
        ProtectorsParallelEnv().reset(seed=0, options={"seat": "Player#1"})
    a, b = ProtectorsParallelEnv(), ProtectorsParallelEnv()
    a.reset(options={"game_seed": 5})
    b.reset(seed=123, options={"game_seed": 5})
    assert a.game.to_blob() == b.game.to_blob()  # the one known option is read


def test_a_game_seed_is_a_fresh_game_even_with_midgame_starts_always_on():
    env = ProtectorsSeatEnv(midgame={"prob": 1.0, "turns": (3, 4)})
    _, info = env.reset(seed=0, options={"game_seed": 7})
    assert info["start"] == {"turn": 1} and env.game.state.turn == 1
    _, info = env.reset(seed=0)
    assert info["start"]["turn"] > 1  # without it, prob = 1 starts mid-game
    with pytest.raises(ValidationError, match=r"game_seed names a fresh game .* give one of them"):
        env.reset(seed=0, options={"game_seed": 7, "midgame": True})


def test_seat_env_info_keys_as_documented():
    env = ProtectorsSeatEnv(opponents=("random",))
    _, info = env.reset(seed=0)
    assert set(info) == {"action_mask", "seat", "engine_step", "stage", "result", "start_turn", "caretaker_score",
                         "start"}
    assert info["seat"] == env.seat and info["engine_step"] == env.game.step and info["result"] is None
    bad = int(np.flatnonzero(~info["action_mask"])[0])
    _, r, *_, info = env.step(bad)
    assert info["illegal_action"] is True and r == seat_env.ILLEGAL_PENALTY
    assert set(info) == {"action_mask", "seat", "engine_step", "stage", "result", "start_turn", "caretaker_score",
                         "illegal_action"}
    rng = np.random.default_rng(0)
    term = False
    while not term:
        _, _, term, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        assert "illegal_action" not in info
    assert info["result"] == env.game.result and info["stage"] is None


def test_parallel_infos_are_stage_engine_step_and_steps_left_only():
    env = ProtectorsParallelEnv(players=3)
    obs, infos = env.reset(seed=0)
    assert all(set(i) == {"stage", "engine_step", "steps_left"} for i in infos.values())
    _, _, _, truncs, infos = env.step({a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in env.agents})
    assert all(set(i) == {"stage", "engine_step", "steps_left"} for i in infos.values()) and not any(truncs.values())


def test_the_seat_env_truncates_after_max_choices(monkeypatch):
    monkeypatch.setattr(seat_env, "MAX_CHOICES", 3)
    env = ProtectorsSeatEnv(skip_forced=False)
    _, info = env.reset(seed=0)
    ends = []
    for _ in range(3):
        _, _, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        ends.append((term, trunc))
    assert ends == [(False, False), (False, False), (False, True)]


def test_parallel_state_space_holds_every_state():
    from pettingzoo.test.state_test import test_parallel_env

    env = ProtectorsParallelEnv(players=4, version="grand", island=True)
    with pytest.raises(ValidationError, match="call reset"):
        env.state()
    test_parallel_env(env)  # PettingZoo's own check: state_space is a Space and holds state()
    assert env.state_space.shape == ProtectorsParallelEnv(players=16).state_space.shape  # one size for every board
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)
    while env.agents:
        assert env.state_space.contains(env.state())
        obs, *_ = env.step({a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents})
    assert env.state_space.contains(env.state())


def test_render_raises_no_gymnasium_warning():
    env = gym.make("regent/Protectors-v0", render_mode="ansi")
    env.reset(seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert env.render().startswith("== Turn 1 ==")
