"""MessagePack-RPC over a byte stream (the public msgpack-rpc spec, protocol.md "Transport").

request ``[0, msgid, method, params]`` -> response ``[1, msgid, error, result]``; notification
``[2, method, params]`` (no response). Messages follow each other with no extra framing; each
connection has its own streaming ``msgpack.Unpacker``. Requests run concurrently, so replies may
come back out of order (the msgid pairs them).

Bad input: a message that decodes but is not a valid msgpack-rpc message gets ``bad_request`` and
the connection carries on; a stream that cannot be decoded gets ``bad_request`` (msgid nil) and
only that connection is closed. A message over the size limit gets ``too_large``: if it arrived
whole in one read it is answered (with its msgid) and the connection carries on; otherwise decoding
stops as soon as the bytes buffered since the message began pass the limit, and the connection is
closed after the error (the rest of the message cannot be skipped without reading it: the server
half-closes and discards what still comes for a while, see DRAIN_SECONDS). A message
holding more than ``params.MAX_ITEMS`` arrays, maps and entries is refused the same way while it is
decoded (hB items 1-2). A message must be complete within the idle timeout of its first byte
(hB item 3: a client dripping a byte at a time no longer holds a connection open).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import msgpack

from service.errors import BAD_REQUEST, IDLE, INTERNAL, RATE_LIMITED, TOO_LARGE, RpcError, from_exception
from service.fair import CLIENT
from service.params import MAX_ITEMS

log = logging.getLogger("regent.service")
REQUEST, RESPONSE, NOTIFICATION = 0, 1, 2
DEFAULT_MAX_MESSAGE = 8 * 1024 * 1024
DEFAULT_MAX_INFLIGHT = 256
# Connection limits (issue 23 item 7): over --max-connections a new connection is told why and
# closed; a connection with no request for --idle-timeout seconds (and none in flight) likewise.
DEFAULT_MAX_CONNECTIONS = 1024
DEFAULT_IDLE_TIMEOUT = 900.0
READ_CHUNK = 64 * 1024
# After refusing a stream it cannot go on decoding (a message over the limit, too many items, bytes
# that are not MessagePack), the server replies, half-closes, and discards what the client still
# sends, up to --max-message bytes or DRAIN_SECONDS, before it closes: a client busy sending can then
# still read why (closing at once with unread bytes resets the connection, losing the reply).
DRAIN_SECONDS = 10.0
MAX_MSGID = 2**32 - 1  # the spec: msgid is a 32-bit unsigned integer
# Replies written but not yet read by their clients (a client that pipelines requests and never reads): each
# connection stops being read from once its replies back up, but the requests already read (up to
# --max-inflight) still ran, and their replies stayed in memory: 256 game.log calls of a 16-seat game on each
# of 10 connections held 100 MB. Once a connection holds more than UNREAD_CHECK bytes unread, every reply it
# writes adds up the unread replies of every connection; over MAX_UNREAD, the connections holding the most are
# closed at once (their replies dropped) until the rest is under it. A client that reads never gets near it.
UNREAD_CHECK = 256 * 1024
MAX_UNREAD = 256 * 1024 * 1024
# Fast methods answered on the event loop without creating a task (pipelined pings stay cheap).
INLINE = frozenset({"ping"})


class _TooManyItems(Exception):
    """Raised from the decoder's hooks: the message holds more than MAX_ITEMS arrays, maps and entries."""


def stream_error(err: Exception) -> tuple[str, str]:
    """(code, message) for a byte stream the decoder refused; never an empty reason."""
    if isinstance(err, msgpack.FormatError):
        return BAD_REQUEST, ("not a msgpack stream: a byte that starts no MessagePack value (0xc1, the "
                             "one reserved type byte, or a stream that is not MessagePack at all)")
    if isinstance(err, msgpack.StackError):
        return BAD_REQUEST, "not a msgpack stream: arrays and maps nested more than 1,024 levels deep"
    text = str(err)
    if isinstance(err, ValueError) and "exceeds max_" in text:  # a declared length over the decoder's bounds
        length, _, bound = text.partition(" exceeds ")
        what = {"max_array_len": "an array", "max_map_len": "a map"}.get(bound.split("(")[0])
        if what:
            return TOO_LARGE, (f"{what} of {length} entries; a request holds at most {MAX_ITEMS:,} arrays, "
                               f"maps and entries")
        return TOO_LARGE, f"a string, binary or extension value of {length} bytes is over the message size limit"
    if isinstance(err, TypeError) and text.startswith("unhashable type"):  # valid MessagePack, but no key here
        return BAD_REQUEST, ("a map key that is an array or a map: this service's keys are strings (or numbers), "
                             f"so the message cannot be read ({text[:60]})")
    return BAD_REQUEST, f"not a msgpack stream ({type(err).__name__}: {text[:200] or 'undecodable bytes'})"


