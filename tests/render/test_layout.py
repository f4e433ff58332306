"""Layouts: every built-in board and some custom ones place Province labels without overlaps."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.protectors.board import Board
from service.render.layout import (
    EXTENT,
    MIN_LABEL_PT,
    layout_for,
    polygons_overlap,
    rectangle,
)
from service.render.scene import scale_of_terror

BUILTIN = [f"ring-{n}{g}{i}" for n in range(2, 17) for g in ("", "-grand") for i in ("", "+island")]


def grid_board(w: int, h: int, island: bool = False) -> Board:
    adj: dict[str, list[str]] = {}
    for y in range(h):
        for x in range(w):
            n = y * w + x + 1
            nb = []
            if x > 0:
                nb.append(f"P{n - 1}")
            if x < w - 1:
                nb.append(f"P{n + 1}")
            if y > 0:
                nb.append(f"P{n - w}")
            if y < h - 1:
                nb.append(f"P{n + w}")
            adj[f"P{n}"] = nb
    return Board.from_adjacency({"provinces": adj, "island": "P0" if island else None})


def star_board(leaves: int) -> Board:
    adj = {"P1": [f"P{i}" for i in range(2, leaves + 2)]}
    adj.update({f"P{i}": ["P1"] for i in range(2, leaves + 2)})
    return Board.from_adjacency({"provinces": adj})


CUSTOM = {"grid-4x3+island": grid_board(4, 3, True), "grid-6x5": grid_board(6, 5), "star-9": star_board(9),
          "pair": Board.from_adjacency({"provinces": {"P1": ["P2"], "P2": ["P1"]}}),
          "path-12": Board.from_adjacency({"provinces": {f"P{i}": [f"P{j}" for j in (i - 1, i + 1) if 1 <= j <= 12]
                                                         for i in range(1, 13)}})}


def assert_labels_apart(layout, names):
    boxes = {p: layout.label_corners(p) for p in names}
    clashes = [(a, b) for i, a in enumerate(names) for b in names[i + 1:] if polygons_overlap(boxes[a], boxes[b])]
    assert clashes == []
    for p, corners in boxes.items():  # and every label stays on the board square
        assert np.abs(corners).max() <= EXTENT, p


@pytest.mark.parametrize("name", BUILTIN)
def test_builtin_ring_labels_do_not_overlap(name):
    board = Board.builtin(name)
    layout = layout_for(board)
    assert layout.kind == "ring"
    assert set(layout.shapes) == set(board.all_provinces)
    assert layout.label_pt >= MIN_LABEL_PT
    assert_labels_apart(layout, list(board.all_provinces))


@pytest.mark.parametrize("name", BUILTIN[:4] + BUILTIN[-4:])
def test_ring_goes_clockwise_from_the_top(name):
    """P1 at 12 o'clock, P2 clockwise from it (the rulebook's numbering around the sea)."""
    layout = layout_for(Board.builtin(name))
    x1, y1 = layout.shapes["P1"].anchor
    x2, _ = layout.shapes["P2"].anchor
    assert abs(x1) < 1e-9 and y1 > 0
    assert x2 > 0  # clockwise: the second wedge is to the right of the first
    if "island" in name:
        assert layout.shapes["P0"].anchor == (0.0, 0.0)  # the Island sits in the central sea


def test_ring_wedges_tile_the_circle_and_neighbours_touch():
    board = Board.builtin("ring-9-grand")
    layout = layout_for(board)
    spans = sorted((s.theta1, s.theta2) for s in layout.shapes.values())
    assert math.isclose(sum(b - a for a, b in spans), 360.0)
    for p in board.provinces:
        for q in board.neighbours[p]:  # bordering Provinces share a wedge edge
            a, b = layout.shapes[p], layout.shapes[q]
            assert any(math.isclose((x - y) % 360, 0, abs_tol=1e-6) for x in (a.theta1, a.theta2)
                       for y in (b.theta1, b.theta2))


@pytest.mark.parametrize("key", sorted(CUSTOM))
def test_custom_boards_get_separate_discs_and_labels(key):
    board = CUSTOM[key]
    layout = layout_for(board)
    assert layout.kind == "spring"
    names = list(board.all_provinces)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            sa, sb = layout.shapes[a], layout.shapes[b]
            gap = math.dist(sa.anchor, sb.anchor)
            assert gap > sa.radius + sb.radius, (a, b)
    assert_labels_apart(layout, names)
    for p in names:  # each disc lies on the board square
        s = layout.shapes[p]
        assert max(abs(s.anchor[0]), abs(s.anchor[1])) + s.radius <= EXTENT + 1e-9, p
    assert set(layout.borders) == {tuple(sorted((p, q), key=lambda x: int(x[1:]))) for p in board.provinces
                                   for q in board.neighbours[p]}


def test_spring_layout_is_deterministic_and_neighbours_sit_closer():
    board = CUSTOM["grid-6x5"]
    a, b = layout_for(board), layout_for(board)
    assert a.shapes == b.shapes
    near = np.mean([math.dist(a.shapes[p].anchor, a.shapes[q].anchor) for p, q in a.borders])
    far = np.mean([math.dist(a.shapes[p].anchor, a.shapes[q].anchor) for p in board.provinces
                   for q in board.provinces if p < q and q not in board.neighbours[p]])
    assert near < far * 0.6  # the layout follows adjacency


def test_polygon_overlap_checks():
    a = rectangle((0, 0), 2, 1, 0)
    assert polygons_overlap(a, rectangle((1.5, 0), 2, 1, 0))
    assert not polygons_overlap(a, rectangle((2.5, 0), 2, 1, 0))
    assert not polygons_overlap(a, rectangle((0, 1.0), 2, 1, 0))  # touching edges do not overlap
    # Two thin bars at 45 degrees: their axis-aligned boxes overlap, the bars themselves do not.
    b1, b2 = rectangle((0, 0), 4, 0.2, 45), rectangle((0.6, -0.6), 4, 0.2, 45)
    assert not polygons_overlap(b1, b2)
    assert polygons_overlap(b1, rectangle((0, 0), 4, 0.2, -45))


@pytest.mark.parametrize(("dpl", "min_us", "provinces", "tier"), [
    (0, 7, 7, "Wyrmling"), (6, 7, 7, "Wyrmling"), (7, 7, 7, "Wurm"), (14, 7, 7, "Dragon"),
    (9, 4, 14, "Great Wurm"), (8, 4, 14, "Wurm"), (28, 5, 14, "Dragon"), (35, 5, 14, "Ancient Dragon"),
    (42, 5, 14, "Worldbreaker"), (0, 0, 7, "Wyrmling"),
])
def test_scale_of_terror(dpl, min_us, provinces, tier):
    """rules: 003 Scale of Terror (Wurm: DPL >= total min.US; Great Wurm: DPL > 2x total min.US;
    the higher tiers read as 2x, 2.5x and 3x #Provinces, assumption SCALE_OF_TERROR_MULTIPLES)."""
    assert scale_of_terror(dpl, min_us, provinces) == tier


def test_custom_board_named_like_a_ring_keeps_its_own_shape():
    """Only a board whose borders really form the ring gets the ring picture."""
    spec = {"name": "ring-4", "provinces": {"P1": ["P2", "P3"], "P2": ["P1", "P3"], "P3": ["P1", "P2", "P4"],
                                            "P4": ["P3"]}}
    assert layout_for(Board.from_adjacency(spec)).kind == "spring"
    ring = {"name": "ring-4", "provinces": {f"P{i}": [f"P{(i % 4) + 1}", f"P{((i - 2) % 4) + 1}"]
                                            for i in range(1, 5)}}
    assert layout_for(Board.from_adjacency(ring)).kind == "ring"


def test_large_custom_board_still_fits():
    board = grid_board(10, 8)
    layout = layout_for(board)
    assert layout.label_pt >= MIN_LABEL_PT
    assert_labels_apart(layout, list(board.all_provinces))
