"""Labels never overlap, checked on the label model (service/render/labels.py, panel.py): Province
labels (whose lines hold the level mark and the holder's seat number), battle boxes, march counts,
legend entries and every other panel text, on 2-, 7- and 16-seat boards (Grand and the Island
too), in the GM, channel and seat views. A second test shows the model is the picture: each drawn
text's real extent, measured by matplotlib's renderer, is its model box."""

from __future__ import annotations

import numpy as np
import pytest

from service.render import board_scene
from service.render.draw import draw_board
from service.render.labels import MARGIN, board_texts, box, figure_size, overlaps
from service.render.panel import build_panel
from tests.render.helpers import label_rectangles, played_game

# (board, seats, seed, turn): seeded random games with battles (and sea moves) in the turn shown
GAMES = [("ring-2", 2, 7, 1), ("ring-7", 7, 7, 2), ("ring-7+island", 7, 9, 5), ("ring-16", 16, 4, 6),
         ("ring-16-grand", 16, 9, 5), ("ring-16-grand+island", 16, 9, 5), ("ring-16-grand+island", 16, 4, 6)]
VIEWS = [("gm", None), ("channel", None), ("seat", "Player#2")]
_cache: dict = {}


def game_of(board, seats, seed, turn):
    key = (board, seats, seed)
    if key not in _cache:
        _cache[key] = played_game(board, seats, seed=seed, turns=turn, names=True)
    return _cache[key]


def items_of(scene):
    return board_texts(scene) + build_panel(scene).texts


def scene_of(board, seats, seed, turn, view, seat):
    game = game_of(board, seats, seed, turn)
    return board_scene(game, seat, turn=min(turn, game.state.turn), view=view)


@pytest.mark.parametrize(("view", "seat"), VIEWS, ids=[v for v, _ in VIEWS])
@pytest.mark.parametrize(("board", "seats", "seed", "turn"), GAMES, ids=[f"{g[0]}-s{g[2]}" for g in GAMES])
def test_no_two_labels_overlap(board, seats, seed, turn, view, seat):
    scene = scene_of(board, seats, seed, turn, view, seat)
    items = items_of(scene)
    assert len({it.key for it in items}) == len(items)
    assert overlaps(items) == []
    kinds = {it.kind for it in items}
    assert {"province", "legend", "panel"} <= kinds
    width, height = figure_size(scene.layout.inches)
    for it in items:  # and every label is on the picture: board labels on the board square
        corners = box(it)
        assert corners.min() >= 0 and corners[:, 0].max() <= width and corners[:, 1].max() <= height, it.key
        if it.kind in ("province", "battle", "count"):
            assert corners.max() <= MARGIN + scene.layout.inches + 1e-9, it.key
        if it.kind == "legend":  # legend entries stay in the panel, right of the board
            assert corners[:, 0].min() >= 2 * MARGIN + scene.layout.inches, it.key


def test_the_games_have_battles_long_names_and_sea_moves():
    """The boards above are busy ones: otherwise the test above would prove little."""
    scenes = [scene_of(*g, "gm", None) for g in GAMES]
    assert all(s.battles for s in scenes)
    assert any(a.sea for s in scenes for a in s.arrows)
    assert any(len(r.name) >= 16 for s in scenes for r in s.seats)
    assert any(s.layout.rotation for s in scenes)  # radial labels on the 32-Province boards


def test_overlap_check_is_not_vacuous():
    """Moving one label onto another, or widening a legend column into the next, is caught."""
    from dataclasses import replace

    scene = scene_of(*GAMES[1], "gm", None)
    items = items_of(scene)
    label = next(it for it in items if it.key == "label-P3")
    battle = next(it for it in items if it.kind == "battle")
    moved = [replace(it, x=label.x, y=label.y) if it is battle else it for it in items]
    assert (label.key, battle.key) in overlaps(moved) or (battle.key, label.key) in overlaps(moved)
    name = next(it for it in items if it.key == "legend-1-1")
    longer = name.text + " and all the Wolfgangs of Wolfsburg"
    long_name = [replace(it, text=longer) if it is name else it for it in items]
    assert any(name.key in pair for pair in overlaps(long_name))


@pytest.mark.parametrize(("board", "seats", "seed", "turn"), [GAMES[1], GAMES[5]], ids=["ring-7", "ring-16-grand"])
def test_model_boxes_are_the_drawn_boxes(board, seats, seed, turn):
    """What the overlap test checks is what gets drawn: every text artist of the picture is a model
    item, and its extent measured by the renderer (box included) is the model's box within a pixel."""
    scene = scene_of(board, seats, seed, turn, "gm", None)
    items = {it.key: it for it in items_of(scene)}
    fig, artists = draw_board(scene)
    assert set(artists) == set(items)
    drawn = [t for t in fig.findobj(lambda a: type(a).__name__ == "Text") if t.get_text()]
    assert {t.get_gid() for t in drawn} == set(items)  # no text on the picture outside the model
    real = label_rectangles(fig, artists)
    for key, it in items.items():
        model = box(it) * fig.dpi
        assert np.abs(real[key] - model).max() <= 1.0, key



def test_a_battle_between_long_names_still_says_who_won():
    from agents.random_agent import RandomAgent
    from agents.runner import play_turn_step
    from engine.protectors.game import Game
    from service.render.panel import width

    # wide 32-character names: the story line ran past the panel and was cut before "US; #10 wins"
    game = Game({"board": "ring-16-grand", "seed": 4, "players": [{"name": c * 32} for c in "MWMWMWMWMWMWMWMW"]})
    agents = {s: RandomAgent(400 + i) for i, s in enumerate(game.state.players)}
    while not game.over and not any(e.kind == "battle" for e in game.state.events):
        play_turn_step(game, agents)
    turn = next(e.turn for e in game.state.events if e.kind == "battle")
    while not game.over and game.state.turn <= turn:
        play_turn_step(game, agents)
    scene = board_scene(game, None, turn=turn, view="channel")
    battles = [line for line in scene.story if line.startswith("Battle")]
    panel = build_panel(scene)
    drawn = [t for t in panel.texts if t.key.startswith("story-")]
    told = " ".join(t.text for t in drawn)
    assert battles and all(line.split("; ")[-1] in told for line in battles), (battles, told)
    room = figure_size(scene.layout.inches)[0] - MARGIN - (2 * MARGIN + scene.layout.inches)
    assert all(t.x + width(t.text, t.size) <= 2 * MARGIN + scene.layout.inches + room + 1e-6 for t in drawn)


def test_a_story_longer_than_its_room_ends_in_a_count():
    from service.render.panel import story_lines

    assert [t for t, _ in story_lines(["one", "two", "three", "four"], 3.0, 3)] == [
        "one", "two", "... and 2 more (see the text report)"]
    assert [t for t, _ in story_lines(["one", "two", "three"], 3.0, 3)] == ["one", "two", "three"]
    lines = story_lines(["Battle P1: " + "word " * 40], 3.0, 3)
    assert len(lines) == 2 and lines[1][1] > 0 and lines[1][0].endswith("\u2026")  # two lines, the second indented
