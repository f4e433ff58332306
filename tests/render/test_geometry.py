"""Geometry, not pixels: where marches run, where battle boxes sit, how march kinds look.

- A march between two neighbouring Provinces is an arc inside the ring: every sampled point lies
  outside the central sea (radius >= the sea's radius) and inside the two Provinces' wedges,
  starting in the one and ending in the other (rules: 003 March!).
- Only a sea move (no land border: Seafarers!, Ferry!, the Island) crosses the sea, and in played
  games a sea move happens only in a turn with Seafarers! or Ferry! in play.
- Delayed, golden and sea marches each get their own look (dash pattern, outline colour).
- A battle box (and the Province label above it) lies inside its Province's wedge or disc.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from engine.protectors import cards as C
from engine.protectors.board import Board
from service.render import board_scene
from service.render.draw import GOLD, draw_board, figure_bytes, march_style
from service.render.labels import board_texts, box, to_board
from service.render.layout import layout_for
from service.render.paths import is_sea_move, march_path
from service.render.scene import Arrow
from tests.render.helpers import SVG, group, played_game, svg_root

BOARDS = ["ring-2", "ring-5", "ring-7", "ring-16", "ring-7-grand", "ring-16-grand", "ring-5+island",
          "ring-7+island", "ring-16-grand+island"]
# seeded random games (2 to 16 seats) whose turns hold battles and, for the last four, sea moves
GAMES = [("ring-2", 2, 7), ("ring-5", 5, 3), ("ring-7", 7, 7), ("ring-16", 16, 4), ("ring-16-grand", 16, 9),
         ("ring-5+island", 5, 9), ("ring-7+island", 7, 9), ("ring-16-grand+island", 16, 4),
         ("ring-16-grand+island", 16, 9)]
SEA_CARDS = {C.SEAFARERS, C.FERRY}


def polar(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    pts = np.atleast_2d(pts)
    return np.hypot(pts[:, 0], pts[:, 1]), np.degrees(np.arctan2(pts[:, 1], pts[:, 0])) % 360


def inside(shape, pts: np.ndarray, tol: float = 1e-9) -> np.ndarray:
    """Which points lie inside a wedge (between its radii and angles) or a disc."""
    pts = np.atleast_2d(pts)
    if shape.kind == "disc":
        return np.hypot(pts[:, 0] - shape.anchor[0], pts[:, 1] - shape.anchor[1]) <= shape.radius + tol
    r, a = polar(pts)
    span = shape.theta2 - shape.theta1
    return (r >= shape.r_in - tol) & (r <= shape.r_out + tol) & ((a - shape.theta1) % 360 <= span + tol)


@pytest.mark.parametrize("name", BOARDS)
def test_a_march_between_neighbours_never_enters_the_sea(name):
    board = Board.builtin(name)
    lay = layout_for(board)
    sea_radius = lay.sea[2]
    pairs = [(p, q) for p in board.provinces for q in board.neighbours[p]]
    assert pairs
    for (p, q), k in itertools.product(pairs, range(6)):  # k: marches already drawn over that border
        pts, sea = march_path(lay, board, p, q, k)
        assert not sea, (p, q)
        r, _ = polar(pts)
        assert r.min() >= sea_radius, f"{p}->{q} (k={k}) enters the sea: radius {r.min():.3f} < {sea_radius}"
        within = inside(lay.shapes[p], pts) | inside(lay.shapes[q], pts)
        assert within.all(), f"{p}->{q} (k={k}) leaves the two Provinces"
        assert inside(lay.shapes[p], pts[0]).all() and inside(lay.shapes[q], pts[-1]).all(), (p, q)


@pytest.mark.parametrize("name", BOARDS)
def test_only_a_move_between_non_neighbours_crosses_the_sea(name):
    board = Board.builtin(name)
    lay = layout_for(board)
    sea_radius = lay.sea[2]
    names = list(board.all_provinces)
    for p, q in itertools.permutations(names, 2):
        assert is_sea_move(board, p, q) == (q not in board.neighbours.get(p, frozenset()))
        if not is_sea_move(board, p, q):
            continue
        pts, sea = march_path(lay, board, p, q)
        assert sea
        r, _ = polar(pts)
        assert r.min() < sea_radius, f"sea move {p}->{q} does not cross the sea"
        for end, prov in ((pts[0], p), (pts[-1], q)):  # from one coast (or the Island's shore) to the other
            sh = lay.shapes[prov]
            if sh.kind == "disc":
                assert math.dist(end, sh.anchor) <= sh.radius * 1.06
            else:
                er, ea = polar(end)
                assert abs(er[0] - sea_radius) < 0.02 and (ea[0] - sh.theta1) % 360 <= sh.theta2 - sh.theta1


def test_the_geometry_checks_can_fail():
    """Drawn straight across (the old picture), a march between neighbours enters the sea, and the
    checks above say so."""
    board = Board.builtin("ring-7")
    lay = layout_for(board)
    a, b = np.array(lay.shapes["P1"].anchor), np.array(lay.shapes["P4"].anchor)
    chord = np.linspace(a, b, 24)
    assert polar(chord)[0].min() < lay.sea[2]
    a, b = np.array(lay.shapes["P1"].anchor), np.array(lay.shapes["P2"].anchor)
    through_centre = np.vstack([np.linspace(a, (0, 0), 12), np.linspace((0, 0), b, 12)])
    assert not (inside(lay.shapes["P1"], through_centre) | inside(lay.shapes["P2"], through_centre)).all()


_games: dict = {}


def game_of(board, seats, seed):
    if (board, seed) not in _games:
        _games[(board, seed)] = played_game(board, seats, seed=seed, turns=99)
    return _games[(board, seed)]


def turn_scenes(board, seats, seed):
    game = game_of(board, seats, seed)
    for turn in range(1, game.state.turn + 1):
        yield turn, board_scene(game, None, turn=turn)


@pytest.mark.parametrize(("board", "seats", "seed"), GAMES, ids=[f"{g[0]}-s{g[2]}" for g in GAMES])
def test_played_marches_cross_the_sea_only_by_sea(board, seats, seed):
    game = game_of(board, seats, seed)
    b = Board.from_setup(game.view(None)["board"])
    sea_radius = layout_for(b).sea[2]
    for turn, scene in turn_scenes(board, seats, seed):
        cards = {e.data["card"] for e in game.state.events if e.turn == turn and e.kind == "card"}
        for a in scene.arrows:
            assert a.sea == (a.dst not in b.neighbours.get(a.src, frozenset())), (turn, a.src, a.dst)
            if a.sea:  # rules: 003 Seafarers!/Ferry!, Island Rules
                assert cards & SEA_CARDS, f"turn {turn}: sea move {a.src}->{a.dst} without Seafarers!/Ferry!"
            else:
                assert polar(a.points)[0].min() >= sea_radius


def test_sea_moves_were_played():
    assert sum(a.sea for g in GAMES[-4:] for _, s in turn_scenes(*g) for a in s.arrows) >= 10


def march_looks(svg: bytes, gids: list[str]) -> dict[str, tuple[str, str]]:
    """gid -> (dash pattern, outline colour) of each march line in the SVG."""
    root = svg_root(svg)
    out = {}
    for gid in gids:
        styles = [dict(kv.strip().split(":", 1) for kv in p.get("style", "").split(";") if ":" in kv)
                  for p in group(root, gid).iter(f"{SVG}path")]
        outline, line = styles[0], styles[-1]  # the outline is drawn first, under the line
        out[gid] = (line.get("stroke-dasharray", "solid").strip(), outline["stroke"].strip().lower())
    return out


def test_delayed_golden_and_sea_marches_look_different():
    game = played_game("ring-7+island", 7, seed=9, turns=2)
    scene = board_scene(game, None)
    lay, board = scene.layout, scene.board
    scene.arrows = []
    combos = list(itertools.product((False, True), repeat=3))  # golden, delayed, sea
    for i, (golden, delayed, sea) in enumerate(combos):
        src = f"P{i % 7 + 1}"
        dst = "P0" if sea else f"P{(i + 1) % 7 + 1}"
        pts, is_sea = march_path(lay, board, src, dst)
        assert is_sea == sea
        scene.arrows.append(Arrow("Player#1", src, dst, 2, golden, delayed, sea, pts))
    gids = [f"march-{a.src}-{a.dst}" for a in scene.arrows]
    looks = march_looks(figure_bytes(draw_board(scene)[0], "svg"), gids)
    assert len(set(looks.values())) == len(combos)  # eight kinds, eight looks
    for (golden, delayed, sea), gid in zip(combos, gids, strict=True):
        dashes, outline = looks[gid]
        assert (outline == GOLD.lower()) == golden
        assert (dashes == "solid") == (not delayed and not sea)
    for golden in (False, True):  # and the style table itself: delayed and sea change the dash pattern
        assert len({str(march_style(golden, d, s)["linestyle"]) for d in (False, True) for s in (False, True)}) == 4


@pytest.mark.parametrize(("board", "seats", "seed"), GAMES, ids=[f"{g[0]}-s{g[2]}" for g in GAMES])
def test_battle_box_lies_inside_its_province(board, seats, seed):
    fights = 0
    for _, scene in turn_scenes(board, seats, seed):
        items = {it.key: it for it in board_texts(scene)}
        for bm in scene.battles:
            shape = scene.layout.shapes[bm.province]
            corners = to_board(scene, box(items[f"battle-{bm.province}"]))
            assert inside(shape, corners).all(), f"battle box of {bm.province} leaves it: {corners.round(3)}"
            fights += 1
        for name, shape in scene.layout.shapes.items():  # and every Province label sits in its Province
            label = to_board(scene, box(items[f"label-{name}"]))
            assert inside(shape, label).all(), f"label of {name} leaves it"
    assert fights, "no battle in this game: the test would prove nothing"


def test_battle_check_can_fail():
    """A battle box placed where the old picture put its star (outside the ring) is caught."""
    game = game_of(*GAMES[2])
    turn, scene = next((t, s) for t, s in turn_scenes(*GAMES[2]) if s.battles)
    bm = scene.battles[0]
    shape = scene.layout.shapes[bm.province]
    star = np.array(shape.anchor) / np.hypot(*shape.anchor) * 1.1  # just outside the wedge
    assert not inside(shape, star).all()
    assert game.state.turn >= turn
