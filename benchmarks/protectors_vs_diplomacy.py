"""Adjudication speed: one Protectors turn on ring-7 vs one Diplomacy phase, in one process.

The `diplomacy` package's ``Game.process()`` is the closest public adjudicator. Both sides get
random valid orders; only adjudication is timed (order generation is excluded on both sides).
The two are interleaved (one Diplomacy game per 10 Protectors games) and timed in process CPU time
(time.process_time), so both see the same load and time spent descheduled on a busy machine is left out.
Run: ``make bench`` or ``python -m benchmarks.protectors_vs_diplomacy [--games N]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tqdm import tqdm

from agents.random_agent import RandomAgent
from engine.protectors import build_of
from engine.protectors.game import Game
from engine.protectors.seat import SeatContext


def protectors_game(seed: int, board: str = "ring-7") -> tuple[list[float], float]:
    """One random game: per-turn adjudication seconds (the sum of a turn's ``advance`` calls) and
    the whole game's seconds (agents included)."""
    per_turn: list[float] = []
    t_game = time.perf_counter()
    g = Game({"board": board, "seed": seed})
    agents = {s: RandomAgent(seed * 31 + i) for i, s in enumerate(g.state.players)}
    turn, acc = g.state.turn, 0.0
    while not g.over:
        for p in g.pending():
            g.submit(p.seat, agents[p.seat].act(SeatContext(g, p.seat)))
        t0 = time.process_time()
        g.advance(force=True)
        acc += time.process_time() - t0
        if g.state.turn != turn or g.over:
            per_turn.append(acc)
            turn, acc = g.state.turn, 0.0
    return per_turn, time.perf_counter() - t_game


def diplomacy_game(seed: int, phases: int = 20) -> list[float]:
    """One Diplomacy game on random valid orders: seconds of each ``Game.process()``."""
    from diplomacy import Game as DipGame

    out: list[float] = []
    rng = random.Random(seed)
    g = DipGame()
    for _ in range(phases):
        if g.is_game_done:
            break
        possible = g.get_all_possible_orders()
        for power in g.powers:
            locs = g.get_orderable_locations(power)
            g.set_orders(power, [rng.choice(possible[loc]) for loc in locs if possible[loc]])
        t0 = time.process_time()
        g.process()
        out.append(time.process_time() - t0)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300, help="Protectors games (Diplomacy: games // 10)")
    args = ap.parse_args(argv)
    # Interleaved: a Diplomacy game after every 10 Protectors games, so both sides run under the same
    # machine load (this box is shared; a ratio from two separate stretches of time would drift).
    turns: list[float] = []
    dip: list[float] = []
    total = 0.0
    for seed in tqdm(range(args.games), desc="protectors ring-7 + diplomacy", unit="game"):
        t, secs = protectors_game(seed)
        turns += t
        total += secs
        if seed % 10 == 9 or (seed == args.games - 1 and not dip):
            dip += diplomacy_game(seed // 10)
    p_turn = statistics.median(turns) * 1e3
    d_phase = statistics.median(dip) * 1e3
    mean = statistics.mean(turns) * 1e3
    print(f"engine: {build_of('engine.protectors.game')} (make fast / make fast-clean switch builds)")
    print(f"Protectors ring-7: {len(turns)} turns, median {p_turn:.3f} ms/turn (mean {mean:.3f}),"
          f" {args.games / total:.1f} full random games/s (agents included)")
    print(f"Diplomacy standard: {len(dip)} phases, median {d_phase:.3f} ms/phase")
    print(f"ratio: a Protectors turn is {d_phase / p_turn:.1f}x faster than a Diplomacy phase (target >= 10x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
