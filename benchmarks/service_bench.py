"""Service benchmark, side by side with a bare asyncio msgpack echo server as the ceiling.

Measures (issue 8, evidence 6): ``ping`` throughput and latency at 1 and 16 connections for the
Regent server and the bare echo server in the same run (and the ratio); ``game.submit`` +
``game.advance`` p50/p99; the AI seat decision p99 (in process); ``npr.invasions`` on the sample
world p99 (and its peer, the same work called in process); the serving process's memory; the
machine's load average around the run (other jobs on a shared machine move every tail). Both
servers run as subprocesses on TCP 127.0.0.1.

Run: ``python -m benchmarks.service_bench [--seconds 3] [--json out.json]``; ``--only-npr`` measures
just ``npr.invasions`` (quick iterations on the stateless path). Issue 23's rows
(``benchmarks/service_limits.py``: ping p99 during a flood of maximum-size submissions, start time and
memory with 100,000 stored games) run with ``--limits`` (``--stored-games N``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import msgpack
from tqdm import tqdm

ROOT = Path(__file__).resolve().parents[1]
ENTRY = "from service.cli import main; raise SystemExit(main())"


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000 if values else float("nan")


def start_regent(tmp: Path) -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen([sys.executable, "-c", ENTRY, "serve", "--port", "0", "--db", str(tmp / "bench.sqlite"),
                             "--log-level", "warning"], cwd=ROOT, stderr=subprocess.PIPE, text=True)
    proc.stderr.close()  # logs at warning only; the port comes from /proc
    port = None
    for _ in range(600):
        port = _listening_port(proc.pid)
        if port:
            break
        time.sleep(0.05)
    if not port:
        raise RuntimeError("regent serve did not start")
    return proc, port


def _listening_port(pid: int) -> int | None:
    """The TCP port a process listens on, from /proc (Linux)."""
    import os

    inodes = set()
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
        for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
            parts = line.split()
            if parts[3] == "0A" and parts[9] in inodes:  # 0A: LISTEN
                return int(parts[1].split(":")[1], 16)
    except OSError:
        return None
    return None


def start_echo() -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen([sys.executable, "-m", "benchmarks.echo_server"], cwd=ROOT, stdout=subprocess.PIPE,
                            text=True)
    return proc, json.loads(proc.stdout.readline())["port"]


async def _ping_worker(port: int, stop: float, lat: list[float], every: float = 0.0) -> int:
    """Pings until ``stop`` (perf_counter time), appending each round trip to ``lat``; ``every``: a
    pause between pings (0: back to back). Returns the number of pings."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    unpacker = msgpack.Unpacker(raw=False)
    n = 0
    while time.perf_counter() < stop:
        t = time.perf_counter()
        writer.write(msgpack.packb([0, n & 0xFFFFFFFF, "ping", []]))
        while True:
            try:
                unpacker.unpack()
                break
            except msgpack.OutOfData:
                unpacker.feed(await reader.read(65536))
        lat.append(time.perf_counter() - t)
        n += 1
        if every:
            await asyncio.sleep(every)
    writer.close()
    return n


def ping_load(port: int, connections: int, seconds: float) -> dict[str, float]:
    async def run() -> tuple[int, list[float]]:
        lat: list[float] = []
        stop = time.perf_counter() + seconds
        counts = await asyncio.gather(*(_ping_worker(port, stop, lat) for _ in range(connections)))
        return sum(counts), lat

    t = time.perf_counter()
    n, lat = asyncio.run(run())
    elapsed = time.perf_counter() - t
    return {"rps": n / elapsed, "p50_ms": pct(lat, 0.5), "p99_ms": pct(lat, 0.99)}


def game_latencies(port: int, steps: int) -> dict[str, float]:
    from service.client import Client

    submit, advance = [], []
    with Client("127.0.0.1", port) as c:
        g = c.call("game.create", setup={"board": "ring-5", "seed": 1, "players": 5, "auto_advance": False})
        gid, gm = g["game_id"], g["gm_token"]
        for _ in tqdm(range(steps), desc="submit+advance", leave=False):
            view = c.call("game.view", game_id=gid, token=gm)
            if view["over"]:
                g = c.call("game.create", setup={"board": "ring-5", "seed": len(advance), "auto_advance": False})
                gid, gm = g["game_id"], g["gm_token"]
                continue
            for p in view["pending"]:
                t = time.perf_counter()
                c.call("game.submit", game_id=gid, token=gm, seat=p["seat"], text="Bid 0" if view["step"] in (
                    "bid", "rebid", "bank_bid", "consolidation") else "")
                submit.append(time.perf_counter() - t)
            t = time.perf_counter()
            c.call("game.advance", game_id=gid, token=gm, force=True)
            advance.append(time.perf_counter() - t)
    return {"submit_p50_ms": pct(submit, 0.5), "submit_p99_ms": pct(submit, 0.99),
            "advance_p50_ms": pct(advance, 0.5), "advance_p99_ms": pct(advance, 0.99)}


