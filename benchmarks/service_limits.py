"""Service benchmark rows for issue 23 (bounded work, memory independent of stored games).

- ``flood``: ping p50/p99 on a second connection while one client sends maximum-size submissions
  (just under ``--max-submission``, read by the engine) as fast as it can with 8 in flight, and
  again with 1 MB submissions (refused at the edge). Goal: ping p99 <= 50 ms.
- ``stored``: a store with N idle games (written straight into SQLite from one real game's rows):
  the time from starting ``regent serve`` to its "listening" line and its RSS then, beside an empty
  store, and the first call to a stored game (loaded on demand). Goal: <= 2 s, RSS within 50 MB.

Run alone: ``python -m benchmarks.service_limits [--games 100000] [--seconds 5] [--json out.json]``;
``benchmarks/service_bench.py`` runs it too (``--stored-games``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import msgpack

from benchmarks.service_bench import _ping_worker

PING_EVERY = 0.01  # seconds between the second connection's pings

ROOT = Path(__file__).resolve().parents[1]
ENTRY = "from service.cli import main; raise SystemExit(main())"
SETUP = {"board": "ring-5", "seed": 1, "players": 5, "auto_advance": False}


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000 if values else float("nan")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_s(pid: int) -> float:
    """User + system CPU seconds a process has used (load-independent, unlike wall time)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def serve(db: Path, log: Path, *extra: str) -> tuple[subprocess.Popen, int, float]:
    """Start regent serve on a free 127.0.0.1 port; (process, port, seconds until it listened)."""
    t = time.perf_counter()
    with open(log, "w") as f:
        proc = subprocess.Popen([sys.executable, "-c", ENTRY, "serve", "--port", "0", "--db", str(db),
                                 "--log-level", "info", *extra], cwd=ROOT, stderr=f, stdout=subprocess.DEVNULL)
    deadline = time.perf_counter() + 120
    while time.perf_counter() < deadline:
        for line in log.read_text().splitlines():
            if line.startswith("{") and json.loads(line).get("msg") == "listening":
                return proc, json.loads(line)["port"], time.perf_counter() - t
        if proc.poll() is not None:
            raise RuntimeError(log.read_text())
        time.sleep(0.01)
    proc.kill()
    raise RuntimeError("regent serve did not start")


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


# -- flood --------------------------------------------------------------------------------------
async def _flood(port: int, text: str, token: str, gid: str, stop_at: float, inflight: int = 8) -> int:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    unpacker = msgpack.Unpacker(raw=False, max_buffer_size=64 * 1024 * 1024)
    frame = msgpack.packb([0, 0, "game.submit", [{"game_id": gid, "token": token, "text": text}]],
                          use_bin_type=True)
    sent = answered = 0
    while time.perf_counter() < stop_at or answered < sent:
        while sent - answered < inflight and time.perf_counter() < stop_at:
            writer.write(frame)
            sent += 1
        await writer.drain()
        data = await reader.read(1 << 16)
        if not data:
            break
        unpacker.feed(data)
        for _ in unpacker:
            answered += 1
    writer.close()
    return answered


