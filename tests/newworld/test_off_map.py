"""Partial maps (issue 20 item 5): landfall letters the GM leaves off the described map are listed in
``off_map_landfalls``; an unresolved letter is refused with an error that says what to write."""

from __future__ import annotations

import json

import pytest

from engine.errors import ValidationError
from engine.newworld import parse_world
from engine.trace import Dice, Trace
from npr_controller.newworld.landfall import find_landfall

# a described corner of the map: four Areas named by Table #1 letters
PART = {"H": {"adjacent": ["J", "R"], "coastal": True}, "J": {"adjacent": ["U"], "coastal": True},
        "R": {"adjacent": ["U"], "coastal": True}, "U": {"coastal": True}}
OFF = ["C", "E", "M", "N", "O", "X", "Y"]  # the default tables' other letters


def doc(**extra):
    return {"turn": 1, "areas": PART, "nations": {"French": {"treasury": 80}}, **extra}


def test_a_partial_map_without_off_map_letters_says_what_to_write():
    with pytest.raises(ValidationError) as e:
        parse_world(doc())
    # the GM never wrote landfall_tables: the error names the key to write, with every missing letter
    assert e.value.field == "off_map_landfalls"
    assert "the default Landfall Table #1" in e.value.reason
    assert f'"off_map_landfalls": {json.dumps(OFF)}' in e.value.reason


def test_the_suggested_list_is_accepted():
    world = parse_world(doc(off_map_landfalls=OFF))
    assert world.off_map_landfalls == frozenset(OFF)
    assert world.landfall_area("N") is None and world.landfall_area("H") == "H"


def test_written_tables_point_at_the_letter():
    tables = {"1": ["H", "J", "R", "U", "H", "Q"], "2": ["H", "J", "R", "U", "H", "J"]}
    with pytest.raises(ValidationError) as e:
        parse_world(doc(landfall_tables=tables))
    assert e.value.field == "landfall_tables.1[5]" and '"off_map_landfalls": ["Q"]' in e.value.reason
    assert parse_world(doc(landfall_tables=tables, off_map_landfalls=["Q"])).landfall_tables[1][5] == "Q"


@pytest.mark.parametrize(("value", "field", "why"), [
    (["H"], "off_map_landfalls[0]", "names Area 'H', which is on the map"),
    ([*OFF, "Z"], "off_map_landfalls", "'Z' is on no landfall table"),
    ("N", "off_map_landfalls", "must be a list"),
    ([""], "off_map_landfalls[0]", "must be a map letter"),
])
def test_bad_off_map_lists(value, field, why):
    with pytest.raises(ValidationError) as e:
        parse_world(doc(off_map_landfalls=value))
    assert e.value.field == field and why in e.value.reason


def test_exploration_may_sail_off_the_map():
    """rules: 002 Exploration: a free landfall off the described map is planned as that letter."""
    world = parse_world(doc(off_map_landfalls=OFF))
    seen = set()
    for seed in range(30):
        trace = Trace()
        landfall = find_landfall(world, "French", Dice(seed), trace)
        seen.add(landfall.area)
        if landfall.letter in OFF:
            assert landfall.area == landfall.letter
            assert any("off the described map" in s.because for s in trace)
    assert seen & set(OFF) and seen & set(PART)


def test_free_off_map_letters_keep_the_board_from_being_full():
    """002 Attitude table "+1 if all areas on the board are occupied": every described Area is occupied,
    but the landfall letters off the described map are free, so the board is not full (hA defect 2)."""
    from npr_controller.newworld.attitude import modifiers

    nations = {"Spain": {"treasury": 50, "ships": 2, "holdings": {"H": {"colonists": 2, "soldiers": 1}}},
               "France": {"holdings": {"R": {"colonists": 1}, "U": {"colonists": 1}}},
               "Dutch": {"player": True, "holdings": {"J": {"colonists": 1}}}}
    world = parse_world({"turn": 6, "areas": PART, "nations": nations, "off_map_landfalls": OFF})
    mod = next(m for m in modifiers(world, "Spain", 6) if m.name == "every Area occupied")
    assert (mod.value, mod.applies) == (0, False)
    assert "7 Area(s) unoccupied" in mod.because and "off_map_landfalls" in mod.because
