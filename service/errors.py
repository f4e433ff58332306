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
CODES = (BAD_REQUEST, UNKNOWN_METHOD, INVALID_PARAMS, NOT_FOUND, FORBIDDEN, INVALID_ORDER, CONFLICT,
         TOO_LARGE, RATE_LIMITED, INTERNAL)


class RpcError(Exception):
    """A request the service refuses: a protocol ``code``, a message naming the problem, details."""

    def __init__(self, code: str, message: str, details: dict[str, Any] | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = dict(details or {})

    def to_wire(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "details": self.details}


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
