"""Env steps per second with random masked actions, side by side with PettingZoo's connect_four_v3.

Target (issue 6): at least as many steps/s as connect_four_v3 stepped the same way (a uniformly random
legal action from the mask each step, resets included). connect_four_v3 needs ``pettingzoo[classic]``
(pygame); without it the peer row says so and no ratio is printed.

The peer and every env are measured in rounds (connect_four, then each env, then the next round), so
a change of machine load hits both sides; each row reports the median rate and the median of the
per-round ratios. ``--breakdown`` also times the engine's entry points inside the seat env runs
(``Game.advance``, ``Game.submit``, ``Game()``, the enumeration the planners and the encoder call,
``SeatContext`` and the opponents' ``act``) and prints the rate the seat env would reach if the env's
own code cost nothing (the timers add a little overhead of their own). With the envs compiled
(``tools/build_fast.py``) the encoder's and planners' calls into the engine are native and cannot be
timed from Python: they count as env code there.

    .venv/bin/python benchmarks/envs_bench.py [--steps N] [--rounds R] [--only NAME ...]
                                              [--clock cpu|wall] [--breakdown] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np

from engine.protectors import build_of

# CPU time of this process by default: the machine is shared, and time spent waiting for a core is
# not the env's (nor the peer's) cost. ``--clock wall`` uses wall time instead.
CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}
CLOCK = CLOCKS["cpu"]


def builds() -> str:
    """Which code ran: the engine's and the envs' modules compiled with mypyc (tools/build_fast.py) or pure Python."""
    return f"engine {build_of('engine.protectors.game')}, envs {build_of('agents.spaces.encoding')}"


def _pick(mask: np.ndarray, rng: random.Random) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def seat_env_rate(steps: int, **kw) -> float:
    from envs.seat_env import ProtectorsSeatEnv

    env, rng = ProtectorsSeatEnv(**kw), random.Random(0)
    _, info = env.reset(seed=0)
    start, ep = CLOCK(), 0
    for _ in range(steps):
        _, _, term, trunc, info = env.step(_pick(info["action_mask"], rng))
        if term or trunc:
            ep += 1
            _, info = env.reset(seed=ep)
    return steps / (CLOCK() - start)


def parallel_env_rate(steps: int, **kw) -> tuple[float, float]:
    """(env steps/s, agent actions/s): one parallel step takes one action from every live agent."""
    from envs.parallel_env import ProtectorsParallelEnv

    env, rng = ProtectorsParallelEnv(**kw), random.Random(0)
    obs, _ = env.reset(seed=0)
    start, ep, actions = CLOCK(), 0, 0
    for _ in range(steps):
        acts = {a: _pick(obs[a]["action_mask"], rng) for a in env.agents}
        actions += len(acts)
        obs, *_ = env.step(acts)
        if not env.agents:
            ep += 1
            obs, _ = env.reset(seed=ep)
    dt = CLOCK() - start
    return steps / dt, actions / dt


def connect_four_rate(steps: int) -> float | None:
    try:
        from pettingzoo.classic import connect_four_v3
    except ImportError:  # pettingzoo[classic] (pygame) not installed
        return None
    env, rng = connect_four_v3.env(), random.Random(0)
    env.reset(seed=0)
    start, n, ep = CLOCK(), 0, 0
    while n < steps:
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else _pick(obs["action_mask"], rng))
            n += 1
            if n >= steps:
                break
        ep += 1
        env.reset(seed=ep)
    return n / (CLOCK() - start)


def _cases(n: int) -> dict[str, Callable[[], float | tuple[float, float]]]:
    """Row name -> one measurement (steps/s, or (steps/s, agent actions/s) for the parallel env)."""
    return {
        "seat_env_caretakers": lambda: seat_env_rate(n, opponents=("caretaker",)),
        "seat_env_caretakers_all_choices": lambda: seat_env_rate(n, opponents=("caretaker",), skip_forced=False),
        "seat_env_random": lambda: seat_env_rate(n, opponents=("random",)),
        "seat_env_heuristic": lambda: seat_env_rate(n, opponents=("heuristic",)),
        "seat_env_16_grand_island": lambda: seat_env_rate(max(1, n // 5), players=16, version="grand", island=True,
                                                          opponents=("random",)),
        "parallel_env": lambda: parallel_env_rate(n),
    }


# -- --breakdown: time spent in the engine (and in the opponents) during seat env runs --------------
_ENGINE_CALLS = {  # module -> names the envs import from the engine (patched where they are looked up)
    "envs.seat_env": ("victory_points",),
    "agents.spaces.encoding": ("golden_limits", "brackets", "power_threshold"),
    "agents.spaces.planner_orders": ("orderable", "golden_limits", "active_cards", "march_targets"),
    "engine.protectors.legality": ("order_options",),
    "agents.spaces.planner_phases": ("supply_limit", "contribution"),
}


@contextmanager
def engine_timer() -> Iterator[dict[str, float]]:
    """Accumulate wall time (exclusive of nested timed calls) per engine entry point and agent."""
    import importlib

    from agents.heuristic import HeuristicAgent
    from agents.random_agent import RandomAgent
    from engine.protectors.game import Game
    from engine.protectors.seat import SeatContext
    from npr_controller.caretaker import CaretakerAgent

    acc: dict[str, float] = {}
    calls: dict[str, int] = {}
    stack: list[float] = []
    undo: list[tuple[object, str, object]] = []

    def timed(label: str, fn):
        def wrapper(*a, **k):
            stack.append(0.0)
            t = CLOCK()
            try:
                return fn(*a, **k)
            finally:
                dt = CLOCK() - t
                acc[label] = acc.get(label, 0.0) + dt - stack.pop()
                calls[label] = calls.get(label, 0) + 1
                if stack:
                    stack[-1] += dt
        return wrapper

    def patch(owner, name: str, label: str) -> None:
        fn = getattr(owner, name)
        undo.append((owner, name, fn))
        setattr(owner, name, timed(label, fn))

    for name in ("advance", "submit", "__init__", "deciding_seats"):
        patch(Game, name, f"engine Game.{name}")
    patch(SeatContext, "__init__", "engine SeatContext() (builds the seat's view)")
    for mod_name, names in _ENGINE_CALLS.items():
        mod = importlib.import_module(mod_name)
        for name in names:
            if hasattr(mod, name):
                patch(mod, name, f"engine {name} (called by the env)")
    for cls in (RandomAgent, HeuristicAgent, CaretakerAgent):
        patch(cls, "act", f"agent {cls.name}.act")
    acc[_CALLS] = calls  # type: ignore[assignment]
    acc[_TIMED] = timed  # type: ignore[assignment]
    try:
        yield acc
    finally:
        for owner, name, fn in reversed(undo):
            setattr(owner, name, fn)


_CALLS, _TIMED = "#calls", "#timed"


def _timer_overhead(timed, acc: dict, n: int = 20000) -> tuple[float, float]:
    """Per timed call: (overhead counted in the call's own label, overhead left in the rest), from a
    wrapped no-op against the plain one."""
    def nop():
        return None

    probe = timed("#probe", nop)
    start = CLOCK()
    for _ in range(n):
        nop()
    plain = CLOCK() - start
    acc.pop("#probe", None)
    start = CLOCK()
    for _ in range(n):
        probe()
    wrapped = CLOCK() - start
    inside = acc.pop("#probe") / n
    return inside, max(0.0, (wrapped - plain) / n - inside)


def breakdown(n: int, **kw) -> None:
    with engine_timer() as acc:
        start = CLOCK()
        seat_env_rate(n, **kw)
        total = CLOCK() - start
        calls = acc.pop(_CALLS)
        timed = acc.pop(_TIMED)
        probes = sorted(_timer_overhead(timed, acc) for _ in range(3))  # the median of three (a shared machine)
        inside, outside = probes[1]
        calls.pop("#probe", None)
    for key in acc:  # what the timers themselves cost, taken out of each label and of the rest
        acc[key] = max(0.0, acc[key] - inside * calls.get(key, 0))
    overhead = (inside + outside) * sum(calls.values())
    engine = sum(v for k, v in acc.items() if k.startswith("engine"))
    agents = sum(v for k, v in acc.items() if k.startswith("agent"))
    env = total - engine - agents - overhead
    print(f"\nbreakdown of seat env steps {kw}: {1e6 * total / n:.1f} us/step with the timers, "
          f"{1e6 * (total - overhead) / n:.1f} without ({1e6 * (inside + outside):.2f} us per timed call, "
          f"{sum(calls.values()) / n:.1f} timed calls/step)")
    net = total - overhead
    for key, val in sorted(acc.items(), key=lambda kv: -kv[1]):
        print(f"  {key:52} {1e6 * val / n:7.1f} us/step {100 * val / net:5.1f}%")
    print(f"  {'env code + benchmark loop (the rest)':52} {1e6 * env / n:7.1f} us/step {100 * env / net:5.1f}%")
    print(f"  steps/s if the env code cost nothing: {n / (engine + agents):.0f} "
          f"(engine {100 * engine / net:.0f}%, opponents' act {100 * agents / net:.0f}%)")


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", nargs="*", default=None, help="row names to run (default: all)")
    parser.add_argument("--breakdown", action="store_true", help="engine/env split of the seat env rows")
    parser.add_argument("--clock", choices=tuple(CLOCKS), default="cpu",
                        help="cpu: this process's CPU time (robust on a shared machine); wall: elapsed time")
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    global CLOCK
    CLOCK = CLOCKS[args.clock]
    n = args.steps
    cases = {k: f for k, f in _cases(n).items() if args.only is None or k in args.only}
    rates: dict[str, list] = {"connect_four_v3": [], **{k: [] for k in cases}}
    ratios: dict[str, list[float]] = {k: [] for k in rates}
    for _ in range(args.rounds):
        c4 = connect_four_rate(n)
        rates["connect_four_v3"].append(c4)
        for key, fn in cases.items():
            r = fn()
            rates[key].append(r)
            if c4:
                ratios[key].append((r[0] if isinstance(r, tuple) else r) / c4)
                if isinstance(r, tuple):
                    ratios.setdefault(key + "_agent_actions", []).append(r[1] / c4)
    out: dict = {"steps": n, "rounds": args.rounds, "clock": args.clock, "build": builds()}
    c4 = None if None in rates["connect_four_v3"] else statistics.median(rates["connect_four_v3"])
    out["connect_four_v3"] = c4
    for key in cases:
        vals = rates[key]
        if isinstance(vals[0], tuple):
            out[key + "_steps"] = statistics.median(v[0] for v in vals)
            out[key + "_agent_actions"] = statistics.median(v[1] for v in vals)
            if c4:
                out[key + "_steps_ratio"] = statistics.median(ratios[key])
                out[key + "_agent_actions_ratio"] = statistics.median(ratios[key + "_agent_actions"])
        else:
            out[key] = statistics.median(vals)
            if c4:
                out[key + "_ratio"] = statistics.median(ratios[key])
    print(f"build: {out['build']}")
    print(f"{'env (median of ' + str(args.rounds) + ' rounds, ' + args.clock + ' time)':34} {'steps/s':>10} "
          f"{'vs connect_four_v3':>20}")
    for key, val in out.items():
        if key in ("steps", "rounds", "clock", "build") or key.endswith("_ratio") or val is None:
            continue
        ratio = out.get(key + "_ratio", 1.0 if key == "connect_four_v3" else None)
        print(f"{key:34} {val:10.0f} {f'{ratio:.2f}x' if ratio is not None else 'n/a':>20}")
    if c4 is None:
        print("connect_four_v3 unavailable: install pettingzoo[classic] (pygame) for the peer row")
    elif "seat_env_caretakers_ratio" in out:
        print("target (seat env >= connect_four_v3): "
              + ("MET" if out["seat_env_caretakers_ratio"] >= 1.0 else "NOT MET"))
    if args.breakdown:
        breakdown(n, opponents=("caretaker",))
        if args.only is None or "seat_env_random" in args.only:
            breakdown(n, opponents=("random",))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=2)
    return out


if __name__ == "__main__":
    main()
