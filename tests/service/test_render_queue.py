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


def test_one_games_many_pictures_do_not_hold_another_games_picture_behind_them_all(monkeypatch):
    # pictures are drawn one at a time for the whole server; they were drawn in arrival order, so a GM's tool that
    # pipelined pictures of its game (the GM token has no per-seat limit) held every other game's pictures behind
    # all of its own. The games now take turns: another game's picture waits only for the one being drawn.
    opened, drawn = threading.Event(), []

    def board(game, *args, **kwargs):
        drawn.append(len(game.state.players))  # which game: 3 seats or 5
        assert opened.wait(30), "the test never opened the gate"
        return b"picture"

    monkeypatch.setattr(render, "render_board", board)

    async def body(app):
        busy = await app.call("game.create", [{"setup": {"board": "ring-3", "players": 3, "seed": 2}}])
        other = await app.call("game.create", [{"setup": {"board": "ring-5", "players": 5, "seed": 2}}])
        many = [asyncio.ensure_future(app.call("game.render", [{"game_id": busy["game_id"],
                                                                "token": busy["gm_token"]}])) for _ in range(5)]
        await _until(lambda: drawn == [3] and _waiting(app) == 4)  # one drawn, four waiting
        one = asyncio.ensure_future(app.call("game.render", [{"game_id": other["game_id"],
                                                              "token": other["seat_tokens"]["Player#1"]}]))
        await _until(lambda: _waiting(app) == 5)
        opened.set()
        assert await asyncio.wait_for(asyncio.gather(*many, one), 30) == [b"picture"] * 6
        assert sorted(drawn) == [3, 3, 3, 3, 3, 5] and drawn.index(5) == 1, drawn

    try:
        in_app(body)
    finally:
        opened.set()


def _waiting(app) -> int:
    """Pictures waiting for their turn to be drawn."""
    return app.render_turn.waiting()


async def _until(condition, bound: float = 20.0) -> None:
    """Wait for ``condition()`` (``bound``: only so a broken server fails the test instead of hanging it)."""
    async def poll():
        while not condition():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(poll(), bound)
