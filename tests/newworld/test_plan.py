"""The plan result: seeded determinism, JSON/msgpack output, trace, text form, errors and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import msgpack
import pytest

from engine.errors import ValidationError
from engine.newworld import load_world
from npr_controller.newworld import npn_plan, plan_nation
from service.cli import main
from tests.newworld.helpers import hold, world

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "newworld" / "world.json"
NPNS = ("Spain", "Portugal", "French")


@pytest.fixture(scope="module")
def sample():
    return load_world(EXAMPLE)


class TestDeterminism:
    @pytest.mark.parametrize("nation", NPNS)
    def test_same_seed_same_plan(self, sample, nation):
        for seed in range(10):
            assert plan_nation(sample, nation, seed=seed).to_dict() == plan_nation(
                sample, nation, seed=seed
            ).to_dict()

    def test_seeds_vary_the_plan(self, sample):
        attitudes = {plan_nation(sample, "Spain", seed=s).to_dict()["attitude"] for s in range(40)}
        assert len(attitudes) > 1

    def test_dice_record_replays_the_roll(self, sample):
        plan = plan_nation(sample, "Spain", seed=7)
        d = plan.to_dict()
        assert d["dice"]["seed"] == 7
        assert d["dice"]["rolls"][0]["faces"] == d["roll"]["dice"]
        assert d["roll"]["total"] == d["roll"]["natural"] + sum(m["value"] for m in d["roll"]["modifiers"])


class TestOutput:
    @pytest.mark.parametrize("nation", NPNS)
    def test_to_dict_is_plain_data(self, sample, nation):
        d = plan_nation(sample, nation, seed=3).to_dict()
        assert json.loads(json.dumps(d)) == d
        assert msgpack.unpackb(msgpack.packb(d)) == d
        keys = {"attitude", "roll", "fallbacks", "purchases", "landfall", "target", "notes", "trace", "dice"}
        assert keys <= set(d)

    @pytest.mark.parametrize("nation", NPNS)
    def test_every_trace_step_cites_file_002(self, sample, nation):
        plan = plan_nation(sample, nation, seed=5)
        assert len(plan.trace) >= 3
        assert all(step.rule.startswith("002 ") for step in plan.trace)

    def test_text_shows_roll_modifiers_purchases_and_notes(self, sample):
        plan = plan_nation(sample, "Spain", seed=4)
        text = plan.to_text()
        assert text.startswith(f"Spain, turn 4: {plan.attitude}")
        for m in plan.roll.modifiers:
            assert m.name in text
        assert f"${plan.purchase.cost} of $90" in text
        assert "Gold is transported home" in text
        assert str(plan) == text

    def test_guideline_notes_lead_with_the_attitude_combat_rule(self, sample):
        plan = plan_nation(sample, "French", seed=1)
        assert plan.notes[0].rule == f"002 {plan.attitude}"
        assert {n.rule for n in plan.notes[1:]} == {"002 Guidelines"}

    def test_turn_override_changes_the_turn_modifier(self, sample):
        turn2 = plan_nation(sample, "Spain", seed=4, turn=2).to_dict()["roll"]["modifiers"][0]
        turn6 = plan_nation(sample, "Spain", seed=4, turn=6).to_dict()["roll"]["modifiers"][0]
        assert (turn2["value"], turn6["value"]) == (-3, 0)


class TestErrors:
    def test_unknown_nation(self, sample):
        with pytest.raises(ValidationError) as err:
            plan_nation(sample, "Sweden")
        assert err.value.field == "nation"

    def test_player_nation_is_refused(self, sample):
        with pytest.raises(ValidationError, match="played by a player") as err:
            plan_nation(sample, "Dutch")
        assert err.value.field == "nation"

    @pytest.mark.parametrize("turn", [0, -1, "3", True])
    def test_bad_turn(self, sample, turn):
        with pytest.raises(ValidationError) as err:
            plan_nation(sample, "Spain", turn=turn)
        assert err.value.field == "turn"

    def test_bad_seed(self, sample):
        with pytest.raises(ValidationError) as err:
            plan_nation(sample, "Spain", seed="4")
        assert err.value.field == "seed"


class TestCli:
    def test_json_matches_the_library(self, sample, capsys):
        assert main(["npn", "plan", str(EXAMPLE), "--nation", "Spain", "--seed", "4", "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out == plan_nation(sample, "Spain", seed=4).to_dict()

    def test_text_with_turn(self, sample, capsys):
        assert main(["npn", "plan", str(EXAMPLE), "--nation", "French", "--seed", "2", "--turn", "6"]) == 0
        out = capsys.readouterr().out
        assert out.strip() == plan_nation(sample, "French", seed=2, turn=6).to_text()

    def test_errors_exit_2_with_the_field(self, capsys):
        assert main(["npn", "plan", str(EXAMPLE), "--nation", "Dutch"]) == 2
        assert "nation" in capsys.readouterr().err

    @pytest.mark.parametrize("typed", ["Spian", "spain"])
    def test_a_misspelt_nation_gets_a_did_you_mean(self, typed, capsys):
        assert main(["npn", "plan", str(EXAMPLE), "--nation", typed]) == 2
        err = capsys.readouterr().err
        assert f"unknown nation '{typed}'; did you mean Spain? (known: " in err and "\n" not in err.rstrip("\n")

    def test_a_world_with_a_json_mistake_is_said_as_regent_new_says_a_setups(self, tmp_path, capsys):
        bad = tmp_path / "w.json"
        bad.write_text('{"turn": 1,}')
        assert main(["npn", "plan", str(bad), "--nation", "Spain"]) == 2
        world_err = capsys.readouterr().err
        setup = tmp_path / "setup.json"
        setup.write_text('{"board": "ring-5",}')
        assert main(["new", str(tmp_path / "g.bin"), "--setup", str(setup)]) == 2
        setup_err = capsys.readouterr().err
        said = "not JSON: line 1: a comma after the last entry, before '}': JSON allows none there; delete it"
        assert said in world_err and said in setup_err and "valid" not in world_err

    def test_bad_world_file(self, tmp_path, capsys):
        bad = tmp_path / "w.json"
        bad.write_text(json.dumps({"turn": 1, "areas": {"H": {}}, "nations": {"Spain": {"tresury": 5}}}))
        assert main(["npn", "plan", str(bad), "--nation", "Spain"]) == 2
        assert "nations.Spain.tresury" in capsys.readouterr().err


def test_a_world_without_holdings_anywhere():
    w = world({"Spain": {"treasury": 80}, "Dutch": {"treasury": 80}})
    plan = plan_nation(w, "Spain", seed=0)
    assert plan.roll.automatic and plan.landfall.table == 1
    assert (plan.purchase.ships_built, plan.purchase.soldiers, plan.purchase.cost) == (4, 3, 78)


def test_spain_in_the_sample_gets_the_hegemon_modifier(sample):
    roll = plan_nation(sample, "Spain", seed=0).to_dict()["roll"]
    mods = {m["name"]: m["value"] for m in roll["modifiers"]}
    assert mods["hegemon's lead over the next power"] == 1 and mods["turn"] == -1


def test_holdings_of_a_single_unit_still_count():
    w = world({"Spain": {"holdings": hold("H", colonists=0, soldiers=1)}})
    assert not plan_nation(w, "Spain", seed=0).roll.automatic


def test_turn_one_without_holdings_notes_the_initial_landfall_order():
    """Non-player nations do not participate in the initial bidding, therefore they determine their
    initial landfalls after all player nations."""
    w = world({"Spain": {"treasury": 80}, "Dutch": {"player": True, "holdings": hold("H")}}, turn=1)
    first = plan_nation(w, "Spain", seed=1)
    assert first.landfall.area != "H"
    assert any(n.rule == "002 introduction" for n in first.notes)
    later = world({"Spain": {"treasury": 80}, "Dutch": {"player": True, "holdings": hold("H")}}, turn=2)
    assert not any(n.rule == "002 introduction" for n in plan_nation(later, "Spain", seed=1).notes)


class TestRpcParams:
    def test_npn_plan_matches_the_library(self, sample):
        doc = json.loads(EXAMPLE.read_text())
        out = npn_plan({"world": doc, "nation": "Portugal", "seed": 9, "turn": 6})
        assert out == plan_nation(sample, "Portugal", seed=9, turn=6).to_dict()

    @pytest.mark.parametrize(
        ("params", "field"),
        [({"nation": "Spain"}, "world"), ({"world": {}}, "nation"),
         ({"world": {}, "nation": "Spain", "sed": 1}, "sed"), ([], "params"),
         ({"world": {"turn": 1}, "nation": "Spain"}, "areas")],
    )
    def test_bad_params_name_the_field(self, params, field):
        with pytest.raises(ValidationError) as err:
            npn_plan(params)
        assert err.value.field == field
