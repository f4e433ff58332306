"""Draw a :class:`~service.render.scene.Scene` with matplotlib (Agg, no pyplot) and save it.

One ``Figure`` saves to both PNG and SVG. SVG text is kept as ``<text>`` (``svg.fonttype`` none)
and every Province's shape and label carry ids (``province-P3``, ``label-P3``), so the SVG can be
checked structurally and read by screen readers. Import this module only when drawing: it imports
matplotlib.
"""

from __future__ import annotations

import io
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
FIG_W, FIG_H = 12.0, 8.0  # inches: 1200 x 800 px, a comfortable Discord image (bigger boards: more)
MARGIN = 0.15  # inches around the board square
PANEL_W = FIG_W - 3 * MARGIN - BOARD_INCHES  # the right-hand panel's width (inches)
GOLD = "#E8B400"  # the outline of a golden march
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


def figure_size(scene: Scene) -> tuple[float, float]:
    """Width and height (inches): the board square, then the panel; bigger boards get more room."""
    inches = scene.layout.inches
    return MARGIN * 3 + inches + PANEL_W, max(FIG_H, inches + MARGIN + 0.65)


def draw_board(scene: Scene) -> tuple[Figure, dict[str, object]]:
    """The board picture; returns the figure and the label artists (Province labels and battle
    lines, keyed ``P3`` and ``battle-P3``), for geometry checks."""
    width, height = figure_size(scene)
    fig = new_figure(width, height)
    fig.text(MARGIN / width, 1 - 0.12 / height, scene.title, ha="left", va="top", fontsize=15,
             weight="bold", color=INK, gid="title")
    fig.text(MARGIN / width, 1 - 0.42 / height, scene.subtitle, ha="left", va="top", fontsize=10, color="#444444",
             gid="subtitle")
    inches = scene.layout.inches
    ax = _inch_axes(fig, MARGIN, MARGIN, inches, inches)
    ax.set_xlim(-EXTENT, EXTENT)
    ax.set_ylim(-EXTENT, EXTENT)
    ax.set_aspect("equal")
    labels = _draw_provinces(ax, scene)
    _draw_marches(ax, scene)
    labels.update(_draw_battles(ax, scene))
    _draw_panel(fig, scene, MARGIN * 2 + inches)
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
    fought = {b.province for b in scene.battles}
    labels = {}
    for name, pv in scene.provinces.items():
        sh = lay.shapes[name]
        hatch = "///" if pv.burnt else None
        edge, lw = ("#444444", 1.2) if name not in fought else (DRAGON, 2.6)
        if sh.kind == "wedge":
            patch = Wedge((0, 0), sh.r_out, sh.theta1, sh.theta2, width=sh.r_out - sh.r_in, facecolor=pv.fill,
                          edgecolor=edge, lw=lw, hatch=hatch, zorder=2 if name not in fought else 3)
        else:
            is_island = name == scene.board.island
            patch = Circle(sh.anchor, sh.radius, facecolor=pv.fill if pv.owner or pv.burnt else NEUTRAL,
                           edgecolor=edge if name in fought else ("#7A5C1E" if is_island else edge),
                           lw=max(lw, 2.0) if is_island else lw, hatch=hatch, zorder=2)
        patch.set_gid(f"province-{name}")
        ax.add_patch(patch)
        ink = text_colour(pv.fill)
        text = pv.line1 + ("\n" + pv.line2 if pv.line2 else "")
        x, y = lay.line_at(name, -0.5) if name in fought else sh.anchor
        t = ax.text(x, y, text, ha="center", va="center", multialignment="center",
                    fontsize=lay.label_pt, weight="bold", color=ink, zorder=5, linespacing=1.05,
                    rotation=lay.rotation.get(name, 0.0), rotation_mode="anchor", gid=f"label-{name}")
        labels[name] = t
        if scene.board.island == name:
            ax.text(sh.anchor[0], sh.anchor[1] + sh.radius + 0.05, "Wizard Sanctum", ha="center", va="bottom",
                    fontsize=8, style="italic", color="#7A5C1E", zorder=5)
    return labels


def march_style(golden: bool, delayed: bool, sea: bool) -> dict[str, object]:
    """How a march looks, told apart without reading labels: sea moves dotted, delayed marches
    dashed (dash-dot by sea), golden marches outlined in gold instead of black."""
    if sea:
        style = (0, (1.2, 1.6)) if not delayed else (0, (4, 1.5, 1, 1.5))
    else:
        style = "-" if not delayed else (0, (3.5, 2))
    return {"linestyle": style, "outline": GOLD if golden else "black"}


