"""The GM's /regent advance and undo racing the players' DMs (real service, fake Discord).

A GM reads `/regent status` ("waiting for Player#3"), types `/regent advance force`; meanwhile Player#3's DM comes in
and completes the step, which resolves at once. The command, handled after that DM, must not force the step begun
since (every player of it would get the rulebook defaults for a step they had not even been told of): it was meant
for the step open when the GM issued it. Likewise `/regent undo` rolls back the step the GM saw resolve, never one
resolved after the command was given (rules: 003 "Once a DM is sent to the GM, your orders/choices are final": a
step wrongly forced or undone cannot be mended by the players).
"""

from __future__ import annotations

import asyncio

from tests.discord.helpers import GM_USER, Harness, game_table, make_config, user_of

CH = 3400


def harness(server, tmp_path):
    return Harness(server, make_config({"g": game_table(CH, seats=3)}, tmp_path))


async def view(bridge):
    return await bridge.rpc("game.view", **bridge._gm("g"), wait=True)


def test_an_advance_force_issued_before_the_last_dm_resolved_the_step_forces_nothing_new(server, tmp_path):
    h = harness(server, tmp_path)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        for no in (1, 2):
            await bridge.on_dm(h.chat.dm(user_of(CH, no), f"Bid {no}"))
        cmd = h.chat.command("advance", GM_USER, CH, force=True)
        cmd.created = h.clock()  # the GM issues it while the bids wait for Player#3 ...
        await asyncio.sleep(0.05)
        await bridge.on_dm(h.chat.dm(user_of(CH, 3), "Bid 3"))  # ... whose DM, handled first, resolves the bids
        opened = await view(bridge)
        assert opened["step"] == "orders"
        await bridge.on_command(cmd)
        answer = cmd.reply.text()
        assert "Nothing was forced" in answer and "orders" in answer, answer
        now = await view(bridge)
        assert (now["turn"], now["step"], now["step_started"]) == (1, "orders", opened["step_started"])
        assert not any(p["submitted"] for p in now["pending"])  # nobody's orders defaulted
        assert "⏩" not in h.chat.texts(CH)
        # issued again, now that the GM has seen the orders step open, it forces that step
        again = h.chat.command("advance", GM_USER, CH, force=True)
        await bridge.on_command(again)
        assert again.reply.text().startswith("Step resolved; the rulebook defaults for")
        await bridge.close_client()

    asyncio.run(body())


def test_an_undo_issued_before_a_step_resolved_rolls_back_nothing(server, tmp_path):
    h = harness(server, tmp_path)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        for no in (1, 2):
            await bridge.on_dm(h.chat.dm(user_of(CH, no), f"Bid {no}"))
        cmd = h.chat.command("undo", GM_USER, CH)
        cmd.created = h.clock()  # the GM means to roll back some earlier step ...
        await asyncio.sleep(0.05)
        await bridge.on_dm(h.chat.dm(user_of(CH, 3), "Bid 3"))  # ... but the bids resolve first
        opened = await view(bridge)
        await bridge.on_command(cmd)
        assert "Nothing was undone" in cmd.reply.text(), cmd.reply.text()
        now = await view(bridge)
        assert (now["turn"], now["step"], now["step_started"]) == (1, "orders", opened["step_started"])
        assert "rolled the last resolved step back" not in h.chat.texts(CH)
        await bridge.close_client()

    asyncio.run(body())


def test_the_adapter_passes_on_when_the_gm_issued_the_command():
    import datetime
    from types import SimpleNamespace

    from service.discord.adapter import issued

    at = datetime.datetime(2026, 11, 28, 12, 0, tzinfo=datetime.UTC)
    assert issued(SimpleNamespace(created_at=at)) == at.timestamp()
    assert issued(SimpleNamespace()) is None
