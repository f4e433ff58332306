"""``--until N`` stops at a rollout boundary, as docs/training.md says with the smoke config's example."""

from __future__ import annotations

import re
from pathlib import Path

from training.config import load_config
from training.train import main

ROOT = Path(__file__).parents[2]


def test_until_stops_at_the_first_rollout_boundary_the_docs_name(tmp_path):
    doc = (ROOT / "docs" / "training.md").read_text(encoding="utf-8")
    m = re.search(r"the smoke config's `--until (\d+)` stops at step (\d+)", doc)
    assert m, "docs/training.md names the step the smoke config's --until stops at"
    until, stops = int(m[1]), int(m[2])
    cfg = load_config(ROOT / "training" / "configs" / "smoke.toml", runs_dir=str(tmp_path), progress=False)
    assert until % (cfg.n_envs * cfg.n_steps)  # the example is not on a boundary itself
    summary = main(cfg, until=until)
    assert summary["steps"] == stops
    assert (Path(summary["run_dir"]) / "checkpoints" / f"step_{stops}" / "model.zip").is_file()
