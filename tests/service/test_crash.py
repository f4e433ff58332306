"""Issue 8 evidence 4: kill -9 the server during a stream of submits and advances, restart it, and
check every acknowledged operation is there and the replay matches."""

from __future__ import annotations

import threading

import msgpack

from engine.protectors.game import Game
from service.client import ServiceError
from tests.service.helpers import ServerProcess

GAMES = 3
ACKS_BEFORE_KILL = 45
ROUNDS = 2


def dm_for(view: dict, seat: str) -> str:
    step = view["step"]
    if step == "orders":
        return "\n".join(f"Fortify! {p}" for p, pr in view["provinces"].items()
                         if pr["holder"] == seat and pr["units"] > 0)
    if step == "dragon":
        return ""
    return "Bid 1" if view["players"][seat]["realm"] >= 1 and step != "consolidation" else "Bid 0"


class Worker(threading.Thread):
    """Submits for every seat and advances, one game, recording each acknowledged operation."""

    def __init__(self, server: ServerProcess, game: dict, acks: list, counter: threading.Semaphore):
        super().__init__(daemon=True)
        self.server, self.game, self.acks, self.counter = server, game, acks, counter

    def run(self) -> None:
        gid, gm = self.game["game_id"], self.game["gm_token"]
        try:
            with self.server.client(timeout=30) as c:
                while True:
                    view = c.call("game.view", game_id=gid, token=gm)
                    if view["over"]:
                        return
                    for p in view["pending"]:
                        if not p["submitted"]:
                            reply = c.call("game.submit", game_id=gid, token=gm, seat=p["seat"],
                                           text=dm_for(view, p["seat"]))
                            self.acks.append(("submit", p["seat"], reply["accepted"]))
                            self.counter.release()
                    c.call("game.advance", game_id=gid, token=gm)
                    self.acks.append(("advance",))
                    self.counter.release()
        except (ConnectionError, OSError, ServiceError):
            return  # the server was killed under us


def acknowledged_in(actions: list, acks: list) -> bool:
    """Every acknowledged operation is in the stored log, in the order it was acknowledged."""
    stored = iter([("advance",) if a[0] == "advance" else ("submit", a[1], list(a[2])) for a in actions])
    return all(any(op == ack for op in stored) for ack in acks)


def test_kill9_loses_nothing_acknowledged(tmp_path):
    server = ServerProcess(tmp_path).start()
    try:
        with server.client() as c:
            games = [c.call("game.create", setup={"board": "ring-5", "seed": 20 + i, "players": 5,
                                                  "auto_advance": False}) for i in range(GAMES)]
            # Plus a 16-seat game that AI seats play by themselves, writing in the background.
            seats = {f"Player#{i}": "random" for i in range(1, 17)}
            games.append(c.call("game.create", setup={"board": "ring-16", "seed": 5, "players": 16, "agents": seats}))
        acks: dict[str, list] = {g["game_id"]: [] for g in games}
        for _ in range(ROUNDS):
            counter = threading.Semaphore(0)
            workers = [Worker(server, g, acks[g["game_id"]], counter) for g in games[:GAMES]]
            for w in workers:
                w.start()
            for _ in range(ACKS_BEFORE_KILL):
                counter.acquire(timeout=60)
            server.kill9()  # while the workers are mid-stream
            for w in workers:
                w.join(timeout=60)
            server.start()
            with server.client() as c:
                for g in games:
                    gid, gm = g["game_id"], g["gm_token"]
                    # (an unreplayable game is 'internal'; wait: the AI game finishes what it resumed)
                    view = c.call("game.view", game_id=gid, token=gm, wait=True)
                    blob = c.call("game.export", game_id=gid, token=gm)["blob"]
                    engine = Game.from_blob(blob)
                    assert acknowledged_in(engine.actions, acks[gid]), f"lost an acknowledged op in {gid}"
                    replayed = msgpack.unpackb(msgpack.packb(engine.view(None)), raw=False)
                    pending = [{k: e[k] for k in ("seat", "kind", "submitted")} for e in view["pending"]]
                    assert pending == replayed.pop("pending")  # the service adds deadlines and controllers
                    assert {k: view[k] for k in replayed} == replayed
        assert sum(len(a) for a in acks.values()) >= ROUNDS * ACKS_BEFORE_KILL
    finally:
        server.stop()
