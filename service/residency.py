"""Which hosted games the server keeps in memory (issue 23 item 7).

Every game lives in the SQLite store; memory holds only the games in use. At start the server
loads just the games that need it at once (an AI decision or an automatic deadline pending: the
store's ``watch`` column), so start time and memory do not grow with the number of stored games.
A call naming a game that is not in memory loads it first (replayed and checked against its stored
digest, in a worker thread); when more than ``max_resident`` games are in memory, the least
recently used ones that are idle (no call in flight, no background work, no automatic deadline to
watch) leave memory again. Without a store (``--db :memory:``) every game stays in memory.

:class:`Residency` is mixed into :class:`service.app.App`, whose ``games``, ``locks``, ``pumps``,
``store``, ``executor`` and ``shares`` it uses.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from service.hosting import HostedGame

log = logging.getLogger("regent.service")
DEFAULT_MAX_RESIDENT = 1_000


def game_id_of(params: Any) -> str | None:
    """The ``game_id`` a call names, if it is shaped like one."""
    if isinstance(params, list) and len(params) == 1 and isinstance(params[0], dict):
        gid = params[0].get("game_id")
        if isinstance(gid, str) and 0 < len(gid) <= 64:
            return gid
    return None


class Residency:
    games: dict[str, HostedGame]
    locks: dict[str, asyncio.Lock]
    pumps: dict[str, asyncio.Task]
    store: Any
    executor: Any
    shares: Any  # service/fair.py Shares: a connection's share of the executor's workers

    def init_residency(self, max_resident: int = DEFAULT_MAX_RESIDENT) -> None:
        self.max_resident = max(1, max_resident)
        self.busy: dict[str, int] = {}  # game_id -> calls in flight naming it
        self.loading: dict[str, asyncio.Future] = {}

    def load_watched(self) -> int:
        """At start (in a worker thread): only the games that need attention at once."""
        if self.store is None:
            return 0
        for game_id in self.store.watched():
            stored = self.store.load(game_id)
            if stored is not None:
                self.adopt(self._replayed(stored))
        return len(self.games)

    def adopt(self, hosted: HostedGame) -> None:
        if hosted.broken:
            log.error("game %s: %s", hosted.id, hosted.broken, extra={"game_id": hosted.id})
        elif hosted.stale:
            log.warning("game %s is read-only: %s", hosted.id, hosted.stale, extra={"game_id": hosted.id})
        self.games[hosted.id] = hosted
        self.locks.setdefault(hosted.id, asyncio.Lock())

    async def ensure_resident(self, game_id: str | None) -> None:
        """Load ``game_id`` from the store if it is stored but not in memory (once, however many
        calls ask at the same time)."""
        if game_id is None or self.store is None:
            return
        if game_id in self.games:
            self.games[game_id] = self.games.pop(game_id)  # most recently used last
            return
        future = self.loading.get(game_id)
        if future is None:
            future = asyncio.ensure_future(self._load(game_id))  # in the asking connection's context
            self.loading[game_id] = future
            future.add_done_callback(lambda _, g=game_id: self.loading.pop(g, None))
        hosted = await asyncio.shield(future)
        if hosted is not None and game_id not in self.games:  # whichever waiter wakes first adopts it
            self.adopt(hosted)
            self.kick(game_id)

    async def _load(self, game_id: str) -> HostedGame | None:
        """``_restore`` in a worker, within the asking connection's share of the workers: a connection naming
        hundreds of stored games had their replays all queued ahead of every other connection's calls."""
        async with self.shares.share():
            return await asyncio.get_running_loop().run_in_executor(self.executor, self._restore, game_id)

    def _restore(self, game_id: str) -> HostedGame | None:
        stored = self.store.load(game_id)
        return None if stored is None else self._replayed(stored)

    def _replayed(self, stored: Any) -> HostedGame:
        """Replay a stored game; a row written before the flag columns gets its flags now."""
        hosted = HostedGame.restore(stored, self.store)
        if not hosted.frozen and hosted.flags():
            self.store.append(hosted.id, len(hosted.rows), [], hosted.meta)
            hosted.stored(hosted.meta)
        return hosted

    def enter(self, game_id: str | None) -> None:
        if game_id is not None:
            self.busy[game_id] = self.busy.get(game_id, 0) + 1

    def leave(self, game_id: str | None) -> None:
        """A call is done: games over the limit leave memory (checked after every call, so games
        whose background work was still running at one call leave at a later one)."""
        if game_id is not None:
            n = self.busy.get(game_id, 0) - 1
            if n > 0:
                self.busy[game_id] = n
            else:
                self.busy.pop(game_id, None)
        if len(self.games) > self.max_resident:
            self.evict()

    def evictable(self, game_id: str, hosted: HostedGame) -> bool:
        lock = self.locks.get(game_id)
        pump = self.pumps.get(game_id)
        if game_id in self.busy or (lock is not None and lock.locked()) or (pump is not None and not pump.done()):
            return False
        return hosted.game.over or not hosted.meta.get("expiry", {}).get("auto")

    def evict(self) -> int:
        """Drop idle games from memory, least recently used first, down to ``max_resident``."""
        if self.store is None:
            return 0
        extra = len(self.games) - self.max_resident
        gone = []
        for game_id, hosted in self.games.items():
            if len(gone) >= extra:
                break
            if self.evictable(game_id, hosted):
                gone.append(game_id)
        for game_id in gone:
            del self.games[game_id]
            self.locks.pop(game_id, None)
        return len(gone)

    async def live_games(self) -> int:
        """Games not over: stored ones (counted by the store) or, without a store, those in memory."""
        if self.store is None:
            return sum(1 for h in self.games.values() if not h.game.over)
        return await asyncio.get_running_loop().run_in_executor(self.executor, self.store.count_live)

    def kick(self, game_id: str) -> None:  # provided by App
        raise NotImplementedError
