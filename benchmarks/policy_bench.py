"""A policy seat from a cold start, and the memory of a server holding a policy: numpy vs torch.

    python -m benchmarks.policy_bench [--runs 5]

Three rows, each for the numpy backend (``agents.numpy_policy``, what the CLI and the service use)
beside the torch one (``backend="torch"``, SB3 as before):

- cold decision: wall time of a fresh ``python`` process that reads a game file, builds ``ppo:normal``
  for a seat and makes that seat's decision (what ``regent adjudicate`` does for an AI seat), median
  of ``--runs`` (target: at most 0.5 s);
- inference: the median CPU time of one choice (a forward pass and the masked pick) in process;
- server RSS: a ``regent serve`` process after a ``ppo:normal`` seat has decided (target: at most
  120 MB); the torch row loads the same checkpoint through SB3 in the server's process.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COLD = """
import sys, time
t0 = time.perf_counter()
from engine.protectors.game import Game
from engine.protectors.seat import SeatContext
from agents.checkpoints import LEVELS
from agents.policy import PolicyAgent
game = Game.from_blob(open(sys.argv[1], 'rb').read())
lv = LEVELS['normal']
agent = PolicyAgent.load(lv.path, 1, lv.temperature, backend=sys.argv[2])
decision = agent.act(SeatContext(game, 'Player#1'))
print(time.perf_counter() - t0)
"""

SERVER_RSS = """
import sys, os
from engine.protectors.game import Game
from engine.protectors.seat import SeatContext
from agents.checkpoints import LEVELS
from agents.policy import PolicyAgent
game = Game.from_blob(open(sys.argv[1], 'rb').read())
agent = PolicyAgent.load(LEVELS['normal'].path, 1, 1.0, backend=sys.argv[2])
agent.act(SeatContext(game, 'Player#1'))
import service.server, service.app  # what a server holds besides the policy
print(next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmRSS')) / 1024)
"""


def _game_file(tmp: Path) -> Path:
    from engine.protectors.game import Game

    path = tmp / "game.bin"
    path.write_bytes(Game({"board": "ring-5", "players": 5, "seed": 7}).to_blob())
    return path


def cold_decision(game: Path, backend: str, runs: int) -> float:
    walls = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", COLD, str(game), backend], check=True, capture_output=True)
        walls.append(time.perf_counter() - t0)
    return statistics.median(walls)


def inference_ms(backend: str, choices: int = 300) -> float:
    import numpy as np

    from agents.checkpoints import LEVELS
    from agents.policy import PolicyAgent

    agent = PolicyAgent.load(LEVELS["hard"].path, 1, 0.0, backend=backend)
    obs = np.random.default_rng(0).random(agent_obs_size(), dtype=np.float32)
    mask = np.ones(agent.logits(obs).shape[-1], dtype=bool)
    times = []
    for _ in range(choices):
        t0 = time.process_time()
        agent.choose(obs, mask)
        times.append(time.process_time() - t0)
    return statistics.median(times) * 1000


def agent_obs_size() -> int:
    from agents.spaces.encoding import OBS_SIZE

    return OBS_SIZE


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_rss(tmp: Path) -> float:
    """RSS (MB) of a real ``regent serve`` after one ppo:normal seat decided."""
    from service.client import Client

    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-c", "from service.cli import main; raise SystemExit(main())",
                             "serve", "--port", str(port), "--db", str(tmp / "rss.sqlite")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                client = Client("127.0.0.1", port)
                client.call("ping")
                break
            except OSError:
                time.sleep(0.1)
        made = client.call("game.create", setup={"board": "ring-5", "players": 5, "seed": 3,
                                                 "agents": {"Player#1": "ppo:normal"}})
        gid = made["game_id"]
        for _ in range(50):  # the AI seat decides in the background; wait until it submitted
            pending = client.call("game.pending", game_id=gid, token=made["gm_token"])
            if any(p["seat"] == "Player#1" and p["submitted"] for p in pending):
                break
            time.sleep(0.1)
        return next(int(line.split()[1]) for line in Path(f"/proc/{proc.pid}/status").read_text().splitlines()
                    if line.startswith("VmRSS")) / 1024
    finally:
        proc.terminate()
        proc.wait(10)


def process_rss(game: Path, backend: str) -> float:
    out = subprocess.run([sys.executable, "-c", SERVER_RSS, str(game), backend], check=True,
                         capture_output=True, text=True)
    return float(out.stdout.strip())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        game = _game_file(tmp)
        cold = {b: cold_decision(game, b, args.runs) for b in ("numpy", "torch")}
        infer = {b: inference_ms(b) for b in ("numpy", "torch")}
        rss = {b: process_rss(game, b) for b in ("numpy", "torch")}
        server = serve_rss(tmp)
    print("| measure | numpy | torch | ratio | target |")
    print("|---|---|---|---|---|")
    print(f"| cold start to a ppo:normal decision (wall, median of {args.runs}) | {cold['numpy']:.3f} s | "
          f"{cold['torch']:.3f} s | {cold['torch'] / cold['numpy']:.1f}x faster | <= 0.5 s |")
    print(f"| one choice (CPU, median) | {infer['numpy']:.3f} ms | {infer['torch']:.3f} ms | "
          f"{infer['torch'] / infer['numpy']:.1f}x faster | - |")
    print(f"| process holding a policy + the service modules (RSS) | {rss['numpy']:.0f} MB | {rss['torch']:.0f} MB | "
          f"{rss['torch'] / rss['numpy']:.1f}x smaller | <= 120 MB |")
    print(f"| `regent serve` after a ppo:normal seat decided (RSS) | {server:.0f} MB | - | - | <= 120 MB |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
