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
import os
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
    def to_json(self, base: str | Path | None = None) -> str:
        """The pool and the checks as JSON; with ``base`` (the folder the file goes to) every snapshot's
        model path is written relative to it, so the file still points at the snapshots when the run
        folder moves or another working directory reads it."""
        def rel(spec: str) -> str:
            return _relative_spec(spec, Path(base)) if base is not None else spec

        data: dict[str, Any] = {"config": asdict(self.cfg)}
        if base is not None:
            data["paths"] = PATHS_RELATIVE
        data["snapshots"] = [{**asdict(s), "spec": rel(s.spec)} for s in self.snapshots]
        data["history"] = [{**asdict(h), "incumbent_spec": rel(h.incumbent_spec)} for h in self.history]
        return json.dumps(data, indent=1)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json(Path(path).parent), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path, cfg: LeagueConfig | None = None) -> League:
        """Read ``league.json``. Snapshot paths come back absolute: relative to the file's folder (files
        this code writes); in older files, as written (absolute, or relative to the first run's working
        directory) when that file exists, else ``snapshots/step_N/model.zip`` under the run folder that
        holds the file (a moved run)."""
        path = Path(path)
        data = json.loads(path.read_text(encoding="utf-8"))
        league = cls(cfg or LeagueConfig(**data["config"]))
        new = data.get("paths") == PATHS_RELATIVE
        base = path.parent

        def spec(s: str) -> str:
            return _resolve_spec(s, base, new)

        league.snapshots = [Snapshot(**{**s, "spec": spec(s["spec"])}) for s in data["snapshots"]]
        league.history = [Check(**{**h, "incumbent_spec": spec(h["incumbent_spec"])}) for h in data["history"]]
        return league

    def missing_snapshots(self) -> list[Snapshot]:
        """Snapshots whose model file is not there (a run folder moved without its snapshots)."""
        return [s for s in self.snapshots if s.spec.startswith(POLICY) and not Path(s.spec[len(POLICY):]).is_file()]


POLICY = "policy:"
PATHS_RELATIVE = "snapshot paths relative to this file's folder"


def _relative_spec(spec: str, base: Path) -> str:
    if not spec.startswith(POLICY):
        return spec
    target = os.path.abspath(spec[len(POLICY):])
    try:
        return POLICY + Path(os.path.relpath(target, os.path.abspath(base))).as_posix()
    except ValueError:  # another drive (Windows): no relative path exists
        return POLICY + target


def _resolve_spec(spec: str, base: Path, relative_to_base: bool) -> str:
    if not spec.startswith(POLICY):
        return spec
    p = spec[len(POLICY):]
    if relative_to_base:
        return POLICY + os.path.normpath(os.path.join(os.path.abspath(base), p))
    if Path(p).is_file():  # an older league.json: absolute, or relative to the working directory
        return POLICY + os.path.abspath(p)
    parts = Path(p).parts
    if "snapshots" in parts:  # a moved run: the same snapshot under the run folder holding this file
        tail = Path(*parts[len(parts) - 1 - parts[::-1].index("snapshots"):])
        for run in [base, *list(base.parents)[:2]]:
            if (run / tail).is_file():
                return POLICY + os.path.abspath(run / tail)
    return spec


PlayFn = Callable[[str, int, int, dict[str, float]], tuple[list[float], list[float]]]


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def summarize(history: Sequence[Check]) -> list[dict[str, Any]]:
    """Plain rows for the model card and the plot."""
    return [asdict(h) for h in history]
