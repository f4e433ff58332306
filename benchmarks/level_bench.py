"""Decision latency of every AI level the service offers (issue 19: "a benchmark row for decision
latency of each level").

Each level is resolved the way ``game.assign`` resolves it (``service.ai.resolve``: the first agent
of its list that is installed), built once the way a seat builds it (``service.ai.decide``: numpy
inference for policies, the seat's own context only), and asked for its orders in positions recorded
from all-heuristic games at the start of the orders step of a few turns, in ring-5 and ring-7 (the
first standing seat decides). Wall-clock and CPU time per decision: median, p90 and max; the first
decision of each level (building the agent) is reported apart as ``cold``; a checkpoint an earlier
level already loaded is not read again, so a fresh process's load is benchmarks/policy_bench.py's.

    .venv/bin/python -m benchmarks.level_bench [--positions 4] [--turns 2,4,6] [--sizes 5,7]
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from tqdm import tqdm

from service.ai import DIFFICULTIES, decide, resolve
from training.evaluate import record_positions


def _quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[int(q * (len(xs) - 1))]


def measure(level: str, positions: list[Any]) -> dict[str, Any]:
    """Time ``level``'s orders decision in each position (one agent cache, as one seat keeps it)."""
    agent = resolve(level)
    cache: dict[str, Any] = {}
    walls, cpus, cold = [], [], None
    for k, pos in enumerate(positions):
        seat = next(s for s, p in pos.state.players.items() if not p.eliminated)
        game = pos.clone()
        w0, c0 = time.perf_counter(), time.process_time()
        decide(game, seat, agent, cache if k else {}, seed=k)
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        if k == 0:
            cold = wall
            decide(game, seat, agent, cache, seed=k)  # warm the cache the timed decisions use
            continue
        walls.append(wall)
        cpus.append(cpu)
    return {"level": level, "agent": agent, "decisions": len(walls), "cold_s": cold,
            "median_ms": statistics.median(walls) * 1e3, "p90_ms": _quantile(walls, 0.9) * 1e3,
            "max_ms": max(walls) * 1e3, "cpu_median_ms": statistics.median(cpus) * 1e3,
            "cpu_max_ms": max(cpus) * 1e3}


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=4, help="positions per turn and board size")
    ap.add_argument("--turns", default="2,4,6")
    ap.add_argument("--sizes", default="5,7", help="ring sizes")
    ap.add_argument("--levels", default=",".join(DIFFICULTIES))
    ap.add_argument("--seed", type=int, default=31000)
    args = ap.parse_args(argv)
    positions = [p for n in args.sizes.split(",") for t in args.turns.split(",")
                 for _, p in record_positions(args.positions, int(t), players=int(n), seed=args.seed,
                                              progress=False)]
    rows = [measure(level, positions) for level in tqdm(args.levels.split(","), desc="levels")]
    print(f"{len(positions)} orders decisions per level (ring {args.sizes}, turns {args.turns}); the first is cold")
    print(f"{'level':<8} {'agent':<10} {'cold s':>7} {'median ms':>10} {'p90 ms':>9} {'max ms':>9} {'CPU med ms':>10} "
          f"{'CPU max ms':>10}")
    for r in rows:
        print(f"{r['level']:<8} {r['agent']:<10} {r['cold_s']:>7.2f} {r['median_ms']:>10.1f} {r['p90_ms']:>9.1f} "
              f"{r['max_ms']:>9.1f} {r['cpu_median_ms']:>10.1f} {r['cpu_max_ms']:>10.1f}")
    return rows


if __name__ == "__main__":
    main()
