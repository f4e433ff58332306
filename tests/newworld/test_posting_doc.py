"""docs/world-formats.md says what of an answer a GM keeps from the players: one seed gives every stream of it,
so the seed of a posted plan tells any other plan made with it (checked here on the sample world), and an
`npn plan` is made at the start of the turn, before the nation moves (002 The Planning Stage)."""

from __future__ import annotations

import re
from pathlib import Path

from engine.newworld import load_world
from npr_controller.newworld import plan_nation

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "world-formats.md"


def _section() -> str:
    text = DOC.read_text(encoding="utf-8")
    found = re.search(r"^### What to post, what to keep\n(.*?)(?=^#)", text, re.M | re.S)
    assert found, "docs/world-formats.md has no 'What to post, what to keep' section"
    return " ".join(found.group(1).split())


def test_a_posted_seed_tells_another_nations_plan_made_with_it():
    world = load_world(ROOT / "examples" / "newworld" / "world.json")
    posted = plan_nation(world, "Spain").to_dict()["seed"]  # a fresh secret seed, printed with Spain's plan
    portugal = plan_nation(world, "Portugal", seed=posted).to_dict()  # the GM plans Portugal with the same seed
    assert portugal["seed"] == posted
    # a player holding Spain's answer and the world computes Portugal's rolls: the doc must say to keep the seed
    assert plan_nation(world, "Portugal", seed=posted).to_dict()["dice"] == portugal["dice"]
    section = _section()
    assert "seed" in section and "Portugal" in section and "npn plan" in section


def test_the_doc_keeps_the_plan_and_the_deck_order_from_the_players():
    section = _section()
    assert "until the nation plays its turn" in section
    assert "--deck" in section
