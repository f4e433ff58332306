"""Mid-game starts of the seat env (``envs.midgame``, issue 19 item 2): reproducible, really mid-game,
valid observations and masks, the learner's seat alive and its own from the takeover on."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

from agents.spaces.encoding import OBS_SIZE
from engine.errors import ValidationError
from engine.protectors.state import ORDERS
from envs.midgame import MidGameStarts
from envs.seat_env import ProtectorsSeatEnv

ALWAYS = {"prob": 1.0}


def first_steps(env: ProtectorsSeatEnv, seed: int, n: int = 25) -> list:
    """The reset and ``n`` masked random steps: what two envs with one seed must agree on."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    out = [obs.tobytes(), env.action_masks().tobytes(), info["seat"], info["start"]["turn"]]
    for _ in range(n):
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        out += [obs.tobytes(), r, term]
        if term or trunc:
            break
    return out


def test_a_seed_gives_the_same_start_and_game():
    kw = {"players": 5, "opponents": ("heuristic", "random"), "midgame": ALWAYS}
    a, b = ProtectorsSeatEnv(**kw), ProtectorsSeatEnv(**kw)
    runs = [first_steps(a, s) for s in range(6)]
    assert runs == [first_steps(b, s) for s in range(6)]
    assert len({r[2:4] for r in map(tuple, runs)}) > 1, "different seeds give different starts"


@pytest.mark.parametrize("kw", [
    {"players": 5},
    {"players": 7, "version": "grand", "island": True, "factions": True},
    {"players": 6, "teams": 2},
    {"players": 16},
])
def test_the_start_is_mid_game_with_a_live_seat_and_a_valid_choice(kw):
    env = ProtectorsSeatEnv(opponents=("heuristic", "random", "caretaker"), midgame=ALWAYS, **kw)
    started = 0
    for seed in range(6):
        obs, info = env.reset(seed=seed)
        start, st = info["start"], env.game.state
        if start["turn"] == 1:  # every recording ended before turn 2 (rare): a fresh game instead
            assert st.turn == 1
            continue
        started += 1
        assert 2 <= start["turn"] <= 8 and start["turn"] <= start["drawn_turn"]
        assert st.turn >= start["turn"] >= 2
        assert not st.players[env.seat].eliminated, "the learner takes a live seat"
        assert set(start["recorders"]) == set(st.players)
        assert obs.shape == (OBS_SIZE,) and env.observation_space.contains(obs)
        assert obs[0] == pytest.approx(st.turn / 12), "the observation is of the mid-game position"
        mask = env.action_masks()
        assert mask.any() and (mask == info["action_mask"]).all()
        assert mask.sum() > 1, "a real choice (forced ones are skipped)"
    assert started >= 4


def test_the_recorder_stops_at_the_orders_step_of_the_drawn_turn():
    starts = MidGameStarts(prob=1.0, turns=(3, 3), recorders={"heuristic": 1.0}, mixed=0.0, bad_seat=0.0)
    got = [starts.record({"board": None, "players": 5}, random.Random(s)) for s in range(8)]
    reached = [(g, seat, info) for g, seat, info in (r for r in got if r)]
    assert reached
    for game, seat, info in reached:
        assert game.step == ORDERS and game.state.turn == info["turn"] <= 3
        assert not game.state.players[seat].eliminated
        assert set(info["recorders"].values()) == {"heuristic"}
    assert any(info["turn"] == 3 for _, _, info in reached)


def test_a_badly_played_seat_is_the_one_the_learner_takes():
    bad = MidGameStarts(prob=1.0, turns=(2, 4), recorders={"heuristic": 1.0}, mixed=0.0, bad_seat=1.0,
                        bad_agents={"random": 1.0})
    seen = 0
    for s in range(10):
        _game, seat, info = bad.record({"board": None, "players": 5}, random.Random(s))
        if info["bad_seat"]:
            seen += 1
            assert info["recorders"][seat] == "random"
            assert sorted(v for k, v in info["recorders"].items() if k != seat) == ["heuristic"] * 4
    assert seen >= 5


def test_after_the_takeover_only_the_learner_submits_for_its_seat():
    env = ProtectorsSeatEnv(players=5, opponents=("caretaker",), midgame=ALWAYS, illegal_action="raise")
    rng = np.random.default_rng(0)
    env.reset(seed=4)
    assert env.start["turn"] >= 2
    before = len(env.game.actions)
    term = False
    while not term:
        _, _, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        assert not trunc
    after = {a[1] for a in env.game.actions[before:] if a[0] == "submit"}
    assert after == {env.seat}, "caretaker opponents get the defaults; every submission is the learner's"
    assert info["result"] is not None


def test_off_by_default_and_prob_zero_keeps_the_random_stream():
    plain = ProtectorsSeatEnv(players=5, opponents=("random",))
    zero = ProtectorsSeatEnv(players=5, opponents=("random",), midgame={"prob": 0.0})
    assert first_steps(plain, 3) == first_steps(zero, 3)
    assert plain.start == {"turn": 1}


def test_reset_options_force_or_refuse_a_mid_game_start():
    env = ProtectorsSeatEnv(players=5, opponents=("random",), midgame={"prob": 0.0})
    _, info = env.reset(seed=1, options={"midgame": True})
    assert info["start"]["turn"] >= 2
    _, info = ProtectorsSeatEnv(players=5, midgame=ALWAYS).reset(seed=1, options={"midgame": False})
    assert info["start"] == {"turn": 1}
    with pytest.raises(ValidationError, match="midgame"):
        ProtectorsSeatEnv(players=5).reset(seed=1, options={"midgame": True})


def test_a_fixed_seat_is_kept():
    env = ProtectorsSeatEnv(players=5, seat="Player#3", opponents=("heuristic",), midgame=ALWAYS)
    for s in range(4):
        _, info = env.reset(seed=s)
        assert info["seat"] == "Player#3" and not env.game.state.players["Player#3"].eliminated


@pytest.mark.parametrize("bad, what", [
    ({"prob": 1.5}, "midgame.prob"),
    ({"turns": [1, 4]}, "midgame.turns"),
    ({"turns": [5, 3]}, "midgame.turns"),
    ({"recorders": {"nobody": 1.0}}, "unknown agent 'nobody'"),
    ({"recorders": {"heuristic": 0.0}}, "positive weight"),
    ({"bad_agents": {"random": -1}}, "midgame.bad_agents"),
    ({"colour": "red"}, "unknown option"),
])
def test_bad_options_are_named(bad, what):
    with pytest.raises(ValidationError, match=what):
        ProtectorsSeatEnv(players=5, midgame=bad)


def test_a_pickled_env_continues_the_same_episode():
    """What a resumable training checkpoint relies on: unpickling restores the in-place buffers."""
    env = ProtectorsSeatEnv(players=5, opponents=("heuristic", "random"), midgame=ALWAYS)
    rng = np.random.default_rng(1)
    env.reset(seed=5)
    for _ in range(5):
        if env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))[2]:
            env.reset()
    copy = pickle.loads(pickle.dumps(env))
    for _ in range(200):
        a = int(rng.choice(np.flatnonzero(env.action_masks())))
        one, two = env.step(a), copy.step(a)
        assert one[0].tobytes() == two[0].tobytes() and one[1:4] == two[1:4]
        if one[2] or one[3]:
            assert env.reset()[0].tobytes() == copy.reset()[0].tobytes()
