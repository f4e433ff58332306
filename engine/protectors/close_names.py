"""The one reading of a name a GM typed loosely or misspelt in a setup or a position (a faction, an ability, a card):
``fold`` compares names whatever their case, accents, spaces and punctuation, ``closest`` finds the name a close miss
means (``Kalu Ack``: Kalu'Ak; ``Iron-Lite``: Iron Light), for an error's "did you mean".
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

# Text longer than this gets no guess: difflib's work grows with the square of the text's length, and a name this long
# is no slip of one word (the longest card's or ability's name is under 40 letters)
MAX_GUESS_CHARS = 64
# how alike a folded name must be to a known one to be named as meant (difflib's ratio): one or two letters off a
# word of six or more ("kaluack", "ironlite", "bankoflanuvar")
CUTOFF = 0.75


_NOT_ALNUM = re.compile(r"[\W_]+")  # on ASCII text: what ``fold`` drops


def fold(text: str) -> str:
    """``Lannuvar``, ``lannuvár``, ``KALUAK``, ``Kalu’Ak``, ``iron-light``, ``Bank of Lannuvar``, ``bank_of_lannuvar``
    -> one key: letters and digits, no accents, no case."""
    if text.isascii():  # the same key the quick way (world loads are timed: docs/benchmarks.md)
        return _NOT_ALNUM.sub("", text).casefold()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if c.isalnum() and not unicodedata.combining(c)).casefold()


def closest(text: Any, names: Iterable[str] | Mapping[str, str], cutoff: float = CUTOFF) -> str | None:
    """The name ``text`` most likely means: the one equal to it folded (``fold``), else the closest folded within
    ``cutoff``; ``names`` is the names, or a map of every way to write one (a rulebook name, a key) to the name meant.
    None for text that is no string, longer than MAX_GUESS_CHARS, or near no name."""
    if not isinstance(text, str) or len(text) > MAX_GUESS_CHARS:
        return None
    ways = names if isinstance(names, Mapping) else {n: n for n in names}
    folded: dict[str, str] = {}
    for way, meant in ways.items():
        folded.setdefault(fold(way), meant)
    key = fold(text)
    if not key:
        return None
    if key in folded:
        return folded[key]
    close = difflib.get_close_matches(key, list(folded), n=1, cutoff=cutoff)
    return folded[close[0]] if close else None


# how alike an unknown key must be to a known one to be named (difflib's own default): keys are short and few, and a
# plural or a tense off (``occupied``: occupant; ``team``: teams) is the common slip
KEY_CUTOFF = 0.6


def unknown_keys(unknown: Iterable[Any], known: Iterable[str]) -> str:
    """``unknown keys ['occupied'] (did you mean occupant?)``: an error's text for keys a map may not have, naming the
    key each close miss means (``known``: the keys it may have)."""
    keys = sorted(unknown, key=str)
    names = list(known)
    meant = [(k, closest(k, names, KEY_CUTOFF)) for k in keys]
    hints = [f"{m} for {k!r}" if len(keys) > 1 else m for k, m in meant if m is not None]
    return f"unknown keys {keys}" + (f" (did you mean {', '.join(hints)}?)" if hints else "")
