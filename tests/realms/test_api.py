"""The RPC-facing entry point: every npr.* method on the sample world, and its errors."""

import json
from pathlib import Path

import pytest

from engine.errors import ValidationError
from npr_controller.realms.api import METHODS, UnknownMethodError, handle

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "realms"
WORLD = json.loads((EXAMPLES / "world.json").read_text())

CALLS = {
    "npr.invasions": {"seed": 5},
    "npr.defend": {"attacks": json.loads((EXAMPLES / "attacks.json").read_text())},
    "npr.retreat": {"battle": json.loads((EXAMPLES / "battle.json").read_text())},
    "npr.battle": {"battle": json.loads((EXAMPLES / "fight.json").read_text()), "seed": 2},
    "npr.call_to_arms": {"declaration": {"attacker": "Castamar", "target": "Elsmere"}},
    "npr.liberate": {"provinces": ["Dunmoreton"]},
    "npr.release": {},
    "npr.dnpr_expand": {"dnpr": "Morrow"},
    "npr.capacity": {"realm": "Dorn", "place": "Highmoor"},
    "npr.caretaker": {"realm": "Castamar", "step": "income"},
}


@pytest.mark.parametrize("method", sorted(METHODS))
def test_every_method_returns_plain_json_with_a_trace(method):
    out = handle(method, {"world": WORLD, **CALLS[method]})
    assert json.loads(json.dumps(out)) == out
    if method != "npr.capacity":
        assert out["trace"] and all(step["rule"] for step in out["trace"]) and "seed" in out["dice"]


def test_errors_name_the_field_or_method():
    with pytest.raises(UnknownMethodError):
        handle("npr.nope", {"world": WORLD})
    with pytest.raises(ValidationError, match="sed: unknown key"):
        handle("npr.invasions", {"world": WORLD, "sed": 1})
    with pytest.raises(ValidationError, match="world: is required"):
        handle("npr.release", {})