def _draw_marches(ax, scene: Scene) -> None:
    for arr in scene.arrows:
        pts = arr.points
        if len(pts) < 2:
            continue
        colour = scene.colours.get(arr.seat, INK)
        width = 1.6 + 0.7 * min(arr.count, 4)
        st = march_style(arr.golden, arr.delayed, arr.sea)
        gid = f"march-{arr.src}-{arr.dst}"
        outline = [patheffects.withStroke(linewidth=width + (3.4 if arr.golden else 2.2), foreground=st["outline"])]
        line, = ax.plot(pts[:-1, 0], pts[:-1, 1], color=colour, lw=width, linestyle=st["linestyle"], zorder=6,
                        solid_capstyle="butt", dash_capstyle="butt", gid=gid)
        line.set_path_effects(outline)
        head = FancyArrowPatch(tuple(pts[-3]), tuple(pts[-1]), arrowstyle="-|>",
                               mutation_scale=9 + 1.5 * min(arr.count, 4), lw=0.8, color=colour, zorder=7,
                               shrinkA=0, shrinkB=0, gid=f"{gid}-head")
        head.set_path_effects([patheffects.withStroke(linewidth=2.0, foreground=st["outline"])])
        ax.add_patch(head)
        if arr.count > 1 or arr.sea:
            mx, my = pts[len(pts) // 2]
            ax.text(mx, my, f"{arr.count}", ha="center", va="center", fontsize=6.5, weight="bold", color=INK,
                    zorder=8, bbox={"boxstyle": "round,pad=0.12", "fc": "white", "ec": colour, "lw": 1.0})


def _draw_battles(ax, scene: Scene) -> dict[str, object]:
    out = {}
    for bm in scene.battles:
        t = ax.text(bm.at[0], bm.at[1], bm.text, ha="center", va="center", fontsize=bm.fontsize, weight="bold",
                    color="white", zorder=8, rotation=bm.rotation, rotation_mode="anchor", gid=f"battle-{bm.province}",
                    bbox={"boxstyle": "round,pad=0.12", "fc": DRAGON, "ec": "white", "lw": 0.6})
        out[f"battle-{bm.province}"] = t
    return out


def _draw_panel(fig: Figure, scene: Scene, x0: float) -> None:
    width = PANEL_W
    _, fig_h = fig.get_size_inches()
    top = fig_h - 2 * MARGIN
    ax = _inch_axes(fig, x0, MARGIN, width, top)
    ax.set_xlim(0, width)
    ax.set_ylim(0, top)
    y = top - 0.05
    rows = scene.seats
    size = 9.0 if len(rows) <= 10 else 8.0
    step = size / 72 * 1.55
    cols = [("", 0.0), ("#", 0.3), ("Player", 0.6), ("Prov", 2.05), ("Units", 2.5), ("VP", 3.0), ("Br", 3.35)]
    if any(r.realm is not None for r in rows):
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
        if len(cols) > 7:
            cells.append(f"${r.realm}" if r.realm is not None else "")
        for (_, cx), cell in zip(cols[1:], cells, strict=True):
            ax.text(cx, y, cell, fontsize=size, va="top", color=grey)
        y -= step
    key_height = _draw_key(ax, width)
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
    if scene.note:
        y -= 0.06
        ax.text(0, y, scene.note, fontsize=9, va="top", color="#444444", style="italic", gid="note")
        y -= 0.2
    if scene.highlight_turn is not None and (scene.story or scene.arrows):
        y -= 0.1
        ax.text(0, y, f"Turn {scene.highlight_turn}: what happened", fontsize=9.5, weight="bold", va="top", color=INK)
        y -= 0.22
        room = int(max(0.0, y - key_height - 0.05) / 0.17)
        lines = scene.story[:room]
        if len(scene.story) > room and room:
            lines[-1] = f"... and {len(scene.story) - room + 1} more (see the text report)"
        for line in lines:
            ax.text(0, y, line, fontsize=8.5, va="top", color=INK)
            y -= 0.17


KEY = ("P3 Lv2 = Province 3, level 2;  #4 \u26942 = seat #4's Army Units there (2)",
       "grey, hatched = burnt-out;  red edge + \u2605#4 2:1 #3 = battle: #4 beat #3, 2 US to 1",
       "marches: short arc = to a neighbour, dotted across the sea = by sea",
       "(Seafarers!, Ferry!, the Island); dashed = Delayed; gold edge = golden")


def _draw_key(ax, width: float) -> float:
    """The key at the bottom of the panel; returns its height (inches)."""
    for i, line in enumerate(reversed(KEY)):
        ax.text(0, 0.02 + i * 0.16, line, fontsize=7, va="bottom", color="#555555")
    return 0.02 + len(KEY) * 0.16


def _draw_gauge(fig: Figure, scene: Scene, x0: float, top: float, width: float) -> float:
    """rules: 003 Dragon's Power Level and the Power Threshold — DPL against the threshold.
    Returns the gauge's height in inches."""
    lines = [(f"Scale of Terror: {scene.tier}", 9.5)] + ([(scene.attack, 8.5)] if scene.attack else []) \
        + ([(scene.coming, 8.5)] if scene.coming else [])
    height = 0.75 + 0.2 * len(lines)
    ax = _inch_axes(fig, x0, MARGIN + top - height, width, height)
    scale = max(scene.threshold * 1.25, scene.dpl * 1.1, 1)
    ax.set_xlim(0, scale * 1.01)
    ax.set_ylim(height, 0)  # inches from the top
    ax.text(0, 0.02, f"Dragon: DPL {scene.dpl} / Power Threshold {scene.threshold}", fontsize=11, weight="bold",
            va="top", color=INK)
    y = 0.27
    for i, (text, size) in enumerate(lines):
        gid = "tier" if i == 0 else ("attack" if text == scene.attack else "coming")
        ax.text(0, y, text, fontsize=size, va="top", color=DRAGON, weight="bold", gid=gid)
        y += 0.2
    bar = height - 0.32
    ax.add_patch(Rectangle((0, bar), scale, 0.28, facecolor="#EEEEEE", edgecolor="#666666", lw=0.8))
    ax.add_patch(Rectangle((0, bar), min(scene.dpl, scale), 0.28, facecolor=DRAGON, edgecolor="none",
                           gid="dpl-bar"))
    ax.plot([scene.threshold, scene.threshold], [bar - 0.05, bar + 0.32], color="black", lw=2.2)
    ax.text(scene.threshold, bar - 0.06, "threshold", fontsize=7.5, ha="center", va="bottom", color=INK)
    return height