def flood(port: int, seconds: float, size: int, label: str) -> dict[str, float]:
    from service.client import Client

    with Client("127.0.0.1", port) as c:
        g = c.call("game.create", setup=SETUP)
    line = "Bid 3\n"
    text = line * (size // len(line))
    lat: list[float] = []

    async def run() -> int:
        stop_at = time.perf_counter() + seconds
        answered, _ = await asyncio.gather(_flood(port, text, g["seat_tokens"]["Player#1"], g["game_id"], stop_at),
                                           _ping_worker(port, stop_at, lat, every=PING_EVERY))
        return answered

    t = time.perf_counter()
    answered = asyncio.run(run())
    elapsed = time.perf_counter() - t
    return {f"flood_{label}_submits_per_s": answered / elapsed, f"flood_{label}_ping_p50_ms": pct(lat, 0.5),
            f"flood_{label}_ping_p99_ms": pct(lat, 0.99), f"flood_{label}_ping_max_ms": pct(lat, 1.0)}


def flood_rows(seconds: float) -> dict[str, float]:
    from service.app import DEFAULT_MAX_SUBMISSION

    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        proc, port, _ = serve(Path(tmp) / "flood.sqlite", Path(tmp) / "flood.log", "--sync", "normal")
        try:
            quiet: list[float] = []
            asyncio.run(_ping_worker(port, time.perf_counter() + min(seconds, 2.0), quiet, every=PING_EVERY))
            out["flood_idle_ping_p99_ms"] = pct(quiet, 0.99)
            out.update(flood(port, seconds, DEFAULT_MAX_SUBMISSION - 64, "64k"))
            out.update(flood(port, seconds, 1 << 20, "1m_refused"))
        finally:
            stop(proc)
    return out


# -- many stored games ----------------------------------------------------------------------------
def build_store(path: Path, games: int) -> None:
    """``games`` idle games (turn 1, every bid in) written straight into SQLite from one real game."""
    from service.hosting import HostedGame
    from service.store import Store, pack

    hosted, _, _ = HostedGame.create("g-template", dict(SETUP), None)
    for i, seat in enumerate(hosted.game.state.players):
        if seat != "Player#5":
            hosted.submit(seat, seat, f"Bid {i}", "seat")
    hosted.flags()
    store = Store(path, "normal")
    setup, meta = pack(hosted.game.setup), pack(hosted.meta)
    flags = Store._flags(hosted.meta)
    actions = [(pack(row), at, dg) for row, at, dg in hosted.rows]
    db = store._db
    db.execute("BEGIN")
    now = time.time()
    for n in range(games):
        gid = f"g-bench{n:07d}"
        db.execute("INSERT INTO games (id, created, setup, meta, over, watch, gm) VALUES (?, ?, ?, ?, ?, ?, ?)",
                   (gid, now + n * 1e-6, setup, meta, *flags))
        db.executemany("INSERT INTO actions VALUES (?, ?, ?, ?, ?)",
                       [(gid, seq, a, at, dg) for seq, (a, at, dg) in enumerate(actions)])
    db.execute("COMMIT")
    store.close()


def stored_rows(games: int) -> dict[str, float]:
    from service.client import Client, ServiceError

    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        t = time.perf_counter()
        build_store(tmp_path / "many.sqlite", games)
        out["stored_build_s"] = time.perf_counter() - t
        out["stored_games"] = games
        out["stored_db_mb"] = os.path.getsize(tmp_path / "many.sqlite") / 1e6
        for label, db in (("empty", tmp_path / "empty.sqlite"), ("many", tmp_path / "many.sqlite")):
            proc, port, started = serve(db, tmp_path / f"{label}.log")
            try:
                out[f"stored_{label}_listening_s"] = started
                out[f"stored_{label}_cpu_s"] = cpu_s(proc.pid)
                out[f"stored_{label}_rss_mb"] = rss_mb(proc.pid)
                if label == "many":
                    with Client("127.0.0.1", port) as c:
                        t = time.perf_counter()
                        c.call("game.list", token="nobody")
                        out["stored_many_list_ms"] = (time.perf_counter() - t) * 1000
                        t = time.perf_counter()
                        with contextlib.suppress(ServiceError):  # forbidden: loaded to check the token
                            c.call("game.view", game_id=f"g-bench{games // 2:07d}", token="wrong")
                        out["stored_many_first_call_ms"] = (time.perf_counter() - t) * 1000
                    out["stored_many_rss_after_call_mb"] = rss_mb(proc.pid)
            finally:
                stop(proc)
        out["stored_rss_delta_mb"] = out["stored_many_rss_mb"] - out["stored_empty_rss_mb"]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000, help="stored games for the start-up rows")
    ap.add_argument("--seconds", type=float, default=5.0, help="duration of each flood")
    ap.add_argument("--json", help="also write the numbers here")
    args = ap.parse_args(argv)
    results = {**flood_rows(args.seconds), **stored_rows(args.games)}
    width = max(len(k) for k in results)
    for k, v in results.items():
        print(f"{k:<{width}}  {v:12.3f}")
    print(f"ping p99 during a 64 KiB submission flood: {results['flood_64k_ping_p99_ms']:.1f} ms (goal <= 50)")
    print(f"{args.games:,} stored games: listening after {results['stored_many_listening_s']:.2f} s "
          f"({results['stored_many_cpu_s']:.2f} s CPU; empty store {results['stored_empty_listening_s']:.2f} s, "
          f"{results['stored_empty_cpu_s']:.2f} s CPU; goal <= 2 s), RSS {results['stored_rss_delta_mb']:+.1f} MB "
          f"vs an empty store (goal within 50); load average {os.getloadavg()[0]:.1f}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
