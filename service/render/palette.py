"""Seat colours that colour-blind players can tell apart, and the board's fixed colours.

The 16 seat colours were chosen by a max-min search over a 14-step sRGB grid (lightness L* 25-90):
greedy, then one-swap improvements, then ordered so that every prefix (the colours of a smaller
game) is as far apart as it can be. The distance is CIEDE2000, taken as the smallest over normal
vision and simulated protanopia, deuteranopia and tritanopia (Machado et al. 2009), and counting
the parchment of an unheld Province, the grey of a burnt one, white and black.
``tests/render/test_palette.py`` checks the result: see :data:`MIN_DELTA_E` (``service/render/colour.py``
holds the colour science). Colour is never the only cue: every held Province also carries its
holder's seat number.
"""

from __future__ import annotations

from engine.protectors.colours import COLOUR_NAMES

SEAT_COLOURS = (  # index i: the i-th seat of the game (setup order)
    "#2700C4",  # 1 indigo
    "#3BB1FF",  # 2 sky blue
    "#004E00",  # 3 dark green
    "#62FF76",  # 4 light green
    "#4E3B3B",  # 5 brown
    "#C4B19D",  # 6 sand
    "#89B100",  # 7 lime
    "#627600",  # 8 olive
    "#760062",  # 9 plum
    "#EB3B62",  # 10 rose
    "#B176B1",  # 11 orchid
    "#C4D8FF",  # 12 pale blue
    "#B12762",  # 13 raspberry
    "#4E76FF",  # 14 blue
    "#2762B1",  # 15 steel
    "#EB9DC4",  # 16 pink
)
# What players call each colour (rules: 003 names players "by colour"): the engine keeps the names, in
# this order, so a DM can name a seat by the colour its board shows (engine/protectors/colours.py).
SEAT_COLOUR_NAMES = COLOUR_NAMES
# The smallest CIEDE2000 distance between the first n seat colours (and from them to the board's
# parchment, burnt grey, white and black), over normal vision and the three simulated dichromacies.
MIN_DELTA_E = {2: 24.0, 5: 15.0, 7: 14.5, 8: 14.0, 12: 13.0, 16: 12.0}

NEUTRAL = "#F7F3E3"  # nobody holds it (parchment)
BURNT = "#8C8C8C"  # rules: 003 — burnt-out Provinces "switch from green to grey colour"
SEA = "#DCEAF5"
SEA_EDGE = "#9DB9D0"
INK = "#1A1A1A"
DRAGON = "#B2182B"


def seat_colour(index: int) -> str:
    """Colour of the ``index``-th seat (0-based); wraps around past 16 seats."""
    return SEAT_COLOURS[index % len(SEAT_COLOURS)]


def text_colour(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (WCAG relative luminance)."""
    r, g, b = (int(fill[i:i + 2], 16) / 255 for i in (1, 3, 5))

    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    lum = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
    return "#000000" if lum > 0.179 else "#FFFFFF"
