"""What is wrong with a JSON file a GM typed by hand (a setup, a world file), in words: the mistakes hand-typing makes
(a comma after the last entry, one missing, curly or single quotes, a comment, an empty file, a file that is not JSON
at all) named where they are, rather than the JSON reader's message, which points past them (``Expecting property
name enclosed in double quotes`` on the line after a trailing comma)."""

from __future__ import annotations

import json

CURLY = "\u201c\u201d\u2018\u2019"


NOT_JSON = "not JSON"  # what every reader of a hand-typed JSON file (a setup, a world, a table, --fields) says first


def not_json(err: json.JSONDecodeError) -> str:
    """``not JSON: <what is wrong and where>``: the one way a command says a file is no JSON (``regent new``'s setup,
    ``regent npn plan``'s world said "not valid JSON" for the same mistake)."""
    return f"{NOT_JSON}: {explain(err)}"


def explain(err: json.JSONDecodeError) -> str:
    """One clause, after ``not JSON: ``, saying what is wrong and where."""
    doc, pos = err.doc, err.pos
    if not doc.strip():
        return "the file is empty; it must hold one JSON object"
    start = len(doc) - len(doc.lstrip())
    if doc[start] not in "{[" and pos == start:
        first = doc.lstrip().splitlines()[0].strip()
        first = first if len(first) <= 40 else first[:40] + "..."
        if first.startswith(("//", "#", "/*")):
            return f"line {err.lineno}: a comment; JSON has none (delete it)"
        return f"it must be one JSON object, starting with '{{' (line {err.lineno} starts {first!r})"
    here = doc[pos] if pos < len(doc) else ""
    before = doc[:pos].rstrip()
    prev_line = before.count("\n") + 1
    if here in "}]" and here and before.endswith(","):
        return f"line {prev_line}: a comma after the last entry, before '{here}': JSON allows none there; delete it"
    if here and here in CURLY:
        return f'line {err.lineno}: curly quotes ({here}); JSON needs straight double quotes (")'
    if here == "'":
        return f"line {err.lineno}: single quotes ('); JSON needs double quotes (\")"
    if doc.startswith(("//", "/*", "#"), pos):
        return f"line {err.lineno}: a comment; JSON has none (delete it)"
    if err.msg == "Expecting ',' delimiter":
        if prev_line < err.lineno:
            return f"line {prev_line}: a comma is missing at its end (JSON needs one between two entries)"
        return f"line {err.lineno} column {err.colno}: a comma is missing between two entries"
    if err.msg == "Extra data":
        return (
            f"line {err.lineno} column {err.colno}: more text after the object ended (a '}}' or ']' too many "
            "above it, or a second object)"
        )
    return f"{err.msg} at line {err.lineno} column {err.colno}"
