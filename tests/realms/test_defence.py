"""NPRs defending Areas and Sea Zones (file 000 §13.4), including several battles in one turn."""

import pytest

from engine.errors import ValidationError
from npr_controller.realms.defence import defend
from tests.realms.helpers import prov, town, world

REALMS = {"Gran": {"kind": "npr", "capital": "cap"}, "Nav": "npr", "Cast": "pr", "Arag": "pr"}


def _battles(w, attacks):
    return {b["battle"]: b for b in defend(w, attacks).to_dict()["battles"]}


def test_land_battle_with_mc_infantry_units():
    """000 §13.4: the NPR defends with Infantry Units equal to its MC for the Area."""
    w = world(
        {"A": ["B"]},
        {"cap": prov("A", "Gran", "large"), "b": prov("B", "Gran")},
        REALMS,
        wars=[["Cast", "Gran"]],
    )
    b = _battles(w, [{"attacker": "Cast", "area": "A", "units": 4}])[0]
    assert (b["triggered"], b["defender_units"], b["unit_kind"]) == (True, 3, "Infantry Units")


def test_no_battle_when_hostile_units_already_there():
    """000 §13.4: Units Hostile to the NPR already in the Area: no Battle is triggered."""
    w = world(
        {"A": []},
        {"cap": prov("A", "Gran")},
        REALMS,
        wars=[["Cast", "Gran"], ["Arag", "Gran"]],
        units=[("Arag", "A", 1)],
    )
    b = _battles(w, [{"attacker": "Cast", "area": "A", "units": 4}])[0]
    assert b["triggered"] is False and b["defenders"] == []


def test_declaration_of_war_with_own_units_present_triggers_battle():
    """000 §13.4: units already in the Area when War is Declared trigger a Battle."""
    w = world(
        {"A": []},
        {"cap": prov("A", "Gran", "large")},
        REALMS,
        wars=[["Cast", "Gran"]],
        units=[("Cast", "A", 3)],
    )
    moved = _battles(w, [{"attacker": "Cast", "area": "A", "units": 3}])[0]
    declared = _battles(w, [{"attacker": "Cast", "area": "A", "units": 3, "trigger": "declaration"}])[0]
    assert moved["triggered"] is False and declared["defender_units"] == 2


def test_naval_battle_with_nc_light_ships():
    """000 §13.4 NPRs defending Sea Zones: Light Ships equal to NC."""
    w = world(
        {"A": []},
        {"cap": prov("A", "Gran", "large", port="S")},
        REALMS,
        seas={"S": ["A"]},
        wars=[["Cast", "Gran"]],
    )
    b = _battles(w, [{"attacker": "Cast", "sea": "S", "units": 2}])[0]
    assert (b["defender_units"], b["unit_kind"]) == (2, "Light Ships")


def test_two_nprs_in_one_area_combine():
    """000 §13.4 Fighting Several NPRs in one Area: a single battle with the combined MC."""
    w = world(
        {"A": []},
        {"cap": prov("A", "Gran", "large"), "n": prov("A", "Nav")},
        REALMS,
        wars=[["Cast", "Gran"], ["Cast", "Nav"]],
    )
    b = _battles(w, [{"attacker": "Cast", "area": "A", "units": 5}])[0]
    assert b["defender_units"] == 3
    assert [d["realm"] for d in b["defenders"]] == ["Gran", "Nav"]


def test_only_enemy_nprs_defend():
    """000 §13.4: only an NPR at War with the attacker defends (here Nav is at peace)."""
    w = world({"A": []}, {"cap": prov("A", "Gran", "large"), "n": prov("A", "Nav")}, REALMS, wars=[["Cast", "Gran"]])
    assert _battles(w, [{"attacker": "Cast", "area": "A", "units": 5}])[0]["defender_units"] == 2


