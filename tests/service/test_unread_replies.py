"""A client that pipelines requests and never reads its replies holds a bounded amount of the server's memory
(``rpc.MAX_UNREAD``): the connection whose reply takes the unread replies of all connections over it is
closed; a client that reads is never closed, however much it pipelines. Measured by bytes, never by time."""

from __future__ import annotations

import asyncio
from typing import Any

import msgpack

from service import rpc
from service.rpc import Connection

REPLY = 50_000  # bytes of one reply (a game.log of a small finished game)
REQUESTS = 200


class Transport(asyncio.Transport):
    """What the server writes; ``reads``: whether the client reads it (the kernel's buffers aside)."""

    def __init__(self, reads: bool) -> None:
        super().__init__()
        self.reads = reads
        self.written = 0
        self.aborted = False

    def write(self, data: bytes) -> None:
        self.written += len(data)

    def get_write_buffer_size(self) -> int:
        return 0 if self.reads else self.written

    def abort(self) -> None:
        self.aborted = True

    def close(self) -> None:
        pass

    def is_closing(self) -> bool:
        return self.aborted

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return default

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


class BigReplies:
    async def call(self, method: str, raw: Any, size: int | None = None) -> Any:
        await asyncio.sleep(0)
        return "x" * REPLY


def _pipelined(registry: set, reads: bool) -> tuple[Connection, Transport]:
    conn = Connection(BigReplies(), registry=registry)
    transport = Transport(reads)
    conn.connection_made(transport)
    conn.data_received(b"".join(msgpack.packb([0, i, "game.log", [{}]]) for i in range(REQUESTS)))
    return conn, transport


async def _settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


def test_a_client_that_never_reads_is_closed_at_the_limit(monkeypatch):
    monkeypatch.setattr(rpc, "UNREAD_CHECK", 100_000)
    monkeypatch.setattr(rpc, "MAX_UNREAD", 1_000_000)

    async def go():
        registry: set = set()
        reader, read = _pipelined(registry, reads=True)
        silent, unread = _pipelined(registry, reads=False)
        await _settle()
        assert unread.aborted and silent.transport is None
        assert unread.written <= 1_000_000 + REPLY + 100  # the reply that went over, then nothing more
        assert not read.aborted and read.written >= REQUESTS * REPLY  # every reply, however many
        assert reader.transport is not None

    asyncio.run(go())


def test_the_limit_counts_every_connections_unread_replies(monkeypatch):
    # each connection holds little unread, but together they pass the limit: the one going over is closed
    monkeypatch.setattr(rpc, "UNREAD_CHECK", 100_000)
    monkeypatch.setattr(rpc, "MAX_UNREAD", 1_000_000)

    async def go():
        registry: set = set()
        conns = []
        for _ in range(8):
            conn = Connection(BigReplies(), registry=registry)
            transport = Transport(reads=False)
            conn.connection_made(transport)
            conn.data_received(b"".join(msgpack.packb([0, i, "game.log", [{}]]) for i in range(3)))
            conns.append(transport)
        await _settle()
        held = sum(t.written for t in conns if not t.aborted)
        assert any(t.aborted for t in conns) and held <= 1_000_000
        assert all(t.written <= 3 * REPLY + 100 for t in conns)

    asyncio.run(go())


def test_the_connection_holding_the_most_is_closed_not_the_one_going_over(monkeypatch):
    monkeypatch.setattr(rpc, "UNREAD_CHECK", 100_000)
    monkeypatch.setattr(rpc, "MAX_UNREAD", 1_000_000)

    async def go():
        registry: set = set()
        _, unread = _pipelined(registry, reads=False)
        await _settle()  # over the limit on its own: closed
        assert unread.aborted
        hog = Connection(BigReplies(), registry=registry)
        hogged = Transport(reads=False)
        hog.connection_made(hogged)
        hog.data_received(b"".join(msgpack.packb([0, i, "game.log", [{}]]) for i in range(15)))
        await _settle()  # 750 KB unread: under the limit
        slow = Connection(BigReplies(), registry=registry)
        slowed = Transport(reads=False)
        slow.connection_made(slowed)
        slow.data_received(b"".join(msgpack.packb([0, i, "game.log", [{}]]) for i in range(6)))
        await _settle()  # its replies take the total over: the hog goes, the slow reader stays
        assert hogged.aborted and not slowed.aborted and slowed.written >= 6 * REPLY

    asyncio.run(go())
