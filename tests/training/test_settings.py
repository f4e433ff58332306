"""Issue 19's settings grid (``regent eval settings``, training/settings.py): the two sides are the same
games, the targets are judged as the issue words them, the heuristic's side is cached and reused, bad
input is named."""

from __future__ import annotations

import json

import pytest

from engine.errors import ValidationError
from training.evaluate import seat_vs_field
from training.settings import LABELS, fair_share, judge, measure, paired_dragon, save_settings_plot, table_rows

TWO = ["ring-5", "teams of 2 (6 players)"]


@pytest.fixture(scope="module")
def grid(tmp_path_factory):
    cache = tmp_path_factory.mktemp("settings") / "settings-heuristic.json"
    return measure("random", 4, seed=7, only=TWO, cache=cache, progress=False), cache


def side(rate: float, lo: float, dragon_games: list[int], n: int = 10) -> dict:
    return {"rate": rate, "ci": [lo, rate + 0.1], "n": n, "dragon_games": dragon_games,
            "dragon_rate": len(dragon_games) / n}


def test_fair_share_counts_sides_not_seats():
    assert fair_share({"players": 5}) == pytest.approx(0.2)
    assert fair_share({"players": 6, "teams": 2}) == pytest.approx(1 / 3)
    assert fair_share({"players": 6, "teams": 3}) == pytest.approx(1 / 2)


def test_share_target_is_one_and_a_half_fair_shares():
    base = side(0.2, 0.1, [])
    met = judge("share", {"players": 5}, side(0.30, 0.2, []), base)
    short = judge("share", {"players": 5}, side(0.29, 0.2, []), base)
    assert met["win"]["met"] and not short["win"]["met"]
    assert short["win"]["short_by"] == pytest.approx(0.01)


def test_heuristic_target_needs_the_lower_ci_above_the_heuristic():
    base = side(0.10, 0.05, [])
    assert judge("heuristic", {"players": 16}, side(0.15, 0.11, []), base)["win"]["met"]
    # a higher point estimate is not enough while the interval reaches below the heuristic's rate
    assert not judge("heuristic", {"players": 16}, side(0.15, 0.09, []), base)["win"]["met"]


def test_dragon_difference_is_paired_by_game():
    mine, base = side(0.2, 0.1, [0, 1, 2]), side(0.2, 0.1, [1, 2, 3, 4])
    d = paired_dragon(mine, base)
    assert d["diff"] == pytest.approx(-0.1)
    assert d["ci"][0] < d["diff"] < d["ci"][1]
    assert judge("share", {"players": 5}, mine, base)["dragon"]["met"]
    assert not judge("share", {"players": 5}, base, mine)["dragon"]["met"]
    few = paired_dragon(side(0.0, 0.0, [0], n=2), side(0.0, 0.0, [0, 1], n=2))  # -50 points from 2 games
    assert few["diff"] == pytest.approx(-0.5) and few["ci"][0] == -1.0 and few["ci"][1] < 1.0


def test_each_side_is_the_field_tournament_on_the_same_games(grid):
    report, _ = grid
    assert list(report["settings"]) == TWO
    for label in TWO:
        s = report["settings"][label]
        for spec, key in (("random", "agent"), ("heuristic", "heuristic")):
            alone = seat_vs_field(spec, ["heuristic"], 4, seed=7, progress=False, **s["setup"])
            assert s[key]["wins"] == alone["wins"] and s[key]["ended"] == alone["ended"]
        assert s[key]["command"].startswith("regent eval field --agent heuristic --field heuristic --games 4")


def test_the_heuristic_side_comes_from_the_cache(grid):
    _, cache = grid
    stored = json.loads(cache.read_text())
    assert set(stored) == {f"{label}|4|7" for label in TWO}
    planted = {k: {**v, "wins": 99} for k, v in stored.items()}  # a cached side is read, not re-measured
    cache.write_text(json.dumps(planted))
    again = measure("random", 4, seed=7, only=TWO[:1], cache=cache, progress=False)
    assert again["settings"][TWO[0]]["heuristic"]["wins"] == 99
    cache.write_text(json.dumps(stored))


def test_table_and_plot(grid, tmp_path):
    report, _ = grid
    rows = table_rows(report)
    assert len(rows) == 2 + len(TWO) and rows[2].startswith("| ring-5 | ")
    png = save_settings_plot(report, tmp_path / "grid.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bad_input_is_named(tmp_path):
    with pytest.raises(ValidationError, match="only"):
        measure("random", 2, only=["ring-6"], progress=False)
    with pytest.raises(ValidationError, match="games"):
        measure("random", 0, only=LABELS[:1], progress=False)
    bad = tmp_path / "settings-heuristic.json"
    bad.write_text("{not json")
    with pytest.raises(ValidationError, match=r"settings-heuristic\.json"):
        measure("random", 2, only=LABELS[:1], cache=bad, progress=False)


def test_the_cli_runs_and_names_bad_settings(tmp_path, capsys):
    from service.cli import main

    out = tmp_path / "g.json"
    assert main(["eval", "settings", "--agent", "random", "--games", "2", "--only", "ring-5", "--out", str(out),
                 "--quiet"]) == 0
    assert json.loads(out.read_text())["settings"]["ring-5"]["agent"]["n"] == 2
    assert out.with_suffix(".png").exists() and out.with_suffix(".md").exists()
    assert main(["eval", "settings", "--agent", "random", "--games", "2", "--only", "ring-6"]) == 2
    assert "unknown setting 'ring-6'" in capsys.readouterr().err
