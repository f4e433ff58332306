"""``python -m training.ship CKPT --from-checkpoint RUN/checkpoints/step_N``: a run stopped at a periodic
checkpoint is carded from that checkpoint's own records, and says it stopped there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.errors import ValidationError
from tests.training.test_resume import config


def test_a_stopped_run_is_carded_from_its_checkpoint(tmp_path):
    from training.ship import from_run_checkpoint
    from training.train import main

    run = main(config(tmp_path, "stopped"), until=64)
    step = Path(run["run_dir"], "checkpoints", "step_64")
    out = tmp_path / "card"
    summary = from_run_checkpoint(step, out)
    state = json.loads((step / "state.json").read_text())
    assert summary["steps"] == 64 and summary["cpu_seconds"] == state["cpu_seconds"]
    assert summary["league"] == json.loads((step / "league.json").read_text())
    assert "stopped at its 64-step checkpoint of 128" in summary["command"]
    assert (out / "model.zip").read_bytes() == (step / "model.zip").read_bytes()
    assert json.loads((out / "training_summary.json").read_text()) == summary
    assert summary["config"]["exp_name"] == "resume" and (out / "config.toml").is_file()


def test_not_a_checkpoint_is_named(tmp_path):
    from training.ship import from_run_checkpoint

    with pytest.raises(ValidationError, match=r"missing .*model\.zip"):
        from_run_checkpoint(tmp_path / "checkpoints" / "step_1", tmp_path / "out")
