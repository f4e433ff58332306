"""One game's background work never holds another game's deadlines: the expiry check waited for each expired
game's AI seats in turn, so a game with slow AI seats (an ``expert`` seat at a 16-seat table thinks for seconds a
decision) held the deadlines of every game after it on the server. Each expired game now resolves in a task of its
own; the check only reads the clocks and starts them."""

from __future__ import annotations

import asyncio
import threading

import pytest

from service.app import App
from service.store import Store
from tests.service.helpers import ThinkingHeuristic

EXPIRES = {"deadlines": {"bid": 0}, "expiry": {"auto": True, "fill": "default"}}


@pytest.fixture
def held(monkeypatch):
    """An agent that thinks until the test releases it (``started``: it has begun)."""
    from agents.registry import AGENTS

    started, release = threading.Event(), threading.Event()

    def think():
        started.set()
        assert release.wait(30), "the test never released the agent"

    monkeypatch.setitem(AGENTS, "test-held", lambda seed: ThinkingHeuristic(think))
    yield started, release
    release.set()


def _resolved_by(app: App, game_id: str) -> str | None:
    """Who resolved the game's first step, as stored (None: not yet). (The stored rows, not the engine's state,
    which a worker thread changes before the step is stored.)"""
    rows = list(app.games[game_id].rows)
    return next((row["by"] for row, _, _ in rows if row["a"][0] == "advance"), None)


async def _until(condition, bound: float = 20.0) -> None:
    """Wait for ``condition()`` (``bound``: only so a broken server fails the test instead of hanging it)."""
    async def poll():
        while not condition():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(poll(), bound)


def test_a_deadline_passes_in_one_game_while_another_games_ai_seat_still_thinks(tmp_path, held):
    started, release = held

    async def go():
        app = App(Store(tmp_path / "g.sqlite"), workers=2, expiry_interval=0.02)
        app.start()
        try:
            # the slow game first: the expiry check reaches it first
            slow = await app.call("game.create", [{"setup": {"board": "ring-3", "players": 3, "seed": 4, **EXPIRES,
                                                             "agents": {"Player#3": "test-held"}}}])
            other = await app.call("game.create", [{"setup": {"board": "ring-3", "players": 3, "seed": 5,
                                                              **EXPIRES}}])
            assert await asyncio.get_running_loop().run_in_executor(None, started.wait, 10)
            await _until(lambda: _resolved_by(app, other["game_id"]) is not None)  # the other game's step resolves...
            assert not release.is_set() and _resolved_by(app, slow["game_id"]) is None  # ...while this one thinks
            assert _resolved_by(app, other["game_id"]) == "expired"
            release.set()  # the slow game's AI seat decides, then its own deadline resolves the step
            await _until(lambda: _resolved_by(app, slow["game_id"]) is not None)
            rows = [row for row, _, _ in app.games[slow["game_id"]].rows]
            first = next(i for i, row in enumerate(rows) if row["a"][0] == "advance")
            assert rows[first]["by"] == "expired"
            mine = [row["by"] for row in rows[:first] if row["a"][0] == "submit" and row["a"][1] == "Player#3"]
            assert mine == ["ai:test-held"]  # its AI seat's own bid, not the fill
        finally:
            release.set()
            await app.close()

    asyncio.run(go())


def test_games_expiring_together_leave_the_ai_seats_pool_room_for_other_games_ai_seats(tmp_path, monkeypatch):
    # each expired game now resolves in its own task, so games whose deadlines pass together fill their silent seats
    # together; with an agent as expiry.fill each fill thinks for every silent seat (a minute for an expert at a
    # 16-seat table) in the AI seats' pool. At most half of that pool fills at once, so other games' AI seats still
    # decide meanwhile.
    from agents.registry import AGENTS

    thinking, release, fills = threading.Semaphore(0), threading.Event(), []

    def think():
        fills.append(1)
        thinking.release()
        assert release.wait(30), "the test never released the fill"

    monkeypatch.setitem(AGENTS, "test-held", lambda seed: ThinkingHeuristic(think))
    expires = {"deadlines": {"bid": 0}, "expiry": {"auto": True, "fill": "test-held"}}

    async def go():
        app = App(Store(tmp_path / "g.sqlite"), workers=2, expiry_interval=0.02)
        app.start()
        try:
            expiring = [await app.call("game.create", [{"setup": {"board": "ring-3", "players": 3, "seed": seed,
                                                                  **expires}}]) for seed in (1, 2)]
            assert await asyncio.get_running_loop().run_in_executor(None, thinking.acquire, True, 10)
            ai = await app.call("game.create", [{"setup": {"board": "ring-3", "players": 3, "seed": 3,
                                                           "agents": {"Player#3": "heuristic"}}}])
            hosted = app.games[ai["game_id"]]
            await _until(lambda: any(row["by"] == "ai:heuristic" for row, _, _ in list(hosted.rows)))  # decided...
            assert not release.is_set() and len(fills) == 1  # ...while a fill thinks, and the other waits its turn
            release.set()
            for g in expiring:  # then both fills think, and both steps resolve as their deadlines passed
                await _until(lambda g=g: _resolved_by(app, g["game_id"]) is not None)
                assert _resolved_by(app, g["game_id"]) == "expired"
        finally:
            release.set()
            await app.close()

    asyncio.run(go())
