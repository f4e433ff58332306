"""The summary picture's table (one row a seat: number, name, who played it, VP, Provinces, units, $Realm for the
GM), laid out once (:func:`table_layout`) for both the table and the chart placed under its last line.

A row's ``Played by`` cell names each AI as the GM chose it, every one that played the seat, in turn
(``AI: expert -> search, strong``). Every level's label fits the column's one line, with its comma; a longer cell
goes on in the next lines of its row, broken between labels (before a label that does not fit the line whole), and
only a label wider than the column between words (never inside ``level ->``). The rows under it
move down, the chart under the table with them, and the figure grows when the table would not fit it. A word wider
than the column (a ``policy:<path>``) is broken after its ``:`` and ``/``, and a piece of it still wider is cut in
its middle, both its ends kept; a cell past :data:`PLAYED_LINES` lines ends its last line with `` …`` after a whole
word.

A row's ``Player`` cell shows the display name whole (:func:`name_lines`): in its row's next lines when wider than
the column (which takes the room Played by does not need), then its team (told apart from the others:
``panel.team_labels``) and ``(out)``, at the table's own font size; only a name past :data:`NAME_LINES` lines is cut.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from service.render.glyphs import drawable_text
from service.render.palette import INK

if TYPE_CHECKING:
    from service.render.summary import Summary

HUMAN = "human"
NAME_INCHES = 1.65  # the Player column's width (wider for a long name when Played by's labels are short)
NAME_GAP = 0.1  # inches between the Player column and Played by
PLAYED_ROOM_AFTER = 0.15  # a Played by column moved right (its labels short) keeps this much more before VP
NAME_LINES = 3  # a name's most lines (32 Ms take 3 at 9.5 pt); past them it is cut with an ellipsis
TEAM_INCHES = 1.2  # a team's name after a player's is cut to this, the teams told apart (panel.team_labels)
# the Played by column: where it starts, and its width: every level's label fits one line with the comma after it in
# a list ("AI: steward -> steward-search," is 2.002 in at 9.5 pt: at 2.0 in it was broken after its arrow), 0.04 in
# left before VP; a seat's several labels, or a checkpoint's path, go on in the next lines
PLAYED_X, PLAYED_INCHES = 2.35, 2.01
PLAYED_LINES = 4  # a Played by cell's most lines
LEFT, WIDE = 0.15, 6.2  # the table's area: inches from the figure's left, and its width
HEAD = 0.85  # inches from the figure's top to the column heads' top
BOTTOM = 0.2  # inches kept under the table's last line
NAME_X = 0.6
COLUMNS = (("#", 0.3), ("Player", NAME_X), ("Played by", PLAYED_X), ("VP", 4.4), ("Prov", 4.8), ("Units", 5.25))
REALM_COLUMN = ("$Realm", 5.7)
GREY = "#888888"


@dataclass(frozen=True)
class TableLayout:
    size: float  # points
    step: float  # inches from a one-line row's top to the next row's
    line: float  # inches from a line to the next inside a row
    columns: tuple[tuple[str, float], ...]
    played: list[list[str]]  # each row's Played by lines
    names: list[list[str]]  # each row's Player lines: the name, then its team and "(out)"
    played_x: float  # where the Played by column starts (inches from the table's left)
    depth: list[float]  # inches from the figure's top to each row's top
    end: float  # inches from the figure's top to where a row after the last would start

    def height(self, least: float) -> float:
        """The figure's height: ``least`` inches, or more when the table needs it."""
        return max(least, self.end + BOTTOM)


def played_text(player: str) -> str:
    return player if player == HUMAN else "AI: " + player


def played_lines(text: str, size: float, room: float = PLAYED_INCHES, most: int = PLAYED_LINES) -> list[str]:
    """``text`` in lines of at most ``room`` inches: each of a seat's labels (``AI: expert -> search, strong``) on one
    line when it fits one, else broken between words (``AI: x`` and ``steward ->`` are one; a word wider than
    ``room``, a checkpoint's path, also after its ``:`` and ``/``), in at most ``most`` lines (the last then ends
    `` …`` after the words that fit with it); a piece still wider cut in its middle, both its ends kept."""
    from service.render.panel import cut, cut_middle, width

    lines: list[str] = []

    def place(piece: str, joiner: str) -> None:
        if lines and width(lines[-1] + joiner + piece, size) <= room:
            lines[-1] += joiner + piece
        else:
            lines.append(piece)

    for label in re.split(r"(?<=,) ", text):  # a seat's labels: each on one line when it fits one
        if width(label, size) <= room:
            place(label, " ")
            continue
        for word in re.split(r"(?<!^AI:) (?!->)", label):
            pieces = [word] if width(word, size) <= room else re.split(r"(?<=[:/])(?=\S)", word)
            for i, piece in enumerate(cut_middle(p, size, room) for p in pieces):
                place(piece, "" if i else " ")
    if len(lines) > most:
        kept = re.split(r"(?<!->) (?!->)", lines[most - 1])  # words, "level -> agent" one: never "normal -> …"
        while len(kept) > 1 and width(" ".join(kept) + " \u2026", size) > room:
            kept.pop()
        last = " ".join(kept) + " \u2026"
        lines = [*lines[:most - 1], last if width(last, size) <= room else cut(last[:-2], size, room)]
    return lines


