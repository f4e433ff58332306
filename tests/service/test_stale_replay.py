"""A stored game whose actions replay to another state than the one stored (a rule fixed since it was
played changed a step it went through) is not lost: it stays readable and exportable, refuses changes
with a CONFLICT that says where the replay left the record and how to go on, and its exported file
imports as a new game that takes decisions under the current rules. Actions that do not replay at all
still make the game unavailable."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from service.app import App
from service.errors import RpcError
from service.store import Store

SETUP = {"board": "ring-3", "players": 3, "seed": 7}


def _play(tmp_path) -> dict:
    async def go():
        app = App(Store(tmp_path / "g.sqlite"), workers=2, expiry_interval=0)
        app.start()
        g = await app.call("game.create", [{"setup": SETUP}])
        for n in (1, 2, 3):
            await app.call("game.submit", [{"game_id": g["game_id"], "token": g["seat_tokens"][f"Player#{n}"],
                                            "text": f"Bid {n}"}])
        await app.call("game.view", [{"game_id": g["game_id"], "token": g["gm_token"], "wait": True}])
        await app.close()
        return g

    return asyncio.run(go())


def _tamper(tmp_path, game_id: str, from_seq: int, column: str = "digest") -> int:
    """Rewrite the stored digests (or actions) from ``from_seq`` on, as a rules change would make them
    disagree; returns how many actions the game has."""
    db = sqlite3.connect(tmp_path / "g.sqlite")
    with db:
        if column == "digest":
            db.execute("UPDATE actions SET digest = 'x' WHERE game_id = ? AND seq >= ?", (game_id, from_seq))
        else:  # an action the engine cannot take
            from service.store import pack
            db.execute("UPDATE actions SET action = ? WHERE game_id = ? AND seq = ?",
                       (pack({"a": ["submit", "Player#9", "nonsense"], "by": "seat"}), game_id, from_seq))
    n = db.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)).fetchone()[0]
    db.close()
    return n


def test_a_game_that_replays_differently_is_read_only_and_carries_on_as_an_import(tmp_path):
    g = _play(tmp_path)
    n = _tamper(tmp_path, g["game_id"], from_seq=2)
    gm = {"game_id": g["game_id"], "token": g["gm_token"]}

    async def go():
        app = App(Store(tmp_path / "g.sqlite"), workers=2, expiry_interval=0)
        app.start()
        try:
            view = await app.call("game.view", [gm])  # readable
            assert view["stale"].startswith(f"replayed under this Regent's rules it leaves the stored record at "
                                            f"action 3 of {n} (turn 1, bid step)")
            assert (await app.call("game.report", [{**gm, "turn": 1}]))["report"]
            token = g["seat_tokens"]["Player#1"]
            with pytest.raises(RpcError) as err:
                await app.call("game.submit", [{"game_id": g["game_id"], "token": token, "text": "none"}])
            assert err.value.code == "conflict" and "read-only" in err.value.message
            assert "game.export it and game.import the file" in err.value.message
            for method, extra in (("game.advance", {"force": True}), ("game.assign", {"seat": "Player#2",
                                                                                     "agent": "heuristic"})):
                with pytest.raises(RpcError) as err:
                    await app.call(method, [{**gm, **extra}])
                assert err.value.code == "conflict", method
            blob = (await app.call("game.export", [gm]))["blob"]
            again = await app.call("game.import", [{"blob": blob}])
            fresh = await app.call("game.view", [{"game_id": again["game_id"], "token": again["gm_token"]}])
            assert "stale" not in fresh and fresh["turn"] == view["turn"] and fresh["step"] == view["step"]
            seat = next(p["seat"] for p in fresh["pending"] if not p["submitted"])
            done = await app.call("game.submit", [{"game_id": again["game_id"],
                                                   "token": again["seat_tokens"][seat], "text": "none"}])
            assert done["accepted"] is not None
        finally:
            await app.close()

    asyncio.run(go())


def test_actions_that_do_not_replay_still_make_the_game_unavailable(tmp_path):
    g = _play(tmp_path)
    _tamper(tmp_path, g["game_id"], from_seq=1, column="action")

    async def go():
        app = App(Store(tmp_path / "g.sqlite"), workers=2, expiry_interval=0)
        app.start()
        try:
            with pytest.raises(RpcError) as err:
                await app.call("game.view", [{"game_id": g["game_id"], "token": g["gm_token"]}])
            assert err.value.code == "internal" and "do not replay" in err.value.message
        finally:
            await app.close()

    asyncio.run(go())
