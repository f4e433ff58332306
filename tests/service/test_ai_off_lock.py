"""An AI seat decides outside its game's lock: a player's DM and the GM's calls for the same game are
answered while an ``expert`` seat thinks; a decision for a seat given back to a player is dropped; and
the GM's advance and undo and a passing deadline wait for the AI seat, as they did when it held the lock."""

from __future__ import annotations

import asyncio
import threading

import pytest

from service.app import App
from service.store import Store
from tests.service.helpers import ThinkingHeuristic

SETUP = {"board": "ring-3", "players": 3, "seed": 4, "agents": {"Player#3": "test-slow"}}


def slow_agent(started: threading.Event, release: threading.Event) -> ThinkingHeuristic:
    """Thinks until ``release`` is set (``started`` says it has begun)."""

    def think():
        started.set()
        assert release.wait(30), "the test never released the agent"

    return ThinkingHeuristic(think)


@pytest.fixture
def slow(monkeypatch):
    from agents.registry import AGENTS

    started, release = threading.Event(), threading.Event()
    monkeypatch.setitem(AGENTS, "test-slow", lambda seed: slow_agent(started, release))
    yield started, release
    release.set()


def _run(tmp_path, slow, body, setup=None, expiry_interval=0.0):
    started, release = slow

    async def go():
        app = App(Store(tmp_path / "g.sqlite"), workers=3, expiry_interval=expiry_interval)
        app.start()
        try:
            g = await app.call("game.create", [{"setup": {**SETUP, **(setup or {})}}])
            assert await asyncio.get_running_loop().run_in_executor(None, started.wait, 10)
            await body(app, g, release)
        finally:
            release.set()
            await app.close()

    asyncio.run(go())


async def _pending(app, g) -> dict[str, bool]:
    rows = await app.call("game.pending", [{"game_id": g["game_id"], "token": g["gm_token"]}])
    return {p["seat"]: p["submitted"] for p in rows}


async def _settle(app, g) -> None:
    task = app.pumps.get(g["game_id"])
    if task is not None:
        await asyncio.wait_for(asyncio.shield(task), 20)


def _ai_rows(app, g) -> list[tuple[int, dict]]:
    """(index, row) of the stored rows the test agent decided, beside the index of the first advance."""
    return [(i, row) for i, (row, _, _) in enumerate(app.games[g["game_id"]].rows) if row.get("by") == "ai:test-slow"]


def _first_advance(app, g) -> int:
    return next(i for i, (row, _, _) in enumerate(app.games[g["game_id"]].rows) if row["a"][0] == "advance")


def test_a_dm_is_answered_while_an_ai_seat_of_the_same_game_thinks(tmp_path, slow):
    async def body(app, g, release):
        token = g["seat_tokens"]["Player#1"]
        answer = await asyncio.wait_for(app.call("game.submit", [{"game_id": g["game_id"], "token": token,
                                                                  "text": "Bid 1"}]), 10)
        assert answer["accepted"] and not release.is_set()  # stored while the AI seat was still deciding
        assert await _pending(app, g) == {"Player#1": True, "Player#2": False, "Player#3": False}
        release.set()
        await _settle(app, g)
        assert await _pending(app, g) == {"Player#1": True, "Player#2": False, "Player#3": True}
        assert [row["a"][1] for _, row in _ai_rows(app, g)] == ["Player#3"]

    _run(tmp_path, slow, body)


def test_the_gms_advance_waits_for_the_ai_seat_to_decide(tmp_path, slow):
    # as before decisions left the lock: a step the GM forces is resolved with the AI seat's own decision
    async def body(app, g, release):
        gm = {"game_id": g["game_id"], "token": g["gm_token"]}
        advance = asyncio.ensure_future(app.call("game.advance", [{**gm, "force": True}]))
        await asyncio.sleep(0.3)
        assert not advance.done()
        release.set()
        await asyncio.wait_for(advance, 20)
        rows = _ai_rows(app, g)
        assert rows and rows[0][0] < _first_advance(app, g) and rows[0][1]["a"][1] == "Player#3"

    _run(tmp_path, slow, body)


