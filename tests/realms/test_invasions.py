"""NPR Invasions, Phase 3 step B (file 000 §13.5): criteria, priorities, unrest, size, battle, rebels."""

from engine.realms import world_from_dict
from npr_controller.realms.invasions import eligible_targets, invasions
from tests.realms.helpers import doc, prov, town, world

REALMS = {"Gran": {"kind": "npr", "capital": "g1"}, "Nav": "npr", "Cast": "pr", "Arag": "pr"}


def _inv(w, seed=0):
    return {e["npr"]: e for e in invasions(w, seed=seed).to_dict()["invasions"]}


def _base(**kw):
    land = kw.pop("land", {"G": ["X"], "X": []})
    provs = kw.pop("provinces", {"g1": prov("G", "Gran", "large"), "x1": town("X", "Cast")})
    return world(land, provs, kw.pop("realms", REALMS), **{"wars": [["Cast", "Gran"]], **kw})


def test_resolved_alphabetically_and_only_at_war():
    """000 §13.5: NPRs at War with a PR, in alphabetical order."""
    d = invasions(_base()).to_dict()
    assert [e["npr"] for e in d["invasions"]] == ["Gran", "Nav"]
    assert d["invasions"][0]["invades"] is True
    assert d["invasions"][1]["failed"] == "not at War with any PR"


def test_criterion_1_active_ally_does_not_invade():
    """000 §13.5 criterion 1: the NPR is not an Active Ally of any PR."""
    w = _base(wars=[["Cast", "Arag"]], alliances=[{"pr": "Arag", "npr": "Gran", "active": True}])
    e = _inv(w)["Gran"]
    assert e["invades"] is False and e["eligible"] is False and e["failed"].startswith("criterion 1")


def test_criterion_2_hostile_units_in_own_area():
    """000 §13.5 criterion 2: no Area where the NPR controls Provinces holds Hostile Units."""
    e = _inv(_base(units=[("Cast", "G", 1)]))["Gran"]
    assert e["invades"] is False and e["failed"].startswith("criterion 2")


def test_criterion_3_needs_a_hostile_pr_token():
    """000 §13.5 criterion 3: the target must contain a t/v of a PR Hostile to the NPR."""
    w = _base(provinces={"g1": prov("G", "Gran", "large"), "x1": town("X", "Arag")})
    e = _inv(w)["Gran"]
    assert e["failed"] == "criterion 3: no eligible target Area"


def test_vassal_token_of_hostile_pr_qualifies():
    """000 §13.5 criterion 3: a `v` belonging to a Hostile PR qualifies."""
    realms = {**REALMS, "Vas": {"kind": "vassal", "overlord": "Cast"}}
    w = _base(realms=realms, provinces={"g1": prov("G", "Gran"), "x1": prov("X", "Vas", token="v")})
    assert _inv(w)["Gran"]["target"] == "X"


def test_occupied_npr_province_qualifies():
    """000 §13.5 criterion 3: any NPR Province Occupied by an Enemy qualifies."""
    w = _base(
        land={"G": ["H"], "H": []},
        provinces={"g1": prov("G", "Gran"), "h1": prov("H", "Gran", occupied_by="Cast")},
    )
    assert _inv(w)["Gran"]["target"] == "H"


def test_sea_only_neighbour_behind_hostile_ships_is_ineligible():
    """000 §13.5: adjacent by Sea only and every connecting Sea Zone holds a Hostile Ship (tricky case)."""
    land = {"G": [], "X": []}
    provs = {"g1": prov("G", "Gran", "large"), "x1": town("X", "Cast")}
    open_sea = world(
        land,
        provs,
        REALMS,
        seas={"S": ["G", "X"], "T": ["G", "X"]},
        wars=[["Cast", "Gran"]],
        ships=[("Cast", "S", 1)],
    )
    assert eligible_targets(open_sea, "Gran")[0] == ["X"]  # T is still clear
    closed = world(
        land,
        provs,
        REALMS,
        seas={"S": ["G", "X"], "T": ["G", "X"]},
        wars=[["Cast", "Gran"]],
        ships=[("Cast", "S", 1), ("Cast", "T", 2)],
    )
    eligible, ineligible = eligible_targets(closed, "Gran")
    assert eligible == [] and "Sea only" in ineligible["X"]
    # a friendly (non-Hostile) ship does not block
    friendly = world(land, provs, REALMS, seas={"S": ["G", "X"]}, wars=[["Cast", "Gran"]], ships=[("Arag", "S", 3)])
    assert eligible_targets(friendly, "Gran")[0] == ["X"]


