"""``regent export-position`` and the RPC method ``game.export_position``: the exported setup continues
the game exactly (same views and events from there on, same decisions)."""

from __future__ import annotations

import asyncio
import json

import pytest

from agents.heuristic import HeuristicAgent
from agents.runner import play_turn_step
from engine.protectors.game import Game
from service import gamefile
from service.app import App
from service.cli import main
from service.errors import RpcError


def _midgame(seed: int = 5) -> Game:
    g = Game({"board": "ring-5", "seed": seed, "players": 5, "options": {"factions": True}})
    agents = {s: HeuristicAgent(seed + i) for i, s in enumerate(g.state.players)}
    while not g.over and g.state.turn < 3:
        play_turn_step(g, agents)
    return g


def _play_on(g: Game, seed: int, steps: int = 30) -> None:
    agents = {s: HeuristicAgent(seed + i) for i, s in enumerate(g.state.players)}
    for _ in range(steps):
        if g.over:
            return
        play_turn_step(g, agents)


def test_export_position_writes_a_setup_that_regent_new_continues(tmp_path, capsys, monkeypatch):
    g = _midgame()
    path = tmp_path / "game.bin"
    gamefile.write(path, gamefile.GameFile(g, agents={"Player#2": "heuristic"}))
    out = tmp_path / "setup.json"
    assert main(["export-position", str(path), "-o", str(out)]) == 0
    setup = json.loads(out.read_text())
    assert setup["agents"] == {"Player#2": "heuristic"} and setup["position"]["turn"] == g.state.turn
    assert main(["new", str(tmp_path / "again.bin"), "--setup", str(out)]) == 0
    again = gamefile.read(tmp_path / "again.bin")
    assert again.agents == {"Player#2": "heuristic"}
    copy = again.game
    assert json.dumps(copy.view(), sort_keys=True) == json.dumps(g.view(), sort_keys=True)
    mark_a, mark_b = len(g.state.events), len(copy.state.events)
    _play_on(g, 40)
    _play_on(copy, 40)
    assert json.dumps(copy.view(), sort_keys=True) == json.dumps(g.view(), sort_keys=True)
    assert [e.to_dict() for e in copy.state.events[mark_b:]] == [e.to_dict() for e in g.state.events[mark_a:]]
    capsys.readouterr()
    assert main(["export-position", str(path), "--position-only"]) == 0
    assert json.loads(capsys.readouterr().out) == setup["position"]
    monkeypatch.chdir(tmp_path)  # "-o -" is stdout too: it wrote a file called "-"
    assert main(["export-position", str(path), "--position-only", "-o", "-"]) == 0
    assert json.loads(capsys.readouterr().out) == setup["position"] and not (tmp_path / "-").exists()


