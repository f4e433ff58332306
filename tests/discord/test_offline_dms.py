"""DMs sent while the bot was offline (a restart, a crash, a lost connection): Discord replays none of them, so the
bot reads each player's DMs back from the history on start and on every reconnect, after the last one it handled
(kept in its state file), and answers each once, in order, through the live DMs' path, as sent at its own time."""

from __future__ import annotations

import asyncio
import json
import time

import pytest

from service.client import AsyncClient
from service.discord.bridge import RESEND, Bridge
from service.discord.chat import snowflake_at
from service.discord.state import State
from tests.discord.helpers import Harness, dm_text, game_table, make_config, on_host_clock, seat_view, user_of

CH = 780


def setup(server, tmp_path, channel=CH, **table):
    return Harness(server, make_config({"g": game_table(channel, **table)}, tmp_path))


async def pending(bridge, key="g") -> dict[str, bool]:
    return {p["seat"]: p["submitted"] for p in await bridge.rpc("game.pending", **bridge._gm(key), wait=True)}


def answers(h, user) -> list[str]:
    """The bot's answers to a player's DMs (not the posts' DMs: summaries, balances)."""
    return [s.text for s in h.chat.dms.get(user, []) if "stored" in s.text.lower()]


def test_a_dm_sent_while_the_bot_was_down_is_stored_on_start_and_answered(server, tmp_path):
    h = setup(server, tmp_path)
    user = user_of(CH, 3)
    h.chat.send(user, "Bid 9", at=time.time() - 3600)  # before the game was made: never read back

    async def body():
        first = h.bridge()
        await first.start()
        await first.catch_up()
        await first.close_client()  # the bot stops
        sent = h.chat.send(user, "Bid 3")  # meanwhile: Discord keeps it, nobody reads it
        assert user not in h.chat.dms
        again = h.bridge()  # the bot starts again: on_ready runs start, then the catch-up
        await again.start()
        await again.catch_up()
        said = answers(h, user)
        assert len(said) == 1 and said[0].startswith("📬 Your DM of <t:") and "sent while I was offline" in said[0]
        assert "**Stored** for Player#3 in g" in said[0] and "✓ `Bid 3`" in said[0]
        assert (await pending(again))["Player#3"] is True
        assert "Bid 9" not in h.chat.dm_texts(user)
        saved = json.loads((tmp_path / "bot.json").read_text())
        assert saved["read"][f"dm:{user}"] >= sent.message_id
        await again.catch_up()  # another start or resume: nothing answered twice
        assert len(answers(h, user)) == 1
        await again.close_client()

    asyncio.run(body())


def test_a_dm_sent_during_a_reconnect_is_read_when_the_bot_is_back(server, tmp_path):
    h = setup(server, tmp_path, channel=CH + 1)
    one, two = user_of(CH + 1, 1), user_of(CH + 1, 2)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await bridge.catch_up()
        await bridge.on_dm(h.chat.send(one, "Bid 1"))  # live
        bridge.went_offline()  # the gateway drops (on_disconnect)
        h.chat.send(two, "Bid 2")  # not delivered
        await bridge.catch_up()  # on_resumed (or on_ready again)
        assert len(answers(h, two)) == 1 and "✓ `Bid 2`" in answers(h, two)[0]
        assert len(answers(h, one)) == 1  # the live one is not read again
        assert await pending(bridge) == {"Player#1": True, "Player#2": True, "Player#3": False, "Player#4": False,
                                         "Player#5": False}
        await bridge.close_client()

    asyncio.run(body())


def test_messages_sent_while_down_are_answered_in_the_order_sent_and_an_edit_is_read_as_it_stands(server, tmp_path):
    h = setup(server, tmp_path, channel=CH + 2)
    user, other = user_of(CH + 2, 2), user_of(CH + 2, 4)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        bridge.went_offline()
        h.chat.send(user, "Bid banana")
        h.chat.send(user, "Bid 2")
        h.chat.send(user, "Bid 4")
        typo = h.chat.send(other, "Bid bananas")
        h.chat.edit(typo, "Bid 1")  # edited while the bot was down: its words as they stand are read
        await bridge.catch_up()
        said = answers(h, user)
        assert len(said) == 3
        assert "Nothing was stored" in said[0] and "Bid banana" in said[0]
        assert "✓ `Bid 2`" in said[1]
        assert "already stored" in said[2]
        assert len(answers(h, other)) == 1 and "✓ `Bid 1`" in answers(h, other)[0]
        assert (await pending(bridge))["Player#2"] is True
        await bridge.close_client()

    asyncio.run(body())


