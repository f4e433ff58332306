"""Model card writing and the target table (training/model_card.py, training/ship.py)."""

from __future__ import annotations

import json

from training.model_card import ci_text, write_card
from training.ship import fair_share, handles_text, plot_league, targets


def m(rate, n=100):
    return {"rate": rate, "ci": [max(0.0, rate - 0.1), min(1.0, rate + 0.1)], "n": n}


EV = {
    "ring-5, policy (hard) vs 4 caretakers: win rate": m(0.0),
    "ring-5, policy (hard) vs 4 heuristics: win rate": m(0.45),
    "baseline: heuristic vs 4 caretakers: win rate": m(0.0),
}


def test_targets_say_met_or_by_how_much_missed():
    tk = {**m(0.5, 40), "better": 20, "same": 15, "worse": 5}
    rows = {r["name"]: r for r in targets(EV, tk, None)}
    assert not rows["ring-5, 1 seat vs 4 caretakers"]["met"]
    assert "missed by 95.0%" in rows["ring-5, 1 seat vs 4 caretakers"]["note"]
    assert rows["ring-5, 1 seat vs 4 heuristics"]["met"] and rows["ring-5, 1 seat vs 4 heuristics"]["note"] == ""
    assert not rows["takeover: beats caretaker from the same positions"]["met"]
    tk_how = {**tk, "better_how": {"won": 12, "dragon_stopped": 8}, "baseline_eliminated": 39,
              "standing_better": 30, "standing_worse": 4}
    by_name = {r["name"]: r for r in targets(EV, tk_how, None)}
    note = by_name["takeover: beats caretaker from the same positions"]["note"]
    assert "winning (12 pairs)" in note and "ahead in 30 and behind in 4" in note
    assert rows["CPU minutes to beat caretaker 95%"]["measured"] == "not reached"
    assert {r["name"]: r["met"] for r in targets(EV, tk, 12.0)}["CPU minutes to beat caretaker 95%"]


def test_targets_cite_the_clairvoyant_ceiling_when_the_card_has_one():
    tk = {**m(0.4, 200), "better": 80, "same": 115, "worse": 5}
    ceilings = {"takeover": {"better": 157, "positions": 200, "ci": [0.72, 0.84], "proved_lost": 16,
                             "best_found": 158, "command": "regent eval takeover-ceiling --positions 200"},
                "vs_caretaker": {"wins": 3, "games": 200, "ci": [0.005, 0.043],
                                 "command": "regent eval field-ceiling --games 200"}}
    rows = {r["name"]: r["note"] for r in targets(EV, tk, None, ceilings=ceilings)}
    take = rows["takeover: beats caretaker from the same positions"]
    assert "157 of the same 200 pairs (78.5%" in take and "16 pairs are provably lost" in take
    assert "`regent eval takeover-ceiling --positions 200`" in take and "next:" not in take
    assert "honest agents included: 158 of 200 (79.0%)" in take
    assert "wins 3 of 200 games here (1.5%" in rows["ring-5, 1 seat vs 4 caretakers"]
    assert "a clairvoyant one included" in rows["CPU minutes to beat caretaker 95%"]
    plain = {r["name"]: r["note"] for r in targets(EV, tk, None)}
    assert "ceiling" not in plain["takeover: beats caretaker from the same positions"]


def test_games_it_handles_set_the_policy_beside_the_heuristic_and_a_fair_share():
    assert fair_share({"players": 16}) == 1 / 16 and fair_share({"players": 6, "teams": 2}) == 1 / 3
    better = handles_text({"plays": True, "fair_share": 0.5, **m(0.77, 200), "heuristic": m(0.25, 200)})
    assert "77.0% [67.0%, 87.0%] (n=200)" in better and "a fair share 50.0%: better than the heuristic" in better
    assert "no better than the heuristic" in handles_text(
        {"plays": True, "fair_share": 0.0625, **m(0.01, 200), "heuristic": m(0.015, 200)})
    assert handles_text({"plays": True, **m(0.3, 10)}) == "plays; win rate vs heuristics 30.0% [20.0%, 40.0%] (n=10)"


def test_card_is_written_as_json_and_markdown(tmp_path):
    card = {"name": "x", "summary": "s", "evaluation": {"vs heuristics": {**m(0.45), "command": "regent eval ..."}},
            "levels": {"hard": {"how": "greedy", "vs_caretaker": m(0.0), "vs_heuristic": m(0.45)}},
            "targets": targets(EV, {**m(0.9, 40), "better": 36, "same": 4, "worse": 0}, None),
            "limitations": ["one"]}
    j, md = write_card(tmp_path, card)
    assert json.loads(j.read_text())["levels"]["hard"]["how"] == "greedy"
    text = md.read_text()
    assert "| vs heuristics | 45.0% [35.0%, 55.0%] (n=100) | `regent eval ...` |" in text
    assert "| `hard` | greedy |" in text
    assert "## Limitations" in text and "- one" in text
    assert ci_text(m(0.5, 10)) == "50.0% [40.0%, 60.0%] (n=10)"


def test_league_plot_is_a_png(tmp_path):
    history = [{"step": s, "candidate": c, "incumbent": -1.0, "incumbent_spec": "caretaker", "joined": c > -0.9,
                "win_rate": 0.1, "games": 4, "extra": {"win_vs_caretaker": 0.0, "win_vs_heuristic": w}}
               for s, c, w in ((100, -0.9, 0.1), (200, -0.5, 0.3))]
    out = plot_league(history, tmp_path / "league.png", "t")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert plot_league([], tmp_path / "none.png", "t") is None


def test_the_card_names_the_checkpoint_a_resumed_run_went_on_from():
    from training.ship import train_command

    assert train_command("x", None) == "regent train --config training/configs/x.toml"
    resumed = train_command("x", "runs/a/model.zip")
    assert resumed == "regent train --config training/configs/x.toml --resume runs/a/model.zip"
