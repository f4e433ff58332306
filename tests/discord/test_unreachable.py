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


def test_a_member_who_left_the_server_is_told_to_the_gm_once_and_the_rest_goes_on(server, tmp_path):
    """A member who left the server can be neither DMed (Discord's 50007: no server in common) nor added to a private
    thread. The GM hears it once in the channel, naming the seat and what to do; the other players' messages still go
    out, and the seat's DM answers are not retried into a new thread each time."""
    h = Harness(server, make_config({"g": game_table(CH + 1, seats=3)}, tmp_path))
    gone = user_of(CH + 1, 2)
    h.chat.gone.add(gone)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        for no in (1, 3):
            await bridge.on_dm(h.chat.dm(user_of(CH + 1, no), f"Bid {no}"))
        await gm_command(h, bridge, CH + 1, "advance", force=True)  # the turn goes on without Player#2
        await gm_command(h, bridge, CH + 1, "seat", seat="Player#2", agent="normal")  # its player is told: fails too
        text = h.chat.texts(CH + 1)
        notice = (f"<@{gone}> (Player#2) cannot be reached: Discord refuses my DMs to them and I cannot add them "
                  "to a private thread (have they left the server?)")
        assert text.count(notice) == 1, text
        assert "does not accept DMs" not in text
        assert h.chat.threads == {}
        for no in (1, 3):
            assert "**Stored**" in h.chat.dm_texts(user_of(CH + 1, no))
        await bridge.close_client()

    asyncio.run(body())


def test_the_adapter_deletes_a_private_thread_it_could_not_add_the_player_to():
    from unittest.mock import AsyncMock, MagicMock

    import discord

    from service.discord import adapter
    from service.discord.chat import DeliveryFailed

    client = MagicMock(spec=discord.Client)
    chat = adapter.DiscordChat(client, 1)
    channel = MagicMock(spec=discord.TextChannel)
    thread = MagicMock(spec=discord.Thread)
    thread.id = 4242
    response = MagicMock()
    response.status, response.reason = 404, "Not Found"
    thread.add_user = AsyncMock(side_effect=discord.NotFound(response, {"code": 10007, "message": "Unknown Member"}))
    channel.create_thread = AsyncMock(return_value=thread)
    client.get_channel.return_value = channel

    async def body():
        try:
            await chat.open_private_thread(10, 20, "regent Player#2")
        except DeliveryFailed:
            pass
        else:
            raise AssertionError("a thread the player is not in was kept")
        thread.delete.assert_awaited_once()  # no empty private thread left in the game channel

    asyncio.run(body())


def gm_lines(h, channel, user) -> list[str]:
    """The channel's posts about ``user``'s private thread; none of them pings the player."""
    lines = [line for line in h.chat.texts(channel).splitlines() if "private thread" in line]
    assert all(f"<@{user}>" not in line for line in lines if "is gone" in line), lines
    return lines


def test_a_private_thread_a_moderator_deleted_or_locked_is_opened_again_and_the_gm_told(server, tmp_path):
    """A moderator deletes (or locks) the private thread the bot opened for a player with closed DMs: every post there
    failed, was only logged, and the player got nothing from then on. Now the bot forgets that thread, opens a new one
    with the message in it, and tells the GM in the channel (the seat named, the player not pinged)."""
    h = Harness(server, make_config({"g": game_table(CH + 2, seats=3)}, tmp_path))
    user = user_of(CH + 2, 2)
    h.chat.closed.add(user)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await bridge.on_dm(h.chat.send(user, "Bid banana"))  # answered in a private thread opened for them
        (first,) = h.chat.threads
        h.chat.removed.add(first)  # a moderator deletes it
        await bridge.on_dm(h.chat.send(user, "Bid 2"))
        second = bridge.state.thread("g", user)
        assert second not in (None, first) and set(h.chat.threads) == {first, second}
        assert "✓ `Bid 2`" in h.chat.texts(second) and h.chat.texts(second).startswith(f"<@{user}> ")
        notice = "the private thread I opened for Player#2 is gone (deleted or locked), so I opened a new one"
        assert sum(notice in line for line in gm_lines(h, CH + 2, user)) == 1
        # the player writes in the new thread, which is locked before the answer: the answer goes to a third one
        dm = h.chat.send(user, "Bid 1", thread_id=second)
        h.chat.removed.add(second)
        await bridge.on_dm(dm)
        third = bridge.state.thread("g", user)
        assert third not in (None, first, second) and "already stored" in h.chat.texts(third)
        assert sum(notice in line for line in gm_lines(h, CH + 2, user)) == 2
        assert bridge.state.thread_owner(first) is None and bridge.state.thread_owner(second) is None
        await bridge.close_client()

    asyncio.run(body())


def test_a_private_thread_gone_with_no_new_one_possible_is_told_to_the_gm_once(server, tmp_path):
    """The player's thread is gone and the bot may open no other (its permission taken away): the GM hears it once in
    the channel, with what to do, however many messages fail after it; the player is not pinged there."""
    h = Harness(server, make_config({"g": game_table(CH + 3, seats=3)}, tmp_path))
    user = user_of(CH + 3, 2)
    h.chat.closed.add(user)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await bridge.on_dm(h.chat.send(user, "Bid banana"))
        (first,) = h.chat.threads
        h.chat.removed.add(first)
        h.chat.no_threads.add(CH + 3)
        await bridge.on_dm(h.chat.send(user, "Bid 2"))
        await bridge.on_dm(h.chat.send(user, "Bid 3"))
        told = [line for line in gm_lines(h, CH + 3, user) if "cannot be reached" in line]
        assert len(told) == 1, told
        assert "the player of Player#2 cannot be reached" in told[0] and "`/regent seat Player#2 ...`" in told[0]
        assert list(h.chat.threads) == [first] and bridge.state.thread("g", user) is None
        await bridge.close_client()

    asyncio.run(body())


def test_a_passing_failure_in_a_private_thread_keeps_it(server, tmp_path):
    """A server error in the player's thread (a 503) is no reason to leave it: the thread is kept, no other is opened,
    the GM is not bothered, and the next message goes there."""
    h = Harness(server, make_config({"g": game_table(CH + 4, seats=3)}, tmp_path))
    user = user_of(CH + 4, 2)
    h.chat.closed.add(user)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await bridge.on_dm(h.chat.send(user, "Bid banana"))
        (first,) = h.chat.threads
        h.chat.flaky.add(first)
        await bridge.on_dm(h.chat.send(user, "Bid 2"))  # its answer is lost (logged), as any undelivered one
        h.chat.flaky.discard(first)
        await bridge.on_dm(h.chat.send(user, "Bid 1"))
        assert list(h.chat.threads) == [first] and bridge.state.thread("g", user) == first
        assert "already stored" in h.chat.texts(first)
        assert not any("is gone" in line or "cannot be reached" in line for line in gm_lines(h, CH + 4, user))
        await bridge.close_client()

    asyncio.run(body())
