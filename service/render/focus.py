"""A focused board picture for a phone: one seat's Provinces and their neighbours up to ``radius`` borders
away, as a column of large tiles, with a legend of only the seats shown (plain data: the label model).

A 16-seat board fits a phone's width only with labels too small to read there. The focused picture draws
the chosen Provinces, not the whole board: each as a full-width tile (``P12 Lv3``, the holder's seat number and
units as on the board, whose it is by display name and colour, a battle fought there), in board order; tiles
that touch share a land border. Provinces next to each other on the ring but with something left out between
them are split by a gap saying what is left out (``P5 to P9 not shown``); the Island (reached only by sea) stands
apart; on a custom board each tile also lists its borders. The focused seat's tiles have a thick outline.

Legibility is a measured rule, not a look: every text is at least :data:`MIN_PHONE_FONT_PX` pixels high (its
font size) once the picture is scaled to :data:`PHONE_PX` pixels wide (``tests/render/test_focus.py``).

Secrecy: it is built from the channel's scene (``service/render/channel.py``): only what every player may see,
whoever asks. An eliminated seat holds nothing to focus on: asking for one is refused, saying so.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import ValidationError
from service.render.labels import TextItem
from service.render.metrics import DPI, text_size
from service.render.palette import DRAGON, text_colour
from service.render.panel import Rect, cut, wrap
from service.render.scene import Scene

# A phone ~400 CSS px wide shows a picture across ~1080 device pixels (a device pixel ratio of ~2.7). The
# smallest text iOS offers (Caption 2) is 11 pt, i.e. 11 CSS px: ~30 device px. So every text of the focused
# picture is drawn at least 30 px high (its font size) when the picture is scaled to 1080 px wide.
PHONE_PX = 1080
MIN_PHONE_FONT_PX = 30
WIDTH = 10.8  # inches: 1080 px at DPI 100, the phone's own width (no rescaling to blur the text)
SMALL_PT = 22.0  # the smallest text: 22 pt = 30.6 px at 1080 px wide (WIDTH inches at DPI)
LABEL_PT = 28.0  # a tile's Province label and holder
TITLE_PT = 30.0
MARGIN = 0.2
PAD = 0.16  # inside a tile
GAP = 0.6  # between two runs of tiles
OUTLINE_LW = 6.0  # the focused seat's tiles
DEFAULT_RADIUS = 1
MAX_RADIUS = 4  # borders away; a ring-16-grand's whole half is 16
MUTED = "#444444"
FOCUS_EDGE = "#000000"


@dataclass
class FocusPicture:
    """What a focused picture draws: tile rectangles and texts (figure inches from the bottom-left)."""

    width: float
    height: float
    rects: list[Rect]
    texts: list[TextItem]
    provinces: list[str]  # the Provinces shown, in the order drawn
    seats: list[str]  # the seats in the legend


def check_radius(radius: object) -> int:
    if isinstance(radius, bool) or not isinstance(radius, int) or not 0 <= radius <= MAX_RADIUS:
        raise ValidationError(
            "radius",
            f"must be a whole number from 0 to {MAX_RADIUS} (borders away from the "
            f"focused seat's Provinces), not {radius!r}",
        )
    return radius


def area(scene: Scene, seat: str, radius: int) -> list[str]:
    """The Provinces ``seat`` holds (as owner, or with its units there) and those up to ``radius`` land borders
    from them, in board order (mainland by number, then the Island)."""
    radius = check_radius(radius)
    row = next((r for r in scene.seats if r.seat == seat), None)
    if row is None:
        raise ValidationError("focus", f"no seat {seat!r} in this game")
    own = {p for p, pv in scene.provinces.items() if seat in (pv.owner, pv.holder)}
    if row.eliminated or not own:
        why = "is out (eliminated)" if row.eliminated else "holds no Province"
        raise ValidationError(
            "focus", f"{row.name} (#{row.number}) {why}: there is no area to focus on; draw the whole board instead"
        )
    board = scene.board
    shown, edge = set(own), set(own)
    for _ in range(radius):
        edge = {q for p in edge for q in board.neighbours.get(p, frozenset())} - shown
        shown |= edge
    return [p for p in board.all_provinces if p in shown]


def runs(scene: Scene, shown: list[str]) -> list[list[str]]:
    """The tiles in runs: within a run each tile borders the next. On a ring, the ring's stretches (one
    crossing from the last Province to P1 stays whole); elsewhere, chains of neighbours (lowest number first);
    the Island alone."""
    board = scene.board
    rest = [p for p in shown if p != board.island]
    out: list[list[str]] = []
    if scene.layout.kind == "ring":
        for p in rest:
            if out and board.is_neighbour(out[-1][-1], p) and board.number(p) == board.number(out[-1][-1]) + 1:
                out[-1].append(p)
            else:
                out.append([p])
        ring = board.provinces
        if len(out) > 1 and out[0][0] == ring[0] and out[-1][-1] == ring[-1] and len(ring) > 2:
            out[0] = out.pop() + out[0]  # ... P31, P32, P1, P2: one stretch
    else:
        left = list(rest)
        while left:
            chain = [left.pop(0)]
            while nxt := next((q for q in left if board.is_neighbour(chain[-1], q)), None):
                left.remove(nxt)
                chain.append(nxt)
            out.append(chain)
    if board.island in shown:
        out.append([board.island])
    return out


def left_out(scene: Scene, before: list[str], after: list[str]) -> str:
    """What lies between two runs of a ring (``P5 to P9 not shown``); elsewhere nothing."""
    board = scene.board
    if scene.layout.kind != "ring" or after[0] == board.island:
        return ""
    ring = board.provinces
    i, j = ring.index(before[-1]), ring.index(after[0])
    gap = [ring[(k % len(ring))] for k in range(i + 1, j if j > i else j + len(ring))]
    if not gap:
        return ""
    return f"{gap[0]} not shown" if len(gap) == 1 else f"{gap[0]} to {gap[-1]} not shown"


def tile_height(custom: bool) -> float:
    return 2 * PAD + line(LABEL_PT) + line(SMALL_PT) * (2 if custom else 1) + 0.08


def line(size: float) -> float:
    return size / 72 * 1.3


def build_focus(scene: Scene, seat: str, radius: int = DEFAULT_RADIUS) -> FocusPicture:
    """The focused picture of ``scene`` (the channel's) around ``seat``; see the module's docstring."""
    shown = area(scene, seat, radius)
    rows = {r.seat: r for r in scene.seats}
    me = rows[seat]
    battles = {b.province: b for b in scene.battles}
    custom = scene.layout.kind != "ring"
    inner = WIDTH - 2 * MARGIN
    texts: list[TextItem] = []
    rects: list[Rect] = []
    y = MARGIN  # depth from the top; turned into heights from the bottom at the end

    def put(key: str, text: str, x: float, depth: float, size: float, **kw) -> None:
        texts.append(TextItem(key, kw.pop("kind", "panel"), text, x, depth, size, **kw))

    tail = f" (#{me.number})" + ("'s Provinces" if radius == 0 else " and neighbours")
    put("title", cut(me.name, TITLE_PT, inner, "bold", least=3, keep=tail), MARGIN, y, TITLE_PT, weight="bold")
    y += line(TITLE_PT)
    moment = scene.title.removeprefix("Protectors of the Realm - ")
    within = "" if radius == 0 else f"; Provinces up to {radius} border{'s' * (radius > 1)} away"
    told = scene.subtitle.rsplit(" - ", 1)[0]  # the outcome (a finished game) and the board, without the view
    for i, text in enumerate(wrap(f"{moment} - {told} - public view{within}", SMALL_PT, inner, 3)):
        put(f"subtitle-{i}", text, MARGIN, y, SMALL_PT, colour=MUTED)
        y += line(SMALL_PT)
    y += 0.15
    seen: list[str] = []
    th = tile_height(custom)
    parts = runs(scene, shown)
    for n, part in enumerate(parts):
        if n:
            gap = left_out(scene, parts[n - 1], part)
            if part[0] == scene.board.island:
                gap = "the Island (Wizard Sanctum): by sea only"
            if gap:
                put(
                    f"gap-{n}",
                    gap,
                    WIDTH / 2,
                    y + GAP / 2,
                    SMALL_PT,
                    style="italic",
                    colour=MUTED,
                    ha="center",
                    va="center",
                )
            y += GAP
        for p in part:
            pv = scene.provinces[p]
            mine = seat in (pv.owner, pv.holder)
            rects.append(
                Rect(
                    f"tile-{p}",
                    MARGIN,
                    y,
                    inner,
                    th,
                    pv.fill,
                    FOCUS_EDGE if mine else MUTED,
                    OUTLINE_LW if mine else 1.2,
                )
            )
            ink = text_colour(pv.fill)
            x0, top = MARGIN + PAD + (0.05 if mine else 0), y + PAD
            put(f"label-{p}", pv.line1, x0, top, LABEL_PT, kind="province", weight="bold", colour=ink)
            if pv.line2:
                put(
                    f"holder-{p}",
                    pv.line2,
                    MARGIN + inner - PAD - 0.05,
                    top,
                    LABEL_PT,
                    kind="province",
                    weight="bold",
                    colour=ink,
                    ha="right",
                )
            room = inner - 2 * PAD - 0.1
            bm = battles.get(p)
            if bm is not None:
                bw = text_size(bm.text, SMALL_PT, "bold")[0] + 2 * 0.12 * SMALL_PT / 72
                put(
                    f"battle-{p}",
                    bm.text,
                    MARGIN + inner - PAD - 0.05 - 0.12 * SMALL_PT / 72,
                    top + line(LABEL_PT) + 0.04,
                    SMALL_PT,
                    kind="battle",
                    weight="bold",
                    colour="white",
                    ha="right",
                    pad=0.12,
                    face=DRAGON,
                    edge="white",
                )
                room -= bw + 0.2
            name, keep = whose(pv, rows)
            put(
                f"whose-{p}",
                cut(name, SMALL_PT, room, least=3, keep=keep),
                x0,
                top + line(LABEL_PT) + 0.04,
                SMALL_PT,
                kind="province",
                colour=ink,
            )
            if custom:
                near = ", ".join(scene.board.by_number(scene.board.neighbours.get(p, frozenset())))
                put(
                    f"borders-{p}",
                    cut(f"borders {near}" if near else "no land border", SMALL_PT, inner - 2 * PAD),
                    x0,
                    top + line(LABEL_PT) + line(SMALL_PT) + 0.04,
                    SMALL_PT,
                    kind="province",
                    colour=ink,
                )
            for s in (pv.owner, pv.holder, bm and bm.winner, bm and bm.loser):
                if s in rows and s not in seen:
                    seen.append(s)
            y += th
    y += 0.3
    legend = sorted(seen, key=lambda s: (rows[s].rank is None, rows[s].rank or 0, rows[s].number))
    y = _legend(put, rects, legend, rows, seat, y, inner)
    y = _dragon(put, scene, y, inner)
    height = y + MARGIN
    # depth from the top -> figure inches from the bottom (texts are top-aligned unless centred)
    texts = [_flip(t, height) for t in texts]
    rects = [Rect(r.key, r.x, height - r.y - r.h, r.w, r.h, r.face, r.edge, r.lw) for r in rects]
    return FocusPicture(WIDTH, height, rects, texts, [p for part in parts for p in part], legend)


def whose(pv, rows) -> tuple[str, str]:
    """Whose a Province is, in words: ``(name, tail)``, the tail (its colour, another seat's units there) kept
    whole when a long name is cut."""
    units = f"; units of #{rows[pv.holder].number}" if pv.holder in rows and pv.holder != pv.owner else ""
    if pv.burnt:
        return "burnt-out", units
    if pv.owner not in rows:
        return "unheld", units
    o = rows[pv.owner]
    return o.name, (f" ({o.colour_name})" if o.colour_name else "") + units


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _legend(put, rects, legend, rows, seat, y, inner) -> float:
    put("legend-head", "Seats shown (by the Protector Ranking)", MARGIN, y, SMALL_PT, weight="bold")
    y += line(SMALL_PT) + 0.05
    sw = 0.42
    for s in legend:
        r = rows[s]
        rects.append(Rect(f"swatch-{r.number}", MARGIN, y + 0.04, sw, line(SMALL_PT) - 0.08, r.colour, "black", 0.8))
        tail = f" ({r.colour_name})" if r.colour_name else ""
        bold = "bold" if s == seat else "normal"
        head = f"{r.number} "
        name = cut(
            r.name, SMALL_PT, inner - sw - 0.15 - text_size(head, SMALL_PT, bold)[0] - 0.05, bold, least=3, keep=tail
        )
        put(f"legend-{r.number}-0", head + name, MARGIN + sw + 0.15, y, SMALL_PT, weight=bold)
        y += line(SMALL_PT)
        facts = [f"rank {r.rank}" if r.rank else "out", f"{r.provinces} Prov", plural(r.units, "unit"), f"{r.vp} VP"]
        if r.bracket:
            facts.append(f"bracket {r.bracket}")
        if r.team:
            facts.append(f"team {r.team}")
        if r.faction:
            facts.append(f"faction {r.faction}")
        for i, text in enumerate(wrap(", ".join(facts), SMALL_PT, inner - sw - 0.15, 2)):
            put(f"legend-{r.number}-{i + 1}", text, MARGIN + sw + 0.15, y, SMALL_PT, colour=MUTED)
            y += line(SMALL_PT)
        y += 0.08
    return y


def _dragon(put, scene, y, inner) -> float:
    y += 0.1
    lines = [f"Dragon: DPL {scene.dpl} / Power Threshold {scene.threshold} ({scene.tier})"]
    lines += [t for t in (scene.attack, scene.coming) if t]
    for i, text in enumerate(x for t in lines for x in wrap(t, SMALL_PT, inner, 2)):
        put(f"dragon-{i}", text, MARGIN, y, SMALL_PT, weight="bold", colour=DRAGON)
        y += line(SMALL_PT)
    return y


def _flip(t: TextItem, height: float) -> TextItem:
    from dataclasses import replace

    return replace(t, y=height - t.y)


def phone_px(size_pt: float, width_in: float = WIDTH) -> float:
    """A font of ``size_pt`` points, in pixels once a picture ``width_in`` inches wide (at DPI) is scaled to
    :data:`PHONE_PX` pixels wide."""
    return size_pt * DPI / 72 * PHONE_PX / (width_in * DPI)


__all__ = [
    "DEFAULT_RADIUS",
    "MAX_RADIUS",
    "MIN_PHONE_FONT_PX",
    "PHONE_PX",
    "FocusPicture",
    "area",
    "build_focus",
    "check_radius",
    "phone_px",
    "runs",
]
