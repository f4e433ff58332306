"""Draw a :class:`~service.render.scene.Scene` with matplotlib (Agg, no pyplot) and save it.

One ``Figure`` saves to both PNG and SVG. SVG text is kept as ``<text>`` (``svg.fonttype`` none)
and every Province's shape and label carry ids (``province-P3``, ``label-P3``), so the SVG can be
checked structurally and read by screen readers. Import this module only when drawing: it imports
matplotlib.
"""

from __future__ import annotations

import io
import math
import textwrap
import threading

import matplotlib
from matplotlib import patheffects
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Circle, FancyArrowPatch, Rectangle, Wedge

from engine.errors import ValidationError
from service.render.layout import BOARD_INCHES, EXTENT
from service.render.palette import DRAGON, INK, NEUTRAL, SEA, SEA_EDGE, text_colour
from service.render.scene import Scene

FORMATS = ("png", "svg")
DPI = 100
FIG_W, FIG_H = 12.0, 8.0  # inches: 1200 x 800 px, a comfortable Discord image
MARGIN = 0.15  # inches around the board square
PANEL_X = MARGIN * 2 + BOARD_INCHES  # where the right-hand panel starts (inches)
NAME_CHARS = 14  # legend names are cut to this many characters
STORY_LINES = 14
PNG_COLOURS = 256  # PNGs are quantised to a palette: a few tens of KB instead of hundreds
_SAVE_LOCK = threading.Lock()  # rc_context touches matplotlib's global rcParams while saving


def check_format(fmt: str) -> str:
    if fmt not in FORMATS:
        raise ValidationError("format", f"must be 'png' or 'svg', not {fmt!r}")
    return fmt


def new_figure(width: float = FIG_W, height: float = FIG_H) -> Figure:
    fig = Figure(figsize=(width, height), dpi=DPI, facecolor="white")
    FigureCanvasAgg(fig)
    return fig


def figure_bytes(fig: Figure, fmt: str) -> bytes:
    """PNG (palette-quantised) or SVG bytes of ``fig``; no timestamps, so output is reproducible."""
    check_format(fmt)
    buf = io.BytesIO()
    with _SAVE_LOCK, matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "regent"}):
        if fmt == "svg":
            fig.savefig(buf, format="svg", metadata={"Date": None})
            return buf.getvalue()
        fig.canvas.draw()
        rgba = fig.canvas.buffer_rgba()
    from PIL import Image  # a matplotlib dependency

    img = Image.frombuffer("RGBA", fig.canvas.get_width_height(), rgba, "raw", "RGBA", 0, 1).convert("RGB")
    img.quantize(colors=PNG_COLOURS, method=Image.Quantize.MEDIANCUT).save(buf, format="png", optimize=True)
    return buf.getvalue()


def _inch_axes(fig: Figure, x: float, y: float, w: float, h: float):
    """An axes placed in inches from the figure's bottom-left corner, with no frame."""
    W, H = fig.get_size_inches()
    ax = fig.add_axes((x / W, y / H, w / W, h / H))
    ax.set_axis_off()
    return ax


def draw_board(scene: Scene) -> tuple[Figure, dict[str, object]]:
    """The board picture; returns the figure and the Province label artists (for geometry checks)."""
    fig = new_figure()
    fig.text(MARGIN / FIG_W, 1 - 0.12 / FIG_H, scene.title, ha="left", va="top", fontsize=15,
             weight="bold", color=INK, gid="title")
    fig.text(MARGIN / FIG_W, 1 - 0.42 / FIG_H, scene.subtitle, ha="left", va="top", fontsize=10, color="#444444")
    ax = _inch_axes(fig, MARGIN, MARGIN, BOARD_INCHES, BOARD_INCHES)
    ax.set_xlim(-EXTENT, EXTENT)
    ax.set_ylim(-EXTENT, EXTENT)
    ax.set_aspect("equal")
    labels = _draw_provinces(ax, scene)
    _draw_highlights(ax, scene)
    _draw_panel(fig, scene)
    return fig, labels


