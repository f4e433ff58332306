"""Cutting a report into chat-sized messages, placing a line under the turn it is about, and listing (and guessing)
seats the way a GM scans them.

Discord refuses a message over 2,000 characters. `split_messages` cuts a text into messages of at
most ``limit`` characters on line boundaries: each message is a run of whole lines (each keeping its
newline), and only a single line longer than the limit is cut inside it, after its last space
within the limit, or hard at the limit when it has no space there. Nothing is reordered, and nothing a
reader could see is lost: ``"".join(split_messages(text))`` is ``text`` but for whitespace Discord could
not post (a message of only spaces and newlines is refused as empty: such a piece joins the message before
or after it when it fits there, and is left out otherwise). tests/service/test_posting.py checks it with
hypothesis. Python strings are code points, so no cut falls inside a character.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

DISCORD_LIMIT = 2000
"""Discord's largest message, in characters."""


def split_messages(text: str, limit: int = DISCORD_LIMIT) -> list[str]:
    """Cut ``text`` into messages of 1..``limit`` characters, each with something to read, whose concatenation is
    ``text`` less whitespace no message could hold (see the module's docstring).

    Whole lines are packed greedily into each message; a newline stays at the end of the line it
    ends (chat clients do not show a trailing newline). A line longer than ``limit`` on its own is
    cut after its last space within the first ``limit`` characters (the space stays at the end of
    the first part), or hard at ``limit`` when there is no such space. An empty text gives ``[]``.

    Raises ValueError when ``text`` is not a string or ``limit`` is not a whole number >= 1.
    """
    if not isinstance(text, str):
        raise ValueError(f"split_messages: text must be a string, not {type(text).__name__}")
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ValueError(f"split_messages: limit must be a whole number of at least 1, not {limit!r}")
    messages: list[str] = []
    current = ""
    for line in _lines(text):
        if len(current) + len(line) <= limit:
            current += line
            continue
        if current:
            messages.append(current)
            current = ""
        while len(line) > limit:
            space = line.rfind(" ", 0, limit)
            cut = space + 1 if space > 0 else limit
            messages.append(line[:cut])
            line = line[cut:]
        current = line
    if current:
        messages.append(current)
    return _visible(messages, limit)


def _visible(messages: list[str], limit: int) -> list[str]:
    """``messages`` with each one of only whitespace (Discord refuses it as empty) put at the end of the message
    before it, or else at the start of the one after it, where it fits; where it fits neither, it is left out."""
    kept: list[str] = []
    blank = ""
    for message in messages:
        if not message.strip():
            if not blank and kept and len(kept[-1]) + len(message) <= limit:
                kept[-1] += message
            else:
                blank += message
            continue
        if blank and len(blank) + len(message) <= limit:
            message = blank + message
        blank = ""
        kept.append(message)
    return kept


def _lines(text: str) -> list[str]:
    """``text`` cut after each ``\\n`` (only ``\\n`` counts, unlike str.splitlines)."""
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def by_seat(seats: Iterable[str]) -> list[str]:
    """Seats in seat order (Player#2 before Player#10): easier to scan at 16 than the ranking's order."""
    return sorted(seats, key=lambda s: (len(s), s))


def under_turn(report: str, turn: int, lines: list[str]) -> str:
    """``report`` with ``lines`` (what the step of ``turn`` just resolved was: its ``Played by AI`` and ``Rulebook
    defaults for`` lines) at the end of that turn's part: before the next turn's ``== Turn N ==`` header when the
    report runs into it (a Consolidation resolved, then the next turn's bids and cards), else at the end. When the
    report is empty or has headers but none for ``turn`` (its step left nothing public: a Consolidation nobody bought
    in), the lines come under a ``== Turn N ==`` header of their own, not above the next turn's header (or alone) with
    no turn to read them by."""
    if not lines:
        return report
    rows = report.split("\n") if report else []
    at = next((i for i, row in enumerate(rows) if (m := TURN_HEADER.match(row)) and int(m.group(1)) > turn), len(rows))
    headed = not rows or any(TURN_HEADER.match(row) for row in rows)
    if headed and f"== Turn {turn} ==" not in rows[:at]:
        lines = [f"== Turn {turn} ==", *lines]
    return "\n".join([*rows[:at], *lines, *rows[at:]])


TURN_HEADER = re.compile(r"^== Turn (\d+) ==$")


def seat_guess(seat_words: str, name: str, colour: str) -> str:
    """"did you mean ...?" for a seat ``seat_words`` names (``Player#3 (Carol)``), found by ``name``: by its colour
    the hint says so ('Zed' is close to red, not to Carol or Player#3). The CLI, the service and the Discord bot
    (which reads no other module of the service's) guess a mistyped seat with it."""
    by_colour = name.casefold() == str(colour).casefold()
    return f"did you mean {seat_words}" + (f", whose colour is {colour}?" if by_colour else "?")
