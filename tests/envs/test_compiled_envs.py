"""The optional mypyc build of the envs' hot modules (the encoder and planners of ``agents.spaces``;
tools/build_fast.py) steps exactly like their source.

When they are compiled, seat env and parallel env runs (random masked actions; factions, the
Island, grand boards, every opponent kind, forced choices shown or skipped) are hashed here —
observations, masks, rewards, infos — and again in a child process made to import engine.protectors
and agents.spaces from their ``.py`` sources; the digests must be equal. Without the build the comparison is
skipped; the source-only import it relies on and the stale-build warning are checked either way.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import json
import os
import sys
import warnings
from pathlib import Path

import pytest

import agents.spaces as spaces_pkg
import engine.protectors as engine_pkg
from tests.compiled_support import loaded_compiled, run_from_source

ROOT = Path(__file__).resolve().parents[2]
SOURCE_DIRS = sorted(str(Path(p.__path__[0]).resolve()) for p in (engine_pkg, spaces_pkg))

_STEP = """
import hashlib, json, random
import numpy as np
from envs.parallel_env import ProtectorsParallelEnv
from envs.seat_env import ProtectorsSeatEnv

CONFIGS = (
    dict(opponents=("caretaker",)),
    dict(players=5, factions=True, island=True, opponents=("random", "heuristic", "caretaker"), skip_forced=False),
    dict(players=4, version="grand", factions=True, opponents=("heuristic",), reward_shaping=1.0,
         silent_turn_prob=0.2),
)

def _pick(mask, rng):
    return int(rng.choice(np.flatnonzero(mask)))

def _info(info):
    return json.dumps({k: v for k, v in info.items() if k != "action_mask"}, sort_keys=True, default=str)

def digest(steps):
    h = hashlib.sha256()
    for cfg in CONFIGS:
        env, rng = ProtectorsSeatEnv(**cfg), random.Random(1)
        obs, info = env.reset(seed=0)
        ep = 0
        for _ in range(steps):
            h.update(obs.tobytes()); h.update(info["action_mask"].tobytes()); h.update(_info(info).encode())
            obs, r, term, trunc, info = env.step(_pick(info["action_mask"], rng))
            h.update(repr((r, term, trunc)).encode())
            if term or trunc:
                ep += 1
                obs, info = env.reset(seed=ep)
    env, rng = ProtectorsParallelEnv(players=5, factions=True, island=True), random.Random(2)
    obs, _ = env.reset(seed=0)
    for ep in range(1, steps // 10):
        if not env.agents:
            obs, _ = env.reset(seed=ep)
        for a in sorted(obs):
            h.update(a.encode()); h.update(obs[a]["observation"].tobytes()); h.update(obs[a]["action_mask"].tobytes())
        obs, rew, term, trunc, _ = env.step({a: _pick(obs[a]["action_mask"], rng) for a in env.agents})
        h.update(json.dumps([rew, term, trunc], sort_keys=True).encode())
    return h.hexdigest()
"""

STEPS = 600
SPACES_MODULES = ("encoding", "layout", "planner", "planner_base", "planner_orders", "planner_phases")


def compiled_spaces_modules() -> list[str]:
    """agents.spaces modules loaded from a C extension in this process."""
    return loaded_compiled("agents.spaces", SPACES_MODULES)


def _child(code: str) -> str:
    return run_from_source(SOURCE_DIRS, code)


def test_the_child_imports_the_spaces_and_the_engine_from_source():
    report = _child(
        "import importlib, json\n"
        f"names = ['agents.spaces.' + n for n in {SPACES_MODULES!r}]\n"
        "names += ['engine.protectors.game', 'engine.protectors.state']\n"
        "print(json.dumps([importlib.import_module(n).__file__ for n in names]))\n"
    )
    files = json.loads(report)
    assert len(files) == len(SPACES_MODULES) + 2 and all(f.endswith(".py") for f in files)


@pytest.mark.skipif(not compiled_spaces_modules(), reason="agents.spaces not compiled (python tools/build_fast.py)")
def test_compiled_envs_step_exactly_like_the_source():
    assert set(compiled_spaces_modules()) == set(SPACES_MODULES)
    ns: dict = {}
    exec(_STEP, ns)
    here = ns["digest"](STEPS)
    pure = _child(_STEP + f"print(digest({STEPS}))\n")
    assert here == pure


def test_build_fast_compiles_exactly_these_spaces_modules():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        build_fast = importlib.import_module("build_fast")
    finally:
        sys.path.remove(str(ROOT / "tools"))
    spaces_pkg_spec = next(p for p in build_fast.PACKAGES if p.key == "spaces")
    assert sorted(p.stem for p in spaces_pkg_spec.modules()) == sorted(SPACES_MODULES)
    assert all(p.is_file() for p in build_fast.modules())


def test_a_stale_compiled_spaces_module_warns_with_its_name(tmp_path):
    for name, age in (("encoding.py", 10), ("encoding.cpython-311-x86_64-linux-gnu.so", 20),  # source newer
                      ("layout.py", 30), ("layout.cpython-311-x86_64-linux-gnu.so", 20),  # build newer
                      ("seat_env.py", 10)):  # never compiled
        f = tmp_path / name
        f.write_text("")
        os.utime(f, (1_000_000 - age, 1_000_000 - age))
    with pytest.warns(RuntimeWarning, match=r"compiled agents.spaces modules older than their source .*: encoding;"):
        assert engine_pkg.warn_stale(str(tmp_path), "agents.spaces") == ["encoding"]
    os.utime(tmp_path / "encoding.py", (1_000_000 - 30, 1_000_000 - 30))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert engine_pkg.warn_stale(str(tmp_path), "agents.spaces") == []
