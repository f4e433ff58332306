"""Many DMs at once: two players at the same instant, and one player sending 30 DMs in a minute. Each DM is read and
kept (nothing lost), each decision stored once, and the bot does not send the flooding player the same answer 30
times (Discord rate-limits a bot's DMs to one player, and the bot sends its answers one at a time, so every other
player's answer would wait behind them): a repeated answer is said once, then left out for a minute."""

from __future__ import annotations

import asyncio
import json

from service.discord.answers import REPEATED
from service.discord.dms import REPEAT_WINDOW
from tests.discord.helpers import Harness, game_table, make_config, user_of

CH = 880


def harness(server, tmp_path, channel=CH):
    h = Harness(server, make_config({"g": game_table(channel)}, tmp_path))
    h.now = 1_800_000_000.0  # the bot's clock, moved by the test
    return h


async def pending(bridge) -> dict[str, bool]:
    return {p["seat"]: p["submitted"] for p in await bridge.rpc("game.pending", **bridge._gm("g"), wait=True)}


def test_two_players_at_the_same_instant_are_both_stored_and_answered(server, tmp_path):
    h = harness(server, tmp_path)
    one, two = user_of(CH, 1), user_of(CH, 2)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await bridge.catch_up()
        await asyncio.gather(bridge.on_dm(h.chat.send(one, "Bid 1")), bridge.on_dm(h.chat.send(two, "Bid 2")))
        assert [s.text.count("**Stored**") for s in h.chat.dms[one]] == [1]
        assert [s.text.count("**Stored**") for s in h.chat.dms[two]] == [1]
        assert "✓ `Bid 1`" in h.chat.last_dm(one) and "✓ `Bid 2`" in h.chat.last_dm(two)
        assert {k: v for k, v in (await pending(bridge)).items() if v} == {"Player#1": True, "Player#2": True}
        await bridge.close_client()

    asyncio.run(body())


def test_thirty_dms_in_a_minute_are_all_read_and_the_same_answer_is_not_sent_thirty_times(server, tmp_path):
    h = harness(server, tmp_path, CH + 1)
    flooder, other = user_of(CH + 1, 1), user_of(CH + 1, 2)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await bridge.catch_up()
        flood = [h.chat.send(flooder, f"Bid {i % 4}") for i in range(30)]
        late = h.chat.send(other, "Bid 2")
        await asyncio.gather(
            *(bridge.on_dm(dm) for dm in flood[:15]), bridge.on_dm(late), *(bridge.on_dm(dm) for dm in flood[15:])
        )
        said = [s.text for s in h.chat.dms[flooder]]
        assert said[0].startswith("**Stored**") and "✓ `Bid 0`" in said[0]  # the first DM is the decision
        assert "already stored" in said[1]  # the second is told why nothing changed
        assert said[2] == REPEATED and len(said) == 3, said  # then once that the same answer is not repeated
        assert "✓ `Bid 2`" in h.chat.last_dm(other)
        assert (await pending(bridge))["Player#1"] is True
        kept = json.loads((tmp_path / "bot.json").read_text())
        assert {dm.message_id for dm in flood} <= {int(m) for m in kept["processed"]}  # every DM read and kept
        h.now += REPEAT_WINDOW + 1  # a minute on: the answer is said again, in full
        await bridge.on_dm(h.chat.send(flooder, "Bid 3"))
        assert len(h.chat.dms[flooder]) == 4 and "already stored" in h.chat.last_dm(flooder)
        await bridge.close_client()

    asyncio.run(body())


def test_a_different_answer_is_never_held_back(server, tmp_path):
    h = harness(server, tmp_path, CH + 2)
    user = user_of(CH + 2, 3)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await bridge.catch_up()
        for text in ("Bid banana", "Bid banana", "Bid banana", "Bid apple", "Bid 3"):
            await bridge.on_dm(h.chat.send(user, text))
        said = [s.text for s in h.chat.dms[user]]
        assert "banana" in said[0] and said[1] == REPEATED and len(said) == 4, said
        assert "apple" in said[2] and "**Stored**" in said[3] and "✓ `Bid 3`" in said[3]
        await bridge.close_client()

    asyncio.run(body())
