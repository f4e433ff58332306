"""Start the real ``regent serve`` process for a test, on a Unix socket or a free TCP port."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from service.client import Client, ServiceError

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 60.0
ENTRY = "from service.cli import main; raise SystemExit(main())"


class ServerProcess:
    """``regent serve`` in a subprocess; ``client()`` connects; ``kill9()``/``restart()`` for crash tests."""

    def __init__(self, tmp: Path, *, tcp: bool = False, db: Path | None = None, args: tuple[str, ...] = ()):
        self.tmp = tmp
        self.tcp = tcp
        self.db = db if db is not None else tmp / "regent.sqlite"
        self.args = args
        self.unix = str(tmp / "regent.sock") if not tcp else None
        self.port: int | None = None
        self.proc: subprocess.Popen | None = None
        self.starts = 0

    def start(self) -> ServerProcess:
        self.starts += 1
        self.log_path = self.tmp / f"server-{self.starts}.log"
        cmd = [sys.executable, "-c", ENTRY, "serve", "--db", str(self.db), "--log-level", "info", *self.args]
        cmd += ["--port", "0"] if self.tcp else ["--unix", self.unix]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.log_file = open(self.log_path, "w")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(cmd, cwd=ROOT, stderr=self.log_file, stdout=subprocess.DEVNULL, env=env)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            for line in self.log_path.read_text().splitlines():
                if line.startswith("{") and json.loads(line).get("msg") == "listening":
                    self.port = json.loads(line).get("port")
                    return self
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()}")
            time.sleep(0.05)
        raise RuntimeError(f"server did not start: {self.log_path.read_text()}")

    def client(self, timeout: float = 60.0) -> Client:
        if self.tcp:
            return Client("127.0.0.1", self.port, timeout=timeout)
        return Client(unix=self.unix, timeout=timeout)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill9(self) -> None:
        if self.proc is not None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
            self.log_file.close()
            self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.log_file.close()
            self.proc = None

    def restart(self) -> ServerProcess:
        self.kill9()
        return self.start()

    def logs(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.log_path.read_text().splitlines() if line.startswith("{")]


def error_of(client: Client, method: str, **fields: Any) -> ServiceError:
    """The error the service answers ``method`` with (the test fails if it answers)."""
    import pytest

    with pytest.raises(ServiceError) as err:
        client.call(method, **fields)
    return err.value


def named_game(client: Client) -> dict[str, Any]:
    """A 5-seat ring game of Ann, Ben, Cy, Di and Ed waiting for turn 1's bids (``game.create``'s answer)."""
    return client.call("game.create", setup={
        "board": "ring-5", "seed": 11, "auto_advance": False,
        "players": [{"seat": f"Player#{i}", "name": n} for i, n in enumerate(["Ann", "Ben", "Cy", "Di", "Ed"], 1)]})


def gm_state(client: Client, game_id: str, gm_token: str) -> tuple[Any, Any]:
    """Everything the GM can see of a game (its view without clocks, and its whole log)."""
    view = client.call("game.view", game_id=game_id, token=gm_token, wait=True)
    return view, client.call("game.log", game_id=game_id, token=gm_token)


class ThinkingHeuristic:
    """The heuristic, deciding once ``think()`` returns: stands in for an ``expert`` seat thinking for
    seconds (the tests of AI seats deciding outside the game's lock gate or delay ``think``)."""

    def __init__(self, think: Callable[[], Any]):
        from agents.heuristic import HeuristicAgent

        self.think = think
        self.inner = HeuristicAgent()

    def reset(self, seed: int | None = None) -> None:
        self.inner.reset(seed)

    def act(self, ctx: Any) -> Any:
        self.think()
        return self.inner.act(ctx)


def in_app(body: Callable[[Any], Any], store: Any = None, workers: int = 2) -> Any:
    """``await body(app)`` on an in-process service (``service.app.App`` on ``store``, or in memory), closed after;
    returns what ``body`` returns."""
    import asyncio

    from service.app import App

    async def go() -> Any:
        app = App(store, workers=workers, expiry_interval=0)
        app.start()
        try:
            return await body(app)
        finally:
            await app.close()

    return asyncio.run(go())
