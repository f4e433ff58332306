"""service/gamefile.py: one game file for the CLI and the service, and every older file still loads."""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import ValidationError
from engine.protectors.game import Game
from service import gamefile
from service.gamefile import GameFile
from service.hosting import HostedGame

SETUP = {"board": "ring-5", "seed": 4, "players": [
    {"seat": f"Player#{i}", "name": n} for i, n in enumerate(["Alice", "Bob", "Carol", "Dan", "Eve"], start=1)]}


def played_game() -> Game:
    game = Game(SETUP)
    game.submit("Player#1", "Bid 10")
    game.advance(force=True)
    game.submit("Player#2", "Fortify! P2")
    return game


def test_round_trip_keeps_the_game_and_the_gm_keys():
    gf = GameFile(played_game(), agents={"Player#5": "heuristic"}, ai_played={"Player#5": ["heuristic"]},
                  ai_turns={"Player#5": [1, 2]}, deadlines={"orders": 60.0}, step_started=1000.0,
                  step_ai={"Player#5": "heuristic"}, posted=7, service={"auto_advance": False})
    back = gamefile.loads(gamefile.dumps(gf))
    assert back.game.actions == gf.game.actions and back.game.view(None) == gf.game.view(None)
    assert (back.agents, back.ai_played, back.ai_turns, back.deadlines, back.step_started, back.step_ai, back.posted,
            back.service) == (gf.agents, gf.ai_played, gf.ai_turns, gf.deadlines, gf.step_started, gf.step_ai,
                              gf.posted, gf.service)
    assert back.deadline() == 1060.0  # the orders step started at 1000 with a 60 s window
    # the engine reads the same bytes directly: a game file is an engine blob with keys beside it
    assert Game.from_blob(gamefile.dumps(gf)).actions == gf.game.actions


def test_an_old_engine_blob_loads_with_no_ai_seats():
    game = played_game()
    gf = gamefile.loads(game.to_blob())
    assert gf.game.actions == game.actions and gf.agents == {} and gf.deadline() is None


def test_the_old_service_export_loads_with_its_ai_seats():
    game = played_game()
    old = msgpack.packb({"kind": "regent-service-game", "v": 1, "game_id": "g-1", "engine": game.to_blob(),
                         "service": {"controllers": {"Player#1": None, "Player#3": "caretaker"},
                                     "ai_played": {"Player#3": ["caretaker"]}, "deadlines": {"orders": 5},
                                     "auto_advance": True, "by": ["gm"]}}, use_bin_type=True)
    gf = gamefile.loads(old)
    assert gf.agents == {"Player#3": "caretaker"} and gf.ai_played == {"Player#3": ["caretaker"]}
    assert gf.deadlines == {"orders": 5.0} and gf.service["game_id"] == "g-1"
    assert gf.game.view(None) == game.view(None)


def test_service_export_and_import_use_the_game_file():
    hosted, _, _ = HostedGame.create("g-x", {**SETUP, "players": [dict(p) for p in SETUP["players"]],
                                             "agents": {"Player#4": "caretaker"}}, None)
    hosted.submit(None, "Player#1", "Bid 12", "gm")
    blob = hosted.export()
    gf = gamefile.loads(blob)
    assert gf.agents == {"Player#4": "caretaker"} and gf.game.actions == hosted.game.actions
    again, _, _ = HostedGame.imported("g-y", gamefile.dumps(gf), None)
    assert again.meta["controllers"]["Player#4"] == "caretaker" and again.game.actions == hosted.game.actions


