"""Load a New World ``world`` document from a JSON, TOML or MessagePack file."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import msgpack

from engine import json_mistakes, jsonfile, msgpack_mistakes
from engine.errors import ValidationError
from engine.newworld.parse import parse_world
from engine.newworld.world import World

SUFFIXES = {".json": "json", ".toml": "toml", ".msgpack": "msgpack", ".mpk": "msgpack", ".msgp": "msgpack"}


def decode_world(raw: bytes, fmt: str, *, source: str = "world") -> Any:
    """Decode ``raw`` bytes in ``fmt`` ("json", "toml" or "msgpack") to plain data."""
    try:
        if fmt == "json":
            return jsonfile.loads(raw.decode("utf-8"))
        if fmt == "toml":
            return tomllib.loads(raw.decode("utf-8"))
        if fmt == "msgpack":
            try:
                return msgpack.unpackb(raw, raw=False, strict_map_key=False)
            except msgpack_mistakes.ERRORS as err:
                raise ValidationError("world", f"{source}: {msgpack_mistakes.not_msgpack(err)}") from err
    except jsonfile.DuplicateKeyError as err:
        raise ValidationError("world", f"{source}: {err}") from err
    except json.JSONDecodeError as err:  # where a hand-typed mistake is, in words (a trailing comma, quotes, ...)
        raise ValidationError("world", f"{source}: {json_mistakes.not_json(err)}") from err
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise ValidationError("world", f"{source}: not valid {fmt.upper()}: {err}") from err
    raise ValidationError("world", f"unknown format {fmt!r} (expected json, toml or msgpack)")


def load_world(path: str | Path) -> World:
    """Read, decode (by suffix: .json, .toml, .msgpack/.mpk/.msgp) and validate a world file."""
    path = Path(path)
    fmt = SUFFIXES.get(path.suffix.lower())
    if fmt is None:
        raise ValidationError("world", f"{path}: unknown file type (use {', '.join(sorted(SUFFIXES))}, or give "
                                       "--format json, --format toml or --format msgpack)")
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise ValidationError("world", f"cannot read {path}: {err.strerror or err}") from err
    return parse_world(decode_world(raw, fmt, source=str(path)))
