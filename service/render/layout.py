"""Where each Province goes on the picture, computed from the board's adjacency (numpy only).

Built-in ring boards (``ring-N``, ``ring-N-grand``, ``+island``) are drawn like the rulebook's
board: the Provinces as wedges of a ring around the central sea, P1 at the top and the numbers
running clockwise, the Island (the Wizard Sanctum) in the middle of the sea.
# rules: 003 Setup (the example 7-player board), Island Rules ("an Island in the middle of the
# game board").

Custom boards get a spring layout: a spectral start (deterministic: eigenvectors of the graph
Laplacian with fixed signs), Fruchterman-Reingold steps with cooling, then overlap removal and a
disc size of under half the smallest distance, so no two Provinces (nor their labels) can touch.

Everything here is in data units of a square board of half-width :data:`EXTENT`; the drawing code
maps that square onto :data:`BOARD_INCHES` inches, so a label's size in points is known here.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace

import numpy as np

from engine.protectors.board import Board, province_number

EXTENT = 1.22  # half-width of the board square, in data units
BOARD_INCHES = 7.2  # the board square's side on the figure
BIG_BOARD_INCHES = 9.4  # ... for boards of more than BIG_BOARD_PROVINCES Provinces
BIG_BOARD_PROVINCES = 20
RING_INNER, RING_OUTER = 0.58, 1.0  # ring radii (the sea is inside RING_INNER)
# Bands of a ring wedge, from the sea outwards: the label block (Province, holder, battle), then two
# march lanes near the outer edge: clockwise marches on the outer lane, counter-clockwise ones on
# the inner lane, so two armies swapping Provinces never share a line.
LANE_CW, LANE_CCW = 0.955, 0.9
LABEL_BAND = (RING_INNER + 0.01, 0.865)
ISLAND_RADIUS = 0.2
LABEL_LINES = 3  # "P12 Lv3" over "#3 ⚔2" over the battle line "★#3 2:1 #5"
LABEL_CHARS = 9  # widest line we size for (the battle line, drawn at BATTLE_SCALE)
SPRING_LABEL_CHARS = 7  # custom boards: "P12 Lv3"
BATTLE_SCALE = 0.8  # the battle line's font size relative to the label's
CHAR_EM = 0.62  # average DejaVu Sans glyph width, in em (bold digits and capitals)
LINE_EM = 1.25  # line height in em
MAX_LABEL_PT, MIN_LABEL_PT = 15.0, 6.5
RADIAL_BELOW_PT = 10.0  # big rings write labels along the radius when level text would be smaller
SPRING_STEPS = 400
MAX_STRETCH = 1.6
RING_NAME = re.compile(r"ring-(\d+)(-grand)?(\+island)?")


@dataclass(frozen=True)
class Shape:
    """One Province's area: a ring wedge (``theta1``..``theta2`` degrees, counter-clockwise) or a
    disc of ``radius``; ``anchor`` is where its label is centred, ``tip`` where sea moves start and end."""

    name: str
    kind: str  # "wedge" | "disc"
    anchor: tuple[float, float]
    tip: tuple[float, float]
    radius: float = 0.0
    theta1: float = 0.0
    theta2: float = 0.0
    r_in: float = 0.0
    r_out: float = 0.0


@dataclass(frozen=True)
class Layout:
    kind: str  # "ring" | "spring"
    shapes: dict[str, Shape]
    label_pt: float  # font size of Province labels, chosen so the labels fit their slots
    sea: tuple[float, float, float] | None = None  # centre x, y and radius (ring boards)
    borders: tuple[tuple[str, str], ...] = field(default=())  # drawn as lines (spring layouts)
    rotation: dict[str, float] = field(default_factory=dict)  # label angle in degrees (default 0)
    inches: float = BOARD_INCHES  # the board square's side on the figure
    label_chars: int = LABEL_CHARS  # the widest label line sized for

    @property
    def pt_per_unit(self) -> float:
        return self.inches * 72 / (2 * EXTENT)

    def label_corners(self, name: str) -> np.ndarray:
        """Estimated label rectangle (4 x 2 corners, data units) for LABEL_LINES lines of
        LABEL_CHARS characters at :attr:`label_pt`, turned by the label's rotation."""
        w = self.label_chars * CHAR_EM * self.label_pt / self.pt_per_unit
        h = LABEL_LINES * LINE_EM * self.label_pt / self.pt_per_unit
        return rectangle(self.shapes[name].anchor, w, h, self.rotation.get(name, 0.0))

    def line_at(self, name: str, offset: float) -> tuple[float, float]:
        """Centre of a label line ``offset`` lines below the label's centre (negative: above),
        following the label's rotation."""
        step = offset * LINE_EM * self.label_pt / self.pt_per_unit
        a = math.radians(self.rotation.get(name, 0.0))
        x, y = self.shapes[name].anchor
        return (x + step * math.sin(a), y - step * math.cos(a))


