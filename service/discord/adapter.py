"""discord.py mapped onto the bridge's chat interface (needs the ``discord`` extra: ``pip install 'regent[discord]'``).

- :class:`DiscordChat` implements ``chat.Chat`` with discord.py calls (a DM refused with
  ``Forbidden`` becomes ``DmClosed``, a post in a channel or thread deleted or closed to the bot ``ChannelGone``
  (:func:`gone`), any other Discord HTTP error ``DeliveryFailed``);
- :func:`to_direct_message` turns a ``discord.Message`` into a ``DirectMessage`` (a DM, or a message in
  a private thread the bot opened for a player), or ``None`` for anything else;
- :func:`build_group` builds the ``/regent`` slash commands, each turned into a ``chat.Command`` for
  the bridge, with an :class:`InteractionReply` that defers or answers the interaction;
- :meth:`DiscordChat.history` reads back a player's messages sent while the bot was offline (Discord replays none
  of them): on start and on every reconnect (``on_ready``, ``on_resumed``) the bridge reads each player's DM channel
  and private thread after the last message it handled (``Bridge.catch_up``);
- :func:`run` starts the bot: intents, command sync for the configured server, a tick every
  ``TICK_SECONDS`` for reminders and steps resolved by AI seats or expiry.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import io
import logging
from typing import Any

import aiohttp
import discord
from discord import app_commands

from service.client import ServiceError
from service.discord.bridge import Bridge, ConfigRefused, ServiceDown
from service.discord.chat import ChannelGone, Command, DeliveryFailed, DirectMessage, DmClosed, File, Missed
from service.discord.config import Config
from service.discord.state import State

log = logging.getLogger("regent.discord")
TICK_SECONDS = 30.0
# messages looked at in one history read, the bot's own answers and summaries included: a player's messages beyond
# them are read on the next pass
MAX_SCAN = 1000
# edits of DMs discord.py does not keep, remembered by their edit time so a link preview added later is no new edit
EDITS_KEPT = 1000
# Discord's error codes for a thread no one without Manage Threads may post in: archived (and locked), locked
THREAD_CLOSED = {50083, 160005}
# a request that never got Discord's answer (the connection reset or dropped, a timeout): discord.py raises these
# as they are, beside its HTTPException; a passing failure like a 5xx
LOST = (OSError, aiohttp.ClientError, asyncio.TimeoutError)


def intents() -> discord.Intents:
    """DMs and their text (message content is a privileged intent: switch it on in the developer portal)."""
    out = discord.Intents.default()
    out.dm_messages = True
    out.guild_messages = True  # messages in the private threads opened for players with closed DMs
    out.message_content = True
    return out


def _file(f: File | None) -> discord.File | None:
    return None if f is None else discord.File(io.BytesIO(f.data), filename=f.name)


def _send_kwargs(text: str, file: File | None) -> dict[str, Any]:
    out: dict[str, Any] = {"content": text or None}
    if file is not None:
        out["file"] = _file(file)
    return out


class DiscordChat:
    """The chat interface on a connected ``discord.Client``."""

    def __init__(self, client: discord.Client, guild_id: int):
        self.client = client
        self.guild_id = guild_id
        self.roles: dict[int, set[str]] = {}  # from the last interaction of each member (no API call)

    async def _channel(self, channel_id: int) -> Any:
        return self.client.get_channel(channel_id) or await self.client.fetch_channel(channel_id)

    async def send_dm(self, user_id: int, text: str, file: File | None = None) -> None:
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            await user.send(**_send_kwargs(text, file))
        except discord.Forbidden as err:  # 50007: cannot send messages to this user
            raise DmClosed(user_id) from err
        except discord.HTTPException as err:  # NotFound, a 5xx: not the user's choice (discord.py retries 429s)
            raise DeliveryFailed(f"DM to {user_id}: {err}") from err
        except LOST as err:
            raise DeliveryFailed(f"DM to {user_id}: connection lost ({err!r})") from err

    async def post(self, channel_id: int, text: str, file: File | None = None) -> int | None:
        try:
            channel = await self._channel(channel_id)
            message = await channel.send(**_send_kwargs(text, file))
        except discord.HTTPException as err:
            if gone(err):
                raise ChannelGone(f"post in {channel_id}: {err}") from err
            raise DeliveryFailed(f"post in {channel_id}: {err}") from err
        except LOST as err:
            raise DeliveryFailed(f"post in {channel_id}: connection lost ({err!r})") from err
        posted = getattr(message, "id", None)
        return posted if isinstance(posted, int) else None

    async def open_private_thread(self, channel_id: int, user_id: int, name: str) -> int:
        try:
            channel = await self._channel(channel_id)
            thread = await channel.create_thread(name=name[:100], type=discord.ChannelType.private_thread,
                                                 invitable=False)
        except (discord.HTTPException, *LOST) as err:
            raise DeliveryFailed(f"private thread in {channel_id} for {user_id}: {err!r}") from err
        try:
            await thread.add_user(discord.Object(id=user_id))
        except discord.HTTPException as err:  # a member who left the server: no empty thread is left behind
            with contextlib.suppress(discord.HTTPException):
                await thread.delete()
            raise DeliveryFailed(f"private thread in {channel_id} for {user_id}: {err}") from err
        return thread.id

    async def has_role(self, user_id: int, role: str) -> bool:
        names = self.roles.get(user_id)
        if names is None:
            guild = self.client.get_guild(self.guild_id) or await self.client.fetch_guild(self.guild_id)
            member = guild.get_member(user_id) or await guild.fetch_member(user_id)
            names = role_names(member)
        return role in names

    async def history(self, user_id: int, after: int, limit: int, thread_id: int | None = None) -> Missed:
        """The player's messages after the message id ``after`` in their DM channel (or the private thread
        ``thread_id``), oldest first, at most ``limit`` (``Messageable.history`` with ``after``: oldest first)."""
        out: list[DirectMessage] = []
        last: int | None = None
        try:
            if thread_id is not None:
                channel = await self._channel(thread_id)
            else:
                user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
                channel = user.dm_channel or await user.create_dm()
            scanned = 0
            async for message in channel.history(limit=None, after=discord.Object(id=after), oldest_first=True):
                if not message.author.bot:
                    if len(out) == limit:
                        return Missed(out, last, True)
                    out.append(DirectMessage(message_id=message.id, user_id=message.author.id,
                                             text=message.content or "", user_name=str(message.author),
                                             thread_id=thread_id, created=sent_at(message)))
                last = message.id
                scanned += 1
                if scanned >= MAX_SCAN:
                    return Missed(out, last, True)
        except discord.HTTPException as err:  # a 5xx: read again on the next pass
            if thread_id is not None and gone(err):  # the private thread deleted or closed to the bot: for good
                raise ChannelGone(f"history of {user_id} (thread {thread_id}): {err}") from err
            raise DeliveryFailed(f"history of {user_id} ({thread_id or 'DMs'}): {err}") from err
        except LOST as err:  # read again on the next pass; a live DM waiting on it is answered meanwhile
            raise DeliveryFailed(f"history of {user_id} ({thread_id or 'DMs'}): connection lost ({err!r})") from err
        return Missed(out, last, False)

    def remember(self, user: Any) -> None:
        """Keep the roles an interaction's member carries, so the GM check needs no API call."""
        if isinstance(user, discord.Member):
            self.roles[user.id] = role_names(user)


