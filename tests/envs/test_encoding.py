"""The observation shows only what the seat's view shows, at documented places."""

from __future__ import annotations

import numpy as np

from agents.spaces import layout as L
from agents.spaces.encoding import (
    BOARD_SIZE,
    C_SIZE,
    G_SIZE,
    OBS_SIZE,
    P_F,
    PLANNER_KINDS,
    V_F,
    BoardCache,
    encode_board,
    encode_choice,
)
from agents.spaces.planner import STAGE_INDEX
from engine.protectors.game import Game
from envs.opponents import make_setup


def _game(seed=1):
    g = Game(make_setup(board=None, players=5, seed=seed))
    for i, s in enumerate(g.deciding_seats()):
        g.submit(s, f"Bid {i + 1}")
    g.advance()
    assert g.step == "orders"
    return g


def test_sizes_cover_16_players_and_the_largest_board():
    assert OBS_SIZE == BOARD_SIZE + C_SIZE == G_SIZE + 16 * P_F + 33 * V_F + C_SIZE
    g = Game(make_setup(board=None, players=16, version="grand", island=True, seed=0))
    v = encode_board(g.state, "Player#16")
    assert v.shape == (BOARD_SIZE,) and np.isfinite(v).all()


def test_other_seats_secrets_do_not_change_the_observation():
    g = _game()
    before = encode_board(g.state, "Player#1")
    st = g.state
    st.players["Player#2"].realm += 333  # hidden: another seat's $Realm
    st.next_bids["Player#3"] = 40  # hidden: another seat's set-aside bid
    for deck in st.decks.values():  # hidden: the deck order
        deck.draw.reverse()
    g.submit("Player#4", "Fortify! P4")  # hidden: another seat's orders
    assert (encode_board(g.state, "Player#1") == before).all()
    st.players["Player#1"].realm += 300  # visible: our own $Realm
    assert not (encode_board(g.state, "Player#1") == before).all()


def test_own_seat_is_slot_zero_and_provinces_sit_at_their_number():
    g = _game()
    for seat in ("Player#1", "Player#3"):
        v = encode_board(g.state, seat)
        assert v[G_SIZE + 2] == 1  # players block, slot 0, "is me"
        home = next(p for p, pr in g.state.provinces.items() if pr.owner == seat)
        j = G_SIZE + L.MAX_PLAYERS * P_F + int(home[1:]) * V_F
        assert v[j] == 1 and v[j + 3] == 1  # present, owned by me
        assert v[j + 5] == 1  # owner slot 0


def test_a_cache_reused_across_games_encodes_like_a_fresh_one():
    """The envs keep one BoardCache across games: its static part must follow each game's seats,
    teams and options, and a different board needs a new cache."""
    cache = BoardCache(_game(seed=2).state)
    assert not cache.fits(Game(make_setup(board="ring-6", players=6, seed=3)).state)
    games = [Game(make_setup(board="ring-6", players=6, seed=s, **kw)) for s, kw in
             ((3, {}), (4, {"teams": 3}), (5, {"factions": True}), (6, {"teams": 2, "island": True}), (7, {}))]
    cache = BoardCache(games[0].state)
    for g in games:
        assert cache.fits(g.state) == (g.state.board.island is None)
        c = cache if cache.fits(g.state) else BoardCache(g.state)
        for seat in ("Player#1", "Player#4"):
            assert (encode_board(g.state, seat, c) == encode_board(g.state, seat)).all()


def test_the_choice_block_reads_the_planner():
    from agents.spaces.planner import make_planner

    g = _game()
    p = make_planner(g.state, "Player#1")
    out = np.full(C_SIZE, 7.0, dtype=np.float32)
    encode_choice(p, out)
    assert out[PLANNER_KINDS.index("orders")] == 1 and out[:len(PLANNER_KINDS)].sum() == 1
    assert out[len(PLANNER_KINDS) + STAGE_INDEX[p.stage]] == 1
    assert (out != 7.0).all()  # every entry rewritten
    encode_choice(None, out)
    assert not out.any()


def test_the_shared_cache_follows_boards_with_the_same_name():
    """encode_board without a cache keeps one per board name; two custom boards share the name."""
    line = {"provinces": {"P1": ["P2"], "P2": ["P1", "P3"], "P3": ["P2", "P4"], "P4": ["P3"]}}
    square = {"provinces": {"P1": ["P2", "P4"], "P2": ["P1", "P3"], "P3": ["P2", "P4"], "P4": ["P3", "P1"]}}
    for board in (line, square, line):
        g = Game(make_setup(board=board, players=2, seed=1, version="grand"))
        for i, s in enumerate(g.deciding_seats()):
            g.submit(s, f"Bid {i + 1}")
        g.advance()
        for seat in g.state.players:
            assert (encode_board(g.state, seat) == encode_board(g.state, seat, BoardCache(g.state))).all()
