"""The README's examples run: every ``python`` block, and the quick tour's cheap ``regent`` commands
(new, adjudicate, seat, render) in order, in a scratch directory, exactly as written."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from service.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
# Commands quick to run that only read and write files (serve, play, train... are tested elsewhere).
CHEAP = ("new", "adjudicate", "seat", "render")


def blocks(lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", README, flags=re.S | re.M)


def tour_commands() -> list[list[str]]:
    out = []
    for block in blocks("sh"):
        for line in block.splitlines():
            command = re.split(r"\s+#\s", line, maxsplit=1)[0].strip()  # drop the comment, keep Player#5
            words = shlex.split(command)
            if len(words) > 1 and words[0] == "regent" and words[1] in CHEAP:
                out.append(words[1:])
    return out


@pytest.fixture()
def scratch(tmp_path, monkeypatch):
    (tmp_path / "examples").symlink_to(ROOT / "examples")  # the README's paths are relative to the repo
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_readme_has_what_this_test_runs():
    assert blocks("python"), "the README lost its Python example"
    assert [c[0] for c in tour_commands()][:2] == ["new", "adjudicate"], "the quick tour lost regent new"


@pytest.mark.parametrize("code", blocks("python"), ids=lambda c: c.splitlines()[1][:40])
def test_python_blocks_run(code, scratch, capsys):
    exec(compile(code, "README.md", "exec"), {"__name__": "readme"})  # the README's own code
    assert capsys.readouterr().out.strip(), "the example prints what a GM posts"


def test_quick_tour_game_file_commands_run_in_order(scratch, capsys):
    for args in tour_commands():
        for word in args:
            if word.startswith("examples/"):
                assert (ROOT / word).is_file(), f"the README names {word}, which does not exist"
        code = main(args)
        captured = capsys.readouterr()
        assert code == 0, f"regent {' '.join(args)} failed: {captured.err}"
        assert "Traceback" not in captured.err
    assert (scratch / "game.bin").is_file() and (scratch / "board.png").read_bytes()[:4] == b"\x89PNG"