def test_a_dm_for_a_step_that_ended_while_the_bot_was_down_is_answered_too_late_not_stored_for_the_next(
        server, tmp_path):
    h = setup(server, tmp_path, channel=CH + 3, seats=3)
    user = user_of(CH + 3, 3)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        for n in (1, 2, 3):
            await bridge.on_dm(h.chat.send(user_of(CH + 3, n), f"Bid {n}"))
        for n in (1, 2):  # the orders step waits for Player#3 alone
            await bridge.on_dm(h.chat.send(user_of(CH + 3, n), f"Fortify! P{n}"))
        await bridge.close_client()  # the bot goes down
        h.chat.send(user, "none")  # Player#3's orders (none), in time
        async with await AsyncClient.connect(unix=server.unix) as c:  # meanwhile the GM forces the orders step
            await c.call("game.advance", **bridge._gm("g"), force=True, wait=True)
        back = h.bridge()
        await back.start()
        await back.catch_up()
        said = answers(h, user)[-1]
        assert "sent while I was offline" in said
        assert "**Nothing was stored.** Your DM came in before the Consolidation step began" in said, said
        assert (await pending(back))["Player#3"] is False  # `none` (no orders) is not its Consolidation
        note = h.chat.texts(CH + 3)
        assert "Note for the GM, on the DMs sent while I was offline" in note and "(Player#3) sent a DM" in note
        await back.on_dm(h.chat.send(user, "none"))  # sent now, for the Consolidation: stored
        assert "**Stored** for Player#3 in g (Consolidation)" in h.chat.last_dm(user)
        await back.close_client()

    asyncio.run(body())


def test_a_dm_seen_live_and_read_back_at_once_is_answered_once(server, tmp_path):
    h = setup(server, tmp_path, channel=CH + 4)
    one, two, three = (user_of(CH + 4, n) for n in (1, 2, 3))

    async def body():
        bridge = h.bridge()
        await bridge.start()
        bridge.went_offline()
        stored, refused = h.chat.send(one, "Bid 1"), h.chat.send(two, "Bid banana")
        # the gateway delivers them as the catch-up reads the history: both see each message
        await asyncio.gather(bridge.on_dm(stored), bridge.catch_up(), bridge.on_dm(refused))
        assert len(answers(h, one)) == 1 and "✓ `Bid 1`" in answers(h, one)[0]
        assert len(answers(h, two)) == 1 and "Nothing was stored" in answers(h, two)[0]
        # the live delivery first, then the catch-up, then Discord delivering it again: still once
        bridge.went_offline()
        late = h.chat.send(three, "Bid banana")
        await bridge.on_dm(late)
        await bridge.catch_up()
        await bridge.on_dm(late)
        assert len(answers(h, three)) == 1
        # a player who sends live before the catch-up ran: what they sent while the bot was offline comes first
        bridge.went_offline()
        four = user_of(CH + 4, 4)
        h.chat.send(four, "Bid 4")
        await bridge.on_dm(h.chat.send(four, "Bid 3"))
        said = answers(h, four)
        assert len(said) == 2 and "✓ `Bid 4`" in said[0] and "already stored" in said[1]
        await bridge.close_client()

    asyncio.run(body())


