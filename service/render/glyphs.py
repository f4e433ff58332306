"""What the pictures' font can draw. The bundled font (DejaVu Sans, matplotlib's default) has Latin, Greek
and Cyrillic but no CJK and no emoji: a display name such as ``李雷`` or ``🐉Drago`` came out as empty boxes,
and matplotlib warned on stderr once per missing glyph. So a name is drawn with what the font has (``Drago``),
or as its seat (``Player#2``) when nothing of it is left, and any other text loses the characters it cannot
draw (a run of them becomes one ``?``). The text reports and DMs keep every name as written."""

from __future__ import annotations

import re
from functools import lru_cache

from matplotlib import font_manager
from matplotlib.ft2font import FT2Font

MISSING = "?"  # what a run of characters the font lacks becomes in a drawn text


@lru_cache(maxsize=1)
def _codes() -> frozenset[int]:
    """The code points the font the pictures use (matplotlib's default sans-serif) can draw."""
    path = font_manager.findfont(font_manager.FontProperties(family=["sans-serif"]))
    return frozenset(FT2Font(path).get_charmap())


def drawable(ch: str) -> bool:
    return ch in "\n\t " or ord(ch) in _codes()


@lru_cache(maxsize=4096)
def drawable_text(text: str) -> str:
    """``text`` with each run of characters the font cannot draw replaced by one ``?`` (``text`` itself when
    it can draw all of it: the common case, checked once per distinct text)."""
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
