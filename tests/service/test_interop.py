"""Issue 8 evidence 2: the service driven by MessagePack-RPC clients no one here wrote: pynvim's
generic msgpack-rpc session (PyPI) and a Node.js script on npm ``@msgpack/msgpack``."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

NODE_DIR = Path(__file__).parent / "node"
NPM_TIMEOUT = 300


def test_pynvim_msgpack_rpc_session(tmp_path):
    rpc = pytest.importorskip("pynvim.msgpack_rpc", reason="pynvim (a PyPI msgpack-rpc client) is not installed")
    from tests.service.helpers import ServerProcess

    proc = ServerProcess(tmp_path, tcp=True).start()
    try:
        session = rpc.tcp_session("127.0.0.1", proc.port)
        session.error_wrapper = lambda e: RuntimeError(e)  # our error is a map, not nvim's [type, msg]
        try:
            assert session.request("ping") == "pong"
            game = session.request("game.create", {"setup": {"board": "ring-5", "seed": 3, "players": 5}})
            gid, p1 = game["game_id"], game["seat_tokens"]["Player#1"]
            reply = session.request("game.submit", {"game_id": gid, "token": p1, "text": "Bid 4"})
            assert reply == {"accepted": ["Bid 4"], "rejected": [], "lines": ["Bid 4"], "ignored": [], "dropped": []}
            with pytest.raises(RuntimeError) as err:
                session.request("game.submit", {"game_id": gid, "token": p1, "text": "Bid 5"})
            assert err.value.args[0]["code"] == "conflict"
            view = session.request("game.view", {"game_id": gid, "token": p1})
            assert view["submitted"] == ["Bid 4"] and "realm" not in view["players"]["Player#2"]
        finally:
            session.close()
    finally:
        proc.stop()


def _node_ready() -> str | None:
    """None when Node and @msgpack/msgpack are usable, else why not (the test skips with it)."""
    if not shutil.which("node") or not shutil.which("npm"):
        return "Node.js (node and npm) is not installed"
    if not (NODE_DIR / "node_modules" / "@msgpack" / "msgpack").is_dir():
        done = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--no-package-lock", "--silent"],
                              cwd=NODE_DIR, capture_output=True, text=True, timeout=NPM_TIMEOUT)
        if done.returncode != 0:
            return f"npm could not install @msgpack/msgpack (no registry?): {done.stderr.strip()[:300]}"
    return None


def test_node_msgpack_client_plays_a_game(server):
    why = _node_ready()
    if why:
        pytest.skip(why)
    done = subprocess.run(["node", "interop.mjs", "--unix", server.unix], cwd=NODE_DIR, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["ping"] == "pong"
    assert out["pipelined"] == ["pong", 1, True]
    assert out["unknown_method"] == "unknown_method"
    assert out["accepted"] == ["Bid 2"]
    assert out["invalid_order"] == "invalid_order" and out["rejected_line"] == "March! 9 from P1 to P9"
    assert out["result"] is not None and out["last_event"] == "game_over"
    assert out["played_by_ai"] == ["Player#3", "Player#4", "Player#5"]