def test_the_mark_of_the_last_dm_handled_survives_a_restart(server, tmp_path):
    h = setup(server, tmp_path, channel=CH + 5)
    user = user_of(CH + 5, 1)

    async def body():
        first = h.bridge()
        await first.start()
        await first.catch_up()
        handled = h.chat.send(user, "Bid 1")
        await first.on_dm(handled)
        await first.close_client()
        second = h.bridge()  # a new process, its state read from the file
        await second.start()
        await second.catch_up()
        read = [r for r in h.chat.reads if r[0] == user]
        assert read[-1][1] >= handled.message_id  # read from after the last DM handled, as the file kept it
        assert len(answers(h, user)) == 1  # not answered again
        later = h.chat.send(user, "Bid 5")  # sent while the second bot was down
        await second.close_client()
        third = h.bridge()
        await third.catch_up()
        assert len(answers(h, user)) == 2 and "already stored" in answers(h, user)[1]
        assert State(h.config.state).read(f"dm:{user}") >= later.message_id
        await third.close_client()

    asyncio.run(body())


def test_the_read_back_is_bounded_and_the_gm_told_the_rest_follow(server, tmp_path):
    h = setup(server, tmp_path, channel=CH + 6)
    user = user_of(CH + 6, 1)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        bridge.catch_up_limit = 2
        bridge.went_offline()
        for text in ("hello?", "are you there", "Bid 1"):
            h.chat.send(user, text)
        await bridge.catch_up()
        assert len(h.chat.dms[user]) == 2  # the two oldest answered
        assert "more than 2 messages while I was offline" in h.chat.texts(CH + 6)
        assert (await pending(bridge))["Player#1"] is False and bridge.catch_up_due
        await bridge.tick()  # the next pass reads the rest
        assert "✓ `Bid 1`" in h.chat.last_dm(user) and len(h.chat.dms[user]) == 3
        assert (await pending(bridge))["Player#1"] is True and not bridge.catch_up_due
        await bridge.close_client()

    asyncio.run(body())


def test_with_the_service_down_nothing_is_read_back_until_it_answers(server, tmp_path):
    h = setup(server, tmp_path, channel=CH + 7)
    user = user_of(CH + 7, 2)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await bridge.close_client()
        h.chat.send(user, "Bid 2")
        down = Bridge(h.config, h.chat, State(h.config.state),
                      connect=lambda: AsyncClient.connect(unix=str(tmp_path / "nobody.sock")))
        await down.catch_up()
        assert user not in h.chat.dms and down.catch_up_due  # not "send it again": it is read once the service is up
        assert RESEND not in h.chat.dm_texts(user)
        up = h.bridge()
        await up.catch_up()
        assert "✓ `Bid 2`" in h.chat.last_dm(user) and len(answers(h, user)) == 1
        await up.close_client()

    asyncio.run(body())


def test_a_private_thread_is_read_back_too(server, tmp_path):
    h = setup(server, tmp_path, channel=CH + 8)
    user = user_of(CH + 8, 3)
    h.chat.closed.add(user)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await bridge.on_dm(h.chat.send(user, "Bid banana"))  # answered in a private thread opened for them
        (tid,) = h.chat.threads
        bridge.went_offline()
        h.chat.send(user, "Bid 3", thread_id=tid)
        await bridge.catch_up()
        assert "✓ `Bid 3`" in h.chat.texts(tid) and "sent while I was offline" in h.chat.texts(tid)
        assert (await pending(bridge))["Player#3"] is True
        await bridge.close_client()

    asyncio.run(body())


def test_a_private_thread_deleted_while_the_bot_was_offline_is_forgotten_not_read_again_and_again(server, tmp_path):
    """A moderator deleted a player's private thread while the bot was offline: reading it back failed on every catch-up
    pass (every 30 s, a warning each time) until the bot next wrote to the player. The thread is forgotten at once, and
    the bot's next message to the player opens a new one."""
    h = setup(server, tmp_path, channel=CH + 11)
    user = user_of(CH + 11, 3)
    h.chat.closed.add(user)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await bridge.on_dm(h.chat.send(user, "Bid banana"))  # answered in a private thread opened for them
        (tid,) = h.chat.threads
        bridge.went_offline()
        h.chat.removed.add(tid)
        await bridge.catch_up()
        assert bridge.state.thread_owner(tid) is None and not bridge.catch_up_due
        reads = len(h.chat.reads)
        await bridge.catch_up()
        assert not any(thread == tid for *_, thread in h.chat.reads[reads:])  # not read again
        await bridge.on_dm(h.chat.send(user, "Bid 3"))
        new = bridge.state.thread("g", user)
        assert new not in (None, tid) and "✓ `Bid 3`" in h.chat.texts(new)
        await bridge.close_client()

    asyncio.run(body())


