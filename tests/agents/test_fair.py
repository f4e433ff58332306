"""``fair``: the shipped policy at a temperature picked by the table's size."""

from __future__ import annotations

from agents.fair import FAIR_TEMPERATURES, FairAgent, fair_temperature
from agents.registry import make_agent
from agents.runner import play_game


def test_the_temperature_follows_the_number_of_seats():
    assert [fair_temperature(n) for n in (2, 5, 6, 7, 10, 16)] == [3.0, 3.0, 1.5, 1.5, 0.0, 0.0]
    assert FAIR_TEMPERATURES[-1][0] == 16  # every game the rules allow (2-16 players) is covered


def test_fair_sets_its_temperature_for_the_game_it_plays():
    for board, players, want in (("ring-5", 5, 3.0), ("ring-7", 7, 1.5), ("ring-10", 10, 0.0)):
        agent = make_agent("fair", 1)
        assert isinstance(agent, FairAgent)
        game = play_game({"board": board, "players": players, "seed": 2}, {"Player#1": agent})
        assert game.over and agent.temperature == want
