"""The real entry point, with tiny numbers, in a subprocess: it trains and writes a loadable checkpoint.

No strength is asserted here (that is the model card's job, measured by ``regent eval``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).parents[2]
SMOKE = ROOT / "training" / "configs" / "smoke.toml"


def run_train(tmp_path: Path, *extra: str) -> dict:
    cmd = [sys.executable, "-c", "from service.cli import main; raise SystemExit(main())", "train",
           "--config", str(SMOKE), "--runs-dir", str(tmp_path / "runs"), "--no-progress", *extra]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout[proc.stdout.index("{"):])


def test_regent_train_writes_a_loadable_checkpoint_and_resumes(tmp_path):
    from sb3_contrib import MaskablePPO

    import envs  # noqa: F401
    from envs.seat_env import ProtectorsSeatEnv

    out = run_train(tmp_path, "--save-dir", str(tmp_path / "ship"))
    assert out["steps"] >= 256
    run_dir = Path(out["run_dir"])
    for name in ("model.zip", "config.toml", "league.json", "summary.json", "progress.csv"):
        assert (run_dir / name).exists(), name
    assert (tmp_path / "ship" / "model.zip").exists()
    league = json.loads((run_dir / "league.json").read_text())
    assert league["history"], "the league checked at least one candidate"
    assert {"win_vs_caretaker", "win_vs_heuristic"} <= set(league["history"][0]["extra"])

    model = MaskablePPO.load(tmp_path / "ship" / "model.zip", device="cpu")
    env = ProtectorsSeatEnv(players=3)
    obs, _info = env.reset(seed=0)
    action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
    assert env.action_masks()[int(action)], "the loaded policy respects the mask"

    ckpts = sorted((run_dir / "checkpoints").glob("step_*/model.zip"))
    assert ckpts, "a resumable checkpoint was written"
    again = run_train(tmp_path, "--resume", str(ckpts[0]), "--steps", "384")
    assert again["steps"] >= 384
    assert again["steps_this_run"] < again["steps"], "resuming continues the step count"
    before = json.loads((ckpts[0].parent / "state.json").read_text())
    assert again["wall_seconds"] > before["wall_seconds"], "time is counted from scratch across a resume"


def test_same_seed_same_first_update(tmp_path):
    """Deterministic for a seed (as far as torch allows): two runs give the same weights."""
    from sb3_contrib import MaskablePPO

    a = run_train(tmp_path / "a", "--steps", "128", "--n-envs", "1")
    b = run_train(tmp_path / "b", "--steps", "128", "--n-envs", "1")
    pa = MaskablePPO.load(a["model"], device="cpu").policy.state_dict()
    pb = MaskablePPO.load(b["model"], device="cpu").policy.state_dict()
    for k in pa:
        np.testing.assert_array_equal(pa[k].numpy(), pb[k].numpy(), err_msg=k)
