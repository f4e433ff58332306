"""Calls to Arms (004 §11.3), Liberation, Released Vassals and DNPR expansion (000 §13, §13.2, §13.3)."""

from dataclasses import replace

import pytest

from engine.errors import IllegalOrderError, ValidationError
from engine.realms import world_from_dict
from npr_controller.realms.cta import call_to_arms
from npr_controller.realms.liberation import dnpr_expansion, liberate, released_vassals
from tests.realms.helpers import doc, prov, town, world

REALMS = {"Gran": {"kind": "npr", "capital": "g1"}, "Cast": "pr", "Arag": "pr"}


def _cta(w, attacker="Cast", target="Gran"):
    return call_to_arms(w, {"attacker": attacker, "target": target}).to_dict()


def test_npr_sends_defensive_cta_at_once_to_its_ally():
    """004 §11.3: NPRs automatically always send a Defensive CtA at once when targeted by a DoW."""
    w = world(
        {"G": []},
        {"g1": prov("G", "Gran", "large", extra_manpower=1)},
        REALMS,
        alliances=[{"pr": "Arag", "npr": "Gran"}],
    )
    d = _cta(w)
    assert [(c["from"], c["to"], c["kind"], c["can_accept"]) for c in d["ctas"]] == [
        ("Gran", "Arag", "defensive", True)
    ]
    assert d["ctas"][0]["active_ally_units"] == 2  # half of 2 + 1 token, rounded up
    assert any("lose 2 Stability" in r for r in d["ctas"][0]["refuse"])


def test_no_cta_without_an_ally_and_none_to_the_attacker_itself():
    w = world({"G": []}, {"g1": prov("G", "Gran")}, REALMS, alliances=[{"pr": "Cast", "npr": "Gran"}])
    assert _cta(w)["ctas"] == []
    assert _cta(world({"G": []}, {"g1": prov("G", "Gran")}, REALMS))["ctas"] == []


def test_refusal_steps_3_and_4_ignored_when_already_at_war():
    """004 §11.3 Refusing a CtA: ignore steps 3 and 4 if already involved in another War."""
    realms = {**REALMS, "Nav": "npr"}
    w = world(
        {"G": []}, {"g1": prov("G", "Gran")}, realms, alliances=[{"pr": "Arag", "npr": "Gran"}], wars=[["Arag", "Nav"]]
    )
    c = _cta(w)["ctas"][0]
    assert c["ignores_steps_3_4"] is True and not any("Stability" in r for r in c["refuse"])


def test_active_ally_units_capped_at_five():
    """004 §11.3 Active Allies: half the Tax Value, max 5 Units."""
    provs = {f"g{i}": prov("G", "Gran", "large") for i in range(1, 8)}
    w = world({"G": []}, provs, REALMS, alliances=[{"pr": "Arag", "npr": "Gran"}])
    assert _cta(w)["ctas"][0]["active_ally_units"] == 5


def test_war_on_a_vassal_must_target_its_overlord():
    realms = {**REALMS, "Vas": {"kind": "vassal", "overlord": "Gran"}}
    w = world({"G": []}, {"g1": prov("G", "Gran"), "v": prov("G", "Vas")}, realms)
    with pytest.raises(ValidationError, match=r"declaration.target: 'Vas' is a Vassal"):
        _cta(w, target="Vas")


def test_liberated_province_returns_to_its_flag_with_natural_capital():
    """000 §13 Liberated NPR Provinces: they belong again to the NPR of their flag."""
    w = world({"G": []}, {"g1": town("G", "Cast", flag="Gran"), "g2": prov("G", "Gran")}, REALMS)
    d = liberate(w, ["g1"]).to_dict()["liberated"][0]
    assert (d["realm"], d["capital"], d["capital_rule"]) == ("Gran", "g1", "natural Capital")


def test_capital_chosen_alphabetically_large_first_when_natural_capital_held():
    """000 §13: natural Capital still Owned by another Realm: alphabetically, Large Provinces first."""
    provs = {
        "g1": town("G", "Cast", flag="Gran"),
        "a": town("G", "Cast", flag="Gran"),
        "z": town("G", "Arag", "large", flag="Gran"),
        "m": town("G", "Arag", "large", flag="Gran"),
    }
    d = liberate(world({"G": []}, provs, REALMS), ["a", "z", "m"]).to_dict()["liberated"][0]
    assert (d["capital"], d["capital_rule"]) == ("m", "alphabetical, Large first")
    small_only = liberate(world({"G": []}, provs, REALMS), ["a"]).to_dict()["liberated"][0]
    assert small_only["capital"] == "a"


