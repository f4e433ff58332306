"""A run split across sessions trains the same network as one run (issue 19 item 3), mid-game starts on.

A tiny run is trained in one go and in two pieces (``until`` then ``resume``, and a resume from a
periodic checkpoint); the final weights, the optimizer state and the league's record must be equal
bit for bit. No strength is asserted here.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from training.config import load_config

TINY = """
exp_name = "resume"
seed = 3
total_timesteps = 128
n_envs = {n_envs}
vec_env = "{vec_env}"
n_steps = 32
batch_size = 32
n_epochs = 1
net_arch = [16, 16]
eval_freq = 0
checkpoint_freq = 64
progress = false

[league]
caretaker_weight = 0.5
heuristic_weight = 0.3
random_weight = 0.2
snapshot_weight = 0.5
check_every = 64
check_games = 2

[takeover]
prob = 0.5
turns = [2, 6]
recorders = {{ heuristic = 0.5, random = 0.5 }}
mixed = 0.5
bad_seat = 0.3

[[curriculum]]
start = 0.0
[[curriculum.scenarios]]
players = 3
[[curriculum]]
start = 0.5
[[curriculum.scenarios]]
players = 4
teams = 2

[eval_scenario]
players = 3
"""


def config(tmp_path: Path, name: str, n_envs: int = 1, vec_env: str = "dummy"):
    f = tmp_path / f"{name}.toml"
    f.write_text(TINY.format(n_envs=n_envs, vec_env=vec_env))
    return load_config(f, runs_dir=str(tmp_path / name))


def weights(model_zip: str | Path) -> dict[str, np.ndarray]:
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(model_zip, device="cpu")
    out = {k: v.numpy().copy() for k, v in model.policy.state_dict().items()}
    opt = model.policy.optimizer.state_dict()["state"]
    out.update({f"adam.{i}.{k}": v.numpy().copy() for i, st in opt.items() for k, v in st.items() if k != "step"})
    return out


def assert_same(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for k in a:
        np.testing.assert_array_equal(a[k], b[k], err_msg=k)


def history(summary: dict) -> list:
    """The league's checks without the run-dependent snapshot paths and CPU minutes."""
    league = json.loads(Path(summary["run_dir"], "league.json").read_text())
    return [(h["step"], h["candidate"], h["incumbent"], h["joined"],
             {k: v for k, v in h["extra"].items() if k != "cpu_minutes"}) for h in league["history"]]


def run_in_pieces(tmp_path: Path, n_envs: int, vec_env: str) -> None:
    from training.train import main

    whole = main(config(tmp_path, "whole", n_envs, vec_env))
    assert whole["steps"] == 128 and whole["resumed_exactly"] is None  # a fresh run was not resumed at all
    first = main(config(tmp_path, "first", n_envs, vec_env), until=64)
    assert first["steps"] == 64
    end_of_first = Path(first["run_dir"], "checkpoints", "step_64", "model.zip")
    second = main(config(tmp_path, "second", n_envs, vec_env), resume=str(end_of_first))
    assert second["resumed_exactly"] and second["steps"] == 128 and second["steps_this_run"] == 64
    assert_same(weights(whole["model"]), weights(second["model"]))
    assert history(whole) == history(second)

    periodic = Path(whole["run_dir"], "checkpoints", "step_64", "model.zip")
    assert periodic.with_name("resume.pkl").exists()
    third = main(config(tmp_path, "third", n_envs, vec_env), resume=str(periodic))
    assert third["resumed_exactly"]
    assert_same(weights(whole["model"]), weights(third["model"]))


def test_a_run_resumed_from_a_checkpoint_equals_the_run_in_one_go(tmp_path):
    run_in_pieces(tmp_path, 1, "dummy")


@pytest.mark.slow
def test_the_same_with_two_subprocess_workers(tmp_path):
    run_in_pieces(tmp_path, 2, "subproc")


def test_a_moved_run_folder_resumes_exactly_from_another_directory(tmp_path, monkeypatch):
    """league.json names its snapshots relative to its own folder: a run folder moved elsewhere, resumed
    from another working directory, still finds them, and the resume stays exact."""
    import shutil

    from training.train import main

    def cfg(name: str):
        f = tmp_path / f"{name}.toml"
        f.write_text(TINY.format(n_envs=1, vec_env="dummy").replace("check_every = 64",
                                                                    "check_every = 32\njoin_margin = -10.0"))
        return load_config(f, runs_dir=f"runs-{name}")  # relative to the working directory, as the CLI's runs/

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    monkeypatch.chdir(tmp_path / "a")
    whole = main(cfg("whole"))
    first = main(cfg("first"), until=64)
    league = json.loads(Path(first["run_dir"], "checkpoints", "step_64", "league.json").read_text())
    specs = [s["spec"] for s in league["snapshots"]]
    assert len(specs) == 2  # every candidate joins: the workers play snapshots after the resume
    assert all(s.startswith("policy:../../snapshots/step_") for s in specs), specs
    moved = shutil.move(str(tmp_path / "a" / first["run_dir"]), str(tmp_path / "elsewhere"))
    monkeypatch.chdir(tmp_path / "b")
    second = main(cfg("second"), resume=str(Path(moved, "checkpoints", "step_64", "model.zip")))
    assert second["resumed_exactly"] and second["steps"] == 128
    assert_same(weights(tmp_path / "a" / whole["model"]), weights(second["model"]))
    assert history({"run_dir": tmp_path / "a" / whole["run_dir"]}) == history(second)


