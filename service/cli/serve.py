"""``regent serve``: run the MessagePack-RPC service (games, AI seats, NPR/NPN calls)."""

from __future__ import annotations

import argparse
import asyncio
import math
import os
from pathlib import Path
from typing import Any

from service.limits import CREATE_TOKEN_ENV, DEFAULT_MAX_GAMES, OPEN_FLAG
from service.residency import DEFAULT_MAX_RESIDENT
from service.rpc import DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_CONNECTIONS
from service.server import DEFAULT_DB, DEFAULT_HOST, DEFAULT_PORT

# The smallest --max-message: every method's request fits in far less than this; below it a server
# could refuse even its own clients' pings with headers.
MIN_MAX_MESSAGE = 1024
UNIX_PATH_MAX = 107  # sun_path holds 108 bytes with its terminating NUL (Linux)
# Flags that take a whole number: (flag, attribute, smallest value, what 0 means if it is allowed)
INT_FLAGS = (("--port", "port", 0, None), ("--max-message", "max_message", MIN_MAX_MESSAGE, None),
             ("--max-inflight", "max_inflight", 1, None), ("--max-submission", "max_submission", 1, None),
             ("--max-games", "max_games", 0, "no limit"), ("--max-resident", "max_resident", 1, None),
             ("--max-connections", "max_connections", 0, "no limit"), ("--workers", "workers", 1, None),
             ("--processes", "processes", 0, "no worker processes"))
SECONDS_FLAGS = (("--idle-timeout", "idle_timeout"), ("--expiry-interval", "expiry_interval"))
MAX_SECONDS = 31_536_000  # a year: the longest --idle-timeout / --expiry-interval that means anything


def check_flags(args: argparse.Namespace) -> None:
    """Refuse a flag value the server cannot use, naming the flag (hB item 9), before anything starts."""
    for flag, attr, low, zero in INT_FLAGS:
        value = getattr(args, attr)
        if value < low or (flag == "--port" and value > 65535):
            top = " and at most 65535" if flag == "--port" else ""
            also = f" (0: {zero})" if zero else ""
            raise ValueError(f"{flag} {value}: must be a whole number of at least {low}{top}{also}")
    for flag, attr in SECONDS_FLAGS:
        value = getattr(args, attr)
        if not math.isfinite(value) or not 0 <= value <= MAX_SECONDS:
            raise ValueError(f"{flag} {value}: must be a number of seconds from 0 (never) to {MAX_SECONDS:,}")
    if args.unix:
        parent = Path(args.unix).parent
        if len(os.fsencode(args.unix)) > UNIX_PATH_MAX:
            raise ValueError(f"--unix {args.unix}: a Unix socket path is at most {UNIX_PATH_MAX} bytes")
        if not parent.is_dir():
            raise ValueError(f"--unix {args.unix}: the directory {parent} does not exist")
        if Path(args.unix).exists() and not Path(args.unix).is_socket():
            raise ValueError(f"--unix {args.unix}: a file that is not a socket is there; not replacing it")
    for d in args.checkpoint_dir or ():
        if not Path(d).is_dir():
            raise ValueError(f"--checkpoint-dir {d}: not a directory")