def test_the_new_capital_is_never_a_province_an_enemy_occupies():
    """000 §13: "alphabetically determine a Capital for this NPR, selecting among their Large Provinces
    first"; rules-gaps Definitions: "an Occupied Province belongs to neither side". Gran's Large g0,
    Occupied by Cast, was made the Capital of the liberated NPR."""
    provs = {
        "g0": prov("G", "Gran", "large", occupied_by="Cast"),
        "g1": town("G", "Cast", flag="Gran"),
        "g2": town("H", "Cast", flag="Gran"),
        "g3": prov("H", "Gran"),
    }
    w = world({"G": ["H"], "H": []}, provs, REALMS, wars=[["Cast", "Gran"]])
    d = liberate(w, ["g2"]).to_dict()["liberated"][0]
    assert (d["capital"], d["capital_rule"]) == ("g2", "alphabetical, Large first")
    freed = liberate(w.evolve(provinces={**w.provinces, "g0": replace(w.provinces["g0"], occupied_by=None)}), ["g2"])
    assert freed.to_dict()["liberated"][0]["capital"] == "g0"  # no longer Occupied: Large first


def test_core_of_its_owner_cannot_be_liberated():
    """001 §7.6: a Core Province of its Owner cannot be Liberated."""
    w = world({"G": []}, {"g1": prov("G", "Gran"), "c": town("G", "Cast")}, REALMS)
    with pytest.raises(IllegalOrderError):
        liberate(w, ["c"])


def test_a_province_in_an_area_with_its_owners_core_token_cannot_be_liberated():
    """001 §7.6: Cores are "superceded by any æ on the Province or F placed in its Area"; "All Provinces in an
    Area where a PR has placed a F are considered Core Provinces of that PR (and no other Realm)", and "A
    Province which is a Core Province of its Owner cannot be Liberated". Without Core tokens in the world,
    Cast's Gran-flagged Province went back to Gran."""
    d = doc({"G": [], "H": []}, {"g1": prov("G", "Gran"), "h": town("H", "Cast", flag="Gran")}, REALMS)
    assert liberate(world_from_dict(d), ["h"]).to_dict()["liberated"][0]["realm"] == "Gran"
    d["areas"]["H"]["core"] = "Cast"
    with pytest.raises(IllegalOrderError, match=r"Core Province of its Owner Cast \(its Core token is in the Area\)"):
        liberate(world_from_dict(d), ["h"])
    d["provinces"]["h"] = town("H", "Arag", flag="Gran")  # Arag took it from Cast: still Cast's Core, no NPR's
    with pytest.raises(IllegalOrderError, match="h is a Core of Cast, not of an NPR"):
        liberate(world_from_dict(d), ["h"])


def test_dnpr_expansion_never_takes_a_province_a_core_token_made_a_prs_core():
    """000 §13.3 "A æ can never be placed on a PR's Core"; 001 §7.6: a Core token makes its Area's Provinces
    the PR's Cores."""
    realms = {**REALMS, "Dn": {"kind": "dnpr", "capital": "d1"}, "Nav": "npr"}
    provs = {"g1": prov("G", "Gran"), "d1": prov("D", "Dn", token="dnpr", dnpr="Dn"), "n1": prov("N", "Nav"),
             "n2": prov("M", "Nav")}
    d = doc({"D": ["N", "M"], "G": [], "N": [], "M": []}, provs, realms)
    assert dnpr_expansion(world_from_dict(d), "Dn").to_dict()["province"] == "n1"  # alphabetically first
    d["areas"]["N"]["core"] = "Cast"
    assert dnpr_expansion(world_from_dict(d), "Dn").to_dict()["province"] == "n2"


