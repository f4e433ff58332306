"""Board pictures: every built-in size in SVG (and a few PNGs), checked structurally and for real
label overlaps measured by matplotlib's renderer."""

from __future__ import annotations

import re
import struct
import xml.etree.ElementTree as ET

import pytest

from engine.protectors.game import Game
from service.render import board_scene, render_board
from service.render.draw import draw_board, figure_bytes
from service.render.palette import BURNT, seat_colour
from service.render.scene import UNIT_MARK, level_text
from tests.render.helpers import (
    all_text,
    fill_of,
    group,
    label_rectangles,
    overlapping,
    played_game,
    svg_root,
    texts,
)

MAX_PNG_BYTES = 150_000


def structure_problems(root: ET.Element, view: dict) -> list[str]:
    """Everything the SVG must show of ``view``: each Province (shape and ``Pn`` label), its owner's
    colour (grey when burnt), its level ("Lv2") and its units with the holder's number."""
    seats = list(view["players"])
    problems = []
    for name, pr in view["provinces"].items():
        shape, label = group(root, f"province-{name}"), group(root, f"label-{name}")
        if shape is None or label is None:
            problems.append(f"{name}: missing")
            continue
        lines = texts(label)
        if not lines or lines[0].split()[0] != name:
            problems.append(f"{name}: label {lines}")
        want = BURNT if pr["burnt"] else seat_colour(seats.index(pr["owner"])) if pr["owner"] else None
        if want and fill_of(root, f"province-{name}") != want.lower():
            problems.append(f"{name}: fill {fill_of(root, f'province-{name}')} != {want}")
        if pr["level"] and level_text(pr["level"]) not in lines[0].split()[1:]:
            problems.append(f"{name}: level {pr['level']} not shown")
        if pr["units"]:
            holder = f"#{seats.index(pr['holder']) + 1}"
            if len(lines) < 2 or lines[1].split() != [holder, f"{UNIT_MARK}{pr['units']}"]:
                problems.append(f"{name}: units {pr['units']} of {holder} not shown ({lines})")
    return problems


def check_board(game: Game, seat=None) -> bytes:
    scene = board_scene(game, seat)
    fig, labels = draw_board(scene)
    clashes = overlapping(label_rectangles(fig, labels))
    assert clashes == [], f"labels overlap: {clashes}"
    svg = figure_bytes(fig, "svg")
    assert structure_problems(svg_root(svg), game.view(seat)) == []
    return svg


@pytest.mark.parametrize("island", [False, True], ids=["", "island"])
@pytest.mark.parametrize("grand", [False, True], ids=["normal", "grand"])
@pytest.mark.parametrize("n", range(2, 17))
def test_every_builtin_board_renders_without_label_overlaps(n, grand, island):
    board = f"ring-{n}" + ("-grand" if grand else "") + ("+island" if island else "")
    game = Game({"board": board, "seed": n, "players": n})
    svg = check_board(game)
    root = svg_root(svg)
    for seat in range(1, n + 1):  # every seat's colour swatch in the legend
        assert group(root, f"swatch-{seat}") is not None
    assert f"DPL {game.state.dpl} / Power Threshold" in all_text(root)


@pytest.mark.parametrize("board", ["ring-2", "ring-7", "ring-16-grand+island"])
def test_png_sized_for_discord(board):
    n = int(re.match(r"ring-(\d+)", board).group(1))
    game = played_game(board, n, seed=3, turns=2)
    png = render_board(game, None, fmt="png")
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    # 1200 x 800; a board of more than 20 Provinces gets a bigger board square (still Discord-sized)
    assert (width, height) == ((1200, 800) if n <= 10 else (1420, 1020))
    assert len(png) < MAX_PNG_BYTES


def test_custom_board_both_formats():
    adj = {"P1": ["P2", "P3"], "P2": ["P1", "P4"], "P3": ["P1", "P4", "P5"], "P4": ["P2", "P3", "P6"],
           "P5": ["P3", "P6"], "P6": ["P4", "P5"]}
    game = Game({"board": {"name": "Six Shires", "provinces": adj, "island": "P9"}, "seed": 2, "players": 3})
    svg = check_board(game)
    assert "Six Shires" in all_text(svg_root(svg))
    assert render_board(game, None, fmt="png")[:4] == b"\x89PNG"


