"""Wire errors: the ``error`` map of a msgpack-rpc response (protocol.md, "Errors").

Every failure the service reports is an :class:`RpcError` with one of :data:`CODES`; engine errors
(``engine.errors.RegentError``) already carry a wire code and convert through :func:`from_exception`.
"""

from __future__ import annotations

from typing import Any

from engine.errors import RegentError

BAD_REQUEST, UNKNOWN_METHOD, INVALID_PARAMS, NOT_FOUND, FORBIDDEN = (
    "bad_request", "unknown_method", "invalid_params", "not_found", "forbidden")
INVALID_ORDER, CONFLICT, TOO_LARGE, RATE_LIMITED, INTERNAL = (
    "invalid_order", "conflict", "too_large", "rate_limited", "internal")
TOO_MANY_GAMES = "too_many_games"
UNAVAILABLE = "unavailable"  # the store refused a write for now (disk full, database locked): nothing changed
IDLE = "idle_timeout"  # only as the reason a connection is closed (msgid nil), never a request's answer
CODES = (BAD_REQUEST, UNKNOWN_METHOD, INVALID_PARAMS, NOT_FOUND, FORBIDDEN, INVALID_ORDER, CONFLICT,
         TOO_LARGE, RATE_LIMITED, TOO_MANY_GAMES, UNAVAILABLE, IDLE, INTERNAL)
# Bounded error text (issue 23 item 2): an error never echoes a whole request back. A message is cut
# to MAX_MESSAGE characters; in details every string is cut to MAX_DETAIL_STRING characters and every
# list to MAX_DETAIL_ITEMS entries (``details.truncated`` then says so), so an invalid_order over a
# 1 MB DM answers its first offending lines, not the DM.
MAX_MESSAGE = 300
MAX_DETAIL_STRING = 300
MAX_DETAIL_ITEMS = 20
MAX_DETAIL_DEPTH = 8


class RpcError(Exception):
    """A request the service refuses: a protocol ``code``, a message naming the problem, details."""

    def __init__(self, code: str, message: str, details: dict[str, Any] | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = dict(details or {})

    def to_wire(self) -> dict[str, Any]:
        cut = [False]
        details = _bounded(self.details, cut, 0)
        if cut[0]:
            details["truncated"] = True
        return {"code": self.code, "message": clip(self.message, MAX_MESSAGE), "details": details}


class StoreFailed(RpcError):
    """``unavailable``: a write the store refused (the disk full, the database locked by another program); nothing
    was changed, and the same write may succeed later (the background work tries again: service/app.py). Not
    ``internal``, which says Regent has a bug: the request was fine and may be sent again."""

    def __init__(self, message: str):
        super().__init__(UNAVAILABLE, message)


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, marked with how much was left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters)"


def _bounded(value: Any, cut: list[bool], depth: int) -> Any:
    if isinstance(value, str):
        if len(value) > MAX_DETAIL_STRING:
            cut[0] = True
            return clip(value, MAX_DETAIL_STRING)
        return value
    if isinstance(value, bytes) and len(value) > MAX_DETAIL_STRING:
        cut[0] = True
        return value[:MAX_DETAIL_STRING]
    if isinstance(value, dict | list | tuple) and depth >= MAX_DETAIL_DEPTH:
        cut[0] = True
        return None
    if isinstance(value, dict):
        items = list(value.items())
        if len(items) > MAX_DETAIL_ITEMS:
            cut[0] = True
        return {k: _bounded(v, cut, depth + 1) for k, v in items[:MAX_DETAIL_ITEMS]}
    if isinstance(value, list | tuple):
        if len(value) > MAX_DETAIL_ITEMS:
            cut[0] = True
        return [_bounded(v, cut, depth + 1) for v in value[:MAX_DETAIL_ITEMS]]
    return value


def invalid(field: str, reason: str) -> RpcError:
    """``invalid_params`` naming the field (protocol.md: "invalid_params (names the field)")."""
    return RpcError(INVALID_PARAMS, f"{field}: {reason}", {"field": field})


def from_exception(err: BaseException) -> RpcError:
    """Map an engine error onto the wire; anything else is ``internal`` (details never leak state)."""
    if isinstance(err, RpcError):
        return err
    if isinstance(err, RegentError):
        wire = err.to_wire()
        code = wire["code"] if wire["code"] in CODES else INVALID_PARAMS
        return RpcError(code, wire["message"], _plain(wire["details"]))
    if type(err) is ValueError:
        # A plain ValueError escaping the engine comes from a value a caller sent (int() of a
        # 5,000-digit number, ...): refuse the request; the service logs it so the check can move
        # into the engine's own validation.
        return RpcError(INVALID_PARAMS, f"invalid value: {clip(str(err), 200)}", {})
    return RpcError(INTERNAL, f"internal error ({type(err).__name__})")


def _plain(value: Any) -> Any:
    """Details as msgpack-able data (tuples, sets and objects become lists and strings)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str | bytes):
        return value
    return str(value)