@pytest.mark.parametrize(("blob", "why"), [
    (b"\xc1", "not a Regent game file"),
    (msgpack.packb([1, 2]), "not a MessagePack map"),
    (msgpack.packb({"kind": "chess"}), "unknown game file kind"),
    (msgpack.packb({"kind": "regent-game", "format": 99, "v": 1, "setup": {}, "actions": []}), "newer"),
    (msgpack.packb({"v": 1}), "no setup and actions"),
    (msgpack.packb({"v": 1, "setup": {"board": "ring-5"}, "actions": [["jump"]]}), "unknown action"),
    (msgpack.packb({"v": 1, "setup": {"board": "ring-5"}, "actions": [], "agents": {"Player#9": "random"}}),
     "unknown seat"),
    (msgpack.packb({"v": 1, "setup": {"board": "ring-5"}, "actions": [], "agents": {"Player#1": 3}}),
     "agents must map"),
    (msgpack.packb({"v": 1, "setup": {"board": "ring-5"}, "actions": [], "deadlines": {"orders": -1}}),
     "deadlines.orders: must be a number of seconds from 0"),
    (msgpack.packb({"v": 1, "setup": {"board": "ring-5"}, "actions": [], "step_started": "noon"}),
     "Unix time"),
    (msgpack.packb({"v": 1, "setup": {"board": "ring-5"}, "actions": [], "posted": -1}), "posted"),
    (msgpack.packb({"v": 1, "setup": {"board": "ring-5"}, "actions": [], "dms_read": {"d.txt": "ab"}}), "dms_read"),
])
def test_a_bad_file_is_one_clear_error_naming_the_file(blob, why):
    with pytest.raises(ValidationError, match=why) as info:
        gamefile.loads(blob, "game.bin")
    assert str(info.value).startswith("game.bin: ")


def test_a_cut_short_or_empty_game_file_says_so_and_names_its_backup(tmp_path):
    path = tmp_path / "game.bin"
    gamefile.write(path, GameFile(Game(SETUP)))
    gamefile.write(path, GameFile(Game(SETUP), step_started=5.0))  # a second write: game.bin.bak
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) // 2])  # a copy that stopped half-way
    with pytest.raises(ValidationError) as info:
        gamefile.read(path)
    assert str(info.value) == (f"{path}: cut short after {len(whole) // 2} bytes (truncated): not a whole Regent "
                               f"game file; {path}.bak holds the version before the last change")
    path.write_bytes(b"")
    with pytest.raises(ValidationError, match=r"empty \(0 bytes\): not a Regent game file; .*game.bin.bak holds"):
        gamefile.read(path)
    gamefile.backup_path(path).unlink()
    with pytest.raises(ValidationError, match=r"empty \(0 bytes\): not a Regent game file$"):
        gamefile.read(path)


def test_only_a_damaged_file_points_at_its_backup(tmp_path):
    """A whole game file this Regent will not take (a newer format, a bad field) is no damage the .bak undoes:
    its error says what is wrong and no more. Which errors are damage is a type (gamefile.DamagedGameFile), not
    words matched in the message, so a reworded error cannot change it."""
    path = tmp_path / "game.bin"
    gamefile.write(path, GameFile(Game(SETUP)))
    gamefile.write(path, GameFile(Game(SETUP), step_started=5.0))
    data = msgpack.unpackb(path.read_bytes(), raw=False, strict_map_key=False)
    for change, why in (({"format": 99}, "is newer than this Regent reads"), ({"posted": -1}, "posted must be")):
        path.write_bytes(msgpack.packb({**data, **change}, use_bin_type=True))
        with pytest.raises(ValidationError, match=why) as info:
            gamefile.read(path)
        assert ".bak" not in str(info.value) and not isinstance(info.value, gamefile.DamagedGameFile)
    path.write_bytes(msgpack.packb({"note": "hello"}, use_bin_type=True))  # a map with no game in it
    with pytest.raises(gamefile.DamagedGameFile, match=r"no setup and actions\); .*game.bin.bak holds"):
        gamefile.read(path)


VALID = gamefile.dumps(GameFile(Game(SETUP), agents={"Player#2": "random"}, step_started=5.0))


@settings(max_examples=80, deadline=None)
@given(st.one_of(st.binary(max_size=200),
                 st.tuples(st.integers(0, len(VALID) - 1), st.integers(0, 255)).map(
                     lambda iv: VALID[:iv[0]] + bytes([iv[1]]) + VALID[iv[0] + 1:])))
def test_any_bytes_load_or_fail_with_an_error_naming_the_file(blob):
    """Random bytes and one-byte corruptions of a real file: a game, or a ValidationError naming the file
    (never a KeyError or TypeError traceback)."""
    try:
        gf = gamefile.loads(blob, "f")
    except ValidationError as err:
        assert str(err).startswith("f: ")
    else:
        assert isinstance(gf.game, Game) and set(gf.agents) <= set(gf.game.state.players)


