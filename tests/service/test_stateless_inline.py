"""Where stateless calls run (service/app.py, INLINE_STATELESS_BYTES): a small ``npr.*`` request on the
event loop, at most one per loop iteration; anything bigger, of unknown size, or ``npn.*`` in the
worker pool, so a slow call never holds the loop. Same answers either way."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path

import pytest

from service import stateless
from service.app import INLINE_STATELESS, App, inline_work
from tests.realms.test_golden_sample import SEEDS, golden

WORLD = json.loads((Path(__file__).resolve().parents[2] / "examples" / "realms" / "world.json").read_text())


@pytest.fixture
def where(monkeypatch):
    """npr.release replaced by a probe that records the thread it runs on (and can be held)."""
    seen: list[str] = []
    hold = {"event": None}

    def probe(p):
        p.take("world", None)
        p.done()
        if hold["event"] is not None:
            hold["released"] = hold["event"].wait(30)
        seen.append(threading.current_thread().name)
        return {"ok": True}

    monkeypatch.setitem(stateless.METHODS, "npr.release", probe)
    return seen, hold


def _run(coro_fn):
    async def main():
        app = App(None)
        try:
            return await coro_fn(app)
        finally:
            await app.close()

    return asyncio.run(main())


def test_a_small_npr_request_runs_on_the_loop_and_others_in_the_pool(where):
    seen, _ = where

    async def calls(app):
        await app.call("npr.release", [{"world": WORLD}], 100)  # small: on the loop
        await app.call("npr.release", [{"world": WORLD}], app.inline_bytes + 1)  # too big: pool
        await app.call("npr.release", [{"world": WORLD}])  # size unknown (in-process callers): pool
        return threading.current_thread().name

    loop_thread = _run(calls)
    assert seen[0] == loop_thread
    assert seen[1] != loop_thread and seen[1].startswith("regent-worker")
    assert seen[2].startswith("regent-worker")
    assert "npn.plan" not in INLINE_STATELESS and "npr.invasions" in INLINE_STATELESS


def _every_npr_invades(n: int) -> dict:
    """A small document with a lot of work: n NPRs in a row of Areas, each at War with one PR."""
    areas = {f"A{i}": {"adjacent": [f"A{i + 1}"] if i + 1 < n else []} for i in range(n)}
    realms = {"P": {"kind": "pr"}, **{f"N{i}": {"kind": "npr"} for i in range(n)}}
    provinces = {f"p{i}": {"area": f"A{i}", "size": "small", "owner": f"N{i}"} for i in range(n)}
    provinces.update({f"t{i}": {"area": f"A{i}", "size": "small", "owner": "P", "token": "t"} for i in range(n)})
    return {"areas": areas, "realms": realms, "provinces": provinces,
            "relations": {"wars": [["P", f"N{i}"] for i in range(n)]}}


def test_a_small_request_with_a_lot_of_work_goes_to_the_pool(where):
    """Bytes alone do not bound the work (each invading NPR changes the board for the next)."""
    import msgpack

    seen, _ = where
    heavy = [{"world": _every_npr_invades(60)}]
    size = len(msgpack.packb([0, 1, "npr.release", heavy]))
    light = [{"world": WORLD}]

    async def calls(app):
        assert size <= app.inline_bytes and inline_work(heavy) > app.inline_work >= inline_work(light)
        await app.call("npr.release", heavy, size)
        await asyncio.sleep(0)  # the next loop iteration: an inline call is allowed again
        await app.call("npr.release", light, size)
        return threading.current_thread().name

    loop_thread = _run(calls)
    assert seen[0].startswith("regent-worker") and seen[1] == loop_thread
    assert inline_work([{"world": 3}]) is None and inline_work([]) is None  # not a world: pool


def test_only_one_inline_call_per_loop_iteration(where):
    """Requests that arrive together: the first on the loop, the others in the pool."""
    seen, _ = where

    async def calls(app):
        await asyncio.gather(*(app.call("npr.release", [{"world": WORLD}], 100) for _ in range(4)))
        return threading.current_thread().name

    loop_thread = _run(calls)
    assert sorted(name == loop_thread for name in seen) == [False, False, False, True]


def test_a_slow_pooled_call_does_not_hold_the_loop(where):
    """While a big request is still running in the pool, a ping is answered (the probe waits for it)."""
    seen, hold = where
    hold["event"] = threading.Event()

    async def calls(app):
        slow = asyncio.ensure_future(app.call("npr.release", [{}], app.inline_bytes + 1))
        assert await app.call("ping", [{}]) == "pong"
        hold["event"].set()
        return await slow

    assert _run(calls) == {"ok": True}
    assert hold["released"] is True  # set by the test after the ping, while the call was running
    assert seen[0].startswith("regent-worker")


def test_inline_and_pooled_answers_are_the_same_and_pinned():
    async def calls(app):
        out = []
        for seed in SEEDS:
            inline = await app.call("npr.invasions", [{"world": WORLD, "seed": seed}], 100)
            pooled = await app.call("npr.invasions", [{"world": WORLD, "seed": seed}])
            out.append((seed, inline, pooled))
        return out

    for seed, inline, pooled in _run(calls):
        assert json.loads(json.dumps(inline)) == json.loads(json.dumps(pooled)) == golden(f"invasions_seed_{seed}")


def test_inline_errors_are_the_same_wire_errors():
    from service.errors import RpcError

    bad = {**WORLD, "provinces": {**WORLD["provinces"], "Nowhere": {"area": "Atlantis", "size": "small",
                                                                     "owner": "Aurelia", "token": "t"}}}

    async def calls(app):
        errors = []
        for size in (100, None):
            with pytest.raises(RpcError) as err:
                await app.call("npr.invasions", [{"world": bad, "seed": 1}], size)
            errors.append((err.value.code, err.value.message, err.value.details))
        return errors

    inline, pooled = _run(calls)
    assert inline == pooled
    assert inline[0] == "invalid_params" and "provinces.Nowhere.area" in inline[1]


GC_SCRIPT = """
import asyncio, gc, json
from service.server import GC_MIDDLE_THRESHOLD, GC_YOUNG_THRESHOLD, ServeConfig, start
async def main():
    before = gc.get_threshold()
    server, app = await start(ServeConfig(port=0, db=None))
    print(json.dumps({"before": before, "after": gc.get_threshold(),
                      "want": [GC_YOUNG_THRESHOLD, GC_MIDDLE_THRESHOLD]}))
    server.close()
    await app.close()
asyncio.run(main())
"""


def test_the_server_raises_the_young_gc_threshold():
    """A request's garbage is freed by reference counting: the young GC should not walk every call."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", GC_SCRIPT], cwd=Path(__file__).resolve().parents[2],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["before"] == [700, 10, 10]  # CPython's defaults
    young, middle = out["want"]
    assert out["after"] == [young, middle, 10] and young > 700
    assert young * middle <= 2 * 700 * 10  # the middle generation stays about as small as before
