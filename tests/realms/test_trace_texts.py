"""Trace and summary wording that said something false or empty (hA dogfood defect 9): a defence gave a
second, contradictory reason for no Battle; invasions said "battle won by enemy" and "Unrest on none"."""

from __future__ import annotations

import json
from pathlib import Path

from engine.realms import world_from_dict
from npr_controller.realms.defence import defend
from npr_controller.realms.invasions import invasions
from tests.realms.helpers import doc, prov, town

ROOT = Path(__file__).resolve().parents[2]


def test_a_defence_held_back_by_hostile_units_gives_one_reason():
    land = {"Nord": ["Mire"], "Mire": ["West"], "West": []}
    provinces = {"Drev": prov("Nord", "Drevia", "large"), "Sornby": town("Mire", "Sorn"),
                 "Carth": town("West", "Carthen")}
    realms = {"Drevia": "npr", "Sorn": "pr", "Carthen": "pr"}
    w = world_from_dict(doc(land, provinces, realms, wars=[["Sorn", "Drevia"], ["Carthen", "Drevia"]],
                            units=[("Carthen", "Nord", 2)]))
    d = defend(w, [{"attacker": "Sorn", "area": "Nord", "units": 2}], seed=1).to_dict()
    becauses = [s["because"] for s in d["trace"]]
    assert becauses == ["battle 0: 2 Units Hostile to Drevia are already in Nord: no Battle is triggered"]
    assert d["battles"][0]["triggered"] is False
    # with nobody to defend at all, the plain reason is still given
    empty = defend(w, [{"attacker": "Sorn", "area": "West", "units": 1}], seed=1).to_dict()
    assert [s["because"] for s in empty["trace"]] == ["battle 0: no Enemy NPR defends West: no Battle"]


def test_invasion_summaries_name_the_winner_and_say_when_no_unrest_is_added():
    world = world_from_dict(json.loads((ROOT / "examples" / "realms" / "world.json").read_text()))
    d = invasions(world, seed=8)
    text = "\n".join(d.summary)
    assert "won by enemy" not in text and "won by npr" not in text and "Unrest on none" not in text
    fought = [e for e in d.body["invasions"] if e.get("battle")]
    assert fought
    for e in fought:
        b = e["battle"]
        winner = {"npr": e["npr"], "enemy": " and ".join(b["enemy_realms"])}.get(b["winner"])
        line = next(s for s in d.summary if s.startswith(f"{e['npr']}:"))
        assert b["enemy_realms"] and (winner is None or f"battle won by {winner}" in line), line
    calm = [e for e in d.body["invasions"] if e["invades"] and not e["unrest"]]
    assert calm and all("no Unrest added" in next(s for s in d.summary if s.startswith(f"{e['npr']}:"))
                        for e in calm)


def test_an_npr_without_a_capital_says_so_at_step_1_1():
    """000 §13.5 step 1.1 for an NPR whose world gives no Capital: the trace said "Capital Area (None)
    is not eligible", naming an Area called None."""
    provs = {"g1": prov("G", "Gran"), "x1": town("X", "Cast"), "y1": town("Y", "Cast")}
    w = world_from_dict(doc({"G": ["X", "Y"], "X": [], "Y": []}, provs, {"Gran": "npr", "Cast": "pr"},
                            wars=[["Cast", "Gran"]]))
    steps = [s["because"] for s in invasions(w, seed=0).to_dict()["trace"] if s["rule"] == "000 §13.5 step 1.1"]
    assert steps == ["Gran has no Capital: no Capital Area to pick"]
