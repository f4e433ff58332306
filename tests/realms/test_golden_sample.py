"""Pinned outputs for the sample world (``examples/realms/world.json``): the loaded World and the
exact ``npr.invasions`` decision + trace + dice for a few seeds, direct and through the service.

These were recorded before the loader / service speed work (issue 8, the ``npr.invasions`` p99
target) so any change that alters a decision, a trace line or the loaded model fails here. The
decisions were re-recorded once, on purpose, when each NPR got its own dice stream of the seed
(npr_controller/dice.py; the dice and what they decide changed, nothing else).
Regenerate only on purpose: ``python -m tests.realms.test_golden_sample`` rewrites the files.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from engine.realms import world_from_dict
from npr_controller.realms.invasions import invasions

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "examples" / "realms" / "world.json"
GOLDEN = Path(__file__).with_name("golden")
SEEDS = (0, 4, 8)  # each picks Dorn's target at random (step 1.4) and fights Hollin's battle (0: 2 rounds)


def canonical(value: Any) -> Any:
    """Plain, order-stable data for a model value (frozensets sorted; dataclasses by field)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"@": type(value).__name__,
                **{f.name: canonical(getattr(value, f.name)) for f in dataclasses.fields(value)
                   if not f.name.startswith("_")}}
    if isinstance(value, dict):
        return {str(k): canonical(v) for k, v in value.items()}
    if isinstance(value, frozenset | set):
        return sorted((canonical(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(value, list | tuple):
        return [canonical(v) for v in value]
    return value


def sample() -> dict[str, Any]:
    return json.loads(SAMPLE.read_text())


def recorded() -> dict[str, Any]:
    return {"world": canonical(world_from_dict(sample())),
            **{f"invasions_seed_{s}": json.loads(json.dumps(invasions(world_from_dict(sample()), seed=s).to_dict()))
               for s in SEEDS}}


def golden(name: str) -> Any:
    return json.loads((GOLDEN / f"{name}.json").read_text())


def test_sample_world_loads_to_the_pinned_model():
    assert canonical(world_from_dict(sample())) == golden("world")


@pytest.mark.parametrize("seed", SEEDS)
def test_npr_invasions_on_the_sample_world_is_pinned(seed):
    out = json.loads(json.dumps(invasions(world_from_dict(sample()), seed=seed).to_dict()))
    assert out == golden(f"invasions_seed_{seed}")


@pytest.mark.parametrize("seed", SEEDS)
def test_npr_invasions_through_the_service_is_pinned(seed):
    """The same bytes a client gets: the stateless handler, then a msgpack round trip."""
    import msgpack

    from service.stateless import run

    status, value = run("npr.invasions", [{"world": sample(), "seed": seed}])
    assert status == "ok"
    wire = msgpack.unpackb(msgpack.packb(value, use_bin_type=True), raw=False)
    assert wire == golden(f"invasions_seed_{seed}")


def test_repeated_calls_on_one_loaded_world_are_independent():
    """A World is immutable: deciding twice on the same object gives the pinned answer both times."""
    w = world_from_dict(sample())
    first = json.loads(json.dumps(invasions(w, seed=8).to_dict()))
    second = json.loads(json.dumps(invasions(w, seed=8).to_dict()))
    assert first == second == golden("invasions_seed_8")


if __name__ == "__main__":
    GOLDEN.mkdir(exist_ok=True)
    for key, value in recorded().items():
        (GOLDEN / f"{key}.json").write_text(json.dumps(value, indent=1, sort_keys=False) + "\n")
        print("wrote", GOLDEN / f"{key}.json")
