"""Where a command's world document comes from: a file, or standard input (``-``, or a pipe when the
file is left out), with ``--format`` for input that has no file suffix to go by. Shared by
``regent npr`` and ``regent npn`` so both read input the same way."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, BinaryIO

from engine.errors import ValidationError
from engine.newworld.load import SUFFIXES, decode_world

FORMATS = ("json", "toml", "msgpack")
STDIN = "-"
STDIN_NAME = "standard input"


def add_format(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=FORMATS, default=None,
                        help="the document's format when it has no file suffix to go by (standard input, or a "
                             "file named otherwise); without it standard input is read as JSON or MessagePack "
                             "by its first byte")


def at_least(minimum: int) -> Any:
    """An argparse ``type`` for a whole-number option (``--turn``, ``--supply``) of ``minimum`` or more: a bad value
    is refused as the option's own usage error, before any file is read, so the error names the option and not the
    world file (which has a ``turn`` of its own)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be {minimum} or more, not {value}")
        return value

    parse.__name__ = "whole number"  # what argparse calls the type in its own messages
    return parse


def _sniff(raw: bytes) -> str:
    """JSON (starts with ``{``) or a MessagePack map; anything else needs ``--format``."""
    head = raw.lstrip()[:1]
    if head == b"{":
        return "json"
    if raw[:1] and (0x80 <= raw[0] <= 0x8F or raw[0] in (0xDE, 0xDF)):
        return "msgpack"
    raise ValidationError("--format", f"cannot tell the format of {STDIN_NAME}: give --format "
                                      f"{' | '.join(FORMATS)}")


def read_source(path: str | None, fmt: str | None, *, stdin: BinaryIO | None = None) -> Any | None:
    """The decoded document when it comes from standard input (``path`` ``-``, or None with input piped
    in) or ``fmt`` overrides the file's suffix; None when the caller's own file loader should read
    ``path`` (a file whose suffix says its format)."""
    stream = stdin if stdin is not None else sys.stdin.buffer
    if path is None:
        if stdin is None and sys.stdin.isatty():
            raise ValidationError("world", "give a world file, or - to read it from standard input (or pipe it in)")
        path = STDIN
    if path == STDIN:
        raw = stream.read()
        if not raw.strip():
            raise ValidationError("world", f"{STDIN_NAME} is empty: give a world file, or pipe the world in")
        return decode_world(raw, fmt or _sniff(raw), source=STDIN_NAME)
    if fmt is None:
        return None
    p = Path(path)
    if p.suffix.lower() in SUFFIXES and SUFFIXES[p.suffix.lower()] != fmt:
        raise ValidationError("--format", f"{path} is named as {SUFFIXES[p.suffix.lower()]}, not {fmt}")
    try:
        raw = p.read_bytes()
    except OSError as err:
        raise ValidationError("world", f"cannot read {path}: {err.strerror or err}") from err
    return decode_world(raw, fmt, source=str(path))