def name_lines(name: str, tails: list[str], size: float, room: float = NAME_INCHES,
               most: int = NAME_LINES) -> list[str]:
    """A Player cell in lines of at most ``room`` inches: the name whole, broken between words (a word wider than
    the column after its hyphens, else where it reaches the edge), in at most ``most`` lines (the last then cut with
    an ellipsis); then each of ``tails`` (``[team]``, ``(out)``: each fits a line) whole after it, on its last line
    or on a line of its own."""
    from service.render.panel import cut, width

    lines: list[str] = []

    def place(piece: str, joiner: str) -> None:
        if lines and width(lines[-1] + joiner + piece, size) <= room:
            lines[-1] += joiner + piece
            return
        while width(piece, size) > room:  # wider than the column: broken where it reaches the edge
            n = max((k for k in range(1, len(piece)) if width(piece[:k], size) <= room), default=1)
            lines.append(piece[:n])
            piece = piece[n:]
        lines.append(piece)

    for word in name.split():
        pieces = [word] if width(word, size) <= room else [p for p in re.split(r"(?<=-)(?=.)", word) if p]
        for i, piece in enumerate(pieces):
            place(piece, "" if i else " ")
    lines = lines or [""]
    if len(lines) > most:  # cut() ends what it cuts with an ellipsis; a last line that fits whole gets one too
        rest = " ".join(lines[most - 1:])
        last = cut(rest, size, room)
        lines = [*lines[:most - 1], last if last != rest else cut(rest + "\u2026", size, room)]
    for tail in tails:
        if lines[-1]:
            place(tail, " ")
        else:
            lines[-1] = tail
    return lines


def table_layout(summary: Summary) -> TableLayout:
    from service.render.panel import team_labels, width

    size = 9.5 if len(summary.rows) <= 10 else 8.5
    step, line = size / 72 * 1.6, size / 72 * 1.25
    played = [played_lines(played_text(r.player), size) for r in summary.rows]
    teams = team_labels((r.team for r in summary.rows if r.team), size, TEAM_INCHES)
    tails = [([f"[{teams[r.team]}]"] if r.team else []) + ["(out)"] * r.eliminated for r in summary.rows]

    def names_in(played_x: float) -> list[list[str]]:
        return [name_lines(r.name, tail, size, room=played_x - NAME_X - NAME_GAP)
                for r, tail in zip(summary.rows, tails, strict=True)]

    played_x = PLAYED_X
    names = names_in(played_x)
    if any(len(cell) > 1 for cell in names):  # a long name: the Played by column as far right as its widest line
        # lets it (ending PLAYED_ROOM_AFTER before VP), and the Player column has the rest
        widest = max([width("Played by", size, "bold"), *(width(t, size) for cell in played for t in cell)])
        played_x = max(PLAYED_X, PLAYED_X + PLAYED_INCHES - PLAYED_ROOM_AFTER - widest)
        names = names_in(played_x)
    depth, y = [], HEAD + step
    for cells in zip(played, names, strict=True):
        depth.append(y)
        y += step + (max(map(len, cells)) - 1) * line
    columns = tuple((head, played_x if head == "Played by" else x) for head, x in COLUMNS)
    return TableLayout(size=size, step=step, line=line, columns=columns + ((REALM_COLUMN,) if summary.gm else ()),
                       played=played, names=names, played_x=played_x, depth=depth, end=y)


def draw_table(fig: Any, summary: Summary, layout: TableLayout, height: float) -> None:
    from service.render.draw import FIG_W

    ax = fig.add_axes((LEFT / FIG_W, 0, WIDE / FIG_W, 1))  # data: inches from the table's left, the figure's bottom
    ax.set_axis_off()
    ax.set_xlim(0, WIDE)
    ax.set_ylim(0, height)
    size = layout.size
    for head, cx in layout.columns:
        ax.text(cx, height - HEAD, head, fontsize=size, weight="bold", va="top", color="#444444", parse_math=False)
    for r, played, names, depth in zip(summary.rows, layout.played, layout.names, layout.depth, strict=True):
        y = height - depth
        ink = GREY if r.eliminated else INK
        ax.add_patch(_swatch(r.colour, y, layout.step, r.number))
        # the name whole in its row's lines, then its team and "(out)" ("out" is more than grey ink)
        cells = [str(r.number), names[0], played[0], str(r.vp), str(r.provinces), str(r.units)]
        if summary.gm:
            cells.append(f"${r.realm}" if r.realm is not None else "")
        for (_, cx), cell in zip(layout.columns, cells, strict=True):
            ax.text(cx, y, drawable_text(cell), fontsize=size, va="top", color=ink, parse_math=False)  # "$x$": text
        for cx, more_lines in ((NAME_X, names), (layout.played_x, played)):  # the cells' next lines, in their row
            for k, more in enumerate(more_lines[1:], start=1):
                ax.text(cx, y - k * layout.line, drawable_text(more), fontsize=size, va="top", color=ink,
                        parse_math=False)


def _swatch(colour: str, y: float, step: float, number: int):
    from matplotlib.patches import Rectangle

    return Rectangle((0.02, y - step * 0.78), 0.22, step * 0.7, facecolor=colour, edgecolor="black", lw=0.6,
                     gid=f"swatch-{number}")
