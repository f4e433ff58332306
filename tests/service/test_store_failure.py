"""A store write that fails (the disk full, the database locked by another program) changes nothing: not
the game, and not what the service keeps beside it (the step's clock, a step held by ``game.undo``, who
controls a seat, who submitted), as the reply says ("nothing was changed")."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from service.errors import RpcError
from service.store import Store
from tests.service.helpers import in_app

SETUP = {"board": "ring-3", "seed": 4, "players": 3, "auto_advance": False}


class FullDisk:
    """``Store.append`` fails as SQLite does on a full disk while ``full`` is set (``only_rows``: only the
    writes that store an action)."""

    def __init__(self, store: Store, monkeypatch: pytest.MonkeyPatch, only_rows: bool = False):
        self.full = False
        self.refused = 0
        real = store.append

        def append(game_id, seq, actions, meta=None):
            if self.full and (actions or not only_rows):
                self.refused += 1
                raise sqlite3.OperationalError("database or disk is full")
            return real(game_id, seq, actions, meta)

        monkeypatch.setattr(store, "append", append)


def _run(tmp_path, monkeypatch, body, only_rows=False):
    store = Store(tmp_path / "g.sqlite")
    disk = FullDisk(store, monkeypatch, only_rows)

    async def made(app):
        g = await app.call("game.create", [{"setup": SETUP}])
        await body(app, {"game_id": g["game_id"], "token": g["gm_token"]}, disk)

    in_app(made, store)


def _said(view: dict) -> tuple:
    """What a failed write must leave as it was."""
    return (
        view["turn"],
        view["step"],
        view["step_started"],
        view["clock"],
        [(p["seat"], p["submitted"], p["deadline"]) for p in view["pending"]],
        view["controllers"],
    )


def test_a_failed_advance_leaves_the_steps_clock_and_submissions(tmp_path, monkeypatch):
    async def body(app, gm, disk):
        await app.call("game.submit", [{**gm, "seat": "Player#1", "text": "Bid 1"}])
        before = _said(await app.call("game.view", [gm]))
        disk.full = True
        with pytest.raises(RpcError) as err:
            await app.call("game.advance", [{**gm, "force": True}])
        assert "nothing was changed" in err.value.message
        assert err.value.code == "unavailable"  # sent again later it may succeed; 'internal' is for Regent's bugs
        assert _said(await app.call("game.view", [gm])) == before
        disk.full = False
        # and what is stored next is that state, not the failed call's
        await app.call("game.submit", [{**gm, "seat": "Player#2", "text": "Bid 1"}])
        after = _said(await app.call("game.view", [gm]))
        assert after[:4] == before[:4]

    _run(tmp_path, monkeypatch, body)


def test_a_failed_advance_keeps_a_step_undo_held(tmp_path, monkeypatch):
    async def body(app, gm, disk):
        await app.call("game.advance", [{**gm, "force": True}])
        await app.call("game.undo", [gm])
        before = _said(await app.call("game.view", [gm]))
        assert before[3]["held"]
        disk.full = True
        with pytest.raises(RpcError):
            await app.call("game.advance", [{**gm, "force": True}])
        assert _said(await app.call("game.view", [gm])) == before

    _run(tmp_path, monkeypatch, body)


def test_a_failed_assign_leaves_the_seat_to_its_player(tmp_path, monkeypatch):
    async def body(app, gm, disk):
        before = _said(await app.call("game.view", [gm]))
        disk.full = True
        with pytest.raises(RpcError):
            await app.call("game.assign", [{**gm, "seat": "Player#2", "agent": "random"}])
        assert _said(await app.call("game.view", [gm])) == before
        disk.full = False
        await app.call("game.submit", [{**gm, "seat": "Player#1", "text": "Bid 1"}])
        assert (await app.call("game.view", [gm]))["controllers"]["Player#2"] is None

    _run(tmp_path, monkeypatch, body)


def test_a_failed_deadline_change_leaves_the_clock(tmp_path, monkeypatch):
    async def body(app, gm, disk):
        before = _said(await app.call("game.view", [gm]))
        disk.full = True
        for change in ({"action": "extend", "seconds": 3600}, {"action": "pause"}):
            with pytest.raises(RpcError):
                await app.call("game.deadline", [{**gm, **change}])
            assert _said(await app.call("game.view", [gm])) == before

    _run(tmp_path, monkeypatch, body)


def test_an_ai_decision_the_store_refused_is_tried_again(tmp_path, monkeypatch):
    # the background work stopped at the failed write: the AI seat never decided again (until another call
    # came), so the step waited for its deadline and the rulebook's default played the seat
    monkeypatch.setattr("service.app.STORE_RETRY", (0.01,))

    async def body(app, gm, disk):
        disk.full = True
        await app.call("game.assign", [{**gm, "seat": "Player#3", "agent": "random"}])
        while not disk.refused:  # the AI seat decided; its decision could not be stored
            await asyncio.sleep(0.01)
        disk.full = False
        for _ in range(3000):  # (the retry comes after STORE_RETRY[0] seconds; a failure gives up after 30 s)
            pending = await app.call("game.pending", [{**gm, "wait": True}])
            if next(p for p in pending if p["seat"] == "Player#3")["submitted"]:
                break
            await asyncio.sleep(0.01)
        assert (await app.call("game.view", [gm]))["played_by_ai"] == {"Player#3": ["random"]}

    _run(tmp_path, monkeypatch, body, only_rows=True)