def test_a_live_dm_read_with_the_history_is_not_answered_as_sent_while_offline(server, tmp_path):
    """Discord has a live DM in the chat's history as it delivers it: a chat the bot has not read since it connected
    (a member the GM seated since then, or a DM just after a reconnect) is read back first, and that read finds the
    live DM itself. Its answer was headed "sent while I was offline, read now" although the bot was online."""
    h = setup(server, tmp_path, channel=CH + 9)
    newcomer, player = 778_001, user_of(CH + 9, 4)
    h.chat.roles[7] = {"GM"}

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await bridge.catch_up()  # on_ready: every player's chat read, the newcomer has none yet
        cmd = h.chat.command("seat", 7, CH + 9, seat="Player#2", agent=f"<@{newcomer}>")
        await bridge.on_command(cmd)
        assert "is played by" in cmd.reply.text(), cmd.reply.text()
        await bridge.on_dm(h.chat.send(newcomer, "Bid 2"))  # live, the bot online all along
        said = answers(h, newcomer)
        assert len(said) == 1 and "✓ `Bid 2`" in said[0] and "offline" not in said[0], said
        bridge.went_offline()
        h.chat.send(player, "Bid 4")  # while the gateway was down: said so
        await bridge.on_dm(h.chat.send(player, "Bid 3"))  # live, as the bot is back
        said = answers(h, player)
        assert len(said) == 2 and "sent while I was offline" in said[0] and "✓ `Bid 4`" in said[0], said
        assert "already stored" in said[1] and "offline" not in said[1], said
        await bridge.close_client()

    asyncio.run(body())


def test_a_dm_sent_while_the_startup_read_back_runs_is_not_answered_as_sent_while_offline(server, tmp_path):
    """The read-back on start reads one chat after another; a player who DMs live while it runs, before it reaches
    their chat, has that DM found in the history and answered there, and the answer was headed "sent while I was
    offline, read now" though the bot was online when it was sent. Only a DM sent before the read-back began is."""
    h = setup(server, tmp_path, channel=CH + 10, seats=3)
    early, late = user_of(CH + 10, 1), user_of(CH + 10, 2)
    live: list = []
    read = h.chat.history

    async def history(user_id, after, limit, thread_id=None):
        if user_id == late and not live:  # the player DMs as the read-back is under way
            live.append(h.chat.send(late, "Bid 2"))
        return await read(user_id, after, limit, thread_id)

    h.chat.history = history

    async def body():
        bridge = h.bridge()
        await bridge.start()
        h.chat.send(early, "Bid 1")  # before the bot is online: read back with the heading
        await asyncio.sleep(0.01)
        await bridge.catch_up()
        await bridge.on_dm(live[0])  # Discord delivers the live DM too: answered once
        said = answers(h, early)
        assert len(said) == 1 and "sent while I was offline" in said[0] and "✓ `Bid 1`" in said[0], said
        said = answers(h, late)
        assert len(said) == 1 and "✓ `Bid 2`" in said[0] and "offline" not in said[0], said
        await bridge.close_client()

    asyncio.run(body())


def as_older_bot(path) -> None:
    """The state file as a bot from before the read-back kept it: no ``read`` marks, no game's ``dm_from``."""
    data = json.loads(path.read_text())
    data.pop("read", None)
    for entry in data["games"].values():
        entry.pop("dm_from", None)
        entry.pop("read_from", None)
    path.write_text(json.dumps(data))


