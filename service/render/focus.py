"""A focused board picture for a phone: one seat's Provinces and their neighbours up to ``radius`` borders
away, as a column of large tiles, with a legend of only the seats shown (plain data: the label model).

A 16-seat board fits a phone's width only with labels too small to read there. The focused picture draws
the chosen Provinces, not the whole board: each as a full-width tile (``P12 Lv3``, the holder's seat number and
units as on the board, whose it is by display name and colour, a battle fought there), in board order; tiles
that touch share a land border. Provinces next to each other on the ring but with something left out between
them are split by a gap saying what is left out (``P5 to P9 not shown``); the Island (reached only by sea) stands
apart; on a custom board each tile also lists its borders. The focused seat's tiles have a thick outline.

Height: a picture taller than :data:`MAX_TALL` widths lays its tiles and legend in two columns (read down the left,
then the right; a battle on a line of its own, a custom board's borders in two lines; a run of neighbours that goes on
in the right column says so at the foot of the left and the head of the right); one still too tall draws a smaller
radius and says so in its subtitle (``radius 4 would not fit a phone``). A seat with too many Provinces for even its
own (radius 0) to fit is refused, saying so: no picture is ever taller than the limit.

Legibility is a measured rule, not a look: every text is at least :data:`MIN_PHONE_FONT_PX` pixels high (its
font size) once the picture is scaled to :data:`PHONE_PX` pixels wide (``tests/render/test_focus.py``).

Secrecy: it is built from the channel's scene (``service/render/channel.py``): only what every player may see,
whoever asks. An eliminated seat holds nothing to focus on: asking for one is refused, saying so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.errors import ValidationError
from service.render.access import MAX_RADIUS  # borders away; a ring-16-grand's whole half is 16
from service.render.labels import TextItem
from service.render.metrics import DPI, text_size
from service.render.palette import DRAGON, text_colour
from service.render.panel import Rect, cut, team_labels, wrap
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
# The tallest a focused picture may be, in widths. Discord shows a tall image shrunk to fit the chat's height, so
# its text is no longer the size the rule above measured; a phone's screen is ~2.2 widths tall (19.5:9), so 2.5
# widths is about one screen and a short scroll once opened. Past it the tiles go in two columns (each tile's text
# wraps into its half, no smaller); when two are too tall, the radius drawn is cut (the subtitle says so).
MAX_TALL = 2.5
COLUMN_GAP = 0.3  # inches between the two columns
MARK_PAD = 0.04  # inches over and under a "continued" mark: it reads as its tile's
SWATCH = 0.57  # a legend entry's swatch and the room after it, inches
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


def line(size: float) -> float:
    return size / 72 * 1.3


def build_focus(scene: Scene, seat: str, radius: int = DEFAULT_RADIUS) -> FocusPicture:
    """The focused picture of ``scene`` (the channel's) around ``seat``; see the module's docstring. One column of
    tiles; two when one would be taller than :data:`MAX_TALL` widths; and when two are too, a smaller radius (the
    subtitle says so). A seat whose own Provinces (radius 0) are too many even in two columns is refused, saying
    so (``ValidationError`` on ``focus``): never a picture taller than the limit, which a phone's Discord shrinks
    until its text is under the legibility rule."""
    asked = check_radius(radius)
    for drawn in range(asked, -1, -1):
        for columns in (1, 2):
            pic = layout_focus(scene, seat, drawn, asked, columns)
            if pic.height <= MAX_TALL * pic.width:
                return pic
    me = next(r for r in scene.seats if r.seat == seat)
    raise ValidationError(
        "focus", f"{me.name} (#{me.number}) has {plural(len(pic.provinces), 'Province')}: too many for a picture a "
                 f"phone shows legibly (even those alone, in two columns, are {pic.height / pic.width:.1f} widths "
                 f"tall; at most {MAX_TALL}); draw the whole board instead")


def layout_focus(scene: Scene, seat: str, radius: int, asked: int, columns: int) -> FocusPicture:
    """The focused picture at ``radius`` (``asked`` the radius asked for: a smaller one is said in the subtitle),
    its tiles and legend in ``columns`` columns (1 or 2)."""
    shown = area(scene, seat, radius)
    rows = {r.seat: r for r in scene.seats}
    me = rows[seat]
    inner = WIDTH - 2 * MARGIN
    col = (inner - COLUMN_GAP * (columns - 1)) / columns  # a column's width
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
    if radius < asked:
        within = (within or "; only its own Provinces") + f"; radius {asked} would not fit a phone"
    told = scene.subtitle.rsplit(" - ", 1)[0]  # the outcome (a finished game) and the board, without the view
    for i, text in enumerate(wrap(f"{moment} - {told} - public view{within}", SMALL_PT, inner, 3)):
        put(f"subtitle-{i}", text, MARGIN, y, SMALL_PT, colour=MUTED)
        y += line(SMALL_PT)
    y += 0.15
    seen: list[str] = []
    parts = runs(scene, shown)
    blocks: list[Block] = []  # tiles and the gaps between runs, in reading order
    for n, part in enumerate(parts):
        if n:
            gap = left_out(scene, parts[n - 1], part)
            if part[0] == scene.board.island:
                gap = "the Island (Wizard Sanctum): by sea only"
            blocks.append(Block(lambda put, rects, x, y, w, n=n, gap=gap: _gap(put, n, gap, x, y, w), gap=True))
        for p in part:
            blocks.append(Block(lambda put, rects, x, y, w, p=p: _tile(put, rects, scene, seat, p, x, y, w, columns),
                                run=n, province=p))
            pv, bm = scene.provinces[p], next((b for b in scene.battles if b.province == p), None)
            for s in (pv.owner, pv.holder, bm and bm.winner, bm and bm.loser):
                if s in rows and s not in seen:
                    seen.append(s)
    y = _flow(put, rects, blocks, y, col, columns) + 0.3
    legend = sorted(seen, key=lambda s: (rows[s].rank is None, rows[s].rank or 0, rows[s].number))
    put("legend-head", "Seats shown (by the Protector Ranking)", MARGIN, y, SMALL_PT, weight="bold")
    y += line(SMALL_PT) + 0.05
    # a team's name (any length) on one line, the teams told apart: a long one was cut with the faction after it
    room = col - SWATCH - text_size("team ,", SMALL_PT)[0]
    teams = team_labels((r.team for r in scene.seats if r.team), SMALL_PT, room)
    entries = [Block(lambda put, rects, x, y, w, s=s: _entry(put, rects, rows[s], s == seat, x, y, w, columns + 2,
                                                             teams.get(rows[s].team or "")))
               for s in legend]  # its facts in 2 lines, 3 in a half-wide column; a line more for a long team
    y = _flow(put, rects, entries, y, col, columns)
    y = _dragon(put, scene, y, inner)
    height = y + MARGIN
    # depth from the top -> figure inches from the bottom (texts are top-aligned unless centred)
    texts = [_flip(t, height) for t in texts]
    rects = [Rect(r.key, r.x, height - r.y - r.h, r.w, r.h, r.face, r.edge, r.lw) for r in rects]
    return FocusPicture(WIDTH, height, rects, texts, [p for part in parts for p in part], legend)


@dataclass(frozen=True)
class Block:
    """A tile, a gap between runs or a legend entry: ``draw(put, rects, x, depth, width)`` draws it there and
    returns its height."""

    draw: Callable[..., float]
    gap: bool = False
    run: int | None = None  # a tile's run of neighbours (runs())
    province: str = ""  # a tile's Province

    def height(self, width: float) -> float:
        return self.draw(lambda *a, **k: None, [], 0.0, 0.0, width)


def mid_run(blocks: list[Block], k: int) -> bool:
    """Whether splitting ``blocks`` before the ``k``-th breaks a run of neighbouring tiles between the columns."""
    return 0 < k < len(blocks) and blocks[k - 1].run is not None and blocks[k - 1].run == blocks[k].run


def _flow(put, rects, blocks: list[Block], y: float, width: float, columns: int) -> float:
    """``blocks`` down one column from depth ``y``, or down two (the left one first, read as a newspaper's), split
    where the taller column is lowest and never right after a gap (it heads the right column); the depth under
    them. A run of neighbours split between the columns says so at both ends (:func:`_continued`)."""
    heights = [b.height(width) for b in blocks]
    split = len(blocks)
    foot, head = (_continued(lambda *a, **k: None, "P99", "", 0.0, 0.0, width, head=h) for h in (False, True))

    def tallest(k: int) -> float:
        broken = mid_run(blocks, k)
        return max(sum(heights[:k]) + foot * broken, sum(heights[k:]) + head * broken)

    if columns == 2 and len(blocks) > 1:
        cuts = [k for k in range(1, len(blocks)) if not blocks[k - 1].gap]
        split = min(cuts, key=lambda k: (tallest(k), k), default=len(blocks))
    broken = mid_run(blocks, split)
    lowest = y
    for c, (part, sizes) in enumerate(((blocks[:split], heights[:split]), (blocks[split:], heights[split:]))):
        x, depth = MARGIN + c * (width + COLUMN_GAP), y
        if broken and c == 1:
            depth += _continued(put, blocks[split - 1].province, blocks[split].province, x, depth, width, head=True)
        for block, h in zip(part, sizes, strict=True):
            block.draw(put, rects, x, depth, width)
            depth += h
        if broken and c == 0:
            depth += _continued(put, blocks[split - 1].province, blocks[split].province, x, depth, width, head=False)
        lowest = max(lowest, depth)
    return lowest


def _continued(put, last: str, first: str, x: float, y: float, w: float, head: bool) -> float:
    """The mark where a run of neighbours goes on in the right column: under the left column's last tile
    (``continued at the top right ->``, right-aligned, pointing across) or over the right column's first
    (``<- continued from P8``, the left column's last Province); its height."""
    text = f"\u2190 continued from {last}" if head else "continued at the top right \u2192"
    lines = wrap(text, SMALL_PT, w - 0.1, 2)
    step = line(SMALL_PT)
    for i, t in enumerate(lines):
        put(f"continued-{'head' if head else 'foot'}" + (f"-{i}" if i else ""), t, x + (0.05 if head else w - 0.05),
            y + MARK_PAD + i * step, SMALL_PT, style="italic", colour=MUTED, ha="left" if head else "right")
    # a line's text is SMALL_PT * 1.2 high: close over its tile (the head), or under it (the foot: what follows the
    # columns keeps its own space)
    return step * (len(lines) - 1) + SMALL_PT / 72 * 1.2 + MARK_PAD * (2 if head else 1)


def _gap(put, n: int, text: str, x: float, y: float, w: float) -> float:
    """What a gap between two runs leaves out, centred in its column (in two lines when it needs them)."""
    lines = wrap(text, SMALL_PT, w, 2) if text else []
    h = max(GAP, len(lines) * line(SMALL_PT) + 0.2)
    for i, t in enumerate(lines):
        put(f"gap-{n}" + (f"-{i}" if i else ""), t, x + w / 2, y + (h - len(lines) * line(SMALL_PT)) / 2
            + (i + 0.5) * line(SMALL_PT), SMALL_PT, style="italic", colour=MUTED, ha="center", va="center")
    return h


def _tile(put, rects, scene: Scene, seat: str, p: str, x: float, y: float, w: float, columns: int) -> float:
    """Province ``p``'s tile, ``w`` wide at (``x``, depth ``y``); its height. In two columns a battle has a line of
    its own, and a custom board's borders go on in a second line rather than being cut."""
    rows = {r.seat: r for r in scene.seats}
    custom = scene.layout.kind != "ring"
    pv = scene.provinces[p]
    bm = next((b for b in scene.battles if b.province == p), None)
    mine = seat in (pv.owner, pv.holder)
    ink = text_colour(pv.fill)
    x0, top = x + PAD + (0.05 if mine else 0), y + PAD
    put(f"label-{p}", pv.line1, x0, top, LABEL_PT, kind="province", weight="bold", colour=ink)
    if pv.line2:
        put(f"holder-{p}", pv.line2, x + w - PAD - 0.05, top, LABEL_PT, kind="province", weight="bold", colour=ink,
            ha="right")
    depth = top + line(LABEL_PT) + 0.04
    room = w - 2 * PAD - 0.1
    if bm is not None:
        bw = text_size(bm.text, SMALL_PT, "bold")[0] + 2 * 0.12 * SMALL_PT / 72
        put(f"battle-{p}", bm.text, x + w - PAD - 0.05 - 0.12 * SMALL_PT / 72,
            depth + (line(SMALL_PT) if columns == 2 else 0), SMALL_PT, kind="battle", weight="bold",
            colour="white", ha="right", pad=0.12, face=DRAGON, edge="white")
        if columns == 1:
            room -= bw + 0.2
    name, keep = whose(pv, rows)
    put(f"whose-{p}", cut(name, SMALL_PT, room, least=3, keep=keep), x0, depth, SMALL_PT, kind="province",
        colour=ink)
    depth += line(SMALL_PT) * (2 if bm is not None and columns == 2 else 1)
    if custom:
        near = ", ".join(scene.board.by_number(scene.board.neighbours.get(p, frozenset())))
        said = f"borders {near}" if near else "no land border"
        for i, text in enumerate([cut(said, SMALL_PT, w - 2 * PAD)] if columns == 1
                                 else wrap(said, SMALL_PT, w - 2 * PAD - 0.05, 2)):
            put(f"borders-{p}" + (f"-{i}" if i else ""), text, x0, depth, SMALL_PT, kind="province", colour=ink)
            depth += line(SMALL_PT)
    h = depth - y + PAD - 0.04 + 0.08
    rects.append(Rect(f"tile-{p}", x, y, w, h, pv.fill, FOCUS_EDGE if mine else MUTED, OUTLINE_LW if mine else 1.2))
    return h


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


def _entry(put, rects, r, focused: bool, x: float, y: float, w: float, most: int, team: str | None) -> float:
    """One seat's legend entry (swatch, number and name, then its facts in at most ``most`` lines: ``team`` its team's
    name as shown, at most a line), ``w`` wide; its height."""
    sw = SWATCH - 0.15
    rects.append(Rect(f"swatch-{r.number}", x, y + 0.04, sw, line(SMALL_PT) - 0.08, r.colour, "black", 0.8))
    tail = f" ({r.colour_name})" if r.colour_name else ""
    bold = "bold" if focused else "normal"
    head = f"{r.number} "
    name = cut(r.name, SMALL_PT, w - sw - 0.15 - text_size(head, SMALL_PT, bold)[0] - 0.05, bold, least=3, keep=tail)
    put(f"legend-{r.number}-0", head + name, x + sw + 0.15, y, SMALL_PT, weight=bold)
    depth = y + line(SMALL_PT)
    facts = [f"rank {r.rank}" if r.rank else "out", f"{r.provinces} Prov", plural(r.units, "unit"), f"{r.vp} VP"]
    if r.bracket:
        facts.append(f"bracket {r.bracket}")
    if team:
        facts.append(f"team {team}")
    if r.faction:
        facts.append(f"faction {r.faction}")
    for i, text in enumerate(wrap(", ".join(facts), SMALL_PT, w - sw - 0.15, most)):
        put(f"legend-{r.number}-{i + 1}", text, x + sw + 0.15, depth, SMALL_PT, colour=MUTED)
        depth += line(SMALL_PT)
    return depth + 0.08 - y


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
    "MAX_TALL",
    "MIN_PHONE_FONT_PX",
    "PHONE_PX",
    "FocusPicture",
    "area",
    "build_focus",
    "check_radius",
    "layout_focus",
    "phone_px",
    "runs",
]