def layout_for(board: Board) -> Layout:
    """The layout for ``board``: a ring for built-in boards, a spring layout otherwise."""
    n = len(board.provinces)
    ring = all(board.neighbours[p] == frozenset({board.provinces[(i - 1) % n], board.provinces[(i + 1) % n]} - {p})
               for i, p in enumerate(board.provinces))
    if RING_NAME.fullmatch(board.name) and ring:  # a custom board named like a ring keeps its own shape
        return ring_layout(board)
    return spring_layout(board)


def board_inches(board: Board) -> float:
    return BIG_BOARD_INCHES if len(board.all_provinces) > BIG_BOARD_PROVINCES else BOARD_INCHES


def _fit_font(spacing: float, depth: float, inches: float = BOARD_INCHES) -> float:
    """Largest label font (pt) whose box fits ``spacing`` wide and ``depth`` high (data units)."""
    per_unit = inches * 72 / (2 * EXTENT)
    by_width = 0.85 * spacing * per_unit / (LABEL_CHARS * CHAR_EM)
    by_height = 0.85 * depth * per_unit / (LABEL_LINES * LINE_EM)
    return max(MIN_LABEL_PT, min(MAX_LABEL_PT, by_width, by_height))


def ring_layout(board: Board) -> Layout:
    n = len(board.provinces)
    step = 360.0 / n
    inches = board_inches(board)
    r_mid = (LABEL_BAND[0] + LABEL_BAND[1]) / 2
    shapes: dict[str, Shape] = {}
    for i, name in enumerate(board.provinces):  # provinces are sorted by number: P1 at the top
        mid = 90.0 - i * step  # clockwise from 12 o'clock
        a = math.radians(mid)
        unit = (math.cos(a), math.sin(a))
        shapes[name] = Shape(
            name=name, kind="wedge",
            anchor=(r_mid * unit[0], r_mid * unit[1]),
            tip=(RING_INNER * 0.99 * unit[0], RING_INNER * 0.99 * unit[1]),
            theta1=mid - step / 2, theta2=mid + step / 2, r_in=RING_INNER, r_out=RING_OUTER,
        )
    # Level labels: adjacent label centres are a chord apart and, at 12 o'clock, sit side by side.
    sin = math.sin(math.pi / n) if n > 2 else 1.0
    depth = LABEL_BAND[1] - LABEL_BAND[0]
    label_pt = _fit_font(2 * r_mid * sin, depth, inches)
    rotation: dict[str, float] = {}
    if label_pt < RADIAL_BELOW_PT:
        # Radial labels: the text runs along the wedge (depth) and its lines stack across the
        # wedge, whose width at the label's inner quarter bounds them.
        radial_pt = _fit_font(depth, 2 * (LABEL_BAND[0] + depth / 4) * sin, inches)
        if radial_pt > label_pt:
            label_pt = radial_pt
            for name, sh in shapes.items():
                mid = (sh.theta1 + sh.theta2) / 2
                rotation[name] = mid if math.cos(math.radians(mid)) >= -1e-9 else mid + 180.0
    if board.island:
        shapes[board.island] = Shape(
            name=board.island, kind="disc", anchor=(0.0, 0.0), tip=(0.0, 0.0),
            radius=ISLAND_RADIUS)
    # The estimates above are for a label at 12 o'clock; shrink until no two labels overlap anywhere.
    return _apart(Layout("ring", shapes, label_pt, sea=(0.0, 0.0, RING_INNER), rotation=rotation, inches=inches))


