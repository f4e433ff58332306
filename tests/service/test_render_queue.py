"""A seat's pictures do not hold up its game: game.render draws from a copy of the game taken under its lock, so
the GM's and the other seats' calls go on while a picture is drawn, and a seat token may have at most
``MAX_SEAT_RENDERS`` pictures of a game waiting or being drawn (``rate_limited`` beyond). A bot pipelining 256
animations (about 1.6 s each for a 10-seat game) used to freeze its game for everyone for minutes, even after it
hung up (its requests were still drawn)."""

from __future__ import annotations

import asyncio
import threading

import pytest

from service import render
from service.app import MAX_SEAT_RENDERS
from service.errors import RpcError
from tests.service.helpers import in_app


@pytest.fixture
def gate(monkeypatch):
    """Every board picture waits until the gate opens."""
    opened = threading.Event()
    monkeypatch.setattr(render, "render_board", lambda *a, **k: (opened.wait(30), b"picture")[1])
    yield opened
    opened.set()


def test_pictures_being_drawn_hold_up_nothing_and_a_seat_may_queue_only_a_few(gate):
    async def body(app):
        g = await app.call("game.create", [{"setup": {"board": "ring-5", "seed": 2}}])
        gid, gm, spy = g["game_id"], g["gm_token"], g["seat_tokens"]["Player#2"]
        ask = {"game_id": gid, "token": spy}
        drawing = [asyncio.ensure_future(app.call("game.render", [ask])) for _ in range(MAX_SEAT_RENDERS)]
        await asyncio.sleep(0.05)
        with pytest.raises(RpcError) as err:
            await app.call("game.render", [ask])
        assert err.value.code == "rate_limited" and "picture" in err.value.message
        # the game's other calls are answered while the pictures wait (wait_for: a bound, not a timing assert)
        view = await asyncio.wait_for(app.call("game.view", [{"game_id": gid, "token": gm}]), 20)
        reply = await asyncio.wait_for(app.call("game.submit", [{**ask, "text": "Bid 2"}]), 20)
        assert view["step"] == "bid" and reply["lines"] == ["Bid 2"]
        gate.set()
        assert await asyncio.gather(*drawing) == [b"picture"] * MAX_SEAT_RENDERS
        assert await app.call("game.render", [ask]) == b"picture"  # drawn: the seat may ask again

    in_app(body)
