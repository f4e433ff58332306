"""Draw a :class:`~service.render.scene.Scene` with matplotlib (Agg, no pyplot) and save it.

One ``Figure`` saves to both PNG and SVG. SVG text is kept as ``<text>`` (``svg.fonttype`` none)
and every Province's shape and label carry ids (``province-P3``, ``label-P3``), so the SVG can be
checked structurally and read by screen readers. Import this module only when drawing: it imports
matplotlib.
"""

from __future__ import annotations

import io
import threading

import matplotlib
from matplotlib import patheffects
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Circle, FancyArrowPatch, Rectangle, Wedge

from engine.errors import ValidationError
from service.render.glyphs import drawable_text
from service.render.labels import FIG_H, FIG_W, MARGIN, TextItem, board_texts
from service.render.labels import figure_size as labels_figure_size
from service.render.layout import EXTENT
from service.render.metrics import DPI
from service.render.palette import BURNT, DRAGON, INK, NEUTRAL, SEA, SEA_EDGE, SEAT_COLOURS
from service.render.panel import Stroke, build_panel
from service.render.scene import Scene

FORMATS = ("png", "svg")
GOLD = "#E8B400"  # the outline of a golden march
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
    # (no zlib "optimize": 6% bigger files, drawn in a fifth of the time)
    img.quantize(palette=palette_for([img]), dither=Image.Dither.NONE).save(buf, format="png")
    return buf.getvalue()


# Colours every picture must keep exactly (a quantised picture maps each pixel to its nearest palette
# entry): the seats', the board's and the panel's. The rest of the palette adapts to the picture.
FIXED_COLOURS = (*SEAT_COLOURS, NEUTRAL, BURNT, SEA, SEA_EDGE, INK, DRAGON, GOLD, "#FFFFFF", "#000000",
                 "#EEEEEE", "#444444", "#555555", "#666666", "#888888", "#4A6E8C", "#7A5C1E")


NEAR = 12  # per channel (0-255): an adaptive palette colour this close to a fixed one is dropped


