"""``--resume`` of a file that is no SB3 model is refused in one line naming it, leaving no run folder and
giving no warning first; before, a file that is not a zip warned "resuming ... inexactly" and then ended on SB3's own
error, and a zip without a model ended on "internal error (AssertionError ...)"."""

from __future__ import annotations

import zipfile

import pytest

from engine.errors import ValidationError
from training.config import load_config
from training.train import main

SMOKE = "training/configs/smoke.toml"


def _cfg(tmp_path):
    return load_config(SMOKE, runs_dir=str(tmp_path / "runs"), progress=False, n_envs=1)


def test_a_file_that_is_not_a_zip_is_refused_without_a_warning_first(tmp_path, recwarn):
    bad = tmp_path / "model.zip"
    bad.write_text("notes, not a model")
    with pytest.raises(ValidationError, match=r"resume: .*model\.zip is not a model\.zip SB3 can read \(.*zip-file"):
        main(_cfg(tmp_path), resume=str(bad))
    assert list((tmp_path / "runs").iterdir()) == []
    assert not [w for w in recwarn if "inexactly" in str(w.message)]


def test_a_zip_without_a_model_is_refused_and_leaves_no_run_folder(tmp_path):
    bad = tmp_path / "model.zip"
    with zipfile.ZipFile(bad, "w") as z:
        z.writestr("notes.txt", "not a model")
    with pytest.raises(ValidationError, match=r"resume: .*model\.zip is not a model\.zip SB3 can read \(No data"):
        main(_cfg(tmp_path), resume=str(bad))
    assert list((tmp_path / "runs").iterdir()) == []
