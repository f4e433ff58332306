"""Whole games per CPU second in the PettingZoo parallel env, random masked actions.

The parallel env paces each engine step to a fixed number of env steps worked out from public facts
(``envs/pacing.py``), so that when a step resolves tells no seat the others' hidden choices. A padded
env step is cheap, but a game takes more of them; env steps/s (``benchmarks/envs_bench.py``) does not
show that cost, games per CPU second does. Run it on two trees for a before/after ratio:

    .venv/bin/python -m benchmarks.parallel_games [--players 5,16] [--games 40] [--seed 0]
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def games_rate(players: int, games: int, seed: int = 0) -> tuple[float, float]:
    """(games per CPU second, env steps per game) over ``games`` seeded games."""
    from envs.parallel_env import ProtectorsParallelEnv

    rng, env, steps = np.random.default_rng(seed), ProtectorsParallelEnv(players=players), 0
    start = time.process_time()
    for g in range(games):
        obs, _ = env.reset(seed=seed + g)
        while env.agents:
            acts = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
            obs, *_ = env.step(acts)
            steps += 1
    return games / (time.process_time() - start), steps / games


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default="5,16", help="comma-separated table sizes")
    ap.add_argument("--games", type=int, default=40, help="games per size (a quarter of them at 10+ seats)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    from engine.protectors import build_of

    print(f"build: engine {build_of('engine.protectors.game')}, envs {build_of('agents.spaces.encoding')}")
    for players in (int(p) for p in args.players.split(",")):
        n = args.games if players < 10 else max(1, args.games // 4)
        rate, per_game = games_rate(players, n, args.seed)
        print(f"players={players:2d}  games/CPU-s {rate:8.2f}  env steps/game {per_game:6.1f}  ({n} games)")


if __name__ == "__main__":
    main()
