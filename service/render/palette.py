"""Seat colours that colour-blind players can tell apart, and the board's fixed colours.

Seats 1-8 take the Okabe-Ito palette (Okabe & Ito, "Color Universal Design", 2008), the
standard set for deuteranopia, protanopia and tritanopia. Seats 9-16 take Paul Tol's "muted"
qualitative scheme (Tol, "Colour Schemes", SRON/EPS/TN/09-002), leaving out its pale grey, which
would read as a burnt-out Province. Sixteen hues cannot all stay apart for every viewer, so the
board never relies on colour alone: every owned Province also carries its owner's seat number.
"""

from __future__ import annotations

OKABE_ITO = (
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#009E73",  # bluish green
    "#F0E442",  # yellow
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#CC79A7",  # reddish purple
    "#000000",  # black
)
TOL_MUTED = (
    "#CC6677",  # rose
    "#332288",  # indigo
    "#DDCC77",  # sand
    "#117733",  # green
    "#88CCEE",  # cyan
    "#882255",  # wine
    "#44AA99",  # teal
    "#999933",  # olive
)
SEAT_COLOURS = OKABE_ITO + TOL_MUTED  # index i: the i-th seat of the game (setup order)

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
