"""``npr.invasions`` answers a program can read (issue 20 item 3): beside the prose, every entry carries
``reason`` (a code), ``criterion`` (the failed criterion of 000 §13.5, or None) and ``priority_level``
(the step-1 priority, "1.1" to "1.4", or None); ineligible Areas carry ``ineligible_codes``."""

from __future__ import annotations

import pytest

from npr_controller.realms.invasions import invasions
from service.stateless import npr_invasions
from tests.realms.helpers import doc, prov, town, world

REALMS = {"Gran": {"kind": "npr", "capital": "g1"}, "Nav": "npr", "Cast": "pr", "Arag": "pr"}


def _base(**kw):
    land = kw.pop("land", {"G": ["X"], "X": []})
    provs = kw.pop("provinces", {"g1": prov("G", "Gran", "large"), "x1": town("X", "Cast")})
    return world(land, provs, kw.pop("realms", REALMS), **{"wars": [["Cast", "Gran"]], **kw})


def _codes(e):
    return e["reason"], e["criterion"], e["priority_level"]


def _gran(w, seed=0):
    return next(e for e in invasions(w, seed=seed).to_dict()["invasions"] if e["npr"] == "Gran")


def test_not_at_war_and_only_eligible_area():
    entries = {e["npr"]: e for e in invasions(_base()).to_dict()["invasions"]}
    assert _codes(entries["Nav"]) == ("not_at_war", None, None)
    assert entries["Nav"]["failed"] == "not at War with any PR"  # the prose stays
    assert _codes(entries["Gran"]) == ("only_eligible", None, None)
    assert entries["Gran"]["priority"] == "only eligible Area"


def test_failed_criteria():
    ally = _base(wars=[["Cast", "Arag"]], alliances=[{"pr": "Arag", "npr": "Gran", "active": True}])
    assert _codes(_gran(ally)) == ("active_ally", 1, None)
    assert _codes(_gran(_base(units=[("Cast", "G", 1)]))) == ("hostile_units", 2, None)
    no_target = _base(provinces={"g1": prov("G", "Gran", "large"), "x1": town("X", "Arag")})
    e = _gran(no_target)
    assert _codes(e) == ("no_eligible_target", 3, None)
    assert e["ineligible_codes"] == {a: {"criterion": 3, "reason": "no_target"} for a in ("G", "X")}


def test_ineligible_codes_for_units_of_a_pr_not_at_war_and_closed_seas():
    e = _gran(_base(units=[("Arag", "X", 1)]))
    assert e["ineligible_codes"]["X"] == {"criterion": 3, "reason": "pr_not_at_war"}
    closed = world({"G": [], "X": []}, {"g1": prov("G", "Gran", "large"), "x1": town("X", "Cast")}, REALMS,
                   seas={"S": ["G", "X"]}, wars=[["Cast", "Gran"]], ships=[("Cast", "S", 1)])
    assert _gran(closed)["ineligible_codes"]["X"] == {"criterion": 3, "reason": "sea_only_hostile"}


@pytest.mark.parametrize(("land", "provs", "seas", "expected"), [
    ({"G": ["X", "C"], "X": [], "C": []},
     {"g1": prov("C", "Gran", occupied_by="Cast"), "g2": prov("G", "Gran"), "x1": town("X", "Cast"),
      "c1": town("C", "Cast")}, None, ("capital_area", None, "1.1")),
    ({"G": ["X", "Y"], "X": [], "Y": []},
     {"g1": prov("G", "Gran"), "x1": town("X", "Cast", flag="Gran"), "y1": town("Y", "Cast", flag="Gran"),
      "y2": town("Y", "Cast", flag="Gran")}, None, ("most_cores", None, "1.2")),
    ({"G": ["X"], "X": [], "Y": []},
     {"g1": prov("G", "Gran"), "x1": town("X", "Cast"), "y1": town("Y", "Cast")}, {"S": ["G", "Y"]},
     ("land_adjacent", None, "1.3")),
    ({"G": ["X", "Y"], "X": [], "Y": []},
     {"g1": prov("G", "Gran"), "x1": town("X", "Cast"), "y1": town("Y", "Cast")}, None, ("random", None, "1.4")),
])
def test_priority_levels(land, provs, seas, expected):
    kw = {"seas": seas} if seas else {}
    e = _gran(world(land, provs, REALMS, wars=[["Cast", "Gran"]], **kw))
    assert e["invades"] and _codes(e) == expected
    assert e["priority"].startswith(expected[2])  # the prose names the same level


def test_the_service_answer_carries_the_codes():
    from service.params import Params

    document = doc({"G": ["X"], "X": []}, {"g1": prov("G", "Gran", "large"), "x1": town("X", "Cast")}, REALMS,
                   wars=[["Cast", "Gran"]])
    answer = npr_invasions(Params("npr.invasions", [{"world": document}]))
    entries = {e["npr"]: e for e in answer["invasions"]}
    assert entries["Nav"]["reason"] == "not_at_war" and entries["Gran"]["reason"] == "only_eligible"
