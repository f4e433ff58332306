"""Ray smoke test with 2 local workers (skipped where Ray is not installed; it is an optional extra)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

from training import ray_jobs  # noqa: E402
from training.config import load_config  # noqa: E402
from training.evaluate import seat_vs_field  # noqa: E402

ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="module")
def local_cluster():
    ray_jobs.init(num_cpus=2)
    yield
    ray_jobs.shutdown()


def test_chunks_start_on_multiples_of_the_player_count():
    assert ray_jobs._chunks(23, 5, 2) == [(0, 15), (15, 8)]
    assert ray_jobs._chunks(4, 5, 2) == [(0, 4)]


def test_rollouts_on_two_workers_equal_the_local_run(local_cluster):
    remote = ray_jobs.seat_vs_field("heuristic", ["caretaker", "random"], 12, workers=2, seed=5, players=3)
    local = seat_vs_field("heuristic", ["caretaker", "random"], 12, seed=5, players=3, progress=False)
    assert remote["detail"] == local["detail"]
    assert remote["win_rate"] == local["win_rate"] and remote["games"] == 12


def test_two_training_runs_as_ray_tasks(local_cluster, tmp_path):
    base = load_config(ROOT / "training" / "configs" / "smoke.toml", runs_dir=str(tmp_path), n_envs=1,
                       total_timesteps=128)
    base = dataclasses.replace(base, eval_freq=0, checkpoint_freq=0)
    out = ray_jobs.train_many([dataclasses.replace(base, seed=s) for s in (1, 2)])
    assert [o["config"]["seed"] for o in out] == [1, 2]
    for o in out:
        assert Path(o["model"]).exists() and o["steps"] >= 128
