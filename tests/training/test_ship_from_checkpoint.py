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


def test_a_run_folder_is_named_as_one_before_its_model_is_touched(tmp_path, capsys):
    """Before, `python -m training.ship runs/<run>` (the docs' `checkpoints/<name>` given a run folder) slimmed the
    run's model.zip, then ended on a FileNotFoundError traceback for training_summary.json."""
    from tests.training.helpers import tiny_model
    from training.ship import main

    tiny_model([8], seed=1).save(tmp_path / "model.zip")
    (tmp_path / "summary.json").write_text("{}")
    before = (tmp_path / "model.zip").read_bytes()
    with pytest.raises(SystemExit) as exit_:
        main([str(tmp_path)])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f"checkpoint: {tmp_path} has no training_summary.json; {tmp_path} is a run folder" in err
    assert "--from-checkpoint" in err and "--save-dir" in err
    assert (tmp_path / "model.zip").read_bytes() == before  # not slimmed
    with pytest.raises(SystemExit):
        main([str(tmp_path / "nothing")])
    assert "has no model.zip or training_summary.json; give the folder" in capsys.readouterr().err