def test_a_deadline_that_passes_while_the_ai_seat_thinks_waits_for_it(tmp_path, slow):
    async def body(app, g, release):
        await asyncio.sleep(0.5)  # the bid step's deadline (0 s) has passed; the expiry check runs every 0.05 s
        assert (await _pending(app, g))["Player#3"] is False
        release.set()
        for _ in range(200):
            if app.games[g["game_id"]].game.state.step != "bid" or app.games[g["game_id"]].game.state.turn > 1:
                break
            await asyncio.sleep(0.05)
        rows = app.games[g["game_id"]].rows
        first = _first_advance(app, g)
        assert rows[first][0]["by"] == "expired"  # the deadline resolved the step...
        mine = [row for row, _, _ in rows[:first] if row["a"][0] == "submit" and row["a"][1] == "Player#3"]
        assert [row["by"] for row in mine] == ["ai:test-slow"]  # ...with the AI seat's own bid, not the fill

    _run(tmp_path, slow, body, setup={"deadlines": {"bid": 0}, "expiry": {"auto": True, "fill": "random"}},
         expiry_interval=0.05)


def test_a_decision_for_a_seat_given_back_to_a_player_is_dropped(tmp_path, slow):
    async def body(app, g, release):
        gm = {"game_id": g["game_id"], "token": g["gm_token"]}
        back = await asyncio.wait_for(app.call("game.assign", [{**gm, "seat": "Player#3", "agent": None}]), 10)
        assert back["human"] and not release.is_set()
        release.set()
        await _settle(app, g)
        assert (await _pending(app, g))["Player#3"] is False
        assert _ai_rows(app, g) == []

    _run(tmp_path, slow, body)


def gated_agent(gate: threading.Semaphore, asked: threading.Semaphore) -> ThinkingHeuristic:
    """Decides only when the test lets one decision through ``gate`` (``asked`` counts the decisions begun)."""

    def think():
        asked.release()
        assert gate.acquire(timeout=30), "the test never let the decision through"

    return ThinkingHeuristic(think)


def test_the_gms_undo_waits_for_the_ai_seat_then_rolls_its_decision_back_with_the_step(tmp_path, monkeypatch,
                                                                                         caplog):
    from agents.registry import AGENTS

    gate, asked = threading.Semaphore(0), threading.Semaphore(0)
    monkeypatch.setitem(AGENTS, "test-gate", lambda seed: gated_agent(gate, asked))
    setup = {"board": "ring-3", "players": 3, "seed": 4, "agents": {"Player#3": "test-gate"}}

    async def waited(sem):
        assert await asyncio.get_running_loop().run_in_executor(None, sem.acquire, True, 10)

    async def go():
        app = App(Store(tmp_path / "g.sqlite"), workers=3, expiry_interval=0)
        app.start()
        try:
            g = await app.call("game.create", [{"setup": setup}])
            gm = {"game_id": g["game_id"], "token": g["gm_token"]}
            await waited(asked)  # the AI seat is deciding its bid
            for n in (1, 2):
                await app.call("game.submit", [{"game_id": g["game_id"], "token": g["seat_tokens"][f"Player#{n}"],
                                                "text": f"Bid {n}"}])
            gate.release()  # its bid goes in, the step resolves, and it starts on the next step
            await waited(asked)
            hosted = app.games[g["game_id"]]
            assert hosted.game.step != "bid"
            undo = asyncio.ensure_future(app.call("game.undo", [gm]))
            await asyncio.sleep(0.3)
            assert not undo.done()  # it waits for the AI seat, as game.advance does
            gate.release()
            undone = await asyncio.wait_for(undo, 10)
            assert (undone["turn"], undone["step"]) == (1, "bid")
            game = app.games[g["game_id"]].game
            assert (game.state.turn, game.step) == (1, "bid") and set(game.state.submissions) == set(game.state.players)
            assert not [r for r in caplog.records if "rulebook default" in r.getMessage()]
        finally:
            gate.release()
            await app.close()

    asyncio.run(go())


