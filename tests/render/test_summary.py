"""The end-of-game summary: VP table, who an AI played, Provinces held per turn."""

from __future__ import annotations

import re

import pytest

from engine.errors import ValidationError
from service.render import render_summary
from service.render.draw import figure_bytes
from service.render.summary import HUMAN, draw_summary, summary_data
from tests.render.helpers import all_text, group, played_game, svg_root


@pytest.fixture(scope="module")
def finished():
    game = played_game("ring-5", 5, seed=9, turns=99)
    assert game.over
    return game


def test_summary_table_vps_and_ai_seats(finished):
    ai = {"Player#2": "caretaker", "Player#4": "random"}
    data = summary_data(finished, None, ai)
    assert {r.seat: r.player for r in data.rows} == {s: ai.get(s, HUMAN) for s in finished.state.players}
    final = finished.result["vp"]
    for r in data.rows:
        assert r.vp == final.get(r.seat, finished.view(None)["players"][r.seat]["vp"])
    text = all_text(svg_root(render_summary(finished, None, ai, fmt="svg")))
    assert text.count("AI: caretaker") == 1 and text.count("AI: random") == 1
    assert text.count(HUMAN) == 3 + 0  # three seats were human (column header is "Played by")
    for r in data.rows:
        assert r.name in text


def test_provinces_per_turn_series_from_history(finished):
    data = summary_data(finished, None, {})
    hist = finished.state.history
    assert data.turns[:len(hist)] == [h["turn"] for h in hist]
    for seat in finished.state.players:
        assert data.provinces[seat][:len(hist)] == [h["provinces"][seat] for h in hist]
    if data.turns[-1] != hist[-1]["turn"]:  # the game ended mid-turn: the final board is the last point
        assert data.turns[-1] == finished.state.turn
    root = svg_root(figure_bytes(draw_summary(data), "svg"))
    for n in range(1, 6):
        assert group(root, f"series-{n}") is not None


def test_result_in_the_title(finished):
    text = all_text(svg_root(render_summary(finished, None, fmt="svg")))
    assert f"turn {finished.result['turn']}" in text


def test_unknown_ai_seat_is_rejected(finished):
    with pytest.raises(ValidationError) as err:
        render_summary(finished, None, {"Player#42": "random"})
    assert err.value.field == "ai_seats"


def test_summary_of_a_game_in_progress():
    game = played_game("ring-3", 3, seed=1, turns=0)
    text = all_text(svg_root(render_summary(game, "Player#1", fmt="svg")))
    assert "in progress" in text


def test_a_team_games_summary_names_the_winning_team_and_lists_the_teams_in_order():
    from agents.heuristic import HeuristicAgent
    from agents.runner import finish
    from engine.protectors.game import Game

    g = finish(Game({"board": "ring-8-grand", "seed": 1, "options": {"teams": True},
                     "players": [{"seat": f"Player#{i}", "team": "NS"[i % 2]} for i in range(1, 5)]}),
               {f"Player#{i}": HeuristicAgent(i) for i in range(1, 5)})
    assert g.state.result["how"] == "times_up" and g.state.result["winner"] == "S"
    s = summary_data(g, None, {"Player#2": "strong, caretaker"}, public=True)
    assert s.title.startswith("Time's Up!: team S - turn")
    teams = {"S": "Team S", "N": "Team N"}  # a team that says "Team" itself is not told "team Team S"
    for p in g.state.players.values():
        p.team = teams[p.team]
    g.state.result["winner"] = "Team S"
    assert summary_data(g, None, {}, public=True).title.startswith("Time's Up!: Team S - turn")
    for p in g.state.players.values():
        p.team = p.team.removeprefix("Team ")
    g.state.result["winner"] = "S"
    assert s.subtitle.endswith("team VPs: S 8, N 2")
    assert [r.team for r in s.rows] == ["S", "S", "N", "N"]  # the winning team on top
    text = all_text(svg_root(figure_bytes(draw_summary(s), "svg")))
    assert "[S]" in text and "AI: strong, caretaker" in text  # whole: the column cut it to "AI: strong, care…"


def _x_extent(el) -> float:
    """The width, in SVG units, of the paths under ``el`` (matplotlib writes a series as ``M x y L x y ...``)."""
    xs = [float(x) for path in el.iter("{http://www.w3.org/2000/svg}path")
          for x in re.findall(r"[ML]\s*(-?[0-9.]+)\s+-?[0-9.]+", path.get("d", ""))]
    return max(xs) - min(xs) if xs else 0.0


