"""service/fair.py: the games take turns, each game's own waiters in arrival order, and a waiter that gives up
(its call cancelled) neither keeps the turn nor loses it for the others."""

from __future__ import annotations

import asyncio

from service.fair import FairTurn


async def _holder(turn: FairTurn, key: str, order: list[str], hold: asyncio.Event | None = None) -> None:
    async with turn.turn(key):
        order.append(key)
        if hold is not None:
            await hold.wait()


def test_the_games_take_turns_each_in_arrival_order():
    async def go():
        turn, order, hold = FairTurn(), [], asyncio.Event()
        first = asyncio.ensure_future(_holder(turn, "a0", order, hold))
        await asyncio.sleep(0)
        tasks = [asyncio.ensure_future(_holder(turn, key, order)) for key in ("a", "a", "a", "b", "c", "b")]
        await asyncio.sleep(0)
        assert turn.waiting() == 6
        hold.set()
        await asyncio.gather(first, *tasks)
        return order, turn

    order, turn = asyncio.run(go())
    assert order == ["a0", "a", "b", "c", "a", "b", "a"]
    assert turn.waiting() == 0 and not turn.held


def test_a_waiter_cancelled_while_waiting_or_as_it_is_given_the_turn_passes_it_on():
    async def go():
        turn, order = FairTurn(), []
        async with turn.turn("a"):
            gone = asyncio.ensure_future(_holder(turn, "b", order))
            given = asyncio.ensure_future(_holder(turn, "c", order))
            last = asyncio.ensure_future(_holder(turn, "d", order))
            await asyncio.sleep(0)
            assert turn.waiting() == 3
            gone.cancel()  # gives up while waiting
            await asyncio.sleep(0)
            assert turn.waiting() == 2
        given.cancel()  # given the turn as "a" let it go, and cancelled before it ran: "d" must still get it
        await asyncio.wait_for(asyncio.gather(gone, given, last, return_exceptions=True), 10)
        return order, turn, (gone, given, last)

    order, turn, (gone, given, last) = asyncio.run(go())
    assert order == ["d"] and gone.cancelled() and given.cancelled() and last.result() is None
    assert turn.waiting() == 0 and not turn.held
