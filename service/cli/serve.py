"""``regent serve``: run the MessagePack-RPC service (games, AI seats, NPR/NPN calls)."""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from service.server import DEFAULT_DB, DEFAULT_HOST, DEFAULT_PORT


def _serve(args: argparse.Namespace) -> int:
    from service import logs
    from service.server import ServeConfig, serve

    logs.setup(args.log_level)
    config = ServeConfig(host=args.host, port=args.port, unix=args.unix,
                         db=None if args.db in ("", ":memory:") else args.db, sync=args.sync,
                         max_message=args.max_message, max_inflight=args.max_inflight, workers=args.workers,
                         processes=args.processes, expiry_interval=args.expiry_interval,
                         max_submission=args.max_submission)
    asyncio.run(serve(config))
    return 0


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("serve", help="run the MessagePack-RPC service (protocol.md)",
                              description=__doc__.splitlines()[0])
    p.add_argument("--host", default=DEFAULT_HOST, help=f"TCP address (default {DEFAULT_HOST})")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"TCP port (default {DEFAULT_PORT}; 0 picks one)")
    p.add_argument("--unix", metavar="PATH", help="listen on a Unix socket instead of TCP")
    p.add_argument("--db", default=DEFAULT_DB,
                   help=f"SQLite database (WAL) holding every game (default ./{DEFAULT_DB}; ':memory:' keeps none)")
    p.add_argument("--sync", choices=("full", "normal"), default="full",
                   help="SQLite synchronous mode: full survives power loss, normal survives a killed process")
    p.add_argument("--max-message", type=int, default=8 * 1024 * 1024, metavar="BYTES",
                   help="largest request accepted; larger ones get too_large (default 8 MiB)")
    p.add_argument("--max-inflight", type=int, default=256, metavar="N",
                   help="requests one connection may have in flight before rate_limited (default 256)")
    p.add_argument("--max-submission", type=int, default=64 * 1024, metavar="BYTES",
                   help="largest DM text one game.submit may carry; larger ones get invalid_params (default 64 KiB)")
    p.add_argument("--workers", type=int, default=4, help="worker threads for engine, AI and NPR work")
    p.add_argument("--processes", type=int, default=0, metavar="N",
                   help="run npr.*/npn.* calls in N worker processes (default 0: in the worker threads)")
    p.add_argument("--expiry-interval", type=float, default=60.0, metavar="SECONDS",
                   help="how often games with expiry.auto resolve steps whose deadline passed (0: never)")
    p.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))
    p.set_defaults(func=_serve)