def test_export_position_errors_are_one_line(tmp_path, capsys):
    assert main(["export-position", str(tmp_path / "missing.bin")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("regent: error:") and "missing.bin" in err and "\n" not in err
    (tmp_path / "junk.bin").write_bytes(b"\x00not msgpack")
    assert main(["export-position", str(tmp_path / "junk.bin")]) == 2
    assert "junk.bin" in capsys.readouterr().err


def test_rpc_export_position_needs_the_gm_token_and_continues_the_game():
    async def go():
        app = App(None)
        try:
            g = await app.call("game.create", [{"setup": {"board": "ring-5", "seed": 3, "players": 5}}])
            gid, gm = g["game_id"], g["gm_token"]
            for seat, token in g["seat_tokens"].items():
                await app.call("game.submit", [{"game_id": gid, "token": token, "text": f"Bid {seat[-1]}"}])
            await app.call("game.pending", [{"game_id": gid, "token": gm, "wait": True}])  # auto-advanced
            with pytest.raises(RpcError) as err:
                await app.call("game.export_position", [{"game_id": gid, "token": g["seat_tokens"]["Player#1"]}])
            assert err.value.code == "forbidden"
            out = await app.call("game.export_position", [{"game_id": gid, "token": gm}])
            assert out["game_id"] == gid and out["setup"]["position"] == out["position"]
            assert out["position"]["step"] == "orders" and out["position"]["turn"] == 1
            copy = await app.call("game.create", [{"setup": out["setup"]}])
            views = [await app.call("game.view", [{"game_id": x, "token": t}])
                     for x, t in ((gid, gm), (copy["game_id"], copy["gm_token"]))]
            for v in views:
                for k in ("game_id", "step_started", "pending"):
                    v.pop(k, None)
            assert json.dumps(views[0], sort_keys=True, default=str) == json.dumps(views[1], sort_keys=True,
                                                                                   default=str)
        finally:
            await app.close()

    asyncio.run(go())


@pytest.mark.parametrize("where", ["provinces", "realm"])
def test_a_key_given_twice_in_a_hand_written_position_is_refused_not_overwritten(tmp_path, capsys, where):
    g = _midgame()
    path = tmp_path / "game.bin"
    gamefile.write(path, gamefile.GameFile(g))
    out = tmp_path / "setup.json"
    assert main(["export-position", str(path), "-o", str(out)]) == 0
    setup = json.loads(out.read_text())
    first = next(iter(setup["position"][where]))
    text = json.dumps(setup, indent=1)
    # the GM copies an entry and forgets to change its key: json.loads would keep the last one silently
    entry = json.dumps({first: setup["position"][where][first]})[1:-1]
    text = text.replace(f'"{where}": {{', f'"{where}": {{{entry}, ', 1)
    (tmp_path / "twice.json").write_text(text)
    capsys.readouterr()
    assert main(["new", str(tmp_path / "t.bin"), "--setup", str(tmp_path / "twice.json")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("regent: error:") and "twice.json" in err and "\n" not in err
    assert f"the key '{first}' is given twice in one object" in err
    assert not (tmp_path / "t.bin").exists()


def test_json_worlds_refuse_a_key_given_twice_too():
    from engine.errors import ValidationError
    from engine.newworld.load import decode_world
    from engine.realms.loader import read_document

    with pytest.raises(ValidationError, match="the key 'a' is given twice"):
        decode_world(b'{"a": 1, "b": 2, "a": 3}', "json")
    with pytest.raises(ValidationError, match="the key 'x' is given twice"):
        read_document(b'{"x": {"y": 1}, "x": {"y": 2}}')
    assert read_document(b'{"x": {"x": 1}}') == {"x": {"x": 1}}  # the same key in two objects is fine


def test_a_seat_left_out_of_realm_or_vp_after_turn_1_takes_the_default_and_the_gm_is_told(tmp_path, capsys):
    g = _midgame()
    path = tmp_path / "game.bin"
    gamefile.write(path, gamefile.GameFile(g))
    out = tmp_path / "setup.json"
    assert main(["export-position", str(path), "-o", str(out)]) == 0
    capsys.readouterr()
    assert main(["new", str(tmp_path / "whole.bin"), "--setup", str(out)]) == 0
    assert "warning" not in capsys.readouterr().err  # every seat given: nothing to say
    setup = json.loads(out.read_text())
    live = [s for s, p in g.state.players.items() if not p.eliminated]
    seat = live[-1]
    for key in ("realm", "vp"):
        setup["position"][key].pop(seat)
    (tmp_path / "slip.json").write_text(json.dumps(setup))
    assert main(["new", str(tmp_path / "slip.bin"), "--setup", str(tmp_path / "slip.json")]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"regent: warning: {tmp_path / 'slip.json'}: position.realm gives no $Realm for {seat}: it starts "
                   "with 50, a new game's (docs/positions.md)",
                   f"regent: warning: {tmp_path / 'slip.json'}: position.vp gives no VP for {seat}: it has only its "
                   "Provinces' VP (docs/positions.md)"]
    assert gamefile.read(tmp_path / "slip.bin").game.state.players[seat].realm == 50  # the default, as documented


SETTINGS = {"deadlines": {"orders": 172800}, "auto_advance": False, "expiry": {"auto": True, "fill": "caretaker"}}


def _settings_game(tmp_path) -> tuple:
    """A game file made from a setup with the service's own keys, its AI seat (Eve) decided in the open step."""
    setup = {"board": "ring-5", "seed": 3, "players": [{"name": n} for n in ("Alice", "Bob", "Carol", "Dan")]
             + [{"name": "Eve", "agent": "heuristic"}], **SETTINGS}
    (tmp_path / "setup.json").write_text(json.dumps(setup))
    path = tmp_path / "game.bin"
    assert main(["new", str(path), "--setup", str(tmp_path / "setup.json")]) == 0
    (tmp_path / "dms.txt").write_text("== Alice ==\nBid 10\n")
    assert main(["adjudicate", str(path), str(tmp_path / "dms.txt")]) == 0
    assert gamefile.read(path).step_ai == {"Player#5": "heuristic"}
    out = tmp_path / "exported.json"
    assert main(["export-position", str(path), "-o", str(out)]) == 0
    return path, json.loads(out.read_text())


def test_export_position_keeps_the_games_windows_auto_advance_expiry_and_its_ais_decision(tmp_path, capsys):
    path, setup = _settings_game(tmp_path)
    assert setup["deadlines"]["orders"] == 172800 and setup["deadlines"]["bid"] == 86400  # every window, as played
    assert setup["auto_advance"] is False and setup["expiry"] == SETTINGS["expiry"]
    assert setup["agents"] == {"Player#5": "heuristic"} and setup["step_ai"] == {"Player#5": "heuristic"}
    assert main(["new", str(tmp_path / "again.bin"), "--setup", str(tmp_path / "exported.json")]) == 0
    again, first = gamefile.read(tmp_path / "again.bin"), gamefile.read(path)
    assert again.deadlines == first.deadlines and again.deadlines["orders"] == 172800  # not the rulebook's 72h
    assert again.service == {"auto_advance": False, "expiry": SETTINGS["expiry"]}
    assert again.step_ai == {"Player#5": "heuristic"} and again.ai_played == {"Player#5": ["heuristic"]}
    capsys.readouterr()  # the step resolved in the copy names Eve's AI, as it would in the game exported
    (tmp_path / "rest.txt").write_text("== Bob ==\nBid 1\n== Carol ==\nBid 2\n== Dan ==\nBid 3\n")
    assert main(["adjudicate", str(tmp_path / "again.bin"), str(tmp_path / "rest.txt")]) == 0
    assert "Played by AI: Eve (heuristic)" in capsys.readouterr().out


def test_a_game_created_from_an_export_names_the_ai_that_decided_in_its_open_step(tmp_path):
    _, setup = _settings_game(tmp_path)

    async def go():
        app = App(None)
        try:
            g = await app.call("game.create", [{"setup": setup}])
            gid, gm = g["game_id"], g["gm_token"]
            out = await app.call("game.export_position", [{"game_id": gid, "token": gm}])
            assert {k: out["setup"].get(k) for k in ("auto_advance", "step_ai")} == \
                {"auto_advance": False, "step_ai": {"Player#5": "heuristic"}}
            assert out["setup"]["deadlines"] == setup["deadlines"] and out["setup"]["expiry"] == SETTINGS["expiry"]
            for seat in ("Player#2", "Player#3", "Player#4"):
                await app.call("game.submit", [{"game_id": gid, "token": g["seat_tokens"][seat], "text": "Bid 1"}])
            done = await app.call("game.advance", [{"game_id": gid, "token": gm}])  # auto_advance is off
            assert "Played by AI: Eve (heuristic)" in done["report"]
            turn = await app.call("game.report", [{"game_id": gid, "token": gm}])
            assert turn["played_by_ai"] == {"Player#5": ["heuristic"]}
            await app.call("game.undo", [{"game_id": gid, "token": gm}])  # back at the position's step: Eve's still
            out = await app.call("game.export_position", [{"game_id": gid, "token": gm}])
            assert out["setup"]["step_ai"] == {"Player#5": "heuristic"}
        finally:
            await app.close()

    asyncio.run(go())


def test_regent_new_refuses_a_faction_the_position_contradicts_in_one_line(tmp_path, capsys):
    setup = {"board": "ring-3", "seed": 1, "options": {"factions": True},
             "players": [{"name": "Alice"}, {"name": "Bob"}, {"name": "Dan", "faction": "Kalu'Ak"}],
             "position": {"turn": 2, "factions": {"Player#3": "Hodir"}}}
    (tmp_path / "setup.json").write_text(json.dumps(setup))
    capsys.readouterr()
    assert main(["new", str(tmp_path / "game.bin"), "--setup", str(tmp_path / "setup.json")]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"regent: error: {tmp_path / 'setup.json'}: position.factions.Player#3: Hodir, but "
                   "players[2].faction is Kalu'Ak; give the seat one faction")
    assert not (tmp_path / "game.bin").exists()


def _ai_steps(path, n: int) -> None:
    for _ in range(n):
        if gamefile.read(path).game.over:
            return
        assert main(["adjudicate", str(path), "--force"]) in (0, 2)


def test_an_exported_game_with_ai_seats_plays_on_as_the_original_after_steps_were_resolved(tmp_path, capsys):
    """The AI seats' dice are keyed by the steps resolved since the game began (service/ai.decision_seed): the export
    carries that count (position.steps_resolved), so an AI seat decides after the import as it would have. Without it
    the imported game counted from 0 and its AI seats rolled other dice (a steward seat committed 2 units where the
    game exported committed 1)."""
    # Player#1 is human, so each forced run resolves a step or two (all-AI seats would play to the end in one run)
    setup = {"board": "ring-7", "seed": 2, "players": 7, "agents": {f"Player#{i}": "random" for i in range(2, 8)}}
    (tmp_path / "setup.json").write_text(json.dumps(setup))
    path = tmp_path / "game.bin"
    assert main(["new", str(path), "--setup", str(tmp_path / "setup.json")]) == 0
    _ai_steps(path, 2)
    resolved = sum(1 for a in gamefile.read(path).game.actions if a[0] == "advance")
    assert resolved >= 2
    assert main(["export-position", str(path), "-o", str(tmp_path / "exported.json")]) == 0
    exported = json.loads((tmp_path / "exported.json").read_text())
    assert exported["position"]["steps_resolved"] == resolved
    again = tmp_path / "again.bin"
    assert main(["new", str(again), "--setup", str(tmp_path / "exported.json")]) == 0
    _ai_steps(path, 3)
    _ai_steps(again, 3)
    capsys.readouterr()
    ends = []
    for p in (path, again):
        assert main(["export-position", str(p), "--position-only"]) == 0
        ends.append(json.loads(capsys.readouterr().out))
    assert ends[0]["steps_resolved"] == ends[1]["steps_resolved"] > resolved
    assert ends[0] == ends[1]


def test_regent_new_at_a_dragon_step_prints_the_attack_as_the_game_holds_it(tmp_path, capsys):
    """The attack's announcement (its DPL and every seat's min.US) is no event of a game brought in at its dragon step:
    no report or summary shows it, so `regent new` prints the attack as Regent will judge the commitments, for the GM to
    check against what they posted (a Province typed burnt or another's changes a min.US)."""
    setup = {"board": "ring-5", "seed": 11, "players": [{"name": n} for n in ("Ann", "Ben", "Cy", "Di", "Ed")],
             "position": {"turn": 3, "step": "dragon", "dpl": 9,
                          "ranking": ["Player#2", "Player#1", "Player#5"],
                          "eliminated": {"Player#3": {"turn": 2, "by": "players"},
                                         "Player#4": {"turn": 2, "by": "dragon"}},
                          "provinces": {"P1": {"owner": "Player#1", "units": 2, "level": 1},
                                        "P2": {"owner": "Player#2", "units": 3},
                                        "P3": {"owner": "Player#2", "units": 1},
                                        "P4": {"owner": "Player#1", "burnt": True},
                                        "P5": {"owner": "Player#5", "units": 1}},
                          "attack": {"dpl": 9, "source": "card"}}}
    (tmp_path / "setup.json").write_text(json.dumps(setup))
    capsys.readouterr()
    assert main(["new", str(tmp_path / "game.bin"), "--setup", str(tmp_path / "setup.json")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert ("Dragon Attack waiting for commitments, as this game holds it (check it against what you posted): "
            "DPL 9 (card); Grand Protector Ben; min.US: Ben 2, Ann 1, Ed 1.") in out  # Ann's burnt P4 is not green
    # a game begun at turn 1 announces its attacks in the report: the line is for an import only
    assert main(["new", str(tmp_path / "fresh.bin"), "--board", "ring-5"]) == 0
    assert "Dragon Attack waiting" not in capsys.readouterr().out


def test_a_position_the_game_ends_at_prints_no_looks_for_an_orders_step_that_never_comes(tmp_path, capsys):
    # half the starting players eliminated by the Dragon: Fire and blood! ends the game as it comes in; the Weather
    # forecast looks of its orders step were printed all the same, for the GM to pass on in a finished game
    setup = {"board": "ring-4", "seed": 2, "options": {"factions": True},
             "players": [{"name": n, "faction": "Kalu'Ak"} for n in ("Ann", "Ben", "Cy", "Di")],
             "position": {"turn": 3, "step": "orders", "ranking": ["Player#1", "Player#2"],
                          "eliminated": {s: {"turn": 2, "by": "dragon"} for s in ("Player#3", "Player#4")},
                          "provinces": {f"P{i}": {"owner": f"Player#{i}", "units": 1} for i in (1, 2)},
                          "cards_in_play": ["Deep Snow", "Bloodlust!"]}}
    (tmp_path / "setup.json").write_text(json.dumps(setup))
    capsys.readouterr()
    assert main(["new", str(tmp_path / "game.bin"), "--setup", str(tmp_path / "setup.json")]) == 0
    out = capsys.readouterr().out
    assert "Fire and blood!" in out and "game over" in out
    assert "Weather forecast" not in out and "not for posting" not in out


def test_a_game_moved_by_its_position_does_not_read_a_dms_file_again(tmp_path, capsys):
    # a GM moves the game (export-position, then regent new) and runs adjudicate on the DMs file of the step just
    # resolved, grown: its DMs were read there, and read again here they were taken for this step's (Cy's orders
    # 'none' stored as his Consolidation, 'Bid 0'; the others refused, holding the step)
    provinces = {f"P{i}": {"owner": f"Player#{i}", "units": 2} for i in range(1, 4)}
    setup = {"board": "ring-3", "seed": 1, "players": [{"name": n} for n in ("Ann", "Ben", "Cy")],
             "position": {"turn": 2, "step": "orders", "provinces": provinces}}
    (tmp_path / "setup.json").write_text(json.dumps(setup), encoding="utf-8")
    game, moved, dms = tmp_path / "game.bin", tmp_path / "moved.bin", tmp_path / "dms.txt"
    assert main(["new", str(game), "--setup", str(tmp_path / "setup.json")]) == 0
    dms.write_text("== Ann ==\nFortify P1\n== Ben ==\nFortify P2\n== Cy ==\nnone\n", encoding="utf-8")
    assert main(["adjudicate", str(game), str(dms)]) == 0
    assert gamefile.read(game).game.step == "consolidation"
    assert main(["export-position", str(game), "-o", str(tmp_path / "exported.json")]) == 0
    assert main(["new", str(moved), "--setup", str(tmp_path / "exported.json")]) == 0
    assert gamefile.read(moved).dms_read == gamefile.read(game).dms_read != {}
    capsys.readouterr()
    assert main(["adjudicate", str(moved), str(dms)]) == 0
    out = capsys.readouterr().out
    assert "3 DM(s) already read by an earlier run" in out and "stored" not in out
    assert gamefile.read(moved).game.state.submissions == {}
    exported = json.loads((tmp_path / "exported.json").read_text())

    async def go():  # game.create keeps them too, and game.export_position writes them back
        app = App(None)
        try:
            g = await app.call("game.create", [{"setup": exported}])
            out = await app.call("game.export_position", [{"game_id": g["game_id"], "token": g["gm_token"]}])
            assert out["setup"]["dms_read"] == exported["dms_read"]
            with pytest.raises(RpcError) as err:
                await app.call("game.create", [{"setup": {**exported, "dms_read": {"dms.txt": [1]}}}])
            assert err.value.code == "invalid_params" and "setup.dms_read" in err.value.message
        finally:
            await app.close()

    asyncio.run(go())
