"""A policy seat in the server runs torch inference on TORCH_THREADS threads (small nets: more threads
only contend under load)."""

from __future__ import annotations

import pytest

from engine.protectors.game import Game
from service import ai

torch = pytest.importorskip("torch")


def test_policy_seat_limits_torch_threads():
    if "ppo" not in ai.registry():
        pytest.skip("no shipped ppo checkpoint registered")
    before = torch.get_num_threads()
    try:
        torch.set_num_threads(2)
        game = Game({"board": "ring-5", "seed": 3})
        seat = game.pending()[0].seat
        decision = ai.decide(game, seat, "ppo", {}, seed=1)
        game.submit(seat, decision)  # a legal decision came out
        assert torch.get_num_threads() == ai.TORCH_THREADS == 1
    finally:
        torch.set_num_threads(before)


def test_difficulties_resolve_to_the_strongest_agent_present():
    known = ai.registry()
    assert ai.resolve("expert") == ("search" if "search" in known else ai.resolve("hard"))
    assert ai.resolve("hard") == next(a for a in ai.DIFFICULTIES["hard"] if a in known)
    # the table-health levels (docs/table-health.md): steward is the steward with its look-ahead, fair its own
    # agent, strong is hard: the policy with the big-table opening bid (agents/strong.py)
    assert (ai.resolve("steward"), ai.resolve("fair"), ai.resolve("strong")) == ("steward-search", "fair",
                                                                                ai.resolve("hard"))
    assert ai.resolve("strong") == "strong"
    with pytest.raises(Exception, match="difficulties: steward, fair, strong, easy, normal, hard, expert"):
        ai.resolve("impossible")


def test_a_level_is_read_whatever_its_case():
    # "Expert" from a phone's keyboard (or `regent seat game.rgm Bob Steward`) was an unknown agent
    assert ai.resolve("Expert") == ai.resolve("expert") and ai.resolve(" STEWARD ") == ai.resolve("steward")
    assert ai.resolve("Heuristic") == "heuristic"
    with pytest.raises(Exception, match=r"unknown agent 'Heuristik' \(did you mean heuristic\?\)"):
        ai.resolve("Heuristik")
