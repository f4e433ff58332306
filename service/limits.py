"""What anyone who can reach the port may create (issue 23 item 7): the create token and the
limit on live games. ``regent serve --create-token`` / ``REGENT_CREATE_TOKEN``, ``--max-games``."""

from __future__ import annotations

import hmac
import ipaddress
from typing import Any

from service.errors import FORBIDDEN, TOO_MANY_GAMES, RpcError

CREATE_TOKEN_ENV = "REGENT_CREATE_TOKEN"
DEFAULT_MAX_GAMES = 10_000
OPEN_FLAG = "--no-create-token"


def check_create_token(configured: str | None, given: Any, method: str) -> None:
    """``forbidden`` unless ``given`` is the server's create token (any or none if none is set)."""
    if configured is None:
        return
    ok = isinstance(given, str) and hmac.compare_digest(given.encode("utf-8", "replace"),
                                                        configured.encode("utf-8", "replace"))
    if not ok:
        raise RpcError(FORBIDDEN, f"token: {method} needs the server's create token (regent serve "
                                  f"--create-token)", {"field": "token"})


def check_room(live: int, limit: int) -> None:
    if limit > 0 and live >= limit:
        raise RpcError(TOO_MANY_GAMES, f"this server holds its limit of {limit} live games (regent serve "
                                       f"--max-games); finish or delete games first", {"limit": limit})


def is_loopback(host: str) -> bool:
    """Whether a listening address is reachable only from this machine."""
    if host in ("localhost", "ip6-localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def refuse_open_bind(host: str, create_token: str | None, allow_open: bool) -> str | None:
    """The reason not to start, if the server would let anyone on the network create games."""
    if create_token or allow_open or is_loopback(host):
        return None
    return (f"--host {host} is reachable from other machines, and without a create token anyone who "
            f"reaches the port can create games: set --create-token TOKEN (or {CREATE_TOKEN_ENV}), "
            f"or pass {OPEN_FLAG} to allow it")
