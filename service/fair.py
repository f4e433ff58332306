"""Sharing the server out fairly: a turn the games take in rotation (:class:`FairTurn`), and each connection's share
of a pool (:class:`Shares`).

An ``asyncio.Lock`` serves its waiters in arrival order, so one game that asked for many pictures (a GM's tool
pipelining animations, 1.6 s each at a 10-seat table; the GM token has no per-seat limit) held every other
game's pictures behind all of its own. A :class:`FairTurn` keeps one line per game and serves the games in turn,
each game's own waiters in arrival order: besides the picture being drawn, a game's picture waits for at most one
picture of each other game.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import weakref
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Hashable
from typing import Any

# The connection a request came in on: service/rpc.py sets it in each request's task. Background work (a game's AI
# seats, an expiry) runs in a context of its own, without it.
CLIENT: contextvars.ContextVar[Any] = contextvars.ContextVar("regent_client", default=None)


class FairTurn:
    """One holder at a time; waiters served round-robin by key (a game), each key's in arrival order."""

    def __init__(self) -> None:
        self.lines: OrderedDict[Hashable, deque[asyncio.Future]] = OrderedDict()  # the next key to serve first
        self.held = False
        self.holder: Hashable = None  # the key holding the turn (its line goes behind the others' when it is done)

    def waiting(self) -> int:
        """How many wait for the turn (not counting its holder)."""
        return sum(len(line) for line in self.lines.values())

    @contextlib.asynccontextmanager
    async def turn(self, key: Hashable) -> AsyncIterator[None]:
        """Hold the turn for ``key``'s work, in ``key``'s place in the rotation."""
        if not self.held and not self.lines:
            self.held, self.holder = True, key
        else:
            waiter = asyncio.get_running_loop().create_future()
            self.lines.setdefault(key, deque()).append(waiter)
            try:
                await waiter
            except asyncio.CancelledError:
                if waiter.done() and not waiter.cancelled():  # given the turn as it was cancelled: pass it on
                    self._next()
                else:
                    self._forget(key, waiter)
                raise
        try:
            yield
        finally:
            self._next()

    def _forget(self, key: Hashable, waiter: asyncio.Future) -> None:
        line = self.lines.get(key)
        if line is not None and waiter in line:
            line.remove(waiter)
            if not line:
                del self.lines[key]

    def _next(self) -> None:
        """The holder is done: its key goes behind every other key waiting, and the first key's first waiter
        holds the turn."""
        if self.holder in self.lines:
            self.lines.move_to_end(self.holder)
        while self.lines:
            key, line = next(iter(self.lines.items()))
            waiter = line.popleft()
            if not line:
                del self.lines[key]
            if not waiter.done():
                waiter.set_result(None)
                self.holder = key
                return
        self.held, self.holder = False, None


class Shares:
    """At most ``size`` jobs of one connection (``CLIENT``) in a pool at once; its others wait their turn on the
    loop. A pool serves its queue in arrival order, so a connection that sent a burst of heavy requests (a GM's
    tool pipelining 256 ``npr.invasions`` on big worlds) had them all queued ahead of every other connection's, the
    Discord bot's players' DMs included. With ``size`` the pool's workers, a connection alone still keeps every
    worker busy. Work with no connection (background work, in-process callers) is not counted."""

    def __init__(self, size: int) -> None:
        self.size = max(1, size)
        self.held: weakref.WeakKeyDictionary[Any, asyncio.Semaphore] = weakref.WeakKeyDictionary()

    @contextlib.asynccontextmanager
    async def share(self) -> AsyncIterator[None]:
        client = CLIENT.get()
        if client is None:
            yield
            return
        room = self.held.get(client)
        if room is None:
            room = self.held[client] = asyncio.Semaphore(self.size)
        async with room:
            yield
