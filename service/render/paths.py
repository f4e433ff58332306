"""Where a march is drawn: a polyline in board data units, computed from the layout (numpy only).

# rules: 003 March! ("from one Province to a neighbouring Province"), Seafarers!/Ferry! ("All
# Provinces count as neighbouring Provinces for executing March! orders this turn"), Island Rules
# ("A player can March! to/from the Island when mechanics are active that make all Provinces count
# as neighbouring").

On a ring board a march between two neighbours is a short arc along the ring, centred on their
shared border and drawn inside the land (never over the central sea): clockwise marches on the
outer lane, counter-clockwise ones on the inner lane. Only a sea move (a march between Provinces
that share no land border: Seafarers!, Ferry!, the Island) crosses the sea, as a curve from coast
to coast. On a custom board a land march follows the border line between the two discs; a sea
move bows away from it.
"""

from __future__ import annotations

import math

import numpy as np

from engine.protectors.board import Board
from service.render.layout import LANE_CCW, LANE_CW, Layout

SAMPLES = 24
MAX_HALF_SPAN = 24.0  # degrees: an arc on a small ring reaches at most this far either side of the border
HALF_SPAN_SHARE = 0.3  # ... and at most this share of the angle between the two wedges' middles
BIG_RING_SHARE = 0.42  # on rings of more than 16 Provinces the wedges are narrow: longer arcs
LANE_STEP = 0.028  # a second march over the same border in the same direction runs this far inwards
LANES = 4  # ... up to this many; a fifth shares the first's lane (so no march ever reaches the sea)


def is_sea_move(board: Board, src: str, dst: str) -> bool:
    """A march between two Provinces without a land border (only possible by sea)."""
    return dst not in board.neighbours.get(src, frozenset())


def _mid_angle(layout: Layout, name: str) -> float:
    sh = layout.shapes[name]
    return (sh.theta1 + sh.theta2) / 2


def ring_arc(layout: Layout, src: str, dst: str, k: int = 0) -> np.ndarray:
    """The arc of a march between two ring neighbours (``k``: how many were drawn there before)."""
    a, b = _mid_angle(layout, src), _mid_angle(layout, dst)
    d = (b - a + 180.0) % 360.0 - 180.0  # signed, in [-180, 180): -180 (a 2-Province ring) = clockwise
    border = a + d / 2
    share = BIG_RING_SHARE if len(layout.shapes) > 16 else HALF_SPAN_SHARE
    half = min(abs(d) * share, MAX_HALF_SPAN)
    sign = 1.0 if d > 0 else -1.0
    radius = (LANE_CW if d < 0 else LANE_CCW) - LANE_STEP * (k % LANES)
    angles = np.radians(np.linspace(border - sign * half, border + sign * half, SAMPLES))
    return np.column_stack([radius * np.cos(angles), radius * np.sin(angles)])


def _bezier(p0, p1, p2) -> np.ndarray:
    t = np.linspace(0.0, 1.0, SAMPLES)[:, None]
    p0, p1, p2 = (np.asarray(p, dtype=float) for p in (p0, p1, p2))
    return (1 - t) ** 2 * p0 + 2 * (1 - t) * t * p1 + t ** 2 * p2


def _towards(p, q, dist: float):
    dx, dy = q[0] - p[0], q[1] - p[1]
    d = math.hypot(dx, dy) or 1.0
    return (p[0] + dx / d * dist, p[1] + dy / d * dist)


def sea_path(layout: Layout, src: str, dst: str, k: int = 0) -> np.ndarray:
    """A sea move on a ring board: from ``src``'s coast to ``dst``'s, bowing through the sea."""
    shapes = layout.shapes
    a, b = shapes[src].tip, shapes[dst].tip
    if shapes[src].kind == "disc":  # from the Island: start at its edge
        a = _towards(a, b, shapes[src].radius)
    if shapes[dst].kind == "disc":
        b = _towards(b, a, shapes[dst].radius * 1.05)
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    dx, dy = b[0] - a[0], b[1] - a[1]
    bend = 0.18 + 0.08 * k  # a curve, so it reads as a voyage; further sea moves bend further
    ctrl = (mid[0] + bend * dy, mid[1] - bend * dx)
    return _bezier(a, ctrl, b)


def spring_path(layout: Layout, src: str, dst: str, sea: bool, k: int = 0) -> np.ndarray:
    """A march on a custom board: along the border line (land) or bowed off it (sea)."""
    sa, sb = layout.shapes[src], layout.shapes[dst]
    a = _towards(sa.anchor, sb.anchor, sa.radius * 0.55)
    b = _towards(sb.anchor, sa.anchor, sb.radius * 0.85)
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    dx, dy = b[0] - a[0], b[1] - a[1]
    bend = (0.35 if sea else 0.08) + 0.12 * k
    return _bezier(a, (mid[0] + bend * dy, mid[1] - bend * dx), b)


def march_path(layout: Layout, board: Board, src: str, dst: str, k: int = 0) -> tuple[np.ndarray, bool]:
    """``(points, sea)``: the polyline of a march from ``src`` to ``dst`` and whether it is a sea move."""
    sea = is_sea_move(board, src, dst)
    if layout.kind != "ring":
        return spring_path(layout, src, dst, sea, k), sea
    if sea:
        return sea_path(layout, src, dst, k), True
    return ring_arc(layout, src, dst, k), False