def mid_game() -> Game:
    """A ring-5+island game with every kind of Province the board can show."""
    game = Game({"board": "ring-5+island", "seed": 4, "players": 5})
    st = game.state
    st.provinces["P1"].level = 3
    st.provinces["P1"].units = 3
    st.provinces["P2"].level = 1
    st.provinces["P3"].burnt = True  # rules: 003 burnt-out Provinces turn grey
    st.provinces["P3"].owner = None
    st.provinces["P3"].units = 0
    st.provinces["P4"].occupant = "Player#5"  # units of Player#5 stand in Player#4's Province
    st.provinces["P4"].units = 2
    st.provinces["P0"].owner = "Player#2"
    st.provinces["P0"].units = 1
    return game


def test_structure_shows_levels_burnt_occupants_and_the_island():
    game = mid_game()
    svg = check_board(game)
    root = svg_root(svg)
    assert texts(group(root, "label-P1")) == ["P1 Lv3", "#1 \u26943"]
    assert texts(group(root, "label-P2"))[0] == "P2 Lv1"
    assert texts(group(root, "label-P3")) == ["P3", "burnt"]
    assert fill_of(root, "province-P3") == BURNT.lower()
    assert texts(group(root, "label-P4"))[1] == "#5 \u26942"  # the holder's number, not the owner's
    assert fill_of(root, "province-P4") == seat_colour(3).lower()  # still Player#4's Province
    assert texts(group(root, "label-P0")) == ["P0", "#2 \u26941"]
    assert "Wizard Sanctum" in all_text(root)


def test_structure_check_fails_when_something_is_missing():
    """The structural check is not vacuous: dropping a Province, an owner colour or a unit count
    from the SVG is reported."""
    game = mid_game()
    view = game.view(None)
    svg = figure_bytes(draw_board(board_scene(game, None))[0], "svg").decode()
    assert structure_problems(svg_root(svg.encode()), view) == []
    no_province = svg.replace('id="label-P2"', 'id="x-P2"')
    assert structure_problems(svg_root(no_province.encode()), view) == ["P2: missing"]
    colour = seat_colour(0).lower()
    wrong_colour = svg.replace(f"fill: {colour}", "fill: #123456")
    assert any(p.startswith("P1: fill") for p in structure_problems(svg_root(wrong_colour.encode()), view))
    no_units = svg.replace("#1 \u26943", "#1")
    assert any(p.startswith("P1: units") for p in structure_problems(svg_root(no_units.encode()), view))


def test_turn_highlights_follow_the_visible_march_and_battle_events():
    game = played_game("ring-7", 7, seed=7, turns=3)
    for turn in range(1, game.state.turn):
        scene = board_scene(game, None, turn=turn)
        marches = [e for e in game.events(None) if e.turn == turn and e.kind == "march"]
        battles = [e for e in game.events(None) if e.turn == turn and e.kind == "battle"]
        assert [(a.src, a.dst, a.count) for a in scene.arrows] == [
            (e.data["src"], e.data["dst"], e.data["count"]) for e in marches]
        assert [b.province for b in scene.battles] == list(dict.fromkeys(e.data["province"] for e in battles))
        for b in scene.battles:  # one marker per Province: its last battle's winner, and how many
            fought = [e for e in battles if e.data["province"] == b.province]
            assert (b.winner, b.fights) == (fought[-1].data["winner"], len(fought))
        root = svg_root(figure_bytes(draw_board(scene)[0], "svg"))
        for e in marches:
            assert group(root, f"march-{e.data['src']}-{e.data['dst']}") is not None
        for e in battles:
            assert group(root, f"battle-{e.data['province']}") is not None
    assert any(board_scene(game, None, turn=t).battles for t in range(1, game.state.turn))


