"""``regent eval table``: common random numbers, intervals, distance counting and the kingmaking spread."""

from __future__ import annotations

import pytest

from engine.errors import ValidationError
from engine.protectors.board import Board
from training.table import KINGMAKING_BAR, compare, land_distances, summarize_table, table


def test_land_distance_on_rings_counts_steps_both_ways():
    ring5 = Board.builtin("ring-5")
    first = ring5.provinces[0]
    dist = land_distances(ring5, first)
    assert sorted(dist.values()) == [0, 1, 1, 2, 2]
    assert max(land_distances(Board.builtin("ring-7"), first).values()) == 3
    assert max(land_distances(Board.builtin("ring-16"), first).values()) == 8


def _row(filler_won=False, other=None, how="times_up", distance=None):
    distance = distance or {"B": 1, "C": 1, "D": 2, "E": 2}
    winners = [other] if other else []
    return {"filler": "A", "how": how, "winner": other or ("A" if filler_won else None), "filler_won": filler_won,
            "other_won": bool(other), "distance": distance, "winners": winners}


def test_summary_counts_per_seat_game_by_distance_and_the_spread():
    rows = [_row(other="B"), _row(other="C"), _row(other="D"), _row(filler_won=True), _row(how="dragon")]
    s = summarize_table(rows)
    assert (s["filler"]["wins"], s["others"]["wins"], s["dragon"]["wins"], s["games"]) == (1, 3, 1, 5)
    # distance 1: two seats x five games = 10 seat-games, 2 wins; distance 2: 10 seat-games, 1 win
    assert s["by_distance"]["1"]["wins"] == 2 and s["by_distance"]["1"]["games"] == 10
    assert s["by_distance"]["2"]["wins"] == 1 and s["by_distance"]["2"]["games"] == 10
    assert s["kingmaking"] == pytest.approx((0.2 - 0.1) / 0.2)
    assert s["kingmaking"] > KINGMAKING_BAR and s["kingmaking_ok"] is False
    for key in ("filler", "others", "dragon"):
        lo, hi = s[key]["ci"]
        assert lo <= s[key]["rate"] <= hi and 0 <= lo < hi <= 1


def test_an_even_table_has_no_kingmaking():
    rows = [_row(other="B"), _row(other="D")]
    assert summarize_table(rows)["kingmaking"] == 0.0


def test_fillers_are_compared_on_common_random_numbers():
    report = compare(["caretaker", "random"], games=6, players=5, seed=40, progress=False)
    a, b = (report["tables"][f]["detail"] for f in ("caretaker", "random"))
    assert [r["filler"] for r in a] == [r["filler"] for r in b]  # the same vacant seat in game g
    assert len({r["filler"] for r in a}) == 5  # and it rotates over the seats
    assert [r["distance"] for r in a] == [r["distance"] for r in b]
    # the same filler twice gives the very same table: nothing but the filler differs between fillers
    again = table("random", games=6, players=5, seed=40, progress=False)
    assert again["detail"] == b
    # and the fillers really play differently (the caretaker never wins; the comparison is not empty)
    assert report["tables"]["caretaker"]["filler"]["wins"] == 0


def test_teams_count_a_team_mate_as_the_filler_side():
    t = table("heuristic", games=4, players=4, teams=2, seed=3, progress=False)
    for r in t["detail"]:
        assert len(r["distance"]) == 2  # the two seats of the other team, not the filler's team-mate
        assert not (r["filler_won"] and r["other_won"])


def test_the_spread_carries_a_seeded_bootstrap_interval_that_sees_real_kingmaking():
    from training.table import kingmaking_interval

    even = [_row(other=s) for s in "BCDE"] * 25  # every distance wins alike
    skewed = [_row(other=s) for s in "BBBCD"] * 20  # distance 1 wins 4 of every 5 games won
    lo, hi = kingmaking_interval(even)
    assert 0.0 <= lo <= hi < 0.5 and kingmaking_interval(even) == [lo, hi]  # seeded: the same report, the same
    s = summarize_table(skewed)
    klo, khi = s["kingmaking_ci"]
    assert klo <= s["kingmaking"] <= khi and klo > KINGMAKING_BAR  # clearly kingmaking, interval and all
    assert kingmaking_interval([_row(other="B", distance={"B": 1})] * 5) == [0.0, 0.0]  # one distance: no spread


def test_the_first_games_of_a_longer_run_are_the_same_games():
    """Common random numbers along the run: game g does not depend on how many games are played, so a
    card's quick check can replay its first games and must get its counts exactly."""
    from training.table import check_counts

    short = compare(["steward", "random"], games=5, players=5, seed=70, progress=False)
    long = compare(["steward", "random"], games=10, players=5, seed=70, progress=False)
    for f in ("steward", "random"):
        assert long["tables"][f]["detail"][:5] == short["tables"][f]["detail"]
    assert check_counts(long, 5) == check_counts(short, 5)
    assert all(sum(c) <= 5 for c in check_counts(long, 5).values())


