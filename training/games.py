"""Seat-vs-field games for the league's admission checks and the training-time strength curve.

The games are played by the evaluation harness (``training.evaluate.seat_vs_field``): the measured
agent rotates over the seats, every other seat draws its agent from the field with
``random.Random(game seed)``, so two agents measured on the same seeds meet the same opponents in
the same seats (common random numbers). League weights become a field with each spec repeated in
proportion to its weight (``FIELD_SLOTS`` slots).
"""

from __future__ import annotations

from training.config import Scenario

FIELD_SLOTS = 20  # weight resolution of a weighted field: 1/20 = 5%


def weighted_field(weights: dict[str, float], slots: int = FIELD_SLOTS) -> list[str]:
    """Specs repeated in proportion to their weight (every positive weight gets at least one slot)."""
    field = []
    for spec, w in weights.items():
        if w > 0:
            field += [spec] * max(1, round(w * slots))
    return field


class SeatGames:
    """Plays seat-vs-field games on one scenario with the evaluation harness."""

    def __init__(self, scenario: Scenario, progress: bool = False):
        self.scenario = scenario
        self.progress = progress  # a bar for each batch of games (a league check takes a minute or more)

    def report(self, seat_spec: str, seed: int, games: int, weights: dict[str, float]) -> dict:
        from training.evaluate import seat_vs_field

        kw = self.scenario.env_kwargs()
        return seat_vs_field(seat_spec, weighted_field(weights), games, seed=seed, progress=self.progress, **kw)

    def play(self, seat_spec: str, seed: int, games: int, weights: dict[str, float]) -> tuple[list[float], list[float]]:
        """Per game: the seat's terminal reward (the env's score) and 1.0 if it won (or its team did)."""
        detail = self.report(seat_spec, seed, games, weights)["detail"]
        return [float(o["score"]) for o in detail], [1.0 if o["win"] else 0.0 for o in detail]