def npr_latency(port: int, calls: int) -> dict[str, float]:
    from service.client import Client

    world = json.loads((ROOT / "examples" / "realms" / "world.json").read_text())
    lat = []
    with Client("127.0.0.1", port) as c:
        c.call("npr.invasions", world=world, seed=0)  # warm-up (imports)
        for i in tqdm(range(calls), desc="npr.invasions", leave=False):
            t = time.perf_counter()
            c.call("npr.invasions", world=world, seed=i)
            lat.append(time.perf_counter() - t)
    # The peer: the same controller called in process (world parsing included), no service around it.
    from engine.realms import world_from_dict
    from npr_controller.realms.invasions import invasions

    direct = []
    for i in range(calls):
        t = time.perf_counter()
        invasions(world_from_dict(world), seed=i).to_dict()
        direct.append(time.perf_counter() - t)
    return {"npr_invasions_p50_ms": pct(lat, 0.5), "npr_invasions_p99_ms": pct(lat, 0.99),
            "npr_invasions_direct_p50_ms": pct(direct, 0.5), "npr_invasions_direct_p99_ms": pct(direct, 0.99)}


def ai_decision_latency(games: int) -> dict[str, float]:
    """In process: one AI seat's decision (agent.act on its SeatContext), per agent in the registry."""
    from agents.registry import AGENTS
    from engine.protectors.game import Game
    from service import ai

    out = {}
    for name in sorted(AGENTS):
        lat, cache = [], {}
        warm = Game({"board": "ring-5", "seed": 0})  # load the agent (a policy's weights) before timing
        ai.decide(warm, warm.pending()[0].seat, name, cache, 0)
        for seed in range(games):
            game = Game({"board": "ring-5", "seed": seed})
            while not game.over:
                for p in game.pending():
                    t = time.perf_counter()
                    decision = ai.decide(game, p.seat, name, cache, seed)
                    lat.append(time.perf_counter() - t)
                    with contextlib.suppress(ValueError):
                        game.submit(p.seat, decision)
                game.advance(force=True)
        out[f"ai_{name}_p99_ms"] = pct(lat, 0.99)
    return out


def agent_names() -> list[str]:
    from agents.registry import AGENTS

    return list(AGENTS)


def policy_rss(port: int, pid: int, policy: str) -> float:
    """The server's RSS once a seat played by ``policy`` has decided (the policy is loaded)."""
    from service.client import Client

    with Client("127.0.0.1", port) as c:
        g = c.call("game.create", setup={"board": "ring-5", "seed": 1, "agents": {"Player#1": policy}})
        c.call("game.pending", game_id=g["game_id"], token=g["gm_token"], wait=True)
    return rss_mb(pid)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="duration of each ping run")
    ap.add_argument("--steps", type=int, default=300, help="submit+advance rounds")
    ap.add_argument("--npr-calls", type=int, default=300)
    ap.add_argument("--ai-games", type=int, default=5)
    ap.add_argument("--policy", help="agent for the memory-with-a-policy row (default: the first ppo* agent)")
    ap.add_argument("--json", help="also write the numbers here")
    ap.add_argument("--only-npr", action="store_true",
                    help="measure only npr.invasions (RPC and direct), for quick iterations")
    ap.add_argument("--limits", action="store_true",
                    help="also the issue 23 rows: ping during a submission flood, many stored games")
    ap.add_argument("--stored-games", type=int, default=100_000, help="stored games for --limits")
    args = ap.parse_args(argv)
    # The machine's 1-minute load average around the run: other jobs on a shared 2-core machine move
    # every tail latency (the in-process npr.invasions peer shows how much).
    results: dict[str, float] = {"loadavg_1min_start": loadavg()}
    with tempfile.TemporaryDirectory() as tmp:
        regent, regent_port = start_regent(Path(tmp))
        echo, echo_port = start_echo()
        try:
            if args.only_npr:
                results.update(npr_latency(regent_port, args.npr_calls))
                return _report(results, args)
            for conns in tqdm((1, 16), desc="ping"):
                for name, port in (("echo", echo_port), ("regent", regent_port)):
                    r = ping_load(port, conns, args.seconds)
                    for k, v in r.items():
                        results[f"ping_{name}_{conns}c_{k}"] = v
                ratio = results[f"ping_regent_{conns}c_rps"] / results[f"ping_echo_{conns}c_rps"]
                results[f"ping_ratio_{conns}c"] = ratio
            results["regent_rss_mb_idle"] = rss_mb(regent.pid)
            results.update(game_latencies(regent_port, args.steps))
            results.update(npr_latency(regent_port, args.npr_calls))
            results["regent_rss_mb_after"] = rss_mb(regent.pid)
            policy = args.policy or next((a for a in sorted(agent_names()) if a.startswith("ppo")), None)
            if policy:
                results["regent_rss_mb_with_policy"] = policy_rss(regent_port, regent.pid, policy)
            else:
                print("no shipped policy in agents.registry: memory with a policy loaded not measured")
        finally:
            for proc in (regent, echo):
                proc.terminate()
                proc.wait()
    results.update(ai_decision_latency(args.ai_games))
    if args.limits:
        from benchmarks.service_limits import flood_rows, stored_rows

        results.update(flood_rows(args.seconds))
        results.update(stored_rows(args.stored_games))
    return _report(results, args)


def loadavg() -> float:
    try:
        return float(Path("/proc/loadavg").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return float("nan")


def _report(results: dict[str, float], args: argparse.Namespace) -> int:
    results["loadavg_1min_end"] = loadavg()
    width = max(len(k) for k in results)
    for k, v in results.items():
        print(f"{k:<{width}}  {v:10.3f}")
    for conns in (1, 16) if "ping_ratio_1c" in results else ():
        print(f"ping throughput, {conns} connection(s): regent = {results[f'ping_ratio_{conns}c']:.0%} of the bare "
              f"echo server (target >= 70%)")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
