"""Checking a method's one map parameter: every problem is ``invalid_params`` naming the field."""

from __future__ import annotations

from typing import Any

from service.errors import TOO_LARGE, RpcError, invalid

_MISSING = object()
# Deepest nesting of arrays and maps a request's fields may have (issue 23 item 3): no method needs
# more than a handful of levels, and recursive checks further in (setup keys, world documents) must
# never meet Python's recursion limit. msgpack itself stops at 1,024 levels.
MAX_DEPTH = 64
# Most arrays, maps and entries (of arrays and maps, counted together) one request may hold (hB item 2:
# 8 MB of empty maps took the event loop 8 s to walk). The RPC layer stops decoding a message at this
# count (``service/rpc.py``); check_depth enforces it for in-process callers too. The largest real
# requests (a whole position for game.create, a big realm world) hold a few thousand.
MAX_ITEMS = 200_000


def check_depth(fields: dict, limit: int = MAX_DEPTH, max_items: int = MAX_ITEMS) -> None:
    """``invalid_params`` naming the top-level field whose value nests deeper than ``limit``;
    ``too_large`` once the fields hold more than ``max_items`` arrays, maps and entries."""
    items = len(fields) + 1
    for name, value in fields.items():
        if not isinstance(value, dict | list | tuple):
            continue
        stack = [(value, 1)]
        while stack:
            item, depth = stack.pop()
            if depth > limit:
                raise invalid(str(name)[:64], f"nests deeper than {limit} levels of arrays and maps")
            items += len(item) + 1
            if items > max_items:
                raise RpcError(TOO_LARGE, f"{str(name)[:64]}: a request holds at most {max_items:,} arrays, "
                                          f"maps and entries", {"field": str(name)[:64], "limit": max_items})
            children = item.values() if isinstance(item, dict) else item
            stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list | tuple))


class Params:
    """The named fields of one call; :meth:`done` rejects fields the method does not know."""

    def __init__(self, method: str, raw: Any):
        if not isinstance(raw, list):
            raise invalid("params", "must be an array holding one map of named fields")
        if len(raw) > 1:
            raise invalid("params", f"{method} takes one map of named fields, got {len(raw)} parameters")
        value = raw[0] if raw else {}
        if not isinstance(value, dict):
            raise invalid("params", f"{method} takes one map of named fields, not {type(value).__name__}")
        for key in value:
            if not isinstance(key, str):  # b"x" is named x, not b'x' (Python's repr)
                raise invalid(key_name(key), f"a field name must be a string (MessagePack str), "
                                             f"not {type(key).__name__}")
        check_depth(value)
        self.method = method
        self.fields = value
        self.used: set[str] = set()

    def get(self, name: str, types: type | tuple[type, ...] | None = None, default: Any = _MISSING,
            what: str | None = None) -> Any:
        self.used.add(name)
        if name not in self.fields or (self.fields[name] is None and default is not _MISSING):
            if default is _MISSING:
                raise invalid(name, "is required")
            return default
        value = self.fields[name]
        if types is not None:
            bad = not isinstance(value, types) or (isinstance(value, bool) and bool not in _tuple(types))
            if bad:
                raise invalid(name, f"must be {what or _names(types)}, not {type(value).__name__}")
        return value

    def int(self, name: str, default: Any = _MISSING, minimum: int | None = None) -> Any:
        value = self.get(name, int, default, "an integer")
        if minimum is not None and isinstance(value, int) and value < minimum:
            raise invalid(name, f"must be >= {minimum}")
        return value

    def str(self, name: str, default: Any = _MISSING) -> Any:
        return self.get(name, str, default, "a string")

    def bool(self, name: str, default: Any = _MISSING) -> Any:
        return self.get(name, bool, default, "true or false")

    def take(self, name: str, default: Any = _MISSING) -> Any:
        return self.get(name, None, default)

    def done(self) -> None:
        unknown = sorted(str(k) for k in self.fields if k not in self.used)
        if unknown:
            raise invalid(unknown[0], f"unknown field for {self.method}; expected "
                                      f"{', '.join(sorted(self.used)) or 'no fields'}")


def key_name(key: object) -> str:
    """A map key as a person reads it in an error's field: bytes decoded (``x``, not ``b'x'``), at most 64
    characters."""
    if isinstance(key, bytes | bytearray):
        return bytes(key[:64]).decode("utf-8", "replace")
    return str(key)[:64]


def _tuple(types: type | tuple[type, ...]) -> tuple[type, ...]:
    return types if isinstance(types, tuple) else (types,)


def _names(types: type | tuple[type, ...]) -> str:
    return " or ".join({"str": "a string", "int": "an integer", "dict": "a map", "list": "an array",
                        "bytes": "bytes", "bool": "true or false", "float": "a number"}.get(t.__name__, t.__name__)
                       for t in _tuple(types))