def test_area_with_units_of_a_pr_not_at_war_is_ineligible():
    """000 §13.5: Areas containing Units of a PR not at War with the NPR are ineligible."""
    e = _inv(_base(units=[("Arag", "X", 1)]))["Gran"]
    assert e["invades"] is False and "Arag" in e["ineligible_areas"]["X"]


def test_priority_1_capital_area():
    """000 §13.5 step 1.1: the NPR's own Capital Area first (its capital Occupied by the Enemy)."""
    land = {"G": ["X", "C"], "X": [], "C": []}
    provs = {
        "g1": prov("C", "Gran", occupied_by="Cast"),
        "g2": prov("G", "Gran"),
        "x1": town("X", "Cast"),
        "x2": town("X", "Cast"),
        "c1": town("C", "Cast"),
    }
    e = _inv(world(land, provs, REALMS, wars=[["Cast", "Gran"]]))["Gran"]
    assert (e["target"], e["priority"]) == ("C", "1.1 Capital Area")


def test_priority_2_most_core_provinces():
    """000 §13.5 step 1.2: the Area with the most of the NPR's Core Provinces."""
    land = {"G": ["X", "Y"], "X": [], "Y": []}
    provs = {
        "g1": prov("G", "Gran"),
        "x1": town("X", "Cast", flag="Gran"),
        "y1": town("Y", "Cast", flag="Gran"),
        "y2": town("Y", "Cast", flag="Gran"),
    }
    e = _inv(world(land, provs, REALMS, wars=[["Cast", "Gran"]]))["Gran"]
    assert (e["target"], e["priority"]) == ("Y", "1.2 most Core Provinces")


def test_priority_2_does_not_count_provinces_a_core_token_made_another_realms():
    """000 §13.5 step 1.2 counts the NPR's Core Provinces; 001 §7.6: "All Provinces in an Area where a PR has
    placed a F are considered Core Provinces of that PR (and no other Realm)". Cast's Core token in Y makes
    its two Gran-flagged Provinces Cast's Cores, so X (one Gran Core) is the target, not Y."""
    land = {"G": ["X", "Y"], "X": [], "Y": []}
    provs = {
        "g1": prov("G", "Gran"),
        "x1": town("X", "Cast", flag="Gran"),
        "y1": town("Y", "Cast", flag="Gran"),
        "y2": town("Y", "Cast", flag="Gran"),
    }
    d = doc(land, provs, REALMS, wars=[["Cast", "Gran"]])
    d["areas"]["Y"]["core"] = "Cast"
    e = _inv(world_from_dict(d))["Gran"]
    assert (e["target"], e["priority"]) == ("X", "1.2 most Core Provinces")


def test_priority_3_adjacent_by_land():
    """000 §13.5 step 1.3: an Area adjacent by Land beats one adjacent by Sea only."""
    land = {"G": ["X"], "X": [], "Y": []}
    provs = {"g1": prov("G", "Gran"), "x1": town("X", "Cast"), "y1": town("Y", "Cast")}
    w = world(land, provs, REALMS, seas={"S": ["G", "Y"]}, wars=[["Cast", "Gran"]])
    e = _inv(w)["Gran"]
    assert (e["target"], e["priority"]) == ("X", "1.3 adjacent by Land")


def test_priority_4_random_is_seeded_and_recorded():
    """000 §13.5 step 1.4: a randomly selected adjacent Area, deterministic for a seed."""
    land = {"G": ["X", "Y", "Z"], "X": [], "Y": [], "Z": []}
    provs = {"g1": prov("G", "Gran"), **{f"{a.lower()}1": town(a, "Cast") for a in "XYZ"}}
    w = world(land, provs, REALMS, wars=[["Cast", "Gran"]])
    picks = {}
    for seed in range(12):
        d = invasions(w, seed=seed).to_dict()
        e = d["invasions"][0]
        assert e["priority"] == "1.4 random"
        assert d["dice"]["rolls"][0]["sides"] == 3
        assert invasions(w, seed=seed).to_dict() == d
        picks[seed] = e["target"]
    assert set(picks.values()) == {"X", "Y", "Z"}


def test_unrest_on_two_hostile_tokens_alphabetically():
    """000 §13.5 step 2: add Unrest to 2 t/v of PRs at War, alphabetically."""
    provs = {
        "g1": prov("G", "Gran"),
        "xc": town("X", "Cast"),
        "xa": town("X", "Cast"),
        "xb": town("X", "Cast"),
        "a0": town("X", "Arag"),
    }
    e = _inv(_base(provinces=provs))["Gran"]
    assert e["unrest"] == ["xa", "xb"]


