"""The outside probe, in the repository (issue 23 item 8): one command that attacks a real
``regent serve`` as a hostile client and as a newcomer would, and prints what it found beside what
the service promises (docs/service.md, "Probe").

Checks, all against servers it starts itself on 127.0.0.1 (bounded in count and time):

- **foreign**: clients written the way other msgpack-rpc libraries behave: raw frames, one byte at a
  time, many requests in one packet, str-only packing (old msgpack: bytes as str, a blob as base64
  text), string msgids refused, notifications never answered; and, where installed, clients no one
  here wrote (Node.js ``@msgpack/msgpack`` playing a whole game, pynvim's msgpack-rpc session).
- **fuzz**: random and mutated frames over every method ``methods`` lists (plus type-confused
  params); counts crashes (server gone), hangs (a request not answered within the timeout),
  ``internal`` answers, and checks a reference game never changes.
- **kill9**: clients submit and advance in many games while the server is killed with SIGKILL at
  random moments and restarted; every operation the server acknowledged must be in the game after
  the restart (acknowledged-op accounting through ``game.export``).
- **secrecy**: twin games (same setup and seed); in one, the victim seat submits; the spy seat's
  every observation (view, pending, log, report, errors of GM-only methods) must be identical in
  both twins.
- **load**: 64 connections mixing ``ping`` and ``game.view`` for a few seconds: requests/s, p99, errors.
- **abuse**: a 1 MB DM (refused in ms), a 5,000-digit bid, bad import blobs, deep nesting, an
  oversized frame, a malformed notification, more connections than ``--max-connections``.

Run: ``python -m benchmarks.probe [--quick] [--json out.json]`` (about 2 minutes; ``--quick`` about 40 s).
Exit status 0 when every promise held, 1 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import msgpack

ROOT = Path(__file__).resolve().parents[1]
ENTRY = "from service.cli import main; raise SystemExit(main())"
SETUP = {"board": "ring-5", "players": 5, "seed": 41, "auto_advance": False}
TIMEOUT = 10.0


class Server:
    """``regent serve`` on a free 127.0.0.1 port with its own SQLite file."""

    def __init__(self, tmp: Path, *args: str):
        self.tmp, self.args, self.proc, self.port, self.starts = tmp, args, None, None, 0

    def start(self) -> Server:
        self.starts += 1
        log = self.tmp / f"server-{self.starts}.log"
        with open(log, "w") as f:
            self.proc = subprocess.Popen([sys.executable, "-c", ENTRY, "serve", "--port", "0", "--db",
                                          str(self.tmp / "probe.sqlite"), "--log-level", "info", *self.args],
                                         cwd=ROOT, stderr=f, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            for line in log.read_text().splitlines():
                if line.startswith("{") and json.loads(line).get("msg") == "listening":
                    self.port = json.loads(line)["port"]
                    return self
            if self.proc.poll() is not None:
                raise RuntimeError(log.read_text())
            time.sleep(0.02)
        raise RuntimeError("regent serve did not start")

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill9(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def client(self) -> Raw:
        return Raw(self.port)


class Raw:
    """A bare socket client: frames in, messages out, nothing clever."""

    def __init__(self, port: int, *, legacy: bool = False):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        self.legacy = legacy  # str-only msgpack (bytes sent as str, everything decoded raw)
        self.unpacker = msgpack.Unpacker(raw=legacy, strict_map_key=False, max_buffer_size=64 << 20)
        self.n = 0

    def close(self) -> None:
        self.sock.close()

    def pack(self, obj: Any) -> bytes:
        return msgpack.packb(obj, use_bin_type=not self.legacy)

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def read(self) -> Any:
        while True:
            try:
                return self.unpacker.unpack()
            except msgpack.OutOfData:
                pass
            data = self.sock.recv(1 << 16)
            if not data:
                raise ConnectionError("closed")
            self.unpacker.feed(data)

    def request(self, method: str, fields: dict | None = None) -> list:
        self.n += 1
        self.send(self.pack([0, self.n, method, [fields or {}]]))
        while True:
            msg = self.read()
            if isinstance(msg, list) and len(msg) == 4 and msg[1] == self.n:
                return msg

    def call(self, method: str, **fields: Any) -> Any:
        _, _, error, result = self.request(method, fields)
        if error is not None:
            raise RuntimeError(f"{method}: {error}")
        return result


def _code(reply: list) -> str | None:
    err = reply[2]
    if err is None:
        return None
    return err.get("code") if isinstance(err, dict) else err.get(b"code", b"?").decode()


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000 if values else float("nan")


# -- foreign-style clients ----------------------------------------------------------------------
def foreign(server: Server) -> dict[str, Any]:
    ok, checks = 0, 0

    def check(cond: bool) -> None:
        nonlocal ok, checks
        checks += 1
        ok += bool(cond)

    c = server.client()
    frame = c.pack([0, 7, "ping", []])
    for b in frame:  # one byte at a time
        c.send(bytes([b]))
        time.sleep(0.001)
    check(c.read() == [1, 7, None, "pong"])
    c.send(b"".join(c.pack([0, i, "ping", []]) for i in range(100, 150)))  # 50 in one packet
    check(sorted(c.read()[1] for _ in range(50)) == list(range(100, 150)))
    c.send(c.pack([2, "ping"]) + c.pack([2, "game.view", [{"game_id": 1}]]) + c.pack([0, 9, "ping", []]))
    check(c.read() == [1, 9, None, "pong"])  # notifications never answered
    c.send(c.pack([0, "id-1", "ping", []]))
    check(_code(c.read()) == "bad_request")
    check(sorted(c.call("methods")) == sorted(c.call("methods")))
    game = c.call("game.create", setup=SETUP)
    blob = c.call("game.export", game_id=game["game_id"], token=game["gm_token"])["blob"]
    c.close()
    legacy = Raw(server.port, legacy=True)  # an old msgpack library: no bin type, raw strings back
    reply = legacy.request("game.import", {"blob": base64.b64encode(blob).decode()})
    check(reply[2] is None and b"game_id" in reply[3])
    reply = legacy.request("game.view", {"game_id": game["game_id"], "token": game["gm_token"]})
    check(reply[2] is None)
    legacy.close()
    out = {"foreign_checks": checks, "foreign_passed": ok}
    # clients no one here wrote, where they are installed (tests/service/test_interop.py sets them up)
    node_dir = ROOT / "tests" / "service" / "node"
    if shutil.which("node") and (node_dir / "node_modules" / "@msgpack" / "msgpack").is_dir():
        done = subprocess.run(["node", "interop.mjs", "--port", str(server.port)], cwd=node_dir,
                              capture_output=True, text=True, timeout=300)
        check(done.returncode == 0)
        out["foreign_node_msgpack"] = "passed" if done.returncode == 0 else f"failed: {done.stderr[-200:]}"
    else:
        out["foreign_node_msgpack"] = "skipped (node or @msgpack/msgpack not installed)"
    try:
        from pynvim import msgpack_rpc
    except ImportError:
        out["foreign_pynvim"] = "skipped (pynvim not installed)"
    else:
        session = msgpack_rpc.tcp_session("127.0.0.1", server.port)
        session.error_wrapper = lambda e: RuntimeError(e)
        try:
            made = session.request("game.create", {"setup": SETUP})
            good = session.request("ping") == "pong" and "game_id" in made
        finally:
            session.close()
        check(good)
        out["foreign_pynvim"] = "passed" if good else "failed"
    out.update(foreign_checks=checks, foreign_passed=ok)
    return out


# -- fuzz ---------------------------------------------------------------------------------------
def _mutate(rng: random.Random, frame: bytes) -> bytes:
    data = bytearray(frame)
    for _ in range(rng.randint(1, 4)):
        what = rng.random()
        if what < 0.5 and data:
            data[rng.randrange(len(data))] = rng.randrange(256)
        elif what < 0.7 and data:
            del data[rng.randrange(len(data))]
        elif what < 0.85:
            data.insert(rng.randrange(len(data) + 1), rng.randrange(256))
        else:
            data = data[: rng.randrange(len(data) + 1)]
    return bytes(data)


def _hostile(rng: random.Random, depth: int = 0) -> Any:
    makers = [lambda: None, lambda: True, lambda: rng.randint(-(2**63), 2**64 - 1), lambda: float("nan"),
              lambda: "", lambda: "x" * rng.choice([1, 1000, 100_000]), lambda: os.urandom(rng.randint(0, 16)),
              lambda: rng.choice(["Player#1", "P1", "Bid 3", "ring-5"]), lambda: rng.randint(0, 10),
              lambda: [_hostile(rng, depth + 1) for _ in range(rng.randint(0, 3))],
              lambda: {rng.choice(["game_id", "token", "seat", "text", "setup", "world", "blob", "x"]):
                       _hostile(rng, depth + 1) for _ in range(rng.randint(0, 3))}]
    return makers[rng.randrange(len(makers) if depth < 3 else len(makers) - 2)]()


def fuzz(server: Server, frames: int, seed: int = 1) -> dict[str, Any]:
    rng = random.Random(seed)
    c = server.client()
    game = c.call("game.create", setup=SETUP)
    gid, gm, p1 = game["game_id"], game["gm_token"], game["seat_tokens"]["Player#1"]
    c.call("game.submit", game_id=gid, token=p1, text="Bid 2")
    before = c.call("game.export", game_id=gid, token=gm)["blob"]
    methods = c.call("methods")
    c.close()
    internal = hangs = crashes = sent = 0
    conn = server.client()
    for i in range(frames):
        method = rng.choice(methods)
        fields = {k: _hostile(rng) for k in rng.sample(["game_id", "token", "seat", "text", "setup", "world", "blob",
                                                       "since", "turn", "force", "decision", "agent"],
                                                      rng.randint(0, 4))}
        if rng.random() < 0.5:
            fields.update(game_id=gid, token=rng.choice([p1, "x" * 32]))  # never the GM token: nothing may change
        try:
            frame = msgpack.packb([0, i, method, [fields]], use_bin_type=True)
        except (OverflowError, ValueError):
            continue
        mutated = rng.random() < 0.4
        if mutated:
            frame = _mutate(rng, frame)
        sent += 1
        try:
            conn.send(frame)
            if mutated:  # the frame may now be incomplete or garbage: resynchronise with a fresh connection
                conn.close()
                conn = server.client()
                continue
            while True:
                reply = conn.read()
                if isinstance(reply, list) and len(reply) == 4 and reply[1] == i:
                    break
            internal += _code(reply) == "internal"
        except TimeoutError:
            hangs += 1
            conn.close()
            conn = server.client()
        except (ConnectionError, OSError):
            if not server.alive():
                crashes += 1
                server.start()
            conn.close()
            conn = server.client()
    conn.close()
    c = server.client()
    after = c.call("game.export", game_id=gid, token=gm)["blob"]
    alive = c.call("ping") == "pong"
    c.close()
    return {"fuzz_frames": sent, "fuzz_internal": internal, "fuzz_hangs": hangs, "fuzz_crashes": crashes,
            "fuzz_game_unchanged": int(after == before and alive)}


# -- kill -9 during writes --------------------------------------------------------------------------
def _actions(blob: bytes) -> int:
    data = msgpack.unpackb(blob, raw=False, strict_map_key=False)
    if "engine" in data:
        data = msgpack.unpackb(data["engine"], raw=False, strict_map_key=False)
    return len(data["actions"])


def kill9(tmp: Path, rounds: int, games: int = 6, seed: int = 2) -> dict[str, Any]:
    rng = random.Random(seed)
    server = Server(tmp, "--sync", "full").start()
    c = server.client()
    made = [c.call("game.create", setup={**SETUP, "seed": 100 + i}) for i in range(games)]
    c.close()
    acked = {g["game_id"]: 0 for g in made}
    finished: list[dict] = []
    lost = acknowledged = 0
    for _ in range(rounds):
        killer_at = time.monotonic() + rng.uniform(0.2, 1.2)
        c = server.client()
        try:
            while time.monotonic() < killer_at:
                g = rng.choice(made)
                gid, gm = g["game_id"], g["gm_token"]
                view = c.call("game.view", game_id=gid, token=gm)
                if view["over"]:  # a finished game is replaced by a new one (its ops stay counted)
                    fresh = c.call("game.create", setup={**SETUP, "seed": rng.randrange(1 << 30)})
                    made[made.index(g)] = fresh
                    acked[fresh["game_id"]] = 0
                    finished.append(g)
                    continue
                waiting = [p["seat"] for p in view["pending"] if not p["submitted"]]
                if waiting:
                    seat = rng.choice(waiting)
                    reply = c.request("game.submit", {"game_id": gid, "token": gm, "seat": seat,
                                                      "text": "Bid 1" if view["step"] in ("bid", "rebid", "bank_bid",
                                                                                          "consolidation") else ""})
                else:
                    reply = c.request("game.advance", {"game_id": gid, "token": gm, "force": True})
                if reply[2] is None:
                    acked[gid] = max(acked[gid], _actions(c.call("game.export", game_id=gid, token=gm)["blob"])
                                     if rng.random() < 0.1 else acked[gid] + 1)
                    acknowledged += 1
        except (ConnectionError, OSError, RuntimeError):
            pass
        server.kill9()
        c.close()
        server.start()
        c = server.client()
        for g in made + finished:
            have = _actions(c.call("game.export", game_id=g["game_id"], token=g["gm_token"])["blob"])
            lost += max(0, acked[g["game_id"]] - have)
            acked[g["game_id"]] = have
        c.close()
    server.stop()
    return {"kill9_rounds": rounds, "kill9_acknowledged_ops": acknowledged, "kill9_lost": lost}


# -- twin-game secrecy ----------------------------------------------------------------------------
def _observe(c: Raw, gid: str, token: str) -> Any:
    out = []
    for method, fields in (("game.view", {}), ("game.pending", {}), ("game.log", {"since": 0}), ("game.report", {}),
                           ("game.export", {}), ("game.advance", {"force": True}),
                           ("game.submit", {"seat": "Player#1", "text": "Bid 1"})):
        _, _, error, result = c.request(method, {"game_id": gid, "token": token, **fields})
        out.append((error, result))
    return _untimed(json.loads(json.dumps(out, default=str).replace(gid, "GAME")))


TIME_KEYS = {"deadline", "step_started", "created", "at", "paused_at", "until"}  # the twins were made apart


def _untimed(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: "T" if k in TIME_KEYS else _untimed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_untimed(v) for v in value]
    return value


def secrecy(server: Server, twins: int) -> dict[str, Any]:
    c = server.client()
    leaks = 0
    for i in range(twins):
        setup = {**SETUP, "seed": 500 + i}
        a, b = c.call("game.create", setup=setup), c.call("game.create", setup=setup)
        spy = "Player#2"
        for _ in range(3):
            step = c.call("game.view", game_id=a["game_id"], token=a["gm_token"])["step"]
            text = "Bid 7" if step in ("bid", "rebid", "bank_bid", "consolidation") else ""
            # the victim's DM reaches twin a first: until twin b gets the same DM, the spy must not
            # be able to tell the twins apart; then both resolve the same step the same way
            c.request("game.submit", {"game_id": a["game_id"], "token": a["seat_tokens"]["Player#1"], "text": text})
            leaks += _observe(c, a["game_id"], a["seat_tokens"][spy]) != _observe(c, b["game_id"],
                                                                                 b["seat_tokens"][spy])
            c.request("game.submit", {"game_id": b["game_id"], "token": b["seat_tokens"]["Player#1"], "text": text})
            for g in (a, b):
                c.request("game.advance", {"game_id": g["game_id"], "token": g["gm_token"], "force": True})
    c.close()
    return {"secrecy_twins": twins, "secrecy_leaks": leaks}


# -- 64 connections ------------------------------------------------------------------------------------
def load(server: Server, connections: int, seconds: float) -> dict[str, Any]:
    c = server.client()
    game = c.call("game.create", setup=SETUP)
    c.close()

    async def worker(stop: float, lat: list[float], errors: list[int]) -> int:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        unpacker = msgpack.Unpacker(raw=False)
        n = 0
        while time.perf_counter() < stop:
            req = ([0, n, "ping", []] if n % 2 else
                   [0, n, "game.view", [{"game_id": game["game_id"], "token": game["seat_tokens"]["Player#3"]}]])
            t = time.perf_counter()
            writer.write(msgpack.packb(req, use_bin_type=True))
            while True:
                try:
                    reply = unpacker.unpack()
                    break
                except msgpack.OutOfData:
                    unpacker.feed(await reader.read(1 << 16))
            lat.append(time.perf_counter() - t)
            errors[0] += reply[2] is not None
            n += 1
        writer.close()
        return n

    async def run() -> tuple[int, list[float], int]:
        lat: list[float] = []
        errors = [0]
        stop = time.perf_counter() + seconds
        counts = await asyncio.gather(*(worker(stop, lat, errors) for _ in range(connections)))
        return sum(counts), lat, errors[0]

    t = time.perf_counter()
    n, lat, errors = asyncio.run(run())
    elapsed = time.perf_counter() - t
    return {"load_connections": connections, "load_rps": n / elapsed, "load_p50_ms": pct(lat, 0.5),
            "load_p99_ms": pct(lat, 0.99), "load_errors": errors}


# -- abusive inputs -----------------------------------------------------------------------------------
def abuse(server: Server, tmp: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    c = server.client()
    g = c.call("game.create", setup=SETUP)
    gid, p1 = g["game_id"], g["seat_tokens"]["Player#1"]
    t = time.perf_counter()
    reply = c.request("game.submit", {"game_id": gid, "token": p1, "text": "Bid 3\n" * 175_000})
    out["abuse_1mb_dm_ms"] = (time.perf_counter() - t) * 1000
    out["abuse_1mb_dm_code"] = _code(reply)
    out["abuse_1mb_dm_error_bytes"] = len(msgpack.packb(reply, use_bin_type=True))
    out["abuse_5000_digit_bid_code"] = _code(c.request("game.submit", {"game_id": gid, "token": p1,
                                                                        "text": "Bid " + "9" * 5000}))
    bad_blobs = [msgpack.packb({"v": 1, "actions": []}), msgpack.packb({"v": 1, "setup": SETUP, "actions": 5}),
                 msgpack.packb({"v": 1, "setup": SETUP, "actions": [["submit"]]}),
                 msgpack.packb({"v": 1, "setup": SETUP, "actions": [["submit", "Player#1", 3]]})]
    out["abuse_bad_blob_codes"] = sorted({_code(c.request("game.import", {"blob": b})) for b in bad_blobs})
    out["abuse_bad_options_code"] = _code(c.request("game.create", {"setup": {**SETUP, "options": "grand"}}))
    deep: Any = 0
    for _ in range(1000):
        deep = [deep]
    out["abuse_deep_nesting_code"] = _code(c.request("game.create", {"setup": {**SETUP, "position": deep}}))
    c.send(msgpack.packb([2, "ping"]) + msgpack.packb([0, 77, "ping", []]))
    out["abuse_bad_notification_answered"] = int(c.read() != [1, 77, None, "pong"])
    c.close()
    big = server.client()
    try:  # the server may answer and close before the whole frame is sent
        big.send(msgpack.packb([0, 1, "game.submit", [{"text": "x" * (20 << 20)}]], use_bin_type=True))
        out["abuse_20mb_frame_code"] = _code(big.read())
    except (ConnectionError, OSError):
        out["abuse_20mb_frame_code"] = "closed"
    big.close()
    out["abuse_server_alive"] = int(server.client().call("ping") == "pong")
    limited = Server(tmp / "limited", "--max-connections", "8")
    (tmp / "limited").mkdir()
    limited.start()
    try:
        keep = [limited.client() for _ in range(8)]
        for k in keep:
            k.call("ping")
        extra = limited.client()
        try:
            reply = extra.read()
            out["abuse_extra_connection_code"] = _code(reply)
        except (ConnectionError, OSError):
            out["abuse_extra_connection_code"] = "closed"
        for k in [*keep, extra]:
            k.close()
    finally:
        limited.stop()
    return out


PROMISES = [  # (figure, test, what docs/service.md promises)
    ("foreign_passed", lambda r: r["foreign_passed"] == r["foreign_checks"], "every foreign-style check passes"),
    ("fuzz_crashes", lambda r: r["fuzz_crashes"] == 0, "no crash"),
    ("fuzz_hangs", lambda r: r["fuzz_hangs"] == 0, "no hang"),
    ("fuzz_internal", lambda r: r["fuzz_internal"] == 0, "no internal on bad input"),
    ("fuzz_game_unchanged", lambda r: r["fuzz_game_unchanged"] == 1, "bad requests never change a game"),
    ("kill9_lost", lambda r: r["kill9_lost"] == 0, "no acknowledged operation lost to kill -9"),
    ("secrecy_leaks", lambda r: r["secrecy_leaks"] == 0, "twin games look the same to the spy"),
    ("load_errors", lambda r: r["load_errors"] == 0, "no errors under 64 connections"),
    ("abuse_1mb_dm_code", lambda r: r["abuse_1mb_dm_code"] == "invalid_params", "1 MB DM refused (invalid_params)"),
    ("abuse_1mb_dm_ms", lambda r: r["abuse_1mb_dm_ms"] < 250, "... in milliseconds"),
    ("abuse_1mb_dm_error_bytes", lambda r: r["abuse_1mb_dm_error_bytes"] < 4096, "... with a short error"),
    ("abuse_5000_digit_bid_code", lambda r: r["abuse_5000_digit_bid_code"] in ("invalid_order", "invalid_params"),
     "a 5,000-digit bid is an order error"),
    ("abuse_bad_blob_codes", lambda r: r["abuse_bad_blob_codes"] == ["invalid_params"], "bad blobs: invalid_params"),
    ("abuse_bad_options_code", lambda r: r["abuse_bad_options_code"] == "invalid_params", "bad options"),
    ("abuse_deep_nesting_code", lambda r: r["abuse_deep_nesting_code"] in ("invalid_params", "bad_request"),
     "deep nesting refused"),
    ("abuse_bad_notification_answered", lambda r: r["abuse_bad_notification_answered"] == 0,
     "a malformed notification is not answered"),
    ("abuse_20mb_frame_code", lambda r: r["abuse_20mb_frame_code"] in ("too_large", "closed"), "oversized frame"),
    ("abuse_server_alive", lambda r: r["abuse_server_alive"] == 1, "the server survives all of it"),
    ("abuse_extra_connection_code", lambda r: r["abuse_extra_connection_code"] == "rate_limited",
     "connection over --max-connections told why"),
]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer frames, kills, twins and seconds")
    ap.add_argument("--json", help="also write the figures here")
    args = ap.parse_args(argv)
    frames, rounds, twins, seconds = (600, 3, 3, 3.0) if args.quick else (5_000, 12, 10, 8.0)
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        (tmp_path / "main").mkdir()
        (tmp_path / "kill").mkdir()
        server = Server(tmp_path / "main").start()
        try:
            for name, fn in (("foreign", lambda: foreign(server)), ("fuzz", lambda: fuzz(server, frames)),
                             ("secrecy", lambda: secrecy(server, twins)),
                             ("load", lambda: load(server, 64, seconds)), ("abuse", lambda: abuse(server, tmp_path))):
                t = time.perf_counter()
                results.update(fn())
                results[f"{name}_seconds"] = round(time.perf_counter() - t, 1)
                print(f"{name}: done in {results[f'{name}_seconds']} s", file=sys.stderr)
        finally:
            server.stop()
        t = time.perf_counter()
        results.update(kill9(tmp_path / "kill", rounds))
        results["kill9_seconds"] = round(time.perf_counter() - t, 1)
    failed = 0
    width = max(len(k) for k in results)
    for key, value in results.items():
        print(f"{key:<{width}}  {value}")
    print()
    for key, test, promise in PROMISES:
        held = test(results)
        failed += not held
        print(f"{'ok  ' if held else 'FAIL'} {promise}: {key} = {results[key]}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2, default=str))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
