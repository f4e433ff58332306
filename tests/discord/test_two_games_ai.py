"""A player in two games whose seat in one of them the GM gave to an AI (real service, fake Discord)."""

from __future__ import annotations

import asyncio

from tests.discord.helpers import Harness, game_table, gm_command, make_config, user_of

CH_A, CH_B = 3600, 3700


def test_a_dm_naming_the_game_whose_seat_an_ai_holds_says_so(server, tmp_path):
    both = user_of(CH_A, 2)
    b = game_table(CH_B, seats=3)
    b["seats"]["Player#1"]["user"] = both  # the member plays Player#2 in a and Player#1 in b
    h = Harness(server, make_config({"a": game_table(CH_A, seats=3), "b": b}, tmp_path))

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await gm_command(h, bridge, CH_A, "seat", seat="Player#2", agent="normal")
        await bridge.on_dm(h.chat.dm(both, "game: a\nBid 3"))
        answer = h.chat.last_dm(both)
        assert answer.startswith("Your seat Player#2 in a is played by an AI now"), answer
        await bridge.on_dm(h.chat.dm(both, "game: b\nBid 4"))  # the other game takes its DM as before
        assert h.chat.last_dm(both).startswith("**Stored** for Player#1 in b")
        await bridge.close_client()

    asyncio.run(body())