def test_dms_sent_during_the_restart_that_upgrades_an_older_bot_are_read_back(server, tmp_path):
    """An older bot's state has no ``read`` marks: the upgraded bot started reading at its own start, so every DM sent
    while the older bot was stopped for the upgrade was never read. It reads every DM since the last one the older bot
    recorded handling, stores none twice, and tells the GM what it read."""
    h = setup(server, tmp_path, channel=CH + 12)
    one, two = user_of(CH + 12, 1), user_of(CH + 12, 2)

    async def body():
        old = h.bridge()
        await old.start()
        await old.on_dm(h.chat.send(one, "Bid 1"))  # handled by the older bot (recorded as processed)
        await old.on_dm(h.chat.send(two, "Bid banana"))  # refused by it (recorded as refused)
        await old.close_client()  # stopped for the upgrade
        as_older_bot(tmp_path / "bot.json")
        h.chat.send(one, "Bid 5")  # during the restart
        h.chat.send(two, "Bid 2")
        await asyncio.sleep(0.01)
        new = h.bridge()
        await new.start()
        await new.catch_up()
        assert len(answers(h, one)) == 2 and "already stored" in answers(h, one)[1]  # its first DM not read again
        said = answers(h, two)
        assert len(said) == 2 and "✓ `Bid 2`" in said[1] and "sent while I was offline" in said[1], said
        assert (await pending(new))["Player#2"] is True
        note = h.chat.texts(CH + 12)
        assert "I was upgraded" in note and "since the last DM it handled" in note, note
        assert "1 from Player#1; 1 from Player#2" in note, note
        await new.catch_up()  # told once
        assert h.chat.texts(CH + 12).count("I was upgraded") == 1
        await new.close_client()

    asyncio.run(body())


def test_an_upgrade_with_no_dm_recorded_reads_back_since_the_step_opened(server, tmp_path):
    h = setup(server, tmp_path, channel=CH + 13)
    user = user_of(CH + 13, 3)

    async def body():
        old = h.bridge()
        await old.start()
        await old.close_client()
        h.chat.send(user, "Bid 9", at=time.time() - 3600)  # before the step opened: not read
        as_older_bot(tmp_path / "bot.json")
        h.chat.send(user, "Bid 3")  # during the restart
        new = h.bridge()
        await new.start()
        await new.catch_up()
        said = answers(h, user)
        assert len(said) == 1 and "✓ `Bid 3`" in said[0], said
        note = h.chat.texts(CH + 13)
        assert "since the step now open began" in note and "1 from Player#3" in note, note
        await new.close_client()

    asyncio.run(body())


@pytest.mark.parametrize("skew", [300.0, -300.0])
def test_a_host_clock_off_by_minutes_neither_drops_nor_reads_in_dms(server, tmp_path, skew):
    """The bot's host clock is five minutes ahead of Discord's (or behind). The read-back started where the game
    began by the host's clock, and told a DM sent while the bot was offline by comparing Discord's time with the
    host's: ahead, a DM sent in the game's first minutes while the bot was down was never read, and one sent live as
    the bot came back was headed as sent while it was offline; behind, a DM sent before the game began was read as
    its decision, and one sent while the bot was offline was not headed so. Both sides are on Discord's clock now."""
    channel = CH + (14 if skew > 0 else 15)
    h = setup(server, tmp_path, channel=channel, seats=3)
    h.clock = lambda: time.time() + skew
    early, late, live_user = (user_of(channel, n) for n in (1, 2, 3))
    h.chat.send(early, "Bid 9", at=time.time() - 60)  # before the game began: never read back
    live: list = []
    read = h.chat.history

    async def history(user_id, after, limit, thread_id=None):
        if user_id == live_user and live_user in reading and not live:  # DMs live as the read-back runs
            live.append(h.chat.send(live_user, "Bid 3"))
        return await read(user_id, after, limit, thread_id)

    h.chat.history = history
    reading: set[int] = set()

    async def body():
        first = h.bridge()
        await first.start()  # the game is made and announced
        await first.close_client()  # the bot goes down at once
        h.chat.send(late, "Bid 2")  # while it is down, a moment after the game began
        await asyncio.sleep(0.01)
        back = h.bridge()
        await back.start()
        reading.add(live_user)
        await back.catch_up()
        await back.on_dm(live[0])  # Discord delivers the live one too: answered once
        assert answers(h, early) == [], answers(h, early)
        said = answers(h, late)
        assert len(said) == 1 and "✓ `Bid 2`" in said[0] and "sent while I was offline" in said[0], said
        said = answers(h, live_user)
        assert len(said) == 1 and "✓ `Bid 3`" in said[0] and "offline" not in said[0], said
        assert await pending(back) == {"Player#1": False, "Player#2": True, "Player#3": True}
        await back.close_client()

    asyncio.run(body())


