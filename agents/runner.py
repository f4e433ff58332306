"""Play Protectors games with agents in the seats."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agents.base import Agent
from engine.protectors.game import Game
from engine.protectors.seat import SeatContext

# A full game ends by turn 12 (The End deck); the longest step count we have seen is far below this.
MAX_ADVANCES = 10_000


def play_turn_step(game: Game, agents: dict[str, Agent]) -> list:
    """Every pending seat with an agent submits; then the step is resolved (defaults for the rest)."""
    for p in game.pending():
        if not p.submitted and p.seat in agents:
            game.submit(p.seat, agents[p.seat].act(SeatContext(game, p.seat)))
    return game.advance(force=True)


def finish(game: Game, agents: dict[str, Agent]) -> Game:
    """Play ``game`` on to its end with ``agents`` (seats without one get the rulebook defaults)."""
    for _ in range(MAX_ADVANCES):
        if game.over:
            return game
        play_turn_step(game, agents)
    raise RuntimeError(f"game did not end within {MAX_ADVANCES} steps")


def play_game(setup: dict[str, Any], agents: dict[str, Agent],
              on_step: Callable[[Game, list], None] | None = None) -> Game:
    """Play to the end; seats without an agent get the rulebook defaults."""
    game = Game(setup)
    for i, agent in enumerate(agents.values()):
        agent.reset(None if setup.get("seed") is None else setup["seed"] * 1000 + i)
    for _ in range(MAX_ADVANCES):
        if game.over:
            break
        events = play_turn_step(game, agents)
        if on_step:
            on_step(game, events)
    else:
        raise RuntimeError(f"game did not end within {MAX_ADVANCES} steps")
    return game
