"""The bridge's game.submit guard: besides turn and step, the step's own start (game.view's ``step_started``), so a
step of the same kind in the same turn (one game.undo reopened, a second Dragon attack, a Bank round) is another
step, and a DM seen for the first is answered as too late, never stored as the second's decision."""

from __future__ import annotations

import asyncio

from service.client import ServiceError
from tests.discord.helpers import Harness, game_table, make_config, user_of

CH = 760


def test_a_dm_seen_in_a_step_undone_and_reopened_before_its_submit_is_refused_as_too_late(server, tmp_path):
    h = Harness(server, make_config({"g": game_table(CH, seats=3)}, tmp_path))

    async def body():
        bridge = h.bridge()
        await bridge.start()
        for n in (1, 2):
            await bridge.on_dm(h.chat.dm(user_of(CH, n), f"Bid {n}"))
        rpc, seen = bridge.rpc, []

        async def racing(method, **fields):
            if method == "game.submit":  # the bid step is forced and undone: the same turn and kind, begun again
                seen.append(fields)
                await rpc("game.advance", **bridge._gm("g"), force=True, wait=True)
                await rpc("game.undo", **bridge._gm("g"))
            return await rpc(method, **fields)

        bridge.rpc = racing
        user = user_of(CH, 3)
        await bridge.on_dm(h.chat.dm(user, "Bid 3"))
        bridge.rpc = rpc
        assert isinstance(seen[0].get("step_started"), float)  # game.view's own number, passed back
        answer = h.chat.last_dm(user)
        assert answer.startswith("**Nothing was stored.** Your DM came in before the Protector Ranking bids step "
                                 "began"), answer
        view = await bridge.rpc("game.view", **bridge._gm("g"), wait=True)
        assert view["step"] == "bid" and view["step_started"] != seen[0]["step_started"]
        assert not next(p for p in view["pending"] if p["seat"] == "Player#3")["submitted"]  # nothing stored
        await bridge.on_dm(h.chat.dm(user, "Bid 3"))  # sent now, for the step open again: stored
        assert "**Stored** for Player#3 in g" in h.chat.last_dm(user)
        await bridge.close_client()

    asyncio.run(body())


def test_a_conflict_naming_only_the_steps_start_is_answered_as_too_late(server, tmp_path):
    h = Harness(server, make_config({"g": game_table(CH + 1, seats=3)}, tmp_path))

    async def body():
        bridge = h.bridge()
        await bridge.start()
        rpc = bridge.rpc

        async def refusing(method, **fields):
            if method == "game.submit":
                raise ServiceError({"code": "conflict", "message": "the step changed",
                                    "details": {"turn": 1, "step": "bid", "step_started": 2.0,
                                                "for_step_started": 1.0}})
            return await rpc(method, **fields)

        bridge.rpc = refusing
        user = user_of(CH + 1, 1)
        await bridge.on_dm(h.chat.dm(user, "Bid 1"))
        bridge.rpc = rpc
        assert h.chat.last_dm(user).startswith("**Nothing was stored.** Your DM came in before the Protector Ranking "
                                               "bids step began"), h.chat.last_dm(user)
        await bridge.close_client()

    asyncio.run(body())
