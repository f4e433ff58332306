"""The methods beyond the main flow: NPR/NPN calls, deadlines and expiry, assign, export/import,
structured decisions, pipelining, rendering; and that NPR-only serving never imports torch."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

import msgpack
import pytest

from service.client import AsyncClient, ServiceError
from service.deadlines import DEFAULT_WINDOWS, HOUR
from tests.service.helpers import ROOT, ServerProcess

EXAMPLES = ROOT / "examples"
MAX_POLLS = 2000
POLL_PAUSE = 0.05


def sample_world() -> dict:
    return json.loads((EXAMPLES / "realms" / "world.json").read_text())


# -- npr.* and npn.* -----------------------------------------------------------------------------
@pytest.mark.parametrize("method, fields", [
    ("npr.invasions", {"seed": 3}),
    ("npr.defend", {"attacks": json.loads((EXAMPLES / "realms" / "attacks.json").read_text()), "seed": 1}),
    ("npr.retreat", {"battle": json.loads((EXAMPLES / "realms" / "battle.json").read_text())}),
    ("npr.battle", {"battle": json.loads((EXAMPLES / "realms" / "fight.json").read_text()), "seed": 2}),
    ("npr.call_to_arms", {"declaration": {"attacker": "Castamar", "target": "Elsmere"}}),  # not already at War
    ("npr.release", {}),
])
def test_npr_calls_return_the_controllers_decision_with_its_trace(client, method, fields):
    from service import stateless
    from service.params import Params

    world = sample_world()
    result = client.call(method, world=world, **fields)
    assert result["decision"] == method
    assert result["trace"] and all({"rule", "because"} <= set(step) for step in result["trace"])
    assert "dice" in result
    # Exactly what the controller says, called directly (same seed, same world).
    direct = stateless.METHODS[method](Params(method, [{"world": world, **fields}]))
    assert result == msgpack.unpackb(msgpack.packb(direct), raw=False)


def test_npr_liberate_names_a_bad_province(client):
    with pytest.raises(ServiceError) as err:
        client.call("npr.liberate", world=sample_world(), provinces=["Atlantis"])
    assert err.value.code == "invalid_params" and err.value.details["field"] == "provinces[0]"


def test_npr_unknown_field_is_named(client):
    with pytest.raises(ServiceError) as err:
        client.call("npr.invasions", world=sample_world(), seed=1, sneaky=True)
    assert err.value.details["field"] == "sneaky"


def test_npn_plan(client):
    world = json.loads((EXAMPLES / "newworld" / "world.json").read_text())
    a = client.call("npn.plan", world=world, nation="Spain", seed=4)
    b = client.call("npn.plan", world=world, nation="Spain", seed=4)
    assert a == b and a["trace"]
    with pytest.raises(ServiceError) as err:
        client.call("npn.plan", world=world, nation="Atlantis")
    assert err.value.code == "invalid_params" and "nation" in err.value.details["field"]


NO_TORCH_SCRIPT = """
import asyncio, json, sys
from service.cli import build_parser
build_parser()  # everything `regent serve` imports to start
from service.app import App
world = json.load(open(sys.argv[1]))
nw = json.load(open(sys.argv[2]))
async def main():
    app = App(None)
    await app.call("npr.invasions", [{"world": world, "seed": 1}])
    await app.call("npn.plan", [{"world": nw, "nation": "Spain"}])
    g = await app.call("game.create", [{"setup": {"board": "ring-5", "seed": 1,
                                                   "agents": {"Player#1": "caretaker", "Player#2": "random"}}}])
    await app.call("game.pending", [{"game_id": g["game_id"], "token": g["gm_token"], "wait": True}])
    await app.close()
