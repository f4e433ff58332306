"""How long a player waits for the Discord bot's answer to a DM while AI seats of the same game think.

A whole game through the bridge (``service.discord.bridge``) on an in-process ``regent serve`` with its
own SQLite file, the chat faked (``tests/discord/fake.py``): ``--seats`` seats, ``--experts`` of them the
``expert`` level (spread around the table), the rest players who DM their decision (the cautious
player of ``tests/discord/helpers.dm_text``, every other one in messy wording) the moment a step opens,
all at once, as a busy table does. The AI seats start thinking as the same step opens, so each DM
arrives while they think. Reported: the time from a DM to the bot's answer (median, p90, max), and
how the game ended.

    .venv/bin/python -m benchmarks.bridge_latency [--seats 10] [--experts 3] [--seed 5]

Run it on the compiled engine (``make fast``): ``expert`` is the search, seconds a decision otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

MAX_STEPS = 400


def _names(n: int) -> list[str]:
    return [f"Name{i}" for i in range(1, n + 1)]


async def run(seats: int, experts: int, seed: int, where: Path) -> dict[str, Any]:
    import tests.discord.helpers as helpers
    from service.posting import by_seat
    from service.server import ServeConfig, start
    from tests.discord.helpers import Harness, dm_text, game_table, make_config, user_of

    helpers.NAMES[:] = _names(max(seats, len(helpers.NAMES)))
    channel = 77
    step = max(1, seats // max(1, experts))
    ai = {f"Player#{i}": "expert" for i in range(step, seats + 1, step)[:experts]}
    sock = str(where / "s.sock")
    server, app = await start(ServeConfig(unix=sock, db=str(where / "g.sqlite"), expiry_interval=0))
    table = {**game_table(channel, seats=seats, ai=ai), "seed": seed}
    h = Harness(SimpleNamespace(unix=sock), make_config({"g": table}, where))
    bridge = h.bridge()
    waits: list[float] = []
    sent: list[asyncio.Future] = []
    seen: set[tuple] = set()
    t0 = time.time()
    try:
        await bridge.start()
        for _ in range(100 * MAX_STEPS):
            view = await bridge.rpc("game.view", **bridge._gm("g"))  # no wait: players DM as a step opens
            if view["over"]:
                break
            key = (view["turn"], view["step"], view["step_started"])
            due = [p["seat"] for p in view["pending"]
                   if not p["submitted"] and not p["controller"] and (key, p["seat"]) not in seen]
            if not due:
                await asyncio.sleep(0.02)
                continue
            seen.update((key, s) for s in due)

            async def one(seat: str) -> asyncio.Future:
                n = int(seat.split("#")[1])
                user = user_of(channel, n)
                text = dm_text(await bridge.rpc("game.view", **bridge._seat("g", seat)), seat, messy=n % 2 == 0)
                before = len(h.chat.dms.get(user, []))
                t = time.perf_counter()
                task = asyncio.ensure_future(bridge.on_dm(h.chat.dm(user, text)))
                while len(h.chat.dms.get(user, [])) <= before:
                    await asyncio.sleep(0.005)
                waits.append(time.perf_counter() - t)
                return task

            sent += await asyncio.gather(*(one(s) for s in due))
        await asyncio.gather(*sent)
        view = await bridge.rpc("game.view", **bridge._gm("g"), wait=True)
    finally:
        await bridge.close_client()
        server.close()
        await app.close()
    waits.sort()
    return {"seats": seats, "experts": by_seat(ai), "dms": len(waits), "median_s": statistics.median(waits),
            "p90_s": waits[int(0.9 * (len(waits) - 1))], "max_s": waits[-1], "over": view["over"],
            "result": view.get("result"), "wall_s": time.time() - t0}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seats", type=int, default=10)
    ap.add_argument("--experts", type=int, default=3)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args(argv)
    if not 2 <= args.seats <= 16:
        ap.error(f"--seats: the game is for 2 to 16 players, not {args.seats}")
    if not 0 <= args.experts < args.seats:
        ap.error(f"--experts: 0 to {args.seats - 1} (at least one player must DM), not {args.experts}")
    with tempfile.TemporaryDirectory() as tmp:
        r = asyncio.run(run(args.seats, args.experts, args.seed, Path(tmp)))
    print(f"{r['seats']} seats, expert seats {', '.join(r['experts']) or 'none'}: {r['dms']} DMs answered, "
          f"median {r['median_s']:.3f} s, p90 {r['p90_s']:.3f} s, max {r['max_s']:.3f} s "
          f"(game over: {r['over']}, {r['result']}; {r['wall_s']:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