def test_an_agent_that_fails_outside_the_lock_gets_the_rulebook_default_said_once(tmp_path, monkeypatch, caplog):
    from agents.registry import AGENTS

    def boom():
        raise RuntimeError("boom: the agent broke")

    monkeypatch.setitem(AGENTS, "test-broken", lambda seed: ThinkingHeuristic(boom))

    async def go():
        app = App(Store(tmp_path / "g.sqlite"), workers=2, expiry_interval=0)
        app.start()
        try:
            g = await app.call("game.create", [{"setup": {**SETUP, "agents": {"Player#3": "test-broken"}}}])
            await _settle(app, g)
            assert (await _pending(app, g))["Player#3"] is True  # the rulebook default stood in
            said = [r.getMessage() for r in caplog.records if "rulebook default" in r.getMessage()]
            assert len(said) == 1 and "boom: the agent broke" in said[0], said  # once, with the agent's reason
        finally:
            await app.close()

    asyncio.run(go())


def test_calls_are_answered_while_ai_seats_in_as_many_games_as_workers_think(tmp_path, monkeypatch):
    # AI seats thought in the workers that answer calls: with every worker thinking (an expert seat at a 16-seat table
    # thinks for seconds, and each game with AI seats keeps one thinking), a game.view of any other game waited for
    # them (up to 25 s with four such games). They think in a pool of their own now.
    from agents.registry import AGENTS

    workers, thinking, release = 2, threading.Semaphore(0), threading.Event()

    def think():
        thinking.release()
        assert release.wait(30), "the test never released the agents"

    monkeypatch.setitem(AGENTS, "test-held", lambda seed: ThinkingHeuristic(think))

    async def go():
        app = App(Store(tmp_path / "g.sqlite"), workers=workers, expiry_interval=0.0)
        app.start()
        try:
            other = await app.call("game.create", [{"setup": {"board": "ring-3", "players": 3, "seed": 1}}])
            for seed in range(workers):
                await app.call("game.create", [{"setup": {**SETUP, "seed": seed, "agents": {"Player#3": "test-held"}}}])
            for _ in range(workers):  # every worker's worth of AI seats is thinking
                assert await asyncio.get_running_loop().run_in_executor(None, thinking.acquire, True, 10)
            view = await asyncio.wait_for(app.call("game.view", [{"game_id": other["game_id"],
                                                                   "token": other["seat_tokens"]["Player#1"]}]), 10)
            assert view["you"] == "Player#1"
            answer = await asyncio.wait_for(app.call("game.submit", [{"game_id": other["game_id"], "text": "Bid 2",
                                                                      "token": other["seat_tokens"]["Player#2"]}]), 10)
            assert answer["lines"] == ["Bid 2"]
        finally:
            release.set()
            await app.close()

    asyncio.run(go())


def test_calls_are_answered_while_expiry_fills_in_as_many_games_as_workers_think(tmp_path, monkeypatch):
    # a step expiring with an agent as expiry.fill has it decide for every silent seat under the game's lock (an
    # expert at a 16-seat table: seconds a seat): in the calls' workers, so as many expiring games as workers held
    # every call to any game. The fill thinks in the AI seats' pool now.
    from agents.registry import AGENTS

    workers, thinking, release = 2, threading.Semaphore(0), threading.Event()

    def think():
        thinking.release()
        assert release.wait(30), "the test never released the agents"

    monkeypatch.setitem(AGENTS, "test-held", lambda seed: ThinkingHeuristic(think))

    async def go():
        app = App(Store(tmp_path / "g.sqlite"), workers=workers, expiry_interval=0.0)
        app.start()
        forced = []
        try:
            other = await app.call("game.create", [{"setup": {"board": "ring-3", "players": 3, "seed": 1}}])
            for seed in range(workers):
                g = await app.call("game.create", [{"setup": {"board": "ring-3", "players": 3, "seed": seed,
                                                              "expiry": {"fill": "test-held"}}}])
                forced.append(asyncio.ensure_future(app.call("game.advance", [{
                    "game_id": g["game_id"], "token": g["gm_token"], "expired": True, "force": True}])))
            for _ in range(workers):  # every worker's worth of fills is thinking
                assert await asyncio.get_running_loop().run_in_executor(None, thinking.acquire, True, 10)
            view = await asyncio.wait_for(app.call("game.view", [{"game_id": other["game_id"],
                                                                   "token": other["seat_tokens"]["Player#1"]}]), 10)
            assert view["you"] == "Player#1"
            release.set()
            for result in await asyncio.wait_for(asyncio.gather(*forced), 30):  # the fills then resolve the steps
                assert result["report"]
        finally:
            release.set()
            await app.close()

    asyncio.run(go())
