"""The end-of-game summary picture: VP table, who an AI played, and Provinces held per turn.

Built from ``game.view(seat)`` plus the per-turn history the engine appends after each
Consolidation (Provinces held and VPs per seat, both public: anyone can count them on the board).
$Realm appears only in the GM's summary.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.errors import ValidationError
from service.render.palette import INK, seat_colour

MARKERS = "osD^vP*Xhp<>d8H1"  # a different marker per seat, so lines differ without colour
HUMAN = "human"


@dataclass(frozen=True)
class SummaryRow:
    seat: str
    number: int
    name: str
    colour: str
    player: str  # "human" or the agent's name
    vp: int
    provinces: int
    units: int
    eliminated: bool
    realm: int | None


@dataclass(frozen=True)
class Summary:
    title: str
    subtitle: str
    gm: bool
    rows: list[SummaryRow]
    turns: list[int]
    provinces: dict[str, list[int]]  # seat -> Provinces held after each turn in ``turns``
    vp: dict[str, list[int]]  # seat -> VPs after each turn in ``turns``


def _result_text(view: dict[str, Any], numbers: dict[str, int]) -> str:
    res = view.get("result")
    if not res:
        return f"Game in progress - turn {view['turn']}"
    how = {"dragon": "Fire and blood! The Dragon wins", "last_man_standing": "Last man standing!",
           "times_up": "Time's Up!"}.get(res["how"], res["how"])
    win = res.get("winner")
    who = f": {win}" + (f" (#{numbers[win]})" if win in numbers else "") if win else ""
    return f"{how}{who} - turn {res['turn']}"


def summary_data(game: Any, seat: str | None, ai_seats: dict[str, str]) -> Summary:
    view = game.view(seat)
    players = view["players"]
    if not isinstance(ai_seats, dict) or any(s not in players for s in ai_seats):
        unknown = sorted(set(ai_seats) - set(players)) if isinstance(ai_seats, dict) else ai_seats
        raise ValidationError("ai_seats", f"must map known seats to agent names; unknown: {unknown}")
    gm = "you" not in view
    numbers = {s: i + 1 for i, s in enumerate(players)}
    final_vp = (view.get("result") or {}).get("vp", {})
    rows = [SummaryRow(seat=s, number=numbers[s], name=p["name"], colour=seat_colour(i),
                       player=str(ai_seats.get(s, HUMAN)), vp=int(final_vp.get(s, p["vp"])),
                       provinces=p["provinces"], units=p["units"], eliminated=p["eliminated"],
                       realm=p.get("realm") if gm else None)
            for i, (s, p) in enumerate(players.items())]
    rows.sort(key=lambda r: (r.eliminated, -r.vp, -r.provinces, r.number))
    # history: public counts only (Provinces held per seat after each Consolidation).
    history = [h for h in game.state.history if isinstance(h, dict) and "provinces" in h]
    turns = [int(h["turn"]) for h in history]
    provinces = {s: [int(h["provinces"].get(s, 0)) for h in history] for s in players}
    vp = {s: [int(h.get("vp", {}).get(s, 0)) for h in history] for s in players}
    if view.get("result") and (not turns or turns[-1] < view["turn"]):
        # the game ended inside a turn (e.g. Fire and blood!): its final board is the last point
        turns.append(int(view["turn"]))
        for s, p in players.items():
            provinces[s].append(int(p["provinces"]))
            vp[s].append(int(p["vp"]))
    who = "GM view" if gm else f"view of {view['you']}"
    board = view["board"] if isinstance(view["board"], str) else view["board"].get("name", "custom")
    return Summary(title=_result_text(view, numbers), subtitle=f"{board} - {len(players)} seats - {who}",
                   gm=gm, rows=rows, turns=turns, provinces=provinces, vp=vp)


def draw_summary(summary: Summary):
    from service.render.draw import FIG_W, new_figure

    height = 6.2 if len(summary.rows) <= 10 else 7.4
    fig = new_figure(FIG_W, height)
    fig.text(0.15 / FIG_W, 1 - 0.12 / height, summary.title, ha="left", va="top", fontsize=15, weight="bold",
             color=INK, gid="title")
    fig.text(0.15 / FIG_W, 1 - 0.45 / height, summary.subtitle, ha="left", va="top", fontsize=10, color="#444444")
    _table(fig, summary, height)
    _chart(fig, summary, height)
    return fig


def _table(fig, summary: Summary, height: float) -> None:
    from service.render.draw import FIG_W

    top = height - 0.8
    ax = fig.add_axes((0.15 / FIG_W, 0.2 / height, 5.6 / FIG_W, (top - 0.2) / height))
    ax.set_axis_off()
    ax.set_xlim(0, 5.6)
    ax.set_ylim(0, top - 0.2)
    y = top - 0.25
    size = 9.5 if len(summary.rows) <= 10 else 8.5
    step = size / 72 * 1.6
    cols = [("#", 0.3), ("Player", 0.6), ("Played by", 2.35), ("VP", 3.55), ("Prov", 4.0), ("Units", 4.45)]
    if summary.gm:
        cols.append(("$Realm", 4.95))
    for head, cx in cols:
        ax.text(cx, y, head, fontsize=size, weight="bold", va="top", color="#444444")
    y -= step
    for r in summary.rows:
        ink = "#888888" if r.eliminated else INK
        ax.add_patch(_swatch(r.colour, y, step, r.number))
        name = r.name if len(r.name) <= 15 else r.name[:14] + "\u2026"
        played = "AI: " + r.player if r.player != HUMAN else HUMAN
        cells = [str(r.number), name + (" (out)" if r.eliminated else ""), played[:16], str(r.vp),
                 str(r.provinces), str(r.units)]
        if summary.gm:
            cells.append(f"${r.realm}" if r.realm is not None else "")
        for (_, cx), cell in zip(cols, cells, strict=True):
            ax.text(cx, y, cell, fontsize=size, va="top", color=ink)
        y -= step


def _swatch(colour: str, y: float, step: float, number: int):
    from matplotlib.patches import Rectangle

    return Rectangle((0.02, y - step * 0.78), 0.22, step * 0.7, facecolor=colour, edgecolor="black", lw=0.6,
                     gid=f"swatch-{number}")


def _chart(fig, summary: Summary, height: float) -> None:
    from service.render.draw import FIG_W

    left = 6.3
    ax = fig.add_axes((left / FIG_W, 0.65 / height, (FIG_W - left - 1.3) / FIG_W, (height - 1.6) / height))
    _series(ax, summary, summary.provinces, "Provinces held after each turn", "Provinces", legend=True)
    rows_height = 0.5 + (len(summary.rows) + 1) * (9.5 if len(summary.rows) <= 10 else 8.5) / 72 * 1.6
    chart_top = height - 0.8 - rows_height - 0.45
    if chart_top > 1.6:  # room under the table: VPs after each turn
        ax2 = fig.add_axes((0.75 / FIG_W, 0.55 / height, 4.9 / FIG_W, (chart_top - 0.55) / height))
        _series(ax2, summary, summary.vp, "Victory Points after each turn", "VP", legend=False)


def _series(ax, summary: Summary, data: dict[str, list[int]], title: str, ylabel: str, legend: bool) -> None:
    ax.set_title(title, fontsize=11, weight="bold", color=INK, loc="left")
    if not summary.turns:
        ax.text(0.5, 0.5, "no turn completed yet", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
        return
    for r in sorted(summary.rows, key=lambda r: r.number):
        series = data.get(r.seat, [])
        ax.plot(summary.turns, series, color=r.colour, marker=MARKERS[(r.number - 1) % len(MARKERS)],
                markersize=6, lw=2.0, label=f"#{r.number}", gid=f"series-{r.number}",
                markeredgecolor="black", markeredgewidth=0.5)
    ax.set_xlabel("turn")
    ax.set_ylabel(ylabel)
    ax.set_xticks(summary.turns)
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.grid(alpha=0.3)
    if legend:
        ax.legend(ncol=2 if len(summary.rows) > 8 else 1, fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0),
                  frameon=False)
