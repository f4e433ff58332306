"""A player's DM is answered while an AI seat of the same game is still thinking (an ``expert`` seat takes
seconds a decision): neither the service's game lock nor the bridge's lock is held while it decides."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from types import SimpleNamespace

import pytest

from service.server import ServeConfig, start
from tests.discord.helpers import GM_USER, Harness, game_table, make_config, user_of
from tests.service.helpers import ThinkingHeuristic

CH = 950


def slow_agent(armed: threading.Event, started: threading.Event, release: threading.Event) -> ThinkingHeuristic:
    """Once ``armed``, each decision waits for ``release`` (an expert seat thinking)."""

    def think():
        if armed.is_set():
            started.set()
            assert release.wait(30), "the test never released the agent"

    return ThinkingHeuristic(think)


@pytest.fixture
def events(monkeypatch):
    from agents.registry import AGENTS

    armed, started, release = threading.Event(), threading.Event(), threading.Event()
    monkeypatch.setitem(AGENTS, "test-slow", lambda seed: slow_agent(armed, started, release))
    yield armed, started, release
    release.set()


@contextlib.asynccontextmanager
async def served(tmp_path, table: dict, release: threading.Event):
    """An in-process ``regent serve`` (so the test agent is known to it) and a started bridge on it."""
    server, app = await start(ServeConfig(unix=str(tmp_path / "s.sock"), db=None, expiry_interval=0))
    h = Harness(SimpleNamespace(unix=str(tmp_path / "s.sock")), make_config({"g": table}, tmp_path))
    bridge = h.bridge()
    try:
        await bridge.start()
        yield h, bridge
    finally:
        release.set()
        await bridge.close_client()
        server.close()
        await app.close()


async def _answer(h, n: int, count: int, timeout: float = 10.0) -> str:
    """The DM answer player ``n`` gets once they have ``count`` DMs from the bot."""
    user = user_of(CH, n)
    for _ in range(int(timeout / 0.02)):
        if len(h.chat.dms.get(user, [])) >= count:
            return h.chat.dms[user][count - 1].text
        await asyncio.sleep(0.02)
    raise AssertionError(f"player {n} got no answer in {timeout} s")


def test_a_dm_is_answered_while_an_ai_seat_of_its_game_thinks(tmp_path, events):
    armed, started, release = events

    async def body():
        async with served(tmp_path, game_table(CH, seats=3, ai={"Player#3": "test-slow"}), release) as (h, bridge):
            await bridge.on_dm(h.chat.dm(user_of(CH, 1), "Bid 1"))
            armed.set()  # from the next step on, the AI seat thinks until released
            second = asyncio.ensure_future(bridge.on_dm(h.chat.dm(user_of(CH, 2), "Bid 2")))
            assert await asyncio.get_running_loop().run_in_executor(None, started.wait, 10)
            view = await bridge.rpc("game.view", **bridge._gm("g"))  # no wait: the AI seat is deciding
            assert view["step"] == "orders" and not release.is_set()
            told = len(h.chat.dms[user_of(CH, 1)])
            first = asyncio.ensure_future(bridge.on_dm(h.chat.dm(user_of(CH, 1), "none")))
            answer = await _answer(h, 1, told + 1)
            assert "none" in answer.lower() and not release.is_set()  # answered while the AI seat thought
            now = {p["seat"]: p["submitted"] for p in await bridge.rpc("game.pending", **bridge._gm("g"))}
            assert now["Player#1"] and not now["Player#3"], (answer, now)
            # the GM asks for the status meanwhile: it waits for the AI seat, a player's DM does not
            status = h.chat.command("status", GM_USER, CH)
            asked = asyncio.ensure_future(bridge.on_command(status))
            await asyncio.sleep(0.2)
            told = len(h.chat.dms[user_of(CH, 2)])
            late = asyncio.ensure_future(bridge.on_dm(h.chat.dm(user_of(CH, 2), "Bid 5")))  # a step already past
            assert "orders" in (await _answer(h, 2, told + 1)).lower() and not release.is_set()
            assert not asked.done()
            release.set()
            await asyncio.wait_for(asyncio.gather(first, second, asked, late), 20)
            assert status.reply.sent  # the GM got the status once the AI seat had decided
            pend = {p["seat"]: p["submitted"] for p in await bridge.rpc("game.pending", **bridge._gm("g"), wait=True)}
            assert pend == {"Player#1": True, "Player#2": False, "Player#3": True}

    asyncio.run(body())


def test_a_seat_given_to_a_thinking_ai_mid_step_holds_up_no_dm(tmp_path, events):
    # the GM's /regent seat puts an AI into a silent seat mid-step; while it thinks, players' DMs are
    # answered, and once it has decided the channel gets the step it resolved
    armed, started, release = events

    async def body():
        async with served(tmp_path, game_table(CH + 1, seats=3), release) as (h, bridge):
            for n in (1, 2):
                await bridge.on_dm(h.chat.dm(user_of(CH + 1, n), f"Bid {n}"))
            armed.set()
            cmd = h.chat.command("seat", GM_USER, CH + 1, seat="Player#3", agent="test-slow")
            seated = asyncio.ensure_future(bridge.on_command(cmd))
            assert await asyncio.get_running_loop().run_in_executor(None, started.wait, 10)
            told = len(h.chat.dms[user_of(CH + 1, 1)])
            late = asyncio.ensure_future(bridge.on_dm(h.chat.dm(user_of(CH + 1, 1), "Bid 7")))
            user = user_of(CH + 1, 1)
            for _ in range(500):
                if len(h.chat.dms[user]) > told:
                    break
                await asyncio.sleep(0.02)
            assert len(h.chat.dms[user]) > told and not release.is_set()  # answered while the AI thought
            assert "now played by AI (test-slow agent)" in cmd.reply.text()
            release.set()
            await asyncio.wait_for(asyncio.gather(seated, late), 20)
            view = await bridge.rpc("game.view", **bridge._gm("g"), wait=True)
            assert view["step"] != "bid"  # the AI's bid completed the step...
            posted = h.chat.texts(CH + 1)  # ...and the channel was told, with the AI seat named
            assert "Bids: Blue 1, Red 2, Green " in posted and "Played by AI: Green (test-slow)" in posted

    asyncio.run(body())
