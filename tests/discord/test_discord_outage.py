"""A Discord outage (a 5xx, a lost connection) while the bot posts in the game's channel: the report of a resolved
step reaches the channel once, its board picture follows once Discord is back, and one game's failing channel holds
up no other game and no DM read back after the bot was offline."""

from __future__ import annotations

import asyncio

from service.discord.chat import DeliveryFailed
from service.discord.core import ServiceDown
from tests.discord.helpers import Harness, dm_text, game_table, make_config, seat_view, user_of

CH = 860


async def everyone_sends(h, bridge, channel, key="g"):
    view = await bridge.rpc("game.view", **bridge._gm(key), wait=True)
    for p in view["pending"]:
        if not p["submitted"] and not p["controller"]:
            text = dm_text(await seat_view(bridge, key, p["seat"]), p["seat"])
            await bridge.on_dm(h.chat.dm(user_of(channel, int(p["seat"].split("#")[1])), text))


def failing_uploads(chat, channel, times):
    """Discord fails (a 503) the next ``times`` posts of a file in ``channel``; text posts go through."""
    post, left = chat.post, [times]

    async def flaky(channel_id, text, file=None):
        if channel_id == channel and file is not None and left[0] > 0:
            left[0] -= 1
            raise DeliveryFailed(f"post in {channel_id}: 503 Service Unavailable")
        return await post(channel_id, text, file)

    chat.post = flaky


def test_a_board_picture_discord_fails_does_not_post_the_report_again(server, tmp_path):
    h = Harness(server, make_config({"g": game_table(CH, pictures=True)}, tmp_path))

    async def body():
        bridge = h.bridge()
        await bridge.start()
        failing_uploads(h.chat, CH, 1)
        await everyone_sends(h, bridge, CH)  # the last bid resolves the step: its report, then the picture (fails)
        await bridge.tick()
        await bridge.tick()
        texts = [s.text for s in h.chat.posts[CH]]
        reports = [t for t in texts if "Turn 1: orders" in t and "Protector Ranking" in t]
        assert len(reports) == 1, texts
        pictures = [s for s in h.chat.posts[CH] if s.file is not None]
        assert len(pictures) == 1  # the board after the bids, posted once Discord took it
        await bridge.close_client()

    asyncio.run(body())


def two_games(server, tmp_path):
    return Harness(server, make_config({"a": game_table(CH + 1), "b": game_table(CH + 2)}, tmp_path))


def test_one_games_channel_failing_holds_up_no_other_game_in_a_tick(server, tmp_path):
    h = two_games(server, tmp_path)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        h.chat.flaky.add(CH + 1)  # Discord fails every post in a's channel (a 503 that outlasts discord.py's retries)
        for key in ("a", "b"):  # both steps resolved by the service alone (as a deadline passing does)
            await bridge.rpc("game.advance", **bridge._gm(key), force=True, wait=True)
        await bridge.tick()
        assert "== Turn 1 ==" in h.chat.texts(CH + 2)  # b's report, though a's channel failed first
        assert "== Turn 1 ==" not in h.chat.texts(CH + 1)
        h.chat.flaky.discard(CH + 1)
        await bridge.tick()  # a's report once Discord is back, once; b's not again
        assert h.chat.texts(CH + 1).count("== Turn 1 ==") == 1
        assert h.chat.texts(CH + 2).count("== Turn 1 ==") == 1
        await bridge.close_client()

    asyncio.run(body())


def test_a_failed_post_while_reading_back_dms_leaves_no_dm_unread(server, tmp_path):
    h = two_games(server, tmp_path)

    async def body():
        first = h.bridge()
        await first.start()
        await first.catch_up()
        for i in range(1, 5):  # a's players bid but one
            await first.on_dm(h.chat.send(user_of(CH + 1, i), "Bid 1"))
        await first.close_client()  # the bot stops; meanwhile a's last player and one of b's send their bids
        h.chat.send(user_of(CH + 1, 5), "Bid 2")
        h.chat.send(user_of(CH + 2, 3), "Bid 3")
        h.chat.flaky.add(CH + 1)  # and Discord fails the posts in a's channel for a while
        again = h.bridge()
        await again.start()
        await again.catch_up()  # a's last bid resolves a's step: its report cannot be posted
        pending = await again.rpc("game.pending", **again._gm("b"), wait=True)
        assert next(p for p in pending if p["seat"] == "Player#3")["submitted"]
        assert "✓ `Bid 3`" in h.chat.dm_texts(user_of(CH + 2, 3))
        h.chat.flaky.discard(CH + 1)
        await again.tick()
        assert h.chat.texts(CH + 1).count("== Turn 1 ==") == 1
        await again.close_client()

    asyncio.run(body())


def test_the_service_lost_after_a_report_was_posted_does_not_post_it_again(server, tmp_path):
    """The service drops (a restart, a lost connection) between the channel's report of a finished turn and the
    players' summaries of it: the next sync sends the summaries, and the report is not posted a second time."""
    h = Harness(server, make_config({"g": game_table(CH + 3, seats=3)}, tmp_path))
    users = [user_of(CH + 3, i) for i in (1, 2, 3)]

    async def body():
        bridge = h.bridge()
        await bridge.start()
        rpc, lost = bridge.rpc, [False]

        async def dropping(method, **fields):  # the first private summary asked for finds the service gone
            if method == "game.report" and fields.get("private") and not lost[0]:
                lost[0] = True
                raise ServiceDown("connection lost")
            return await rpc(method, **fields)

        bridge.rpc = dropping
        while (await bridge.rpc("game.view", **bridge._gm("g"), wait=True))["turn"] == 1:
            await everyone_sends(h, bridge, CH + 3)
        await bridge.tick()
        await bridge.tick()
        assert lost[0]
        channel = h.chat.texts(CH + 3)
        assert channel.count("== Turn 2 ==") == 1 and channel.count("**Turn 2: orders**") == 1, channel
        for user in users:
            assert h.chat.dm_texts(user).count("**Your summary of turn 1**") == 1
        await bridge.close_client()

    asyncio.run(body())