def gone(err: discord.HTTPException) -> bool:
    """Whether a post failed for good: the channel or thread deleted (404 Not Found), or closed to the bot (403
    Forbidden: a thread locked, or archived and locked, answers 50083; access or permission taken away), or a thread
    locked answered with another status (160005); a 5xx or a lost connection may pass."""
    return isinstance(err, discord.NotFound | discord.Forbidden) or err.code in THREAD_CLOSED


def role_names(member: Any) -> set[str]:
    """A member's roles by name and by id (discord.toml's gm_role may be either)."""
    return {r.name for r in member.roles} | {str(r.id) for r in member.roles}


def to_direct_message(message: discord.Message, state: State) -> DirectMessage | None:
    """A player's message for the bridge: a DM, or a message in a private thread it opened; else None."""
    if message.author.bot:
        return None
    thread_id = None
    if isinstance(message.channel, discord.DMChannel):
        pass
    elif isinstance(message.channel, discord.Thread) and state.thread_owner(message.channel.id) is not None:
        thread_id = message.channel.id
    else:
        return None
    return DirectMessage(message_id=message.id, user_id=message.author.id, text=message.content or "",
                         user_name=str(message.author), thread_id=thread_id, created=sent_at(message))


def game_channel_of(message: discord.Message, config: Config) -> int | None:
    """The game channel a member's message was posted in (or in a thread of), for ``Bridge.on_channel_message``: a
    decision posted there instead of a DM is never stored, and its player is told so; None for anything else."""
    if message.author.bot:
        return None
    channel = message.channel
    if isinstance(channel, discord.Thread):
        channel_id = channel.parent_id
    elif isinstance(channel, discord.TextChannel):
        channel_id = channel.id
    else:
        return None
    return channel_id if channel_id is not None and config.game_for_channel(channel_id) is not None else None


