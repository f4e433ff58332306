"""Battle and attack inputs that cannot happen are refused with the field named (hA dogfood defect 6).

Before: an NPR listed twice fought with its MC twice, a seat listed twice could roll for the NPR, an
attack with 0 Units triggered a Battle, and an NPR with nothing near the Area fought a 0-Unit Battle.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.errors import ValidationError
from engine.realms import world_from_dict
from npr_controller.realms.battle import fight, retreat
from npr_controller.realms.defence import defend
from service.stateless import run

ROOT = Path(__file__).resolve().parents[2]
WORLD = json.loads((ROOT / "examples" / "realms" / "world.json").read_text())
FIGHT = json.loads((ROOT / "examples" / "realms" / "fight.json").read_text())


@pytest.fixture(scope="module")
def world():
    return world_from_dict(WORLD)


def _far_npr(world) -> tuple[str, str]:
    """An NPR and an Area where its MC is 0 (it has nothing in or next to the Area)."""
    from engine.realms.capacity import military_capacity

    for npr in sorted(n for n, r in world.realms.items() if r.is_npr):
        for area in sorted(world.areas):
            if military_capacity(world, npr, area).value == 0:
                return npr, area
    raise AssertionError("the sample world has no such pair")


@pytest.mark.parametrize(("change", "field", "words"), [
    ({"npr": ["Dorn", "Dorn"]}, "battle.npr[1]", "listed twice"),
    ({"npr": []}, "battle.npr", "must name an NPR"),
    ({"seats": ["Aurelia", "Aurelia", "Castamar"]}, "battle.seats[1]", "listed twice"),
    ({"enemy_units": 0}, "battle.enemy_units", "at least 1"),
    ({"npr_units": 0}, "battle.npr_units", "at least 1"),
    ({"active_player": "Nobody"}, "battle.active_player", "not among the seats"),
])
def test_impossible_battles_are_refused(world, change, field, words):
    with pytest.raises(ValidationError) as err:
        fight(world, {**FIGHT, **change}, seed=1)
    assert err.value.field == field and words in err.value.reason


@pytest.mark.parametrize(("npr_units", "enemy_units", "field"), [(0, 3, "battle.npr_units"),
                                                                 (3, 0, "battle.enemy_units")])
def test_a_retreat_after_the_battle_is_over_is_refused(world, npr_units, enemy_units, field):
    """000 §13.4 Beyond the first Round of Battle: "NPRs always Retreat if they have fewer Units than
    their Enemy" -- a choice for a force still fighting. With 0 NPR Units ``npr retreat`` answered
    RETREAT, with 0 Enemy Units "fight on"; either side at 0 means the Battle is over."""
    with pytest.raises(ValidationError) as err:
        retreat(world, {"npr": "Dorn", "area": "Northwatch", "npr_units": npr_units, "enemy_units": enemy_units})
    assert err.value.field == field and "over" in err.value.reason


def test_a_listed_twice_npr_used_to_double_its_mc(world):
    one = fight(world, FIGHT, seed=1).to_dict()["npr_units"]
    assert one > 0
    with pytest.raises(ValidationError):
        fight(world, {**FIGHT, "npr": ["Dorn", "Dorn"]}, seed=1)
    with pytest.raises(ValidationError) as err:
        retreat(world, {"npr": ["Dorn", "Dorn"], "area": "Northwatch", "npr_units": 2, "enemy_units": 4})
    assert err.value.field == "battle.npr[1]"


def test_an_npr_with_no_mc_there_fights_no_battle(world):
    npr, area = _far_npr(world)
    with pytest.raises(ValidationError) as err:
        fight(world, {"npr": npr, "area": area, "enemy_units": 2}, seed=1)
    assert err.value.field == "battle.npr" and "= 0" in err.value.reason and "no Battle" in err.value.reason
    # a force of the GM's own count still fights
    assert fight(world, {"npr": npr, "area": area, "enemy_units": 2, "npr_units": 3}, seed=1).to_dict()["rounds"]


@pytest.mark.parametrize("key", ["area", "sea"])
def test_an_attack_of_zero_units_is_refused(world, key):
    place = "Northwatch" if key == "area" else "Western Sea"
    with pytest.raises(ValidationError) as err:
        defend(world, [{"attacker": "Aurelia", key: place, "units": 0}])
    assert err.value.field == "attacks[0].units" and "at least 1" in err.value.reason


def test_the_service_names_the_field():
    status, out = run("npr.battle", [{"world": WORLD, "battle": {**FIGHT, "npr": ["Dorn", "Dorn"]}, "seed": 1}])
    assert status == "error" and out["code"] == "invalid_params" and out["details"]["field"] == "battle.npr[1]"
    status, out = run("npr.defend", [{"world": WORLD, "attacks": [{"attacker": "Aurelia", "area": "Highmoor",
                                                                    "units": 0}]}])
    assert status == "error" and out["code"] == "invalid_params" and out["details"]["field"] == "attacks[0].units"


def test_with_rebels_is_documented_as_the_code_reads_it(world):
    """hA defect 3: world-formats.md said `with_rebels` = "the Enemy is Rebels"; 000 §13.4 and the code
    read it as the NPR fighting alongside Rebel Units, so it fights to the last Unit."""
    row = next(line for line in (ROOT / "docs" / "world-formats.md").read_text().splitlines()
               if line.startswith("| `with_rebels` |"))
    assert "alongside Rebel" in row and "the Enemy is Rebels" not in row
    out = retreat(world, {"npr": "Dorn", "area": "Northwatch", "npr_units": 1, "enemy_units": 4,
                          "with_rebels": True}).to_dict()
    assert out["retreat"] is False and "alongside Rebel Units" in out["trace"][-1]["because"]
