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
import time

import pytest

from tests.discord.helpers import GM_USER, Harness, game_table, make_config, on_host_clock, user_of

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


@pytest.mark.parametrize("case", ["announced", "older-state"])
@pytest.mark.parametrize("skew", [300.0, -300.0])
def test_whether_a_step_began_since_the_gm_gave_a_command_is_told_on_discords_clock(server, tmp_path, skew, case):
    """The host's clock (the bot's and the service's) is five minutes ahead of Discord's (or behind). Whether the
    step open began after the GM gave an advance or an undo compared the command's Discord time with the service's
    ``step_started``: behind, an ``advance force`` given a second before the bids resolved forced the orders step
    nobody had been told of yet; ahead, an ``advance`` or an ``undo`` given a second after the step opened was refused
    as meant for the step before, for five minutes after each step. Both sides are on Discord's clock now: the step's
    start as told when it was announced, or, in a state without it (``older-state``), the service's time with the
    host clock's measured offset."""
    channel = CH + 10 + 2 * ["announced", "older-state"].index(case) + (0 if skew > 0 else 1)
    h = Harness(server, make_config({"g": game_table(channel, seats=3)}, tmp_path))
    h.clock = lambda: time.time() + skew

    def given_now(name, **options):  # the GM gives a command now: Discord stamps it on its own clock
        cmd = h.chat.command(name, GM_USER, channel, **options)
        cmd.created = time.time()
        return cmd

    async def command(bridge, cmd):
        if case == "older-state":  # a state without the announcement's time: an older bot's
            entry = bridge.state.game("g")
            entry.pop("step_post", None)
            bridge.state.set_game("g", entry)
        await bridge.on_command(cmd)
        return cmd.reply.text()

    async def body():
        bridge = h.bridge()
        on_host_clock(bridge, skew)
        await bridge.start()
        for no in (1, 2):
            await bridge.on_dm(h.chat.dm(user_of(channel, no), f"Bid {no}"))
        late = given_now("advance", force=True)  # a second before Player#3's DM resolves the bids
        await asyncio.sleep(1.0)
        await bridge.on_dm(h.chat.dm(user_of(channel, 3), "Bid 3"))
        opened = await view(bridge)
        assert opened["step"] == "orders"
        answer = await command(bridge, late)
        assert "Nothing was forced" in answer and "orders" in answer, answer
        now = await view(bridge)
        assert (now["turn"], now["step"], now["step_started"]) == (1, "orders", opened["step_started"])
        assert not any(p["submitted"] for p in now["pending"])  # nobody's orders defaulted
        await asyncio.sleep(1.0)
        answer = await command(bridge, given_now("advance", force=True))  # a second after the orders step opened
        assert answer.startswith("Step resolved; the rulebook defaults for"), answer
        resolved = await view(bridge)
        assert (resolved["turn"], resolved["step"]) != (1, "orders")
        await asyncio.sleep(1.0)
        answer = await command(bridge, given_now("undo"))  # a second after the next step opened
        assert answer.startswith("Undone."), answer
        back = await view(bridge)
        assert (back["turn"], back["step"]) == (1, "orders")
        await bridge.close_client()

    asyncio.run(body())


def test_the_adapter_passes_on_when_the_gm_issued_the_command():
    import datetime
    from types import SimpleNamespace

    from service.discord.adapter import issued

    at = datetime.datetime(2026, 11, 28, 12, 0, tzinfo=datetime.UTC)
    assert issued(SimpleNamespace(created_at=at)) == at.timestamp()
    assert issued(SimpleNamespace()) is None