def _apart(layout: Layout) -> Layout:
    """``layout`` with its label font shrunk (5% at a time, not below MIN_LABEL_PT) until no two
    estimated label boxes overlap."""
    names = list(layout.shapes)
    while layout.label_pt > MIN_LABEL_PT:
        boxes = [layout.label_corners(p) for p in names]
        if not any(polygons_overlap(boxes[i], boxes[j]) for i in range(len(names)) for j in range(i + 1, len(names))
                   if np.abs(boxes[i].mean(axis=0) - boxes[j].mean(axis=0)).max() < 0.8):
            break
        layout = replace(layout, label_pt=max(MIN_LABEL_PT, layout.label_pt * 0.95))
    return layout


# -- spring layout for custom boards ----------------------------------------------------------
def _spectral_start(names: list[str], adj: dict[str, frozenset[str]]) -> np.ndarray:
    n = len(names)
    idx = {p: i for i, p in enumerate(names)}
    lap = np.zeros((n, n))
    for p, nb in adj.items():
        for q in nb:
            lap[idx[p], idx[q]] = -1.0
        lap[idx[p], idx[p]] = len(nb)
    _, vecs = np.linalg.eigh(lap)
    pos = vecs[:, 1:3] if n > 2 else np.array([[-1.0, 0.0], [1.0, 0.0]])[:n]
    for k in range(pos.shape[1]):  # fix each eigenvector's sign so the layout is deterministic
        j = int(np.argmax(np.abs(pos[:, k])))
        if pos[j, k] < 0:
            pos[:, k] = -pos[:, k]
    # a tiny deterministic jitter separates nodes that the spectrum puts on top of each other
    angles = np.arange(n) * 2.399963  # golden angle
    pos = pos + 1e-3 * np.column_stack([np.cos(angles), np.sin(angles)])
    return pos


def _spring(pos: np.ndarray, edges: np.ndarray, steps: int = SPRING_STEPS) -> np.ndarray:
    """Fruchterman-Reingold in the unit square; deterministic."""
    n = len(pos)
    k = math.sqrt(1.0 / n)
    pos = pos - pos.mean(axis=0)
    pos = pos / max(np.abs(pos).max(), 1e-9) * 0.5
    temp = 0.1
    for _ in range(steps):
        delta = pos[:, None, :] - pos[None, :, :]
        dist = np.maximum(np.linalg.norm(delta, axis=2), 1e-4)
        disp = (delta / dist[..., None] * (k * k / dist)[..., None]).sum(axis=1)  # repulsion
        if len(edges):
            d = pos[edges[:, 0]] - pos[edges[:, 1]]
            dl = np.maximum(np.linalg.norm(d, axis=1), 1e-4)
            f = d / dl[:, None] * (dl * dl / k)[:, None]  # attraction along borders
            np.add.at(disp, edges[:, 0], -f)
            np.add.at(disp, edges[:, 1], f)
        length = np.maximum(np.linalg.norm(disp, axis=1), 1e-9)
        pos = pos + disp / length[:, None] * np.minimum(length, temp)[:, None]
        temp = max(temp * 0.985, 0.002)
    return pos


def _remove_overlaps(pos: np.ndarray, min_dist: float, rounds: int = 200) -> np.ndarray:
    """Push apart pairs closer than ``min_dist`` (each moves half the shortfall)."""
    n = len(pos)
    for _ in range(rounds):
        delta = pos[:, None, :] - pos[None, :, :]
        dist = np.linalg.norm(delta, axis=2) + np.eye(n) * 1e9
        close = dist < min_dist
        if not close.any():
            break
        short = np.where(close, (min_dist - dist) / 2, 0.0)
        unit = delta / np.maximum(dist, 1e-9)[..., None]
        pos = pos + (unit * short[..., None]).sum(axis=1)
    return pos


