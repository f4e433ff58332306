"""The GM's undo (game.undo) and clock (game.deadline): a real server, its SQLite store, a restart."""

from __future__ import annotations

import time

import pytest

from service.client import ServiceError
from tests.service.helpers import ServerProcess

SEATS = [f"Player#{i}" for i in range(1, 6)]


def new_game(c, **extra):
    return c.call("game.create", setup={"rules": "protectors", "board": "ring-5", "seed": 3, "players": 5, **extra})


def bid_all(c, g):
    for n, seat in enumerate(SEATS, start=1):  # different bids: no tie, no re-bid
        c.call("game.submit", game_id=g["game_id"], token=g["seat_tokens"][seat], text=f"Bid {n}")


def without_clocks(view):
    return {k: v for k, v in view.items() if k not in ("step_started", "pending", "clock")}


def test_undo_rolls_the_last_step_back_and_survives_a_restart(tmp_path):
    server = ServerProcess(tmp_path).start()
    try:
        with server.client() as c:
            g = new_game(c)
            gid, gm = g["game_id"], g["gm_token"]
            with pytest.raises(ServiceError) as err:
                c.call("game.undo", game_id=gid, token=gm)
            assert err.value.code == "conflict"
            bid_all(c, g)
            # the last bid resolved the step (rules: all in, the game continues at once)
            after = c.call("game.view", game_id=gid, token=gm, wait=True)
            assert after["step"] == "orders"
            log_after = c.call("game.log", game_id=gid, token=gm)["next"]
            # a seat cannot undo
            with pytest.raises(ServiceError) as err:
                c.call("game.undo", game_id=gid, token=g["seat_tokens"]["Player#1"])
            assert err.value.code == "forbidden"
            assert c.call("game.view", game_id=gid, token=gm)["step"] == "orders"
            out = c.call("game.undo", game_id=gid, token=gm)
            assert out["step"] == "bid" and out["removed"] >= 1
            back = c.call("game.view", game_id=gid, token=gm, wait=True)
            # held: every seat has bid, yet the step waits for the GM
            assert back["step"] == "bid" and back["clock"]["held"] is True
            assert all(p["submitted"] for p in back["pending"])
            assert c.call("game.log", game_id=gid, token=gm)["next"] < log_after
        server.restart()  # kill -9: the store holds the rolled-back game, replayed and digest-checked
        with server.client() as c:
            again = c.call("game.view", game_id=gid, token=gm, wait=True)
            assert without_clocks(again) == without_clocks(back) and again["clock"]["held"] is True
            res = c.call("game.advance", game_id=gid, token=gm, wait=True)
            assert not res["over"]
            redone = c.call("game.view", game_id=gid, token=gm, wait=True)
            assert without_clocks(redone) == without_clocks(after)  # the same bids resolve the same way
            assert redone["clock"]["held"] is False
    finally:
        server.stop()


def test_undo_drop_removes_a_seat_submission(client):
    g = new_game(client)
    gid, gm = g["game_id"], g["gm_token"]
    bid_all(client, g)
    client.call("game.view", game_id=gid, token=gm, wait=True)
    out = client.call("game.undo", game_id=gid, token=gm, drop=["Player#2"])
    assert out["dropped"] == ["Player#2"]
    pending = {p["seat"]: p["submitted"] for p in client.call("game.pending", game_id=gid, token=gm)}
    assert pending == {s: s != "Player#2" for s in SEATS}
    with pytest.raises(ServiceError) as err:
        client.call("game.undo", game_id=gid, token=gm, drop=["Player#9"])
    assert err.value.code == "invalid_params" and err.value.details["field"] == "drop[0]"
    # Player#2 bids again; the step is held until the GM advances
    client.call("game.submit", game_id=gid, token=g["seat_tokens"]["Player#2"], text="Bid 2")
    assert client.call("game.view", game_id=gid, token=gm, wait=True)["step"] == "bid"
    client.call("game.advance", game_id=gid, token=gm, wait=True)
    assert client.call("game.view", game_id=gid, token=gm, wait=True)["step"] == "orders"


def test_deadline_extend_pause_resume(client):
    g = new_game(client)
    gid, gm = g["game_id"], g["gm_token"]
    first = client.call("game.pending", game_id=gid, token=gm)[0]["deadline"]
    out = client.call("game.deadline", game_id=gid, token=gm, action="extend", seconds=3600)
    assert out["pending"][0]["deadline"] == pytest.approx(first + 3600, abs=1e-6)
    out = client.call("game.deadline", game_id=gid, token=gm, action="pause")
    assert out["paused"] is True
    time.sleep(0.3)
    moved = client.call("game.pending", game_id=gid, token=gm)[0]["deadline"]
    assert moved >= first + 3600 + 0.25  # a paused clock moves every deadline on with the wall clock
    with pytest.raises(ServiceError) as err:
        client.call("game.deadline", game_id=gid, token=gm, action="pause")
    assert err.value.code == "conflict"
    out = client.call("game.deadline", game_id=gid, token=gm, action="resume")
    assert out["paused"] is False and out["shift"] >= 3600.25
    for bad, field in (({"action": "stretch"}, "action"), ({"action": "extend", "seconds": -5}, "seconds"),
                       ({"action": "extend"}, "seconds"), ({"action": "pause", "seconds": 5}, "seconds")):
        with pytest.raises(ServiceError) as err:
            client.call("game.deadline", game_id=gid, token=gm, **bad)
        assert err.value.code == "invalid_params" and err.value.details["field"] == field
    with pytest.raises(ServiceError) as err:
        client.call("game.deadline", game_id=gid, token=g["seat_tokens"]["Player#1"], action="pause")
    assert err.value.code == "forbidden"
    # a new step starts with its full window: the extension is gone
    bid_all(client, g)
    view = client.call("game.view", game_id=gid, token=gm, wait=True)
    assert view["clock"]["shift"] == 0.0 and view["step"] == "orders"


def test_paused_game_does_not_expire(tmp_path):
    server = ServerProcess(tmp_path, args=("--expiry-interval", "0.2")).start()
    try:
        with server.client() as c:
            g = new_game(c, deadlines={"bid": 0.5}, expiry={"auto": True})
            gid, gm = g["game_id"], g["gm_token"]
            c.call("game.deadline", game_id=gid, token=gm, action="pause")
            time.sleep(1.2)
            assert c.call("game.view", game_id=gid, token=gm)["step"] == "bid"
            c.call("game.deadline", game_id=gid, token=gm, action="resume")
            end = time.monotonic() + 10
            while c.call("game.view", game_id=gid, token=gm)["step"] == "bid" and time.monotonic() < end:
                time.sleep(0.1)
            assert c.call("game.view", game_id=gid, token=gm)["step"] != "bid"  # resumed: it expires
    finally:
        server.stop()
