"""The league's opponent mix and its admission rule (training/league.py)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.errors import ValidationError
from training.config import LeagueConfig, Scenario
from training.games import SeatGames, weighted_field
from training.league import FIRST_INCUMBENT, League, Snapshot


def scripted_play(scores: dict[str, float]):
    """A measurement that gives each spec a known score per game (the admission rule is under test)."""
    calls = []

    def play(spec, seed, games, weights):
        calls.append((spec, seed, games, tuple(weights)))
        return [scores[spec]] * games, [1.0 if scores[spec] == 1.0 else 0.0] * games

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
        check = lg.consider("policy:weak", 10, scripted_play({"policy:weak": 0.05, "caretaker": 0.0}), 1, 2)
        assert not check.joined and lg.snapshots == []
        check = lg.consider("policy:good", 20, scripted_play({"policy:good": 0.1, "caretaker": 0.0}), 1, 2)
        assert check.joined and check.incumbent_spec == "caretaker"
        assert [s.spec for s in lg.snapshots] == ["policy:good"]

    def test_the_newest_snapshot_is_the_next_incumbent(self):
        lg = League(LeagueConfig(join_margin=0.0))
        lg.consider("policy:a", 1, scripted_play({"policy:a": 0.2, "caretaker": 0.0}), 1, 1)
        play = scripted_play({"policy:b": 0.1, "policy:a": 0.2})
        check = lg.consider("policy:b", 2, play, 1, 1)
        assert check.incumbent_spec == "policy:a" and not check.joined
        assert [c[0] for c in play.calls] == ["policy:b", "policy:a"]
        assert play.calls[0][1:] == play.calls[1][1:]  # same games and field for both

    def test_a_full_pool_drops_its_oldest_snapshot(self):
        lg = League(LeagueConfig(join_margin=0.0, max_snapshots=2))
        scores = {"caretaker": -1.0}
        for i in range(3):
            scores[f"policy:{i}"] = float(i)
            lg.consider(f"policy:{i}", i, scripted_play(scores), 1, 1)
        assert [s.spec for s in lg.snapshots] == ["policy:1", "policy:2"]
        assert len(lg.history) == 3

    def test_no_games_is_an_error(self):
        with pytest.raises(ValidationError, match="at least one game"):
            League(LeagueConfig()).consider("policy:x", 1, scripted_play({}), 0, 0)

    def test_save_and_load_keep_pool_and_history(self, tmp_path):
        lg = League(LeagueConfig(join_margin=0.0))
        spec = f"policy:{tmp_path}/snapshots/step_5/model.zip"
        lg.consider(spec, 5, scripted_play({spec: 0.5, "caretaker": 0.0}), 1, 2, {"win_vs_caretaker": 1})
        lg.save(tmp_path / "league.json")
        back = League.load(tmp_path / "league.json")
        assert back.snapshots == lg.snapshots
        assert back.history == lg.history
        assert back.weights() == lg.weights()


class TestSnapshotPaths:
    """league.json names snapshot models relative to its own folder, so a moved run folder (or another
    working directory) still finds them; older files (absolute, or relative to the first run's working
    directory) still load."""

    @staticmethod
    def league_with(spec: str) -> League:
        lg = League(LeagueConfig(join_margin=0.0))
        lg.consider(spec, 5, scripted_play({spec: 0.5, "caretaker": 0.0}), 1, 1)
        lg.consider("policy:next", 6, scripted_play({"policy:next": 0.0, spec: 0.5}), 1, 1)  # spec is incumbent
        return lg

    @staticmethod
    def run(root) -> tuple:
        model = root / "run" / "snapshots" / "step_5" / "model.zip"
        model.parent.mkdir(parents=True)
        model.write_bytes(b"zip")
        ckpt = root / "run" / "checkpoints" / "step_8"
        ckpt.mkdir(parents=True)
        return model, ckpt

    def test_written_relative_to_the_file_and_found_after_a_move(self, tmp_path, monkeypatch):
        import json
        import shutil

        _model, ckpt = self.run(tmp_path / "a")
        monkeypatch.chdir(tmp_path / "a")
        self.league_with("policy:run/snapshots/step_5/model.zip").save(ckpt / "league.json")
        data = json.loads((ckpt / "league.json").read_text())
        assert data["snapshots"][0]["spec"] == "policy:../../snapshots/step_5/model.zip"
        assert data["history"][1]["incumbent_spec"] == "policy:../../snapshots/step_5/model.zip"
        assert data["history"][0]["incumbent_spec"] == "caretaker"
        shutil.move(str(tmp_path / "a" / "run"), str(tmp_path / "moved"))
        monkeypatch.chdir(tmp_path)
        back = League.load(tmp_path / "moved" / "checkpoints" / "step_8" / "league.json")
        found = str(tmp_path / "moved" / "snapshots" / "step_5" / "model.zip")
        assert back.snapshots[0].spec == f"policy:{found}"
        assert back.history[1].incumbent_spec == f"policy:{found}"
        assert back.missing_snapshots() == []

    @pytest.mark.parametrize("how", ["absolute", "relative to the first run's directory"])
    def test_older_files_still_load_where_they_were(self, tmp_path, monkeypatch, how):
        import json

        model, ckpt = self.run(tmp_path)
        monkeypatch.chdir(tmp_path)
        spec = f"policy:{model}" if how == "absolute" else "policy:run/snapshots/step_5/model.zip"
        # the old format: specs as the run held them
        (ckpt / "league.json").write_text(self.league_with(spec).to_json())
        assert "paths" not in json.loads((ckpt / "league.json").read_text())
        back = League.load(ckpt / "league.json")
        assert back.snapshots[0].spec == f"policy:{model}"
        assert back.missing_snapshots() == []

    def test_an_older_file_of_a_moved_run_finds_its_snapshots_under_the_run_folder(self, tmp_path, monkeypatch):
        model, ckpt = self.run(tmp_path / "moved")
        monkeypatch.chdir(tmp_path)  # the first run's runs/<name>/ is not here
        (ckpt / "league.json").write_text(self.league_with("policy:runs/first/snapshots/step_5/model.zip").to_json())
        back = League.load(ckpt / "league.json")
        assert back.snapshots[0].spec == f"policy:{model}"

    def test_a_missing_snapshot_is_reported(self, tmp_path):
        _, ckpt = self.run(tmp_path)
        self.league_with(f"policy:{tmp_path}/gone/snapshots/step_5/model.zip").save(ckpt / "league.json")
        back = League.load(ckpt / "league.json")
        assert [s.step for s in back.missing_snapshots()] == [5]


class TestRealGames:
    def test_admission_scores_are_the_harness_scores_of_the_same_games(self):
        """The check's numbers are exactly the mean env reward of the same real games."""
        games = SeatGames(Scenario(players=3))
        lg = League(LeagueConfig(caretaker_weight=0.5, heuristic_weight=0.0, random_weight=0.5, snapshot_weight=0.0,
                                 join_margin=-10.0))
        check = lg.consider("heuristic", 1, games.play, 100, 6)
        cand, wins = games.play("heuristic", 100, 6, lg.weights())
        inc, _ = games.play("caretaker", 100, 6, lg.weights())
        assert check.candidate == pytest.approx(sum(cand) / 6)
        assert check.incumbent == pytest.approx(sum(inc) / 6)
        assert check.win_rate == pytest.approx(sum(wins) / 6)
        assert check.joined  # margin -10: anything joins
        assert [s.spec for s in lg.snapshots] == ["heuristic"]

    def test_same_seed_same_games(self):
        games = SeatGames(Scenario(players=3))
        a = games.report("random", 7, 4, {"random": 0.5, "caretaker": 0.5})
        b = games.report("random", 7, 4, {"random": 0.5, "caretaker": 0.5})
        assert [o["seat"] for o in a["detail"]] == ["Player#1", "Player#2", "Player#3", "Player#1"]
        assert a["detail"] == b["detail"]


def test_weighted_field_repeats_specs_in_proportion():
    field = weighted_field({"caretaker": 0.25, "heuristic": 0.75, "random": 0.0})
    assert field.count("caretaker") == 5 and field.count("heuristic") == 15 and "random" not in field
    assert weighted_field({"policy:x": 0.001}) == ["policy:x"]


def test_a_league_check_shows_its_games_progress_when_the_run_does(capsys):
    # the training bar stalled for a minute or more while a league check played its games, with nothing shown
    SeatGames(Scenario(players=3), progress=True).report("random", 7, 2, {"caretaker": 1.0})
    assert "random vs caretaker" in capsys.readouterr().err
    SeatGames(Scenario(players=3)).report("random", 7, 2, {"caretaker": 1.0})
    assert "random vs caretaker" not in capsys.readouterr().err
