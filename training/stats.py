"""Small statistics for the evaluation harness: Wilson and bootstrap intervals, a multiplayer Elo."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

Z95 = 1.959963984540054


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval for a win rate (sound near 0 and 1, unlike the normal one)."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def bootstrap_mean(xs: Sequence[float], reps: int = 2000, seed: int = 0) -> tuple[float, float]:
    """95% percentile-bootstrap interval of the mean (seeded: the same data give the same interval)."""
    n = len(xs)
    if n == 0:
        return (0.0, 0.0)
    if n == 1:
        return (float(xs[0]), float(xs[0]))
    rng = random.Random(seed)
    means = sorted(sum(xs[rng.randrange(n)] for _ in range(n)) / n for _ in range(reps))
    return (means[int(0.025 * reps)], means[min(reps - 1, int(0.975 * reps))])


def mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


class Elo:
    """Multiplayer Elo: each game is every pair of differently-named entrants, scored by placement
    (0 best; equal places tie). The update of one game is the sum of its
    pairwise updates with K / (entrants - 1), so a 5-player game moves ratings like one 1v1 game.
    """

    def __init__(self, k: float = 24.0, start: float = 1500.0):
        self.k, self.start = k, start
        self.ratings: dict[str, float] = {}
        self.games: dict[str, int] = {}

    def expected(self, a: float, b: float) -> float:
        return 1 / (1 + 10 ** ((b - a) / 400))

    def update(self, entrants: Sequence[tuple[str, float]]) -> None:
        """``entrants``: (name, place) per seat; seats of the same name are not compared."""
        names = {n for n, _ in entrants}
        for n in names:
            self.ratings.setdefault(n, self.start)
            self.games[n] = self.games.get(n, 0) + 1
        if len(names) < 2:
            return
        k = self.k / (len(entrants) - 1)
        delta = dict.fromkeys(names, 0.0)
        for i, (a, pa) in enumerate(entrants):
            for b, pb in entrants[i + 1:]:
                if a == b:
                    continue
                score = 1.0 if pa < pb else 0.5 if pa == pb else 0.0
                e = self.expected(self.ratings[a], self.ratings[b])
                delta[a] += k * (score - e)
                delta[b] -= k * (score - e)
        for n in names:
            self.ratings[n] += delta[n]

    def ladder(self) -> list[dict]:
        return [{"agent": n, "elo": round(r, 1), "games": self.games[n]}
                for n, r in sorted(self.ratings.items(), key=lambda kv: -kv[1])]