@pytest.mark.parametrize("case", ["announced", "older-state", "clock-corrected"])
@pytest.mark.parametrize("skew", [300.0, -300.0])
def test_a_dm_read_back_is_for_the_step_open_when_discord_says_it_was_sent(server, tmp_path, skew, case):
    """The host's clock (the bot's and the service's) is five minutes ahead of Discord's (or behind). Whether a DM read
    back came in before the step now open began compared its Discord time with the service's clock: ahead, an
    order sent a second after the orders step was announced was refused as sent before it; behind, a bid sent a
    second before the bid step was resolved was read as the orders step's. Both sides are on Discord's clock now: the
    step's start as told when it was announced, or, in a state without it (``older-state``), the service's time with
    the host clock's measured offset. ``clock-corrected``: the host's clock was set right before the bot restarted
    (and a post measured it so), while the service's start of the step open was taken on the old clock."""
    channel = CH + 19 + 2 * ["announced", "older-state", "clock-corrected"].index(case) + (0 if skew > 0 else 1)
    h = setup(server, tmp_path, channel=channel, seats=3)
    h.clock = lambda: time.time() + skew
    one, two, three = (user_of(channel, n) for n in (1, 2, 3))

    async def body():
        bot = h.bridge()
        on_host_clock(bot, skew)
        await bot.start()
        await bot.catch_up()
        await bot.on_dm(h.chat.send(one, "Bid 1"))
        bot.went_offline()  # the bot loses Discord's gateway (its posts still go out): DMs are read back later
        await asyncio.sleep(1.0)
        h.chat.send(two, "Bid 2")  # a second before the GM resolves the bid step
        await asyncio.sleep(1.0)
        await bot.rpc("game.advance", **bot._gm("g"), force=True, wait=True)
        await bot.sync()  # the orders step is announced
        await asyncio.sleep(1.0)
        orders = dm_text(await seat_view(bot, "g", "Player#3"), "Player#3")
        h.chat.send(three, orders)  # a second after it was announced
        await bot.close_client()
        state = State(tmp_path / "bot.json")
        if case == "older-state":  # a state without the announcement's id: an older bot's
            entry = state.game("g")
            assert entry.pop("step_post")["id"] is not None
            state.set_game("g", entry)
        if case == "clock-corrected":
            h.clock = time.time
            state.set_skew(0.0)
        back = h.bridge()  # the bot restarts and reads back
        on_host_clock(back, skew)
        await back.start()
        await back.catch_up()
        said = answers(h, two)
        assert len(said) == 1 and "Your DM came in before the orders step began" in said[0], said
        said = answers(h, three)
        assert len(said) == 1 and "**Stored** for Player#3 in g" in said[0], said
        assert await pending(back) == {"Player#1": False, "Player#2": False, "Player#3": True}
        await back.close_client()

    asyncio.run(body())


def test_a_slow_post_does_not_move_the_measured_clock(server, tmp_path):
    """A post that took long (discord.py waiting out a 429) brackets Discord's time loosely: it is not taken as the
    host clock's offset."""
    h = setup(server, tmp_path, channel=CH + 16)
    bridge = h.bridge()
    now = time.time()
    bridge.learn_clock(now - 0.1, now + 0.1, snowflake_at(now - 30))
    assert 29 < bridge.state.skew() < 31
    bridge.learn_clock(now, now + 12, snowflake_at(now))  # 12 s in discord.py's rate limit: no measure
    assert 29 < bridge.state.skew() < 31


