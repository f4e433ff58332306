"""Adjudication speed: one Protectors turn on ring-7 vs one Diplomacy phase, in one process.

The `diplomacy` package's ``Game.process()`` is the closest public adjudicator. Both sides get
random valid orders; only adjudication is timed (order generation is excluded on both sides).
Run: ``make bench`` or ``python -m benchmarks.protectors_vs_diplomacy [--games N]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tqdm import tqdm

from agents.random_agent import RandomAgent
from engine.protectors.game import Game
from engine.protectors.seat import SeatContext


def protectors_turns(games: int, board: str = "ring-7") -> tuple[list[float], float]:
    """Per-turn adjudication seconds (sum of ``advance`` calls of a turn) and whole-game seconds."""
    per_turn: list[float] = []
    game_time = 0.0
    for seed in tqdm(range(games), desc=f"protectors {board}", unit="game"):
        t_game = time.perf_counter()
        g = Game({"board": board, "seed": seed})
        agents = {s: RandomAgent(seed * 31 + i) for i, s in enumerate(g.state.players)}
        turn, acc = g.state.turn, 0.0
        while not g.over:
            for p in g.pending():
                g.submit(p.seat, agents[p.seat].act(SeatContext(g, p.seat)))
            t0 = time.perf_counter()
            g.advance(force=True)
            acc += time.perf_counter() - t0
            if g.state.turn != turn or g.over:
                per_turn.append(acc)
                turn, acc = g.state.turn, 0.0
        game_time += time.perf_counter() - t_game
    return per_turn, game_time


def diplomacy_phases(games: int, phases: int = 20) -> list[float]:
    from diplomacy import Game as DipGame

    out: list[float] = []
    for seed in tqdm(range(games), desc="diplomacy", unit="game"):
        rng = random.Random(seed)
        g = DipGame()
        for _ in range(phases):
            if g.is_game_done:
                break
            possible = g.get_all_possible_orders()
            for power in g.powers:
                locs = g.get_orderable_locations(power)
                g.set_orders(power, [rng.choice(possible[loc]) for loc in locs if possible[loc]])
            t0 = time.perf_counter()
            g.process()
            out.append(time.perf_counter() - t0)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300, help="Protectors games (Diplomacy: games // 10)")
    args = ap.parse_args(argv)
    turns, total = protectors_turns(args.games)
    dip = diplomacy_phases(max(3, args.games // 10))
    p_turn = statistics.median(turns) * 1e3
    d_phase = statistics.median(dip) * 1e3
    mean = statistics.mean(turns) * 1e3
    print(f"Protectors ring-7: {len(turns)} turns, median {p_turn:.3f} ms/turn (mean {mean:.3f}),"
          f" {args.games / total:.1f} full random games/s (agents included)")
    print(f"Diplomacy standard: {len(dip)} phases, median {d_phase:.3f} ms/phase")
    print(f"ratio: a Protectors turn is {d_phase / p_turn:.1f}x faster than a Diplomacy phase (target >= 10x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