def _plain(value: Any) -> Any:
    if isinstance(value, set | frozenset):
        return sorted(value, key=str)
    return str(value)


def _packer() -> msgpack.Packer:
    return msgpack.Packer(use_bin_type=True, unicode_errors="replace", default=_plain)


class Connection(asyncio.Protocol):
    """One client connection. ``app.call(method, params)`` does the work."""

    def __init__(self, app: Any, max_message: int = DEFAULT_MAX_MESSAGE,
                 max_inflight: int = DEFAULT_MAX_INFLIGHT, registry: set | None = None,
                 max_connections: int = 0, idle_timeout: float = 0.0):
        self.app = app
        self.registry = registry  # the server's open connections (None: not counted)
        self.max_connections = max_connections
        self.idle_timeout = idle_timeout
        self.last_seen = 0.0  # when the last whole message arrived (or the connection opened)
        self._idle: asyncio.TimerHandle | None = None
        self.max_message = max_message
        self.max_inflight = max_inflight
        # Where the message being decoded began in the byte stream, how many bytes have been fed,
        # and how many arrays, maps and entries of it are decoded: the streaming decoder keeps a
        # partial message between reads, so its size is everything fed since it began (hB item 1).
        self._fed = 0
        self._msg_start = 0
        self._items = 0
        self._partial_since: float | None = None  # when the unfinished message's first byte came
        self._draining: int | None = None  # bytes still to discard after a refused stream
        self.unpacker = msgpack.Unpacker(
            raw=False, strict_map_key=False, unicode_errors="replace",
            max_buffer_size=max_message + 4 * READ_CHUNK, max_array_len=MAX_ITEMS, max_map_len=MAX_ITEMS,
            list_hook=self._count, object_hook=self._count)
        self.packer = _packer()
        self.transport: asyncio.Transport | None = None
        self.inflight: set[asyncio.Task] = set()
        self.peer = "?"

    # -- asyncio.Protocol ----------------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        peer = transport.get_extra_info("peername")
        self.peer = str(peer) if peer else "unix"
        log.debug("connection opened", extra={"peer": self.peer})
        if self.registry is not None:
            if self.max_connections > 0 and len(self.registry) >= self.max_connections:
                self._fatal(RATE_LIMITED, f"closing: the server has its limit of {self.max_connections} "
                                          f"connections open (regent serve --max-connections); try again later")
                return
            self.registry.add(self)
        if self.idle_timeout > 0:
            loop = asyncio.get_running_loop()
            self.last_seen = loop.time()
            self._idle = loop.call_later(self.idle_timeout, self._check_idle)

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        if self.registry is not None:
            self.registry.discard(self)
        if self._idle is not None:
            self._idle.cancel()
        log.debug("connection closed", extra={"peer": self.peer})

    def _check_idle(self) -> None:
        if self.transport is None:
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        if self._partial_since is not None:  # an unfinished request: due within the timeout of its first byte
            late = now - self._partial_since
            if late >= self.idle_timeout:
                self._fatal(IDLE, f"closing: a request was not complete {self.idle_timeout:g} seconds after its "
                                  f"first byte (regent serve --idle-timeout); reconnect and send it whole")
                return
            self._idle = loop.call_later(self.idle_timeout - late, self._check_idle)
            return
        quiet = now - self.last_seen
        if self.inflight or quiet < self.idle_timeout:
            self._idle = loop.call_later(self.idle_timeout - quiet if not self.inflight and quiet < self.idle_timeout
                                         else self.idle_timeout, self._check_idle)
            return
        self._fatal(IDLE, f"closing: no request for {self.idle_timeout:g} seconds (regent serve --idle-timeout); "
                          f"reconnect to continue")

    # A client that sends without reading its replies is not read from until it catches up.
    def pause_writing(self) -> None:
        if self.transport is not None:
            self.transport.pause_reading()

    def resume_writing(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.resume_reading()

    def _count(self, container: Any) -> Any:
        """The decoder's hook for every array and map: count it and its entries (hB item 2)."""
        self._items += len(container) + 1
        if self._items > MAX_ITEMS:
            raise _TooManyItems
        return container

    def data_received(self, data: bytes) -> None:
        if self.transport is None or not data:
            return
        if self._draining is not None:
            self._draining -= len(data)
            if self._draining < 0:
                self._close()
            return
        now = asyncio.get_running_loop().time() if self._idle is not None else 0.0
        if self._partial_since is None and self._idle is not None:
            self._partial_since = now  # the first byte of a message (completed ones clear it below)
        try:
            self.unpacker.feed(data)
        except msgpack.BufferFull:
            self._too_large()
            return
        self._fed += len(data)
        while self.transport is not None:
            try:
                msg = self.unpacker.unpack()
            except msgpack.OutOfData:
                break
            except _TooManyItems:
                self._refuse_stream(TOO_LARGE, f"closing: a request holds at most {MAX_ITEMS:,} arrays, maps and "
                                               f"entries (this one has more)")
                return
            except Exception as err:  # FormatError, StackError, ValueError (a declared length), ...
                self._refuse_stream(*stream_error(err))
                return
            end = self.unpacker.tell()
            size, self._msg_start, self._items = end - self._msg_start, end, 0
            if self._idle is not None:
                self.last_seen = now
                self._partial_since = now if self._fed > end else None
            try:
                self._message(msg, size)
            except Exception:  # a bug here must not take the server (or this connection) down
                log.exception("cannot handle a message")
                self._reply(None, RpcError(INTERNAL, "the server could not handle this message"))
        if self.transport is not None and self._fed - self._msg_start > self.max_message:
            self._too_large()

    def _too_large(self) -> None:
        """The unfinished message already holds more bytes than the limit: stop reading it."""
        self._refuse_stream(TOO_LARGE, f"closing: a message over the limit of {self.max_message} bytes (regent "
                                       f"serve --max-message); the rest of it cannot be skipped")

    # -- messages ------------------------------------------------------------------------------
    def _message(self, msg: Any, size: int) -> None:
        if not isinstance(msg, list | tuple) or not msg or not isinstance(msg[0], int) or isinstance(msg[0], bool):
            self._reply(None, RpcError(BAD_REQUEST, "not a msgpack-rpc message: expected an array "
                                                    "[type, ...] with type 0 (request) or 2 (notification)"))
            return
        kind = msg[0]
        if kind == REQUEST:
            if len(msg) != 4:
                self._reply(self._msgid(msg), RpcError(BAD_REQUEST, "a request is [0, msgid, method, params]"))
                return
            _, msgid, method, params = msg
            if self._msgid(msg) is None:
                self._reply(None, RpcError(BAD_REQUEST, "msgid must be an unsigned 32-bit integer"))
                return
            if not isinstance(params, list | tuple):
                self._reply(msgid, RpcError(BAD_REQUEST, "params must be an array: [ {named fields} ]"))
                return
        elif kind == NOTIFICATION:
            if len(msg) != 3 or not isinstance(msg[2], list | tuple):
                # The spec never answers a notification, even a malformed one (issue 23 item 4: a
                # foreign client crashed on a reply with msgid nil): log it, send nothing.
                log.info("malformed notification ignored: a notification is [2, method, params] with params "
                         "an array", extra={"peer": self.peer, "code": BAD_REQUEST})
                return
            msgid, (_, method, params) = None, msg
        else:
            what = "a response" if kind == RESPONSE else f"message type {kind}"
            self._reply(self._msgid(msg), RpcError(BAD_REQUEST, f"the server takes requests and notifications, "
                                                                 f"not {what}"))
            return
        if not isinstance(method, str):
            if kind == REQUEST:
                self._reply(msgid, RpcError(BAD_REQUEST, "method must be a string"))
            return
        if size > self.max_message:
            if kind == REQUEST:
                self._reply(msgid, RpcError(TOO_LARGE, f"message of {size} bytes is over the limit of "
                                                       f"{self.max_message} bytes", {"limit": self.max_message}))
            return
        if kind == REQUEST and method in INLINE and (not params or (len(params) == 1 and params[0] == {})):
            self._send([RESPONSE, msgid, None, "pong"])
            return
        if len(self.inflight) >= self.max_inflight:
            if kind == REQUEST:
                self._reply(msgid, RpcError(RATE_LIMITED, f"more than {self.max_inflight} requests in flight on "
                                                          f"this connection; wait for replies"))
            return
        task = asyncio.get_running_loop().create_task(self._handle(msgid, method, list(params), kind, size))
        self.inflight.add(task)
        task.add_done_callback(self.inflight.discard)

    @staticmethod
    def _msgid(msg: Any) -> int | None:
        if len(msg) > 1 and isinstance(msg[1], int) and not isinstance(msg[1], bool) and 0 <= msg[1] <= MAX_MSGID:
            return msg[1]
        return None

    async def _handle(self, msgid: int | None, method: Any, params: list, kind: int, size: int) -> None:
        start = time.perf_counter()
        CLIENT.set(self)  # (this task's own context) the connection's share of the pools: service/fair.py
        try:
            result = await self.app.call(method, params, size)
        except RpcError as err:
            if log.isEnabledFor(logging.DEBUG):
                log.debug("request", extra={"method": method[:100], "msgid": msgid, "code": err.code,
                                            "ms": round((time.perf_counter() - start) * 1000, 3)})
            if kind == REQUEST:
                self._reply(msgid, err)
            else:
                log.info("notification failed", extra={"method": str(method)[:100], "code": err.code})
            return
        except Exception as err:
            log.exception("unexpected error in %s", str(method)[:100])
            if kind == REQUEST:
                self._reply(msgid, from_exception(err))
            return
        if log.isEnabledFor(logging.DEBUG):
            log.debug("request", extra={"method": method[:100], "msgid": msgid, "code": None,
                                        "ms": round((time.perf_counter() - start) * 1000, 3)})
        if kind == REQUEST:
            self._send([RESPONSE, msgid, None, result])

    def _reply(self, msgid: int | None, err: RpcError) -> None:
        self._send([RESPONSE, msgid, err.to_wire(), None])

    def _send(self, message: list) -> None:
        if self.transport is None or self.transport.is_closing() or self._draining is not None:
            return  # (draining: half-closed after a refused stream; replies still in flight are dropped)
        try:
            data = self.packer.pack(message)
        except Exception as err:
            log.exception("cannot encode a reply")
            self.packer = _packer()
            data = self.packer.pack([RESPONSE, message[1], RpcError(INTERNAL, f"cannot encode the result "
                                                                              f"({type(err).__name__})").to_wire(),
                                     None])
        self.transport.write(data)
        if self.registry is not None and self.transport.get_write_buffer_size() > UNREAD_CHECK:
            unread = sum(c.unread() for c in self.registry)
            while unread > MAX_UNREAD:  # the connections holding the most go first
                worst = max(self.registry, key=Connection.unread)
                unread -= worst.unread()
                worst._abort_unread(unread)

    def _abort_unread(self, left: int) -> None:
        log.warning("closing connection: its client does not read its replies, and the server holds more than its "
                    "limit of unread replies", extra={"peer": self.peer, "unread": self.unread(), "left": left,
                                                      "limit": MAX_UNREAD})
        if self.transport is not None:
            self.transport.abort()
            self.transport = None

    def unread(self) -> int:
        """Bytes of replies written to this connection that its client has not read yet."""
        return self.transport.get_write_buffer_size() if self.transport is not None else 0

    def _refuse_stream(self, code: str, message: str) -> None:
        """The stream cannot be decoded on: reply (msgid nil), stop decoding for good, half-close, and
        discard what the client still sends (see DRAIN_SECONDS) before closing."""
        log.info("closing connection: %s", message, extra={"peer": self.peer, "code": code})
        self._reply(None, RpcError(code, message))
        self.unpacker = None  # its partial message goes now
        transport = self.transport
        if transport is None:
            return
        self._draining = self.max_message
        self._partial_since = None
        try:
            if transport.can_write_eof():
                transport.write_eof()
        except (NotImplementedError, OSError, RuntimeError):
            pass
        asyncio.get_running_loop().call_later(DRAIN_SECONDS, self._close)

    def _close(self) -> None:
        if self.transport is not None:
            self.transport.close()
            self.transport = None

    def _fatal(self, code: str, message: str) -> None:
        log.info("closing connection: %s", message, extra={"peer": self.peer, "code": code})
        self._reply(None, RpcError(code, message))
        if self.transport is not None:
            self.transport.close()
            self.transport = None
