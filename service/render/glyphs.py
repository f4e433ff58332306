"""What the pictures' font can draw. The bundled font (DejaVu Sans, matplotlib's default) has Latin, Greek
and Cyrillic but no CJK and no emoji: a display name such as ``李雷`` or ``🐉Drago`` came out as empty boxes,
and matplotlib warned on stderr once per missing glyph. So a name is drawn with what the font has (``Drago``),
or as its seat (``Player#2``) when nothing of it is left, and any other text loses the characters it cannot
draw (a run of them becomes one ``?``). The text reports and DMs keep every name as written.

Matplotlib lays out right-to-left script (Arabic, Hebrew) by the Unicode bidirectional algorithm, so a text
holding such a name took its direction from it: ``مريم (dark green)`` was drawn with the colour on the left,
and in ``#3 مريم 2 vs #6 Bob 1`` the digit after the name joined it, drawn before it (``#3 2 مريم vs``).
Every drawn text is read left to right: it starts with a left-to-right mark and each right-to-left run is
set off by two (:func:`left_to_right`)."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from matplotlib import font_manager
from matplotlib.ft2font import FT2Font

MISSING = "?"  # what a run of characters the font lacks becomes in a drawn text
LRM = "\u200e"  # LEFT-TO-RIGHT MARK: invisible, a strong left-to-right character to the layout
_RTL = frozenset(("R", "AL"))  # right-to-left letters
_RTL_TAIL = frozenset(("R", "AL", "AN", "NSM"))  # what may end a right-to-left run: its letters, digits, marks
_RUN_STOPS = frozenset(("L", "EN"))  # a Latin letter or a European digit ends a right-to-left run


@lru_cache(maxsize=1)
def _codes() -> frozenset[int]:
    """The code points the font the pictures use (matplotlib's default sans-serif) can draw."""
    path = font_manager.findfont(font_manager.FontProperties(family=["sans-serif"]))
    return frozenset(FT2Font(path).get_charmap())


def drawable(ch: str) -> bool:
    return ch in "\n\t " or ord(ch) in _codes()


def left_to_right(text: str) -> str:
    """``text`` read left to right whatever script it holds: begun with a left-to-right mark and each run of
    right-to-left letters (with the spaces and marks inside it) between two, so the layout keeps what
    follows a name after it (``text`` itself when it has no right-to-left letter)."""
    kinds = [unicodedata.bidirectional(c) for c in text]
    if not _RTL.intersection(kinds) or not drawable(LRM):  # a font without the mark would draw it as a box
        return text
    out, i = [LRM], 0
    while i < len(text):
        if kinds[i] not in _RTL:
            out.append(text[i])
            i += 1
            continue
        end = j = i
        while j < len(text) and kinds[j] not in _RUN_STOPS:
            end = j if kinds[j] in _RTL_TAIL else end
            j += 1
        out.append(LRM + text[i:end + 1] + LRM)
        i = end + 1
    return "".join(out)


@lru_cache(maxsize=4096)
def drawable_text(text: str) -> str:
    """``text`` as the pictures draw it: each run of characters the font cannot draw replaced by one ``?``,
    read left to right (:func:`left_to_right`); ``text`` itself in the common case, checked once per
    distinct text."""
    return left_to_right(_font_has(text))


def _font_has(text: str) -> str:
    if all(drawable(c) for c in text):
        return text
    out, gap = [], False
    for c in text:
        if drawable(c):
            out.append(c)
            gap = False
        elif not gap and not (0xFE00 <= ord(c) <= 0xFE0F or ord(c) == 0x200D):  # joiners/variants: no gap
            out.append(MISSING)
            gap = True
    return "".join(out)


def picture_name(name: str, seat: str) -> str:
    """A display name as the pictures draw it: the characters the font has, or the seat when none are left."""
    kept = re.sub(r"\s+", " ", "".join(c for c in name if drawable(c))).strip()
    return kept if any(c.isalnum() for c in kept) else seat
