"""A player's decision posted in the game's channel (or a thread of it) instead of a DM (real service).

The bot reads decisions only by DM (rules 003: "given in secret as a Direct Message (DM) to the GM"); it was silent
about one posted in the channel, so the player thought it was in while everyone could read it. The player is now told
by DM, once a step, that it was not stored and to DM it; table talk is left alone, and the channel hears nothing."""

from __future__ import annotations

import asyncio

from tests.discord.helpers import Harness, game_table, make_config, user_of

CH = 4500


def test_a_decision_posted_in_the_channel_is_not_stored_and_its_player_is_told_by_dm(server, tmp_path):
    h = Harness(server, make_config({"g": game_table(CH)}, tmp_path))

    async def body():
        bridge = h.bridge()
        await bridge.start()
        posts = len(h.chat.posts[CH])
        ann, bob = user_of(CH, 1), user_of(CH, 2)
        assert not await bridge.on_channel_message(bob, CH, "Blue, I will march on you if you bid high :)")  # talk
        assert bob not in h.chat.dms
        assert await bridge.on_channel_message(ann, CH, "My bid:\nBid 3")  # meant for the bot
        told = h.chat.last_dm(ann)
        assert "not stored" in told and "by DM" in told and "everyone" in told, told
        assert not await bridge.on_channel_message(ann, CH, "bid 4")  # told once a step
        assert len(h.chat.dms[ann]) == 1
        assert not await bridge.on_channel_message(user_of(CH, 9), CH, "Bid 3")  # no seat: not the bot's business
        assert not await bridge.on_channel_message(ann, 12345, "Bid 3")  # not a game's channel
        view = await bridge.rpc("game.view", **bridge._gm("g"))
        assert not any(p["submitted"] for p in view["pending"])  # nothing stored
        assert len(h.chat.posts[CH]) == posts  # the channel hears nothing of it
        await bridge.close_client()

    asyncio.run(body())


def test_what_reads_as_a_decision_and_what_as_table_talk():
    from service.discord.channel_messages import looks_like_a_decision

    for decision in (
        "Bid 3",
        "**March! 2 from P1 to P2**",
        "- fortify p3",
        "none",
        "Turn off the lights!",
        "game: main\nnone",
        "Hi!\nbuy 2 in P6",
        "Golden Work, work! P4",
        "1. Support! Bob in P2",
        "I commit 2 from P2",
    ):
        assert looks_like_a_decision(decision), decision
    for talk in (
        "Blue, I will march on you",
        "none of your business",
        "bid high or lose",
        "lol",
        "Support me?",
        "Who holds P3?",
    ):
        assert not looks_like_a_decision(talk), talk