def test_an_edit_made_while_the_bot_was_offline_to_a_dm_it_answered_is_seen(server, tmp_path):
    """Discord tells a bot of no edit it missed: a DM the bot had answered and the player edited while it was offline
    was never seen. The read-back reads the player's last answered DMs again: a stored one edited is told the edit
    changes nothing, a refused one edited is read again as the DM that came in then; each once."""
    h = setup(server, tmp_path, channel=CH + 17)
    one, two, three = (user_of(CH + 17, n) for n in (1, 2, 3))

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await bridge.catch_up()
        stored = h.chat.send(one, "Bid 2")
        refused = h.chat.send(two, "Bid banana")
        kept = h.chat.send(three, "Bid 3")
        for dm in (stored, refused, kept):
            await bridge.on_dm(dm)
        await bridge.close_client()  # the bot goes down
        h.chat.edit(stored, "Bid 5")
        h.chat.edit(refused, "Bid 4")
        back = h.bridge()
        await back.start()
        await back.catch_up()
        said = h.chat.dms[one][-1].text
        assert "was edited while I was offline" in said and "the edit changes nothing" in said, said
        assert "✓ `Bid 4`" in h.chat.last_dm(two), h.chat.last_dm(two)
        assert len(answers(h, three)) == 1  # not edited: nothing more
        view = await back.rpc("game.pending", **back._gm("g"), wait=True)
        assert {p["seat"]: p["submitted"] for p in view}["Player#2"] is True
        counts = {u: len(h.chat.dms[u]) for u in (one, two, three)}
        back.went_offline()
        await back.catch_up()  # read again: each edit answered once
        assert {u: len(h.chat.dms[u]) for u in (one, two, three)} == counts
        await back.close_client()

    asyncio.run(body())


def test_a_live_edit_in_a_chat_not_read_since_the_reconnect_is_not_headed_as_made_offline(server, tmp_path):
    h = setup(server, tmp_path, channel=CH + 18)
    user = user_of(CH + 18, 1)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await bridge.catch_up()
        stored = h.chat.send(user, "Bid 2")
        await bridge.on_dm(stored)
        bridge.went_offline()  # back at once; the player edits before any read-back
        await bridge.on_dm_edit(None, h.chat.edit(stored, "Bid 5"))
        said = h.chat.last_dm(user)
        assert "the edit changes nothing" in said and "offline" not in said, said
        assert sum("the edit changes nothing" in s.text for s in h.chat.dms[user]) == 1
        await bridge.close_client()

    asyncio.run(body())


def as_bot_without_fingerprints(path) -> None:
    """The state file as a bot from before the fingerprints (session 32) kept it: no words nor chat of a DM answered."""
    data = json.loads(path.read_text())
    for kind in ("processed", "refused"):
        for record in data[kind].values():
            record.pop("words", None)
            record.pop("chat", None)
    data.pop("printed", None)
    path.write_text(json.dumps(data))


def test_dms_an_older_bot_answered_are_fingerprinted_so_a_later_offline_edit_is_seen(server, tmp_path):
    """A bot before session 32 kept no fingerprint of the DMs it answered, so an edit made to one while the bot was
    offline went unseen for good. The upgraded bot's first read-back fingerprints them as they read then: an edit made
    while it is offline after that is answered as any (a refused DM fixed in place is read again and stored)."""
    h = setup(server, tmp_path, channel=CH + 27)
    one, two, three = (user_of(CH + 27, n) for n in (1, 2, 3))

    async def body():
        old = h.bridge()
        await old.start()
        await old.catch_up()
        stored = h.chat.send(one, "Bid 2")
        refused = h.chat.send(two, "Bid banana")
        kept = h.chat.send(three, "Bid banana")
        for dm in (stored, refused, kept):
            await old.on_dm(dm)
        await old.close_client()
        as_bot_without_fingerprints(tmp_path / "bot.json")
        upgraded = h.bridge()  # the upgrade's start: nothing edited yet
        await upgraded.start()
        await upgraded.catch_up()
        counts = {u: len(h.chat.dms[u]) for u in (one, two, three)}
        await upgraded.close_client()
        h.chat.edit(stored, "Bid 5")  # edited while the upgraded bot is down
        h.chat.edit(refused, "Bid 4")
        back = h.bridge()
        await back.start()
        await back.catch_up()
        said = h.chat.last_dm(one)
        assert "was edited while I was offline" in said and "the edit changes nothing" in said, said
        assert "✓ `Bid 4`" in h.chat.last_dm(two), h.chat.last_dm(two)
        assert len(h.chat.dms[three]) == counts[three]  # not edited: not answered again
        assert (await pending(back))["Player#2"] is True
        assert (await pending(back))["Player#3"] is False
        await back.close_client()

    asyncio.run(body())


