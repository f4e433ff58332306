"""The redacted state an agent gets (``SeatContext.state``) holds nothing another seat keeps secret,
and the envs' encoder and planners read nothing else: on the redacted copy they produce the same
observation, the same masks and the same decision as on the full state."""

from __future__ import annotations

import random

import numpy as np
import pytest

from agents.random_agent import RandomAgent
from agents.spaces.encoding import encode_board
from agents.spaces.planner import make_planner
from engine.errors import ValidationError
from engine.protectors.game import Game
from engine.protectors.seat import SeatContext
from engine.protectors.views import seat_state

SETUPS = [
    {"board": "ring-5", "seed": 3},
    {"board": "ring-6+island", "seed": 11, "options": {"factions": True}},
    {"board": "ring-4-grand", "seed": 5, "options": {"factions": True}},
    {"board": "ring-6", "seed": 8, "players": [{"seat": f"Player#{i}", "team": "AB"[i % 2]} for i in range(1, 7)],
     "options": {"teams": True}},
]


def _walk(full_state, red_state, seat: str, rng: random.Random):
    """Drive two planners (full / redacted) with the same random legal choices; masks must agree."""
    a, b = make_planner(full_state, seat), make_planner(red_state, seat)
    while not a.finished:
        ma, mb = a.mask(), b.mask()
        assert np.array_equal(ma, mb), f"{seat} {full_state.step}: masks differ"
        choice = int(rng.choice(np.flatnonzero(ma)))
        a.apply(choice)
        b.apply(choice)
    assert b.finished
    return a.decision(), b.decision()


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: s["board"])
def test_encoder_and_planner_see_only_the_seat(setup):
    game = Game(setup)
    agents = {s: RandomAgent(i) for i, s in enumerate(game.state.players)}
    rng = random.Random(0)
    checked = 0
    while not game.over and game.state.turn <= 6:
        for p in game.pending():
            ctx = SeatContext(game, p.seat)
            red = ctx.state
            assert np.array_equal(encode_board(game.state, p.seat), encode_board(red, p.seat))
            full_dec, red_dec = _walk(game.state, red, p.seat, rng)
            assert full_dec == red_dec
            checked += 1
            game.submit(p.seat, agents[p.seat].act(ctx))
        game.advance(force=True)
    assert checked > 10


def test_redacted_state_holds_no_other_seats_secrets():
    game = Game({"board": "ring-5", "seed": 2})
    agents = {s: RandomAgent(i) for i, s in enumerate(game.state.players)}
    while game.state.step != "consolidation":
        for p in game.pending():
            game.submit(p.seat, agents[p.seat].act(SeatContext(game, p.seat)))
        game.advance(force=True)
    # everyone submits consolidation (bids set aside, secret) except Player#5, who is still thinking
    for p in game.pending():
        if p.seat != "Player#5":
            game.submit(p.seat, agents[p.seat].act(SeatContext(game, p.seat)))
    st = game.state
    red = seat_state(st, "Player#5")
    assert red.submissions == {}
    others = [s for s in st.players if s != "Player#5"]
    assert all(red.players[s].realm == 0 for s in others)
    assert any(st.players[s].realm > 0 for s in others)  # so the check above could fail
    assert {row[1] for row in red.ledger} <= {"Player#5"}
    assert all(e.visible("Player#5") for e in red.events)
    assert any(not e.visible("Player#5") for e in st.events)  # production is private: there was something to hide
    for name, deck in red.decks.items():
        assert deck.draw == sorted(st.decks[name].draw)
    # the copy is independent: changing it does not touch the game
    red.players["Player#5"].realm += 1000
    red.provinces["P1"].units += 5
    assert st.players["Player#5"].realm != red.players["Player#5"].realm
    assert st.provinces["P1"].units != red.provinces["P1"].units


def test_seat_state_rejects_unknown_seat():
    with pytest.raises(ValidationError, match="Player#9"):
        seat_state(Game({"board": "ring-3", "seed": 0}).state, "Player#9")


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: s["board"])
def test_the_seat_view_can_be_rebuilt_from_the_redacted_state(setup):
    """The redacted copy keeps everything the seat knows: its own view comes out the same from it."""
    game = Game(setup)
    agents = {s: RandomAgent(i + 7) for i, s in enumerate(game.state.players)}
    checked = 0
    while not game.over and game.state.turn <= 6:
        for p in game.pending():
            shadow = game.clone()
            shadow.state = seat_state(game.state, p.seat)
            assert shadow.view(p.seat) == game.view(p.seat)
            checked += 1
            game.submit(p.seat, agents[p.seat].act(SeatContext(game, p.seat)))
        game.advance(force=True)
    assert checked > 10