def test_capital_area_defended_first_even_against_a_larger_force_elsewhere():
    """000 §13.4 Triggering multiple Battles: Capital Area first (the tricky case)."""
    w = world(
        {"Cap": ["B"], "B": []},
        {"cap": prov("Cap", "Gran"), "b": prov("B", "Gran", "large")},
        REALMS,
        wars=[["Cast", "Gran"]],
    )
    bs = _battles(w, [{"attacker": "Cast", "area": "B", "units": 9}, {"attacker": "Cast", "area": "Cap", "units": 1}])
    assert bs[1]["defender_units"] == 3  # the Capital Area takes cap (1) and b (2)
    assert bs[0]["defender_units"] == 0 and bs[0]["triggered"] is False
    assert bs[1]["defenders"][0]["allocation_rank"] == 1


def test_largest_force_next_then_first_resolved():
    """000 §13.4: after the Capital, the largest Enemy force; ties to the first Battle resolved."""
    land = {"Cap": [], "B": ["C"], "C": []}
    provs = {"cap": prov("Cap", "Gran"), "b": prov("B", "Gran"), "c": prov("C", "Gran", "large")}
    w = world(land, provs, REALMS, wars=[["Cast", "Gran"]])
    bs = _battles(w, [{"attacker": "Cast", "area": "B", "units": 2}, {"attacker": "Cast", "area": "C", "units": 5}])
    assert (bs[1]["defender_units"], bs[0]["defender_units"]) == (3, 0)
    tie = _battles(w, [{"attacker": "Cast", "area": "B", "units": 3}, {"attacker": "Cast", "area": "C", "units": 3}])
    assert (tie[0]["defender_units"], tie[1]["defender_units"]) == (3, 0)


def test_sea_zone_next_to_capital_first_for_nc():
    """000 §13.4: any Sea Zone next to its Capital is defended first; each Port supplies once."""
    w = world(
        {"Cap": [], "B": []},
        {"cap": prov("Cap", "Gran", "large", port="S2")},
        REALMS,
        seas={"S1": ["Cap", "B"], "S2": ["Cap"]},
        wars=[["Cast", "Gran"]],
    )
    bs = _battles(w, [{"attacker": "Cast", "sea": "S1", "units": 5}, {"attacker": "Cast", "sea": "S2", "units": 1}])
    assert bs[1]["defender_units"] == 2 and bs[0]["defender_units"] == 0


def test_each_province_supplies_one_land_and_one_naval_battle():
    """rules-gaps.md Once per turn: the same Province feeds one land and one naval battle."""
    w = world(
        {"Cap": []},
        {"cap": prov("Cap", "Gran", "large", port="S")},
        REALMS,
        seas={"S": ["Cap"]},
        wars=[["Cast", "Gran"]],
    )
    bs = _battles(w, [{"attacker": "Cast", "area": "Cap", "units": 1}, {"attacker": "Cast", "sea": "S", "units": 1}])
    assert bs[0]["defender_units"] == 2 and bs[1]["defender_units"] == 2


def test_active_ally_defends_with_half():
    """000 §13.4: an Active Ally of a PR defends with only half its MC."""
    w = world(
        {"A": []},
        {"cap": prov("A", "Gran", "large"), "x": prov("A", "Gran"), "t": town("A", "Arag")},
        REALMS,
        wars=[["Cast", "Arag"]],
        alliances=[{"pr": "Arag", "npr": "Gran", "active": True}],
    )
    b = _battles(w, [{"attacker": "Cast", "area": "A", "units": 2}])[0]
    assert b["defender_units"] == 2 and b["defenders"][0]["active_ally_halved"] is True


def test_no_supply_defends_at_full_strength():
    """000 §13.4 No more NPR Units in Supply: full strength, keep count."""
    w = world(
        {"A": []},
        {"cap": prov("A", "Gran", "large"), "x": prov("A", "Gran", "large")},
        REALMS,
        wars=[["Cast", "Gran"]],
    )
    d = defend(w, [{"attacker": "Cast", "area": "A", "units": 2}], supply=1).to_dict()
    assert d["battles"][0]["defender_units"] == 4 and d["battles"][0]["pieces_short"] == 3
    assert any(s["rule"] == "000 §13.4 No more NPR Units in Supply" for s in d["trace"])