def test_units_are_half_tax_value_with_vassals_rounded_up():
    """000 §13.5 step 3: half the Tax Value of the NPR and its Vassals, rounded up."""
    realms = {**REALMS, "Vas": {"kind": "vassal", "overlord": "Gran"}}
    provs = {
        "g1": prov("G", "Gran", "large"),
        "g2": prov("G", "Gran", occupied_by="Cast"),
        "v1": prov("V", "Vas", "large", extra_manpower=1),
        "x1": town("X", "Cast"),
    }
    e = _inv(_base(land={"G": ["X", "V"], "X": [], "V": []}, realms=realms, provinces=provs))["Gran"]
    assert e["units"] == 2  # (2 + 2) / 2; the Occupied g2 and the +1 m token do not count


def test_immediate_battle_and_rebels():
    """000 §13.5 steps 4-5: battle at once with Military Units there; survivors become Rebels."""
    provs = {
        "g1": prov("G", "Gran", "large"),
        "g2": prov("G", "Gran", "large"),
        "g3": prov("G", "Gran", "large"),
        "x1": town("X", "Cast"),
    }
    quiet = invasions(_base(provinces=provs), seed=3).to_dict()["invasions"][0]
    assert quiet["battle"] is None and quiet["rebels_placed"] == 3
    fight = invasions(_base(provinces=provs, units=[("Cast", "X", 1)]), seed=3).to_dict()["invasions"][0]
    b = fight["battle"]
    assert b["enemy_units"] == 1 and b["rounds"]
    assert fight["rebels_placed"] == (b["npr_units_left"] if b["winner"] != "enemy" else 0)


def test_invasion_changes_the_board_for_the_next_npr():
    """000 §13.5: NPRs resolve in order; Gran's Unrest means Nav skips those Provinces."""
    land = {"G": ["X"], "N": ["X"], "X": []}
    provs = {
        "g1": prov("G", "Gran"),
        "n1": prov("N", "Nav"),
        "xa": town("X", "Cast"),
        "xb": town("X", "Cast"),
        "xc": town("X", "Cast"),
    }
    inv = _inv(world(land, provs, REALMS, wars=[["Cast", "Gran"], ["Cast", "Nav"]]))
    assert inv["Gran"]["unrest"] == ["xa", "xb"] and inv["Nav"]["unrest"] == ["xc"]


def test_every_step_names_a_rule_and_text_renders():
    d = invasions(_base())
    assert all(step.rule.startswith(("000 §13.5", "000 §13.4", "rules-gaps")) for step in d.trace)
    assert "Gran: invades X" in str(d)


def test_priority_1_capital_area_comes_before_most_core_provinces():
    """000 §13.5 step 1: the Capital Area (1.1) wins even when another Area holds more Cores (1.2)."""
    land = {"G": ["C", "Y"], "C": [], "Y": []}
    provs = {
        "g1": prov("C", "Gran", occupied_by="Cast"),  # the Capital: 1 Core, Occupied by an Enemy
        "g2": prov("G", "Gran"),
        "y1": town("Y", "Cast", flag="Gran"),
        "y2": town("Y", "Cast", flag="Gran"),
    }
    for seed in range(4):
        e = _inv(world(land, provs, REALMS, wars=[["Cast", "Gran"]]), seed)["Gran"]
        assert (e["target"], e["priority"]) == ("C", "1.1 Capital Area")


def _core_tie_by_sea(**kw):
    """X and Y tie on 2 Gran Cores and are reached by Sea only; Z has no Core but is adjacent by Land."""
    from engine.realms import world_from_dict
    from tests.realms.helpers import doc

    provs = {
        "g1": prov("G", "Gran"),
        "x1": town("X", "Cast", flag="Gran"), "x2": town("X", "Cast", flag="Gran"),
        "y1": town("Y", "Cast", flag="Gran"), "y2": town("Y", "Cast", flag="Gran"),
        "z1": town("Z", "Cast"),
    }
    d = doc({"G": ["Z"], "X": [], "Y": [], "Z": []}, provs, REALMS, seas={"S": ["G", "X", "Y"]},
            wars=[["Cast", "Gran"]])
    return world_from_dict(d, **kw)