def _draw_provinces(ax, scene: Scene) -> dict[str, object]:
    lay = scene.layout
    if lay.sea:
        cx, cy, r = lay.sea
        ax.add_patch(Circle((cx, cy), r, facecolor=SEA, edgecolor=SEA_EDGE, lw=1.5, gid="sea"))
        ax.text(cx, cy - (0.34 if scene.board.island else 0.0), "Central Sea", ha="center", va="center",
                fontsize=10, style="italic", color="#4A6E8C")
    else:
        ax.add_patch(Rectangle((-EXTENT, -EXTENT), 2 * EXTENT, 2 * EXTENT, facecolor=SEA, edgecolor="none",
                               gid="sea"))
        for a, b in lay.borders:  # land borders of a custom board
            (x1, y1), (x2, y2) = lay.shapes[a].anchor, lay.shapes[b].anchor
            ax.plot([x1, x2], [y1, y2], color="#8A7F62", lw=3.0, solid_capstyle="round", zorder=1)
    labels = {}
    for name, pv in scene.provinces.items():
        sh = lay.shapes[name]
        hatch = "///" if pv.burnt else None
        edge = "#444444"
        if sh.kind == "wedge":
            patch = Wedge((0, 0), sh.r_out, sh.theta1, sh.theta2, width=sh.r_out - sh.r_in, facecolor=pv.fill,
                          edgecolor=edge, lw=1.2, hatch=hatch, zorder=2)
        else:
            is_island = name == scene.board.island
            patch = Circle(sh.anchor, sh.radius, facecolor=pv.fill if pv.owner or pv.burnt else NEUTRAL,
                           edgecolor="#7A5C1E" if is_island else edge, lw=2.0 if is_island else 1.2,
                           hatch=hatch, zorder=2)
        patch.set_gid(f"province-{name}")
        ax.add_patch(patch)
        ink = text_colour(pv.fill)
        text = pv.line1 + ("\n" + pv.line2 if pv.line2 else "")
        t = ax.text(sh.anchor[0], sh.anchor[1], text, ha="center", va="center", multialignment="center",
                    fontsize=lay.label_pt, weight="bold", color=ink, zorder=5, linespacing=1.05,
                    rotation=lay.rotation.get(name, 0.0), rotation_mode="anchor", gid=f"label-{name}")
        labels[name] = t
        if scene.board.island == name:
            ax.text(sh.anchor[0], sh.anchor[1] + sh.radius + 0.05, "Wizard Sanctum", ha="center", va="bottom",
                    fontsize=8, style="italic", color="#7A5C1E", zorder=5)
    return labels


def _arc_rad(scene: Scene, a: tuple[float, float], b: tuple[float, float], rad: float) -> float:
    """Bend arrows on a ring board toward the sea (the control point nearer the centre); on other
    boards bend them only a little, so they stay near the border they cross."""
    if scene.layout.kind != "ring":
        return rad * 0.6
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    dx, dy = b[0] - a[0], b[1] - a[1]
    plus = (mx + rad * dy) ** 2 + (my - rad * dx) ** 2
    minus = (mx - rad * dy) ** 2 + (my + rad * dx) ** 2
    return rad if plus <= minus else -rad


def _draw_highlights(ax, scene: Scene) -> None:
    shapes = scene.layout.shapes
    seen: dict[frozenset[str], int] = {}
    for arr in scene.arrows:
        pair = frozenset((arr.src, arr.dst))
        k = seen.get(pair, 0)  # a second march between the same two Provinces bends further
        seen[pair] = k + 1
        a, b = shapes[arr.src].tip, shapes[arr.dst].tip
        if shapes[arr.src].kind == "disc" and scene.layout.kind == "spring":
            a, b = _shorten(a, b, shapes[arr.src].radius * 0.55, shapes[arr.dst].radius * 0.8)
        rad = _arc_rad(scene, a, b, 0.3 + 0.3 * k)
        colour = scene.colours.get(arr.seat, INK)
        width = 1.6 + 0.9 * min(arr.count, 4)
        patch = FancyArrowPatch(a, b, connectionstyle=f"arc3,rad={rad}", arrowstyle="-|>", mutation_scale=16,
                                lw=width, color=colour, zorder=6, gid=f"march-{arr.src}-{arr.dst}")
        patch.set_path_effects([patheffects.withStroke(linewidth=width + 2.2, foreground="black")])
        ax.add_patch(patch)
        mx = (a[0] + b[0]) / 2 + 0.5 * rad * (b[1] - a[1])
        my = (a[1] + b[1]) / 2 - 0.5 * rad * (b[0] - a[0])
        ax.text(mx, my, f"{arr.count}" + ("*" if arr.golden else ""), ha="center", va="center", fontsize=8,
                weight="bold", color=INK, zorder=7,
                bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": colour, "lw": 1.2})
    for bm in scene.battles:
        sh = shapes[bm.province]
        x, y = sh.badge
        ax.plot([x], [y], marker="*", markersize=17, color=DRAGON, markeredgecolor="black", zorder=8,
                gid=f"battle-{bm.province}")
        tx, ty, ha, va = x, y - 0.07, "center", "top"
        if scene.layout.kind == "ring":  # outward from the ring, clear of the wedges
            r = math.hypot(x, y) or 1.0
            ux, uy = x / r, y / r
            if abs(ux) < 0.6:  # above or below the ring: further out
                tx, ty, va = x + 0.07 * ux, y + 0.07 * uy, "bottom" if uy > 0 else "top"
            # at the sides the text goes under the star, so it stays on the picture
        ax.text(tx, ty, bm.text, ha=ha, va=va, fontsize=8.5, weight="bold", color=DRAGON, zorder=8)


def _shorten(a, b, da: float, db: float):
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy) or 1.0
    return (a[0] + dx / d * da, a[1] + dy / d * da), (b[0] - dx / d * db, b[1] - dy / d * db)