def _serve(args: argparse.Namespace) -> int:
    from service import logs
    from service.server import ServeConfig, serve

    check_flags(args)
    logs.setup(args.log_level)
    config = ServeConfig(host=args.host, port=args.port, unix=args.unix,
                         db=None if args.db in ("", ":memory:") else args.db, sync=args.sync,
                         max_message=args.max_message, max_inflight=args.max_inflight, workers=args.workers,
                         processes=args.processes, expiry_interval=args.expiry_interval,
                         max_submission=args.max_submission,
                         create_token=args.create_token or os.environ.get(CREATE_TOKEN_ENV) or None,
                         no_create_token=args.no_create_token, max_games=args.max_games,
                         max_resident=args.max_resident, max_connections=args.max_connections,
                         idle_timeout=args.idle_timeout, tls_cert=args.tls_cert, tls_key=args.tls_key,
                         checkpoint_dirs=tuple(args.checkpoint_dir or ()))
    asyncio.run(serve(config))
    return 0


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("serve", help="run the MessagePack-RPC service (docs/protocol.md)",
                              description=__doc__.splitlines()[0])
    p.add_argument("--host", default=DEFAULT_HOST, help=f"TCP address (default {DEFAULT_HOST})")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"TCP port (default {DEFAULT_PORT}; 0 picks one)")
    p.add_argument("--unix", metavar="PATH", help="listen on a Unix socket instead of TCP")
    p.add_argument("--db", default=DEFAULT_DB,
                   help=f"SQLite database (WAL) holding every game (default ./{DEFAULT_DB}; ':memory:' keeps none)")
    p.add_argument("--sync", choices=("full", "normal"), default="full",
                   help="SQLite synchronous mode: full survives power loss, normal survives a killed process")
    p.add_argument("--max-message", type=int, default=8 * 1024 * 1024, metavar="BYTES",
                   help=f"largest request accepted; larger ones get too_large (default 8 MiB; at least "
                        f"{MIN_MAX_MESSAGE})")
    p.add_argument("--max-inflight", type=int, default=256, metavar="N",
                   help="requests one connection may have in flight before rate_limited (default 256)")
    p.add_argument("--max-submission", type=int, default=64 * 1024, metavar="BYTES",
                   help="largest DM text one game.submit may carry; larger ones get invalid_params (default 64 KiB)")
    p.add_argument("--create-token", metavar="TOKEN", default=None,
                   help=f"game.create and game.import need this as their token (default: ${CREATE_TOKEN_ENV}); "
                        f"required on a non-loopback --host unless {OPEN_FLAG}")
    p.add_argument(OPEN_FLAG, action="store_true",
                   help="serve a non-loopback --host without a create token (anyone may create games)")
    p.add_argument("--max-games", type=int, default=DEFAULT_MAX_GAMES, metavar="N",
                   help=f"live (unfinished) games the server holds; more get too_many_games "
                        f"(default {DEFAULT_MAX_GAMES:,}; 0: no limit)")
    p.add_argument("--max-resident", type=int, default=DEFAULT_MAX_RESIDENT, metavar="N",
                   help=f"games kept in memory; idle ones beyond it stay only in the store until used "
                        f"(default {DEFAULT_MAX_RESIDENT:,})")
    p.add_argument("--max-connections", type=int, default=DEFAULT_MAX_CONNECTIONS, metavar="N",
                   help=f"open connections; a new one beyond it is told why and closed (default "
                        f"{DEFAULT_MAX_CONNECTIONS}; 0: no limit)")
    p.add_argument("--idle-timeout", type=float, default=DEFAULT_IDLE_TIMEOUT, metavar="SECONDS",
                   help=f"close a connection with no request for this long "
                        f"(default {DEFAULT_IDLE_TIMEOUT:g}; 0: never)")
    p.add_argument("--checkpoint-dir", action="append", metavar="DIR",
                   help="policy:<path> agents may also play checkpoint files under DIR (repeatable; by "
                        "default only the shipped checkpoints/)")
    p.add_argument("--tls-cert", metavar="PEM", help="serve TLS with this certificate (chain); needs --tls-key")
    p.add_argument("--tls-key", metavar="PEM", help="the certificate's private key")
    p.add_argument("--workers", type=int, default=4,
                   help="worker threads for the calls' engine, NPR and rendering work, and as many again for AI seats")
    p.add_argument("--processes", type=int, default=0, metavar="N",
                   help="run npr.*/npn.* calls in N worker processes (default 0: in the worker threads)")
    p.add_argument("--expiry-interval", type=float, default=60.0, metavar="SECONDS",
                   help="how often games with expiry.auto resolve steps whose deadline passed (0: never)")
    p.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))
    p.set_defaults(func=_serve)