def palette_for(images: list) -> object:
    """A 256-colour palette image: :data:`FIXED_COLOURS`, then the colours ``images`` need most
    (median cut over them, stacked)."""
    from PIL import Image

    small = [im.reduce(2) for im in images]  # a quarter of the pixels: the same colours, found 4x faster
    sample = Image.new("RGB", (max(im.width for im in small), sum(im.height for im in small)), "white")
    y = 0
    for im in small:
        sample.paste(im, (0, y))
        y += im.height
    free = PNG_COLOURS - len(FIXED_COLOURS)
    adaptive = sample.quantize(colors=free, method=Image.Quantize.MEDIANCUT).getpalette()[:3 * free]
    fixed = [int(c[i:i + 2], 16) for c in FIXED_COLOURS for i in (1, 3, 5)]
    # an adaptive colour next to a fixed one would take that colour's pixels (Pillow's nearest-colour
    # search is approximate): such near twins are left out
    fixed_rgb = [fixed[i:i + 3] for i in range(0, len(fixed), 3)]
    kept = [adaptive[i:i + 3] for i in range(0, len(adaptive), 3)
            if min(max(abs(a - b) for a, b in zip(adaptive[i:i + 3], f, strict=True)) for f in fixed_rgb) > NEAR]
    flat = fixed + [v for rgb in kept for v in rgb]
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat + flat[:3] * (PNG_COLOURS - len(flat) // 3))
    return pal


def _inch_axes(fig: Figure, x: float, y: float, w: float, h: float):
    """An axes placed in inches from the figure's bottom-left corner, with no frame."""
    W, H = fig.get_size_inches()
    ax = fig.add_axes((x / W, y / H, w / W, h / H))
    ax.set_axis_off()
    return ax


def figure_size(scene: Scene) -> tuple[float, float]:
    """Width and height (inches): the board square, then the panel; bigger boards get more room."""
    return labels_figure_size(scene.layout.inches)


def draw_board(scene: Scene) -> tuple[Figure, dict[str, object]]:
    """The board picture; returns the figure and every text artist keyed by its label-model key
    (``label-P3``, ``battle-P3``, ``legend-2-1``, ``title``...; see :mod:`service.render.labels`)."""
    width, height = figure_size(scene)
    fig = new_figure(width, height)
    inches = scene.layout.inches
    ax = _inch_axes(fig, MARGIN, MARGIN, inches, inches)
    ax.set_xlim(-EXTENT, EXTENT)
    ax.set_ylim(-EXTENT, EXTENT)
    ax.set_aspect("equal")
    _draw_provinces(ax, scene)
    _draw_marches(ax, scene)
    top = _inch_axes(fig, 0, 0, width, height)  # texts and panel shapes, in figure inches, over the board
    top.set_xlim(0, width)
    top.set_ylim(0, height)
    top.set_zorder(2)
    panel = build_panel(scene)
    for r in panel.rects:
        top.add_patch(Rectangle((r.x, r.y), r.w, r.h, facecolor=r.face, edgecolor=r.edge, lw=r.lw, gid=r.key))
    for st in panel.strokes:
        _draw_stroke(top, st)
    artists = {}
    for item in board_texts(scene) + panel.texts:
        artists[item.key] = draw_text(top, item)
    return fig, artists


def draw_text(ax, item: TextItem):
    """One :class:`TextItem` on an axes whose data units are figure inches."""
    bbox = None
    if item.pad:
        bbox = {"boxstyle": f"round,pad={item.pad}", "fc": item.face, "ec": item.edge, "lw": 0.8}
    return ax.text(item.x, item.y, drawable_text(item.text), ha=item.ha, va=item.va, fontsize=item.size,
                   weight=item.weight, style=item.style, color=item.colour, rotation=item.rotation,
                   rotation_mode="anchor", linespacing=item.linespacing,
                   multialignment="center" if item.ha == "center" else "left", bbox=bbox, gid=item.key,
                   zorder=4 if item.pad else 3, parse_math=False)  # a name's "$...$" is text, not mathtext


def _draw_stroke(ax, st: Stroke) -> None:
    if st.march is None:
        ax.plot(st.xs, st.ys, color=st.colour, lw=st.lw, gid=st.key)
        return
    golden, delayed, sea = st.march
    style = march_style(golden, delayed, sea)
    line, = ax.plot(st.xs, st.ys, color=st.colour, lw=st.lw, linestyle=style["linestyle"], gid=st.key,
                    solid_capstyle="butt", dash_capstyle="butt")
    line.set_path_effects([patheffects.withStroke(linewidth=st.lw + (3.4 if golden else 2.2),
                                                  foreground=style["outline"])])


def _draw_provinces(ax, scene: Scene) -> None:
    lay = scene.layout
    if lay.sea:
        cx, cy, r = lay.sea
        ax.add_patch(Circle((cx, cy), r, facecolor=SEA, edgecolor=SEA_EDGE, lw=1.5, gid="sea"))
    else:
        ax.add_patch(Rectangle((-EXTENT, -EXTENT), 2 * EXTENT, 2 * EXTENT, facecolor=SEA, edgecolor="none",
                               gid="sea"))
        for a, b in lay.borders:  # land borders of a custom board
            (x1, y1), (x2, y2) = lay.shapes[a].anchor, lay.shapes[b].anchor
            ax.plot([x1, x2], [y1, y2], color="#8A7F62", lw=3.0, solid_capstyle="round", zorder=1)
    fought = {b.province for b in scene.battles}
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


def march_style(golden: bool, delayed: bool, sea: bool) -> dict[str, object]:
    """How a march looks, told apart without reading labels: sea moves dotted, delayed marches
    dashed (dash-dot by sea), golden marches outlined in gold instead of black."""
    if sea:
        style = (0, (1.2, 1.6)) if not delayed else (0, (4, 1.5, 1, 1.5))
    else:
        style = "-" if not delayed else (0, (3.5, 2))
    return {"linestyle": style, "outline": GOLD if golden else "black"}


def _draw_marches(ax, scene: Scene) -> None:
    seen: dict[str, int] = {}
    for arr in scene.arrows:
        pts = arr.points
        if len(pts) < 2:
            continue
        colour = scene.colours.get(arr.seat, INK)
        width = 1.6 + 0.7 * min(arr.count, 4)
        st = march_style(arr.golden, arr.delayed, arr.sea)
        gid = f"march-{arr.src}-{arr.dst}"
        seen[gid] = seen.get(gid, 0) + 1
        gid += f"-{seen[gid]}" if seen[gid] > 1 else ""  # SVG ids stay unique
        outline = [patheffects.withStroke(linewidth=width + (3.4 if arr.golden else 2.2), foreground=st["outline"])]
        line, = ax.plot(pts[:-1, 0], pts[:-1, 1], color=colour, lw=width, linestyle=st["linestyle"], zorder=6,
                        solid_capstyle="butt", dash_capstyle="butt", gid=gid)
        line.set_path_effects(outline)
        head = FancyArrowPatch(tuple(pts[-3]), tuple(pts[-1]), arrowstyle="-|>",
                               mutation_scale=9 + 1.5 * min(arr.count, 4), lw=0.8, color=colour, zorder=7,
                               shrinkA=0, shrinkB=0, gid=f"{gid}-head")
        head.set_path_effects([patheffects.withStroke(linewidth=2.0, foreground=st["outline"])])
        ax.add_patch(head)


def draw_focus(picture) -> tuple[Figure, dict[str, object]]:
    """A focused picture (:mod:`service.render.focus`): its tiles and swatches, then its texts."""
    fig = new_figure(picture.width, picture.height)
    ax = _inch_axes(fig, 0, 0, picture.width, picture.height)
    ax.set_xlim(0, picture.width)
    ax.set_ylim(0, picture.height)
    for r in picture.rects:
        ax.add_patch(Rectangle((r.x, r.y), r.w, r.h, facecolor=r.face, edgecolor=r.edge, lw=r.lw, gid=r.key,
                               hatch="///" if r.face == BURNT and r.key.startswith("tile-") else None))
    return fig, {item.key: draw_text(ax, item) for item in picture.texts}
