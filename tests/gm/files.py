"""The files a GM's CLI tests start from: a game file made by ``regent new`` from a setup of named seats, and a
DMs file as the GM pastes it."""

from __future__ import annotations

import json
from pathlib import Path

from service.cli import main


def new_game(tmp_path: Path, names: list[str], board: str, seed: int, agents: dict[int, str] | None = None) -> Path:
    """``game.bin`` made by ``regent new`` from ``setup.json`` (both in ``tmp_path``): seat i is ``names[i - 1]``,
    ``agents`` puts an AI in a seat (by its 0-based index) from the start."""
    setup = {"board": board, "seed": seed,
             "players": [{"seat": f"Player#{i}", "name": n} for i, n in enumerate(names, start=1)]}
    for i, agent in (agents or {}).items():
        setup["players"][i]["agent"] = agent
    (tmp_path / "setup.json").write_text(json.dumps(setup), encoding="utf-8")
    path = tmp_path / "game.bin"
    assert main(["new", str(path), "--setup", str(tmp_path / "setup.json")]) == 0
    return path


def dms(tmp_path: Path, text: str, name: str = "dms.txt") -> str:
    """A DMs file holding ``text``."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)