def test_svg_output_is_reproducible():
    game = mid_game()
    assert render_board(game, None, fmt="svg") == render_board(game, None, fmt="svg")


def test_gauge_names_a_dragon_attack_in_progress():
    for seed in range(1, 40):  # the first seeded game (rulebook defaults) that stops for a Dragon Attack
        game = Game({"board": "ring-4", "seed": seed, "players": 4})
        while not game.over and game.step != "dragon":
            game.advance(force=True)
        if game.step == "dragon":
            break
    assert game.step == "dragon"
    att = game.view(None)["attack"]
    text = all_text(svg_root(render_board(game, "Player#1", fmt="svg")))
    assert f"attacks now with DPL {att['dpl']}" in text


def test_png_keeps_every_seat_colour_exactly():
    """Quantising a PNG to 256 colours never shifts a seat's colour: each is in its palette, and
    the Provinces of that colour are painted with it (most of the pixels of that colour are there)."""
    import io

    from PIL import Image

    from service.render.palette import SEAT_COLOURS

    game = Game({"board": "ring-7", "seed": 7, "players": 7})  # every seat holds its start Province
    img = Image.open(io.BytesIO(render_board(game, None, fmt="png")))
    assert img.mode == "P"
    pal = img.getpalette()
    entries = {"#{:02X}{:02X}{:02X}".format(*pal[i:i + 3]) for i in range(0, len(pal), 3)}
    assert set(SEAT_COLOURS) <= entries
    rgb = img.convert("RGB")
    counts = {"#{:02X}{:02X}{:02X}".format(*c): n for n, c in rgb.getcolors(1 << 20)}
    for i in range(7):  # its colour covers a wedge
        assert counts.get(SEAT_COLOURS[i], 0) > 5000, SEAT_COLOURS[i]


