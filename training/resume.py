"""Exact resume of a training run: a run split across sessions trains the same network (issue 19 item 3).

``model.zip`` alone resumes the weights and the optimizer, but not where the run was: the env workers
would restart their games from the run seed, and the python, numpy and torch generators (PPO's
action sampling and minibatch shuffling, the league checks) would start over. So each resumable
checkpoint (``training.callbacks.ResumableCheckpoint``, written at a rollout boundary: after an
update, before the next rollout's first step) also writes ``resume.pkl`` beside ``model.zip``:

- every env worker's whole state (``ResumableMonitor.snapshot``: the Monitor's counters and the
  ``LeagueSeatEnv`` with its games in progress, planners, opponents and random streams), pickled;
- the global python, numpy and torch generator states, and named generators of callbacks (the
  league check's);
- ``model.zip`` keeps the last observations and episode starts (SB3 saves ``_last_obs``), which the
  resumed run keeps instead of resetting the envs (``MaskablePPO.load(..., force_reset=False)``).

``tests/training/test_resume.py`` trains a tiny run in one go and in two pieces and compares the
final weights bit for bit (mid-game starts on). A checkpoint without ``resume.pkl`` (older runs), or
with another ``n_envs``, still resumes as before: weights, optimizer and league, fresh games.
"""

from __future__ import annotations

import os
import pickle
import random
from pathlib import Path
from typing import Any

import numpy as np
from stable_baselines3.common.monitor import Monitor

RESUME_FILE = "resume.pkl"
FORMAT = 1


class ResumableMonitor(Monitor):
    """SB3's ``Monitor`` whose whole state (its episode counters and the wrapped env mid-episode) can be
    saved and put back through ``VecEnv.env_method("snapshot" / "restore")``."""

    def snapshot(self) -> bytes:
        state = {k: v for k, v in self.__dict__.items() if k not in ("env", "results_writer")}
        return pickle.dumps({"monitor": state, "env": self.env}, protocol=pickle.HIGHEST_PROTOCOL)

    def restore(self, blob: bytes) -> None:
        data = pickle.loads(blob)
        self.__dict__.update(data["monitor"])
        self.env = data["env"]


def save_state(path: Path, model: Any, rngs: dict[str, random.Random]) -> Path:
    """Write ``resume.pkl`` for ``model`` at a rollout boundary (atomically: a temporary file renamed)."""
    import torch

    state = {"format": FORMAT, "steps": int(model.num_timesteps),
             "envs": model.get_env().env_method("snapshot"),
             "python": random.getstate(), "numpy": np.random.get_state(), "torch": torch.get_rng_state(),
             "rngs": {name: r.getstate() for name, r in rngs.items()}}
    out = Path(path)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_bytes(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
    os.replace(tmp, out)
    return out


def load_state(checkpoint: str | Path, n_envs: int) -> tuple[dict[str, Any] | None, str]:
    """The ``resume.pkl`` beside a checkpoint's ``model.zip``, or None and why the resume is not exact."""
    f = Path(checkpoint).with_name(RESUME_FILE)
    if not f.exists():
        return None, f"no {RESUME_FILE} beside the checkpoint (an older run): games restart from the run seed"
    try:
        state = pickle.loads(f.read_bytes())
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError) as err:
        return None, f"{f} cannot be read ({err}): games restart from the run seed"
    if not isinstance(state, dict) or state.get("format") != FORMAT:
        return None, f"{f} is not a resume state of format {FORMAT}: games restart from the run seed"
    if len(state["envs"]) != n_envs:
        return None, f"the checkpoint ran {len(state['envs'])} envs, this run {n_envs}: games restart from the run seed"
    for i, blob in enumerate(state["envs"]):  # each env's state is unpickled in its worker: try it here first
        try:
            pickle.loads(blob)
        except (pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError) as err:
            return None, (f"env {i}'s state in {f} cannot be restored by this build ({type(err).__name__}: {err}); "
                          f"other code wrote it (another version, or the compiled build before session 10, whose "
                          f"classes did not unpickle): games restart from the run seed")
    return state, ""


def apply_state(state: dict[str, Any], vec_env: Any, rngs: dict[str, random.Random]) -> None:
    """Put the envs and generators back as ``save_state`` found them (after ``MaskablePPO.load``, which
    re-seeds the global generators)."""
    import torch

    for i, blob in enumerate(state["envs"]):
        vec_env.env_method("restore", blob, indices=[i])
    random.setstate(state["python"])
    np.random.set_state(state["numpy"])
    torch.set_rng_state(state["torch"])
    for name, r in rngs.items():
        if name in state["rngs"]:
            r.setstate(state["rngs"][name])
