"""002 Exploration: Landfall Tables #1 and #2 and every re-roll path."""

from __future__ import annotations

from engine.newworld import parse_world
from engine.trace import Trace
from npr_controller.newworld.landfall import find_landfall
from npr_controller.newworld.plan import plan_nation
from tests.newworld.helpers import ScriptedDice, hold, world


def land(w, faces, nation="French"):
    dice = ScriptedDice(faces)
    found = find_landfall(w, nation, dice, Trace())
    assert dice.exhausted
    return found


def path(found):
    return [(r.table, r.face, r.area, r.blocked is None) for r in found.rolls]


def test_table_1_without_holdings():
    """If no new world holdings are held by this nation, roll on Landfall Table #1 and sail there."""
    w = world({"French": {}, "Dutch": {"holdings": hold("K")}})
    found = land(w, [4])
    assert (found.table, found.letter, found.area) == (1, "O", "O")


def test_reroll_when_occupied():
    """if the result obtained is already occupied ... roll again"""
    w = world({"French": {}, "Dutch": {"holdings": hold("H", "J")}})
    found = land(w, [1, 2, 6])
    assert path(found) == [(1, 1, "H", False), (1, 2, "J", False), (1, 6, "U", True)]
    assert found.rolls[0].blocked == "occupied by Dutch"


def test_reroll_when_claimed_as_exclusive_landfall():
    """(or claimed as an Exclusive Landfall), roll again"""
    w = world({"French": {}, "English": {"player": True, "exclusive_landfall": "N"},
               "Dutch": {"holdings": hold("K")}})
    found = land(w, [3, 5])
    assert path(found) == [(1, 3, "N", False), (1, 5, "R", True)]
    assert "Exclusive Landfall" in found.rolls[0].blocked


def test_its_own_claim_does_not_block_it():
    w = world({"French": {"exclusive_landfall": "N"}, "Dutch": {"holdings": hold("K")}})
    assert land(w, [3]).area == "N"


def test_table_1_full_goes_to_table_2():
    """If all landfalls on Table #1 are occupied, roll on Table #2."""
    w = world({"French": {}, "Dutch": {"holdings": hold("H", "J", "N", "O")},
               "English": {"holdings": hold("R", "U")}})
    found = land(w, [3])
    assert path(found) == [(2, 3, "X", True)]


def test_table_2_rerolls_too():
    w = world({"French": {}, "Dutch": {"holdings": hold("H", "J", "N", "O", "R", "U", "E")}})
    found = land(w, [5, 6, 2])
    assert path(found) == [(2, 5, "E", False), (2, 6, "E", False), (2, 2, "M", True)]


def test_holdings_roll_on_table_2():
    """If the nation holds new world territory, roll on Table #2."""
    w = world({"French": {"holdings": hold("K")}})
    found = land(w, [1])
    assert (found.table, found.area) == (2, "C")


def test_everything_occupied_gives_no_landfall_and_no_roll():
    w = world({"French": {}, "Dutch": {"holdings": hold(*"HJNORU")},
               "English": {"holdings": hold(*"CMXYE")}})
    assert land(w, []) is None


def test_everything_occupied_is_treated_as_balancing():
    """If these are also occupied, treat this result as an attitude of Balancing."""
    w = world({"French": {"treasury": 100}, "Dutch": {"holdings": hold(*"HJNORU")},
               "English": {"holdings": hold(*"CMXYEK")}})
    # English is the hegemon (6 PC against 6: tie -> no rival given -> random pick), coastal target
    dice = ScriptedDice([4], choices=[1, 0])
    plan = plan_nation(w, "French", dice=dice)
    assert [(str(f.source), str(f.result)) for f in plan.fallbacks] == [("Exploration", "Balancing")]
    assert plan.attitude == "Balancing" and plan.landfall is None
    assert plan.target.name in {a for a in w.nations["English"].areas if w.areas[a].coastal}
    assert dice.exhausted


def test_named_areas_with_letters():
    d = {"turn": 2, "areas": {f"Area {x}": {"landfall": x} for x in "HJNORUCMXYE"},
         "nations": {"French": {}}}
    w = parse_world(d)
    found = land(w, [2])
    assert (found.letter, found.area) == ("J", "Area J")
