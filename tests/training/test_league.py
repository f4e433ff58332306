"""The league's opponent mix and its admission rule (training/league.py)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.errors import ValidationError
from training.config import LeagueConfig, Scenario
from training.games import SeatGames, fixed_field
from training.league import FIRST_INCUMBENT, League, Snapshot


def scripted_play(scores: dict[str, float]):
    """A measurement that gives each spec a known score per game (the admission rule is under test)."""
    calls = []

    def play(spec, seeds, field):
        calls.append((spec, tuple(seeds)))
        return [scores[spec]] * len(seeds), [1.0 if scores[spec] == 1.0 else 0.0] * len(seeds)

    play.calls = calls
    return play


class TestWeights:
    def test_without_snapshots_the_scripted_players_share_everything(self):
        lg = League(LeagueConfig(caretaker_weight=0.3, heuristic_weight=0.1, random_weight=0.0, snapshot_weight=0.6))
        w = lg.weights()
        assert set(w) == {"caretaker", "heuristic"}
        assert w["caretaker"] == pytest.approx(0.75)
        assert w["heuristic"] == pytest.approx(0.25)

    def test_snapshots_share_their_mass_newest_most(self):
        lg = League(LeagueConfig(caretaker_weight=0.5, heuristic_weight=0.0, random_weight=0.0, snapshot_weight=0.5,
                                 recent_bias=2.0))
        lg.snapshots = [Snapshot("policy:a", 1, 0.0), Snapshot("policy:b", 2, 0.0)]
        w = lg.weights()
        assert sum(w.values()) == pytest.approx(1.0)
        assert w["caretaker"] == pytest.approx(0.5)
        assert w["policy:a"] == pytest.approx(0.5 / 3)
        assert w["policy:b"] == pytest.approx(0.5 * 2 / 3)

    def test_only_snapshot_mass_and_empty_pool_falls_back_to_the_caretaker(self):
        lg = League(LeagueConfig(caretaker_weight=0.0, heuristic_weight=0.0, random_weight=0.0, snapshot_weight=1.0))
        assert lg.weights() == {FIRST_INCUMBENT: 1.0}

    def test_sampling_follows_the_weights(self):
        lg = League(LeagueConfig(caretaker_weight=0.8, heuristic_weight=0.2, random_weight=0.0, snapshot_weight=0.0))
        counts = Counter(lg.sample(random.Random(3), 20_000))
        assert set(counts) == {"caretaker", "heuristic"}
        assert counts["heuristic"] / 20_000 == pytest.approx(0.2, abs=0.02)


class TestAdmission:
    def test_candidate_joins_only_when_it_beats_the_incumbent_by_the_margin(self):
        lg = League(LeagueConfig(join_margin=0.1))
        check = lg.consider("policy:weak", 10, scripted_play({"policy:weak": 0.05, "caretaker": 0.0}), [1, 2])
        assert not check.joined and lg.snapshots == []
        check = lg.consider("policy:good", 20, scripted_play({"policy:good": 0.1, "caretaker": 0.0}), [1, 2])
        assert check.joined and check.incumbent_spec == "caretaker"
        assert [s.spec for s in lg.snapshots] == ["policy:good"]

    def test_the_newest_snapshot_is_the_next_incumbent(self):
        lg = League(LeagueConfig(join_margin=0.0))
        lg.consider("policy:a", 1, scripted_play({"policy:a": 0.2, "caretaker": 0.0}), [1])
        play = scripted_play({"policy:b": 0.1, "policy:a": 0.2})
        check = lg.consider("policy:b", 2, play, [1])
        assert check.incumbent_spec == "policy:a" and not check.joined
        assert [c[0] for c in play.calls] == ["policy:b", "policy:a"]
        assert play.calls[0][1] == play.calls[1][1]  # same games for both

    def test_a_full_pool_drops_its_oldest_snapshot(self):
        lg = League(LeagueConfig(join_margin=0.0, max_snapshots=2))
        scores = {"caretaker": -1.0}
        for i in range(3):
            scores[f"policy:{i}"] = float(i)
            lg.consider(f"policy:{i}", i, scripted_play(scores), [1])
        assert [s.spec for s in lg.snapshots] == ["policy:1", "policy:2"]
        assert len(lg.history) == 3

    def test_no_games_is_an_error(self):
        with pytest.raises(ValidationError, match="at least one game"):
            League(LeagueConfig()).consider("policy:x", 1, scripted_play({}), [])

    def test_save_and_load_keep_pool_and_history(self, tmp_path):
        lg = League(LeagueConfig(join_margin=0.0))
        lg.consider("policy:a", 5, scripted_play({"policy:a": 0.5, "caretaker": 0.0}), [1, 2], {"win_vs_caretaker": 1})
        lg.save(tmp_path / "league.json")
        back = League.load(tmp_path / "league.json")
        assert back.snapshots == lg.snapshots
        assert back.history == lg.history
        assert back.weights() == lg.weights()


class TestRealGames:
    def test_admission_scores_are_the_seat_games_scores(self):
        """The check's numbers are exactly the mean env reward of the same real games."""
        games = SeatGames(Scenario(players=3))
        lg = League(LeagueConfig(caretaker_weight=1.0, heuristic_weight=0.0, random_weight=0.0, snapshot_weight=0.0,
                                 join_margin=-10.0))
        seeds = [11, 12, 13, 14]
        check = lg.consider("random", 1, games.play, seeds)
        cand, _ = games.play("random", seeds, lg.sample)
        inc, _ = games.play("caretaker", seeds, lg.sample)
        assert check.candidate == pytest.approx(sum(cand) / 4)
        assert check.incumbent == pytest.approx(sum(inc) / 4)
        assert check.joined  # margin -10: anything joins

    def test_seats_rotate_and_the_field_is_what_was_drawn(self):
        games = SeatGames(Scenario(players=3))
        scores, wins = games.play("caretaker", [0, 1, 2], fixed_field("caretaker"))
        # all caretakers: the Dragon wins or a caretaker does; either way the score is a terminal reward
        assert all(-1.0 <= s <= 1.0 for s in scores)
        assert all(w in (0.0, 1.0) for w in wins)
        assert [w == 1.0 for w in wins] == [s == 1.0 for s in scores]