asyncio.run(main())
print(json.dumps({"torch": "torch" in sys.modules}))
"""


def test_serving_npr_calls_does_not_import_torch():
    done = subprocess.run([sys.executable, "-c", NO_TORCH_SCRIPT, str(EXAMPLES / "realms" / "world.json"),
                           str(EXAMPLES / "newworld" / "world.json")], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {"torch": False}


# -- deadlines -----------------------------------------------------------------------------------
def test_pending_carries_the_rules_windows(client):
    g = client.call("game.create", setup={"board": "ring-5", "seed": 1, "auto_advance": False})
    gid, gm = g["game_id"], g["gm_token"]
    view = client.call("game.view", game_id=gid, token=gm)
    assert {p["deadline"] - view["step_started"] for p in view["pending"]} == {24 * HOUR}  # turn-1 bid
    client.call("game.advance", game_id=gid, token=gm, force=True)
    view = client.call("game.view", game_id=gid, token=gm)
    assert view["step"] == "orders"
    assert {p["deadline"] - view["step_started"] for p in view["pending"]} == {72 * HOUR}


def test_team_games_get_48h_instead_of_24h_and_overrides_win(client):
    players = [{"team": t} for t in ("A", "A", "B", "B")]
    g = client.call("game.create", setup={"board": "ring-4", "seed": 1, "players": players,
                                          "options": {"teams": True}, "deadlines": {"orders": 60}})
    view = client.call("game.view", game_id=g["game_id"], token=g["gm_token"])
    assert {p["deadline"] - view["step_started"] for p in view["pending"]} == {48 * HOUR}
    client.call("game.advance", game_id=g["game_id"], token=g["gm_token"], force=True)
    view = client.call("game.view", game_id=g["game_id"], token=g["gm_token"])
    assert {p["deadline"] - view["step_started"] for p in view["pending"]} == {60}
    assert DEFAULT_WINDOWS["rebid"] == 16 * HOUR and DEFAULT_WINDOWS["bank_bid"] == 12 * HOUR


def test_expired_deadlines_let_an_ai_act_for_silent_seats(client):
    g = client.call("game.create", setup={"board": "ring-5", "seed": 1, "auto_advance": False,
                                          "deadlines": {"bid": 0}, "expiry": {"fill": "random"}})
    gid, gm = g["game_id"], g["gm_token"]
    client.call("game.submit", game_id=gid, token=g["seat_tokens"]["Player#1"], text="Bid 3")
    out = client.call("game.advance", game_id=gid, token=gm, expired=True)
    played = next(line for line in out["report"].splitlines() if line.startswith("Played by AI: "))
    assert played == "Played by AI: Player#2, Player#3, Player#4 and Player#5 (random)"
    view = client.call("game.view", game_id=gid, token=gm)
    assert set(view["played_by_ai"]) == {"Player#2", "Player#3", "Player#4", "Player#5"}
    with pytest.raises(ServiceError) as err:  # orders have 72h: not expired yet
        client.call("game.advance", game_id=gid, token=gm, expired=True)
    assert err.value.code == "conflict"


def test_the_server_resolves_expired_steps_by_itself(tmp_path):
    proc = ServerProcess(tmp_path, args=("--expiry-interval", "0.05")).start()
    try:
        with proc.client() as c:
            zero = dict.fromkeys(DEFAULT_WINDOWS, 0)
            g = c.call("game.create", setup={"board": "ring-4", "seed": 2, "deadlines": zero,
                                             "expiry": {"auto": True}})
            for _ in range(MAX_POLLS):
                view = c.call("game.view", game_id=g["game_id"], token=g["gm_token"], wait=True)
                if view["over"]:
                    break
                time.sleep(POLL_PAUSE)  # polling the server's own clock, not timing it
            assert view["over"], "rulebook defaults resolve every expired step until the game ends"
            assert any(r["msg"] == "deadline passed: step resolved" for r in proc.logs())
    finally:
        proc.stop()


# -- assign, export/import, structured decisions -------------------------------------------------
def test_assign_an_agent_a_difficulty_and_back_to_human(client):
    g = client.call("game.create", setup={"board": "ring-5", "seed": 1, "auto_advance": False})
    gid, gm = g["game_id"], g["gm_token"]
    from agents.registry import AGENTS
    from service.ai import DIFFICULTIES

    easy = next(a for a in DIFFICULTIES["easy"] if a in AGENTS)  # a shipped ppo:easy when there is one
    assert client.call("game.assign", game_id=gid, token=gm, seat="Player#2", agent="easy")["controller"] == easy
    pending = client.call("game.pending", game_id=gid, token=gm, wait=True)
    assert [p["submitted"] for p in pending if p["seat"] == "Player#2"] == [True]  # the AI acted at once
    back = client.call("game.assign", game_id=gid, token=gm, seat="Player#2", agent=None)
    assert back == {"seat": "Player#2", "controller": None, "human": True}
    client.call("game.advance", game_id=gid, token=gm, force=True, wait=True)
    pending = client.call("game.pending", game_id=gid, token=gm, wait=True)
    assert [p["submitted"] for p in pending if p["seat"] == "Player#2"] == [False]


def test_export_import_round_trip(client):
    g = client.call("game.create", setup={"board": "ring-5", "seed": 8, "agents": {"Player#3": "caretaker"}})
    gid, gm = g["game_id"], g["gm_token"]
    client.call("game.submit", game_id=gid, token=g["seat_tokens"]["Player#1"], text="Bid 6")
    blob = client.call("game.export", game_id=gid, token=gm)["blob"]
    new = client.call("game.import", blob=blob)
    assert new["game_id"] != gid and new["gm_token"] != gm
    a = client.call("game.view", game_id=gid, token=gm, wait=True)
    b = client.call("game.view", game_id=new["game_id"], token=new["gm_token"], wait=True)
    for key in ("game_id", "step_started", "pending"):
        a.pop(key), b.pop(key)
    assert a == b
    with pytest.raises(ServiceError) as err:
        client.call("game.view", game_id=new["game_id"], token=gm)
    assert err.value.code == "forbidden"
    with pytest.raises(ServiceError) as err:
        client.call("game.import", blob=b"\x93\x01\x02")
    assert err.value.code == "invalid_params" and err.value.details["field"] == "blob"


def test_an_exported_game_file_keeps_the_turns_an_ai_played(client):
    # the CLI's reports of the exported file label a turn 'Played by AI' only when an AI decided in it
    from service import gamefile

    g = client.call("game.create", setup={"board": "ring-3", "seed": 8, "auto_advance": False})
    gid, gm = g["game_id"], g["gm_token"]
    client.call("game.assign", game_id=gid, token=gm, seat="Player#2", agent="heuristic")
    client.call("game.advance", game_id=gid, token=gm, force=True, wait=True)  # its turn-1 bid and what follows
    client.call("game.assign", game_id=gid, token=gm, seat="Player#2", agent=None)  # a human's from here on
    while client.call("game.view", game_id=gid, token=gm, wait=True)["turn"] < 3:
        client.call("game.advance", game_id=gid, token=gm, force=True, wait=True)
    gf = gamefile.loads(client.call("game.export", game_id=gid, token=gm)["blob"])
    assert gf.ai_played == {"Player#2": ["heuristic"]} and gf.ai_turns == {"Player#2": [1]}
    assert gf.ai_in({1}) == {"Player#2": ["heuristic"]} and gf.ai_in({2}) == {}
    where = _imported(client, gf)
    again = gamefile.loads(client.call("game.export", **where)["blob"])  # and through an import
    assert again.ai_turns == {"Player#2": [1]}
    # the imported game's own reports of the file's turns name the file's AI seat, as the CLI's do
    reports = {t: client.call("game.report", **where, turn=t) for t in (1, 2)}
    assert reports[1]["played_by_ai"] == {"Player#2": ["heuristic"]} and "Played by AI" in reports[1]["report"]
    assert reports[2]["played_by_ai"] == {}
    mine = client.call("game.report", **where, turn=1, private="Player#2")
    assert mine["played_by_ai"] == {"Player#2": ["heuristic"]}
    assert client.call("game.report", **where, turn=1, private="Player#1")["played_by_ai"] == {}


def test_a_seat_an_older_file_names_without_its_turns_stays_named_for_every_turn(client):
    # a game file written before ai_turns were kept: its reports name the seat for every turn, and the service's
    # export must not narrow that to the turns it saw itself (the earlier ones would lose their label)
    from engine.protectors.game import Game
    from service import gamefile

    old = gamefile.GameFile(Game({"board": "ring-3", "seed": 8}),
                            agents={"Player#2": "heuristic"}, ai_played={"Player#2": ["heuristic"]})
    where = _imported(client, old)
    view = client.call("game.view", **where, wait=True)
    assert next(p for p in view["pending"] if p["seat"] == "Player#2")["submitted"]  # its AI decided here
    again = gamefile.loads(client.call("game.export", **where)["blob"])
    assert again.ai_turns == {} and again.ai_in({7}) == {"Player#2": ["heuristic"]}
    assert client.call("game.report", **where, turn=1)["played_by_ai"] == {"Player#2": ["heuristic"]}  # as ai_in


def test_a_game_file_through_the_service_keeps_the_dms_its_cli_runs_read(client):
    # regent adjudicate's marks of the DMs already read (dms_read): a game moved to the service and exported back
    # must not have its grown DMs file read again from the top
    from engine.protectors.game import Game
    from service import gamefile

    marks = {"/gm/dms.txt": ["0123456789abcdef.0", "fedcba9876543210.0"]}
    where = _imported(client, gamefile.GameFile(Game({"board": "ring-3", "seed": 8}), dms_read=marks))
    assert gamefile.loads(client.call("game.export", **where)["blob"]).dms_read == marks


def test_an_ai_decision_in_the_open_step_travels_with_the_game_file_both_ways(client):
    # the file's step_ai (an AI seat decided in the step still open): the service's report resolving that step
    # named no AI (every imported decision was "import"), and its own export left step_ai out, so regent
    # adjudicate then said "Played by AI: none" of a step an AI had played
    from engine.protectors.game import Game
    from service import gamefile

    game = Game({"board": "ring-3", "seed": 8, "players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}]})
    game.submit("Player#2", "Bid 2")
    cli = gamefile.GameFile(game, agents={"Player#2": "heuristic"}, ai_played={"Player#2": ["heuristic"]},
                            ai_turns={"Player#2": [1]}, step_ai={"Player#2": "heuristic"})
    where = _imported(client, cli)
    assert gamefile.loads(client.call("game.export", **where)["blob"]).step_ai == {"Player#2": "heuristic"}
    report = client.call("game.advance", **where, force=True, wait=True)["report"]
    assert "Played by AI: Bob (heuristic)" in report.splitlines()

    g = client.call("game.create", setup={"board": "ring-3", "seed": 8, "auto_advance": False})
    client.call("game.assign", game_id=g["game_id"], token=g["gm_token"], seat="Player#3", agent="caretaker")
    client.call("game.pending", game_id=g["game_id"], token=g["gm_token"], wait=True)  # its bid is in
    out = gamefile.loads(client.call("game.export", game_id=g["game_id"], token=g["gm_token"])["blob"])
    assert out.step_ai == {"Player#3": "caretaker"}


def _imported(client, gf):
    from service import gamefile

    new = client.call("game.import", blob=gamefile.dumps(gf))
    return {"game_id": new["game_id"], "token": new["gm_token"]}


def test_a_structured_decision_is_the_same_as_its_dm_text(client):
    setups = [client.call("game.create", setup={"board": "ring-5", "seed": 4, "auto_advance": False})
              for _ in range(2)]
    for g in setups:
        client.call("game.advance", game_id=g["game_id"], token=g["gm_token"], force=True)
    a, b = setups
    text = client.call("game.submit", game_id=a["game_id"], token=a["gm_token"], seat="Player#1",
                       text="Golden Fortify! P1")
    structured = client.call("game.submit", game_id=b["game_id"], token=b["gm_token"], seat="Player#1",
                             decision={"orders": [{"order": "fortify", "from": "P1", "golden": True}]})
    assert text == structured == {"accepted": ["Golden Fortify! P1"], "rejected": [], "lines": ["Golden Fortify! P1"],
                                  "ignored": [], "dropped": []}


# -- pipelining, rendering -----------------------------------------------------------------------
def test_pipelined_requests_are_answered_out_of_order(client):
    slow = msgpack.packb([0, 1, "npr.invasions", [{"world": sample_world(), "seed": 1}]])
    fast = msgpack.packb([0, 2, "ping", []])
    client.send_raw(slow + fast)
    first, second = client.read_message(), client.read_message()
    assert (first[1], second[1]) == (2, 1)  # the ping did not wait behind the NPR call
    assert first[3] == "pong" and second[3]["decision"] == "npr.invasions"


def test_async_client_many_concurrent_calls(server):
    async def run():
        async with await AsyncClient.connect(unix=server.unix) as c:
            g = await c.call("game.create", setup={"board": "ring-5", "seed": 1})
            calls = [c.call("ping") for _ in range(50)]
            calls += [c.call("game.view", game_id=g["game_id"], token=t) for t in g["seat_tokens"].values()]
            return await asyncio.gather(*calls)

    results = asyncio.run(run())
    assert results[:50] == ["pong"] * 50
    assert [r["you"] for r in results[50:]] == [f"Player#{i}" for i in range(1, 6)]


def test_render_returns_picture_bytes_or_says_it_is_not_installed(client):
    g = client.call("game.create", setup={"board": "ring-5", "seed": 1})
    try:
        png = client.call("game.render", game_id=g["game_id"], token=g["seat_tokens"]["Player#1"], format="png")
    except ServiceError as err:
        assert err.code == "internal" and "not installed" in err.message
        return
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    svg = client.call("game.render", game_id=g["game_id"], token=g["gm_token"], format="svg", kind="summary")
    assert b"<svg" in svg
    with pytest.raises(ServiceError) as err:
        client.call("game.render", game_id=g["game_id"], token=g["gm_token"], format="gif")
    assert err.value.details["field"] == "format"


def test_regent_call_cli(server):
    run = [sys.executable, "-c", "from service.cli import main; raise SystemExit(main())", "call"]
    done = subprocess.run([*run, "game.create", '{"setup": {"board": "ring-5", "seed": 1}}', "--unix", server.unix],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    created = json.loads(done.stdout)
    done = subprocess.run([*run, "game.export", json.dumps({"game_id": created["game_id"],
                                                            "token": created["gm_token"]}), "--unix", server.unix],
                          capture_output=True, text=True, cwd=ROOT)
    blob = json.loads(done.stdout)["blob"]
    assert set(blob) == {"$bytes"}
    done = subprocess.run([*run, "game.import", json.dumps({"blob": blob}), "--unix", server.unix],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0 and json.loads(done.stdout)["game_id"] != created["game_id"]
    done = subprocess.run([*run, "game.view", '{"game_id": "nope", "token": "x"}', "--unix", server.unix],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 1 and json.loads(done.stderr)["code"] == "not_found"


def test_server_path_is_the_example_default():
    from service.server import DEFAULT_DB, DEFAULT_PORT

    assert DEFAULT_PORT == 7750 and Path(DEFAULT_DB).suffix == ".sqlite"


def test_npr_calls_in_worker_processes_give_the_same_answers(tmp_path, client):
    proc = ServerProcess(tmp_path, args=("--processes", "2")).start()
    try:
        with proc.client() as c:
            world = sample_world()
            assert c.call("npr.invasions", world=world, seed=5) == client.call("npr.invasions", world=world, seed=5)
            with pytest.raises(ServiceError) as err:
                c.call("npr.liberate", world=world, provinces=["Atlantis"])
            assert err.value.code == "invalid_params" and err.value.details["field"] == "provinces[0]"
    finally:
        proc.stop()


def test_a_client_that_reads_late_gets_every_reply_in_order(client):
    import threading

    count = 20_000
    frames = b"".join(msgpack.packb([0, i, "ping", []]) for i in range(count))
    sender = threading.Thread(target=client.send_raw, args=(frames,), daemon=True)
    sender.start()
    replies = [client.read_message() for _ in range(count)]
    sender.join(timeout=60)
    assert [r[1] for r in replies] == list(range(count)) and {r[3] for r in replies} == {"pong"}


def test_many_clients_at_once_on_one_game_and_many_games(server):
    """16 connections at once: each seat of one game submits while other games are created and read."""

    async def run():
        async with await AsyncClient.connect(unix=server.unix) as gm_client:
            g = await gm_client.call("game.create", setup={"board": "ring-16", "seed": 3, "players": 16,
                                                           "auto_advance": False})
            clients = [await AsyncClient.connect(unix=server.unix) for _ in range(16)]
            try:
                seats = list(g["seat_tokens"].items())
                submits = [c.call("game.submit", game_id=g["game_id"], token=t, text=f"Bid {i}")
                           for c, (i, (_, t)) in zip(clients, enumerate(seats), strict=True)]
                creates = [c.call("game.create", setup={"board": "ring-5", "seed": i}) for i, c in enumerate(clients)]
                results = await asyncio.gather(*submits, *creates)
                view = await gm_client.call("game.view", game_id=g["game_id"], token=g["gm_token"])
                return results, view
            finally:
                for c in clients:
                    await c.close()

    results, view = asyncio.run(run())
    assert [r["accepted"] for r in results[:16]] == [[f"Bid {i}"] for i in range(16)]
    assert len({r["game_id"] for r in results[16:]}) == 16
    assert view["submissions"] == {f"Player#{i + 1}": [f"Bid {i}"] for i in range(16)}


def test_custom_board_and_a_position_import_over_rpc(client):
    board = {"provinces": {"P1": {"neighbors": ["P2", "P3"]}, "P2": {"neighbors": ["P1", "P3"]},
                           "P3": {"neighbors": ["P1", "P2"]}}, "island": None}
    g = client.call("game.create", setup={"board": board, "seed": 1, "players": 3})
    view = client.call("game.view", game_id=g["game_id"], token=g["gm_token"])
    assert set(view["provinces"]) == {"P1", "P2", "P3"} and view["step"] == "bid"
    moved = client.call("game.create", setup={"board": "ring-5", "seed": 1, "players": 5,
                                              "position": {"turn": 3, "phase": "orders", "realm": {"Player#1": 99}}})
    view = client.call("game.view", game_id=moved["game_id"], token=moved["seat_tokens"]["Player#1"])
    assert (view["turn"], view["step"], view["players"]["Player#1"]["realm"]) == (3, "orders", 99)
    assert {p["deadline"] - view["step_started"] for p in view["pending"]} == {72 * HOUR}


def test_an_orders_step_everyone_answered_none_is_reported_not_left_empty(client):
    # the channel's post of the step (and the turn's report) says no orders were given; it was empty
    g = client.call("game.create", setup={"board": "ring-3", "seed": 5, "auto_advance": False})
    where = {"game_id": g["game_id"], "token": g["gm_token"]}
    client.call("game.advance", **where, force=True)  # the bids: the rulebook's 0 for everyone
    while client.call("game.view", **where)["step"] != "orders":
        client.call("game.advance", **where, force=True)
    for seat in g["seat_tokens"]:
        client.call("game.submit", **where, seat=seat, text="none")
    line = "- No orders this turn: every player sent none, so every Army Unit stays where it is."
    assert line in client.call("game.advance", **where)["report"].splitlines()
    assert line in client.call("game.report", **where, turn=1)["report"].splitlines()


def test_a_seat_the_rulebook_default_played_is_told_so_in_its_own_summary_alone(client):
    # the Discord bot DMs each player game.report private: the silent seat learns its DM did not come
    g = client.call("game.create", setup={"board": "ring-3", "seed": 5, "auto_advance": False})
    where = {"game_id": g["game_id"], "token": g["gm_token"]}
    tokens = g["seat_tokens"]
    for seat in ("Player#1", "Player#2"):
        client.call("game.submit", **where, seat=seat, text="Bid 3")
    client.call("game.advance", **where, force=True)  # Player#3 sent nothing
    told = ("Your bid DM for turn 1 was not stored (none came in time, or none that could be read): "
            "the rulebook default was played for you: Bid 0 "
            "(003 1. Protector Ranking).")
    mine = client.call("game.report", game_id=g["game_id"], token=tokens["Player#3"], turn=1, private="Player#3")
    assert mine["report"].splitlines()[1] == told
    for seat in ("Player#1", "Player#2"):  # secrecy: nobody else's summary says it
        theirs = client.call("game.report", game_id=g["game_id"], token=tokens[seat], turn=1, private=seat)
        assert "not received" not in theirs["report"]
    # the service's summary and the CLI's of its exported file say the same
    from service import gamefile
    from service.defaulted import summary

    gf = gamefile.loads(client.call("game.export", **where)["blob"])
    assert summary(gf.game, "Player#3", 1) == client.call("game.report", **where, turn=1, private="Player#3")["report"]
    # a step forced before the game came in (its actions in the file, no record of the service's): told as well
    again = _imported(client, gf)
    assert client.call("game.report", **again, turn=1, private="Player#3")["report"].splitlines()[1] == told
    assert "not received" not in client.call("game.report", **again, turn=1, private="Player#1")["report"]


def test_a_seat_defaulted_in_a_turns_second_dragon_attack_is_told_which_attack_by_the_service(client):
    # the After Burner attacks again in the turn (rules: 003 Dragon's Power Level): every seat committed against the
    # card's attack (DPL 3), none against the After Burner's (DPL 1), forced; the service's log records the attack
    provinces = {f"P{i}": {"owner": f"Player#{i}", "units": 2} for i in range(1, 4)}
    setup = {"board": "ring-3", "seed": 11, "auto_advance": True,
             "position": {"turn": 3, "step": "dragon", "dpl": 3, "provinces": provinces,
                          "cards_in_play": ["Deep Snow", "There be Dragons!"], "attack": {"dpl": 3, "source": "card"},
                          "pending_attacks": ["after_burner"]}}
    g = client.call("game.create", setup=setup)
    where = {"game_id": g["game_id"], "token": g["gm_token"]}
    for i in range(1, 4):
        client.call("game.submit", **where, seat=f"Player#{i}", text=f"2 from P{i}")
    assert client.call("game.view", **where)["step"] == "dragon"  # the After Burner's attack
    client.call("game.advance", **where, force=True)
    mine = client.call("game.report", **where, turn=3, private="Player#2")["report"].splitlines()
    assert mine[1].startswith("Your Dragon attack DM for turn 3 (the attack at DPL 1) was not stored")


def test_a_setups_agents_and_game_assign_take_the_same_words_for_a_human_seat(client):
    # setup.agents refused "human", which game.assign (and regent seat) take for "a person plays the seat"
    g = client.call("game.create", setup={"board": "ring-5", "seed": 1, "auto_advance": False,
                                          "agents": {"Player#2": "Human", "Player#3": "normal"}})
    view = client.call("game.view", game_id=g["game_id"], token=g["gm_token"])
    assert view["controllers"]["Player#2"] is None and view["controllers"]["Player#3"] == "heuristic"
    back = client.call("game.assign", game_id=g["game_id"], token=g["gm_token"], seat="Player#3", agent=" OFF ")
    assert back == {"seat": "Player#3", "controller": None, "human": True}