def test_paired_difference_is_per_game_and_refuses_other_games():
    from engine.errors import ValidationError
    from training.table import paired_difference

    report = compare(["caretaker", "random"], games=8, players=5, seed=40, progress=False)
    p = paired_difference(report, "dragon", "caretaker", "random")
    t = report["tables"]
    assert p["n"] == 8 and p["diff"] == pytest.approx(t["caretaker"]["dragon"]["rate"] - t["random"]["dragon"]["rate"])
    assert p["ci"][0] <= p["diff"] <= p["ci"][1]
    assert paired_difference(report, "others", "random", "random") == {"diff": 0.0, "ci": [0.0, 0.0], "n": 8}
    other = compare(["random"], games=8, players=5, seed=41, progress=False)
    report["tables"]["elsewhere"] = other["tables"]["random"]
    with pytest.raises(ValidationError):
        paired_difference(report, "dragon", "caretaker", "elsewhere")


def test_a_card_entry_checks_the_games_asked_for_and_replaces_its_title(tmp_path):
    import json

    from training.model_card import CARD_JSON
    from training.table import add_to_card, card_entry, check_counts, command_of

    report = compare(["steward", "random"], games=12, players=5, seed=70, progress=False)
    entry = card_entry(report, command_of(report), "ring-5 test", check_per_seat=1)
    assert entry["check"] == {"games": 5, "counts": check_counts(report, 5)}
    assert card_entry(report, command_of(report), "x")["check"]["games"] == 12  # 6 x 5 seats, cut to the run
    (tmp_path / CARD_JSON).write_text(json.dumps({"name": "t", "table": [
        {**entry, "check": {"games": 1, "counts": {}}}, {**entry, "title": "kept"}]}))
    add_to_card(tmp_path, [entry])
    titles = [e["title"] for e in json.loads((tmp_path / CARD_JSON).read_text())["table"]]
    assert titles == ["kept", "ring-5 test"]


def test_a_bad_filler_or_field_is_named_before_any_game(monkeypatch):
    import training.table as tb

    played = []
    monkeypatch.setattr(tb, "table", lambda filler, **kw: played.append(filler))
    for kw in ({"fillers": ["heuristic", "bogus"]}, {"fillers": ["heuristic"], "field": ("heuristic", "nobody")}):
        fillers = kw.pop("fillers")
        with pytest.raises(ValidationError, match="unknown agent"):
            tb.compare(fillers, games=2000, **kw)
    assert played == []


def test_a_seat_falling_vacant_mid_game_is_filled_from_that_turn_on_the_same_games(monkeypatch):
    """--from-turn: stand-ins play every seat until the orders step of that turn, then the filler takes a seat still
    in the game; the game up to there is the same whoever fills the seat, and the filler decides nothing before."""
    import training.table as tb
    from training.evaluate import AgentCache

    decided: dict[str, set[tuple[int, str]]] = {}

    class Recording(AgentCache):  # the filler's decisions, by turn and step
        def get(self, spec, seed):
            agent = super().get(spec, seed)
            if seed % 100 != tb.FILLER_SEED:
                return agent
            act = agent.act

            def recorded(ctx, _act=act, _spec=spec):
                decided.setdefault(_spec, set()).add((ctx.state.turn, ctx.state.step))
                return _act(ctx)

            agent.act = recorded
            return agent

    monkeypatch.setattr(tb, "AgentCache", Recording)
    report = compare(["caretaker", "random"], games=8, players=5, seed=40, progress=False, from_turn=3)
    a, b = (report["tables"][f] for f in ("caretaker", "random"))
    assert a["from_turn"] == 3 and a["skipped"] == b["skipped"] and a["games"] + a["skipped"] == 8
    assert a["games"] >= 4  # most ring-5 games reach turn 3
    assert [r["filler"] for r in a["detail"]] == [r["filler"] for r in b["detail"]]
    for spec in ("caretaker", "random"):
        assert min(t for t, _ in decided[spec]) == 3 and (3, "orders") in decided[spec], decided[spec]
    # from turn 1 (the default) the filler bids on turn 1
    decided.clear()
    table("random", games=2, players=5, seed=40, progress=False)
    assert min(t for t, _ in decided["random"]) == 1
    from training.table import command_of
    assert command_of(report).endswith("--games 8 --players 5 --seed 40 --from-turn 3")
    with pytest.raises(ValidationError, match="from turn 1 on"):
        table("random", games=2, from_turn=0, progress=False)
    # a turn no game reaches: refused, not a table of zeros
    with pytest.raises(ValidationError, match="none of the 3 games reached turn 60's orders step"):
        table("random", games=3, players=5, seed=40, from_turn=60, progress=False)


def test_the_paired_plot_draws_settings_side_by_side_and_refuses_other_fillers(tmp_path):
    from training.table import save_paired_plot

    five = compare(["caretaker", "random"], games=4, players=5, seed=40, progress=False, from_turn=2)
    three = compare(["caretaker", "random"], games=4, players=3, seed=40, progress=False, from_turn=2)
    out = save_paired_plot({"ring-5": five, "ring-3": three}, tmp_path / "paired.png")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    other = compare(["caretaker", "heuristic"], games=4, players=3, seed=40, progress=False, from_turn=2)
    with pytest.raises(ValidationError, match="the same fillers"):
        save_paired_plot({"ring-5": five, "ring-3": other}, tmp_path / "x.png")
    with pytest.raises(ValidationError, match="needs steward"):
        save_paired_plot({"ring-5": five}, tmp_path / "y.png", baseline="steward")
