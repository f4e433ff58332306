"""Robustness run: many full random games over every board size and option, counting exceptions.

Default 10,000 games: 2-16 players, Normal and Grand, with and without the Island, factions and
teams, random agents in every seat (the issue's "10,000 random full games run without an
exception"). Run: ``python -m benchmarks.random_games [--games N] [--workers 2]``.
"""

from __future__ import annotations

import argparse
import random
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from tqdm import tqdm

from agents.random_agent import RandomAgent
from agents.runner import play_game
from engine.protectors.board import ring_name


def random_setup(seed: int) -> dict:
    rng = random.Random(seed)
    players = rng.randint(2, 16)
    board = ring_name(players, rng.random() < 0.4, rng.random() < 0.3)
    teams = players >= 4 and players % 2 == 0 and rng.random() < 0.25
    roster = [{"seat": f"Player#{i}", "team": f"T{(i - 1) // 2}" if teams else None} for i in range(1, players + 1)]
    return {"board": board, "seed": seed, "players": roster,
            "options": {"factions": rng.random() < 0.5, "teams": teams}}


def play_one(seed: int) -> tuple[int, str, int, str | None]:
    setup = random_setup(seed)
    try:
        agents = {p["seat"]: RandomAgent(seed * 97 + i) for i, p in enumerate(setup["players"])}
        game = play_game(setup, agents)
        return seed, game.result["how"], game.result["turn"], None
    except Exception:  # the point of this run is to catch any engine failure
        return seed, "error", 0, traceback.format_exc()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--start", type=int, default=0, help="first seed")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    how: Counter[str] = Counter()
    errors = []
    seeds = range(args.start, args.start + args.games)
    with ProcessPoolExecutor(args.workers) as pool:
        for seed, result, _turn, err in tqdm(pool.map(play_one, seeds, chunksize=50), total=args.games,
                                             desc="random games", unit="game"):
            how[result] += 1
            if err:
                errors.append((seed, err))
    dt = time.perf_counter() - t0
    print(f"{args.games} games in {dt:.1f}s ({args.games / dt:.0f} games/s on {args.workers} workers): {dict(how)}")
    for seed, err in errors[:5]:
        print(f"--- seed {seed}: {random_setup(seed)}\n{err}")
    print(f"exceptions: {len(errors)}")
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
