"""After the GM's undo and the step resolved again, each player's private messages (the turn's summary, the
balance as a Consolidation begins) go out again only when their words changed, and then say they correct the ones
sent before."""

from __future__ import annotations

import asyncio

from tests.discord.helpers import GM_USER, Harness, dm_text, game_table, make_config, seat_view, user_of

CH = 790


async def command(h, bridge, name, **options):
    cmd = h.chat.command(name, GM_USER, CH, **options)
    await bridge.on_command(cmd)
    return cmd.reply.text()


async def everyone_sends(h, bridge):
    view = await bridge.rpc("game.view", **bridge._gm("g"), wait=True)
    for p in view["pending"]:
        if not p["submitted"] and not p["controller"]:
            text = dm_text(await seat_view(bridge, "g", p["seat"]), p["seat"])
            await bridge.on_dm(h.chat.dm(user_of(CH, int(p["seat"].split("#")[1])), text))


def told(h, n, head):
    return [m.text for m in h.chat.dms.get(user_of(CH, n), []) if head in m.text]


def test_a_step_resolved_again_after_an_undo_sends_each_private_message_again_only_if_it_changed(server, tmp_path):
    h = Harness(server, make_config({"g": game_table(CH, seats=3)}, tmp_path))

    async def body():
        bridge = h.bridge()
        await bridge.start()
        while (await bridge.rpc("game.view", **bridge._gm("g"), wait=True))["turn"] == 1:
            await everyone_sends(h, bridge)  # the last decision resolves each step
        for n in (1, 2, 3):
            assert len(told(h, n, "**Your summary of turn 1**")) == 1
            assert len(told(h, n, "💰 **Turn 1: Consolidation**")) == 1
        assert "Undone" in await command(h, bridge, "undo")  # turn 1's last step is open again
        view = await bridge.rpc("game.view", **bridge._gm("g"), wait=True)
        assert (view["turn"], view["step"]) == (1, "consolidation")
        rpc = bridge.rpc

        async def other_words(method, **fields):  # Player#1's summary reads otherwise this time (a late DM)
            out = await rpc(method, **fields)
            if method == "game.report" and fields.get("private") == "Player#1":
                out = {**out, "report": out["report"] + "\n(another ending)"}
            return out

        bridge.rpc = other_words
        await command(h, bridge, "advance")  # resolved again, with the same decisions
        bridge.rpc = rpc
        assert (await bridge.rpc("game.view", **bridge._gm("g"), wait=True))["turn"] == 2
        for n in (2, 3):  # the same words: not sent again
            assert len(told(h, n, "**Your summary of turn 1**")) == 1, told(h, n, "summary")
            assert len(told(h, n, "💰 **Turn 1: Consolidation**")) == 1
        again = told(h, 1, "**Your summary of turn 1**")
        assert len(again) == 2 and again[1].startswith(
            "**Your summary of turn 1** (Player#1, g, corrected after the GM's undo: it replaces the one I sent "
            "before):") and again[1].rstrip().endswith("(another ending)")
        assert len(told(h, 1, "💰 **Turn 1: Consolidation**")) == 1
        await bridge.close_client()

    asyncio.run(body())
