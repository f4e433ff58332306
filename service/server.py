"""``regent serve``: the asyncio server (TCP or a Unix socket) in front of :class:`service.app.App`."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import resource
import signal
import sqlite3
import ssl
import sys
from dataclasses import dataclass
from pathlib import Path

from service import limits
from service.app import DEFAULT_MAX_SUBMISSION, INLINE_STATELESS_BYTES, INLINE_STATELESS_WORK, App
from service.residency import DEFAULT_MAX_RESIDENT
from service.rpc import (
    DEFAULT_IDLE_TIMEOUT,
    DEFAULT_MAX_CONNECTIONS,
    DEFAULT_MAX_INFLIGHT,
    DEFAULT_MAX_MESSAGE,
    Connection,
)
from service.store import Store, StoreError

log = logging.getLogger("regent.service")
DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 7750
DEFAULT_DB = "regent.sqlite"
# The cyclic GC's young-generation threshold (CPython's default is 700 net container allocations).
# An npr.invasions call on the sample world holds about 1,000 containers at its peak (the decoded
# request, the World, the decision) and frees them all by reference counting when it answers; at 700
# the collector ran about once per call (issue 8 profile: 0.86 young collections per call) and walked
# them all for nothing. 5,000 stays above the peak of a few calls in flight at once, so young
# collections come from objects that really live on, while a collection still walks few enough
# objects to stay short. The middle generation is collected every 2 young collections instead of 10,
# so it never holds more than about 10,000 objects (the default's is about 7,000) and its pauses stay
# as short as before. gc.freeze() below keeps startup objects out of every collection.
# (Python docs: gc.set_threshold, gc.freeze.)
GC_YOUNG_THRESHOLD = 5_000
GC_MIDDLE_THRESHOLD = 2
# How long a thread may hold the GIL while another waits for it (CPython's default is 5 ms). An AI seat
# decides in a worker thread, and an ``expert`` seat computes for seconds without giving the GIL up
# by itself, so each hand-off the event loop and the other workers make while a request is served
# (reading it, the game's lock, the store, the reply) waited up to 5 ms: a player's DM to a game with
# three expert seats thinking took 0.4-0.6 s at the median. At 0.5 ms it takes 0.06-0.07 s, with the
# same games in the same wall time (benchmarks/bridge_latency.py; docs/benchmarks.md). Only contended
# hand-offs are affected: a thread alone is never interrupted. (Python docs: sys.setswitchinterval.)
GIL_SWITCH_INTERVAL = 0.0005


# File descriptors (hB item 7: with ulimit -n 128 and 200 clients, asyncio logged "socket.accept()
# out of system resource" 11,486 times in 10 s). At start the server raises its soft RLIMIT_NOFILE
# to the hard limit and keeps --max-connections below what that allows: FD_BASE (plus a few per
# worker process) for the store (database, WAL, shared memory, lock), listening sockets, the event
# loop, logs, worker pipes and files a render opens (13 in all when idle), plus ACCEPT_BATCHES listen
# backlogs: asyncio accepts up to a backlog of connections per loop iteration, and one that a full
# server refuses is closed three iterations after it was accepted. The backlog shrinks (to at least
# MIN_BACKLOG) when descriptors are few. Loop errors go to the JSON
# log, each kind at most once per LOOP_ERROR_EVERY seconds.
FD_BASE = 32
FD_PER_PROCESS = 4
BACKLOG = 100  # asyncio's default for create_server
MIN_BACKLOG = 8
ACCEPT_BATCHES = 4
MIN_CONNECTIONS = 8
LOOP_ERROR_EVERY = 10.0


def _raise_fd_limit() -> int | None:
    """Raise the soft fd limit toward the hard one; the soft limit after (None: unlimited)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft != resource.RLIM_INFINITY and want > soft:
        for target in (want, 1 << 20, 1 << 16):
            if soft < target <= want:
                try:
                    resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
                    soft = target
                    break
                except (ValueError, OSError):
                    continue
    return None if soft == resource.RLIM_INFINITY else soft


