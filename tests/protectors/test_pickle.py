"""Games, their values and the seat envs pickle and come back exactly, on the sources and on the compiled
build (``make test-compiled`` runs this file there too): training/resume.py pickles every env worker
with its games in progress, so a run split across sessions resumes exactly (issue 19 item 3).

Under mypyc a class is made by calling its ``__init__``; the engine's mutable classes therefore allow
interpreted subclasses (Python's ``__new__``, which pickle needs) and its frozen values pickle as their
constructor call (``values.Shared.__reduce__``)."""

from __future__ import annotations

import dataclasses
import pickle
import random

import numpy as np
import pytest

from agents.random_agent import RandomAgent
from agents.runner import play_turn_step
from engine.protectors.game import Game
from engine.protectors.seat import SeatContext
from engine.protectors.state import GameState
from envs.opponents import make_setup
from envs.seat_env import ProtectorsSeatEnv

SETUPS = ((1, {}), (2, {"factions": True, "island": True, "version": "grand"}), (3, {"teams": 2}),
          (4, {"factions": True}))


def _round_trip(obj):
    return pickle.loads(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL))


def _play(game: Game, seed: int, steps: int, submit_one: bool = False) -> None:
    agents = {s: RandomAgent(seed * 10 + i) for i, s in enumerate(game.state.players)}
    for _ in range(steps):
        if game.over:
            return
        play_turn_step(game, agents)
    if submit_one:  # one secret decision in, the others still waiting
        pending = [p.seat for p in game.pending() if not p.submitted]
        if pending:
            game.submit(pending[0], agents[pending[0]].act(SeatContext(game, pending[0])))


def _same_state(a: Game, b: Game) -> None:
    assert a.to_blob() == b.to_blob()
    assert a.state.rng.getstate() == b.state.rng.getstate()  # random.Random compares by identity
    for f in dataclasses.fields(GameState):
        if f.name != "rng":
            assert getattr(a.state, f.name) == getattr(b.state, f.name), f.name
    assert [p.to_dict() for p in a.pending()] == [p.to_dict() for p in b.pending()]


@pytest.mark.parametrize(("seed", "kw"), SETUPS)
@pytest.mark.parametrize("steps", [0, 3, 9])
def test_a_game_in_progress_comes_back_and_plays_on_the_same(seed, kw, steps):
    game = Game(make_setup(board=None, players=6, seed=seed, **kw))
    _play(game, seed, steps, submit_one=True)
    copy = _round_trip(game)
    assert copy is not game and copy.state is not game.state
    _same_state(game, copy)
    # both play on with the same agents: the same game, move for move (the engine's dice included)
    _play(game, seed + 100, 25)
    _play(copy, seed + 100, 25)
    _same_state(game, copy)


def test_the_values_in_a_game_come_back_equal():
    """Orders, decisions, pending entries and the board: frozen values, pickled as their constructor call."""
    game = Game(make_setup(board=None, players=5, seed=7, factions=True, island=True))
    agents = {s: RandomAgent(70 + i) for i, s in enumerate(game.state.players)}
    seen = 0
    for _ in range(30):
        if game.over:
            break
        for p in game.pending():
            if not p.submitted:
                decision = agents[p.seat].act(SeatContext(game, p.seat))
                back = _round_trip(decision)
                assert back == decision and type(back) is type(decision)
                seen += 1
        play_turn_step(game, agents)
    board = game.state.board
    assert _round_trip(board) == board
    assert seen > 10


def _run(env: ProtectorsSeatEnv, obs, info, rng: random.Random, steps: int) -> tuple[list, object, dict]:
    out = []
    for _ in range(steps):
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, r, term, trunc, info = env.step(a)
        out.append((obs.tobytes(), info["action_mask"].tobytes(), r, term, trunc))
        if term or trunc:
            obs, info = env.reset(seed=len(out))
    return out, obs, info


@pytest.mark.parametrize("cfg", [dict(opponents=("heuristic",)),
                                 dict(players=5, factions=True, island=True, opponents=("random", "heuristic"))])
def test_a_seat_env_mid_episode_comes_back_and_steps_the_same(cfg):
    env = ProtectorsSeatEnv(**cfg)
    obs, info = env.reset(seed=3)
    _, obs, info = _run(env, obs, info, random.Random(5), 40)  # mid-game: planners and opponents mid-turn
    assert env.game is not None and not env.game.over
    copy = _round_trip(env)
    # the same action stream from here: the same observations, masks, rewards and episode ends
    first, _, _ = _run(env, obs, info, random.Random(9), 150)
    second, _, _ = _run(copy, obs, info, random.Random(9), 150)
    assert first == second
    assert any(step[3] or step[4] for step in first)  # the stream crossed an episode end
