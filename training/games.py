"""Seat-vs-field games for the league's admission checks and the training-time strength curve.

One game per seed: ``seat_spec`` sits in seat ``seed % players`` (seats rotate over seeds) and every
other seat gets the spec the ``field`` function draws from ``league.field_rng(seed)``, so two
candidates measured on the same seeds meet the same opponents in the same seats. Agents are made
with ``agents.registry.make_agent`` (``policy:<path>`` loads a checkpoint once and is reused).
The final, reported evaluation of a shipped policy uses ``training.evaluate`` (the harness); this
module is the small in-training measurement.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from agents.runner import play_game
from envs.opponents import make_setup, terminal_reward
from training.config import Scenario
from training.league import field_rng


class SeatGames:
    """Plays seat-vs-field games on one scenario, caching the agents it loads."""

    def __init__(self, scenario: Scenario):
        self.scenario = scenario
        self._stateless: dict[str, Any] = {}

    def _agent(self, spec: str, seed: int) -> Any:
        from agents.registry import make_agent

        if spec.startswith(("policy:", "ppo")):  # checkpoints load once; reset() re-seeds them per game
            if spec not in self._stateless:
                self._stateless[spec] = make_agent(spec, seed)
            return self._stateless[spec]
        return make_agent(spec, seed)

    def play(self, seat_spec: str, seeds: Sequence[int],
             field: Callable[[random.Random, int], list[str]]) -> tuple[list[float], list[float]]:
        """Per game: the seat's terminal reward (the env's score) and 1.0 if it won (or its team did)."""
        sc = self.scenario
        scores, wins = [], []
        for seed in seeds:
            setup = make_setup(seed=seed, **sc.env_kwargs())
            seats = [f"Player#{i + 1}" for i in range(sc.players)]
            me = seats[seed % sc.players]
            others = [s for s in seats if s != me]
            specs = field(field_rng(seed), len(others))
            agents = {me: self._agent(seat_spec, seed)}
            for s, spec in zip(others, specs, strict=True):
                agents[s] = self._agent(spec, seed)
            game = play_game(setup, agents)
            team = game.state.players[me].team if game.state.options.teams else None
            r = terminal_reward(game.result, me, team)
            scores.append(r)
            wins.append(1.0 if r == 1.0 else 0.0)
        return scores, wins


def fixed_field(spec: str) -> Callable[[random.Random, int], list[str]]:
    """A field of ``n`` copies of one spec (e.g. four caretakers)."""
    return lambda rng, n: [spec] * n