@pytest.mark.parametrize("supply", [-3, True, "2"])
def test_a_supply_that_is_no_count_of_pieces_is_refused(supply):
    """000 §13.4 No more NPR Units in Supply: ``supply`` counts the NPR pieces left in the box. A
    negative count was taken as given ("only -3 NPR pieces", 7 short) on the CLI and in the library."""
    w = world({"A": []}, {"cap": prov("A", "Gran", "large")}, REALMS, wars=[["Cast", "Gran"]])
    with pytest.raises(ValidationError, match=r"^supply: "):
        defend(w, [{"attacker": "Cast", "area": "A", "units": 2}], supply=supply)


def test_bad_attack_names_the_field():
    w = world({"A": []}, {"cap": prov("A", "Gran")}, REALMS)
    with pytest.raises(ValidationError, match=r"attacks\[0\]\.area: unknown Area 'Z'"):
        defend(w, [{"attacker": "Cast", "area": "Z", "units": 1}])
    with pytest.raises(ValidationError, match=r"attacks\[0\]\.attacker: 'Gran' is not a PR"):
        defend(w, [{"attacker": "Gran", "area": "A", "units": 1}])


def test_vassal_area_is_defended_by_its_npr_overlord():
    """000 §13.2: an NPR's Vassals assist their Overlord as if they were its own Provinces."""
    realms = {**REALMS, "Vas": {"kind": "vassal", "overlord": "Gran"}}
    w = world(
        {"V": ["Cap"], "Cap": []},
        {"v": prov("V", "Vas", "large"), "cap": prov("Cap", "Gran")},
        realms,
        wars=[["Cast", "Gran"]],
    )
    b = _battles(w, [{"attacker": "Cast", "area": "V", "units": 1}])[0]
    assert b["defender_units"] == 3 and b["defenders"][0]["realm"] == "Gran"


def test_the_attack_and_the_defenders_are_named_apart():
    """Issue 20 item 4: an attack of 5 is reported as 5 (``units``, as given), the NPRs' total beside it
    (``defender_units``); one used to overwrite the other."""
    w = world({"A": []}, {"a1": prov("A", "Gran"), "a2": prov("A", "Gran")}, {"Gran": "npr", "Cast": "pr"},
              wars=[["Cast", "Gran"]])
    b = _battles(w, [{"attacker": "Cast", "area": "A", "units": 5}])[0]
    assert (b["units"], b["defender_units"]) == (5, 2)


def test_an_occupied_npr_province_triggers_no_battle():
    """000 §13.4 NPRs defending Areas: a Battle is triggered by "Provinces Owned by an Enemy NPR"; an
    Occupied Province is Owned by nobody (rules-gaps.md Definitions), so it triggers none."""
    provs = {"cap": prov("Cap", "Gran"), "b": prov("B", "Gran", occupied_by="Cast")}
    w = world({"Cap": [], "B": []}, provs, REALMS, wars=[["Cast", "Gran"]])
    b = _battles(w, [{"attacker": "Cast", "area": "B", "units": 2}])[0]
    assert b["triggered"] is False and b["defenders"] == []


def test_sea_zone_next_to_capital_is_served_first_in_the_allocation_order():
    """000 §13.4 Triggering multiple Battles: "any Sea Zone next to its Capital" comes before a larger
    force elsewhere (allocation_rank and the trace's order)."""
    w = world(
        {"Cap": [], "B": []},
        {"cap": prov("Cap", "Gran", port="S2"), "b": prov("B", "Gran", "large", port="S1")},
        REALMS,
        seas={"S1": ["B"], "S2": ["Cap"]},
        wars=[["Cast", "Gran"]],
    )
    bs = _battles(w, [{"attacker": "Cast", "sea": "S1", "units": 5}, {"attacker": "Cast", "sea": "S2", "units": 1}])
    assert bs[1]["defenders"][0]["allocation_rank"] == 1 and bs[0]["defenders"][0]["allocation_rank"] == 2
    assert (bs[1]["defender_units"], bs[0]["defender_units"]) == (1, 2)