def sent_at(message: Any) -> float | None:
    """When a message was sent (Unix time, Discord's stamp from its id); None when unknown."""
    stamp = getattr(message, "created_at", None)
    return stamp.timestamp() if isinstance(stamp, datetime.datetime) else None


class InteractionReply:
    """``chat.Reply`` on a ``discord.Interaction``: the first answer uses the interaction's response,
    later ones its follow-up webhook. Deferred privately, every answer is private: a later follow-up is a message of
    its own, public unless it says otherwise."""

    def __init__(self, interaction: discord.Interaction):
        self.interaction = interaction
        self.private = False

    async def defer(self, private: bool = False) -> None:
        self.private = private
        await self.interaction.response.defer(ephemeral=private, thinking=True)

    async def send(self, text: str, file: File | None = None, private: bool = False) -> None:
        kwargs: dict[str, Any] = {"content": text or None, "ephemeral": private or self.private}
        if file is not None:
            kwargs["file"] = _file(file)
        if self.interaction.response.is_done():
            await self.interaction.followup.send(**kwargs)
        else:
            await self.interaction.response.send_message(**kwargs)


async def to_command(interaction: discord.Interaction, name: str, options: dict[str, Any],
                     attachments: list[discord.Attachment] = ()) -> Command:
    files = [File(a.filename, await a.read()) for a in attachments if a is not None]
    return Command(name=name, user_id=interaction.user.id, channel_id=interaction.channel_id or 0,
                   options={k: v for k, v in options.items() if v is not None}, files=files,
                   interaction=interaction, reply=InteractionReply(interaction),
                   created=issued(interaction))


def issued(interaction: discord.Interaction) -> float | None:
    """When the member issued the command (Unix time, from its snowflake), as the bridge compares it with the open
    step's start; None when unknown."""
    stamp = getattr(interaction, "created_at", None)
    return stamp.timestamp() if isinstance(stamp, datetime.datetime) else None


