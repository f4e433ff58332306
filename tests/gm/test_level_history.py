"""Who played each turn, as the GM chose it then: a seat given ``normal`` (heuristic) in turn 1, back to its player in
turn 2 and given ``heuristic`` by name in turn 3 is named ``normal -> heuristic`` in turn 1's report and ``heuristic``
in turn 3's (the game file's ``ai_history``); the seat's level now names only what it plays now. A file written before
the history was kept names its turns as it did."""

from __future__ import annotations

import msgpack
import pytest

from engine.errors import ValidationError
from service import gamefile
from service.cli import main
from service.render.summary import summary_data
from tests.gm.files import new_game

NAMES = ["Alice", "Bob", "Carol", "Dan", "Eve"]


def run(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0, capsys.readouterr().err
    return capsys.readouterr().out


def force_to(capsys, path, turn: int) -> None:
    """``regent adjudicate --force`` until the game is at ``turn``."""
    while gamefile.read(path).game.state.turn < turn:
        run(capsys, "adjudicate", str(path), "--force")


@pytest.fixture()
def handed(tmp_path, capsys):
    """Bob: ``normal`` in turn 1's first step, his player's from there, ``heuristic`` by name in turn 3's first step."""
    path = new_game(tmp_path, NAMES, "ring-5", 3)
    run(capsys, "seat", str(path), "Bob", "normal")
    run(capsys, "adjudicate", str(path), "--force")
    run(capsys, "seat", str(path), "Bob", "human")
    force_to(capsys, path, 3)
    run(capsys, "seat", str(path), "Bob", "heuristic")
    out = run(capsys, "adjudicate", str(path), "--force")
    return path, out


def test_each_turns_report_names_the_level_of_that_turn(handed, capsys):
    path, out = handed
    assert "Played by AI: Bob (heuristic)" in out  # the step just resolved
    gf = gamefile.read(path)
    assert gf.ai_levels == {} and gf.label("Player#2") == "heuristic"  # now: the agent by its own name
    assert gf.ai_history["Player#2"] == [[1, "heuristic", "normal"], [3, "heuristic", None]]
    assert "Played by AI: Bob (normal -> heuristic)" in run(capsys, "report", str(path), "--turn", "1")
    assert "Played by AI" not in run(capsys, "report", str(path), "--turn", "2")  # his player's turn
    assert "Played by AI: Bob (heuristic)" in run(capsys, "report", str(path), "--turn", "3")


def test_the_summary_names_every_level_a_seat_was_played_by(handed, tmp_path, capsys, monkeypatch):
    path, _ = handed
    drawn = {}

    def render_summary(game, seat, ai_seats, fmt="png", view=None):
        drawn["rows"] = {r.seat: r.player for r in summary_data(game, seat, ai_seats).rows}
        return b"png"

    monkeypatch.setattr("service.render.render_summary", render_summary)
    run(capsys, "render", str(path), "--summary", "-o", str(tmp_path / "summary.png"))
    # the same agent named bare later is named once, by its level (service.ai.agent_labels)
    assert drawn["rows"]["Player#2"] == "normal -> heuristic"


def test_a_file_without_the_history_names_its_turns_as_before(handed, capsys):
    path, _ = handed
    data = msgpack.unpackb(path.read_bytes(), raw=False)
    del data["ai_history"]
    data["ai_levels"] = {"Player#2": {"heuristic": "normal"}}
    path.write_bytes(msgpack.packb(data, use_bin_type=True))
    old = gamefile.read(path)
    assert old.ai_history == {}
    assert old.ai_named({1}) == {"Player#2": ["normal -> heuristic"]} and old.ai_named({2}) == {}
    assert "Played by AI: Bob (normal -> heuristic)" in run(capsys, "report", str(path), "--turn", "3")


def test_a_bad_history_is_a_clear_error(tmp_path):
    data = msgpack.unpackb(new_game(tmp_path, NAMES, "ring-5", 3).read_bytes(), raw=False)
    for bad, why in (({"Player#2": [[1, "heuristic"]]}, "ai_history must be a map seat -> list of"),
                     ({"Player#2": [["1", "heuristic", None]]}, "ai_history must be a map"),
                     ({"Player#9": [[1, "heuristic", "normal"]]}, "ai_history: unknown seat 'Player#9'")):
        with pytest.raises(ValidationError, match=why):
            gamefile.loads(msgpack.packb({**data, "ai_history": bad}, use_bin_type=True))


def test_since_last_over_several_turns_names_each_turns_ai_under_that_turn(handed, capsys):
    # regent report --since-last over turns 1 to 3 put one Played by AI line after turn 3's header, naming Bob's
    # turn-1 AI as if it had played turn 3 too; the service's game.report (since) ends each turn's part with its own
    # line (service.posting.under_turn), and so does the CLI now
    path, _ = handed
    gf = gamefile.read(path)
    gf.posted = 0  # nothing posted yet: the whole game is new
    gamefile.write(path, gf, backup=False)
    rows = run(capsys, "report", str(path), "--since-last", "--dry-run").splitlines()
    heads = [i for i, row in enumerate(rows) if row.startswith("== Turn ")]
    played = [i for i, row in enumerate(rows) if row.startswith("Played by AI")]
    assert [rows[i] for i in heads] == ["== Turn 1 ==", "== Turn 2 ==", "== Turn 3 =="]
    assert [rows[i] for i in played] == ["Played by AI: Bob (normal -> heuristic)", "Played by AI: Bob (heuristic)"]
    assert heads[0] < played[0] < heads[1] and heads[2] < played[1]  # turn 1's under turn 1, none under turn 2
