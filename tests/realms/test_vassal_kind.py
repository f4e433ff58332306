"""A realm written as an NPR with an Overlord (issue 20 item 7): refused with an error that says a
realm with an Overlord is written ``"kind": "vassal"`` (004 §11.4); the same through the fast loader
and the service."""

from __future__ import annotations

import pytest

from engine.errors import ValidationError
from engine.realms import world_from_dict
from tests.realms.helpers import doc, prov, town


def _doc(kind, overlord="Cast"):
    realms = {"Gran": {"kind": "npr", "capital": "g1"}, "Cast": "pr",
              "Vas": {"kind": kind, **({"overlord": overlord} if overlord else {})}}
    return doc({"G": ["X", "V"], "X": [], "V": []},
               {"g1": prov("G", "Gran"), "x1": town("X", "Cast"), "v1": prov("V", "Vas", token="v")}, realms)


@pytest.mark.parametrize("kind", ["npr", "dnpr", "pr"])
def test_an_overlord_on_another_kind_says_to_write_vassal(kind):
    with pytest.raises(ValidationError) as e:
        world_from_dict(_doc(kind))
    assert e.value.field == "realms.Vas.overlord"
    assert '"kind": "vassal"' in e.value.reason and repr(kind) in e.value.reason


def test_a_vassal_without_overlord_says_what_to_write():
    with pytest.raises(ValidationError) as e:
        world_from_dict(_doc("vassal", overlord=None))
    assert e.value.field == "realms.Vas.overlord" and '"overlord"' in e.value.reason


def test_written_as_vassal_it_loads():
    w = world_from_dict(_doc("vassal"))
    assert w.realms["Vas"].kind == "vassal" and w.realms["Vas"].overlord == "Cast"


def test_the_service_names_the_field_and_the_fix():
    from service.stateless import run

    status, value = run("npr.invasions", [{"world": _doc("npr")}])
    assert status != "ok"
    assert value["details"]["field"] == "world.realms.Vas.overlord" and '"kind": "vassal"' in value["message"]
