"""Scaling out with Ray (optional: ``pip install ray``; nothing else in Regent imports this module).

Two things outgrow one machine, and Ray's task API covers both without a home-made scheduler:

* **rollouts for evaluation and league checks**: ``seat_vs_field`` splits the games of
  ``training.evaluate.seat_vs_field`` into chunks, one Ray task each, and merges the outcomes. Chunks
  start on multiples of the player count, so every game gets the same seed, seat and field as in the
  one-process run: the merged report equals the local one.
* **training runs**: ``train_many`` runs ``training.train.main`` for several configs (seeds, league
  mixes, curricula) as Ray tasks, each reserving ``n_envs + 1`` CPUs, on whatever cluster
  ``ray.init(address=...)`` joined.

Scaling one run's PPO rollouts over many machines is RLlib's job (see docs/training.md): the same
``regent/Protectors-v0`` env with its ``action_mask`` plugs into RLlib's action-masking module.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import ValidationError


def _ray():
    try:
        import ray
    except ImportError as err:
        raise ValidationError("ray", "Ray is not installed: pip install ray (docs/training.md)") from err
    return ray


def init(address: str | None = None, num_cpus: int | None = None) -> None:
    """Join a cluster (``address="auto"`` or ``ray://host:10001``) or start a local one with ``num_cpus``."""
    ray = _ray()
    if not ray.is_initialized():
        ray.init(address=address, num_cpus=num_cpus, include_dashboard=False, log_to_driver=False,
                 runtime_env={"env_vars": {"OMP_NUM_THREADS": "1"}})


def _chunks(games: int, players: int, workers: int) -> list[tuple[int, int]]:
    """(offset, count) per task; offsets are multiples of ``players`` so seat rotation is unchanged."""
    per = max(players, -(-games // workers // players) * players)
    return [(o, min(per, games - o)) for o in range(0, games, per)]


def seat_vs_field(agent: str, field: Sequence[str], games: int, workers: int = 2, seed: int = 0,
                  **setup: Any) -> dict[str, Any]:
    """``training.evaluate.seat_vs_field`` with its games spread over ``workers`` Ray tasks."""
    ray = _ray()
    from training.evaluate import summarize

    if games < 1 or workers < 1:
        raise ValidationError("games", "need at least one game and one worker")
    players = int(setup.get("players", 5))

    @ray.remote(num_cpus=1)
    def chunk(offset: int, count: int) -> list[dict[str, Any]]:
        from training.evaluate import seat_vs_field as local

        return local(agent, list(field), count, seed=seed + offset, progress=False, **setup)["detail"]

    parts = ray.get([chunk.remote(o, c) for o, c in _chunks(games, players, workers)])
    outcomes = [o for part in parts for o in part]
    return {"mode": "field", "agent": agent, "field": list(field), "setup": setup, "seed": seed,
            "workers": workers, **summarize(outcomes), "detail": outcomes}


def train_many(configs: Sequence[Any]) -> list[dict[str, Any]]:
    """Run ``training.train.main(cfg)`` for each config as a Ray task; returns the run summaries."""
    ray = _ray()

    @ray.remote
    def run(cfg: Any) -> dict[str, Any]:
        from training.train import main

        return main(cfg)

    return ray.get([run.options(num_cpus=cfg.n_envs + 1).remote(cfg) for cfg in configs])


def shutdown() -> None:
    ray = _ray()
    if ray.is_initialized():
        ray.shutdown()
