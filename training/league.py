"""The self-play league: who sits in the other seats while the learner trains, and who joins.

The pool holds the scripted players (caretaker, heuristic, random) and up to ``max_snapshots``
frozen snapshots of the learner. Each opponent seat of each game draws one member with these
weights (``League.weights``), the documented mix:

* ``caretaker_weight``, ``heuristic_weight``, ``random_weight``: fixed masses for the scripted
  players;
* ``snapshot_weight``: shared by the snapshots, snapshot ``i`` of ``k`` (oldest first) in
  proportion to ``recent_bias ** i``, so the newest is met most and old ones stay as a guard
  against forgetting;
* while the pool has no snapshot, its mass goes to the scripted players in proportion to theirs.

Admission: every ``check_every`` steps the learner is saved as a candidate and plays
``check_games`` games in one seat against a field drawn from the current pool; the incumbent (the
newest snapshot, or the caretaker while there is none) plays the same games (same seeds, seats and
field: common random numbers). The candidate joins when its mean score beats the incumbent's by
``join_margin``. The score of a game is the env's terminal reward (win 1, the Dragon wins -1,
another Protector wins 0.5 x VP share), so the league and the learner chase the same thing.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from engine.errors import ValidationError
from training.config import LeagueConfig

SCRIPTED = ("caretaker", "heuristic", "random")
FIRST_INCUMBENT = "caretaker"  # who a candidate must beat while the pool has no snapshot


@dataclass
class Snapshot:
    """A frozen copy of the learner in the pool."""

    spec: str
    """agent spec that loads it (``policy:<path to model.zip>``)"""
    step: int
    """learner steps when it was taken"""
    score: float
    """its mean score in the admission games"""


@dataclass
class Check:
    """One admission check, kept for the strength-over-training plot and the model card."""

    step: int
    candidate: float
    """candidate's mean score vs the pool"""
    incumbent: float
    """incumbent's mean score on the same games"""
    incumbent_spec: str
    joined: bool
    win_rate: float
    """candidate's win rate in those games"""
    games: int
    extra: dict[str, float] = field(default_factory=dict)
    """other measurements taken at the check (e.g. win rate vs four caretakers)"""


class League:
    """The opponent pool and its admission rule (see the module docstring)."""

    def __init__(self, cfg: LeagueConfig):
        self.cfg = cfg
        self.snapshots: list[Snapshot] = []
        self.history: list[Check] = []

    # -- the mix ----------------------------------------------------------------------------------
    def weights(self) -> dict[str, float]:
        """Probability of each member spec in an opponent seat (sums to 1)."""
        c = self.cfg
        scripted = {"caretaker": c.caretaker_weight, "heuristic": c.heuristic_weight, "random": c.random_weight}
        scripted = {k: v for k, v in scripted.items() if v > 0}
        out: dict[str, float] = {}
        if self.snapshots and c.snapshot_weight > 0:
            raw = [c.recent_bias ** i for i in range(len(self.snapshots))]
            total = sum(raw)
            for snap, r in zip(self.snapshots, raw, strict=True):
                out[snap.spec] = out.get(snap.spec, 0.0) + c.snapshot_weight * r / total
            out.update(scripted)
        elif scripted:
            out.update(scripted)
        else:  # only snapshot mass configured and no snapshot yet: the caretaker stands in
            out[FIRST_INCUMBENT] = 1.0
        total = sum(out.values())
        return {k: v / total for k, v in out.items()}

    def sample(self, rng: random.Random, n: int) -> list[str]:
        """``n`` opponent specs drawn independently with ``weights()``."""
        w = self.weights()
        return rng.choices(list(w), weights=list(w.values()), k=n)

    @property
    def incumbent(self) -> str:
        return self.snapshots[-1].spec if self.snapshots else FIRST_INCUMBENT

    # -- admission --------------------------------------------------------------------------------
    def consider(self, candidate: str, step: int, play: PlayFn, seed: int, games: int,
                 extra: dict[str, float] | None = None) -> Check:
        """Measure ``candidate`` against the incumbent on the same games; admit it if it wins by the margin.

        ``play(seat_spec, seed, games, weights)`` plays games ``seed .. seed + games - 1`` with
        ``seat_spec`` in one (rotating) seat and the other seats drawn with ``weights`` (the same
        draw for the same game seed), returning ``(scores, wins)`` per game.
        """
        if games < 1:
            raise ValidationError("league", "an admission check needs at least one game")
        weights = self.weights()
        cand_scores, cand_wins = play(candidate, seed, games, weights)
        inc_spec = self.incumbent
        inc_scores, _ = play(inc_spec, seed, games, weights)
        cand, inc = _mean(cand_scores), _mean(inc_scores)
        joined = cand >= inc + self.cfg.join_margin
        if joined:
            self.snapshots.append(Snapshot(candidate, step, cand))
            if len(self.snapshots) > self.cfg.max_snapshots:
                self.snapshots.pop(0)
        check = Check(step, cand, inc, inc_spec, joined, _mean(cand_wins), games, dict(extra or {}))
        self.history.append(check)
        return check

    # -- persistence (resume) ----------------------------------------------------------------------
    def to_json(self) -> str:
        return json.dumps({"config": asdict(self.cfg), "snapshots": [asdict(s) for s in self.snapshots],
                           "history": [asdict(h) for h in self.history]}, indent=1)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json(), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path, cfg: LeagueConfig | None = None) -> League:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        league = cls(cfg or LeagueConfig(**data["config"]))
        league.snapshots = [Snapshot(**s) for s in data["snapshots"]]
        league.history = [Check(**h) for h in data["history"]]
        return league


PlayFn = Callable[[str, int, int, dict[str, float]], tuple[list[float], list[float]]]


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def summarize(history: Sequence[Check]) -> list[dict[str, Any]]:
    """Plain rows for the model card and the plot."""
    return [asdict(h) for h in history]