@pytest.mark.parametrize("turns", [1, 3])
def test_the_power_threshold_is_drawn_after_one_turn_too(turns):
    # a game brought in at a position has one finished turn on its first summary: the threshold line had no width
    game = played_game("ring-3", 3, seed=1, turns=turns)
    data = summary_data(game, None, {})
    assert len(data.dpl_turns) == turns
    root = svg_root(figure_bytes(draw_summary(data), "svg"))
    line = group(root, "threshold-series")
    assert line is not None and _x_extent(line) > 0
    # counts are whole numbers from 0: one turn's flat values drew an axis of 0.96 .. 1.04
    labels = all_text(root).split()
    assert "0" in labels and not [t for t in labels if re.fullmatch(r"-?[0-9]+\.[0-9]+", t)], labels
    # counts are whole numbers from 0: one turn's flat values drew an axis of 0.96 .. 1.04
    labels = all_text(root).split()
    assert "0" in labels and not [t for t in labels if re.fullmatch(r"-?[0-9]+\.[0-9]+", t)], labels


def player_cells(fig) -> list[list[str]]:
    """Each row's Player cell as drawn, its lines top to bottom (a row's lines lie from its number's line down to the
    next row's)."""
    table = next(ax for ax in fig.axes if any(t.get_text() == "Played by" for t in ax.texts))
    name_x = next(t.get_position()[0] for t in table.texts if t.get_text() == "Player")
    tops = sorted((t.get_position()[1] for t in table.texts if t.get_position()[0] == 0.3 and t.get_text() != "#"),
                  reverse=True)
    lines = [t for t in table.texts if t.get_position()[0] == name_x and t.get_text() != "Player"]
    return [[t.get_text() for t in sorted(lines, key=lambda t: -t.get_position()[1])
             if below < t.get_position()[1] <= top + 1e-9] for top, below in zip(tops, [*tops[1:], -1.0], strict=True)]


@pytest.mark.parametrize("seats", [2, 7, 10, 16])
def test_a_long_name_is_whole_in_its_rows_lines_with_its_team_and_out(seats):
    # at 16 seats a 32-character name was cut to a few characters ("Wilh… [The B…ches] (out)"), its team and "(out)"
    # kept: the table's reader could not tell who the seat was
    from service.render.panel import width
    from service.render.summary import Summary, SummaryRow
    from service.render.summary_table import table_layout

    names = ["Wilhelmina-Augusta von Hohenzoll", "M" * 32, "Zoë Kowalczyk-Brzęczyszczykiewicz", "Bo",
             "Oluwaseun Adebayo-Williams", "W" * 32, *RTL]
    rows = [SummaryRow(seat=f"Player#{i}", number=i, name=names[i % len(names)], colour="#336699",
                       player=HUMAN if i % 3 else "steward -> steward-search", vp=0, provinces=0, units=0,
                       eliminated=i % 2 == 0, realm=None, team=f"Team {i % 4}")
            for i in range(1, seats + 1)]
    summary = Summary(title="t", subtitle="s", gm=False, rows=rows, turns=[], provinces={}, vp={})
    fig = draw_summary(summary)
    layout = table_layout(summary)
    room = layout.played_x - 0.6 - 0.1 + 1e-9  # the Player column, up to Played by's gap
    for r, lines in zip(rows, player_cells(fig), strict=True):
        tail = f"[{r.team}]" + (" (out)" if r.eliminated else "")
        told = re.sub("[\u200e\u200f]", "", " ".join(lines))  # as drawn: a right-to-left name is marked so
        assert "\u2026" not in told  # nothing cut ...
        assert told.replace(" ", "") == (r.name + tail).replace(" ", "")  # ... the name whole, then its team, "(out)"
        assert all(width(line, layout.size) <= room for line in lines), lines  # each line in its column
        assert len(lines) <= 3
    _no_text_outside_or_over_another(fig)


def test_a_name_too_long_even_for_three_lines_is_cut_then_keeps_its_team_and_out():
    from service.render.summary_table import name_lines

    lines = name_lines("A" * 150, ["[North]", "(out)"], 8.5)
    assert len(lines) == 4 and lines[2].endswith("\u2026") and lines[3] == "[North] (out)"
    assert name_lines("Bo", ["[North]", "(out)"], 8.5) == ["Bo [North] (out)"]