def test_a_live_edit_of_a_dm_an_older_bot_answered_is_answered(server, tmp_path):
    h = setup(server, tmp_path, channel=CH + 28)
    user = user_of(CH + 28, 2)

    async def body():
        old = h.bridge()
        await old.start()
        await old.catch_up()
        refused = h.chat.send(user, "Bid banana")
        await old.on_dm(refused)
        await old.close_client()
        as_bot_without_fingerprints(tmp_path / "bot.json")
        upgraded = h.bridge()
        await upgraded.start()  # no read-back yet: the live edit makes the chat's
        await upgraded.on_dm_edit(None, h.chat.edit(refused, "Bid 4"))
        assert "✓ `Bid 4`" in h.chat.last_dm(user), h.chat.last_dm(user)
        assert (await pending(upgraded))["Player#2"] is True
        await upgraded.close_client()

    asyncio.run(body())


def test_an_upgrade_from_a_bot_that_kept_no_refusals_answers_its_last_refusals_again_and_stores_nothing_twice(
        server, tmp_path):
    """A known limit (docs/discord.md): a bot so old that its state has no ``refused`` map kept no record of the DMs it
    refused, so the upgrade's read-back, from the last DM it stored, answers one it refused after that a second time.
    What was stored stays stored once, and the refusal says the same."""
    h = setup(server, tmp_path, channel=CH + 29)
    one, two = user_of(CH + 29, 1), user_of(CH + 29, 2)

    async def body():
        old = h.bridge()
        await old.start()
        await old.on_dm(h.chat.send(one, "Bid 1"))
        await old.on_dm(h.chat.send(two, "Bid banana"))
        await old.close_client()
        as_older_bot(tmp_path / "bot.json")
        data = json.loads((tmp_path / "bot.json").read_text())
        del data["refused"]
        (tmp_path / "bot.json").write_text(json.dumps(data))
        new = h.bridge()
        await new.start()
        await new.catch_up()
        said = [s.text for s in h.chat.dms[two]]
        assert len(said) == 2 and "Nothing was stored" in said[1] and said[1].endswith(said[0]), said
        assert len(h.chat.dms[one]) == 1  # the DM it stored: not answered again
        assert await pending(new) == dict.fromkeys(("Player#1",), True) | dict.fromkeys(
            ("Player#2", "Player#3", "Player#4", "Player#5"), False)
        await new.close_client()

    asyncio.run(body())


def test_a_stored_dm_deleted_while_the_bot_was_offline_is_told_once(server, tmp_path):
    """Discord tells a bot of no deletion it missed: a player who deleted their stored DM while the bot was offline, to
    take it back, was never told it stands. The read-back finds it missing from the history and tells them as a live
    deletion is told, once; a refused DM deleted, or one whose deletion was told live, is not mentioned."""
    h = setup(server, tmp_path, channel=CH + 30)
    one, two, three = (user_of(CH + 30, n) for n in (1, 2, 3))

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await bridge.catch_up()
        stored, refused, live = h.chat.send(one, "Bid 2"), h.chat.send(two, "Bid banana"), h.chat.send(three, "Bid 3")
        for dm in (stored, refused, live):
            await bridge.on_dm(dm)
        h.chat.delete(live)
        await bridge.on_dm_delete(live.message_id, three)  # told live
        await bridge.close_client()  # the bot goes down
        h.chat.delete(stored)
        h.chat.delete(refused)
        counts = {u: len(h.chat.dms[u]) for u in (one, two, three)}
        back = h.bridge()
        await back.start()
        await back.catch_up()
        said = h.chat.last_dm(one)
        assert "You deleted your DM of <t:" in said and "while I was offline" in said, said
        assert "deleting it changes nothing" in said
        assert {u: len(h.chat.dms[u]) for u in (one, two, three)} == {**counts, one: counts[one] + 1}
        assert (await pending(back))["Player#1"] is True  # it stands
        back.went_offline()
        await back.catch_up()  # read again: told once
        assert len(h.chat.dms[one]) == counts[one] + 1
        await back.close_client()

    asyncio.run(body())
