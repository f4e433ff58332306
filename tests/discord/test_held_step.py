"""A step the GM's undo reopened is held (docs/service.md, Undo): no deadline resolves it, the GM does with
/regent advance. The channel and /regent status say so instead of showing a deadline that will never act (real
service)."""

from __future__ import annotations

import asyncio

from tests.discord.helpers import Harness, dm_text, game_table, gm_command, make_config, seat_view, user_of

CH = 4400


def test_a_step_reopened_by_undo_shows_no_deadline_but_who_resolves_it(server, tmp_path):
    h = Harness(server, make_config({"g": game_table(CH)}, tmp_path))

    async def body():
        bridge = h.bridge()
        await bridge.start()
        for no in (1, 2, 3, 4):
            seat = f"Player#{no}"
            await bridge.on_dm(h.chat.dm(user_of(CH, no), dm_text(await seat_view(bridge, "g", seat), seat)))

        async def gm(name, **options):
            return await gm_command(h, bridge, CH, name, **options)

        await gm("advance", force=True)
        mark = len(h.chat.posts[CH])
        await gm("undo")
        reopened = "\n".join(p.text for p in h.chat.posts[CH][mark:])
        line = next(x for x in reopened.splitlines() if x.startswith("**Turn 1: Protector Ranking bids** from"))
        assert "Player#5 (Black)" in line
        assert "<t:" not in line and "no deadline" in line, line  # held: no deadline will resolve it
        assert "the GM resolves it with /regent advance" in line, line
        status = await gm("status")
        head = status.splitlines()[0]
        assert "held after an undo" in head and "<t:" not in head, head
        posts = len(h.chat.posts[CH])
        extended = await gm("deadline extend", hours=2)  # it said "the deadline is extended ... it is now <t:...>"
        assert extended.startswith("This step was reopened by /regent undo: no deadline resolves it"), extended
        assert "<t:" not in extended and len(h.chat.posts[CH]) == posts  # and the channel is not told of one
        await bridge.close_client()

    asyncio.run(body())
