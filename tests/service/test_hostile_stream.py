"""Hostile byte streams against ``service.rpc.Connection`` (hostile-client dogfood hB items 1-3, 9).

Each test drives a real ``Connection`` with a fake transport, so what is measured is what the
server decodes and sends back, by counts and sizes, never by wall-clock time:

* the message size limit counts every byte buffered since the message began, however many reads
  it took (a request of many small objects used to be measured by its last read only);
* a request holds at most ``params.MAX_ITEMS`` arrays, maps and entries: decoding stops there;
* a partial request must be complete within the idle timeout of its first byte (slowloris);
* stream errors say what was wrong.
"""

from __future__ import annotations

import asyncio
from typing import Any

import msgpack
import pytest

from service import params
from service.params import MAX_ITEMS, Params
from service.rpc import Connection


class FakeTransport(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.out = msgpack.Unpacker(raw=False, strict_map_key=False)
        self.closed = False
        self.eof = False

    def write(self, data: bytes) -> None:
        if self.eof:  # as asyncio's transports do
            raise RuntimeError("Cannot call write() after write_eof()")
        self.out.feed(data)

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def can_write_eof(self) -> bool:
        return True

    def write_eof(self) -> None:
        self.eof = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return default

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


class CountingApp:
    """Answers every call with the number of items it was given (and remembers the calls)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []

    async def call(self, method: str, raw: Any, size: int | None = None) -> Any:
        Params(method, raw)
        self.calls.append((method, size))
        return "ok"


def connect(app: Any = None, **kw: Any) -> tuple[Connection, FakeTransport, Any]:
    app = app or CountingApp()
    conn = Connection(app, **kw)
    transport = FakeTransport()
    conn.connection_made(transport)
    return conn, transport, app


def feed(conn: Connection, data: bytes, chunk: int = 64 * 1024) -> None:
    for i in range(0, len(data), chunk):
        if conn.transport is None:
            return
        conn.data_received(data[i:i + chunk])


def stopped(conn: Connection, transport: FakeTransport) -> bool:
    """The connection decodes nothing more: closed, or half-closed and discarding until it closes."""
    return transport.closed or (transport.eof and conn._draining is not None and conn.unpacker is None)


def replies(transport: FakeTransport) -> list[Any]:
    return list(transport.out)


def request(msgid: int, method: str, fields: dict) -> bytes:
    return msgpack.packb([0, msgid, method, [fields]], use_bin_type=True)


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


# -- item 1: the size limit counts the whole message, not its last read --------------------------
def test_a_message_of_many_small_objects_is_measured_whole():
    async def run() -> None:
        conn, transport, app = connect(max_message=100_000)
        body = request(1, "npr.release", {"world": {f"k{i}": i for i in range(40_000)}})
        assert len(body) > 300_000
        feed(conn, body, chunk=4096)  # every read is far under the limit
        await settle()
        got = replies(transport)
        assert got and got[-1][2]["code"] == "too_large" and "100000" in got[-1][2]["message"]
        assert stopped(conn, transport) and app.calls == []  # nothing decoded past the limit was handled
        assert conn._fed - conn._msg_start <= 100_000 + 4096  # stopped reading at the limit

    asyncio.run(run())


def test_a_declared_huge_string_is_read_no_further_than_the_limit():
    # msgpack checks a string's declared length only once its bytes are held, so a str32 header naming 16 MiB
    # is not refused from the header alone; the bytes held of it are bounded by --max-message all the same
    async def run() -> None:
        conn, transport, app = connect(max_message=100_000)
        conn.data_received(b"\x94\x00\x01\xa4ping\x91\xdb\x01\x00\x00\x00")
        assert not transport.closed and replies(transport) == []
        feed(conn, b"a" * 300_000, chunk=4096)
        await settle()
        got = replies(transport)
        assert got and got[-1][2]["code"] == "too_large" and stopped(conn, transport) and app.calls == []
        assert conn._fed - conn._msg_start <= 100_000 + 4096

    asyncio.run(run())


def test_messages_under_the_limit_in_many_reads_still_work():
    async def run() -> None:
        conn, transport, app = connect(max_message=100_000)
        body = b"".join(request(i, "ping", {"pad": "x" * 60_000}) for i in range(1, 6))
        feed(conn, body, chunk=1000)
        await settle()
        assert [r[1] for r in replies(transport)] == [1, 2, 3, 4, 5] and not transport.closed
        assert all(size < 100_000 for _, size in app.calls) and len(app.calls) == 5

    asyncio.run(run())


def test_a_complete_message_over_the_limit_keeps_the_connection():
    async def run() -> None:
        conn, transport, _app = connect(max_message=1000)
        feed(conn, request(7, "ping", {"pad": "x" * 3000}) + request(8, "ping", {}), chunk=10_000)
        await settle()
        got = replies(transport)
        assert got[0][1] == 7 and got[0][2]["code"] == "too_large"
        assert got[1][1] == 8 and got[1][3] == "pong" and not transport.closed

    asyncio.run(run())


def test_after_a_refused_stream_the_rest_is_discarded_then_the_connection_closes():
    async def run() -> None:
        conn, transport, app = connect(max_message=2000)
        conn.data_received(b"\xc1")  # not MessagePack
        assert stopped(conn, transport) and not transport.closed and replies(transport)[0][1] is None
        conn.data_received(request(1, "ping", {}))  # discarded, never decoded
        assert replies(transport) == [] and not transport.closed
        conn.data_received(b"x" * 2500)  # past --max-message of discarded bytes: closed
        assert transport.closed and app.calls == []

    asyncio.run(run())


def test_a_reply_still_in_flight_after_a_refused_stream_is_dropped_quietly():
    class SlowApp(CountingApp):
        def __init__(self) -> None:
            super().__init__()
            self.go = asyncio.Event()

        async def call(self, method: str, raw: Any, size: int | None = None) -> Any:
            await self.go.wait()
            raise RuntimeError("answered after the stream was refused")

    async def run() -> None:
        errors: list = []
        asyncio.get_running_loop().set_exception_handler(lambda loop, context: errors.append(context))
        conn, transport, app = connect(SlowApp())
        conn.data_received(request(1, "game.view", {}) + b"\xc1")
        await settle()
        task = next(iter(conn.inflight))
        app.go.set()
        await asyncio.wait([task])
        assert task.exception() is None and errors == []  # no write after EOF
        assert len(replies(transport)) == 1  # only the refusal

    asyncio.run(run())


# -- item 2: a bounded number of arrays, maps and entries per request ----------------------------
@pytest.mark.parametrize("shape", ["maps", "arrays", "nils", "nested", "split_maps"])
def test_a_request_of_too_many_items_is_refused_while_decoding(shape):
    async def run() -> None:
        conn, transport, app = connect()
        n = MAX_ITEMS + 10
        value = {"maps": [{}] * n, "arrays": [[]] * n, "nils": [None] * n,
                 "nested": [[None] * 1000 for _ in range(n // 1000 + 1)],
                 "split_maps": [[{}] * 50_000 for _ in range(n // 50_000 + 1)]}[shape]
        body = request(1, "game.view", {"game_id": value, "token": "y"})
        assert len(body) < 8 * 1024 * 1024
        feed(conn, body)
        await settle()
        got = replies(transport)
        assert got and got[-1][2]["code"] == "too_large" and f"{MAX_ITEMS:,}" in got[-1][2]["message"]
        assert stopped(conn, transport) and app.calls == []
        assert conn._fed <= MAX_ITEMS * 1.1 + 64 * 1024  # stopped reading soon after the limit

    asyncio.run(run())


def test_a_request_under_the_item_limit_is_served():
    async def run() -> None:
        conn, transport, _app = connect()
        feed(conn, request(1, "ping", {"pad": [{}] * (MAX_ITEMS // 2 - 10)}))
        await settle()
        got = replies(transport)
        assert got[0][1] == 1 and got[0][3] == "ok" and not transport.closed

    asyncio.run(run())


def test_check_depth_bounds_the_items_it_walks():
    with pytest.raises(Exception) as err:
        params.check_depth({"x": [[None] * 1000 for _ in range(MAX_ITEMS // 1000 + 5)]})
    assert getattr(err.value, "code", None) == "too_large" and "x" in str(err.value)


# -- item 3: a partial request must be complete within the idle timeout of its first byte -------
def test_a_request_dripped_a_byte_at_a_time_is_closed():
    async def run() -> None:
        conn, transport, app = connect(idle_timeout=0.3)
        conn.data_received(b"\x94\x00\x01\xa4ping\x91\xdb\x00\x10\x00\x00")  # a 1 MiB string follows
        drips = 0
        while not transport.closed and drips < 400:
            await asyncio.sleep(0.05)
            conn.data_received(b"a")  # every byte well inside the idle timeout
            drips += 1
        got = replies(transport)
        assert transport.closed and got[-1][1] is None and got[-1][2]["code"] == "idle_timeout"
        assert "request" in got[-1][2]["message"] and "0.3" in got[-1][2]["message"]
        assert app.calls == []

    asyncio.run(run())


def test_a_connection_sending_whole_requests_stays_open():
    async def run() -> None:
        conn, transport, _app = connect(idle_timeout=0.3)
        for i in range(1, 21):
            conn.data_received(request(i, "ping", {}))
            await asyncio.sleep(0.05)
        assert not transport.closed and len(replies(transport)) == 20
        conn.connection_lost(None)

    asyncio.run(run())


# -- item 9: stream errors say what was wrong ---------------------------------------------------
@pytest.mark.parametrize(("data", "words"), [
    (b"\xc1", "0xc1"),
    (b"\x91" * 2000, "nested"),
    (b"\xdd\xff\xff\xff\xff", "too_large"),
    (b"\x81\x91\x01\x01", "a map key that is an array or a map"),  # {[1]: 1}: valid MessagePack, no key here
    (b"\x81\x80\x01", "a map key that is an array or a map"),  # {{}: 1}
])
def test_stream_errors_name_the_problem(data, words):
    async def run() -> None:
        conn, transport, _app = connect()
        conn.data_received(data)
        got = replies(transport)
        assert stopped(conn, transport) and got[-1][1] is None
        error = got[-1][2]
        assert words in error["message"] or words == error["code"]
        assert "()" not in error["message"] and ": )" not in error["message"]

    asyncio.run(run())
