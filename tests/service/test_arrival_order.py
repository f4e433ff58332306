"""Calls on one game apply in the order they arrived, and a GM's call acts on the step open when it arrived:
``game.advance {force}`` sent while AI seats are deciding never forces the step opened after their decisions
resolved it by themselves (dogfood 2: every human's orders were defaulted a moment after the orders step opened),
and a ``game.submit`` pipelined behind an advance is applied after it."""

from __future__ import annotations

import asyncio
import threading

import pytest

from service.app import App
from service.errors import RpcError
from service.store import Store
from tests.service.helpers import ThinkingHeuristic

SETUP = {"board": "ring-3", "players": 3, "seed": 4, "agents": {"Player#3": "test-slow"}}


@pytest.fixture
def slow(monkeypatch):
    """An agent that thinks until the test sets ``release`` (``started``: it has begun)."""
    from agents.registry import AGENTS

    started, release = threading.Event(), threading.Event()

    def think():
        started.set()
        assert release.wait(30), "the test never released the agent"

    monkeypatch.setitem(AGENTS, "test-slow", lambda seed: ThinkingHeuristic(think))
    yield started, release
    release.set()


def _run(tmp_path, slow, body):
    started, release = slow

    async def go():
        app = App(Store(tmp_path / "g.sqlite"), workers=3, expiry_interval=0)
        app.start()
        try:
            g = await app.call("game.create", [{"setup": SETUP}])
            assert await asyncio.get_running_loop().run_in_executor(None, started.wait, 10)
            await body(app, g, release)
        finally:
            release.set()
            await app.close()

    asyncio.run(go())


def _at(app, g) -> tuple[int, str]:
    game = app.games[g["game_id"]].game
    return game.state.turn, game.step


def _forced(app, g) -> list[dict]:
    return [row for row, _, _ in app.games[g["game_id"]].rows if row["a"][0] == "advance" and row["a"][1]]


def test_a_force_sent_while_the_last_ai_seat_decides_never_forces_the_next_step(tmp_path, slow):
    async def body(app, g, release):
        gm = {"game_id": g["game_id"], "token": g["gm_token"]}
        for n in (1, 2):  # every human is in; the AI seat is still thinking
            await app.call("game.submit", [{"game_id": g["game_id"], "token": g["seat_tokens"][f"Player#{n}"],
                                            "text": f"Bid {n}"}])
        advance = asyncio.ensure_future(app.call("game.advance", [{**gm, "force": True}]))
        await asyncio.sleep(0.2)
        assert not advance.done()  # it waits for the AI seat's own decision
        release.set()  # its bid completes the step, which resolves by itself (rules: 003)
        with pytest.raises(RpcError) as err:
            await asyncio.wait_for(advance, 20)
        assert err.value.code == "conflict"
        message = err.value.message
        assert "the bid step of turn 1 resolved by itself when the last decision came in" in message, message
        assert "the orders step of turn 1 is open now" in message and "nothing was forced" in message, message
        assert _at(app, g) == (1, "orders") and _forced(app, g) == []  # the orders step was not forced
        pending = await app.call("game.pending", [gm])
        assert {p["seat"]: p["submitted"] for p in pending}["Player#1"] is False

    _run(tmp_path, slow, body)


def test_a_submit_pipelined_behind_a_force_is_applied_after_it(tmp_path, slow):
    async def body(app, g, release):
        gm = {"game_id": g["game_id"], "token": g["gm_token"]}
        advance = asyncio.ensure_future(app.call("game.advance", [{**gm, "force": True}]))
        submit = asyncio.ensure_future(app.call("game.submit", [{"game_id": g["game_id"],
                                                                 "token": g["seat_tokens"]["Player#1"],
                                                                 "text": "Bid 1"}]))
        await asyncio.sleep(0.2)
        assert not submit.done()  # behind the advance, which waits for the AI seat
        release.set()
        result = await asyncio.wait_for(advance, 20)
        assert "Rulebook defaults for: Player#1, Player#2 in the bid step" in result["report"], result["report"]
        with pytest.raises(RpcError):  # a bid after the bid step was forced: no longer the bid step
            await asyncio.wait_for(submit, 20)
        rows = app.games[g["game_id"]].rows
        first = next(i for i, (row, _, _) in enumerate(rows) if row["a"][0] == "advance")
        assert not [row for row, _, _ in rows[:first] if row["a"][1] == "Player#1"]

    _run(tmp_path, slow, body)


def test_two_forces_pipelined_resolve_one_step(tmp_path, slow):
    async def body(app, g, release):
        release.set()
        gm = {"game_id": g["game_id"], "token": g["gm_token"]}
        first = asyncio.ensure_future(app.call("game.advance", [{**gm, "force": True}]))
        second = asyncio.ensure_future(app.call("game.advance", [{**gm, "force": True}]))
        await asyncio.wait_for(first, 20)
        with pytest.raises(RpcError) as err:
            await asyncio.wait_for(second, 20)
        assert err.value.code == "conflict"
        assert "the bid step of turn 1 was resolved by an earlier game.advance" in err.value.message
        assert len(_forced(app, g)) == 1

    _run(tmp_path, slow, body)
