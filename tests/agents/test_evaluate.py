"""The evaluation harness: intervals, Elo, tournaments with rotated seats, takeovers, saving, CLI."""

from __future__ import annotations

import json

import pytest

from engine.errors import ValidationError
from training.evaluate import (
    record_positions,
    round_robin,
    save_json,
    save_plot,
    seat_vs_field,
    standing_key,
    takeover,
    why_better,
)
from training.stats import Elo, bootstrap_mean, wilson


def test_wilson_interval_known_values():
    lo, hi = wilson(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-3) and hi == pytest.approx(0.9433, abs=1e-3)
    assert wilson(0, 20)[0] == 0.0 and 0.15 < wilson(0, 20)[1] < 0.17
    assert wilson(0, 0) == (0.0, 1.0)


def test_bootstrap_interval_is_seeded_and_brackets_the_mean():
    xs = [0.0, 1.0] * 50
    assert bootstrap_mean(xs) == bootstrap_mean(xs)
    lo, hi = bootstrap_mean(xs)
    assert lo < 0.5 < hi and hi - lo < 0.25


def test_elo_rewards_placement_and_ignores_same_name_pairs():
    elo = Elo()
    for _ in range(20):
        elo.update([("a", 0.0), ("b", 1.0), ("b", 2.0)])
    ladder = elo.ladder()
    assert ladder[0]["agent"] == "a" and ladder[0]["elo"] > 1500 > ladder[1]["elo"]
    tie = Elo()
    tie.update([("a", 0.0), ("b", 0.0)])
    assert tie.ratings == {"a": 1500.0, "b": 1500.0}


def test_seat_vs_field_rotates_seats_and_reports_intervals():
    rep = seat_vs_field("heuristic", ["random"], games=10, players=5, progress=False)
    assert [d["seat"] for d in rep["detail"]][:5] == [f"Player#{i}" for i in range(1, 6)]
    assert rep["games"] == 10 and 0 <= rep["win_ci"][0] <= rep["win_rate"] <= rep["win_ci"][1] <= 1
    assert rep["vp_share_ci"][0] <= rep["vp_share"] <= rep["vp_share_ci"][1]
    assert sum(rep["ended"].values()) == 10
    assert rep["win_rate"] <= rep["top_rate"] <= 1 and rep["top_ci"][0] <= rep["top_rate"] <= rep["top_ci"][1]
    assert rep == seat_vs_field("heuristic", ["random"], games=10, players=5, progress=False)  # seeded


def test_round_robin_gives_every_agent_games_and_a_ladder():
    rep = round_robin(["heuristic", "random", "caretaker"], games=6, players=5, progress=False)
    assert set(rep["per_agent"]) == {"heuristic", "random", "caretaker"}
    assert sum(v["games"] for v in rep["per_agent"].values()) == 6 * 5
    assert {r["agent"] for r in rep["elo"]} == {"heuristic", "random", "caretaker"}


def test_takeover_from_the_same_position_is_exactly_reproducible(tmp_path):
    positions = record_positions(3, turn=2, players=5, progress=False)
    assert all(g.state.turn >= 2 and g.step == "orders" for _, g in positions)
    same = takeover("heuristic", "heuristic", positions=3, turn=2, progress=False)
    assert same["diff_score"] == 0.0 and same["same"] == 3  # same agent, same position, same seeds
    rep = takeover("heuristic", "caretaker", positions=6, turn=2, progress=False)
    assert rep["better"] + rep["worse"] + rep["same"] == rep["positions"] == 6
    assert rep["diff_score_ci"][0] <= rep["diff_score"] <= rep["diff_score_ci"][1]
    assert sum(rep["better_how"].values()) == rep["better"]
    assert rep["baseline_eliminated"] == sum(r["baseline"]["eliminated"] for r in rep["detail"])
    # by finishing order every score-better pair is still better, and the ties split by who lasted
    assert rep["standing_better"] >= rep["better"] and rep["standing_worse"] >= rep["worse"]
    assert rep["standing_better"] + rep["standing_worse"] <= rep["positions"]
    # its PNG (the model card tests' takeover commands do not draw theirs)
    assert save_plot(rep, tmp_path / "t.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_standing_orders_by_score_then_by_who_went_out_later():
    def outcome(score=0.0, eliminated_turn=None, turn=9):
        return {"score": score, "eliminated": eliminated_turn is not None, "eliminated_turn": eliminated_turn,
                "turn": turn}

    assert standing_key(outcome(eliminated_turn=6)) > standing_key(outcome(eliminated_turn=3))
    assert standing_key(outcome(score=0.1)) > standing_key(outcome(eliminated_turn=8))  # standing at the end
    assert standing_key(outcome(score=1.0, eliminated_turn=None)) > standing_key(outcome(score=0.4))
    # the Dragon won both games: the seat it burned later, or never, finished ahead
    assert standing_key(outcome(-1.0, turn=4)) > standing_key(outcome(-1.0, eliminated_turn=4, turn=4))
    assert standing_key(outcome(-1.0, eliminated_turn=2)) < standing_key(outcome(score=0.0, eliminated_turn=2))


def test_why_a_result_beat_the_baseline():
    def outcome(win=False, how="last_man_standing", score=0.0):
        return {"win": win, "how": how, "score": score}

    dragon = outcome(how="dragon", score=-1.0)
    assert why_better(outcome(win=True, score=1.0), dragon) == "won"
    assert why_better(outcome(win=True, score=1.0), outcome()) == "won"
    assert why_better(outcome(), dragon) == "dragon_stopped"  # somebody else won instead of the Dragon
    assert why_better(outcome(how="times_up", score=0.2), outcome(how="times_up", score=0.1)) == "vp_share"


def test_bad_requests_are_clear_errors():
    with pytest.raises(ValidationError):
        seat_vs_field("heuristic", [], games=3)
    with pytest.raises(ValidationError):
        round_robin(["heuristic"], games=3)
    with pytest.raises(ValidationError, match="lasted"):
        takeover("heuristic", positions=2, turn=99, players=5, progress=False)


def test_reports_save_as_json_and_png(tmp_path):
    rep = seat_vs_field("random", ["caretaker"], games=4, progress=False)
    j = save_json(rep, tmp_path / "r.json")
    assert json.loads(j.read_text())["games"] == 4
    png = save_plot(rep, tmp_path / "r.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_regent_eval_cli(tmp_path, capsys):
    from service.cli import main

    out = tmp_path / "h.json"
    assert main(["eval", "field", "--agent", "heuristic", "--field", "random,caretaker", "--games", "5",
                 "--out", str(out), "--quiet"]) == 0
    assert json.loads(out.read_text())["agent"] == "heuristic" and out.with_suffix(".png").exists()
    assert main(["eval", "round-robin", "--agents", "heuristic,random", "--games", "2", "--quiet"]) == 0
    assert main(["eval", "field", "--agent", "nobody", "--games", "1", "--quiet"]) == 2
    assert "unknown agent" in capsys.readouterr().err


@pytest.mark.parametrize("count, turn", [(0, 2), (3, 0), (-1, 1)])
def test_positions_need_a_count_and_a_real_turn(count, turn):
    # named before any game is played (it used to say "no game lasted to turn 2" for --positions 0)
    with pytest.raises(ValidationError, match=f"not {count} position\\(s\\) at turn {turn}"):
        record_positions(count, turn=turn, progress=False)
