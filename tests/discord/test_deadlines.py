"""Deadlines through the bridge: reminders once per threshold naming who is missing; expiry told."""

from __future__ import annotations

import asyncio
import time

from tests.discord.helpers import Harness, game_table, make_config, user_of

CH = 900


def test_reminders_name_who_is_missing_once_per_threshold_even_across_a_restart(server, tmp_path):
    h = Harness(server, make_config({"g": game_table(CH, deadlines={"bid": "30h"})}, tmp_path))

    def reminders():
        return [p.text for p in h.chat.posts[CH] if p.text.startswith("⏳ Reminder")]

    async def body():
        bridge = h.bridge()
        await bridge.start()
        deadline = min(p["deadline"] for p in await bridge.rpc("game.pending", **bridge._gm("g")))
        h.now = deadline - 30 * 3600  # more than 24 h left: no reminder yet
        await bridge.tick()
        assert reminders() == []
        h.now = deadline - 23 * 3600
        await bridge.tick()
        await bridge.tick()
        assert len(reminders()) == 1 and "23 h 00 min left" in reminders()[0]
        assert all(f"<@{user_of(CH, i)}> (Player#{i})" in reminders()[0] for i in range(1, 6))
        await bridge.on_dm(h.chat.dm(user_of(CH, 1), "Bid 1"))
        await bridge.on_dm(h.chat.dm(user_of(CH, 2), "Bid 2"))
        await bridge.close_client()
        bridge = h.bridge()  # restarted: the 24 h reminder is not posted again
        h.now = deadline - 5 * 3600
        await bridge.tick()
        await bridge.tick()
        assert len(reminders()) == 2
        assert "Player#1" not in reminders()[1] and "Player#2" not in reminders()[1]
        assert "(Player#3)" in reminders()[1] and "(Player#5)" in reminders()[1]
        # the bot was down through the 1 h threshold and past the deadline: no flood, no reminder after it
        h.now = deadline + 60
        await bridge.tick()
        assert len(reminders()) == 2
        # a paused clock reminds nobody
        h.now = deadline - 1800
        await bridge.on_command(h.chat.command("deadline pause", 7, CH))
        await bridge.tick()
        assert len(reminders()) == 2
        await bridge.close_client()

    asyncio.run(body())


def test_a_new_step_gets_its_own_reminders(server, tmp_path):
    h = Harness(server, make_config({"g": game_table(CH + 1, seats=3)}, tmp_path))

    async def body():
        bridge = h.bridge()
        await bridge.start()
        deadline = min(p["deadline"] for p in await bridge.rpc("game.pending", **bridge._gm("g")))
        h.now = deadline - 3000
        await bridge.tick()
        for i in (1, 2, 3):
            await bridge.on_dm(h.chat.dm(user_of(CH + 1, i), f"Bid {i}"))
        pend = await bridge.rpc("game.pending", **bridge._gm("g"), wait=True)
        h.now = min(p["deadline"] for p in pend) - 3000
        await bridge.tick()
        texts = [p.text for p in h.chat.posts[CH + 1] if p.text.startswith("⏳ Reminder")]
        assert len(texts) == 2 and "bids" in texts[0] and "orders" in texts[1]
        await bridge.close_client()

    asyncio.run(body())


def test_a_threshold_as_long_as_the_step_is_not_a_reminder_at_its_start(server, tmp_path):
    # the defaults: reminders 24h, 6h, 1h and the rulebook's 24 h bid window
    h = Harness(server, make_config({"g": game_table(CH + 3, seats=3)}, tmp_path))

    def reminders():
        return [p.text for p in h.chat.posts[CH + 3] if p.text.startswith("⏳ Reminder")]

    async def body():
        bridge = h.bridge()
        await bridge.start()
        deadline = min(p["deadline"] for p in await bridge.rpc("game.pending", **bridge._gm("g")))
        h.now = deadline - 24 * 3600 + 30  # the first tick after the step was announced
        await bridge.tick()
        assert reminders() == []
        h.now = deadline - 5 * 3600
        await bridge.tick()
        assert len(reminders()) == 1 and "5 h 00 min left" in reminders()[0]
        await bridge.close_client()

    asyncio.run(body())


