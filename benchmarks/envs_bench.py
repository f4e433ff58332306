"""Env steps per second with random masked actions, side by side with PettingZoo's connect_four_v3.

Target (issue 6): at least as many steps/s as connect_four_v3 stepped the same way (a uniformly random
legal action from the mask each step, resets included). connect_four_v3 needs ``pettingzoo[classic]``
(pygame); without it the peer row says so and no ratio is printed.

    .venv/bin/python benchmarks/envs_bench.py [--steps N] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable

import numpy as np


def _pick(mask: np.ndarray, rng: random.Random) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def seat_env_rate(steps: int, **kw) -> float:
    from envs.seat_env import ProtectorsSeatEnv

    env, rng = ProtectorsSeatEnv(**kw), random.Random(0)
    _, info = env.reset(seed=0)
    start, ep = time.perf_counter(), 0
    for _ in range(steps):
        _, _, term, trunc, info = env.step(_pick(info["action_mask"], rng))
        if term or trunc:
            ep += 1
            _, info = env.reset(seed=ep)
    return steps / (time.perf_counter() - start)


def parallel_env_rate(steps: int, **kw) -> tuple[float, float]:
    """(env steps/s, agent actions/s): one parallel step takes one action from every live agent."""
    from envs.parallel_env import ProtectorsParallelEnv

    env, rng = ProtectorsParallelEnv(**kw), random.Random(0)
    obs, _ = env.reset(seed=0)
    start, ep, actions = time.perf_counter(), 0, 0
    for _ in range(steps):
        acts = {a: _pick(obs[a]["action_mask"], rng) for a in env.agents}
        actions += len(acts)
        obs, *_ = env.step(acts)
        if not env.agents:
            ep += 1
            obs, _ = env.reset(seed=ep)
    dt = time.perf_counter() - start
    return steps / dt, actions / dt


def connect_four_rate(steps: int) -> float | None:
    try:
        from pettingzoo.classic import connect_four_v3
    except ImportError:  # pettingzoo[classic] (pygame) not installed
        return None
    env, rng = connect_four_v3.env(), random.Random(0)
    env.reset(seed=0)
    start, n, ep = time.perf_counter(), 0, 0
    while n < steps:
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else _pick(obs["action_mask"], rng))
            n += 1
            if n >= steps:
                break
        ep += 1
        env.reset(seed=ep)
    return n / (time.perf_counter() - start)


def _best(fn: Callable[[], float], repeat: int = 3):
    return max((fn() for _ in range(repeat)), key=lambda r: r if not isinstance(r, tuple) else r[0])


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=5000)
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    n = args.steps
    out: dict = {"steps": n}
    out["connect_four_v3"] = _best(lambda: connect_four_rate(n) or 0.0) or None
    out["seat_env_caretakers"] = _best(lambda: seat_env_rate(n, opponents=("caretaker",)))
    out["seat_env_caretakers_all_choices"] = _best(lambda: seat_env_rate(n, opponents=("caretaker",),
                                                                         skip_forced=False))
    out["seat_env_random"] = _best(lambda: seat_env_rate(n, opponents=("random",)))
    out["seat_env_heuristic"] = _best(lambda: seat_env_rate(n, opponents=("heuristic",)))
    out["seat_env_16_grand_island"] = _best(lambda: seat_env_rate(n // 5, players=16, version="grand", island=True,
                                                                   opponents=("random",)))
    steps, acts = _best(lambda: parallel_env_rate(n))
    out["parallel_env_steps"], out["parallel_env_agent_actions"] = steps, acts
    c4 = out["connect_four_v3"]
    print(f"{'env':32} {'steps/s':>10} {'vs connect_four_v3':>20}")
    for key, val in out.items():
        if key == "steps" or val is None:
            continue
        ratio = f"{val / c4:.2f}x" if c4 else "n/a"
        print(f"{key:32} {val:10.0f} {ratio:>20}")
    if c4 is None:
        print("connect_four_v3 unavailable: install pettingzoo[classic] (pygame) for the peer row")
    else:
        print("target (seat env >= connect_four_v3): "
              + ("MET" if out["seat_env_caretakers"] >= c4 else "NOT MET"))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=2)
    return out


if __name__ == "__main__":
    main()
