"""Worlds whose parts contradict each other are refused with the field named (hA dogfood defect 5):
a realm Allied to itself, Allies at War, more Alliances than 004 §11.3 allows, a Province Occupied by
its owner or by a realm at peace with it, a Capital Owned by another realm. Before, all were accepted
(exit 0) and the decisions ran on them."""

from __future__ import annotations

import copy
import json

import pytest

from engine.errors import ValidationError
from engine.realms import world_from_dict
from engine.realms.loader import validated_world
from service.cli import main
from service.stateless import run
from tests.realms.helpers import doc, prov, town


def base() -> dict:
    land = {"K": ["O"], "O": ["W"], "W": [], "M": [], "D": [], "F": []}
    provinces = {"Kessel": prov("K", "Brask", "large"), "Hain": prov("K", "Brask"),
                 "Ostburg": town("O", "Valdor", "large"), "Rotfels": town("O", "Valdor", flag="Brask"),
                 "Westhafen": town("W", "Carthen", "large"), "Sornby": town("M", "Sorn", "large"),
                 "Drev": prov("D", "Drevia"), "Mirrhold": prov("M", "Mirr"), "Far": prov("F", "Farr")}
    realms = {"Valdor": {"kind": "pr", "capital": "Ostburg"}, "Carthen": {"kind": "pr", "capital": "Westhafen"},
              "Sorn": {"kind": "pr", "capital": "Sornby"}, "Brask": {"kind": "npr", "capital": "Kessel"},
              "Drevia": {"kind": "npr", "capital": "Drev"}, "Mirr": {"kind": "npr", "capital": "Mirrhold"},
              "Farr": {"kind": "npr", "capital": "Far"}}
    return doc(land, provinces, realms, wars=[["Valdor", "Brask"], ["Carthen", "Brask"]],
               alliances=[{"pr": "Carthen", "npr": "Drevia"}])


def _with(change) -> dict:
    d = copy.deepcopy(base())
    change(d)
    return d


def _ally(**a):
    return lambda d: d["relations"]["alliances"].append(a)


def _influence(**areas):
    return lambda d: d["relations"]["influence"].update(areas)


def _set(section, name, **kw):
    return lambda d: d[section][name].update(kw)


def _many(*changes):
    def run_all(d):
        for c in changes:
            c(d)
    return run_all


BAD = {
    "allied to itself": (_ally(pr="Valdor", ally="Valdor"), "relations.alliances[1].ally",
                         "cannot be Allied to itself"),
    "allied to an NPR at War": (_ally(pr="Valdor", npr="Brask"), "relations.alliances[1]", "but at War with it"),
    "the same PR Alliance twice": (_many(_ally(pr="Valdor", ally="Sorn"), _ally(pr="Sorn", ally="Valdor")),
                                   "relations.alliances[2]", "already Allied"),
    "four Alliances": (_many(_ally(pr="Sorn", npr="Mirr"), _ally(pr="Sorn", npr="Farr"),
                             _ally(pr="Sorn", ally="Valdor"), _ally(pr="Sorn", ally="Carthen")),
                       "relations.alliances[4]", "Sorn would have 4 Alliances: at most 3"),
    "Occupied by its owner": (_set("provinces", "Hain", occupied_by="Brask"), "provinces.Hain.occupied_by",
                              "cannot Occupy its own Province"),
    "Occupied by a realm at peace": (_set("provinces", "Hain", occupied_by="Sorn"), "provinces.Hain.occupied_by",
                                     "not at War with Hain's owner 'Brask'"),
    "PR Capital Owned by another": (_set("realms", "Valdor", capital="Westhafen"), "realms.Valdor.capital",
                                    "Owned by Carthen, not Valdor"),
    "NPR Capital that is not its Core": (_set("realms", "Brask", capital="Ostburg"), "realms.Brask.capital",
                                         "not a Brask Core"),
    # 004 §11.1: "No Area can hold more than 5 I" (accepted before, 6 and more)
    "six Influence in an Area": (_influence(K={"Valdor": 4, "Carthen": 2}), "relations.influence.K",
                                 "holds 6 Influence"),
    # 004 §11.1 Influence and Player Realms: once every Province is a PR's, its Influence goes home
    "Influence where every Province is a PR's": (_influence(W={"Valdor": 1}), "relations.influence.W",
                                                 "Owned by a Player Realm"),
    # 004 §11.1 Influence on Distant Continents: "No I can be placed in Distant Areas"
    "Influence in a Distant Area": (_many(_set("areas", "F", distant=True), _influence(F={"Valdor": 1})),
                                    "relations.influence.F", "is Distant"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_contradictions_are_refused_naming_the_field(case):
    change, field, words = BAD[case]
    data = _with(change)
    for load in (world_from_dict, validated_world):  # the fast path and the full validator agree
        with pytest.raises(ValidationError) as err:
            load(copy.deepcopy(data))
        assert err.value.field == field and words in err.value.reason, (load.__name__, str(err.value))


def test_the_cli_and_the_service_name_the_field(tmp_path, capsys):
    path = tmp_path / "w.json"
    path.write_text(json.dumps(_with(_ally(pr="Valdor", npr="Brask"))))
    assert main(["npr", "release", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"regent: error: {path}: relations.alliances[1]: ")
    status, out = run("npr.release", [{"world": _with(_set("provinces", "Hain", occupied_by="Brask"))}])
    assert status == "error" and out["code"] == "invalid_params"
    assert out["details"]["field"] == "world.provinces.Hain.occupied_by"


ACCEPTED = {
    # 000 §13 Liberated NPR Provinces: an NPR's natural Capital may be Owned by another Realm
    "NPR natural Capital Owned by a PR": _set("realms", "Brask", capital="Rotfels"),
    "two Allies at War with the same NPR": _ally(pr="Valdor", ally="Carthen"),
    "Occupied by an Enemy": _set("provinces", "Hain", occupied_by="Valdor"),
    "Occupied by Rebels": _set("provinces", "Hain", occupied_by="rebels"),
    # 004 §11.2: a Marriage counts as Influence but not toward an Area's 5
    "five Influence and a Marriage": _many(_influence(K={"Valdor": 3, "Carthen": 2}),
                                           lambda d: d["relations"]["marriages"].append(["Sorn", "Brask"])),
    # 004 §11.3: the "Cabinet" Idea allows 1 more Alliance
    "four Alliances with the Cabinet Idea": _many(_set("realms", "Sorn", ideas=["Cabinet"]),
                                                  _ally(pr="Sorn", npr="Mirr"), _ally(pr="Sorn", npr="Farr"),
                                                  _ally(pr="Sorn", ally="Valdor"), _ally(pr="Sorn", ally="Carthen")),
}


@pytest.mark.parametrize("case", sorted(ACCEPTED))
def test_what_the_rules_allow_is_accepted(case):
    world = world_from_dict(_with(ACCEPTED[case]))
    assert validated_world(_with(ACCEPTED[case])).realms.keys() == world.realms.keys()
