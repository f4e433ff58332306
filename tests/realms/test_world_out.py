"""World in, world out: ``regent npr invasions --world-out FILE`` writes the world after Phase 3 step B (Unrest,
Rebels, the Enemy's battle losses) for the GM to give the next step, instead of typing the changes in; and
``engine.realms.dump.world_to_dict`` writes any world back as a document the loader reads as the same world."""

from __future__ import annotations

import json
from pathlib import Path

import msgpack
import pytest

from engine.realms import load_world, world_from_dict
from engine.realms.dump import world_to_dict
from service.cli import main
from tests.realms.helpers import doc, prov, town

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "realms"
FIELDS = ("areas", "seas", "provinces", "realms", "relations", "units", "ships", "round", "phase")


@pytest.mark.parametrize("name", ["world.json", "iberia.toml"])
def test_a_world_written_back_loads_as_the_same_world(name):
    world = load_world(EXAMPLES / name)
    again = world_from_dict(json.loads(json.dumps(world_to_dict(world))))
    for field in FIELDS:
        assert getattr(again, field) == getattr(world, field), field


def _war() -> dict:
    land = {"A": ["P1"], "P1": []}
    provinces = {
        "a": prov("A", "Ana", "large"),
        "a2": prov("A", "Ana", "large"),
        "p1": town("P1", "Pat"),
        "p2": town("P1", "Pat", "large"),
    }
    return doc(land, provinces, {"Ana": "npr", "Pat": "pr"}, wars=[["Pat", "Ana"]], units=[("Pat", "P1", 1)])


@pytest.mark.parametrize("suffix", [".json", ".msgpack"])
def test_invasions_world_out_holds_the_unrest_the_rebels_and_the_losses(tmp_path, capsys, suffix):
    (tmp_path / "w.json").write_text(json.dumps(_war()))
    out = tmp_path / f"after{suffix}"
    # seed 4: Ana's 2 invaders win, Pat's 1 unit is lost and the survivors stay as Rebels (seed 1 placed none, so
    # the Rebels were never checked)
    assert main(["npr", "invasions", str(tmp_path / "w.json"), "--seed", "4", "--json", "--world-out", str(out)]) == 0
    entry = json.loads(capsys.readouterr().out)["invasions"][0]
    after = json.loads(out.read_text()) if suffix == ".json" else msgpack.unpackb(out.read_bytes())
    assert entry["invades"] and entry["unrest"] == ["p1", "p2"]
    assert [n for n, p in after["provinces"].items() if p.get("unrest")] == ["p1", "p2"]
    rebels = [u["count"] for u in after["units"] if u["kind"] == "rebel" and u["where"] == "P1"]
    assert entry["rebels_placed"] > 0 and rebels == [entry["rebels_placed"]]
    pat = sum(u["count"] for u in after["units"] if u.get("realm") == "Pat")
    assert pat == entry["battle"]["enemy_units_left"] < 1  # the unit Pat lost is off the board
    world = load_world(out)  # the next step reads it as it is
    assert {p.name for p in world.provinces.values() if p.unrest} == {"p1", "p2"}


def test_world_out_is_checked_before_the_decision_and_never_half_written(tmp_path, capsys):
    (tmp_path / "w.json").write_text(json.dumps(_war()))
    assert main(["npr", "invasions", str(tmp_path / "w.json"), "--world-out", str(tmp_path / "after.toml")]) == 2
    err = capsys.readouterr()
    assert err.out == "" and "--world-out" in err.err and ".json" in err.err
    assert main(["npr", "invasions", str(tmp_path / "w.json"), "--world-out", str(tmp_path / "no" / "a.json")]) == 2
    assert list(tmp_path.iterdir()) == [tmp_path / "w.json"]


def test_the_service_answers_the_world_out_the_cli_writes(tmp_path, capsys):
    # over the service the GM got the decision but not the world after it, so a bot had to type the changes in
    from service import stateless
    from service.params import Params

    (tmp_path / "w.json").write_text(json.dumps(_war()))
    out = tmp_path / "after.json"
    assert main(["npr", "invasions", str(tmp_path / "w.json"), "--seed", "1", "--json", "--world-out", str(out)]) == 0
    cli = json.loads(capsys.readouterr().out)
    answer = stateless.METHODS["npr.invasions"](Params("npr.invasions", [{"world": _war(), "seed": 1,
                                                                          "world_out": True}]))
    assert answer["world"] == json.loads(out.read_text())
    assert {k: v for k, v in answer.items() if k != "world"} == cli
    plain = stateless.METHODS["npr.invasions"](Params("npr.invasions", [{"world": _war(), "seed": 1}]))
    assert "world" not in plain  # only when asked: the answer stays small
    with pytest.raises(Exception, match="world_out"):
        stateless.METHODS["npr.invasions"](Params("npr.invasions", [{"world": _war(), "world_out": "yes"}]))
