"""A Discord outage (a 5xx, a lost connection) while the bot posts in the game's channel: the report of a resolved
step reaches the channel once, its board picture follows once Discord is back, and one game's failing channel holds
up no other game and no DM read back after the bot was offline."""

from __future__ import annotations

import asyncio

from service.discord.chat import DeliveryFailed
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
