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
    fought = {b.province for b in scene.battles}
    for name, pv in scene.provinces.items():
        px, py = lay.line_at(name, -0.5) if name in fought else lay.shapes[name].anchor
        x, y = to_inches(scene, px, py)
        text = pv.line1 + ("\n" + pv.line2 if pv.line2 else "")
        out.append(TextItem(f"label-{name}", "province", text, x, y, lay.label_pt, weight="bold",
                            colour=text_colour(pv.fill), ha="center", va="center",
                            rotation=lay.rotation.get(name, 0.0), linespacing=LABEL_LINESPACING))
    for bm in scene.battles:
        x, y = to_inches(scene, *bm.at)
        out.append(TextItem(f"battle-{bm.province}", "battle", bm.text, x, y, bm.fontsize, weight="bold",
                            colour="white", ha="center", va="center", rotation=bm.rotation, pad=BATTLE_PAD,
                            face=DRAGON, edge="white"))
    for i, arr in enumerate(scene.arrows):
        if (arr.count > 1 or arr.sea) and len(arr.points) >= 2:
            out.append(_count_badge(scene, i, arr, out))
    return out


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
