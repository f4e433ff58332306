"""`the Island` / `Wizard Sanctum` in a DM names the board's Island: P0 on the built-in boards, whatever
Province a GM's own board makes it; on a board without one the rules refuse P0, saying the board has none."""

from __future__ import annotations

import pytest

from agents.heuristic import HeuristicAgent
from agents.runner import play_turn_step
from engine.errors import IllegalOrderError, RegentError
from engine.protectors.dm_read import read_dm
from engine.protectors.game import Game
from engine.protectors.state import ORDERS

ADJ = {"P1": ["P2", "P3"], "P2": ["P1", "P4"], "P3": ["P1", "P4", "P5"], "P4": ["P2", "P3", "P6"],
       "P5": ["P3", "P6"], "P6": ["P4", "P5"]}


@pytest.mark.parametrize(("island", "province"), [("P0", "P0"), ("P9", "P9")])
def test_the_island_is_the_boards_island(island, province):
    for words in ("the Island", "Island", "the Wizard Sanctum"):
        (line,) = read_dm(f"March! 1 from P7 to {words}", island=island).entries
        assert line.canonical == (f"March! 1 from P7 to {province}",), words


def _at_orders(board) -> Game:
    game = Game({"board": board, "players": 3, "seed": 2})
    field = {s: HeuristicAgent(i) for i, s in enumerate(game.state.players)}
    while game.state.step != ORDERS:
        play_turn_step(game, field)
    return game


def test_a_game_reads_the_island_of_its_own_board():
    game = _at_orders({"name": "Six Shires", "provinces": ADJ, "island": "P9"})
    seat = next(iter(game.state.players))
    home = next(p for p, prov in game.state.provinces.items() if prov.owner == seat and prov.units)
    # the Island of this board (P9) borders no Province: the rules refuse the march, naming P9, not P0
    with pytest.raises(IllegalOrderError, match=rf"'March! 1 from {home} to P9': P9 is not adjacent to {home}"):
        game.submit_dm(seat, f"March! 1 from {home} to the Island")
    plain = _at_orders({"name": "No Isle", "provinces": ADJ, "island": None})
    seat = next(iter(plain.state.players))
    with pytest.raises(RegentError, match=r"this board has no Island \(P0\)"):
        plain.submit_dm(seat, "March! 1 from P1 to the Island")
