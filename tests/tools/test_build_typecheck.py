"""``tools/build_fast.py --typecheck``: mypy's check and mypyc's translation to C with the build's flags, run by
``make test`` before pytest, so what would fail the mypyc build shows up in seconds rather than after the whole
test run."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def build_fast():
    spec = importlib.util.spec_from_file_location("build_fast", ROOT / "tools" / "build_fast.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_fast"] = module  # its dataclasses look their module up while being made
    spec.loader.exec_module(module)
    return module


def test_a_reused_loop_variable_of_another_type_fails_the_check(tmp_path, capsys):
    """The mistake that broke the build twice in session 25: a loop variable reused with another tuple type."""
    pytest.importorskip("mypy")
    bf = build_fast()
    bad = tmp_path / "bad.py"
    bad.write_text("def f(a: list[tuple[int, str]], b: list[tuple[str, str, str]]) -> None:\n"
                   "    for x in a:\n        print(x)\n    for x in b:\n        print(x)\n")
    assert bf.typecheck([bad]) != 0
    assert "bad.py:4" in capsys.readouterr().out  # mypy's report, shown because the check failed
    good = tmp_path / "good.py"
    good.write_text("def f(a: list[tuple[int, str]]) -> None:\n    for x in a:\n        print(x)\n")
    assert bf.typecheck([good]) == 0


def test_what_mypy_takes_but_mypyc_cannot_translate_fails_the_check(tmp_path, capsys):
    """Session 26: ``x in (*a, *b)`` passes mypy and crashed the mypyc build (an internal mypyc error)."""
    pytest.importorskip("mypyc")
    bf = build_fast()
    bad = tmp_path / "starred.py"
    bad.write_text("A = ('a', 'b')\nB = ('c',)\n\n\ndef f(x: str) -> bool:\n    return x in (*A, *B)\n")
    assert bf.typecheck([bad]) != 0
    shown = capsys.readouterr()
    assert "starred.py:6" in shown.out + shown.err  # mypyc's report names the line


def test_the_check_covers_what_the_build_compiles_with_its_flags():
    bf = build_fast()
    files = {p.relative_to(ROOT).as_posix() for p in bf.modules()}
    assert "engine/protectors/state.py" in files and "agents/spaces/encoding.py" in files
    assert "engine/protectors/views.py" in files  # compiled since session 31
    assert "engine/protectors/__init__.py" not in files  # the build skips it (its stale check), so the check does too
    assert "--follow-imports=silent" in bf.MYPY_FLAGS


def test_help_says_the_whole_first_sentence(capsys):
    """``--help`` showed the docstring's first line, cut mid-sentence ('... and the observation')."""
    with pytest.raises(SystemExit):
        build_fast().main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "and the observation encoder and action planners the envs step through (agents/spaces/) with mypyc." in text
