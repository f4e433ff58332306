"""Decisions per second for the NPR controllers on the sample world (examples/realms/world.json).

Target (issue 4): a whole Phase 3 step B invasion phase in well under 1 ms per NPR. Also what an
``npr.invasions`` service call does (issue 8): validate the world document, then decide on that
fresh World; the loader's fast path is shown next to the full validator it stands in for.

    .venv/bin/python benchmarks/realms_bench.py [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path

from engine.realms import load_world, world_from_dict
from engine.realms.loader import validated_world
from npr_controller.realms.defence import defend
from npr_controller.realms.invasions import invasions

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "realms"


def _time(fn: Callable[[int], object], repeat: int) -> float:
    """Best-of-3 mean seconds per call over ``repeat`` calls (each with its own seed)."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for seed in range(repeat):
            fn(seed)
        best = min(best, (time.perf_counter() - start) / repeat)
    return best


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args(argv)
    world = load_world(EXAMPLES / "world.json")
    attacks = json.loads((EXAMPLES / "attacks.json").read_text())
    nprs = sum(1 for r in world.realms.values() if r.is_npr)
    phase = _time(lambda s: invasions(world, seed=s), args.repeat)
    defence = _time(lambda s: defend(world, attacks, seed=s), args.repeat)
    load = _time(lambda s: load_world(EXAMPLES / "world.json"), max(1, args.repeat // 4))
    doc = json.loads((EXAMPLES / "world.json").read_text())
    fast = _time(lambda s: world_from_dict(doc), args.repeat)
    full = _time(lambda s: validated_world(doc), args.repeat)
    call = _time(lambda s: invasions(world_from_dict(doc), seed=s).to_dict(), args.repeat)
    result = {
        "areas": len(world.areas), "provinces": len(world.provinces), "nprs": nprs,
        "invasion_phase_ms": phase * 1e3, "invasion_ms_per_npr": phase * 1e3 / nprs,
        "invasion_phases_per_s": 1 / phase, "defend_ms": defence * 1e3, "defend_battles_per_s": len(attacks) / defence,
        "load_world_ms": load * 1e3, "world_from_dict_ms": fast * 1e3, "full_validator_ms": full * 1e3,
        "fast_over_full": fast / full, "service_call_work_ms": call * 1e3,
    }
    print(f"sample world: {result['areas']} areas, {result['provinces']} provinces, {nprs} NPRs")
    print(f"invasion phase (all NPRs): {result['invasion_phase_ms']:.3f} ms "
          f"= {result['invasion_ms_per_npr']:.3f} ms per NPR ({result['invasion_phases_per_s']:.0f} phases/s)")
    print(f"defence of {len(attacks)} attacks: {result['defend_ms']:.3f} ms "
          f"({result['defend_battles_per_s']:.0f} battle allocations/s)")
    print(f"load + validate world: {result['load_world_ms']:.3f} ms (file read and JSON parse included)")
    print(f"validate a world document: {result['world_from_dict_ms']:.3f} ms with the fast path, "
          f"{result['full_validator_ms']:.3f} ms with the full validator ({result['fast_over_full']:.0%})")
    print(f"npr.invasions work (validate + decide on the fresh World + to_dict): "
          f"{result['service_call_work_ms']:.3f} ms")
    print("target: invasion phase well under 1 ms per NPR -> "
          + ("MET" if result["invasion_ms_per_npr"] < 1 else "NOT MET"))
    return result


if __name__ == "__main__":
    main()
