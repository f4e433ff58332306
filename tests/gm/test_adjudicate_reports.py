"""What ``regent adjudicate`` tells the GM and each player about a step: the seats the rulebook default played
(in their own summaries), an orders step nobody gave orders in, and a DMs file run again as it grows."""

from __future__ import annotations

import json

import pytest

from service.cli import main

NAMES = ["Alice", "Bob", "Carol"]


@pytest.fixture()
def game_file(tmp_path):
    setup = {"board": "ring-3", "seed": 1,
             "players": [{"seat": f"Player#{i}", "name": n} for i, n in enumerate(NAMES, start=1)]}
    (tmp_path / "setup.json").write_text(json.dumps(setup), encoding="utf-8")
    path = tmp_path / "game.bin"
    assert main(["new", str(path), "--setup", str(tmp_path / "setup.json")]) == 0
    return path


def dms(tmp_path, text, name="dms.txt"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def run(capsys, *argv: str) -> str:
    capsys.readouterr()
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_a_seat_the_rulebook_default_played_is_told_so_in_its_own_summary_alone(game_file, tmp_path, capsys):
    # Bob never sends his bid nor his orders: the GM forces both steps; Alice and Carol send theirs
    run(capsys, "adjudicate", str(game_file), dms(tmp_path, "== Alice ==\nBid 5\n== Carol ==\nBid 3\n"), "--force")
    out = run(capsys, "adjudicate", str(game_file),
              dms(tmp_path, "== Alice ==\nFortify! P1\n== Carol ==\nnone\n"), "--force")
    assert "Rulebook defaults for: Player#2 (Bob)" in out  # the public line, as before
    bob = run(capsys, "report", str(game_file), "--private", "Bob").splitlines()
    assert bob[0] == "== Bob (Player#2): your summary, turn 1 =="
    # rules: 003 1. Protector Ranking (bid 0) and 003 3. Negotiation and Orders (Fortify!): each step named
    assert bob[1] == ("Your bid DM for turn 1 was not received: the rulebook default was played for you: Bid 0 "
                      "(003 1. Protector Ranking).")
    assert bob[2].startswith("Your orders DM for turn 1 was not received: the rulebook default was played for "
                             "you: Golden Fortify! P2 (003 3. Negotiation and Orders)")
    # secrecy: a seat's summary has only its own; Alice and Carol sent theirs, and are told nothing of Bob's
    for other in ("Alice", "Carol"):
        text = run(capsys, "report", str(game_file), "--private", other)
        assert "not received" not in text and "rulebook default" not in text


def test_an_orders_step_where_every_seat_sent_none_says_no_orders_were_given(game_file, tmp_path, capsys):
    run(capsys, "adjudicate", str(game_file), dms(tmp_path, "".join(f"== {n} ==\nBid 0\n" for n in NAMES)))
    # docs/dm-syntax.md: `none` is no orders at all (the units stay where they are), not the silent seat's Fortify!
    out = run(capsys, "adjudicate", str(game_file), dms(tmp_path, "".join(f"== {n} ==\nnone\n" for n in NAMES)))
    lines = out.splitlines()
    assert "== Turn 1 ==" in lines, out  # the step's report was empty
    at = lines.index("== Turn 1 ==")
    assert lines[at + 1] == "- No orders this turn: every player sent none, so every Army Unit stays where it is."
    assert lines[at + 2].startswith("Turn 1, consolidation step: waiting for")
    # one seat's order is the report's own line: the others' none is not called "no orders this turn"
    run(capsys, "adjudicate", str(game_file), "--force")
    out = run(capsys, "adjudicate", str(game_file),
              dms(tmp_path, "== Alice ==\nWork, work! P1\n== Bob ==\nnone\n== Carol ==\nnone\n"))
    assert "- Alice: Work, work! P1" in out and "No orders this turn" not in out