def _draw_panel(fig: Figure, scene: Scene) -> None:
    x0, width = PANEL_X, FIG_W - PANEL_X - MARGIN
    ax = _inch_axes(fig, x0, MARGIN, width, FIG_H - 2 * MARGIN)
    ax.set_xlim(0, width)
    ax.set_ylim(0, FIG_H - 2 * MARGIN)
    y = FIG_H - 2 * MARGIN - 0.05
    rows = scene.seats
    size = 9.0 if len(rows) <= 10 else 8.0
    step = size / 72 * 1.55
    cols = [("", 0.0), ("#", 0.3), ("Player", 0.6), ("Prov", 2.05), ("Units", 2.5), ("VP", 3.0), ("Br", 3.35)]
    if scene.gm:
        cols.append(("$Realm", 3.7))
    ax.text(0, y, "Protector Ranking", fontsize=11, weight="bold", va="top", color=INK)
    y -= 0.3
    for head, cx in cols:
        ax.text(cx, y, head, fontsize=size, weight="bold", va="top", color="#444444")
    y -= step
    for r in rows:
        grey = "#888888" if r.eliminated else INK
        ax.add_patch(Rectangle((0.02, y - step * 0.78), 0.22, step * 0.7, facecolor=r.colour, edgecolor="black",
                               lw=0.6, gid=f"swatch-{r.number}"))
        place = f"{r.rank}." if r.rank else "out"
        name = r.name if len(r.name) <= NAME_CHARS else r.name[:NAME_CHARS - 1] + "\u2026"
        cells = [f"{r.number}", f"{place} {name}", f"{r.provinces}", f"{r.units}", f"{r.vp}",
                 f"{r.bracket}" if r.bracket else "-"]
        if scene.gm:
            cells.append(f"${r.realm}" if r.realm is not None else "")
        for (_, cx), cell in zip(cols[1:], cells, strict=True):
            ax.text(cx, y, cell, fontsize=size, va="top", color=grey)
        y -= step
    _draw_key(ax)
    y -= 0.15
    y -= _draw_gauge(fig, scene, x0, y, width) + 0.12
    ax.text(0, y, "Cards in play", fontsize=11, weight="bold", va="top", color=INK)
    y -= 0.24
    cards = ", ".join(scene.cards) or "none"
    if scene.locked_cards:
        cards += "; kept: " + ", ".join(scene.locked_cards)
    for line in textwrap.wrap(cards, 58)[:3]:
        ax.text(0, y, line, fontsize=9, va="top", color=INK)
        y -= 0.18
    if scene.highlight_turn is not None and (scene.story or scene.arrows):
        y -= 0.1
        ax.text(0, y, f"Turn {scene.highlight_turn}: arrows = marches (width = units, * golden)", fontsize=9,
                weight="bold", va="top", color=INK)
        y -= 0.22
        lines = scene.story[:STORY_LINES]
        if len(scene.story) > STORY_LINES:
            lines[-1] = f"... and {len(scene.story) - STORY_LINES + 1} more (see the text report)"
        for line in lines:
            if y < 0.55:  # keep clear of the key
                break
            ax.text(0, y, line, fontsize=8.5, va="top", color=INK)
            y -= 0.17


KEY = ("Key: P3 II = Province 3, level II;  #4 \u26942 = seat #4's Army Units there (2);",
       "grey, hatched = burnt-out;  \u2605 = battle (its winner);  arrow label * = golden March!")


def _draw_key(ax) -> None:
    for i, line in enumerate(reversed(KEY)):
        ax.text(0, 0.02 + i * 0.17, line, fontsize=7.5, va="bottom", color="#555555")


def _draw_gauge(fig: Figure, scene: Scene, x0: float, top: float, width: float) -> float:
    """rules: 003 Dragon's Power Level and the Power Threshold — DPL against the threshold.
    Returns the gauge's height in inches."""
    lines = [(f"Scale of Terror: {scene.tier}", 9.5)] + ([(scene.attack, 8.5)] if scene.attack else [])
    height = 0.75 + 0.2 * len(lines)
    ax = _inch_axes(fig, x0, MARGIN + top - height, width, height)
    scale = max(scene.threshold * 1.25, scene.dpl * 1.1, 1)
    ax.set_xlim(0, scale * 1.01)
    ax.set_ylim(height, 0)  # inches from the top
    ax.text(0, 0.02, f"Dragon: DPL {scene.dpl} / Power Threshold {scene.threshold}", fontsize=11, weight="bold",
            va="top", color=INK)
    y = 0.27
    for i, (text, size) in enumerate(lines):
        ax.text(0, y, text, fontsize=size, va="top", color=DRAGON, weight="bold", gid="tier" if i == 0 else "attack")
        y += 0.2
    bar = height - 0.32
    ax.add_patch(Rectangle((0, bar), scale, 0.28, facecolor="#EEEEEE", edgecolor="#666666", lw=0.8))
    ax.add_patch(Rectangle((0, bar), min(scene.dpl, scale), 0.28, facecolor=DRAGON, edgecolor="none",
                           gid="dpl-bar"))
    ax.plot([scene.threshold, scene.threshold], [bar - 0.05, bar + 0.32], color="black", lw=2.2)
    ax.text(scene.threshold, bar - 0.06, "threshold", fontsize=7.5, ha="center", va="bottom", color=INK)
    return height
