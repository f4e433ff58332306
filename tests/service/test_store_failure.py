"""A store write that fails (the disk full, the database locked by another program) changes nothing: not
the game, and not what the service keeps beside it (the step's clock, a step held by ``game.undo``, who
controls a seat, who submitted), as the reply says ("nothing was changed")."""

from __future__ import annotations

import sqlite3

import pytest

from service.errors import RpcError
from service.store import Store
from tests.service.helpers import in_app

SETUP = {"board": "ring-3", "seed": 4, "players": 3, "auto_advance": False}


class FullDisk:
    """``Store.append`` fails as SQLite does on a full disk while ``full`` is set."""

    def __init__(self, store: Store, monkeypatch: pytest.MonkeyPatch):
        self.full = False
        real = store.append

        def append(*args, **kwargs):
            if self.full:
                raise sqlite3.OperationalError("database or disk is full")
            return real(*args, **kwargs)

        monkeypatch.setattr(store, "append", append)


def _run(tmp_path, monkeypatch, body):
    store = Store(tmp_path / "g.sqlite")
    disk = FullDisk(store, monkeypatch)

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
