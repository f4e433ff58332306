"""Players the bot cannot DM: closed DMs, or a member who left the server (real service, fake Discord)."""

from __future__ import annotations

import asyncio

from tests.discord.helpers import Harness, game_table, gm_command, make_config, user_of

CH = 3500


def test_the_gm_notice_of_a_closed_dm_names_the_seat_just_given_to_an_ai(server, tmp_path):
    """The GM gives a silent player's seat to an AI; the bot tells the player, whose DMs are closed, in a private
    thread: the GM's notice and the thread name the seat (not "a player": the seat's user was cleared first)."""
    h = Harness(server, make_config({"g": game_table(CH, seats=3)}, tmp_path))
    h.chat.closed.add(user_of(CH, 2))

    async def body():
        bridge = h.bridge()
        await bridge.start()
        assert (await gm_command(h, bridge, CH, "seat", seat="Player#2", agent="normal")).startswith(
            "Player#2 (Red) is now played by AI")
        (_ch, user, name), = h.chat.threads.values()
        assert user == user_of(CH, 2) and name == "regent Player#2"
        assert f"<@{user_of(CH, 2)}> (Player#2) does not accept DMs" in h.chat.texts(CH)
        await bridge.close_client()

    asyncio.run(body())

