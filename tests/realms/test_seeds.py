"""Dice nobody can predict (hA dogfood defect 1): a decision asked without a seed draws a fresh secret
one and reports it in ``dice.seed``; every NPR, battle and New World nation rolls from its own stream
of the seed, so one seed never gives two of them the same dice. Before, every seedless call used seed
0 and every nation planned with one seed rolled the same 2d6."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.newworld import parse_world
from engine.realms import world_from_dict
from npr_controller.dice import SEED_BITS, SeededDice, stream_seed
from npr_controller.newworld import plan_nation
from npr_controller.realms.battle import fight
from npr_controller.realms.invasions import invasions
from service.cli import main
from service.stateless import run
from tests.realms.helpers import doc, prov, town

ROOT = Path(__file__).resolve().parents[2]
REALMS = ROOT / "examples" / "realms" / "world.json"
NEWWORLD = ROOT / "examples" / "newworld" / "world.json"


def _sample() -> dict:
    return json.loads(REALMS.read_text())


def _twins() -> dict:
    """Two NPRs in the same position: each must pick between two eligible Areas at random (1.4)."""
    land = {"A": [], "B": [], "P1": ["A"], "P2": ["A"], "Q1": ["B"], "Q2": ["B"]}
    provinces = {"a": prov("A", "Ana"), "b": prov("B", "Bea"),
                 "p1": town("P1", "Pat"), "p2": town("P2", "Pat"), "q1": town("Q1", "Pat"), "q2": town("Q2", "Pat")}
    return doc(land, provinces, {"Ana": "npr", "Bea": "npr", "Pat": "pr"}, wars=[["Pat", "Ana"], ["Pat", "Bea"]])


def test_a_seedless_invasion_draws_a_secret_seed_and_replays_from_it():
    world = world_from_dict(_sample())
    outs = [invasions(world).to_dict() for _ in range(4)]
    seeds = [o["dice"]["seed"] for o in outs]
    assert all(isinstance(s, int) and 0 <= s < 2**SEED_BITS for s in seeds)
    assert len(set(seeds)) == 4, "seedless calls share a seed"
    for out in outs:  # the recorded seed replays the decision exactly
        assert invasions(world, seed=out["dice"]["seed"]).to_dict() == out


def test_each_npr_rolls_from_its_own_stream():
    world = world_from_dict(_twins())
    picks = []
    for seed in range(24):
        d = invasions(world, seed=seed).to_dict()
        targets = {e["npr"]: e["target"] for e in d["invasions"]}
        assert [e["priority_level"] for e in d["invasions"]] == ["1.4", "1.4"]
        picks.append((targets["Ana"], targets["Bea"]))
        # Bea's dice do not depend on Ana having rolled first: Ana's stream alone gives Ana's pick
        alone = SeededDice(seed).stream("npr.invasions", "Ana", world.round)
        assert targets["Ana"] == ["P1", "P2"][alone.choice(range(2))]
    # with one shared sequence the twins were still correlated; now each pair of picks varies freely
    assert {(a[-1], b[-1]) for a, b in picks} == {("1", "1"), ("1", "2"), ("2", "1"), ("2", "2")}


def test_streams_depend_on_the_name_and_the_round():
    assert len({stream_seed(7, "npr.invasions", n, r) for n in ("Ana", "Bea") for r in (1, 2)}) == 4
    assert stream_seed(7, "npn.plan", "Spain", 3) == stream_seed(7, "npn.plan", "Spain", 3)


def test_two_battles_with_one_seed_roll_different_dice():
    world = world_from_dict(_sample())
    battle = json.loads((ROOT / "examples" / "realms" / "fight.json").read_text())
    a = fight(world, battle, seed=5).to_dict()
    later = world_from_dict({**_sample(), "round": _sample().get("round", 1) + 1})
    b = fight(later, battle, seed=5).to_dict()
    assert a["dice"]["seed"] == b["dice"]["seed"] == 5
    assert a["dice"]["rolls"] != b["dice"]["rolls"], "a battle rolls the same dice in another round"
    assert fight(world, battle, seed=5).to_dict() == a


def test_nations_planned_with_one_seed_roll_their_own_dice():
    data = json.loads(NEWWORLD.read_text())
    world = parse_world(data)
    npns = sorted(n for n, v in data["nations"].items() if not v.get("player") and v.get("holdings"))
    assert len(npns) >= 2
    same_nation_turns = same_nations = 0
    for seed in range(12):
        a, b = (plan_nation(world, n, seed=seed).to_dict()["roll"]["dice"] for n in npns[:2])
        same_nations += a == b
        later = plan_nation(world, npns[0], seed=seed, turn=world.turn + 1).to_dict()["roll"]["dice"]
        same_nation_turns += a == later
    assert same_nations < 6 and same_nation_turns < 6  # before: all 12 equal, every time


def test_npn_plan_without_a_seed_or_with_null_draws_one():
    world = parse_world(json.loads(NEWWORLD.read_text()))
    nation = next(n for n, v in world.nations.items() if not v.player)
    plans = [plan_nation(world, nation).to_dict(), plan_nation(world, nation, seed=None).to_dict()]
    assert all(isinstance(p["seed"], int) and p["seed"] == p["dice"]["seed"] for p in plans)
    assert plans[0]["seed"] != plans[1]["seed"]
    assert plan_nation(world, nation, seed=plans[0]["seed"]).to_dict() == plans[0]


def test_rpc_missing_and_null_seed_behave_alike():
    nw = json.loads(NEWWORLD.read_text())
    nation = next(n for n, v in nw["nations"].items() if not v.get("player"))
    for method, fields in (("npr.invasions", {"world": _sample()}), ("npn.plan", {"world": nw, "nation": nation})):
        seeds = []
        for extra in ({}, {"seed": None}):
            status, out = run(method, [{**fields, **extra}])
            assert status == "ok", out
            seeds.append(out["dice"]["seed"])
        assert all(isinstance(s, int) for s in seeds) and seeds[0] != seeds[1]
        status, again = run(method, [{**fields, "seed": seeds[1]}])
        assert status == "ok" and again["dice"]["seed"] == seeds[1]


def test_cli_without_seed_prints_a_seed_that_replays(capsys):
    assert main(["npr", "invasions", str(REALMS), "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    seed = first["dice"]["seed"]
    assert isinstance(seed, int)
    assert main(["npr", "invasions", str(REALMS), "--json", "--seed", str(seed)]) == 0
    assert json.loads(capsys.readouterr().out) == first
    assert main(["npr", "invasions", str(REALMS)]) == 0
    assert "Dice (seed " in capsys.readouterr().out


def test_cli_help_says_a_seed_is_drawn(capsys):
    for argv in (["npr", "invasions", "--help"], ["npn", "plan", "--help"]):
        with pytest.raises(SystemExit):
            main(argv)
        text = " ".join(capsys.readouterr().out.split())
        assert "fresh secret seed" in text and "replay" in text, argv


def test_each_battles_dice_say_whose_battle_and_round_they_are():
    """An `npr invasions` call with two battles listed 'NPR battle dice: d6 -> [...]' four times, nobody's: the GM
    could not tell whose battle (or round) a roll was for when checking it against the trace. Each roll now names
    its NPR, Area and round, and the faces match that battle's record."""
    land = {"A": ["P1"], "B": ["Q1"], "P1": [], "Q1": []}
    provinces = {"a": prov("A", "Ana", "large"), "a2": prov("A", "Ana", "large"), "b": prov("B", "Bea", "large"),
                 "b2": prov("B", "Bea", "large"), "p1": town("P1", "Pat"), "q1": town("Q1", "Pat")}
    world = world_from_dict(doc(land, provinces, {"Ana": "npr", "Bea": "npr", "Pat": "pr"},
                                wars=[["Pat", "Ana"], ["Pat", "Bea"]], units=[("Pat", "P1", 1), ("Pat", "Q1", 1)]))
    d = invasions(world, seed=3).to_dict()
    rolls = {r["purpose"]: r["faces"] for r in d["dice"]["rolls"]}
    for entry, where in zip(d["invasions"], ("P1", "Q1"), strict=True):
        rounds = entry["battle"]["rounds"]
        assert rounds, entry
        for rnd in rounds:
            head = f"{entry['npr']} in {where}: round {rnd['round']}, "
            assert rolls[head + "NPR battle dice"] == rnd["npr_faces"]
            assert rolls[head + "Enemy battle dice"] == rnd["enemy_faces"]
    assert len(rolls) == len(d["dice"]["rolls"]), "two rolls share a purpose"
