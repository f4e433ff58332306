"""Errors shared by every Regent engine.

Each error carries a stable ``code`` that the RPC layer sends on the wire unchanged
(``../shared/design/protocol.md``, "Errors"), the offending ``input`` where there is one, and a
human ``reason``. All are ``ValueError`` subclasses so callers that only know the standard library
still catch them.
"""

from __future__ import annotations

from typing import Any


class RegentError(ValueError):
    """Base class: a request Regent refuses, with a wire code and details."""

    code = "invalid_params"

    def __init__(self, reason: str, *, input: Any = None, details: dict[str, Any] | None = None):
        self.reason = reason
        self.input = input
        self.details = dict(details or {})
        super().__init__(reason if input is None else f"{input!r}: {reason}")

    def to_wire(self) -> dict[str, Any]:
        """The ``error`` map of a msgpack-rpc response."""
        details = dict(self.details)
        if self.input is not None:
            details.setdefault("input", self.input)
        return {"code": self.code, "message": str(self), "details": details}


class ValidationError(RegentError):
    """A setup, board or world document is malformed; ``field`` names where."""

    code = "invalid_params"

    def __init__(self, field: str, reason: str, **kw: Any):
        self.field = field
        super().__init__(f"{field}: {reason}", **kw)
        self.details.setdefault("field", field)


class OrderSyntaxError(RegentError):
    """A DM line that does not parse as any order."""

    code = "invalid_order"


class IllegalOrderError(RegentError):
    """A DM line that parses but is not allowed here (rules, phase, ownership...)."""

    code = "invalid_order"


class PhaseError(RegentError):
    """A decision submitted for a phase the game is not in, or submitted twice."""

    code = "conflict"
