"""What is wrong with a MessagePack file given as a world (``regent npr``, ``regent npn``), in words.

The decoder's own messages are sometimes empty (``FormatError()`` for a byte that starts no value), or name
its internals (``unhashable type: 'list'`` for a map key that is an array); a GM gets one clause saying what
is wrong, never an empty reason.
"""

from __future__ import annotations

import msgpack

NOT_MSGPACK = "not readable MessagePack"

# What a decoder may raise on bytes that are not a readable MessagePack document (TypeError: a map key that is
# an array or a map, which no dict can hold).
ERRORS = (msgpack.UnpackException, ValueError, TypeError)


def not_msgpack(err: Exception) -> str:
    """``not readable MessagePack: <what is wrong>`` for an error from ``msgpack.unpackb``."""
    text = str(err)
    if isinstance(err, msgpack.FormatError):
        why = "a byte that starts no MessagePack value (0xc1, the one reserved byte, or a file that is not MessagePack)"
    elif isinstance(err, msgpack.StackError):
        why = "arrays and maps nested too deeply to read"
    elif isinstance(err, msgpack.ExtraData):
        why = "more bytes after the end of the document (two documents, or a file not written as one)"
    elif (isinstance(err, TypeError) and text.startswith("unhashable type")) or "not allowed for map key" in text:
        why = "a map key that is not a name (a number, an array or a map)"
    elif isinstance(err, ValueError) and "incomplete input" in text:
        why = "the file ends in the middle of a value (cut short?)"
    elif isinstance(err, ValueError) and " exceeds max_" in text:
        why = f"a value declares more entries or bytes than the file holds (cut short?): {text}"
    else:
        why = text or type(err).__name__
    return f"{NOT_MSGPACK}: {why}"