def test_an_expired_deadline_resolves_with_the_rulebook_defaults_and_the_channel_is_told(server, tmp_path):
    table = game_table(CH + 2, seats=3, expiry=True, deadlines={"bid": 1.0})
    h = Harness(server, make_config({"g": table}, tmp_path))

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await bridge.on_dm(h.chat.dm(user_of(CH + 2, 1), "Bid 2"))
        end = time.monotonic() + 20
        while time.monotonic() < end:
            await asyncio.sleep(0.3)
            await bridge.tick()
            if "The deadline passed" in h.chat.texts(CH + 2):
                break
        text = h.chat.texts(CH + 2)
        assert "⏰ The deadline passed: the step was resolved with the rulebook defaults for " \
               "Player#2 (Red), Player#3 (Green)." in text
        assert "Player#1 (Blue)," not in text.split("The deadline passed")[1].splitlines()[0]
        assert text.count("The deadline passed") == 1
        await bridge.close_client()

    asyncio.run(body())


def test_a_deadline_the_gm_extends_is_reminded_again_before_the_new_deadline(server, tmp_path):
    h = Harness(server, make_config({"g": game_table(CH + 4, seats=3, deadlines={"bid": "30h"})}, tmp_path))

    def reminders():
        return [p.text for p in h.chat.posts[CH + 4] if p.text.startswith("⏳ Reminder")]

    async def body():
        bridge = h.bridge()
        await bridge.start()
        deadline = min(p["deadline"] for p in await bridge.rpc("game.pending", **bridge._gm("g")))
        h.now = deadline - 1800  # every threshold crossed: one reminder
        await bridge.tick()
        assert len(reminders()) == 1 and "30 min left" in reminders()[0]
        cmd = h.chat.command("deadline extend", 7, CH + 4, hours=24)
        await bridge.on_command(cmd)
        assert "extended by 24 h" in cmd.reply.text()
        await bridge.tick()  # 24 h 30 min to go now: no threshold crossed
        assert len(reminders()) == 1
        h.now = deadline + 24 * 3600 - 5 * 3600  # 5 h before the new deadline: the 6 h threshold again
        await bridge.tick()
        await bridge.tick()
        assert len(reminders()) == 2 and "5 h 00 min left" in reminders()[1]
        assert all(f"(Player#{i})" in reminders()[1] for i in (1, 2, 3))
        await bridge.close_client()

    asyncio.run(body())


def test_a_step_its_last_dm_or_an_ai_resolves_past_the_deadline_is_not_told_as_defaulted(server, tmp_path):
    """Without expiry (or before the service's expiry sweep) a deadline can pass with the step still open: the DM
    that then comes in, or the AI the GM puts in the silent seat, resolves it with every decision made. The channel
    was told "⏰ The deadline passed: ... the rulebook defaults for" the seats the bot last saw missing, as if their
    decisions had been made for them."""
    h = Harness(server, make_config({"g": game_table(CH + 4, seats=3, deadlines={"bid": 1.0, "orders": 1.0})},
                                    tmp_path))
    h.chat.roles[7] = {"GM"}

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await bridge.on_dm(h.chat.dm(user_of(CH + 4, 1), "Bid 1"))
        await bridge.on_dm(h.chat.dm(user_of(CH + 4, 2), "Bid 2"))
        await bridge.tick()  # the bot sees Player#3 missing
        await asyncio.sleep(1.2)  # the deadline passes; no expiry resolves the step
        await bridge.tick()
        await bridge.on_dm(h.chat.dm(user_of(CH + 4, 3), "Bid 3"))  # late, still taken: the step resolves
        text = h.chat.texts(CH + 4)
        assert "- Bids: Blue 1, Red 2, Green 3" in text, text
        assert "The deadline passed" not in text, text
        await bridge.on_dm(h.chat.dm(user_of(CH + 4, 1), "none"))  # the orders: Player#2 and #3 go silent
        await bridge.on_dm(h.chat.dm(user_of(CH + 4, 2), "none"))
        await bridge.tick()
        await asyncio.sleep(1.2)
        await bridge.tick()
        cmd = h.chat.command("seat", 7, CH + 4, seat="Player#3", agent="normal")  # the GM puts an AI in the seat
        await bridge.on_command(cmd)
        text = h.chat.texts(CH + 4)
        assert "Played by AI: Green" in text, text  # its AI decided: the step resolved
        assert "The deadline passed" not in text, text
        await bridge.close_client()

    asyncio.run(body())
