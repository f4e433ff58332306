"""The seat palette: every pair of the first n seat colours stays at least MIN_DELTA_E[n] apart in
CIEDE2000, under normal vision and simulated protanopia, deuteranopia and tritanopia, and so does
each seat colour from the board's own colours (unheld parchment, burnt grey, white and black)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from service.render.colour import VISIONS, ciede2000, hex_to_rgb, pairwise_distances, rgb_to_lab, simulate
from service.render.palette import BURNT, MIN_DELTA_E, NEUTRAL, SEAT_COLOURS

BOARD_COLOURS = {"neutral": NEUTRAL, "burnt": BURNT, "white": "#FFFFFF", "black": "#000000"}


def too_close(colours, limit: float) -> list[str]:
    """Every pair (seat-seat and seat-board colour) under ``limit``, for each vision."""
    named = {f"seat {i + 1} {c}": c for i, c in enumerate(colours)}
    problems = []
    for vision in VISIONS:
        for (a, ca), (b, cb) in itertools.combinations(named.items(), 2):
            d = float(pairwise_distances([ca, cb], vision)[0, 1])
            if d < limit:
                problems.append(f"{vision}: {a} vs {b}: {d:.2f}")
        for (a, ca), (b, cb) in itertools.product(named.items(), BOARD_COLOURS.items()):
            d = float(pairwise_distances([ca, cb], vision)[0, 1])
            if d < limit:
                problems.append(f"{vision}: {a} vs {b}: {d:.2f}")
    return problems


@pytest.mark.parametrize("n", sorted(MIN_DELTA_E))
def test_first_n_seat_colours_stay_apart_for_every_vision(n):
    assert too_close(SEAT_COLOURS[:n], MIN_DELTA_E[n]) == []


def test_the_check_catches_a_confusable_colour():
    """Not vacuous: a seat colour a protanope cannot tell from another (dark red beside dark
    green-brown) and one close to the burnt grey are both reported."""
    bad = list(SEAT_COLOURS[:5])
    bad[4] = "#8F8F8F"  # next to burnt grey #8C8C8C
    assert any("burnt" in p for p in too_close(bad, MIN_DELTA_E[5]))
    red_green = ["#B22222", "#6B6B00"]  # firebrick vs olive: apart for normal vision only
    problems = too_close(red_green, 20.0)
    assert any(p.startswith(("protanopia", "deuteranopia")) and "seat 1" in p and "seat 2" in p for p in problems)
    assert not any(p.startswith("normal") and "seat 2 " in p and "seat 1" in p for p in problems)


def test_palette_is_sixteen_distinct_hex_colours():
    assert len(SEAT_COLOURS) == 16 == len(set(c.upper() for c in SEAT_COLOURS))
    assert max(MIN_DELTA_E) == len(SEAT_COLOURS)
    assert all(MIN_DELTA_E[a] >= MIN_DELTA_E[b] for a, b in itertools.pairwise(sorted(MIN_DELTA_E)))


# Sharma, Wu & Dalal (2005), supplementary test data: pairs 1, 7, 17-20 and 25.
SHARMA = [((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
          ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
          ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
          ((50.0, 2.5, 0.0), (61.0, -5.0, 29.0), 22.8977),
          ((50.0, 2.5, 0.0), (56.0, -27.0, -3.0), 31.9030),
          ((50.0, 2.5, 0.0), (58.0, 24.0, 15.0), 19.4535),
          ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644)]


@pytest.mark.parametrize(("lab1", "lab2", "want"), SHARMA)
def test_ciede2000_matches_the_published_test_data(lab1, lab2, want):
    assert float(ciede2000(np.array(lab1), np.array(lab2))) == pytest.approx(want, abs=1e-4)
    assert float(ciede2000(np.array(lab2), np.array(lab1))) == pytest.approx(want, abs=1e-4)  # symmetric


def test_lab_and_simulation_sanity():
    assert rgb_to_lab(hex_to_rgb(["#FFFFFF"]))[0] == pytest.approx([100.0, 0.0, 0.0], abs=0.05)
    assert rgb_to_lab(hex_to_rgb(["#000000"]))[0] == pytest.approx([0.0, 0.0, 0.0], abs=1e-6)
    grey = hex_to_rgb(["#FFFFFF", "#808080"])
    for vision in VISIONS:  # greys stay grey for every dichromat (the matrices' rows sum to 1)
        assert simulate(grey, vision) == pytest.approx(grey, abs=0.01)
    # red and green, far apart for normal vision, collapse for a deuteranope
    rg = ["#FF0000", "#00A000"]
    assert pairwise_distances(rg, "normal")[0, 1] > 3 * pairwise_distances(rg, "deuteranopia")[0, 1]
