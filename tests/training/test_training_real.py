"""Real training (opt-in: ``pytest -m training``): a short run of the shipped config learns something.

Takes a few minutes on 2 cores. The bar is low on purpose: after 60k steps the policy's mean score
against a field of random players must beat the random player's own score on the same games.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from training.config import load_config
from training.evaluate import seat_vs_field

ROOT = Path(__file__).parents[2]


@pytest.mark.training
def test_sixty_thousand_steps_beat_random_in_a_random_field(tmp_path):
    from training.train import main

    cfg = load_config(ROOT / "training" / "configs" / "protectors-ppo-v1.toml", total_timesteps=60_000,
                      runs_dir=str(tmp_path), save_dir="", progress=False)
    cfg = dataclasses.replace(cfg, eval_freq=0, checkpoint_freq=0)
    out = main(cfg)
    policy = seat_vs_field(f"policy:{out['model']}", ["random"], 60, seed=20_000, progress=False)
    rand = seat_vs_field("random", ["random"], 60, seed=20_000, progress=False)
    assert policy["score"] > rand["score"], (policy["score"], rand["score"])