def test_write_is_atomic_and_keeps_the_previous_version(tmp_path):
    path = tmp_path / "game.bin"
    first = GameFile(Game(SETUP), step_started=1.0)
    gamefile.write(path, first)
    assert not gamefile.backup_path(path).exists()
    second = GameFile(played_game(), step_started=2.0)
    gamefile.write(path, second)
    assert gamefile.read(gamefile.backup_path(path)).step_started == 1.0
    assert gamefile.read(path).step_started == 2.0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.bin", "game.bin.bak"]  # no .tmp left


def test_read_names_a_missing_file(tmp_path):
    with pytest.raises(ValidationError, match="no such game file"):
        gamefile.read(tmp_path / "nope.bin")


@pytest.mark.parametrize(("label", "seat"), [
    ("Player#3", "Player#3"), ("player 3", "Player#3"), ("P#3", "Player#3"), ("carol", "Player#3"),
    ("  Carol ", "Player#3"), ("Carol (Player#3)", "Player#3"), ("Carol (Player#2)", None), ("Crol", None),
    ("Player#9", None), ("Dark  Green", "Player#3"), ("sky blue (Player#2)", "Player#2"), ("teal", None),
    # as pasted from Discord: a mention, markup, trailing punctuation, an emoji
    ("@Carol", "Player#3"), ("**Carol**", "Player#3"), ("Carol:", "Player#3"), ("Carol 👋", "Player#3"),
    ("@carol (Player#3)", "Player#3"), ("@Crol", None), ("@", None), ("**", None),
])
def test_seat_named(label, seat):
    assert GameFile(Game(SETUP)).seat_named(label) == seat


def test_a_typo_in_a_name_gets_a_suggestion():
    assert "did you mean Player#3 (Carol)?" in GameFile(Game(SETUP)).unknown_seat("Crol")


def test_deadlines_print_in_local_time(monkeypatch):
    monkeypatch.setattr(gamefile, "now", lambda: 0.0)
    text = gamefile.describe_deadline(3 * 86400 + 3600)
    assert text.startswith("deadline ") and "(in 3d 1h)" in text and "259" not in text
    assert "passed 2h 0m ago" in gamefile.describe_deadline(0.0, at=7200.0)


def test_an_unknown_seat_gets_the_closest_name_or_colour_and_every_seat_with_its_colour():
    gf = GameFile(Game(SETUP))
    assert gf.unknown_seat("sky blu").startswith(
        "no seat is called 'sky blu'; did you mean Player#2 (Bob), whose colour is sky blue?")
    assert "Player#3 (Carol) dark green" in gf.unknown_seat("teal")


def test_a_bank_of_lannuvar_round_in_a_dragon_attack_has_the_banks_12h_window():
    # rules: 003 The Bank of Lannuvár — "will have 12h ... once the other players' choices have been revealed";
    # team games stretch only the 24h windows, so the round keeps 12h where the Dragon step has 48h
    from service import deadlines
    from tests.protectors.helpers import dragon_attack
    from tests.protectors.test_factions import make

    g = make("ring-4", {f"P{i}": (f"Player#{i}", 1) for i in range(1, 5)}, factions={"Player#1": "Lannuvár"},
             realm={"Player#1": 100, "Player#2": 0, "Player#3": 0, "Player#4": 0}, teams=["a", "a", "b", "b"],
             options={"teams": True})
    dragon_attack(g, 3)
    gf = GameFile(g, deadlines=deadlines.windows(g.setup, None), step_started=1000.0)
    assert gf.deadline() == 1000.0 + 48 * 3600
    g.submit("Player#1", "The Bank of Lannuvár")
    g.advance(force=True)
    assert g.state.attack.bank_round and gf.deadline() == 1000.0 + 12 * 3600


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), 1e300, -5])
def test_a_game_file_with_an_impossible_deadline_is_named_not_an_internal_error(tmp_path, bad):
    # a file written before the service bounded its windows (hB item 6): one line naming the field
    path = tmp_path / "g.bin"
    gamefile.write(path, GameFile(Game(SETUP), deadlines={"bid": bad}))
    with pytest.raises(ValidationError, match=r"deadlines\.bid: must be a"):
        gamefile.read(path)
