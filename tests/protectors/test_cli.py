"""``regent play``, ``regent new`` and ``regent adjudicate`` as a GM uses them."""

from __future__ import annotations

import json

from engine.protectors.game import Game
from service import gamefile
from service.cli import main


def test_play_prints_each_turn_and_the_result(capsys):
    assert main(["play", "--board", "ring-5", "--seats", "caretaker,random", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "== Turn 1 ==" in out and "Calms of Summer" in out and "Result:" in out


def test_play_json_results(capsys):
    assert main(["play", "--board", "ring-5", "--games", "3", "--json", "--seed", "7"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["seed"] for r in rows] == [7, 8, 9] and all(r["how"] for r in rows)


def test_new_then_adjudicate_resolves_one_phase(tmp_path, capsys):
    game_file, dms = tmp_path / "game.bin", tmp_path / "dms.txt"
    assert main(["new", str(game_file), "--board", "ring-5", "--seed", "3"]) == 0
    dms.write_text("== Player#1 ==\nBid 10\n== Player#2 ==\nBid 5\n", encoding="utf-8")
    assert main(["adjudicate", str(game_file), str(dms), "--force"]) == 0
    game = Game.from_blob(game_file.read_bytes())
    assert game.step == "orders" and game.state.ranking[:2] == ["Player#1", "Player#2"]
    assert "Player#1: stored: Bid 10" in capsys.readouterr().out


def test_a_rejected_dm_changes_nothing(tmp_path, capsys):
    game_file, dms = tmp_path / "game.bin", tmp_path / "dms.txt"
    main(["new", str(game_file), "--board", "ring-5", "--seed", "3"])
    before = gamefile.read(game_file)
    dms.write_text("== Player#1 ==\nBid 999\n", encoding="utf-8")
    assert main(["adjudicate", str(game_file), str(dms), "--force"]) == 2
    after = gamefile.read(game_file)
    assert after.game.actions == before.game.actions and after.dms_read == before.dms_read  # the game as it was
    assert list(after.refused) == ["Player#1"]  # only the refusal is kept: it holds the step (docs/gm-guide.md)
    assert "rejected" in capsys.readouterr().err
