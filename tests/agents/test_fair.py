"""``fair``: the shipped policy at a temperature picked by the table's size, with the heuristic's opening
bid and Dragon commitments."""

from __future__ import annotations

from agents.fair import FAIR_TEMPERATURES, HEURISTIC_STEPS, FairAgent, fair_temperature
from agents.heuristic import HeuristicAgent
from agents.registry import make_agent
from agents.runner import play_game, play_turn_step
from engine.protectors.game import Game
from engine.protectors.seat import SeatContext
from engine.protectors.state import BID, DRAGON, ORDERS


def test_the_temperature_follows_the_number_of_seats():
    assert [fair_temperature(n) for n in (2, 5, 6, 7, 8, 10, 11, 16)] == [3.5, 3.5, 3.0, 3.0, 3.0, 3.0, 0.0, 0.0]
    assert FAIR_TEMPERATURES[-1][0] == 16  # every game the rules allow (2-16 players) is covered


def test_fair_sets_its_temperature_for_the_game_it_plays():
    for board, players, want in (("ring-5", 5, 3.5), ("ring-7", 7, 3.0), ("ring-10", 10, 3.0)):
        agent = make_agent("fair", 1)
        assert isinstance(agent, FairAgent)
        game = play_game({"board": board, "players": players, "seed": 2}, {"Player#1": agent})
        assert game.over and agent.temperature == want


def test_the_opening_bid_and_dragon_steps_are_the_heuristics():
    """At BID and DRAGON steps fair answers exactly as a heuristic with its seed would."""
    assert set(HEURISTIC_STEPS) == {BID, DRAGON}
    seen: dict[str, int] = {}
    for seed in range(6):
        game = Game({"board": "ring-5", "players": 5, "seed": seed})
        field = {s: HeuristicAgent(seed * 10 + i) for i, s in enumerate(game.state.players)}
        while not game.over and game.state.turn <= 6:
            for p in game.pending():
                if p.submitted or p.seat != "Player#1":
                    continue
                ctx = SeatContext(game, p.seat)
                fair, heuristic = make_agent("fair", 7), HeuristicAgent(7)
                fair.reset(7)
                heuristic.reset(7)
                mine = fair.act(ctx)
                if game.state.step in HEURISTIC_STEPS:
                    assert mine == heuristic.act(SeatContext(game, p.seat))
                    seen[game.state.step] = seen.get(game.state.step, 0) + 1
                elif game.state.step == ORDERS:
                    seen[ORDERS] = seen.get(ORDERS, 0) + 1
            play_turn_step(game, field)
    assert seen.get(BID, 0) >= 6 and seen.get(DRAGON, 0) >= 1 and seen.get(ORDERS, 0) >= 6
