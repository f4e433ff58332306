"""The end-of-game summary picture: VP table, who an AI played, Provinces held per turn, and the
Dragon's DPL after each turn against the Power Threshold.

Built from ``game.view(seat)`` plus the per-turn history the engine appends after each
Consolidation (Provinces held and VPs per seat, both public: anyone can count them on the board),
and the DPL at each turn's end from one replay of the game (:func:`service.render.replay.turn_ends`;
the DPL and threshold are public). $Realm appears only in the GM's summary; the channel's
(``public``) shows what every player may see.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from engine.errors import ValidationError
from service.render.glyphs import drawable_text
from service.render.palette import DRAGON, INK, seat_colour
from service.render.scene import display_names, outcome
from service.render.summary_table import HUMAN, TableLayout, draw_table, table_layout

MARKERS = "osD^vP*Xhp<>d8H1"  # a different marker per seat, so lines differ without colour
DRAGON_CHART_INCHES = 1.5
VP_CHART_GAP = 0.9  # inches from the table's last row to the VP chart's axes (its title between)
VP_CHART_LEAST = 1.05  # the VP chart's least height: every table has it under its last line, the figure grown
CHART_BOTTOM = 0.55  # inches under the charts' axes (their turn axis)
CHART_LEFT = 6.9  # the Provinces' and the Dragon's charts start here, right of the table (summary_table.WIDE)
SUBTITLE_TEAM_INCHES = 1.4  # the same in the subtitle's team VPs


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
    team: str | None = None


@dataclass(frozen=True)
class Summary:
    title: str
    subtitle: str
    gm: bool
    rows: list[SummaryRow]
    turns: list[int]
    provinces: dict[str, list[int]]  # seat -> Provinces held after each turn in ``turns``
    vp: dict[str, list[int]]  # seat -> VPs after each turn in ``turns``
    dpl_turns: list[int] = field(default_factory=list)  # turns whose end the DPL series has
    dpl: list[int] = field(default_factory=list)  # the Dragon's DPL at the end of each of dpl_turns
    threshold: list[int] = field(default_factory=list)  # the Power Threshold then


def _result_text(view: dict[str, Any], numbers: dict[str, int], names: dict[str, str]) -> str:
    res = view.get("result")
    if not res:
        return f"Game in progress - turn {view['turn']}"
    return f"{outcome(res, bool(view['options'].get('teams')), names, numbers)} - turn {res['turn']}"


def _team_totals(players: dict[str, Any], vp: dict[str, int]) -> dict[str, int]:
    """Team -> the VPs of its seats still in the game, most first (rules: 003 Team Games, Time's Up!: "Add
    the VPs from each team member together"; the engine's own table, when the game ended so, wins)."""
    out: dict[str, int] = {}
    for s, p in players.items():
        if p.get("team") is not None:
            out[str(p["team"])] = out.get(str(p["team"]), 0) + (0 if p["eliminated"] else vp[s])
    return dict(sorted(out.items(), key=lambda kv: -kv[1]))


def dpl_series(game: Any) -> tuple[list[int], list[int], list[int]]:
    """``(turns, DPL, Power Threshold)`` at the end of each finished turn (one replay of the game),
    then the final board's if the game ended inside a turn (rules: 003 Dragon's Power Level)."""
    from service.render.replay import turn_ends

    turns, dpl, threshold = [], [], []
    for turn, snapshot in turn_ends(game):
        turns.append(turn)
        dpl.append(int(snapshot.state.dpl))
        threshold.append(int(snapshot.view(None)["power_threshold"]))
    if game.over and (not turns or turns[-1] < game.state.turn):
        turns.append(game.state.turn)
        dpl.append(int(game.state.dpl))
        threshold.append(int(game.view(None)["power_threshold"]))
    return turns, dpl, threshold


def summary_data(game: Any, seat: str | None, ai_seats: dict[str, str], public: bool = False) -> Summary:
    """The summary as ``seat`` sees it (None: the GM; ``public``: what every player may see)."""
    view = game.view(seat)
    players = view["players"]
    if not isinstance(ai_seats, dict) or any(s not in players for s in ai_seats):
        unknown = sorted(set(ai_seats) - set(players)) if isinstance(ai_seats, dict) else ai_seats
        raise ValidationError("ai_seats", f"must map known seats to agent names; unknown: {unknown}")
    gm = "you" not in view and not public
    numbers = {s: i + 1 for i, s in enumerate(players)}
    names = display_names(players)  # as the text reports name them, in what the pictures' font can draw
    final_vp = (view.get("result") or {}).get("vp", {})
    rows = [SummaryRow(seat=s, number=numbers[s], name=names[s], colour=seat_colour(i),
                       player=str(ai_seats.get(s, HUMAN)), vp=int(final_vp.get(s, p["vp"])),
                       provinces=p["provinces"], units=p["units"], eliminated=p["eliminated"],
                       realm=p.get("realm") if gm else None,
                       team=str(p["team"]) if view["options"].get("teams") and p.get("team") is not None else None)
            for i, (s, p) in enumerate(players.items())]
    teams: dict[str, int] = {}
    if view["options"].get("teams"):
        teams = _team_totals(players, {r.seat: r.vp for r in rows})
        table = (view.get("result") or {}).get("table")
        if table:  # Time's Up!: the sides as the engine counted them (its option on eliminated members' VPs)
            teams = {str(t["side"]): int(t["vp"]) for t in table}
    place = {t: i for i, t in enumerate(teams)}
    # a team game lists the teams in their order (the winning team first), each seat under its team
    rows.sort(key=lambda r: (place.get(str(players[r.seat].get("team")), len(place)), r.eliminated, -r.vp,
                             -r.provinces, r.number))
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
    who = "GM view" if gm else ("public view" if "you" not in view else f"{names[view['you']]}'s view")
    board = view["board"] if isinstance(view["board"], str) else view["board"].get("name", "custom")
    dpl_turns, dpl, threshold = dpl_series(game)
    subtitle = f"{board} - {len(players)} seats - {who}"
    if teams:
        from service.render.panel import team_labels

        told = team_labels(teams, 10.0, SUBTITLE_TEAM_INCHES)  # cut, the teams told apart
        subtitle += " - team VPs: " + ", ".join(f"{told[t]} {v}" for t, v in teams.items())
    return Summary(title=_result_text(view, numbers, names), subtitle=subtitle,
                   gm=gm, rows=rows, turns=turns, provinces=provinces, vp=vp, dpl_turns=dpl_turns, dpl=dpl,
                   threshold=threshold)


def draw_summary(summary: Summary):
    from service.render.draw import FIG_W, new_figure
    from service.render.panel import cut

    layout = table_layout(summary)
    height = layout.height(6.2 if len(summary.rows) <= 10 else 7.4)
    # wrapped rows (a long name, several AIs) take the VP chart's room: the picture grows instead
    height = max(height, layout.end + VP_CHART_GAP + VP_CHART_LEAST + CHART_BOTTOM)
    fig = new_figure(FIG_W, height)
    # title and subtitle within the picture: a team's name (any length) is in both
    fig.text(0.15 / FIG_W, 1 - 0.12 / height, drawable_text(cut(summary.title, 15.0, FIG_W - 0.3, "bold")),
             ha="left", va="top", fontsize=15, weight="bold", color=INK, gid="title", parse_math=False)
    fig.text(0.15 / FIG_W, 1 - 0.45 / height, drawable_text(cut(summary.subtitle, 10.0, FIG_W - 0.3)), ha="left",
             va="top", fontsize=10, color="#444444", parse_math=False)
    draw_table(fig, summary, layout, height)
    _chart(fig, summary, layout, height)
    return fig


def _chart(fig, summary: Summary, layout: TableLayout, height: float) -> None:
    from service.render.draw import FIG_W

    left = CHART_LEFT
    right = 1.75 if len(summary.rows) > 8 else 1.3  # room for the legend (two columns past 8 seats)
    dragon_h = DRAGON_CHART_INCHES
    bottom = CHART_BOTTOM + dragon_h + 0.8  # room for the Dragon chart's title and the chart above's axis label
    wide = (FIG_W - left - right) / FIG_W
    ax = fig.add_axes((left / FIG_W, bottom / height, wide, (height - 0.95 - bottom) / height))
    _series(ax, summary, summary.provinces, "Provinces held after each turn", "Provinces", legend=True)
    ax3 = fig.add_axes((left / FIG_W, CHART_BOTTOM / height, wide, dragon_h / height))
    _dragon(ax3, summary)
    chart_top = height - layout.end - VP_CHART_GAP  # under the table's real last line (a row may have wrapped)
    if chart_top - CHART_BOTTOM >= VP_CHART_LEAST - 1e-9:  # room under the table: VPs after each turn
        wide = CHART_LEFT - 1.4  # from under the table's numbers to clear of the Dragon chart's axis
        ax2 = fig.add_axes((0.75 / FIG_W, CHART_BOTTOM / height, wide / FIG_W, (chart_top - CHART_BOTTOM) / height))
        _series(ax2, summary, summary.vp, "Victory Points after each turn", "VP", legend=False)


def _dragon(ax, summary: Summary) -> None:
    """rules: 003 Dragon's Power Level and the Power Threshold: the DPL after each turn, and the
    threshold it is measured against (a step line: the threshold changes with the board)."""
    ax.set_title("The Dragon's DPL after each turn", fontsize=11, weight="bold", color=INK, loc="left")
    if not summary.dpl_turns:
        ax.text(0.5, 0.5, "no turn completed yet", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
        return
    ax.plot(summary.dpl_turns, summary.dpl, color=DRAGON, marker="o", markersize=5, lw=2.2, label="DPL",
            gid="dpl-series")
    # each turn's threshold over that turn's width, so one turn (a game brought in a turn ago) still draws its line
    t = summary.dpl_turns
    edges = [t[0] - 0.5, *((a + b) / 2 for a, b in pairwise(t)), t[-1] + 0.5]
    ax.stairs(summary.threshold, edges, baseline=None, color="black", lw=1.2, linestyle=(0, (4, 2)),
              label="threshold", gid="threshold-series")
    ax.set_xlabel("turn")
    ax.set_xticks(summary.dpl_turns)
    ax.set_ylim(0, max(max(summary.dpl), max(summary.threshold)) * 1.15 + 1)
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)


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
    # counts from 0, with room above: one turn's flat values gave an axis of 0.96 .. 1.04
    top = max((v for r in summary.rows for v in data.get(r.seat, [])), default=0)
    ax.set_ylim(0, max(top, 1) * 1.1 + 0.5)
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.grid(alpha=0.3)
    if legend:
        ax.legend(ncol=2 if len(summary.rows) > 8 else 1, fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0),
                  frameon=False)
