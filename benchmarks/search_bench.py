"""CPU time of a ``search`` decision (agents/search.py, the service's ``expert`` level) beside its peers.

Positions are recorded from all-heuristic 5-player ring games at the start of the orders step of a
few turns; in each, the first standing seat decides its orders with ``search`` (K candidates x M
rollouts), with its base policy ``ppo:hard`` and with ``heuristic``. The peer for the search's own
overhead is the same number of plain rollouts: K x M copies of the position played to the end by
heuristics, with no determinisation, candidates or scoring. CPU time (``time.process_time``), one
process; the search reports its median, p90 and max per decision.

    .venv/bin/python -m benchmarks.search_bench [--positions 8] [--turns 2,4,6]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from tqdm import tqdm

from agents.registry import make_agent
from agents.runner import finish
from engine.protectors.game import Game
from engine.protectors.seat import SeatContext
from training.evaluate import record_positions


def _cpu(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def plain_rollouts(position: Game, count: int) -> None:
    """``count`` copies of ``position`` played to the end by heuristics (the search's rollouts, bare)."""
    for k in range(count):
        g = position.clone()
        finish(g, {s: make_agent("heuristic", k) for s in g.state.players})


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=8, help="positions per turn")
    ap.add_argument("--turns", default="2,4,6")
    ap.add_argument("--seed", type=int, default=30000)
    args = ap.parse_args(argv)
    search = make_agent("search", 0)  # what the expert level plays (agents/search.py)
    base, heuristic = make_agent("ppo:hard", 0), make_agent("heuristic", 0)
    rows: list[dict[str, float]] = []
    positions = [p for t in args.turns.split(",")
                 for _, p in record_positions(args.positions, int(t), seed=args.seed, progress=False)]
    for pos in tqdm(positions, desc="search decisions"):
        seat = next(s for s, p in pos.state.players.items() if not p.eliminated)
        ctx = SeatContext(pos, seat)
        t_search = _cpu(lambda: search.act(ctx))  # noqa: B023 (called at once)
        n_rollouts = len(search.last_scores) * search.last_rollouts if len(search.last_scores) > 1 else 0
        rows.append({"search": t_search, "base": _cpu(lambda: base.act(ctx)),  # noqa: B023
                     "heuristic": _cpu(lambda: heuristic.act(ctx)),  # noqa: B023
                     "rollouts": n_rollouts,
                     "plain": _cpu(lambda: plain_rollouts(pos, n_rollouts)) if n_rollouts else 0.0})  # noqa: B023
    searched = [r for r in rows if r["rollouts"]]
    times = sorted(r["search"] for r in rows)
    result = {
        "decisions": len(rows), "searched": len(searched),
        "search_median_s": statistics.median(times), "search_p90_s": times[int(0.9 * (len(times) - 1))],
        "search_max_s": times[-1],
        "base_median_ms": statistics.median(r["base"] for r in rows) * 1e3,
        "heuristic_median_ms": statistics.median(r["heuristic"] for r in rows) * 1e3,
        "rollouts_per_s": sum(r["rollouts"] for r in searched) / sum(r["search"] for r in searched),
        "search_over_plain_rollouts": sum(r["search"] for r in searched) / sum(r["plain"] for r in searched),
    }
    print(f"{result['decisions']} orders decisions ({result['searched']} with 2+ candidates, so searched)")
    print(f"search (K={search.candidates} + {len(search.variants)} variants, M={search.rollouts}): "
          f"median {result['search_median_s']:.2f} s, "
          f"p90 {result['search_p90_s']:.2f} s, max {result['search_max_s']:.2f} s CPU per decision")
    print(f"base ppo:hard {result['base_median_ms']:.2f} ms, heuristic {result['heuristic_median_ms']:.2f} ms "
          f"(median per decision)")
    print(f"{result['rollouts_per_s']:.0f} rollouts/s inside the search; the search costs "
          f"{result['search_over_plain_rollouts']:.2f}x the same number of plain heuristic rollouts")
    return result


if __name__ == "__main__":
    main()