def spring_layout(board: Board) -> Layout:
    names = list(board.provinces)
    idx = {p: i for i, p in enumerate(names)}
    pairs = sorted({tuple(sorted((p, q), key=province_number)) for p in names for q in board.neighbours[p]},
                   key=lambda e: (province_number(e[0]), province_number(e[1])))
    edges = np.array([[idx[a], idx[b]] for a, b in pairs], dtype=int).reshape(-1, 2)
    pos = _spring(_spectral_start(names, board.neighbours), edges)
    pos = _remove_overlaps(pos, min_dist=0.9 / math.sqrt(len(names)))
    # Scale into the board square, leaving room for the Island (to the right) and battle badges.
    pos = pos - (pos.max(axis=0) + pos.min(axis=0)) / 2
    pos = pos / max(np.abs(pos).max(), 1e-9)
    # A flat layout is stretched along its short axis (at most MAX_STRETCH) to use the square.
    short = max(float(np.abs(pos).max(axis=0).min()), 1e-9)
    axis = int(np.argmin(np.abs(pos).max(axis=0)))
    pos[:, axis] *= min(1.0 / short, MAX_STRETCH)
    dist = np.linalg.norm(pos[:, None, :] - pos[None, :, :], axis=2) + np.eye(len(pos)) * 1e9
    rel_radius = min(0.46 * float(dist.min()), 0.25)
    room = EXTENT * (0.8 if board.island else 0.92)
    scale = room / (1 + rel_radius)
    pos = pos * scale
    radius = rel_radius * scale
    if board.island:
        pos[:, 0] -= (EXTENT - room) * 0.7  # the Island sits to the right, in open sea
    shapes = {}
    for p, (x, y) in zip(names, pos, strict=True):
        shapes[p] = Shape(name=p, kind="disc", anchor=(float(x), float(y)), tip=(float(x), float(y)),
                          radius=radius)
    if board.island:
        ix, iy = _open_sea(pos, radius)
        r = min(radius, ISLAND_RADIUS)
        shapes[board.island] = Shape(name=board.island, kind="disc", anchor=(ix, iy), tip=(ix, iy),
                                     radius=r)
    inches = board_inches(board)
    label_pt = _fit_font(2 * radius * 0.92, 2 * radius * 0.8, inches)
    # Custom boards size labels for "P12 Lv3" (a long battle line may run over a crowded disc's edge).
    return _apart(Layout("spring", shapes, label_pt, borders=tuple(pairs), inches=inches,
                         label_chars=SPRING_LABEL_CHARS))


def _open_sea(pos: np.ndarray, radius: float) -> tuple[float, float]:
    """The point of the board square farthest from every Province (ties: the first on the grid)."""
    grid = np.linspace(-EXTENT + radius * 1.2 + 0.1, EXTENT - radius * 1.2 - 0.1, 41)
    gx, gy = np.meshgrid(grid, grid)
    pts = np.column_stack([gx.ravel(), gy.ravel()])
    far = np.linalg.norm(pts[:, None, :] - pos[None, :, :], axis=2).min(axis=1)
    best = int(np.argmax(far))
    return float(pts[best, 0]), float(pts[best, 1])


def rectangle(centre: tuple[float, float], w: float, h: float, degrees: float) -> np.ndarray:
    """Corners of a ``w`` x ``h`` rectangle centred on ``centre`` and turned by ``degrees``."""
    a = math.radians(degrees)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    half = np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2
    return half @ rot.T + np.asarray(centre, dtype=float)


def polygons_overlap(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two convex polygons (corner arrays) share any area (separating axis theorem)."""
    for poly in (a, b):
        for i in range(len(poly)):
            edge = poly[(i + 1) % len(poly)] - poly[i]
            axis = np.array([-edge[1], edge[0]])
            pa, pb = a @ axis, b @ axis
            if pa.max() <= pb.min() or pb.max() <= pa.min():
                return False
    return True
