"""The side panel of a board picture, as plain data: the title, the Protector Ranking legend, the
Dragon's gauge, the cards in play, the turn's story and the key (figure inches, see
:mod:`service.render.labels`).

Legend columns are as wide as their widest cell really is (measured, not guessed), so a long display
name or colour name pushes the next column on instead of running into it; when the row would not fit
the panel the font shrinks, and only then are names cut (with an ellipsis).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from service.render.labels import MARGIN, TextItem, figure_size
from service.render.metrics import text_size
from service.render.palette import DRAGON, INK

GAP = 0.1  # inches between legend columns
SWATCH_W = 0.22
LEGEND_PT = (9.0, 8.5, 8.0, 7.5, 7.0)  # tried in turn until a row fits the panel
MIN_NAME_CHARS = 8
TEAM_CHARS = 8  # a team column that does not fit is cut to this many Ms' width
MIN_NAME_CHARS_WITH_COLOUR = 3  # a name followed by its colour: the colour (the swatch's name, a DM's address) wins
STORY_PT, STORY_STEP = 8.5, 0.17
STORY_INDENT = 0.15  # a story line's second line, in inches
KEY_PT, KEY_STEP = 7.0, 0.16
GREY, MUTED = "#888888", "#444444"
SAMPLE_W = 0.34  # a key's sample line


@dataclass(frozen=True)
class Rect:
    key: str
    x: float
    y: float
    w: float
    h: float
    face: str
    edge: str = "none"
    lw: float = 0.0


@dataclass(frozen=True)
class Stroke:
    """A line in the panel: the threshold mark, or a sample march in the key (``march``: golden,
    delayed, sea)."""

    key: str
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    colour: str
    lw: float
    march: tuple[bool, bool, bool] | None = None


@dataclass
class Panel:
    texts: list[TextItem]
    rects: list[Rect]
    strokes: list[Stroke]


def width(text: str, size: float, weight: str = "normal") -> float:
    return text_size(text, size, weight)[0]


def cut(text: str, size: float, room: float, weight: str = "normal", least: int = 1, keep: str = "") -> str:
    """``text + keep``, ``text`` cut with an ellipsis to fit ``room`` inches (never under ``least``
    characters). ``keep`` (a colour name, a team, "(out)") stays whole: a long display name lost them when
    the whole cell was cut. Only when ``least`` characters and ``keep`` do not fit is the whole cut."""
    if width(text + keep, size, weight) <= room:
        return text + keep
    lo, hi = least, len(text) - 1  # the longest fitting cut, by bisection: the width grows with n
    if lo > hi or width(text[:lo].rstrip() + "\u2026" + keep, size, weight) > room:
        return cut(text + keep, size, room, weight, least) if keep else text[:least].rstrip() + "\u2026"
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if width(text[:mid].rstrip() + "\u2026" + keep, size, weight) <= room:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "\u2026" + keep


def cut_middle(text: str, size: float, room: float) -> str:
    """``text`` fit to ``room`` inches by an ellipsis in its middle: both ends kept, where names such as
    "Team North" and "North Team" differ."""
    if width(text, size) <= room:
        return text
    lo, hi = 1, len(text) - 1  # the most characters kept, by bisection

    def middle(n: int) -> str:
        return text[:(n + 1) // 2].rstrip() + "\u2026" + text[len(text) - n // 2:].lstrip()

    while lo < hi:
        mid = (lo + hi + 1) // 2
        if width(middle(mid), size) <= room:
            lo = mid
        else:
            hi = mid - 1
    return middle(lo)


def team_labels(teams: Iterable[str], size: float, room: float) -> dict[str, str]:
    """Each team's name fit to ``room`` inches with the teams still told apart: cut in its middle (both ends kept:
    "Team North" and "North Team" differ there); when that makes two alike ("The Brotherhood of the Northern
    Marches" and "... Southern Marches" both "The B…ches"), the words every team starts or ends with give way to an
    ellipsis instead ("…Northern…"), and what is left is cut at its end if need be ("…Nort…")."""
    names = sorted(set(teams))
    out = {t: cut_middle(t, size, room) for t in names}
    if len(set(out.values())) == len(names):
        return out
    words = [t.split() for t in names]
    most = min(map(len, words)) - 1  # every team keeps a word of its own
    pre = next((k for k in range(most) if len({tuple(w[:k + 1]) for w in words}) > 1), most)
    suf = next((k for k in range(most - pre) if len({tuple(w[len(w) - k - 1:]) for w in words}) > 1), most - pre)
    if not pre and not suf:
        return out
    before, after = "\u2026" * bool(pre), "\u2026" * bool(suf)
    told = {}
    for t, w in zip(names, words, strict=True):
        core = " ".join(w[pre:len(w) - suf])
        label = before + core + after
        if width(label, size) > room:  # its first letters: where the words the teams differ by start
            inner = cut(core, size, max(room - width(before + after, size), 0.0))
            label = before + inner + ("" if inner.endswith("\u2026") else after)
        told[t] = label
    return told if len(set(told.values())) == len(names) else out


def wrap(text: str, size: float, room: float, lines: int) -> list[str]:
    """``text`` in at most ``lines`` lines of at most ``room`` inches (the last cut if need be)."""
    out: list[str] = []
    words = text.split(" ")
    line = ""
    for word in words:
        trial = f"{line} {word}".strip()
        if line and width(trial, size) > room:
            out.append(line)
            line = word
        else:
            line = trial
    out.append(line)
    if len(out) > lines:
        out = [*out[:lines - 1], " ".join(out[lines - 1:])]
    return [cut(x, size, room) for x in out]


def legend_cells(scene) -> tuple[list[str], list[list[str]]]:
    heads = ["#", "Player (colour)"]
    # public choices the channel knows (rules: 003 Factions, Team Games), only in games that have them
    show_team = any(r.team for r in scene.seats)
    show_faction = any(r.faction for r in scene.seats)
    heads += ["Team"] * show_team + ["Faction"] * show_faction + ["Prov", "Units", "VP", "Br"]
    show_realm = any(r.realm is not None for r in scene.seats)
    if show_realm:
        heads.append("$Realm")
    rows = []
    for r in scene.seats:
        cells = [f"{r.number}", r.name + colour_tail(r), *[r.team or "-"] * show_team,
                 *[r.faction or "-"] * show_faction,
                 f"{r.provinces}", f"{r.units}", f"{r.vp}",
                 "out" if r.eliminated else (f"{r.bracket}" if r.bracket else "-")]
        if show_realm:
            cells.append(f"${r.realm}" if r.realm is not None else "")
        rows.append(cells)
    return heads, rows


def colour_tail(row) -> str:
    """What follows a display name in the legend's Player cell: the colour players call the seat by."""
    return f" ({row.colour_name})" if row.colour_name else ""


def fit_legend(heads: list[str], rows: list[list[str]], room: float, sizes=LEGEND_PT,
               tails: list[str] | None = None):
    """``(size, column x offsets, rows)``: the largest size whose columns fit ``room`` inches; at the
    smallest size a long Team column is cut first (a team's name has no length limit: "$Realm" went off the
    picture), then the Player column (1) to what is left, each row's name only: its ``tails`` entry (the colour,
    as players name the seat in DMs) is kept whole."""
    def widths(size, table):
        return [max(width(c, size, "bold" if i == 0 else "normal") for i, c in enumerate(col))
                for col in zip(*table, strict=True)]

    for size in sizes:
        table = [heads, *rows]
        ws = widths(size, table)
        need = SWATCH_W + GAP + sum(ws) + GAP * (len(ws) - 1)
        if need <= room or size == sizes[-1]:
            if need > room and "Team" in heads:  # a team's name may be any length: at most TEAM_CHARS wide Ms
                t = heads.index("Team")
                teams = [r[t] for r in rows]  # whole, for the second cut below
                told = {"-": "-", **team_labels((c for c in teams if c != "-"), size, width("M" * TEAM_CHARS, size))}
                rows = [[told[c] if i == t else c for i, c in enumerate(r)] for r in rows]
                ws = widths(size, [heads, *rows])
                need = SWATCH_W + GAP + sum(ws) + GAP * (len(ws) - 1)
            if need > room:
                others = need - ws[1]
                keep = tails or [""] * len(rows)
                # never narrower than a name's least and its colour: a colour cut ("Bo (light gre…") named no seat
                least = max((width(r[1].removesuffix(k)[:MIN_NAME_CHARS_WITH_COLOUR].rstrip() + "\u2026" + k, size)
                             for r, k in zip(rows, keep, strict=True) if k), default=0.0)
                names = max(room - others, width("M" * MIN_NAME_CHARS, size), least)
                rows = [[c if i != 1 else cut(c.removesuffix(k), size, names, keep=k,
                                                    least=MIN_NAME_CHARS_WITH_COLOUR if k else MIN_NAME_CHARS)
                         for i, c in enumerate(r)] for r, k in zip(rows, keep, strict=True)]
                ws = widths(size, [heads, *rows])
                over = SWATCH_W + GAP + sum(ws) + GAP * (len(ws) - 1) - room
                if over > 0 and "Team" in heads:  # the names at their least: the teams give up the rest
                    t = heads.index("Team")
                    told = {"-": "-", **team_labels((c for c in teams if c != "-"), size, ws[t] - over)}
                    rows = [[told[teams[n]] if i == t else c for i, c in enumerate(r)] for n, r in enumerate(rows)]
                    ws = widths(size, [heads, *rows])
            xs, x = [], SWATCH_W + GAP
            for w in ws:
                xs.append(x)
                x += w + GAP
            return size, xs, rows
    raise AssertionError("unreachable")


KEY = ("P3 Lv2 = Province 3, level 2;  #4 \u26942 = seat #4's Army Units there (2)",
       "grey, hatched = burnt-out;  \u2605#4 2:1 #3 = battle there: #4 beat #3, 2 US to 1")
KEY_MARCHES = (("march to a neighbour", (False, False, False)), ("by sea", (False, False, True)),
               ("Delayed March!", (False, True, False)), ("golden", (True, False, False)))


def build_panel(scene, story_title: str | None = None) -> Panel:
    """The panel's texts, swatches and strokes for ``scene``."""
    fig_w, fig_h = figure_size(scene.layout.inches)
    x0 = 2 * MARGIN + scene.layout.inches
    room = fig_w - MARGIN - x0
    texts: list[TextItem] = [
        TextItem("title", "panel", cut(scene.title, 15.0, x0 - 2 * MARGIN, "bold"), MARGIN, fig_h - 0.12, 15.0,
                 weight="bold"),
        TextItem("subtitle", "panel", cut(scene.subtitle, 10.0, x0 - 2 * MARGIN), MARGIN, fig_h - 0.42, 10.0,
                 colour=MUTED)]
    rects: list[Rect] = []
    strokes: list[Stroke] = []
    y = fig_h - MARGIN - 0.05
    texts.append(TextItem("ranking", "panel", "Protector Ranking (best first)", x0, y, 11.0, weight="bold"))
    y -= 0.3
    heads, rows = legend_cells(scene)
    size, xs, rows = fit_legend(heads, rows, room, tails=[colour_tail(r) for r in scene.seats])
    step = size / 72 * 1.55
    for i, (head, cx) in enumerate(zip(heads, xs, strict=True)):
        texts.append(TextItem(f"head-{i}", "legend", head, x0 + cx, y, size, weight="bold", colour=MUTED))
    y -= step
    for r, cells in zip(scene.seats, rows, strict=True):
        ink = GREY if r.eliminated else INK
        rects.append(Rect(f"swatch-{r.number}", x0 + 0.02, y - step * 0.78, SWATCH_W, step * 0.7, r.colour,
                          "black", 0.6))
        for i, (cell, cx) in enumerate(zip(cells, xs, strict=True)):
            if cell:
                texts.append(TextItem(f"legend-{r.number}-{i}", "legend", cell, x0 + cx, y, size, colour=ink))
        y -= step
    key_top = _key(texts, strokes, scene, x0, room)
    y -= 0.15
    y = _gauge(texts, rects, strokes, scene, x0, y, room) - 0.12
    texts.append(TextItem("cards-head", "panel", "Cards in play", x0, y, 11.0, weight="bold"))
    y -= 0.24
    cards = ", ".join(scene.cards) or "none"
    if scene.locked_cards:
        cards += "; kept: " + ", ".join(scene.locked_cards)
    for i, line in enumerate(wrap(cards, 9.0, room, 3)):
        texts.append(TextItem(f"cards-{i}", "panel", line, x0, y, 9.0))
        y -= 0.18
    if scene.note:
        y -= 0.06
        texts.append(TextItem("note", "panel", cut(scene.note, 9.0, room), x0, y, 9.0, style="italic", colour=MUTED))
        y -= 0.2
    if scene.highlight_turn is not None and (scene.story or scene.arrows):
        y -= 0.1
        texts.append(TextItem("story-head", "panel", story_title or f"Turn {scene.highlight_turn}: what happened",
                              x0, y, 9.5, weight="bold"))
        y -= 0.22
        fits = int(max(0.0, y - key_top - 0.05) / STORY_STEP)
        for i, (line, indent) in enumerate(story_lines(scene.story, room, fits)):
            texts.append(TextItem(f"story-{i}", "panel", line, x0 + indent, y, STORY_PT))
            y -= STORY_STEP
    return Panel(texts, rects, strokes)


def story_lines(story: list[str], room: float, fits: int) -> list[tuple[str, float]]:
    """The story as at most ``fits`` drawn lines ``(text, indent)``: a line too long for ``room`` inches goes on
    in a second, indented line (cut only past that), so a battle between long names still ends in who won;
    what does not fit is counted in a last line."""
    blocks = [wrap(line, STORY_PT, room - STORY_INDENT, 2) for line in story]
    out: list[tuple[str, float]] = []
    for n, block in enumerate(blocks):
        more = len(blocks) - n
        last = sum(map(len, blocks[n:])) <= fits - len(out)  # the rest fits: no line needed to count it
        if len(out) + len(block) > fits - (0 if last else 1):
            if fits:
                out = [*out[:fits - 1], (f"... and {more} more (see the text report)", 0.0)]
            break
        out += [(text, STORY_INDENT if j else 0.0) for j, text in enumerate(block)]
    return out


def _key(texts, strokes, scene, x0: float, room: float) -> float:
    """The key at the bottom of the panel (two lines, then a sample of each march style in two
    rows); returns its top (figure inches)."""
    y = MARGIN + 0.02
    half = room / 2
    for row, pair in enumerate((KEY_MARCHES[2:], KEY_MARCHES[:2])):
        for col, (label, style) in enumerate(pair):
            x = x0 + col * half
            mid = y + row * KEY_STEP + KEY_PT / 72 / 2 + 0.01
            strokes.append(Stroke(f"key-{label}", (x + 0.02, x + SAMPLE_W), (mid, mid), "#666666", 2.2, style))
            texts.append(TextItem(f"key-march-{row}-{col}", "panel", label, x + SAMPLE_W + 0.08,
                                  y + row * KEY_STEP, KEY_PT, colour="#555555", va="bottom"))
    y += 2 * KEY_STEP
    for i, line in enumerate(reversed(KEY)):
        texts.append(TextItem(f"key-{i}", "panel", cut(line, KEY_PT, room), x0, y + i * KEY_STEP, KEY_PT,
                              colour="#555555", va="bottom"))
    return y + len(KEY) * KEY_STEP


def _gauge(texts, rects, strokes, scene, x0: float, top: float, room: float) -> float:
    """rules: 003 Dragon's Power Level and the Power Threshold — DPL against the threshold, the
    Scale of Terror tier, and a Dragon Attack under way or coming. Returns the gauge's bottom."""
    texts.append(TextItem("gauge", "panel", f"Dragon: DPL {scene.dpl} / Power Threshold {scene.threshold}", x0,
                          top - 0.02, 11.0, weight="bold"))
    y = top - 0.27
    lines = [("tier", f"Scale of Terror: {scene.tier}", 9.5)] + ([("attack", scene.attack, 8.5)] if scene.attack
                                                                 else []) \
        + ([("coming", scene.coming, 8.5)] if scene.coming else [])
    for key, text, size in lines:
        texts.append(TextItem(key, "panel", cut(text, size, room, "bold"), x0, y, size, weight="bold",
                              colour=DRAGON))
        y -= 0.2
    scale = max(scene.threshold * 1.25, scene.dpl * 1.1, 1) * 1.01
    bar = y - 0.45  # the bar's bottom: room above it for the "threshold" label
    wide = room - 0.05
    rects.append(Rect("dpl-back", x0, bar, wide, 0.28, "#EEEEEE", "#666666", 0.8))
    rects.append(Rect("dpl-bar", x0, bar, wide * min(scene.dpl, scale) / scale, 0.28, DRAGON))
    tx = x0 + wide * scene.threshold / scale
    strokes.append(Stroke("threshold", (tx, tx), (bar - 0.05, bar + 0.33), "black", 2.2))
    texts.append(TextItem("threshold-label", "panel", "threshold", tx, bar + 0.34, 7.5, ha="center", va="bottom"))
    return bar
