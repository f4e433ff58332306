"""Every piece of text a board picture draws, with where it goes, as plain data (the label model).

A :class:`TextItem` is placed in figure inches (from the bottom-left corner); :func:`box` gives its
rectangle from the size matplotlib's renderer really draws it at (:mod:`service.render.metrics`).
:func:`board_texts` lists the board's texts (Province labels, whose first line holds the level mark
and second the holder's seat number; battle boxes; march counts; the sea's and the Sanctum's names)
and :mod:`service.render.panel` the side panel's (title, legend rows, gauge, cards, story, key).
``draw.py`` draws exactly these items, so the tests can check that no two labels overlap from this
model alone (``tests/render/test_labels.py``), and check the model against the drawn picture.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from service.render.layout import EXTENT, rectangle
from service.render.metrics import text_size
from service.render.palette import DRAGON, INK, text_colour

MARGIN = 0.15  # inches around the board square
FIG_W, FIG_H = 12.0, 8.0  # inches: 1200 x 800 px at 100 dpi (bigger boards: more)
PANEL_W = FIG_W - 3 * MARGIN - 7.2  # the right-hand panel's width (inches), beside a 7.2-inch board
LABEL_LINESPACING = 1.05
BATTLE_PAD = 0.12  # the battle box's padding, in units of its font size
COUNT_PT = 6.5  # the unit count on a march of more than one unit
SEA_PT, SANCTUM_PT = 10.0, 8.0


@dataclass(frozen=True)
class TextItem:
    key: str  # unique; also the SVG id of the drawn text
    kind: str  # "province" | "battle" | "count" | "board" | "legend" | "panel"
    text: str
    x: float  # figure inches; the point ``ha``/``va`` align to (and the text turns about)
    y: float
    size: float  # points
    weight: str = "normal"
    style: str = "normal"
    colour: str = INK
    ha: str = "left"
    va: str = "top"
    rotation: float = 0.0
    linespacing: float = 1.2
    pad: float = 0.0  # a rounded box around the text, this many font sizes wide (0: no box)
    face: str | None = None  # the box's fill
    edge: str | None = None  # the box's edge


def figure_size(board_inches: float) -> tuple[float, float]:
    """Width and height (inches): margin, board square, margin, panel, margin."""
    return MARGIN * 3 + board_inches + PANEL_W, max(FIG_H, board_inches + MARGIN + 0.65)


def box(item: TextItem) -> np.ndarray:
    """The item's rectangle (4 x 2 corners, figure inches), its box padding included."""
    w, h = text_size(item.text, item.size, item.weight, item.style, item.linespacing)
    pad = 2 * item.pad * item.size / 72
    w, h = w + pad, h + pad
    dx = {"left": w / 2, "center": 0.0, "right": -w / 2}[item.ha]
    dy = {"top": -h / 2, "center": 0.0, "center_baseline": 0.0, "bottom": h / 2, "baseline": h / 2}[item.va]
    a = math.radians(item.rotation)  # matplotlib aligns the unrotated text, then turns it about (x, y)
    cx = item.x + dx * math.cos(a) - dy * math.sin(a)
    cy = item.y + dx * math.sin(a) + dy * math.cos(a)
    return rectangle((cx, cy), w, h, item.rotation)


def to_inches(scene, x: float, y: float) -> tuple[float, float]:
    """A board point (data units) in figure inches."""
    inches = scene.layout.inches
    return MARGIN + (x + EXTENT) / (2 * EXTENT) * inches, MARGIN + (y + EXTENT) / (2 * EXTENT) * inches


def board_texts(scene) -> list[TextItem]:
    """The board's texts: the sea's name, the Sanctum's, each Province's label (Province and level
    mark over the holder's seat number and units), each battle box, and each march's unit count."""
    lay, board = scene.layout, scene.board
    out: list[TextItem] = []
    if lay.sea:
        cx, cy, _ = lay.sea
        x, y = to_inches(scene, cx, cy - (0.34 if board.island else 0.0))
        out.append(TextItem("sea-name", "board", "Central Sea", x, y, SEA_PT, style="italic", colour="#4A6E8C",
                            ha="center", va="center"))
    if board.island and board.island in lay.shapes:
        sh = lay.shapes[board.island]
        x, y = to_inches(scene, sh.anchor[0], sh.anchor[1] + sh.radius + 0.05)
        out.append(TextItem("sanctum-name", "board", "Wizard Sanctum", x, y, SANCTUM_PT, style="italic",
                            colour="#7A5C1E", ha="center", va="bottom"))
    battles = {b.province: b for b in scene.battles}
    for name, pv in scene.provinces.items():
        out.extend(province_texts(scene, name, pv, battles.get(name)))
    for i, arr in enumerate(scene.arrows):
        if (arr.count > 1 or arr.sea) and len(arr.points) >= 2:
            out.append(_count_badge(scene, i, arr, out))
    return out


