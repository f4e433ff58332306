"""``views.board_view`` (``SeatContext.board``, what the heuristic reads) is part of the seat's own view: every key it
has, and every key of its players' entries, holds what ``seat_view`` holds there, so it can tell a seat nothing its
view hides; in varied games (factions, the Island, teams, Dragon Attacks with the Bank's round) at every step."""

from __future__ import annotations

import pytest

from agents.random_agent import RandomAgent
from agents.runner import play_turn_step
from engine.errors import ValidationError
from engine.protectors.game import Game
from engine.protectors.seat import SeatContext
from engine.protectors.views import board_view
from envs.opponents import make_setup

SETUPS = ((1, {}), (2, {"factions": True, "island": True, "version": "grand"}), (3, {"teams": 2}),
          (4, {"factions": True}))


def _is_part(part: dict, view: dict, where: str) -> None:
    assert part.keys() <= view.keys(), f"{where}: {sorted(part.keys() - view.keys())} not in the view"
    for k, v in part.items():
        if k == "players":
            for s, entry in v.items():
                _is_part(entry, view["players"][s], f"{where}.players[{s}]")
        else:
            assert v == view[k], f"{where}.{k}"


@pytest.mark.parametrize("seed,kw", SETUPS)
def test_the_board_is_part_of_the_seats_view(seed, kw):
    g = Game(make_setup(board=None, players=6, seed=seed, **kw))
    agents = {s: RandomAgent(seed * 10 + i) for i, s in enumerate(g.state.players)}
    checked = attacks = 0
    for _ in range(40):
        if g.over:
            break
        attacks += g.state.attack is not None
        checked += 1
        for s in g.state.players:
            ctx = SeatContext(g, s)
            _is_part(ctx.board, g.view(s), f"{s} at turn {g.state.turn} {g.step}")
            assert ctx.board is ctx.board  # built once per context
        play_turn_step(g, agents)
    assert checked >= 4 and attacks  # a Dragon Attack's commitments among the positions


def test_the_board_keeps_what_the_heuristic_reads():
    g = Game(make_setup(board=None, players=5, seed=7))
    board = board_view(g, "Player#1")
    assert {"you", "turn", "board", "island", "ranking", "dpl", "options", "players", "provinces"} <= board.keys()
    assert set(board["players"]["Player#2"]) == {"eliminated", "units", "bracket"}  # no $Realm, no secrets
    with pytest.raises(ValidationError):
        board_view(g, "nobody")