def test_long_team_names_stay_inside_the_summary_and_apart():
    from engine.protectors.game import Game

    # a team's name has no length limit: the subtitle's team VPs ran off the picture, and a long team after a name
    # left no room, so the cell was cut whole (the team and "(out)" lost again)
    teams = ["The Brotherhood of the Northern Marches and Isles " + x for x in "ABCD"]
    game = Game({"board": "ring-8", "seed": 2, "options": {"teams": True},
                 "players": [{"name": "W" * 32, "team": teams[i // 2]} for i in range(8)]})
    fig = draw_summary(summary_data(game, None, {}))
    renderer = fig.canvas.get_renderer()
    drawn = [*fig.texts, *(t for ax in fig.axes for t in ax.texts)]
    for t in drawn:  # every text inside the picture
        bb = t.get_window_extent(renderer)
        assert bb.x0 >= 0 and bb.x1 <= fig.bbox.width, (t.get_text(), bb.x1, fig.bbox.width)
    cells = [" ".join(lines) for lines in player_cells(fig)]
    assert len(cells) == 8 and sorted(c[-2] for c in cells) == sorted("AABBCCDD"), cells  # each team told apart
    assert re.search(r"team VPs: (.*Isles [ABCD] \d+(, |$)){4}", fig.texts[1].get_text())  # every team's VPs


def test_a_finished_games_board_says_how_it_ended_and_who_won_as_its_summary_does():
    # the board's title said only "(game over)": a GM posting the last board had to post the summary to say who won
    from agents.heuristic import HeuristicAgent
    from agents.runner import finish
    from engine.protectors.game import Game
    from service.render import board_scene

    g = finish(Game({"board": "ring-8-grand", "seed": 1, "options": {"teams": True},
                     "players": [{"seat": f"Player#{i}", "team": "NS"[i % 2]} for i in range(1, 5)]}),
               {f"Player#{i}": HeuristicAgent(i) for i in range(1, 5)})
    told = summary_data(g, None, {}, public=True).title.rsplit(" - turn", 1)[0]
    assert told == "Time's Up!: team S"
    for view in ("channel", "gm"):
        for scene in (board_scene(g, None, view=view), board_scene(g, None, turn=g.state.turn, view=view)):
            assert scene.title.endswith("(game over)") and scene.subtitle.startswith(f"{told} - ring-8-grand")


def test_a_finished_games_title_and_subtitle_stay_left_of_the_ranking():
    # the outcome in the title ran into "Protector Ranking (best first)" on a 10-seat Grand board (h67)
    from agents.registry import make_agent
    from agents.runner import play_game
    from service.render import board_scene
    from service.render.labels import MARGIN
    from service.render.panel import build_panel, width

    g = play_game({"board": "ring-10-grand", "seed": 3, "players": [{"name": "W" * 32}, *({} for _ in range(9))]},
                  {f"Player#{i}": make_agent("random", i) for i in range(1, 11)})
    assert g.over
    scene = board_scene(g, None, view="channel")
    panel = build_panel(scene)
    ranking = next(t for t in panel.texts if t.key == "ranking")
    for key in ("title", "subtitle"):
        item = next(t for t in panel.texts if t.key == key)
        assert item.x + width(item.text, item.size, item.weight) <= ranking.x - MARGIN + 1e-6, (key, item.text)


def _cli_labels() -> list[str]:
    """Every label regent names an AI seat's agent by (a level and the agent it resolved to, an agent by its own
    name, a policy checkpoint, the rulebook's default), and the lists the summary gets for a seat with several."""
    from service.ai import DIFFICULTIES, RULEBOOK_DEFAULT, agent_label, agent_names

    one = sorted({agent_label(a, lv) for lv, agents in DIFFICULTIES.items() for a in agents}
                 | set(agent_names()) | {RULEBOOK_DEFAULT, "policy:checkpoints/v7.pt", "recurrent:checkpoints/r1.pt"},
                 key=lambda t: (-len(t), t))
    return [*one, ", ".join(one[:2]), ", ".join(one[2:5])]


def _label_lists():
    """Every label the CLI can produce in lists of 2 to 4: every ordered pair, and each label at each place of a list
    of 3 and of 4 among others (the first carries ``AI: ``, every one but the last its comma)."""
    one = [t for t in _cli_labels() if ", " not in t]
    yield from ([a, b] for a in one for b in one if a != b)
    for n in (3, 4):
        for i, label in enumerate(one):
            for at in range(n):
                others = [one[(i + 1 + 7 * k) % len(one)] for k in range(n - 1)]
                yield [*others[:at], label, *others[at:]]


@pytest.mark.parametrize("size", [9.5, 8.5])  # the table's two sizes (up to 10 seats, more)
def test_a_label_that_fits_a_line_of_its_own_is_never_broken_after_its_arrow(size):
    # "AI: steward -> steward-search," (2.002 in with its comma) in a 2.0 in column came out as "AI: steward ->" over
    # "steward-search,": broken after its arrow though the label fits a line whole
    from service.render.panel import width
    from service.render.summary_table import PLAYED_INCHES, played_lines

    for labels in _label_lists():
        told = ["AI: " * (i == 0) + t + "," * (i < len(labels) - 1) for i, t in enumerate(labels)]
        lines = played_lines("AI: " + ", ".join(labels), size)
        for label in told:  # every one fits a line of its own (the column is that wide), so it is on one, whole
            assert width(label, size) <= PLAYED_INCHES, label
            assert any(label in re.split(r"(?<=,) ", line) for line in lines), (label, lines)


RTL = ("\u05e9\u05de\u05d5\u05d0\u05dc \u05d1\u05df \u05d3\u05d5\u05d3 \u05d4\u05db\u05d4\u05df \u05de\u05d9\u05e8"
       "\u05d5\u05e9\u05dc\u05d9\u05dd", "\u0645\u062d\u0645\u062f \u0639\u0628\u062f \u0627\u0644\u0631\u062d\u0645"
       "\u0646 \u0627\u0644\u0647\u0627\u0634\u0645\u064a")


def _summary(seats: int, labels: list[str], teams: bool, gm: bool = True):
    from service.render.palette import seat_colour
    from service.render.summary import Summary, SummaryRow

    names = ["Wilhelmina-Augusta von Hohenzoll", *RTL, "M" * 32, "Bo", "Ragnhild Sigurdsdottir-Larsen"]
    rows = [SummaryRow(seat=f"Player#{i}", number=i, name=names[i % len(names)], colour=seat_colour(i - 1),
                       player=labels[i % len(labels)] if i % 5 else HUMAN, vp=30 - i, provinces=12 - i % 12,
                       units=25, eliminated=i % 4 == 0, realm=1234 if gm else None,
                       team=("North", "The Brotherhood of the Southern Isles")[i % 2] if teams else None)
            for i in range(1, seats + 1)]
    turns = list(range(1, 10))
    series = {r.seat: [r.vp * t // 9 for t in turns] for r in rows}
    return Summary(title="Time's Up!: team North - turn 9", subtitle="ring - GM view", gm=gm, rows=rows, turns=turns,
                   provinces=series, vp=series, dpl_turns=turns, dpl=[5 * t for t in turns], threshold=[40] * 9)


def _no_text_outside_or_over_another(fig):
    """Every text of ``fig`` inside it and clear of every other (matplotlib's own extents); the renderer and texts."""
    renderer, drawn = _drawn_texts(fig)
    inside = fig.bbox
    for t, bb in drawn:
        assert inside.x0 <= bb.x0 and bb.x1 <= inside.x1 and inside.y0 <= bb.y0 and bb.y1 <= inside.y1, t.get_text()
    for i, (a, ba) in enumerate(drawn):
        for b, bb in drawn[i + 1:]:
            lap_x, lap_y = min(ba.x1, bb.x1) - max(ba.x0, bb.x0), min(ba.y1, bb.y1) - max(ba.y0, bb.y0)
            assert lap_x <= 0.5 or lap_y <= 0.5, (a.get_text(), b.get_text())
    return renderer, drawn


def _drawn_texts(fig):
    from matplotlib.text import Text

    renderer = fig.canvas.get_renderer()
    fig.draw(renderer)
    return renderer, [(t, t.get_window_extent(renderer)) for t in fig.findobj(Text)
                      if t.get_visible() and t.get_text().strip() and t.figure is fig]


@pytest.mark.parametrize(("seats", "teams", "gm"), [(2, False, True), (5, True, False), (8, True, True),
                                                    (10, False, True), (11, True, True), (16, True, True)])
def test_every_ai_label_is_whole_and_no_text_overlaps_another(seats, teams, gm):
    # "AI: steward -> steward-search" was cut to "AI: steward -> st…" by a 1.15 in column; wrapped, its rows ran
    # under the VP chart, whose place was worked out from the row count
    from service.render.panel import width
    from service.render.summary_table import PLAYED_INCHES, PLAYED_X, table_layout

    labels = _cli_labels()
    for start in range(0, len(labels), seats):  # every label, in a table of ``seats`` rows
        summary = _summary(seats, labels[start:] + labels[:start], teams, gm)
        fig = draw_summary(summary)
        renderer, drawn = _no_text_outside_or_over_another(fig)
        table = next(ax for ax in fig.axes if any(t.get_text() == "Played by" for t in ax.texts))
        layout = table_layout(summary)
        played_x = layout.played_x  # right of PLAYED_X when the labels are short, ending before VP all the same
        assert played_x >= PLAYED_X and played_x + max(width(t, layout.size) for c in layout.played for t in c) < 4.4
        cells = sorted((t for t in table.texts if t.get_position()[0] == played_x and t.get_text() != "Played by"),
                       key=lambda t: -t.get_position()[1])
        told = [r.player if r.player == HUMAN else f"AI: {r.player}" for r in summary.rows]
        # each whole (a path may break after its "/"), in its row's order
        assert "".join(t.get_text() for t in cells).replace(" ", "") == "".join(told).replace(" ", "")
        assert all(width(t.get_text(), t.get_fontsize()) <= PLAYED_INCHES for t in cells)
        # each row's swatch beside its own row: its number's line, above the row after it
        numbers = {t.get_text(): t for t in table.texts if t.get_position()[0] == 0.3}
        tops = [numbers[str(r.number)].get_position()[1] for r in summary.rows]
        for r, top, below in zip(summary.rows, tops, [*tops[1:], 0.0], strict=True):
            sw = next(p for p in table.patches if p.get_gid() == f"swatch-{r.number}")
            assert below < sw.get_y() < sw.get_y() + sw.get_height() < top
        vp = [ax for ax in fig.axes if ax.get_title(loc="left") == "Victory Points after each turn"]
        if vp:  # the VP chart under the table's last line
            lowest = min(bb.y0 for t, bb in drawn if t.axes is table)
            assert vp[0].get_tightbbox(renderer).y1 < lowest
        assert vp  # every table has it: wrapped rows grow the picture (past 10 seats it was left out)


def test_a_played_by_cell_too_long_for_its_lines_ends_with_an_ellipsis_after_a_whole_word():
    from service.render.summary_table import PLAYED_LINES, played_lines

    many = "AI: " + ", ".join(["expert -> search", "normal -> heuristic", "steward -> steward-search"] * 3)
    lines = played_lines(many, 9.5)
    assert len(lines) == PLAYED_LINES and lines[-1].endswith(" \u2026")
    assert many.startswith(" ".join(lines)[:-2])  # words, each whole, then the ellipsis
    # never a level without its agent before the ellipsis: "fair -> caretaker, hard -> …"
    pairs = "AI: " + ", ".join(["fair -> caretaker", "hard -> ppo", "expert -> heuristic"] * 2)
    lines = played_lines(pairs, 9.5)
    assert len(lines) == PLAYED_LINES and lines[-1].endswith(" \u2026") and "->" not in lines[-1].split()[-2], lines
    # one word wider than the column: broken after its "/", a piece still wider cut in its middle (both ends kept)
    path = "AI: policy:checkpoints/" + "x" * 150 + "/v7.pt"
    (cut,) = played_lines("x" * 150 + "/", 9.5)
    assert played_lines(path, 9.5) == ["AI: policy:checkpoints/", cut, "v7.pt"]
    assert cut.startswith("xxx") and cut.endswith("x/") and "\u2026" in cut


def test_teams_that_differ_only_in_their_middle_are_told_apart_in_the_table_and_the_subtitle():
    from engine.protectors.game import Game

    # "The Brotherhood of the Northern Marches" and "... Southern Marches" were both "[The B…ches]" after every name
    # and "The Brot…Marches 8, The Brot…Marches 6" in the team VPs: no reader could tell the teams apart
    teams = [f"The Brotherhood of the {x} Marches" for x in ("Northern", "Southern", "Eastern", "Western")]
    game = Game({"board": "ring-16-grand", "seed": 2, "options": {"teams": True},
                 "players": [{"name": f"Player {i}", "team": teams[i % 4]} for i in range(16)]})
    data = summary_data(game, None, {})
    fig = draw_summary(data)
    tags = {}
    for r, lines in zip(data.rows, player_cells(fig), strict=True):
        tag = re.search(r"\[(.*)\]", " ".join(lines)).group(1)
        tags.setdefault(r.team, set()).add(tag)
    assert all(len(t) == 1 for t in tags.values()) and len(set.union(*tags.values())) == 4, tags
    for team, (tag,) in tags.items():
        assert tag.strip("\u2026") in team  # a piece of the team's own name
    said = re.search(r"team VPs: (.*)$", fig.texts[1].get_text()).group(1)
    assert len({re.sub(r" \d+$", "", x) for x in said.split(", ")}) == 4, said
