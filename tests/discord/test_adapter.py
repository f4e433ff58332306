"""The discord.py adapter, offline: the command tree Discord is told about, and the mapping of
discord.py's own objects (spec'd mocks of its classes) to the bridge's chat interface.

What only a live server shows (docs/discord.md): that Discord accepts the tree, the gateway
delivers DMs with the intents, the real 50007 error and thread permissions.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from unittest.mock import AsyncMock, MagicMock

import pytest

discord = pytest.importorskip("discord")  # the discord extra; `make setup` installs it

import aiohttp  # noqa: E402  (discord.py's own dependency)
from discord import app_commands  # noqa: E402

from service.discord import adapter  # noqa: E402
from service.discord.bridge import Bridge  # noqa: E402
from service.discord.chat import ChannelGone, DeliveryFailed, DmClosed, File  # noqa: E402
from service.discord.config import parse  # noqa: E402
from service.discord.state import State  # noqa: E402

GUILD, CHANNEL, GM_ID, PLAYER_ID = 11, 22, 33, 44
OPTION_TYPES = {3: "string", 4: "integer", 5: "boolean", 10: "number", 11: "attachment"}


def tree_dict():
    client = discord.Client(intents=adapter.intents())
    tree = app_commands.CommandTree(client)
    group = adapter.build_group(MagicMock(spec=Bridge), MagicMock(spec=adapter.DiscordChat))
    tree.add_command(group, guild=discord.Object(id=GUILD))
    assert tree.get_commands(guild=discord.Object(id=GUILD)) == [group]
    return group.to_dict(tree)


def flatten(d, prefix=""):
    """{"deadline extend": {option: (type, required)}} for every leaf command."""
    out = {}
    for opt in d["options"]:
        if opt["type"] in (1, 2):
            name = f"{prefix}{opt['name']}"
            if opt["type"] == 2:
                out.update(flatten(opt, name + " "))
            else:
                out[name] = {o["name"]: (OPTION_TYPES[o["type"]], o.get("required", False)) for o in opt["options"]}
    return out


def test_the_command_tree_names_options_and_permissions():
    d = tree_dict()
    assert d["name"] == "regent" and d["dm_permission"] is False  # server channels only, never in DMs
    assert d["default_member_permissions"] is None  # visible to all: the bridge refuses non-GMs with a reason
    assert flatten(d) == {
        "status": {}, "advance": {"force": ("boolean", False)},
        "seat": {"seat": ("string", True), "agent": ("string", True)},
        "deadline extend": {"hours": ("number", True)}, "deadline pause": {}, "deadline resume": {},
        "undo": {}, "report": {"turn": ("integer", False)},
        "board": {"turn": ("integer", False), "focus": ("string", False), "radius": ("integer", False)}, "export": {},
        "notes": {},
        "npr invasions": {"world": ("attachment", True), "seed": ("integer", False)},
        "npn plan": {"world": ("attachment", True), "nation": ("string", True), "turn": ("integer", False),
                     "seed": ("integer", False)},
    }


def test_intents_cover_dms_and_their_text():
    i = adapter.intents()
    assert i.dm_messages and i.message_content and i.guild_messages and not i.members  # no privileged members


def member(user_id, *roles):
    m = MagicMock(spec=discord.Member)
    m.id, m.bot = user_id, False
    m.roles = []
    for n, name in enumerate(roles):
        r = MagicMock(spec=discord.Role)
        r.name, r.id = name, 1000 + n
        m.roles.append(r)
    return m


def message(channel, author_id=PLAYER_ID, bot=False, content="Bid 3", mid=99):
    msg = MagicMock(spec=discord.Message)
    msg.author = MagicMock(spec=discord.User)
    msg.author.id, msg.author.bot = author_id, bot
    msg.channel, msg.content, msg.id = channel, content, mid
    return msg


def test_messages_map_to_direct_messages(tmp_path):
    state = State(tmp_path / "s.json")
    state.set_thread("g", PLAYER_ID, 555)
    dm = adapter.to_direct_message(message(MagicMock(spec=discord.DMChannel)), state)
    assert (dm.message_id, dm.user_id, dm.text, dm.thread_id) == (99, PLAYER_ID, "Bid 3", None)
    assert adapter.to_direct_message(message(MagicMock(spec=discord.DMChannel), bot=True), state) is None
    assert adapter.to_direct_message(message(MagicMock(spec=discord.TextChannel)), state) is None  # channel chat
    thread = MagicMock(spec=discord.Thread)
    thread.id = 555
    assert adapter.to_direct_message(message(thread), state).thread_id == 555
    other = MagicMock(spec=discord.Thread)
    other.id = 556
    assert adapter.to_direct_message(message(other), state) is None


def interaction(user, channel_id=CHANNEL):
    it = MagicMock(spec=discord.Interaction)
    it.user, it.channel_id = user, channel_id
    it.response = MagicMock(spec=discord.InteractionResponse)
    done = {"v": False}

    async def ack(*a, **k):
        done["v"] = True

    it.response.defer = AsyncMock(side_effect=ack)
    it.response.send_message = AsyncMock(side_effect=ack)
    it.response.is_done = MagicMock(side_effect=lambda: done["v"])
    it.followup = MagicMock(spec=discord.Webhook)
    it.followup.send = AsyncMock()
    return it


def bridge_on_mocks(tmp_path):
    config = parse({"guild": GUILD, "gm_role": "GM", "state": str(tmp_path / "s.json"),
                    "games": {"g": {"channel": 999, "seats": {"Player#1": {"user": PLAYER_ID}}}}})
    chat = adapter.DiscordChat(MagicMock(spec=discord.Client), GUILD)

    async def no_service():
        raise AssertionError("a refused command must not reach the service")

    return Bridge(config, chat, State(config.state), connect=no_service), chat


def leaf(group, path):
    cmd = group
    for part in path.split():
        cmd = next(c for c in cmd.commands if c.name == part)
    return cmd


def test_a_player_is_refused_privately_and_a_gm_is_deferred_then_answered(tmp_path):
    bridge, chat = bridge_on_mocks(tmp_path)
    group = adapter.build_group(bridge, chat)

    async def body():
        it = interaction(member(PLAYER_ID, "Player"))
        await leaf(group, "advance").callback(it, force=True)
        it.response.send_message.assert_awaited_once()
        kwargs = it.response.send_message.await_args.kwargs
        assert kwargs["ephemeral"] is True and "Only the GM" in kwargs["content"]
        it.response.defer.assert_not_awaited()
        # the GM, in a channel with no game: deferred at once (thinking), then a follow-up says why, to the GM alone
        # (the bot posts what the command changes in the channel itself)
        it = interaction(member(GM_ID, "GM"))
        await leaf(group, "deadline extend").callback(it, hours=2.0)
        it.response.defer.assert_awaited_once_with(ephemeral=True, thinking=True)
        it.followup.send.assert_awaited_once()
        assert "no Regent game" in it.followup.send.await_args.kwargs["content"]
        assert it.followup.send.await_args.kwargs["ephemeral"] is True  # a follow-up is private too
        # the public report of a turn is for the channel
        it = interaction(member(GM_ID, "GM"))
        await leaf(group, "report").callback(it, turn=1)
        it.response.defer.assert_awaited_once_with(ephemeral=False, thinking=True)
        # export is deferred privately (the game file holds every secret)
        it = interaction(member(GM_ID, "GM"))
        await leaf(group, "export").callback(it)
        it.response.defer.assert_awaited_once_with(ephemeral=True, thinking=True)
        it = interaction(member(GM_ID, "GM"))  # so are the players' notes to the GM
        await leaf(group, "notes").callback(it)
        it.response.defer.assert_awaited_once_with(ephemeral=True, thinking=True)

    asyncio.run(body())


def test_a_command_carries_its_options_and_attachments(tmp_path):
    seen = []

    class Recorder:
        async def on_command(self, cmd):
            seen.append(cmd)

    group = adapter.build_group(Recorder(), adapter.DiscordChat(MagicMock(spec=discord.Client), GUILD))
    world = MagicMock(spec=discord.Attachment)
    world.filename = "world.json"
    world.read = AsyncMock(return_value=b'{"realms": {}}')

    async def body():
        await leaf(group, "npn plan").callback(interaction(member(GM_ID, "GM")), world=world, nation="Spain",
                                               turn=None, seed=4)
        await leaf(group, "seat").callback(interaction(member(GM_ID, "GM")), seat="Player#2", agent="hard")

    asyncio.run(body())
    plan, seat = seen
    assert plan.name == "npn plan" and plan.options == {"nation": "Spain", "seed": 4}  # unset options left out
    assert plan.files == [File("world.json", b'{"realms": {}}')] and plan.channel_id == CHANNEL
    assert seat.name == "seat" and seat.options == {"seat": "Player#2", "agent": "hard"} and seat.user_id == GM_ID


def forbidden():
    response = MagicMock()
    response.status, response.reason = 403, "Forbidden"
    return discord.Forbidden(response, {"code": 50007, "message": "Cannot send messages to this user"})


def test_the_chat_calls_discord_py(tmp_path):
    client = MagicMock(spec=discord.Client)
    chat = adapter.DiscordChat(client, GUILD)
    user = MagicMock(spec=discord.User)
    user.send = AsyncMock(side_effect=forbidden())
    client.get_user.return_value = user
    channel = MagicMock(spec=discord.TextChannel)
    thread = MagicMock(spec=discord.Thread)
    thread.id = 4242
    channel.create_thread = AsyncMock(return_value=thread)
    client.get_channel.return_value = channel
    guild = MagicMock(spec=discord.Guild)
    guild.get_member.return_value = member(GM_ID, "GM")
    client.get_guild.return_value = guild

    async def body():
        with pytest.raises(DmClosed):
            await chat.send_dm(PLAYER_ID, "hello")
        await chat.post(CHANNEL, "", File("board.png", b"\x89PNG"))
        kwargs = channel.send.await_args.kwargs
        assert kwargs["content"] is None and kwargs["file"].filename == "board.png"
        channel.send.return_value = MagicMock(spec=discord.Message, id=1_234_567)
        assert await chat.post(CHANNEL, "hello") == 1_234_567  # its id: Discord's clock, for the bridge
        assert await chat.open_private_thread(CHANNEL, PLAYER_ID, "regent Player#1") == 4242
        assert channel.create_thread.await_args.kwargs["type"] == discord.ChannelType.private_thread
        assert channel.create_thread.await_args.kwargs["invitable"] is False
        thread.add_user.assert_awaited_once()
        assert await chat.has_role(GM_ID, "GM") and not await chat.has_role(GM_ID, "Admin")
        assert await chat.has_role(GM_ID, "1000")  # a role id works too

    asyncio.run(body())


def http_error(kind, status, code, message):
    response = MagicMock()
    response.status, response.reason = status, message
    return kind(response, {"code": code, "message": message})


@pytest.mark.parametrize("error, gone", [
    (lambda: http_error(discord.NotFound, 404, 10003, "Unknown Channel"), True),  # deleted
    (lambda: http_error(discord.Forbidden, 403, 50083, "Thread is archived"), True),  # locked (and archived)
    (lambda: http_error(discord.Forbidden, 403, 50001, "Missing Access"), True),
    (lambda: http_error(discord.HTTPException, 400, 160005, "Thread is locked"), True),
    (lambda: http_error(discord.DiscordServerError, 503, 0, "Service Unavailable"), False),  # passes
    (lambda: aiohttp.ClientOSError(104, "Connection reset by peer"), False),  # the connection lost: passes too
    (lambda: aiohttp.ServerDisconnectedError(), False),
    (lambda: TimeoutError(), False),
])
def test_a_post_in_a_thread_deleted_or_locked_is_gone_and_a_server_error_is_not(error, gone):
    client = MagicMock(spec=discord.Client)
    chat = adapter.DiscordChat(client, GUILD)
    thread = MagicMock(spec=discord.Thread)
    thread.send = AsyncMock(side_effect=error())
    client.get_channel.return_value = thread

    async def body():
        with pytest.raises(DeliveryFailed) as failed:
            await chat.post(4242, "hello")
        assert isinstance(failed.value, ChannelGone) is gone, failed.value

    asyncio.run(body())


def test_regent_discord_run_needs_a_token(tmp_path, monkeypatch, capsys):
    from service.cli import main

    path = Path(tmp_path / "d.toml")
    assert main(["discord", "init", str(path)]) == 0
    monkeypatch.delenv("REGENT_DISCORD_TOKEN", raising=False)
    assert main(["discord", "run", "--config", str(path)]) == 2
    assert "REGENT_DISCORD_TOKEN" in capsys.readouterr().err


@pytest.mark.parametrize("error, message", [
    (lambda: discord.LoginFailure("Improper token has been passed."), "refused the bot token"),
    (lambda: discord.PrivilegedIntentsRequired(None), "Message Content intent"),
    (lambda: OSError("Name or service not known"), "cannot reach Discord"),
])
def test_run_turns_discord_failures_into_one_line(tmp_path, monkeypatch, error, message):
    config = parse({"guild": GUILD, "gm_role": "GM", "state": str(tmp_path / "s.json"),
                    "games": {"g": {"channel": 999, "seats": {"Player#1": {"user": PLAYER_ID}}}}})

    def fail(self, *a, **k):
        raise error()

    monkeypatch.setattr(adapter.RegentBot, "run", fail)
    with pytest.raises(ValueError, match=message):
        adapter.run(config, "token")


def test_a_configured_game_refused_for_good_stops_the_bot_with_its_line(tmp_path, monkeypatch):
    from service.discord.bridge import ConfigRefused

    config = parse({"guild": GUILD, "gm_role": "GM", "state": str(tmp_path / "s.json"),
                    "games": {"g": {"channel": 999, "seats": {"Player#1": {"user": PLAYER_ID}}}}})
    line = "d.toml: games.g: refused by the service (invalid_params: players: team games need teams of the same size)"

    async def body():
        bot = adapter.RegentBot(config)
        bot.bridge.start = AsyncMock(side_effect=ConfigRefused(line))
        bot.close = AsyncMock()
        await bot.on_ready()
        bot._ticker.cancel()
        assert bot.fatal == line
        bot.close.assert_awaited_once()  # not the log line and a retry every 30 s

    async def later():  # the service was down at the start and refuses once it answers
        bot = adapter.RegentBot(config)
        bot.bridge.tick = AsyncMock(side_effect=[None, ConfigRefused(line)])
        bot.close = AsyncMock()
        await asyncio.wait_for(bot._tick(), 5)  # returns: no more ticks
        assert bot.fatal == line and bot.bridge.tick.await_count == 2
        bot.close.assert_awaited_once()

    asyncio.run(body())
    monkeypatch.setattr(adapter, "TICK_SECONDS", 0)
    asyncio.run(later())

    def stopped(self, *a, **k):
        self.fatal = line  # what stop() leaves once discord.py's run returns

    monkeypatch.setattr(adapter.RegentBot, "run", stopped)
    with pytest.raises(ValueError, match=r"^d\.toml: games\.g: refused by the service"):
        adapter.run(config, "token")


def test_an_edited_dm_reaches_the_bridge_with_its_words_before_the_edit(tmp_path):
    config = parse({"guild": GUILD, "gm_role": "GM", "state": str(tmp_path / "s.json"),
                    "games": {"g": {"channel": 999, "seats": {"Player#1": {"user": PLAYER_ID}}}}})

    async def body():
        bot = adapter.RegentBot(config)
        bot.bridge.on_dm_edit = AsyncMock()
        channel = MagicMock(spec=discord.DMChannel)
        raw = MagicMock(spec=discord.RawMessageUpdateEvent)
        raw.message, raw.cached_message = message(channel, content="Bid 4"), message(channel, content="Bid 3")
        await bot.on_raw_message_edit(raw)
        before, dm = bot.bridge.on_dm_edit.await_args.args
        assert (before, dm.message_id, dm.user_id, dm.text) == ("Bid 3", 99, PLAYER_ID, "Bid 4")
        raw.message = message(MagicMock(spec=discord.TextChannel), content="x")  # channel chat: not a player's DM
        await bot.on_raw_message_edit(raw)
        assert bot.bridge.on_dm_edit.await_count == 1
        await bot.close()

    asyncio.run(body())


def test_an_edit_of_a_dm_discord_py_does_not_keep_reaches_the_bridge_once_and_previews_do_not(tmp_path):
    import datetime

    config = parse({"guild": GUILD, "gm_role": "GM", "state": str(tmp_path / "s.json"),
                    "games": {"g": {"channel": 999, "seats": {"Player#1": {"user": PLAYER_ID}}}}})

    def update(after, cached=None):
        payload = MagicMock(spec=discord.RawMessageUpdateEvent)
        payload.message, payload.cached_message = after, cached
        return payload

    async def body():
        bot = adapter.RegentBot(config)
        bot.bridge.on_dm_edit = AsyncMock()
        channel = MagicMock(spec=discord.DMChannel)
        preview = message(channel, content="Bid 4", mid=7)
        preview.edited_at = None  # sent before the bot started, a link preview added: no edit
        await bot.on_raw_message_edit(update(preview))
        assert bot.bridge.on_dm_edit.await_count == 0
        edited = message(channel, content="Bid 5", mid=7)
        edited.edited_at = datetime.datetime(2026, 11, 28, 12, 0, tzinfo=datetime.UTC)
        await bot.on_raw_message_edit(update(edited))
        before, dm = bot.bridge.on_dm_edit.await_args.args
        assert (before, dm.message_id, dm.text, bot.bridge.on_dm_edit.await_count) == (None, 7, "Bid 5", 1)
        await bot.on_raw_message_edit(update(edited))  # the edited words' link preview: the same edit time
        assert bot.bridge.on_dm_edit.await_count == 1
        await bot.close()

    asyncio.run(body())


def test_a_deleted_dm_the_bot_answered_reaches_the_bridge_with_its_player(tmp_path):
    config = parse({"guild": GUILD, "gm_role": "GM", "state": str(tmp_path / "s.json"),
                    "games": {"g": {"channel": 999, "seats": {"Player#1": {"user": PLAYER_ID}}}}})

    def deleted(mid, channel_id, guild_id=None, cached=None):
        payload = MagicMock(spec=discord.RawMessageDeleteEvent)
        payload.message_id, payload.channel_id, payload.guild_id, payload.cached_message = (
            mid, channel_id, guild_id, cached)
        return payload

    async def body():
        bot = adapter.RegentBot(config)
        bot.bridge.on_dm_delete = AsyncMock()
        for mid in (7, 8, 9):
            bot.bridge.state.mark_processed(mid, {"game": "g", "at": 0})
        bot.bridge.state.set_thread("g", PLAYER_ID, 555)
        dm_channel = MagicMock(spec=discord.DMChannel)
        dm_channel.recipient = MagicMock(spec=discord.User)
        dm_channel.recipient.id = PLAYER_ID
        bot.get_channel = MagicMock(return_value=dm_channel)
        await bot.on_raw_message_delete(deleted(7, 321, cached=message(dm_channel, mid=7)))  # kept by discord.py
        await bot.on_raw_message_delete(deleted(8, 321))  # sent before the bot started: the DM channel's recipient
        await bot.on_raw_message_delete(deleted(9, 555, guild_id=GUILD))  # in the player's private thread
        assert [c.args for c in bot.bridge.on_dm_delete.await_args_list] == [
            (7, PLAYER_ID, None), (8, PLAYER_ID, None), (9, PLAYER_ID, 555)]
        await bot.on_raw_message_delete(deleted(10, 321))  # nothing of it stored
        await bot.on_raw_message_delete(deleted(7, 999, guild_id=GUILD))  # a server channel's message
        assert bot.bridge.on_dm_delete.await_count == 3
        await bot.close()

    asyncio.run(body())


def test_history_reads_a_players_messages_after_the_mark_oldest_first(tmp_path):
    import datetime

    client = MagicMock(spec=discord.Client)
    chat = adapter.DiscordChat(client, GUILD)
    user = MagicMock(spec=discord.User)
    user.dm_channel = None  # no DM channel cached since the start: it is opened (create_dm)
    dm_channel = MagicMock(spec=discord.DMChannel)
    user.create_dm = AsyncMock(return_value=dm_channel)
    client.get_user.return_value = user
    sent = datetime.datetime(2026, 5, 1, 12, 0, tzinfo=datetime.UTC)
    kept = [message(dm_channel, content="Bid 3", mid=101), message(dm_channel, author_id=1, bot=True, mid=102),
            message(dm_channel, content="Bid 4", mid=103), message(dm_channel, content="Bid 5", mid=104)]
    for m in kept:
        m.created_at = sent
    calls = []

    def history(**kwargs):
        calls.append(kwargs)

        async def gen():
            for m in kept:
                yield m
        return gen()

    dm_channel.history = MagicMock(side_effect=history)

    async def body():
        missed = await chat.history(PLAYER_ID, 100, 5)
        assert [(d.message_id, d.text, d.created) for d in missed.messages] == [
            (101, "Bid 3", sent.timestamp()), (103, "Bid 4", sent.timestamp()), (104, "Bid 5", sent.timestamp())]
        assert (missed.last, missed.more) == (104, False)
        assert calls[0]["after"].id == 100 and calls[0]["oldest_first"] is True
        user.create_dm.assert_awaited_once()
        bounded = await chat.history(PLAYER_ID, 100, 2)  # the bot's own answer does not count to the limit
        assert [d.message_id for d in bounded.messages] == [101, 103] and (bounded.last, bounded.more) == (103, True)
        dm_channel.history = MagicMock(side_effect=discord.HTTPException(MagicMock(status=503, reason="down"), "x"))
        with pytest.raises(adapter.DeliveryFailed):
            await chat.history(PLAYER_ID, 100, 5)
        dm_channel.history = MagicMock(side_effect=aiohttp.ServerDisconnectedError())  # not an HTTPException
        with pytest.raises(adapter.DeliveryFailed):
            await chat.history(PLAYER_ID, 100, 5)

    asyncio.run(body())


def test_a_message_in_a_game_channel_or_a_thread_of_it_goes_to_the_bridge(tmp_path):
    config = parse({"guild": GUILD, "gm_role": "GM", "state": str(tmp_path / "s.json"),
                    "games": {"g": {"channel": 999, "seats": {"Player#1": {"user": PLAYER_ID}}}}})

    async def body():
        bot = adapter.RegentBot(config)
        bot.bridge.on_dm = AsyncMock()
        bot.bridge.on_channel_message = AsyncMock()
        game = MagicMock(spec=discord.TextChannel)
        game.id = 999
        await bot.on_message(message(game, content="Bid 3"))
        bot.bridge.on_channel_message.assert_awaited_once_with(PLAYER_ID, 999, "Bid 3")
        thread = MagicMock(spec=discord.Thread)  # a public thread of the game's channel
        thread.id, thread.parent_id = 7777, 999
        await bot.on_message(message(thread, content="none"))
        assert bot.bridge.on_channel_message.await_args.args == (PLAYER_ID, 999, "none")
        other = MagicMock(spec=discord.TextChannel)  # another channel, a bot's message: nothing
        other.id = 1000
        await bot.on_message(message(other))
        await bot.on_message(message(game, bot=True))
        assert bot.bridge.on_channel_message.await_count == 2 and bot.bridge.on_dm.await_count == 0
        await bot.close()

    asyncio.run(body())


def test_the_bot_reads_back_missed_dms_when_ready_and_resumed_and_forgets_what_it_read_when_disconnected(tmp_path):
    config = parse({"guild": GUILD, "gm_role": "GM", "state": str(tmp_path / "s.json"),
                    "games": {"g": {"channel": 999, "seats": {"Player#1": {"user": PLAYER_ID}}}}})

    async def body():
        bot = adapter.RegentBot(config)
        bot.bridge.start = AsyncMock()
        bot.bridge.catch_up = AsyncMock()
        await bot.on_ready()
        bot._ticker.cancel()
        assert bot.bridge.start.await_count == 1 and bot.bridge.catch_up.await_count == 1
        assert bot.bridge._online_since is not None  # a DM sent from then on is live, read back or not
        bot.bridge._live_ok.add(f"dm:{PLAYER_ID}")
        await bot.on_disconnect()
        assert not bot.bridge._live_ok and bot.bridge.catch_up_due and bot.bridge._online_since is None
        await bot.on_resumed()
        assert bot.bridge._online_since is not None
        await bot.on_ready()  # a new session: the games are not started twice
        assert bot.bridge.start.await_count == 1 and bot.bridge.catch_up.await_count == 3
        bot.bridge.catch_up = AsyncMock(side_effect=RuntimeError("boom"))
        bot.bridge.catch_up_due = False
        await bot.on_resumed()  # logged; the tick tries again
        assert bot.bridge.catch_up_due
        dm = adapter.to_direct_message(message(MagicMock(spec=discord.DMChannel)), bot.bridge.state)
        assert dm.created is None  # a mock's created_at is no time
        await bot.close()

    asyncio.run(body())


def test_a_dm_whose_connection_is_lost_is_a_delivery_failure():
    """discord.py raises a lost connection (aiohttp's errors, a timeout) as it is, not as an HTTPException: it went past
    the bridge's handling of a failed delivery, and stopped the answers, summaries and read-backs after it."""
    client = MagicMock(spec=discord.Client)
    chat = adapter.DiscordChat(client, GUILD)
    user = MagicMock(spec=discord.User)
    user.send = AsyncMock(side_effect=aiohttp.ServerDisconnectedError())
    client.get_user.return_value = user

    async def body():
        with pytest.raises(DeliveryFailed):
            await chat.send_dm(PLAYER_ID, "hello")

    asyncio.run(body())
