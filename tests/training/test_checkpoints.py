"""The shipped-checkpoint registry (agents/checkpoints.py): names, levels, loading without training code."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from agents import checkpoints as ck
from engine.errors import ValidationError

ROOT = Path(__file__).parents[2]


def test_every_level_has_a_name_in_the_agent_table():
    assert set(ck.CHECKPOINT_AGENTS) == {"ppo", "ppo:easy", "ppo:normal", "ppo:hard"}
    assert ck.level("hard").temperature == 0.0
    assert ck.level("normal").temperature > 0
    easy, normal, hard = ck.level("easy"), ck.level("normal"), ck.level("hard")
    # easy is weaker than normal: an earlier snapshot, or the same network sampled hotter
    assert (easy.checkpoint, easy.model) != (hard.checkpoint, hard.model) or easy.temperature > normal.temperature


def test_unknown_level_is_named():
    with pytest.raises(ValidationError, match="unknown difficulty 'brutal'"):
        ck.make_ppo_agent("brutal")


def test_missing_checkpoint_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setattr(ck, "CHECKPOINTS_DIR", tmp_path)
    with pytest.raises(ValidationError, match="missing"):
        ck.make_ppo_agent("hard")


@pytest.mark.skipif(not ck.level("hard").path.exists(), reason="no shipped checkpoint in this checkout")
def test_shipped_levels_load_and_play_without_training_code():
    """Only agents + engine + torch + sb3: the training package is never imported."""
    code = (
        "import sys\n"
        "from agents.checkpoints import CHECKPOINT_AGENTS\n"
        "from agents.runner import play_game\n"
        "for name in ('ppo', 'ppo:easy', 'ppo:hard'):\n"
        "    agent = CHECKPOINT_AGENTS[name](1)\n"
        "    g = play_game({'board': 'ring-5', 'seed': 3, 'players': 5}, {'Player#2': agent})\n"
        "    assert g.over\n"
        "assert not any(m == 'training' or m.startswith('training.') for m in sys.modules), 'training imported'\n"
        "print('ok')\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "ok"


def test_importing_the_registry_does_not_import_torch():
    code = "import sys, agents.checkpoints; print('torch' in sys.modules)"
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip() == "False", proc.stderr
