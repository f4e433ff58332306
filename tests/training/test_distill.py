"""``training.distill``: takeover labels come from the teacher at the taken seat only, recording is
deterministic for a seed, the fit moves the student toward the labels while the KL term holds the
anchor states, and bad input gets one line naming what was wrong."""

from __future__ import annotations

import numpy as np
import pytest

from engine.errors import ValidationError
from tests.training.helpers import tiny_model
from training.distill import collect_anchor, collect_takeovers, combine, fit, load_npz, main, save_npz

SMALL = {"turns": (2, 3), "recorders": {"heuristic": 1.0}, "mixed": 0.0, "bad_seat": 0.0,
         "bad_agents": {"random": 1.0}}


def _takeovers(games=3, seed=5, **kw):
    return collect_takeovers(games, seed, teacher="heuristic", dagger=0.0, sizes={3: 1.0}, starts=SMALL,
                             progress=False, **kw)


def test_takeover_labels_are_the_teachers_and_recording_is_deterministic():
    a, b = _takeovers(), _takeovers()
    assert len(a["actions"]) > 0
    for k in ("obs", "masks", "actions", "returns", "game"):
        assert np.array_equal(a[k], b[k]), k
    assert len(a["returns"]) == len(a["actions"]) == len(a["obs"])
    masks = np.unpackbits(a["masks"], axis=1).astype(bool)
    assert masks[np.arange(len(a["actions"])), a["actions"]].all()  # every label is a legal choice
    assert int(a["decisions"]) >= len(set(a["game"].tolist()))
    assert not np.array_equal(a["actions"], _takeovers(seed=6)["actions"][:len(a["actions"])])


def test_dagger_needs_a_policy_student():
    with pytest.raises(ValidationError, match="'heuristic' is not a policy"):
        collect_takeovers(1, teacher="heuristic", student="heuristic", dagger=0.5, progress=False)
    with pytest.raises(ValidationError, match="share in"):
        collect_takeovers(1, teacher="heuristic", dagger=1.5, progress=False)


def test_dagger_games_follow_the_student(tmp_path):
    path = tmp_path / "student.zip"
    tiny_model([16], seed=3).save(path)
    kw = {"teacher": "heuristic", "student": f"policy:{path}", "sizes": {3: 1.0}, "starts": SMALL,
          "progress": False}
    led = collect_takeovers(3, 5, dagger=0.0, **kw)
    followed = collect_takeovers(3, 5, dagger=1.0, **kw)
    # same positions, but the untrained student's games go elsewhere; the labels stay the teacher's
    assert len(followed["actions"]) > 0
    assert not (len(led["actions"]) == len(followed["actions"]) and np.array_equal(led["obs"], followed["obs"]))


def test_fit_moves_toward_the_labels_and_holds_the_anchor(tmp_path):
    model = tiny_model([32], seed=1)
    taught = _takeovers(games=6)
    anchor = collect_anchor(1, seed=3, student="heuristic", progress=False)
    assert anchor["anchor"].all() and len(anchor["actions"]) > 0
    data = combine([taught, anchor])
    assert (~data["anchor"]).sum() == len(taught["actions"])
    report = fit(model, data, epochs=15, batch_size=64, learning_rate=3e-3, kl=0.1, held_out=0.0,
                 progress=False)
    assert report["agreement_after"]["train"] > report["agreement_before"]["train"]
    assert report["taught"] == len(taught["actions"]) and report["anchor"] == len(anchor["actions"])
    assert report["agreement_after"]["held_out"] is None  # nothing held out (held_out=0): null, not NaN


def test_the_kl_term_pulls_back_to_the_frozen_student():
    model = tiny_model([32], seed=1)
    data = combine([_takeovers(games=6)])
    free = fit(tiny_model([32], seed=1), data, epochs=10, batch_size=64, learning_rate=3e-3, kl=0.0,
               held_out=0.0, progress=False)
    held = fit(model, data, epochs=10, batch_size=64, learning_rate=3e-3, kl=50.0, held_out=0.0,
               progress=False)
    assert held["epochs"][-1]["kl"] < free["epochs"][-1]["kl"]


def test_bad_files_get_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.npz"
    bad.write_text("not numpy")
    with pytest.raises(ValidationError, match=r"not a distillation \.npz"):
        load_npz(bad)
    partial = save_npz(tmp_path / "partial.npz", {"obs": np.zeros((1, 2))})
    with pytest.raises(ValidationError, match="missing array"):
        load_npz(partial)
    model = tmp_path / "m.zip"
    model.write_text("no zip")
    assert main(["fit", str(tmp_path / "out"), "--init", str(model), "--data", str(partial)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "missing array" in err[0]
    good = save_npz(tmp_path / "good.npz", _takeovers(games=1))
    assert main(["fit", str(tmp_path / "out"), "--init", str(model), "--data", str(good)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "m.zip is not a MaskablePPO checkpoint" in err[0]


def test_an_unwritable_output_is_named_before_any_game_and_an_old_file_is_kept(tmp_path, capsys):
    blocker = tmp_path / "afile"
    blocker.write_text("not a folder")
    assert main(["collect", str(blocker / "x.npz"), "--games", "1", "--teacher", "heuristic", "--dagger", "0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"distill: out: {blocker / 'x.npz'}: cannot write")
    old = save_npz(tmp_path / "runs" / "old.npz", _takeovers(games=1))  # the folder is made
    before = old.read_bytes()
    from training.distill import writable

    writable(old)  # checking leaves an earlier run's file as it was
    assert old.read_bytes() == before and sorted(p.name for p in old.parent.iterdir()) == ["old.npz"]


def test_a_fit_with_nothing_to_learn_is_refused_not_run(tmp_path):
    taught = _takeovers(games=2)
    anchor = collect_anchor(1, seed=3, student="heuristic", progress=False)
    model = tiny_model([16], seed=1)
    with pytest.raises(ValidationError, match="no teacher's label to learn from"):
        fit(model, combine([anchor]), epochs=1, progress=False)  # anchor states only
    with pytest.raises(ValidationError, match="no teacher's label to learn from among the 0 training samples"):
        fit(model, combine([taught]), epochs=1, held_out=0.99999, progress=False)  # every game held out
    text = tmp_path / "notes.npz"
    text.write_text("# not numpy at all\n")
    with pytest.raises(ValidationError, match=r"notes\.npz: not a distillation \.npz \(not a NumPy \.npz archive\)"):
        load_npz(text)
    single = tmp_path / "one.npy"
    np.save(single, np.zeros(3))
    with pytest.raises(ValidationError, match=r"a single array, not an \.npz archive"):
        load_npz(single)