def test_the_legend_shows_teams_and_factions_only_in_games_that_have_them():
    from service.render.panel import legend_cells

    plain = played_game(turns=1)
    heads, _ = legend_cells(board_scene(plain, None, view="channel"))
    assert "Team" not in heads and "Faction" not in heads
    setup = {"rules": "protectors", "board": "ring-4", "seed": 2, "options": {"teams": True, "factions": True},
             "players": [{"seat": f"Player#{i}", "team": "AB"[(i - 1) // 2], "faction": f}
                         for i, f in ((1, "Hodir"), (2, "Cenarion"), (3, "Iron Light"), (4, "Hodir"))]}
    g = Game(setup)
    for seat in g.state.players:
        g.submit(seat, "Bid 0")
    g.advance(force=True)
    heads, rows = legend_cells(board_scene(g, None, view="channel"))
    assert heads[:4] == ["#", "Player (colour)", "Team", "Faction"]
    assert {(r[0], r[2]) for r in rows} == {("1", "A"), ("2", "A"), ("3", "B"), ("4", "B")}
    assert {r[0]: r[3] for r in rows}["3"] == g.state.players["Player#3"].faction


def test_a_cut_name_in_the_legend_keeps_its_colour():
    from service.render.panel import build_panel

    # 16 seats of 32-character names, factions, teams and $Realm: the Player column is cut, and the colour players
    # name the seat by in their DMs went with the name's tail
    players = [{"name": ch * 32, "team": f"T{i % 8}", "faction": "Hodir"} for i, ch in enumerate("MWiAbcdefghijklm")]
    game = Game({"board": "ring-16-grand", "seed": 1, "options": {"teams": True, "factions": True},
                 "players": players})
    scene = board_scene(game, None)
    cells = {t.key: t.text for t in build_panel(scene).texts if t.key.startswith("legend-") and t.key.endswith("-1")}
    assert len(cells) == 16
    for r in scene.seats:
        cell = cells[f"legend-{r.number}-1"]
        assert cell.endswith(f"\u2026 ({r.colour_name})") or cell == f"{r.name} ({r.colour_name})", cell
    assert sum("\u2026" in c for c in cells.values()) >= 8  # the wide names were cut


def test_the_legend_fits_the_panel_whatever_the_teams_are_called():
    from itertools import pairwise

    from service.render.labels import MARGIN, figure_size
    from service.render.panel import build_panel, width

    # a team's name has no length limit: four long ones pushed Br and $Realm off the GM's picture
    teams = [f"The Team Of Many Words {i}" for i in range(4)]
    players = [{"name": ch * 32, "team": teams[i % 4], "faction": "Hodir"} for i, ch in enumerate("MWiAbcdefghijklm")]
    game = Game({"board": "ring-16-grand+island", "seed": 1, "options": {"teams": True, "factions": True},
                 "players": players})
    scene = board_scene(game, None)
    panel = build_panel(scene)
    right = figure_size(scene.layout.inches)[0] - MARGIN
    legend = [t for t in panel.texts if t.kind == "legend"]
    assert any(t.text == "$Realm" for t in legend)
    assert all(t.x + width(t.text, t.size, t.weight) <= right + 1e-6 for t in legend), max(
        (t.x + width(t.text, t.size, t.weight), t.text) for t in legend)
    for row in {t.key.rsplit("-", 1)[0] for t in legend}:  # each cell ends before the next one starts
        cells = sorted((t for t in legend if t.key.rsplit("-", 1)[0] == row), key=lambda t: t.x)
        assert all(a.x + width(a.text, a.size, a.weight) < b.x for a, b in pairwise(cells)), row
    team_col = next(t.key.rsplit("-", 1)[1] for t in legend if t.text == "Team")
    shown = {t.text for t in legend if t.key.startswith("legend-") and t.key.endswith(f"-{team_col}")}
    assert len(shown) == 4  # cut, the four teams are still told apart


MARCHES = [f"The Brotherhood of the {x} Marches" for x in ("Northern", "Southern", "Eastern", "Western")]


def test_teams_that_differ_only_in_their_middle_stay_apart_and_every_colour_stays_whole():
    from service.render.labels import MARGIN, figure_size
    from service.render.panel import build_panel, width

    # the GM's 16-seat picture with teams, factions and $Realm: four teams cut in their middle were all "The…ches",
    # and a short name's colour was cut with it ("Bo (light gre…", "Mei Lin Zho…" without its colour)
    names = ["Wilhelmina-Augusta von Hohenzoll", "Ragnhild Sigurdsdottir-Larsen", "M" * 32, "Bo",
             "Oluwaseun Adebayo-Williams", "Marguerite de Valois-Angoulême", "Ty", "Chidi Okonkwo the Younger", "Ana",
             "Jun", "Ines Fernández de Córdoba", "Lars", "Mei Lin Zhou-Harrington", "Kai", "Sam", "Zoë Kowalczyk"]
    players = [{"name": n, "team": MARCHES[i % 4], "faction": ("Iron Light", "Lannuvár", "Kalu'Ak", "Hodir")[i % 4]}
               for i, n in enumerate(names)]
    game = Game({"board": "ring-16-grand+island", "seed": 3, "options": {"teams": True, "factions": True},
                 "players": players})
    for view in ("gm", "channel"):
        scene = board_scene(game, None, view=view)
        panel = build_panel(scene)
        legend = [t for t in panel.texts if t.kind == "legend"]
        right = figure_size(scene.layout.inches)[0] - MARGIN
        assert all(t.x + width(t.text, t.size, t.weight) <= right + 1e-6 for t in legend)
        team_col = next(t.key.rsplit("-", 1)[1] for t in legend if t.text == "Team")
        teams = {r.number: r.team for r in scene.seats}
        shown = {int(t.key.split("-")[1]): t.text for t in legend
                 if t.key.startswith("legend-") and t.key.endswith(f"-{team_col}")}
        assert len(set(shown.values())) == 4, shown  # four teams, four labels ...
        assert len({(teams[n], shown[n]) for n in shown}) == 4  # ... each team always the same one
        for r in scene.seats:
            cell = next(t.text for t in legend if t.key == f"legend-{r.number}-1")
            assert cell.endswith(f" ({r.colour_name})"), (view, cell)  # the colour whole, whatever the name's cut