def test_priorities_break_ties_among_the_tied_areas_only():
    """000 §13.5 step 1 with RealmRules.priorities_break_ties (assumptions.md): a tie on 1.2 goes to
    1.3, then 1.4, among the tied Areas only: Z (no Core) is never picked over the tied X and Y."""
    picks = set()
    for seed in range(12):
        e = _inv(_core_tie_by_sea(), seed)["Gran"]
        assert e["priority"] == "1.4 random"
        picks.add(e["target"])
    assert picks == {"X", "Y"}


def test_priorities_as_separate_choices_when_ties_are_not_broken():
    """With priorities_break_ties off, a tie on 1.2 decides nothing and 1.3 looks at every eligible Area."""
    from engine.realms.options import RealmRules

    e = _inv(_core_tie_by_sea(rules=RealmRules(priorities_break_ties=False)))["Gran"]
    assert (e["target"], e["priority"]) == ("Z", "1.3 adjacent by Land")


def test_criterion_2_looks_at_every_area_it_controls_vassals_included():
    """000 §13.5 criterion 2 ("None of the Areas where the NPR currently Controls Provinces"), with
    000 §13.2 (its Vassals' Provinces count as its own, "This also applies to NPR Invasions"):
    Hostile Units in a non-Capital Area, or in its Vassal's Area, stop the Invasion."""
    realms = {**REALMS, "Vas": {"kind": "vassal", "overlord": "Gran"}}
    land = {"G": ["H", "X", "V"], "H": [], "X": [], "V": []}
    provs = {"g1": prov("G", "Gran"), "h1": prov("H", "Gran"), "v1": prov("V", "Vas"), "x1": town("X", "Cast")}
    assert _inv(world(land, provs, realms, wars=[["Cast", "Gran"]]))["Gran"]["invades"] is True
    for area in ("H", "V"):
        e = _inv(world(land, provs, realms, wars=[["Cast", "Gran"]], units=[("Cast", area, 1)]))["Gran"]
        assert e["invades"] is False and e["failed"] == f"criterion 2: Hostile Units in {area}"


def test_vassal_province_occupied_by_an_enemy_qualifies():
    """000 §13.5 criterion 3 "(any of NPR's Provinces that are Occupied by an Enemy qualify)", with
    000 §13.2: a Province of the NPR's Vassal Occupied by an Enemy makes its Area a target."""
    realms = {**REALMS, "Vas": {"kind": "vassal", "overlord": "Gran"}}
    provs = {"g1": prov("G", "Gran"), "v1": prov("V", "Vas", occupied_by="Cast")}
    e = _inv(world({"G": ["V"], "V": []}, provs, realms, wars=[["Cast", "Gran"]]))["Gran"]
    assert (e["invades"], e["target"]) == (True, "V")


def test_survivors_stay_on_the_board_as_rebels_for_the_next_npr():
    """000 §13.5 step 5 "From this point onwards, these NPR Units behave as Rebels": the invaders are
    Rebel Units on the board the next NPR is resolved on."""
    from engine.realms.model import UnitStack
    from engine.trace import Dice, Trace
    from npr_controller.realms.invasions import invade_one

    provs = {"g1": prov("G", "Gran", "large"), "g2": prov("G", "Gran", "large"), "x1": town("X", "Cast")}
    w = _base(provinces=provs)
    entry, after = invade_one(w, "Gran", Dice(0), Trace(), None)
    assert (entry["target"], entry["units"], entry["battle"], entry["rebels_placed"]) == ("X", 2, None, 2)
    assert UnitStack(None, "X", "rebel", 2) in after.units and not any(u.kind == "rebel" for u in w.units)


def test_own_areas_count_as_adjacent_by_land():
    """000 §13.5 step 1.3 with RealmRules.own_areas_are_adjacent (assumptions.md): an Area where the
    NPR owns Provinces is "adjacent by Land" to it, so it ties with X at 1.3 and 1.4 picks among both;
    Y, by Sea only, is never picked."""
    realms = {**REALMS, "Gran": "npr"}  # no Capital: step 1.1 decides nothing
    provs = {"g1": prov("G", "Gran", flag="Nav"), "gt": town("G", "Cast"), "x1": town("X", "Cast"),
             "y1": town("Y", "Cast")}
    w = world({"G": ["X"], "X": [], "Y": []}, provs, realms, seas={"S": ["G", "Y"]}, wars=[["Cast", "Gran"]])
    picks = set()
    for seed in range(16):
        e = _inv(w, seed)["Gran"]
        assert e["priority"] == "1.4 random" and e["eligible_areas"] == ["G", "X", "Y"]
        picks.add(e["target"])
    assert picks == {"G", "X"}
