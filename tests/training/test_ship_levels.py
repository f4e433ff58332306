"""``python -m training.ship --own-levels``: the difficulty levels of a checkpoint not yet registered."""

from __future__ import annotations

from training.model_card import render_markdown
from training.ship import _imitation, own_levels


def test_own_levels_use_the_checkpoint_and_an_easy_snapshot_when_there_is_one(tmp_path):
    ckpt = tmp_path / "protectors-ppo-vX"
    ckpt.mkdir()
    lv = own_levels(ckpt)
    assert {k: (v.checkpoint, v.model, v.temperature) for k, v in lv.items()} == {
        "easy": ("protectors-ppo-vX", "model.zip", 2.0), "normal": ("protectors-ppo-vX", "model.zip", 1.0),
        "hard": ("protectors-ppo-vX", "model.zip", 0.0)}
    (ckpt / "easy.zip").write_bytes(b"")
    easy = own_levels(ckpt)["easy"]
    assert (easy.model, easy.temperature) == ("easy.zip", 1.0)


def test_the_warm_start_appears_on_the_card():
    assert _imitation({}) is None
    summary = {"imitation": {"games": 10, "dagger_rounds": 1, "dagger_games": 5, "samples": 900, "seconds": 60.0,
                             "held_out_accuracy": 0.9, "rounds": [
                                 {"held_out_accuracy": 0.85, "decisions_rebuilt_exactly": 75, "decisions": 100}]}}
    im = _imitation(summary)
    assert im["first_fit_held_out_accuracy"] == 0.85 and im["decisions_rebuilt_exactly"] == [75, 100]
    text = render_markdown({"name": "x", "training": {"steps": 1, "imitation": im}})
    assert "900 recorded choices" in text and "90.0% of held-out states" in text and "75.0% of" in text
