"""A small Python client for the Regent service, blocking (:class:`Client`) or asyncio (:class:`AsyncClient`).

    with Client("127.0.0.1", 7750) as c:
        g = c.call("game.create", setup={"board": "ring-5", "seed": 1})
        c.call("game.view", game_id=g["game_id"], token=g["gm_token"])

``call`` sends one request with its fields as the single map parameter (protocol.md) and returns
the result, or raises :class:`ServiceError` carrying the wire ``code``, ``message`` and ``details``.
``AsyncClient`` pipelines: many ``await c.call(...)`` may be in flight at once on one connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import socket
import ssl
from typing import Any

import msgpack

DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 7750


class ServiceError(Exception):
    def __init__(self, error: Any):
        if isinstance(error, dict):
            self.code = error.get("code")
            self.message = error.get("message")
            self.details = error.get("details") or {}
        else:
            self.code, self.message, self.details = "internal", str(error), {}
        super().__init__(f"{self.code}: {self.message}")


def _unpacker() -> msgpack.Unpacker:
    return msgpack.Unpacker(raw=False, strict_map_key=False, max_buffer_size=256 * 1024 * 1024)


class Client:
    """Blocking client over TCP (``host``, ``port``) or a Unix socket (``unix``)."""

    def __init__(self, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *, unix: str | None = None,
                 timeout: float | None = 60.0, tls: ssl.SSLContext | None = None):
        """``tls``: an ``ssl.SSLContext`` for a server run with ``--tls-cert`` (e.g.
        ``ssl.create_default_context(cafile="server.pem")``)."""
        if unix:
            self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.sock.settimeout(timeout)
            self.sock.connect(unix)
        else:
            self.sock = socket.create_connection((host, port), timeout=timeout)
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if tls is not None:
                self.sock = tls.wrap_socket(self.sock, server_hostname=host)
        self.unpacker = _unpacker()
        self.ids = itertools.count(1)
        self.early: dict[int, Any] = {}

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        self.sock.close()

    def send_raw(self, data: bytes) -> None:
        self.sock.sendall(data)

    def read_message(self) -> Any:
        """The next message from the server (raises ConnectionError if the server closed)."""
        while True:
            try:
                return self.unpacker.unpack()
            except msgpack.OutOfData:
                pass
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("the server closed the connection")
            self.unpacker.feed(data)

    def request(self, method: str, params: list) -> Any:
        """Send ``[0, msgid, method, params]`` and return the raw ``[1, msgid, error, result]``."""
        msgid = next(self.ids) & 0xFFFFFFFF
        self.sock.sendall(msgpack.packb([0, msgid, method, params], use_bin_type=True))
        if msgid in self.early:
            return self.early.pop(msgid)
        while True:
            msg = self.read_message()
            if isinstance(msg, list) and len(msg) == 4 and msg[1] == msgid:
                return msg
            if isinstance(msg, list) and len(msg) == 4 and isinstance(msg[1], int):
                self.early[msg[1]] = msg

    def call(self, method: str, **fields: Any) -> Any:
        _, _, error, result = self.request(method, [fields])
        if error is not None:
            raise ServiceError(error)
        return result

    def notify(self, method: str, **fields: Any) -> None:
        self.sock.sendall(msgpack.packb([2, method, [fields]], use_bin_type=True))


class AsyncClient:
    """asyncio client: ``await AsyncClient.connect(...)``; calls may run concurrently (pipelined)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader, self.writer = reader, writer
        self.ids = itertools.count(1)
        self.waiting: dict[int, asyncio.Future] = {}
        self._task = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def connect(cls, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *,
                      unix: str | None = None, tls: ssl.SSLContext | None = None) -> AsyncClient:
        if unix:
            reader, writer = await asyncio.open_unix_connection(unix)
        else:
            reader, writer = await asyncio.open_connection(host, port, ssl=tls)
        return cls(reader, writer)

    async def _read(self) -> None:
        unpacker = _unpacker()
        try:
            while True:
                data = await self.reader.read(65536)
                if not data:
                    break
                unpacker.feed(data)
                for msg in unpacker:
                    fut = self.waiting.pop(msg[1], None) if isinstance(msg, list) and len(msg) == 4 else None
                    if fut is not None and not fut.done():
                        fut.set_result(msg)
        finally:
            for fut in self.waiting.values():
                if not fut.done():
                    fut.set_exception(ConnectionError("the server closed the connection"))
            self.waiting.clear()

    async def request(self, method: str, params: list) -> Any:
        msgid = next(self.ids) & 0xFFFFFFFF
        fut = asyncio.get_running_loop().create_future()
        self.waiting[msgid] = fut
        self.writer.write(msgpack.packb([0, msgid, method, params], use_bin_type=True))
        return await fut

    async def call(self, method: str, **fields: Any) -> Any:
        _, _, error, result = await self.request(method, [fields])
        if error is not None:
            raise ServiceError(error)
        return result

    async def close(self) -> None:
        self.writer.close()
        self._task.cancel()
        with contextlib.suppress(ConnectionError, OSError):
            await self.writer.wait_closed()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()
