"""``init_from``: a run that starts from a trained network (v5 starts from v4) gets exactly that network,
and a model that does not fit the config's network is refused by name, not half-loaded."""

from __future__ import annotations

import pytest
import torch

from engine.errors import ValidationError
from tests.training.helpers import tiny_model
from training.config import load_config
from training.train import _init_from
from training.train import main as train_main

SMOKE = "training/configs/smoke.toml"


def test_init_from_copies_the_trained_network(tmp_path):
    trained = tiny_model([32, 32], seed=1)
    trained.save(tmp_path / "trained.zip")
    fresh = tiny_model([32, 32], seed=2)
    differs = any(not torch.equal(a, b) for a, b in zip(fresh.policy.state_dict().values(),
                                                       trained.policy.state_dict().values(), strict=True))
    assert differs, "two seeds start from different networks"
    _init_from(fresh, str(tmp_path / "trained.zip"))
    for (name, a), b in zip(fresh.policy.state_dict().items(), trained.policy.state_dict().values(), strict=True):
        assert torch.equal(a, b), name


def test_init_from_a_model_of_another_shape_is_refused(tmp_path):
    tiny_model([16], seed=1).save(tmp_path / "small.zip")
    with pytest.raises(ValidationError, match="does not fit this config's network"):
        _init_from(tiny_model([32, 32], seed=2), str(tmp_path / "small.zip"))


def test_init_from_a_model_of_another_shape_names_the_net_arch_to_write(tmp_path):
    """Before, the refusal quoted torch's first line only ('Error(s) in loading state_dict for
    MaskableActorCriticPolicy:'), which names no config key: the smoke config from the shipped v5 said so."""
    tiny_model([16], seed=1).save(tmp_path / "small.zip")
    with pytest.raises(ValidationError, match=r"\(net_arch: the model's \[16\], this config's \[32, 32\]\)"):
        _init_from(tiny_model([32, 32], seed=2), str(tmp_path / "small.zip"))


def test_init_from_a_missing_file_names_it_before_any_work(tmp_path):
    # the config loads (a recipe's later step names an earlier step's output); training refuses it at once
    cfg = load_config(SMOKE, init_from=str(tmp_path / "nothere.zip"), runs_dir=str(tmp_path / "runs"))
    with pytest.raises(ValidationError, match=r"init_from: no model at .*nothere\.zip"):
        train_main(cfg)
    assert not (tmp_path / "runs").exists()  # no half-made run left behind


def test_the_v5_recipe_starts_from_the_shipped_v4():
    cfg = load_config("training/configs/protectors-ppo-v5.toml")
    assert cfg.init_from == "checkpoints/protectors-ppo-v4/model.zip"
    assert cfg.net_arch == [256, 256] and cfg.takeover.prob > 0


def test_init_from_a_file_that_is_no_model_says_so(tmp_path):
    bad = tmp_path / "notes.zip"
    bad.write_text("not a zip")
    with pytest.raises(ValidationError, match=r"notes\.zip is not a model\.zip SB3 can read"):
        _init_from(tiny_model([32, 32], seed=2), str(bad))


def test_a_refused_init_from_leaves_no_run_folder(tmp_path):
    # session 18 left a run folder holding only config.toml behind a refused init_from
    from training.train import main

    bad = tmp_path / "notes.zip"
    bad.write_text("not a zip")
    cfg = load_config(SMOKE, init_from=str(bad), runs_dir=str(tmp_path / "runs"), progress=False)
    with pytest.raises(ValidationError, match=r"notes\.zip is not a model\.zip SB3 can read"):
        main(cfg)
    assert list((tmp_path / "runs").iterdir()) == []
