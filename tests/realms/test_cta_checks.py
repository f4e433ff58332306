"""Impossible Declarations of War are refused by `npr cta` (hA dogfood defect 7), and the CtA's text
says what is true of the Ally (defect 9): before, an NPR "attacker", a Declaration inside a Truce and
one between realms already at War were all answered with Calls to Arms, and an Active Ally was told
to "decide whether it becomes an Active Ally"."""

from __future__ import annotations

import json

import pytest

from engine.errors import ValidationError
from npr_controller.realms.cta import call_to_arms
from service.cli import main
from tests.realms.helpers import doc, prov, town, world

REALMS = {"Gran": {"kind": "npr", "capital": "g1"}, "Nav": {"kind": "npr", "capital": "n1"},
          "Cast": {"kind": "pr", "capital": "c1"}, "Arag": {"kind": "pr", "capital": "a1"},
          "Vass": {"kind": "vassal", "overlord": "Nav"}}
LAND = {"G": [], "N": [], "C": [], "A": [], "V": []}
PROVINCES = {"g1": prov("G", "Gran"), "n1": prov("N", "Nav"), "c1": town("C", "Cast"), "a1": town("A", "Arag"),
             "v1": prov("V", "Vass")}


def _world(**kw):
    return world(LAND, PROVINCES, REALMS, **kw)


@pytest.mark.parametrize(("attacker", "target", "kw", "field", "words"), [
    ("Nav", "Gran", {}, "declaration.attacker", "'Nav' is an NPR, not a Player Realm"),
    ("Vass", "Gran", {}, "declaration.attacker", "'Vass' is a Vassal"),
    ("Cast", "Gran", {"truces": [["Cast", "Gran"]]}, "declaration", "in a Truce"),
    ("Cast", "Gran", {"wars": [["Cast", "Gran"]]}, "declaration", "already at War with Gran"),
    # at War through the Active Ally: Gran is part of every War of Arag (004 §11.3 Active Allies)
    ("Cast", "Gran", {"wars": [["Cast", "Arag"]], "alliances": [{"pr": "Arag", "npr": "Gran", "active": True}]},
     "declaration", "already at War"),
])
def test_impossible_declarations_are_refused(attacker, target, kw, field, words):
    with pytest.raises(ValidationError) as err:
        call_to_arms(_world(**kw), {"attacker": attacker, "target": target})
    assert err.value.field == field and words in err.value.reason


def test_the_cli_says_it_in_one_line(tmp_path, capsys):
    path = tmp_path / "w.json"
    path.write_text(json.dumps(doc(LAND, PROVINCES, REALMS, truces=[["Cast", "Gran"]])))
    assert main(["npr", "cta", str(path), "--attacker", "Cast", "--target", "Gran"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "declaration: Cast and Gran are in a Truce" in err[0]


def test_an_active_ally_is_not_asked_to_decide_again():
    w = _world(alliances=[{"pr": "Arag", "npr": "Gran", "active": True}])
    accept = call_to_arms(w, {"attacker": "Cast", "target": "Gran"}).to_dict()["ctas"][0]["accept"]
    assert any("Gran is already your Active Ally" in line for line in accept)
    assert not any("decide whether Gran becomes an Active Ally" in line for line in accept)
    plain = _world(alliances=[{"pr": "Arag", "npr": "Gran"}])
    accept = call_to_arms(plain, {"attacker": "Cast", "target": "Gran"}).to_dict()["ctas"][0]["accept"]
    assert any("decide whether Gran becomes an Active Ally" in line for line in accept)


def test_ignored_refusal_steps_say_why():
    w = _world(alliances=[{"pr": "Arag", "npr": "Gran"}], wars=[["Arag", "Nav"]])
    refuse = call_to_arms(w, {"attacker": "Cast", "target": "Gran"}).to_dict()["ctas"][0]["refuse"]
    assert any("steps 3-4" in r and "Arag is already in another War (with Nav, Vass)" in r for r in refuse)