def build_group(bridge: Bridge, chat: DiscordChat) -> app_commands.Group:
    """``/regent`` and its subcommands. Visible to every member of the server (guild only, not in DMs);
    the bridge refuses anyone without the GM role, so a player learns why instead of seeing nothing."""
    regent = app_commands.Group(name="regent", description="Run the Protectors of the Realm game in this channel",
                                guild_only=True)
    deadline = app_commands.Group(name="deadline", description="The current step's deadline", parent=regent)
    npr = app_commands.Group(name="npr", description="Non-Player Realms", parent=regent)
    npn = app_commands.Group(name="npn", description="New World Non-Player Nations", parent=regent)

    async def dispatch(interaction: discord.Interaction, name: str, attachments: list[Any] = (),
                       **options: Any) -> None:
        chat.remember(interaction.user)
        await bridge.on_command(await to_command(interaction, name, options, list(attachments)))

    @regent.command(name="status", description="Who has sent their decision, and the deadlines")
    async def status(interaction: discord.Interaction) -> None:
        await dispatch(interaction, "status")

    @regent.command(name="advance", description="Resolve the current step")
    @app_commands.describe(force="Apply the rulebook defaults for seats that sent nothing")
    async def advance(interaction: discord.Interaction, force: bool = False) -> None:
        await dispatch(interaction, "advance", force=force)

    @regent.command(name="seat", description="Put an AI in a seat, or give it back to a human")
    @app_commands.describe(seat="Player#N, the display name or the colour",
                           agent="An AI level (easy, normal, hard, expert) or agent, or @member (from the list) / "
                                 "human")
    async def seat(interaction: discord.Interaction, seat: str, agent: str) -> None:
        await dispatch(interaction, "seat", seat=seat, agent=agent)

    @deadline.command(name="extend", description="Give the current step more time")
    @app_commands.describe(hours="Hours to add")
    async def extend(interaction: discord.Interaction, hours: app_commands.Range[float, 0.01, 8760.0]) -> None:
        await dispatch(interaction, "deadline extend", hours=hours)

    @deadline.command(name="pause", description="Stop the clock (no reminders, no expiry)")
    async def pause(interaction: discord.Interaction) -> None:
        await dispatch(interaction, "deadline pause")

    @deadline.command(name="resume", description="Start the clock again")
    async def resume(interaction: discord.Interaction) -> None:
        await dispatch(interaction, "deadline resume")

    @regent.command(name="undo", description="Roll the last resolved step back")
    async def undo(interaction: discord.Interaction) -> None:
        await dispatch(interaction, "undo")

    @regent.command(name="report", description="Post the public report of a turn")
    @app_commands.describe(turn="The turn (now by default)")
    async def report(interaction: discord.Interaction, turn: app_commands.Range[int, 1] | None = None) -> None:
        await dispatch(interaction, "report", turn=turn)

    @regent.command(name="board", description="Post the board picture (with focus: a seat's area, to you alone)")
    @app_commands.describe(turn="At the end of this turn (now by default)",
                           focus="A seat's area only, for a phone, sent to you alone (Player#N, name or colour)",
                           radius="With focus: borders away from the seat's Provinces (0-4, default 1)")
    async def board(interaction: discord.Interaction, turn: app_commands.Range[int, 1] | None = None,
                    focus: str | None = None, radius: app_commands.Range[int, 0, 4] | None = None) -> None:
        await dispatch(interaction, "board", turn=turn, focus=focus, radius=radius)

    @regent.command(name="notes", description="The players' notes to the GM (// in their DMs), sent to you alone")
    async def notes(interaction: discord.Interaction) -> None:
        await dispatch(interaction, "notes")

    @regent.command(name="export", description="The game file (sent to you alone)")
    async def export(interaction: discord.Interaction) -> None:
        await dispatch(interaction, "export")

    @npr.command(name="invasions", description="Which Non-Player Realms invade, from a world file")
    @app_commands.describe(world="The world file (JSON or TOML)", seed="Dice seed")
    async def invasions(interaction: discord.Interaction, world: discord.Attachment,
                        seed: int | None = None) -> None:
        await dispatch(interaction, "npr invasions", [world], seed=seed)

    @npn.command(name="plan", description="A New World nation's plan, from a world file")
    @app_commands.describe(world="The New World file (JSON or TOML)", nation="The nation", turn="The turn",
                           seed="Dice seed")
    async def plan(interaction: discord.Interaction, world: discord.Attachment, nation: str,
                   turn: app_commands.Range[int, 1] | None = None, seed: int | None = None) -> None:
        await dispatch(interaction, "npn plan", [world], nation=nation, turn=turn, seed=seed)

    return regent