def test_dnpr_province_returns_to_its_dnpr():
    """000 §13.3: the DNPR token stays under the PR's t in case it gets Liberated."""
    realms = {**REALMS, "Dn": "dnpr"}
    w = world({"G": []}, {"g1": prov("G", "Gran"), "d": town("G", "Cast", flag="Gran", dnpr="Dn")}, realms)
    assert liberate(w, ["d"]).to_dict()["liberated"][0]["realm"] == "Dn"


def test_released_vassals():
    """000 §13.2: Overlord gone, or a PR Overlord's v removed: the Vassal is an independent NPR."""
    realms = {
        **REALMS,
        "Gone": "npr",
        "V1": {"kind": "vassal", "overlord": "Gone"},
        "V2": {"kind": "vassal", "overlord": "Cast"},
        "V3": {"kind": "vassal", "overlord": "Gran"},
    }
    provs = {
        "g1": prov("G", "Gran"),
        "c": town("G", "Cast"),
        "v1": prov("G", "V1"),
        "v2": prov("G", "V2"),
        "v3": prov("G", "V3"),
    }
    out = released_vassals(world({"G": []}, provs, realms)).to_dict()["released"]
    assert [r["realm"] for r in out] == ["V1", "V2"]


def test_no_vassal_to_release_is_said_in_the_trace():
    """npr release on a world without Vassals answered 'no Vassal is released' with an empty trace, citing nothing
    for the GM to check; the trace now says no realm is a Vassal, under 000 §13.2."""
    d = released_vassals(world({"G": []}, {"g1": prov("G", "Gran"), "c": town("G", "Cast")}, REALMS)).to_dict()
    assert d["released"] == []
    assert [s["rule"] for s in d["trace"]] == ["000 §13.2 Released Vassals"]
    assert "no realm of this world is a Vassal" in d["trace"][0]["because"]


def test_dnpr_expansion_prefers_own_area_then_lowest_tax_npr():
    """rules-gaps.md DNPR expansion: own Areas first, then land; lowest Tax Income, ties alphabetically."""
    realms = {"Dn": {"kind": "dnpr"}, "Big": "npr", "Low": "npr", "Cast": "pr"}
    land = {"D": ["L"], "L": []}
    provs = {
        "d1": prov("D", "Dn", token="dnpr", dnpr="Dn"),
        "b1": prov("D", "Big", "large"),
        "b2": prov("L", "Big"),
        "l1": prov("L", "Low"),
    }
    d = dnpr_expansion(world(land, provs, realms), "Dn").to_dict()
    assert (d["province"], d["from"]) == ("b1", "Big")  # own Area beats a poorer NPR next door
    provs2 = {
        "d1": prov("D", "Dn", token="dnpr", dnpr="Dn"),
        "b1": prov("L", "Big", "large"),
        "l1": prov("L", "Low"),
    }
    d = dnpr_expansion(world(land, provs2, realms), "Dn").to_dict()
    assert (d["province"], d["from"]) == ("l1", "Low")


def test_attacking_a_marriage_partner_costs_stability():
    """004 §11.2: -1 Stability if you attack a Realm to which you are Married."""
    w = world({"G": []}, {"g1": prov("G", "Gran")}, REALMS, marriages=[["Cast", "Gran"]])
    assert _cta(w)["attacker_stability_loss"] == 1
    assert _cta(world({"G": []}, {"g1": prov("G", "Gran")}, REALMS))["attacker_stability_loss"] == 0


def test_refusal_influence_loss_is_one_fewer_where_married():
    """004 §11.2: "remove 1 fewer I than normal if you have 1+ M in that Area" applies to the
    5 Influence a refused Defensive CtA costs (004 §11.3 step 3)."""
    kw = {"alliances": [{"pr": "Arag", "npr": "Gran"}]}
    plain = _cta(world({"G": []}, {"g1": prov("G", "Gran")}, REALMS, **kw))["ctas"][0]["refuse"]
    wed = _cta(world({"G": []}, {"g1": prov("G", "Gran")}, REALMS, marriages=[["Arag", "Gran"]], **kw))
    assert not any("1 fewer" in r for r in plain)
    assert any("remove 1 fewer Influence" in r for r in wed["ctas"][0]["refuse"])