def test_a_run_folder_moved_without_its_snapshots_is_a_clear_error(tmp_path):
    from engine.errors import ValidationError
    from training.league import League

    league = League(config(tmp_path, "x").league)
    league.consider("policy:" + str(tmp_path / "run" / "snapshots" / "step_64" / "model.zip"), 64,
                    lambda spec, seed, games, w: ([1.0 if spec != "caretaker" else -1.0] * games, [0.0] * games), 0, 1)
    ckpt = tmp_path / "run" / "checkpoints" / "step_64"
    ckpt.mkdir(parents=True)
    league.save(ckpt / "league.json")
    (ckpt / "model.zip").write_bytes(b"")
    from training.train import main

    with pytest.raises(ValidationError, match=r"names snapshots that are not there: step 64 at .*snapshots/step_64"):
        main(config(tmp_path, "y"), resume=str(ckpt / "model.zip"))


def test_a_resume_with_nothing_left_to_train_is_refused(tmp_path):
    """--steps (or --until) at or below the checkpoint's step used to train 0 steps into a new run directory."""
    from engine.errors import ValidationError
    from training.train import main

    first = main(config(tmp_path, "first"), until=64)
    ckpt = str(Path(first["run_dir"], "checkpoints", "step_64", "model.zip"))
    f = tmp_path / "first.toml"
    for steps in (32, 64):
        with pytest.raises(ValidationError, match=rf"steps: .*step_64/model.zip is at step 64 and total_timesteps is "
                                                  rf"{steps}: nothing to train; give --steps above 64"):
            main(load_config(f, runs_dir=str(tmp_path / "again"), total_timesteps=steps), resume=ckpt)
    with pytest.raises(ValidationError, match=r"until: .* is at step 64: --until 64 leaves nothing to train"):
        main(load_config(f, runs_dir=str(tmp_path / "again")), resume=ckpt, until=64)
    assert not (tmp_path / "again").exists()  # refused before a run directory is made
    Path(ckpt).with_name("state.json").unlink()  # without it, the count is read from the model itself
    with pytest.raises(ValidationError, match="nothing to train"):
        main(load_config(f, runs_dir=str(tmp_path / "again"), total_timesteps=64), resume=ckpt)


def test_without_the_resume_state_it_still_resumes_inexactly(tmp_path):
    from training.train import main

    first = main(config(tmp_path, "first"), until=64)
    ckpt = Path(first["run_dir"], "checkpoints", "step_64", "model.zip")
    ckpt.with_name("resume.pkl").unlink()
    with pytest.warns(UserWarning, match="inexactly"):
        again = main(config(tmp_path, "again"), resume=str(ckpt))
    assert again["steps"] == 128 and not again["resumed_exactly"]


class _OtherBuild:
    """Unpickles as a mypyc-compiled engine class does when the state came from the pure one (or back)."""

    def __init__(self):
        self.turn = 3

    def __setstate__(self, state):
        raise TypeError("__init__() missing required argument 'setup' (pos 1)")


def test_an_env_state_this_build_cannot_read_resumes_inexactly(tmp_path):
    import pickle

    from training.resume import FORMAT, load_state

    ckpt = tmp_path / "model.zip"
    good = pickle.dumps({"env": 1})
    bad = pickle.dumps(_OtherBuild())
    (tmp_path / "resume.pkl").write_bytes(pickle.dumps({"format": FORMAT, "envs": [good, good]}))
    assert load_state(ckpt, 2)[0] is not None
    (tmp_path / "resume.pkl").write_bytes(pickle.dumps({"format": FORMAT, "envs": [good, bad]}))
    state, why = load_state(ckpt, 2)
    assert state is None and "env 1's state" in why and "cannot be restored" in why and "restart" in why


def test_bad_resume_and_until_are_named(tmp_path):
    from engine.errors import ValidationError
    from training.train import main

    with pytest.raises(ValidationError, match="no checkpoint"):
        main(config(tmp_path, "x"), resume=str(tmp_path / "missing.zip"))
    with pytest.raises(ValidationError, match="until"):
        main(config(tmp_path, "y"), until=0)
