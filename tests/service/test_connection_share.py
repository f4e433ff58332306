"""One connection's burst does not starve the others: the pools serve their queue in arrival order, so a connection
that pipelined many heavy requests (a GM's tool sending 256 ``npr.invasions`` on big worlds) had them all queued
ahead of every other connection's, the Discord bot's players' DMs included. A connection now has at most as many
jobs in the pools as they have threads (service/fair.py ``Shares``); its others wait their turn on the loop."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import msgpack

from service import stateless
from service.app import App
from service.rpc import Connection
from tests.service.helpers import ThinkingHeuristic


class Transport(asyncio.Transport):
    """Collects what the server writes."""

    def __init__(self) -> None:
        super().__init__()
        self.out = msgpack.Unpacker(raw=False, strict_map_key=False)

    def write(self, data: bytes) -> None:
        self.out.feed(data)

    def is_closing(self) -> bool:
        return False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return default

    def get_write_buffer_size(self) -> int:
        return 0


def _connect(app: App) -> tuple[Connection, Transport]:
    conn, transport = Connection(app), Transport()
    conn.connection_made(transport)
    return conn, transport


def _send(conn: Connection, msgid: int, who: str) -> None:
    conn.data_received(msgpack.packb([0, msgid, "npr.invasions", [{"who": who}]], use_bin_type=True))


async def _until(condition, bound: float = 20.0) -> None:
    """Wait for ``condition()`` (``bound``: only so a broken server fails the test instead of hanging it)."""
    async def poll():
        while not condition():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(poll(), bound)


async def _answered(ran: list, out: Transport) -> list:
    """Wait until the five jobs and the other connection's call have run and the other call is answered: its
    replies."""
    replies: list = []

    def all_ran_and_other_answered() -> bool:
        replies.extend(out.out)
        return len(ran) == 6 and len(replies) == 1

    await _until(all_ran_and_other_answered)
    return replies


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_another_connections_request_is_not_queued_behind_one_connections_burst(monkeypatch):
    opened, ran = threading.Event(), []

    def heavy(p):  # stands in for a heavy NPR call; says which connection sent it
        ran.append(p.fields["who"])
        assert opened.wait(30), "the test never opened the gate"
        return "done"

    monkeypatch.setitem(stateless.METHODS, "npr.invasions", heavy)

    async def go():
        app = App(None, workers=1, expiry_interval=0, inline_bytes=0)
        app.start()
        try:
            burst, _ = _connect(app)
            other, other_out = _connect(app)
            for msgid in range(5):
                _send(burst, msgid, "burst")
            await _settle()
            _send(other, 9, "other")
            await _settle()
            assert ran == ["burst"]  # the burst's first is running, the rest and the other one wait
            opened.set()
            replies = await _answered(ran, other_out)
            assert [reply[3] for reply in replies] == ["done"]
            assert ran.index("other") == 1, ran  # right after the one running when it came, not after the burst
            assert sorted(ran) == ["burst"] * 5 + ["other"]
        finally:
            opened.set()
            await app.close()

    asyncio.run(go())


def test_a_connections_expiry_fill_thinking_does_not_hold_its_other_calls(monkeypatch):
    # the AI seats' pool is not shared out by connection: the Discord bot's game.advance with an expert as
    # expiry.fill (a minute at a 16-seat table) would otherwise hold the bot's players' DMs to other games behind it
    from agents.registry import AGENTS

    thinking, release = threading.Event(), threading.Event()

    def think():
        thinking.set()
        assert release.wait(30), "the test never released the agent"

    monkeypatch.setitem(AGENTS, "test-held", lambda seed: ThinkingHeuristic(think))

    async def go():
        app = App(None, workers=1, expiry_interval=0)
        app.start()
        try:
            filled = await app.call("game.create", [{"setup": {"board": "ring-3", "players": 3, "seed": 1,
                                                               "expiry": {"fill": "test-held"}}}])
            other = await app.call("game.create", [{"setup": {"board": "ring-3", "players": 3, "seed": 2}}])
            bot, out = _connect(app)
            bot.data_received(msgpack.packb([0, 1, "game.advance", [{"game_id": filled["game_id"], "force": True,
                                                                     "token": filled["gm_token"], "expired": True}]]))
            assert await asyncio.get_running_loop().run_in_executor(None, thinking.wait, 10)
            bot.data_received(msgpack.packb([0, 2, "game.submit", [{"game_id": other["game_id"], "text": "Bid 2",
                                                                    "token": other["seat_tokens"]["Player#2"]}]]))
            replies: list = []

            def answered() -> bool:
                replies.extend(out.out)
                return bool(replies)

            await _until(answered)
            assert not release.is_set() and replies[0][1] == 2 and replies[0][3]["lines"] == ["Bid 2"]
            release.set()
            await _until(lambda: answered() and len(replies) == 2)
            assert replies[1][1] == 1 and replies[1][2] is None and replies[1][3]["report"]
        finally:
            release.set()
            await app.close()

    asyncio.run(go())


def test_one_connections_stored_games_loading_do_not_queue_ahead_of_another_connection(tmp_path, monkeypatch):
    # a connection naming many stored games not in memory had all their replays queued in the workers ahead of
    # every other connection's calls; a replay now runs within the asking connection's share (service/residency.py)
    from service.store import Store

    opened, ran = threading.Event(), []

    def heavy(p):
        ran.append("other")
        return "done"

    monkeypatch.setitem(stateless.METHODS, "npr.invasions", heavy)

    async def go():
        made = App(Store(tmp_path / "g.sqlite"), workers=1, expiry_interval=0)
        made.start()
        games = [await made.call("game.create", [{"setup": {"board": "ring-3", "players": 3, "seed": i}}])
                 for i in range(5)]
        await made.close()
        app = App(Store(tmp_path / "g.sqlite"), workers=1, expiry_interval=0, inline_bytes=0)
        real = app._restore

        def restore(game_id):
            ran.append("load")
            assert opened.wait(30), "the test never opened the gate"
            return real(game_id)

        monkeypatch.setattr(app, "_restore", restore)
        app.start()
        try:
            assert not app.games  # nothing to do for any of them: none loaded at start
            gm, _ = _connect(app)
            other, other_out = _connect(app)
            for i, g in enumerate(games):
                gm.data_received(msgpack.packb([0, i, "game.view", [{"game_id": g["game_id"],
                                                                     "token": g["gm_token"]}]]))
            await _settle()
            _send(other, 9, "other")
            await _settle()
            assert ran == ["load"]  # the first replay is running; the other four and the other call wait
            opened.set()
            assert [reply[3] for reply in await _answered(ran, other_out)] == ["done"]
            assert ran.index("other") == 1, ran  # right after the replay running when it came, not after all five
        finally:
            opened.set()
            await app.close()

    asyncio.run(go())