def test_refusal_steps_3_and_4_ignored_when_passed():
    """004 §11.3 Refusing a CtA: "Ignore steps 3 and 4 above if ... You have Passed"."""
    kw = {"alliances": [{"pr": "Arag", "npr": "Gran"}]}
    realms = {**REALMS, "Arag": {"kind": "pr", "passed": True}}
    c = _cta(world({"G": []}, {"g1": prov("G", "Gran")}, realms, **kw))["ctas"][0]
    assert c["ignores_steps_3_4"] is True and not any("Stability" in r for r in c["refuse"])
    assert any("Arag has Passed" in r for r in c["refuse"])


def test_refusing_toward_an_npr_places_a_truce_on_its_capital():
    """004 §11.3 Refusing a CtA step 5: "If your former Ally is an NPR ... you must place a Truce token
    on their Capital" (step 1: the Alliance ends)."""
    w = world({"G": []}, {"g1": prov("G", "Gran")}, REALMS, alliances=[{"pr": "Arag", "npr": "Gran"}])
    refuse = _cta(w)["ctas"][0]["refuse"]
    assert refuse[0].startswith("the Alliance with Gran is terminated")
    assert refuse[-1] == "place a Truce token on Gran's Capital"


def test_accepting_ends_an_alliance_with_a_pr_on_the_opposing_side():
    """004 §11.3 Accepting a CtA step 3: accepting a Defensive CtA while Allied to a PR on the opposing
    side terminates that Alliance."""
    kw = {"alliances": [{"pr": "Arag", "npr": "Gran"}]}
    plain = _cta(world({"G": []}, {"g1": prov("G", "Gran")}, REALMS, **kw))["ctas"][0]["accept"]
    both = _cta(world({"G": []}, {"g1": prov("G", "Gran")}, REALMS,
                      alliances=[{"pr": "Arag", "npr": "Gran"}, {"pr": "Arag", "ally": "Cast"}]))
    assert not any("terminated" in a for a in plain)
    assert "your Alliance with Cast (on the opposing side) is terminated" in both["ctas"][0]["accept"]


def test_refusing_an_offensive_cta_skips_steps_3_and_4():
    """004 §11.3 Refusing a CtA: steps 3 and 4 are for a Defensive CtA only ("If this is a Defensive
    CtA"): refusing an Offensive one costs no Stability nor Influence."""
    from npr_controller.realms.cta import consequences

    w = world({"G": []}, {"g1": prov("G", "Gran")}, REALMS, alliances=[{"pr": "Arag", "npr": "Gran"}])
    defensive = consequences(w, "Arag", "Gran", "Cast")["refuse"]
    offensive = consequences(w, "Arag", "Gran", "Cast", defensive=False)["refuse"]
    assert any("Stability" in r for r in defensive)
    assert not any("Stability" in r or "Influence" in r for r in offensive)


def test_refusing_a_player_realm_allys_cta_names_its_cb_and_both_truces():
    """004 §11.3 Refusing a CtA: "4. If this is a Defensive CtA and your former Ally is a PR, they -may-
    place a CB token on your Capital. 5. If your former Ally is an NPR, or a PR that chose not to place a
    CB token, you must place a Truce token on their Capital (and if a PR, they must on yours)." The
    answer to a PR Ally's CtA (the caretaker's) named only the Truce on the Ally's Capital."""
    from npr_controller.realms.cta import consequences

    w = world({"G": []}, {"g1": prov("G", "Gran"), "a1": town("G", "Arag"), "c1": town("G", "Cast")},
              REALMS, alliances=[{"pr": "Arag", "ally": "Cast"}])
    defensive = consequences(w, "Arag", "Cast", "Gran")["refuse"]
    assert defensive[-1] == ("Cast may place a CB token on Arag's Capital; if it does not, place a Truce token "
                             "on Cast's Capital and Cast places one on Arag's")
    offensive = consequences(w, "Arag", "Cast", "Gran", defensive=False)["refuse"]
    assert offensive[-1] == "place a Truce token on Cast's Capital and Cast places one on Arag's"
    # an NPR former Ally: the Truce token on its Capital only
    npr = world({"G": []}, {"g1": prov("G", "Gran")}, REALMS, alliances=[{"pr": "Arag", "npr": "Gran"}])
    assert consequences(npr, "Arag", "Gran", "Cast")["refuse"][-1] == "place a Truce token on Gran's Capital"
