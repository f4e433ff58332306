"""docs/training.md, "A checkpoint in plain SB3": the snippet runs as written (load v5, play a game, evaluate),
with no warning from SB3 (the evaluation env is wrapped in a Monitor, as SB3 asks)."""

from __future__ import annotations

import contextlib
import io
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).parents[2]


def snippet() -> str:
    doc = (ROOT / "docs" / "training.md").read_text(encoding="utf-8")
    section = doc[doc.index("## A checkpoint in plain SB3"):]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def test_the_plain_sb3_snippet_plays_v5(monkeypatch):
    monkeypatch.chdir(ROOT)  # the snippet names the checkpoint from the repository root
    names: dict = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)  # SB3's "not wrapped with a Monitor" among them
        exec(compile(snippet(), "docs/training.md", "exec"), names)
    env, model, info = names["env"], names["model"], names["info"]
    assert names["done"] and info["result"] is not None  # a whole game was played
    assert out.getvalue().split()[0] == info["seat"]
    assert -1.0 <= names["mean"] <= 1.0
    # the policy's action is always legal under the mask it was given
    obs, info = env.reset(seed=1)
    for _ in range(20):
        action, _ = model.predict(obs, action_masks=info["action_mask"], deterministic=True)
        assert info["action_mask"][int(action)]
        obs, _, term, trunc, info = env.step(action)
        assert "illegal_action" not in info
        if term or trunc:
            break
    assert model.observation_space.shape == env.observation_space.shape
    assert np.array_equal(info["action_mask"], env.unwrapped.action_masks())
