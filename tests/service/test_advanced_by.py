"""Who resolved each step, as stored and exported (the game file's ``service.by``): a step that resolved by itself
when the last decision came in is ``auto``, one the GM resolved with ``game.advance`` is ``gm``. Before, both were
stored as ``gm``, so the exported file said the GM resolved steps nobody touched."""

from __future__ import annotations

import asyncio

from service import gamefile
from service.store import Store
from tests.service.helpers import in_app

SETUP = {"board": "ring-3", "players": 3, "seed": 4}


def test_a_step_that_resolved_itself_is_auto_and_one_the_gm_resolved_is_gm(tmp_path):
    async def body(app):
        g = await app.call("game.create", [{"setup": SETUP}])
        for token in g["seat_tokens"].values():  # every seat bids: the step resolves by itself
            await app.call("game.submit", [{"game_id": g["game_id"], "token": token, "text": "Bid 1"}])
        for _ in range(200):
            if app.games[g["game_id"]].game.state.step != "bid":
                break
            await asyncio.sleep(0.02)
        gm = {"game_id": g["game_id"], "token": g["gm_token"]}
        await app.call("game.advance", [{**gm, "force": True}])  # the orders step, resolved by the GM
        blob = (await app.call("game.export", [gm]))["blob"]
        rows = [(row["a"][0], row["by"]) for row, _, _ in app.games[g["game_id"]].rows]
        return rows, gamefile.loads(blob).service["by"]

    rows, exported = in_app(body, Store(tmp_path / "g.sqlite"))
    assert [by for kind, by in rows if kind == "advance"] == ["auto", "gm"]
    assert [by for kind, by in rows if kind == "submit"] == ["seat"] * 3
    assert exported == [by for _, by in rows]