def province_texts(scene, name: str, pv, bm=None) -> list[TextItem]:
    """A Province's label (and its battle box under it, if a battle was fought there), placed as one
    block inside the Province: on the wedge's middle line (a disc's vertical), as near the layout's
    anchor as fits, the battle box's font shrinking until the block fits (rules: 003 How to resolve
    battles: the battle is shown where it happened)."""
    lay = scene.layout
    sh = lay.shapes[name]
    rot = lay.rotation.get(name, 0.0)
    text = pv.line1 + ("\n" + pv.line2 if pv.line2 else "")
    colour = text_colour(pv.fill)

    def items(cx: float, cy: float, bsize: float, lh: float, bh: float) -> list[TextItem]:
        a = math.radians(rot)
        up = (-math.sin(a), math.cos(a))
        lx, ly = to_inches(scene, cx + up[0] * (bh + BLOCK_GAP) / 2, cy + up[1] * (bh + BLOCK_GAP) / 2)
        out = [TextItem(f"label-{name}", "province", text, lx, ly, lay.label_pt, weight="bold", colour=colour,
                        ha="center", va="center", rotation=rot, linespacing=LABEL_LINESPACING)]
        if bm is not None:
            bx, by = to_inches(scene, cx - up[0] * (lh + BLOCK_GAP) / 2, cy - up[1] * (lh + BLOCK_GAP) / 2)
            out.append(TextItem(f"battle-{name}", "battle", bm.text, bx, by, bsize, weight="bold", colour="white",
                                ha="center", va="center", rotation=rot, pad=BATTLE_PAD, face=DRAGON, edge="white"))
        return out

    per_inch = 2 * EXTENT / lay.inches  # data units per inch
    lh = text_size(text, lay.label_pt, "bold", "normal", LABEL_LINESPACING)[1] * per_inch
    ax, ay = sh.anchor
    if bm is None:
        return items(ax, ay, 0.0, lh, 0.0)
    first = None
    for scale in FIT_SCALES:
        bsize = bm.fontsize * scale
        bh = (text_size(bm.text, bsize, "bold")[1] + 2 * BATTLE_PAD * bsize / 72) * per_inch
        for cx, cy in _candidates(sh, rot):
            block = items(cx, cy, bsize, lh, bh)
            first = first or block
            if all(_inside(sh, to_board(scene, box(it))) for it in block):
                return block
    return first or []


FIT_SCALES = (1.0, 0.9, 0.8, 0.7)
FIT_MARGIN = 0.004  # data units kept clear of the Province's edge
BLOCK_GAP = 0.006  # data units between a Province's label and its battle box


def _candidates(sh, rot: float) -> list[tuple[float, float]]:
    """Block centres to try, nearest the anchor first: along the wedge's middle line, or a disc's
    vertical through its centre."""
    ax, ay = sh.anchor
    if sh.kind == "wedge":
        mid = math.radians((sh.theta1 + sh.theta2) / 2)
        r0 = math.hypot(ax, ay)
        radii = sorted(np.linspace(sh.r_in, sh.r_out, 41), key=lambda r: abs(r - r0))
        return [(r * math.cos(mid), r * math.sin(mid)) for r in radii]
    offsets = sorted(np.linspace(-sh.radius, sh.radius, 41), key=abs)
    return [(ax, ay + d) for d in offsets]


def to_board(scene, pts: np.ndarray) -> np.ndarray:
    """Figure inches -> board data units (the inverse of :func:`to_inches`)."""
    return (np.asarray(pts) - MARGIN) / scene.layout.inches * 2 * EXTENT - EXTENT


def _inside(sh, pts: np.ndarray) -> bool:
    """Whether every point lies inside the wedge or disc ``sh`` (FIT_MARGIN inside its edges)."""
    pts = np.atleast_2d(pts)
    if sh.kind == "disc":
        return bool((np.hypot(pts[:, 0] - sh.anchor[0], pts[:, 1] - sh.anchor[1]) <= sh.radius - FIT_MARGIN).all())
    r = np.hypot(pts[:, 0], pts[:, 1])
    ang = np.degrees(np.arctan2(pts[:, 1], pts[:, 0]))
    span = sh.theta2 - sh.theta1
    off = (ang - sh.theta1) % 360
    # distance from each straight edge (the wedge's sides are radial lines)
    side = r * np.sin(np.clip(np.radians(np.minimum(off, span - off)), 0.0, math.pi / 2))
    return bool(((r >= sh.r_in + FIT_MARGIN) & (r <= sh.r_out - FIT_MARGIN) & (off <= span)
                 & (side >= FIT_MARGIN)).all())


def _count_badge(scene, i: int, arr, placed: list[TextItem]) -> TextItem:
    """The unit count of march ``i``, on its path: the point nearest the middle whose badge covers
    no label placed before it (the middle if none is free)."""
    pts = arr.points
    mid = len(pts) // 2
    order = sorted(range(1, len(pts) - 2), key=lambda k: (abs(k - mid), k))
    boxes = [box(it) for it in placed]
    first = None
    for k in order:
        x, y = to_inches(scene, *pts[k])
        item = TextItem(f"count-{i}", "count", f"{arr.count}", x, y, COUNT_PT, weight="bold", ha="center",
                        va="center", pad=BATTLE_PAD, face="white", edge=scene.colours.get(arr.seat, INK))
        first = first or item
        mine = box(item)
        if not any(_clash(mine, b) for b in boxes):
            return item
    return first


def _clash(a: np.ndarray, b: np.ndarray) -> bool:
    from service.render.layout import polygons_overlap

    lo_a, hi_a, lo_b, hi_b = a.min(axis=0), a.max(axis=0), b.min(axis=0), b.max(axis=0)
    return bool((lo_a < hi_b).all() and (lo_b < hi_a).all()) and polygons_overlap(a, b)


def overlaps(items: list[TextItem], kinds: tuple[str, ...] | None = None) -> list[tuple[str, str]]:
    """Pairs of items (of ``kinds``, default all) whose boxes share any area."""
    chosen = [it for it in items if kinds is None or it.kind in kinds]
    boxes = [box(it) for it in chosen]
    return [(chosen[i].key, chosen[j].key) for i in range(len(chosen)) for j in range(i + 1, len(chosen))
            if _clash(boxes[i], boxes[j])]