def fd_budget(max_connections: int, processes: int = 0) -> tuple[int, int]:
    """Raise the soft fd limit toward the hard one; (the connections the server can hold, the listen
    backlog): ``max_connections`` (0: no limit of its own) unless the limit forces fewer."""
    soft = _raise_fd_limit()
    if soft is None:
        return max_connections, BACKLOG
    base = FD_BASE + FD_PER_PROCESS * processes
    backlog = max(MIN_BACKLOG, min(BACKLOG, (soft - base) // (ACCEPT_BATCHES * 2 + 2)))
    room = soft - base - ACCEPT_BATCHES * backlog
    if room < MIN_CONNECTIONS:
        raise ValueError(f"only {soft} file descriptors (ulimit -n {soft}); regent serve needs at least "
                         f"{base + ACCEPT_BATCHES * MIN_BACKLOG + MIN_CONNECTIONS}: raise ulimit -n")
    if max_connections == 0 or max_connections > room:
        log.warning("--max-connections lowered to what the file descriptor limit allows",
                    extra={"max_connections": room, "asked": max_connections or "no limit", "fd_limit": soft,
                           "backlog": backlog})
        return room, backlog
    return max_connections, backlog


class LoopErrors:
    """The event loop's exception handler: every error in the JSON log, each kind at most once per
    ``every`` seconds (with how many were left out)."""

    def __init__(self, every: float = LOOP_ERROR_EVERY):
        self.every = every
        self.last: dict[str, float] = {}
        self.skipped: dict[str, int] = {}

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict) -> None:
        message = str(context.get("message") or "event loop error")
        exc = context.get("exception")
        key = f"{message}|{type(exc).__name__}"
        now = loop.time()
        if key in self.last and now - self.last[key] < self.every:
            self.skipped[key] = self.skipped.get(key, 0) + 1
            return
        self.last[key] = now
        skipped = self.skipped.pop(key, 0)
        extra: dict = {"repeats": skipped} if skipped else {}
        if isinstance(exc, OSError) and "system resource" in message:
            log.warning("out of file descriptors: new connections wait until some close (raise ulimit -n or "
                        "lower --max-connections)", extra={**extra, "error": str(exc)})
            return
        log.error("event loop: %s", message, exc_info=exc if isinstance(exc, BaseException) else None,
                  extra=extra)


@dataclass
class ServeConfig:
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    unix: str | None = None
    db: str | None = DEFAULT_DB  # None: in memory only (nothing survives a restart)
    sync: str = "full"
    max_message: int = DEFAULT_MAX_MESSAGE
    max_inflight: int = DEFAULT_MAX_INFLIGHT
    workers: int = 4
    processes: int = 0
    expiry_interval: float = 60.0
    inline_bytes: int = INLINE_STATELESS_BYTES  # small, light npr.* requests run on the loop (app.py)
    inline_work: int = INLINE_STATELESS_WORK
    max_submission: int = DEFAULT_MAX_SUBMISSION
    create_token: str | None = None  # game.create / game.import need it (issue 23 item 7)
    no_create_token: bool = False  # allow a non-loopback address without one
    max_games: int = limits.DEFAULT_MAX_GAMES  # live (not finished) games; 0: no limit
    max_resident: int = DEFAULT_MAX_RESIDENT  # games kept in memory (service/residency.py)
    max_connections: int = DEFAULT_MAX_CONNECTIONS
    idle_timeout: float = DEFAULT_IDLE_TIMEOUT  # seconds without a request; 0: never
    tls_cert: str | None = None
    tls_key: str | None = None
    checkpoint_dirs: tuple[str, ...] = ()  # policy:<path> agents may load files under these too


def tls_context(cert: str | None, key: str | None) -> ssl.SSLContext | None:
    """A server TLS context from a PEM certificate (chain) and key, or None for plain TCP."""
    if not cert and not key:
        return None
    if not cert or not key:
        raise ValueError("--tls-cert and --tls-key go together")
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        ctx.load_cert_chain(cert, key)
    except (OSError, ssl.SSLError) as err:
        raise ValueError(f"--tls-cert {cert} / --tls-key {key}: cannot load ({err})") from None
    return ctx


async def start(config: ServeConfig) -> tuple[asyncio.AbstractServer, App]:
    if not config.unix:
        refusal = limits.refuse_open_bind(config.host, config.create_token, config.no_create_token)
        if refusal:
            raise ValueError(refusal)
    tls = tls_context(config.tls_cert, config.tls_key)
    max_connections, backlog = fd_budget(config.max_connections, config.processes)
    asyncio.get_running_loop().set_exception_handler(LoopErrors())
    store = Store(config.db, config.sync) if config.db else None
    app = App(store, workers=config.workers, expiry_interval=config.expiry_interval, processes=config.processes,
              inline_bytes=config.inline_bytes, inline_work=config.inline_work,
              max_submission=config.max_submission, create_token=config.create_token,
              max_games=config.max_games, max_resident=config.max_resident,
              checkpoint_dirs=tuple(config.checkpoint_dirs))
    try:
        loaded = await asyncio.get_running_loop().run_in_executor(app.executor, app.load)
    except sqlite3.DatabaseError as err:  # pages damaged inside a file that opened (hB item 8)
        await app.close()
        raise StoreError(f"{config.db}: a damaged SQLite database ({err}); restore it from a backup") from None
    app.start()
    connections: set[Connection] = set()

    def factory() -> Connection:
        return Connection(app, config.max_message, config.max_inflight, registry=connections,
                          max_connections=max_connections, idle_timeout=config.idle_timeout)

    loop = asyncio.get_running_loop()
    if config.unix:
        with contextlib.suppress(FileNotFoundError):
            if Path(config.unix).is_socket():
                os.unlink(config.unix)
        server = await loop.create_unix_server(factory, config.unix, ssl=tls, backlog=backlog)
        where = {"unix": config.unix}
    else:
        server = await loop.create_server(factory, config.host, config.port, ssl=tls, backlog=backlog)
        sock = server.sockets[0].getsockname()
        where = {"host": sock[0], "port": sock[1]}
    gc.freeze()  # what startup built lives on: keep it out of every later collection (shorter pauses)
    sys.setswitchinterval(GIL_SWITCH_INTERVAL)
    gc.set_threshold(GC_YOUNG_THRESHOLD, GC_MIDDLE_THRESHOLD, gc.get_threshold()[2])
    log.info("listening", extra={**where, "db": config.db, "games": loaded, "pid": os.getpid(), "tls": tls is not None,
                                 "create_token": app.create_token is not None, "max_connections": max_connections})
    return server, app


async def serve(config: ServeConfig) -> None:
    server, app = await start(config)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    async with server:
        await stop.wait()
    log.info("shutting down")
    await app.close()
    if app.store is not None:
        app.store.close()
