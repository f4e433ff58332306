"""Issue 8 evidence 1: the real server process, a 5-player game, two humans sending DM text and
three AI seats, played to the end through RPC only."""

from __future__ import annotations

import pytest

from engine.protectors.game import Game
from service.client import ServiceError
from tests.service.helpers import ServerProcess

MAX_ROUNDS = 2000
HUMANS = ("Player#1", "Player#2")


def ai_seats() -> dict[str, str]:
    """caretaker, heuristic and a shipped policy (issue 8); random stands in for what has not landed."""
    from agents.registry import AGENTS

    return {"Player#3": "caretaker", "Player#4": "heuristic" if "heuristic" in AGENTS else "random",
            "Player#5": "ppo" if "ppo" in AGENTS else "random"}


def dm_text(view: dict, seat: str) -> str:
    """What a cautious human would DM the GM, from their own view only."""
    step = view["step"]
    if step in ("bid", "rebid", "bank_bid"):
        return "Bid 1" if view["players"][seat]["realm"] >= 1 else "Bid 0"
    if step == "orders":
        mine = [p for p, pr in view["provinces"].items() if pr["holder"] == seat and pr["units"] > 0]
        return "\n".join(f"Fortify! {p}" for p in mine)
    if step == "consolidation":
        return "Bid 0"
    return ""  # dragon: commit nothing ("Turn off the lights")


def play(client, game) -> dict:
    gid, gm, tokens = game["game_id"], game["gm_token"], game["seat_tokens"]
    submitted_text, kinds = 0, set()
    for _ in range(MAX_ROUNDS):
        pending = client.call("game.pending", game_id=gid, token=gm, wait=True)
        view = client.call("game.view", game_id=gid, token=gm)
        if view["over"]:
            return {"view": view, "texts": submitted_text, "kinds": kinds}
        humans = [p["seat"] for p in pending if p["seat"] in HUMANS and not p["submitted"]]
        for seat in humans:
            seat_view = client.call("game.view", game_id=gid, token=tokens[seat])
            reply = client.call("game.submit", game_id=gid, token=tokens[seat], seat=seat,
                                text=dm_text(seat_view, seat))
            assert reply["rejected"] == []
            submitted_text += 1
            kinds.add(seat_view["step"])
        if not humans:  # nothing a human can do: the GM resolves the step
            client.call("game.advance", game_id=gid, token=gm, force=True, wait=True)
    raise AssertionError("the game did not end")


def test_five_player_game_two_humans_three_ai_to_the_end(client):
    game = client.call("game.create", setup={"rules": "protectors", "board": "ring-5", "seed": 7, "players": 5})
    gid, gm = game["game_id"], game["gm_token"]
    assert sorted(game["seat_tokens"]) == [f"Player#{i}" for i in range(1, 6)]
    for seat, agent in ai_seats().items():
        reply = client.call("game.assign", game_id=gid, token=gm, seat=seat, agent=agent)
        assert reply["seat"] == seat and reply["controller"] is not None
    out = play(client, game)
    view = out["view"]
    assert view["step"] == "over" and view["result"] is not None
    assert out["texts"] >= 2 and {"bid", "orders"} <= out["kinds"]  # the humans' DMs: bids and orders
    # Reports label the AI seats, and only them.
    assert set(view["played_by_ai"]) == set(ai_seats())
    assert set(view["controllers"]) == {f"Player#{i}" for i in range(1, 6)}
    assert all(view["controllers"][h] is None for h in HUMANS)
    log = client.call("game.log", game_id=gid, token=gm)
    assert log["events"][-1]["kind"] == "game_over"
    report = client.call("game.report", game_id=gid, token=gm, turn=1)
    assert set(report["played_by_ai"]) == set(ai_seats())
    assert report["report"].startswith("== Turn 1 ==") and "Played by AI: Player#3 (caretaker)" in report["report"]
    # The export replays, outside the server, to exactly the state the server holds.
    blob = client.call("game.export", game_id=gid, token=gm)["blob"]
    import msgpack

    from service.hosting import EXPORT_KIND

    data = msgpack.unpackb(blob, raw=False, strict_map_key=False)
    assert data["kind"] == EXPORT_KIND
    replayed = Game.from_blob(blob)  # the game file is an engine blob with the GM keys beside it
    assert replayed.result == view["result"]
    assert len(replayed.state.events) == len(log["events"])
    assert any(a[0] == "submit" and a[1] in HUMANS for a in replayed.actions)


def test_the_human_text_is_what_the_engine_stores(client):
    game = client.call("game.create", setup={"board": "ring-5", "seed": 2, "players": 5,
                                             "auto_advance": False})
    gid, tokens = game["game_id"], game["seat_tokens"]
    reply = client.call("game.submit", game_id=gid, token=tokens["Player#1"], text="  bid   3 ")
    assert reply == {"accepted": ["Bid 3"], "rejected": [], "lines": ["Bid 3"], "ignored": [], "dropped": []}
    view = client.call("game.view", game_id=gid, token=tokens["Player#1"])
    assert view["submitted"] == ["Bid 3"]


def test_game_over_refuses_advance(client):
    game = client.call("game.create", setup={"board": "ring-4", "seed": 1, "players": 4,
                                             "agents": dict.fromkeys(("Player#1", "Player#2", "Player#3",
                                                                      "Player#4"), "caretaker")})
    gid, gm = game["game_id"], game["gm_token"]
    for _ in range(MAX_ROUNDS):
        view = client.call("game.view", game_id=gid, token=gm, wait=True)
        if view["over"]:
            break
    assert view["over"], "an all-AI game plays itself to the end (rules: 003, steps resolve at once)"
    with pytest.raises(ServiceError) as err:
        client.call("game.advance", game_id=gid, token=gm)
    assert err.value.code == "conflict"


def test_over_tcp_the_default_transport(tmp_path):
    proc = ServerProcess(tmp_path, tcp=True).start()
    try:
        with proc.client() as c:
            assert c.call("ping") == "pong"
            assert "game.create" in c.call("methods")
            assert c.call("version")["protocol"] == 1
    finally:
        process = proc.proc
        proc.stop()
    assert process.returncode == 0  # SIGTERM: a clean shutdown
    assert [r["msg"] for r in proc.logs()][-1] == "shutting down"