class RegentBot(discord.Client):
    def __init__(self, config: Config):
        # never @everyone / @here, whatever a post says; members and the GM role (``<@&ID>``) the bridge names
        # on purpose still ping (a player's words it quotes back are made plain first: texts.quiet_mentions)
        super().__init__(intents=intents(), allowed_mentions=discord.AllowedMentions(everyone=False, users=True,
                                                                                     roles=True, replied_user=False))
        self.config = config
        self.tree = app_commands.CommandTree(self)
        self.chat = DiscordChat(self, config.guild)
        self.bridge = Bridge(config, self.chat, State(config.state))
        self.tree.add_command(build_group(self.bridge, self.chat), guild=discord.Object(id=config.guild))
        self._ticker: asyncio.Task | None = None
        self.fatal: str | None = None  # why the bot stopped itself (a configured game refused for good)
        self._edits: dict[int, datetime.datetime] = {}  # message id -> the last edit handled (``_edit_seen``)

    async def setup_hook(self) -> None:
        await self.tree.sync(guild=discord.Object(id=self.config.guild))

    async def on_ready(self) -> None:
        """Connected (at start, and again after a connection Discord could not resume): the games are started
        once, then what players sent while the bot was offline is read back."""
        log.info("connected as %s", self.user)
        self.bridge.went_online()  # a DM sent from now on is live, though the read-back that finds it runs later
        if self._ticker is None:
            self._ticker = asyncio.get_running_loop().create_task(self._tick())
            try:
                await self.bridge.start()
            except (ServiceDown, ServiceError) as err:  # the ticker creates the games once the service answers
                log.error("the games could not be started (%s); retrying every %.0f s", err, TICK_SECONDS)
            except ConfigRefused as err:
                await self.stop(err)
                return
        await self._catch_up()

    async def on_resumed(self) -> None:
        """A connection resumed: Discord replays the session's events, and what it does not is read back (each
        message is answered once)."""
        self.bridge.went_online()
        await self._catch_up()

    async def on_disconnect(self) -> None:
        """Until the bot is back, what players send is not delivered: it is read back from the history then."""
        self.bridge.went_offline()

    async def _catch_up(self) -> None:
        try:
            await self.bridge.catch_up()
        except Exception:  # the tick tries again (``catch_up_due``)
            self.bridge.catch_up_due = True
            log.exception("reading back the DMs sent while the bot was offline failed")

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(TICK_SECONDS)
            try:
                await self.bridge.tick()
            except ConfigRefused as err:
                await self.stop(err)
                return
            except Exception:  # one bad tick must not stop reminders for good
                log.exception("tick failed")

    async def stop(self, err: ConfigRefused) -> None:
        """A configured game the service refuses for good: retrying cannot mend it, the GM must."""
        self.fatal = str(err)
        await self.close()

    async def on_message(self, message: discord.Message) -> None:
        dm = to_direct_message(message, self.bridge.state)
        if dm is not None:
            await self.bridge.on_dm(dm)
            return
        channel = game_channel_of(message, self.config)
        if channel is not None:  # a decision posted in the game's channel: its player is told to DM it
            await self.bridge.on_channel_message(message.author.id, channel, message.content or "")

    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        """A player's DM edited. Discord tells of every edit, but discord.py keeps a message's words before the edit
        only for those it received since it started (``cached_message``); ``on_message_edit`` hears of those alone,
        so a DM sent before a restart (or read back from the history) and edited after it went unheard. For such a
        DM an update without an edit time is Discord adding a link preview, not an edit, and one with the edit time
        already handled is a preview added to the edited words (``_edit_seen``)."""
        dm = to_direct_message(payload.message, self.bridge.state)
        if dm is None:
            return
        if payload.cached_message is not None:
            await self.bridge.on_dm_edit(payload.cached_message.content or "", dm)
            return
        edited = payload.message.edited_at
        if edited is None or self._edit_seen(dm.message_id, edited):
            return
        await self.bridge.on_dm_edit(None, dm)

    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """A player deleted a DM, or a message in their private thread: one the bot answered for good stands, and they
        are told so (``Bridge.on_dm_delete``). Discord names only the message and its channel: the player is the
        thread's, or the author of the message discord.py kept, or the DM channel's recipient."""
        owner = self.bridge.state.thread_owner(payload.channel_id)
        if payload.guild_id is not None and owner is None:
            return  # a server channel's message: not a player's DM
        if self.bridge.state.processed(payload.message_id) is None:
            return  # nothing of it was stored: it was never a decision
        cached = payload.cached_message
        if owner is not None:
            user: int | None = owner[1]
        elif cached is not None:
            user = cached.author.id
        else:
            channel = self.get_channel(payload.channel_id)
            if channel is None:
                try:
                    channel = await self.fetch_channel(payload.channel_id)
                except discord.HTTPException as err:
                    log.warning("a deleted DM's channel %s cannot be read: %s", payload.channel_id, err)
                    return
            recipient = getattr(channel, "recipient", None)
            user = recipient.id if recipient is not None else None
        if user is not None:
            await self.bridge.on_dm_delete(payload.message_id, user, payload.channel_id if owner else None)

    def _edit_seen(self, message_id: int, edited: datetime.datetime) -> bool:
        """Whether this edit of a message discord.py does not keep was handled already (and note it if not); the
        last ``EDITS_KEPT`` are remembered."""
        if self._edits.get(message_id) == edited:
            return True
        self._edits[message_id] = edited
        while len(self._edits) > EDITS_KEPT:
            del self._edits[next(iter(self._edits))]
        return False


def run(config: Config, token: str) -> None:
    """Run the bot until it is stopped; a refused token, an unreachable Discord or a configured game the
    service refuses for good is a one-line error."""
    bot = RegentBot(config)
    try:
        bot.run(token, log_handler=None)
    except discord.LoginFailure:
        raise ValueError(f"Discord refused the bot token in ${config.token_env} (reset it in the developer "
                         "portal, Bot -> Reset Token)") from None
    except discord.PrivilegedIntentsRequired:
        raise ValueError("Discord refused the Message Content intent: switch it on in the developer portal "
                         "(Bot -> Privileged Gateway Intents), see docs/discord.md") from None
    except OSError as err:  # aiohttp's connection errors are OSErrors
        raise ValueError(f"cannot reach Discord: {err}") from None
    if bot.fatal:
        raise ValueError(bot.fatal)
