"""The encoder's and planners' fast paths give exactly what the plain definitions give.

``encode_board_into`` (the board block written in place), the ranking features memoised per active
ranking, the adjacency sums pushed from occupied Provinces, and the masks shared per legal action
list: each is checked here against its definition on played positions (the golden traces in
``test_env_golden.py`` pin the vectors bit for bit as well).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from agents.spaces import layout as L
from agents.spaces.encoding import (
    BOARD_SIZE,
    G_SIZE,
    P_F,
    V_F,
    BoardCache,
    encode_board,
    encode_board_into,
)
from agents.spaces.planner import make_planner
from engine.protectors.game import Game
from engine.protectors.ranking import brackets
from envs.opponents import make_setup
from envs.seat_env import ProtectorsSeatEnv

_PROV_BASE = G_SIZE + L.MAX_PLAYERS * P_F


def _positions(n_steps: int, **kw):
    """(state, seat) at the learning seat's choices of random masked play (the live game state)."""
    env, rng = ProtectorsSeatEnv(**kw), random.Random(3)
    env.reset(seed=1)
    ep = 1
    for _ in range(n_steps):
        if env.planner is not None:
            yield env.game.state, env.seat
        _, _, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if term or trunc:
            ep += 1
            env.reset(seed=ep)


def test_the_board_block_is_written_in_place_and_nowhere_else():
    g = Game(make_setup(board=None, players=5, seed=4))
    buf = np.full(BOARD_SIZE + 20, 7.0, dtype=np.float32)
    encode_board_into(g.state, "Player#2", buf[10:10 + BOARD_SIZE], BoardCache(g.state))
    assert buf[10:10 + BOARD_SIZE].tobytes() == encode_board(g.state, "Player#2").tobytes()
    assert (buf[:10] == 7.0).all() and (buf[10 + BOARD_SIZE:] == 7.0).all()
    # a second encoding over an old one leaves nothing of the old one behind
    encode_board_into(g.state, "Player#5", buf[10:10 + BOARD_SIZE])
    assert buf[10:10 + BOARD_SIZE].tobytes() == encode_board(g.state, "Player#5", BoardCache(g.state)).tobytes()


@pytest.mark.parametrize("kw", [{"opponents": ("random",)},
                                {"players": 7, "version": "grand", "island": True, "opponents": ("random",)}])
def test_adjacent_unit_features_are_the_neighbours_units(kw):
    """Row features "adjacent units of others/9" and "adjacent own units/9" from their definition:
    the units held in the Province's neighbours (board.neighbours), by holder."""
    seen = 0
    for st, seat in _positions(300, **kw):
        v = encode_board(st, seat)
        for p in st.board.all_provinces:
            mine = other = 0
            for q in st.board.neighbours.get(p, ()):
                pr = st.provinces[q]
                h = pr.occupant or pr.owner
                if pr.units and h is not None:
                    if h == seat:
                        mine += pr.units
                    else:
                        other += pr.units
            k = _PROV_BASE + int(p[1:]) * V_F + 5 + L.MAX_PLAYERS
            assert v[k + 8] == np.float32(other / 9) and v[k + 9] == np.float32(mine / 9), (p, seat)
            seen += bool(mine or other)
    assert seen > 20  # the positions had occupied neighbours


def test_ranking_features_follow_each_ranking_with_one_cache():
    """Bracket one-hot, Grand Protector and rank/16 are memoised per active ranking: reordering the
    ranking or eliminating a seat (same cache, same game) encodes like a fresh cache, and the
    features are the ranking's."""
    g = Game(make_setup(board=None, players=5, seed=8))
    for i, s in enumerate(g.deciding_seats()):
        g.submit(s, f"Bid {i + 1}")
    g.advance()
    st, seat = g.state, "Player#3"
    cache = BoardCache(st)
    seats = list(st.players)
    orders = [list(st.ranking), list(reversed(st.ranking)), list(st.ranking)]
    for k, order in enumerate(orders):
        st.ranking = order
        if k == 2:
            st.players[order[1]].eliminated = True  # the active ranking changes, not the list
        v = encode_board(st, seat, cache)
        assert v.tobytes() == encode_board(st, seat, BoardCache(st)).tobytes()
        active = st.active()
        br = brackets(active)
        me = seats.index(seat)
        for i, s in enumerate(seats):
            j = G_SIZE + ((i - me) % len(seats)) * P_F
            assert v[j + 10] == np.float32((active.index(s) if s in active else 16) / 16)
            assert v[j + 17] == (s == active[0])
            assert [int(x) for x in v[j + 6:j + 10]] == [int(br.get(s) == b) for b in (1, 2, 3, 4)]


def test_planner_masks_are_shared_read_only_and_match_the_legal_list():
    env = ProtectorsSeatEnv(opponents=("random",))
    env.reset(seed=2)
    st, seat = env.game.state, env.seat
    a, b = make_planner(st, seat), make_planner(st, seat)
    assert a.legal() == b.legal() and a.mask() is b.mask()  # one array per legal list
    m = a.mask()
    assert set(np.flatnonzero(m)) == set(a.legal()) and m.dtype == bool and m.shape == (L.ACTION_SIZE,)
    with pytest.raises(ValueError):
        m[L.DONE] = not m[L.DONE]  # shared: nobody may change it
    copy = env.action_masks()
    copy[:] = False  # the env hands out copies
    assert env.action_masks().any()


def test_parallel_env_observations_are_fresh_copies_of_each_seats_encoding():
    """The parallel env writes each seat's board block into a kept buffer: every observation must
    still equal a fresh encoding and be the caller's own array."""
    from agents.spaces.encoding import OBS_SIZE, encode_choice
    from envs.parallel_env import ProtectorsParallelEnv

    env, rng = ProtectorsParallelEnv(players=4), random.Random(5)
    obs, _ = env.reset(seed=3)
    for _ in range(40):
        if not env.agents:
            obs, _ = env.reset(seed=4)  # the cache is kept for the same board
        for a, o in obs.items():
            want = np.empty(OBS_SIZE, dtype=np.float32)
            want[:BOARD_SIZE] = encode_board(env.game.state, a, BoardCache(env.game.state))
            encode_choice(env.open_planner(a), want[BOARD_SIZE:])
            assert o["observation"].tobytes() == want.tobytes()
            o["observation"][:] = -1.0  # the caller may keep or change its arrays
        obs, *_ = env.step({a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents})
