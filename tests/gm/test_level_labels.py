"""An AI seat's agent named as the GM chose it: ``regent seat g Bob steward`` stores ``steward-search`` (what replays)
and the level beside it (the game file's ``ai_levels``), so the reports, the seat listings and the summary picture say
``steward -> steward-search``; an agent's own name is named alone, and a file written before names the agent alone."""

from __future__ import annotations

import json

import msgpack
import pytest

from engine.errors import ValidationError
from service import gamefile
from service.cli import main
from service.render.summary import summary_data
from tests.gm.files import new_game

NAMES = ["Alice", "Bob", "Carol", "Dan", "Eve"]


@pytest.fixture()
def game_file(tmp_path):
    return new_game(tmp_path, NAMES, "ring-5", 3)


def run(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0, capsys.readouterr().err
    return capsys.readouterr().out


def test_a_level_is_named_level_arrow_agent(game_file, capsys):
    capsys.readouterr()
    out = run(capsys, "seat", str(game_file), "Bob", "steward")
    assert "Player#2 (Bob): AI steward -> steward-search" in out
    gf = gamefile.read(game_file)
    assert gf.agents == {"Player#2": "steward-search"}  # the agent stays what the file stores and replays
    assert gf.ai_levels == {"Player#2": {"steward-search": "steward"}}
    assert "Player#2 (Bob): AI steward -> steward-search" in run(capsys, "seat", str(game_file))
    out = run(capsys, "adjudicate", str(game_file), "--force")
    assert "Played by AI: Bob (steward -> steward-search)" in out
    assert "[AI steward -> steward-search]" in out or "[steward -> steward-search]" in out
    assert "Played by AI: Bob (steward -> steward-search)" in run(capsys, "report", str(game_file), "--turn", "1")


def test_an_agent_name_is_named_alone_and_every_agent_of_the_turn_is_named(game_file, capsys):
    run(capsys, "seat", str(game_file), "Bob", "heuristic")
    run(capsys, "seat", str(game_file), "Carol", "Normal")  # capitalised by a phone
    run(capsys, "adjudicate", str(game_file), "--force")  # the bid step
    run(capsys, "seat", str(game_file), "Carol", "steward")  # handed to another level mid-turn
    while "steward-search" not in gamefile.read(game_file).ai_played["Player#3"]:  # the orders step at the latest
        run(capsys, "adjudicate", str(game_file), "--force")
    assert gamefile.read(game_file).game.state.turn == 1
    report = run(capsys, "report", str(game_file), "--turn", "1")
    assert "Played by AI: Bob (heuristic), Carol (normal -> heuristic, steward -> steward-search)" in report


def test_an_agent_given_by_its_name_since_drops_the_level(game_file, capsys):
    run(capsys, "seat", str(game_file), "Bob", "normal")
    run(capsys, "seat", str(game_file), "Bob", "heuristic")
    gf = gamefile.read(game_file)
    assert gf.ai_levels == {} and gf.label("Player#2") == "heuristic"


def test_export_position_and_new_keep_the_label(game_file, tmp_path, capsys):
    run(capsys, "seat", str(game_file), "Bob", "steward")
    run(capsys, "adjudicate", str(game_file), "--force")
    setup = tmp_path / "exported.json"
    run(capsys, "export-position", str(game_file), "-o", str(setup))
    data = json.loads(setup.read_text())
    assert data["agents"]["Player#2"] == "steward-search"
    assert data["ai_levels"] == {"Player#2": {"steward-search": "steward"}}
    out = run(capsys, "new", str(tmp_path / "g2.bin"), "--setup", str(setup))
    assert "AI seats: Player#2 (Bob): steward -> steward-search" in out
    assert gamefile.read(tmp_path / "g2.bin").ai_levels == {"Player#2": {"steward-search": "steward"}}


def test_a_setups_agents_given_by_level_are_labelled(tmp_path, capsys):
    path = new_game(tmp_path, NAMES, "ring-5", 3, agents={1: "expert", 2: "heuristic"})
    gf = gamefile.read(path)
    assert gf.agents == {"Player#2": "search", "Player#3": "heuristic"}
    assert gf.ai_levels == {"Player#2": {"search": "expert"}}
    assert "Player#2 (Bob): AI expert -> search" in run(capsys, "seat", str(path))


def test_a_file_without_levels_reads_as_before(game_file, capsys):
    gf = gamefile.read(game_file)
    gf.agents["Player#2"] = "steward-search"
    gf.note_ai("Player#2", "steward-search", 1)
    blob = gamefile.dumps(gf)
    assert "ai_levels" not in msgpack.unpackb(blob, raw=False)  # nothing to say: the key is left out, as before
    old = gamefile.loads(blob)
    assert old.ai_levels == {} and old.label("Player#2") == "steward-search"
    assert gamefile.played_by_ai(old.game, old.ai_named({1})) == "Played by AI: Bob (steward-search)"
    game_file.write_bytes(blob)
    assert "Played by AI: Bob (steward-search)" in run(capsys, "report", str(game_file), "--turn", "1")


def test_a_bad_levels_map_is_a_clear_error(game_file):
    data = msgpack.unpackb(game_file.read_bytes(), raw=False)
    for bad, why in (({"Player#2": "steward"}, "ai_levels must be a map seat -> {agent: level}"),
                     ({"Player#2": {"steward-search": 3}}, "ai_levels must be a map"),
                     ({"Player#9": {"steward-search": "steward"}}, "ai_levels: unknown seat 'Player#9'")):
        with pytest.raises(ValidationError, match=why):
            gamefile.loads(msgpack.packb({**data, "ai_levels": bad}, use_bin_type=True))


def test_the_summary_pictures_played_by_column(game_file, tmp_path, capsys, monkeypatch):
    run(capsys, "seat", str(game_file), "Bob", "steward")
    run(capsys, "seat", str(game_file), "Carol", "heuristic")
    run(capsys, "adjudicate", str(game_file), "--force")
    drawn = {}

    def render_summary(game, seat, ai_seats, fmt="png", view=None):
        drawn["rows"] = {r.seat: r.player for r in summary_data(game, seat, ai_seats).rows}
        return b"png"

    monkeypatch.setattr("service.render.render_summary", render_summary)
    run(capsys, "render", str(game_file), "--summary", "-o", str(tmp_path / "summary.png"))
    assert drawn["rows"]["Player#2"] == "steward -> steward-search"
    assert drawn["rows"]["Player#3"] == "heuristic" and drawn["rows"]["Player#1"] == "human"


def test_a_dm_stored_for_an_ai_seat_names_its_ai_as_the_gm_chose_it(game_file, tmp_path, capsys):
    # adjudicate's warning named the bare agent ('is an AI seat (steward-search)'), a name the GM never typed
    from tests.gm.files import dms

    run(capsys, "seat", str(game_file), "Eve", "steward")
    out = run(capsys, "adjudicate", str(game_file), dms(tmp_path, "== Eve ==\nBid 7\n"))
    assert "Player#5 (Eve): stored: Bid 7" in out
    assert "Player#5 (Eve) is an AI seat (steward -> steward-search): this DM was stored as its decision" in out


def test_a_refused_dm_superseded_by_the_ai_names_the_ai_as_the_gm_chose_it(game_file, tmp_path, capsys):
    # 'superseded by the decision of its AI (steward-search)': the agent, where the AI's own line said the label
    from tests.gm.files import dms

    path = dms(tmp_path, "== Alice ==\nBid 999\n== Bob ==\nBid 5\n== Carol ==\nBid 3\n== Dan ==\nBid 4\n"
                         "== Eve ==\nBid 2\n")
    assert main(["adjudicate", str(game_file), path]) == 2
    run(capsys, "seat", str(game_file), "Alice", "steward")  # she went silent: an AI takes her seat
    out = run(capsys, "adjudicate", str(game_file), path)
    assert "AI Player#1 (Alice) [steward -> steward-search], bid:" in out
    assert "Player#1 (Alice): rejected (DM at line 1)" in out
    assert "superseded by the decision of its AI (steward -> steward-search)" in out


def test_seats_played_by_the_same_ai_are_named_with_it_once():
    # 16 seats filled by one level: 'Played by AI: Ann (normal -> heuristic), Ben (normal -> heuristic), ...' said the
    # level thirteen times (560 characters of a 2,000-character Discord message, on every step's report)
    from engine.protectors.game import Game

    names = [f"N{i}" for i in range(1, 17)]
    game = Game({"board": "ring-16-grand", "seed": 1, "players": [{"name": n} for n in names]})
    told = {f"Player#{i}": "normal -> heuristic" for i in range(1, 17)}
    told |= {"Player#2": "heuristic", "Player#5": ["hard -> strong", "normal -> heuristic"]}
    line = gamefile.played_by_ai(game, told)
    rest = [n for n in names if n not in ("N2", "N5")]
    assert line == ("Played by AI: " + ", ".join(rest[:-1]) + f" and {rest[-1]} (normal -> heuristic), N2 (heuristic), "
                    "N5 (hard -> strong, normal -> heuristic)")
    assert line.count("normal -> heuristic") == 2 and len(line) < 200
    assert gamefile.played_by_ai(game, {"Player#2": "heuristic"}) == "Played by AI: N2 (heuristic)"
