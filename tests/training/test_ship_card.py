"""``python -m training.ship CKPT`` on a checkpoint of its own: the plot goes beside the card (never over the
shipped docs/images/league.png), the card copies no other run's prose (what the run tried comes from its
config; what only the author knows is marked to fill in), and its make_agent line names the real path."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from training.config import load_config, to_dict

ROOT = Path(__file__).parents[2]


def m(rate: float, n: int = 4) -> dict:
    return {"rate": rate, "ci": [0.0, 1.0], "n": n, "command": "regent eval field ..."}


def canned(*_args, **_kw) -> dict:
    """evaluate_checkpoint's shape without playing games (the card's writing is under test)."""
    ev = {"ring-5, policy (hard) vs 4 caretakers: win rate": m(0.0),
          "ring-5, policy (hard) vs 4 heuristics: win rate": m(0.25),
          "baseline: heuristic vs 4 caretakers: win rate": m(0.0),
          "baseline: heuristic vs 4 heuristics: win rate": m(0.25)}
    tk = {**m(0.25), "better": 1, "same": 3, "worse": 0}
    return {"evaluation": ev, "takeover": tk, "levels": {}, "handles": {}}


@pytest.fixture
def checkpoint(tmp_path, monkeypatch):
    cfg = to_dict(load_config(ROOT / "training" / "configs" / "smoke.toml"))
    history = [{"step": s, "candidate": -0.5, "incumbent": -1.0, "incumbent_spec": "caretaker", "joined": True,
                "win_rate": 0.0, "games": 2, "extra": {"win_vs_caretaker": 0.0, "win_vs_heuristic": 0.5}}
               for s in (128, 256)]
    summary = {"steps": 256, "wall_seconds": 6.0, "cpu_seconds": 6.0, "config": cfg, "resumed_from": None,
               "league": {"config": cfg["league"], "snapshots": [], "history": history}}
    ckpt = tmp_path / "elsewhere" / "mycard"
    ckpt.mkdir(parents=True)
    (ckpt / "training_summary.json").write_text(json.dumps(summary))
    (ckpt / "model.zip").write_bytes(b"")
    monkeypatch.setattr("training.ship.evaluate_checkpoint", canned)
    monkeypatch.chdir(tmp_path)  # a default of docs/images/league.png would land here
    return ckpt


def test_a_card_of_its_own_keeps_its_plot_and_names_its_path(checkpoint, tmp_path, capsys):
    from training.ship import FILL_IN, main

    assert main([str(checkpoint), "--no-slim", "--quiet"]) == 0
    assert (checkpoint / "league.png").read_bytes()[:4] == b"\x89PNG"
    assert not (tmp_path / "docs").exists()
    card = json.loads((checkpoint / "model_card.json").read_text())
    text = (checkpoint / "MODEL_CARD.md").read_text()
    assert card["plot"] == str(checkpoint / "league.png")
    assert f'make_agent("policy:{checkpoint.as_posix()}/model.zip")' in text
    assert "checkpoints/mycard" not in text
    heur = next(t for t in card["targets"] if t["name"] == "ring-5, 1 seat vs 4 heuristics")["note"]
    assert "tried (this run, from its config): 256 PPO steps, the terminal reward alone (no shaping), a league " \
           "of caretaker 0.5, heuristic 0, random 0.5 and snapshots 0.5" in heur
    assert "heuristic-heavy" not in text and "behaviour-cloning warm start from the heuristic" not in text
    assert "25-minute budget" not in text and "easy an early snapshot" not in text
    assert f"next: {FILL_IN}" in heur and FILL_IN in card["limitations"][-1]
    assert "are for you to write" in capsys.readouterr().err


def test_notes_replace_the_marked_parts(checkpoint, tmp_path):
    from training.ship import FILL_IN, main

    notes = tmp_path / "notes.json"
    notes.write_text(json.dumps({"tried": "tried: X", "next": "next: Y", "limitations": ["Z"]}))
    plot = tmp_path / "plots" / "mine.png"
    assert main([str(checkpoint), "--no-slim", "--quiet", "--notes", str(notes), "--plot", str(plot)]) == 0
    assert plot.is_file() and not (checkpoint / "league.png").exists()
    text = (checkpoint / "MODEL_CARD.md").read_text()
    assert "tried: X; next: Y" in text and "- Z" in text and FILL_IN not in text


def test_the_shipped_v1_card_keeps_its_own_words_in_its_notes():
    """v1's card was written with what used to be every card's default "tried"/"next"; they live in its notes."""
    notes = json.loads((ROOT / "checkpoints" / "protectors-ppo-v1" / "card_notes.json").read_text())
    card = json.loads((ROOT / "checkpoints" / "protectors-ppo-v1" / "model_card.json").read_text())
    heur = next(t for t in card["targets"] if t["name"] == "ring-5, 1 seat vs 4 heuristics")["note"]
    assert f"{notes['tried']}; {notes['next']}" in heur
    assert notes["limitations"] == card["limitations"]


def served_checkpoints() -> set[str]:
    from agents.checkpoints import LEVELS

    return {lv.checkpoint for lv in LEVELS.values()}


def test_a_card_not_behind_the_levels_says_who_plays_them():
    from training.model_card import render_markdown

    text = render_markdown({"name": "mine", "model": "runs/x/model.zip",
                            "levels": {"hard": {"how": "greedy", "vs_caretaker": m(0.0), "vs_heuristic": m(0.2)}}})
    assert 'make_agent("policy:runs/x/model.zip")' in text and 'make_agent("ppo' not in text
    assert f"the registry's `ppo:*` levels play {', '.join(sorted(served_checkpoints()))}" in text


@pytest.mark.parametrize("card", sorted((ROOT / "checkpoints").glob("*/MODEL_CARD.md")), ids=lambda p: p.parent.name)
def test_shipped_cards_say_which_checkpoint_the_ppo_levels_serve(card):
    """Only the checkpoint agents/checkpoints.py serves offers make_agent("ppo..."); the others say what plays
    the levels now (their own serving is history)."""
    text = card.read_text()
    use = text.split("## Use", 1)[1].split("```", 2)[1]
    if card.parent.name in served_checkpoints():
        assert 'make_agent("ppo")' in use
        return
    assert 'make_agent("ppo' not in use
    assert "plays this card's early snapshot" not in text and "still plays" not in text
    assert not re.search(r"agents/checkpoints\.py`? serves them", text)
    for name in served_checkpoints():
        assert f"`ppo:*` levels play {name}" in text or f"serves {name} for every level" in text
