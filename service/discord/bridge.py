"""The bot's logic: DMs become ``game.submit``, resolved steps become channel posts, GM commands
become service calls. It talks to Discord only through ``chat.Chat`` and to the game only through
the RPC service, so the same code runs against discord.py (``adapter.py``) and the tests' fake.

Nothing is lost (issue 24, item 6): a DM is acknowledged only after the service answered that it
stored it; if the service cannot be reached the player is told to send it again; a Discord message
id already stored is never submitted twice; what the bot has posted is kept in ``state.py`` so a
restart neither loses nor repeats a post. Posts that could not be made before a crash are made
after the restart (at least once).

This module holds ``Bridge``, the one object the adapter and the tests drive, made of its parts: ``core`` (its
state, the service calls, who holds which seat), ``talking`` (posts, reaching a player), ``channel_posts`` (what the
channel hears after each step), ``summaries`` (what each player hears alone after a turn), ``areas`` (a seat's area
of a big board, drawn for a phone), ``games`` (creating and importing the configured games), ``dms`` (a player's DM),
``catch_up`` (DMs sent while the bot was offline), ``channel_messages`` (a decision posted in the channel instead),
``reminders`` (the tick and the deadlines), ``commands`` and ``seat_command`` (the GM's ``/regent`` commands); their
pure helpers are ``texts``, ``answers``, ``routing``, ``game_files`` and ``world_commands``. The names other modules
and tests read from ``bridge`` are all importable here.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from service.client import AsyncClient
from service.discord.answers import EDITED, FINAL, NOTHING, RESEND, TOO_LATE, accepted, refusal, too_late
from service.discord.areas import Areas
from service.discord.catch_up import CATCH_UP_LIMIT, CatchUp
from service.discord.channel_messages import ChannelMessages
from service.discord.channel_posts import Posting
from service.discord.chat import Chat, File
from service.discord.commands import PUBLIC_COMMANDS, Commands
from service.discord.config import Config
from service.discord.core import CALL_TIMEOUT, ServiceDown
from service.discord.dms import MAX_KEPT_NOTES, USER_MENTION, Dms
from service.discord.game_files import file_ai, is_setup, renamed, with_settings
from service.discord.games import PERMANENT, ConfigRefused, Games
from service.discord.reminders import Reminders, due_reminders, still_crossed
from service.discord.routing import GAME_HEADER, channel_of, game_header, names_a_game, step_guard, step_of
from service.discord.seat_command import HUMAN, MENTION, SeatCommand, seat_named
from service.discord.state import State
from service.discord.summaries import BALANCE_TURN, ELIMINATED, Summaries
from service.discord.talking import Talking
from service.discord.texts import (
    DEFAULTS_LINE,
    HOW_WORDS,
    PINGS,
    STEP_WORDS,
    digest,
    quiet_mentions,
    span,
    when,
    with_ai_line,
)
from service.discord.world_commands import parse_world, summarise

__all__ = [
    "BALANCE_TURN", "CALL_TIMEOUT", "CATCH_UP_LIMIT", "DEFAULTS_LINE", "EDITED", "ELIMINATED", "FINAL", "GAME_HEADER",
    "HOW_WORDS", "HUMAN", "MAX_KEPT_NOTES", "MENTION", "NOTHING", "PERMANENT", "PINGS", "PUBLIC_COMMANDS", "RESEND",
    "STEP_WORDS", "TOO_LATE", "USER_MENTION", "Bridge", "ConfigRefused", "ServiceDown", "accepted", "channel_of",
    "digest", "due_reminders", "file_ai", "game_header", "is_setup", "names_a_game", "parse_world", "quiet_mentions",
    "refusal", "renamed", "seat_named", "span", "step_guard", "step_of", "still_crossed", "summarise", "too_late",
    "when", "with_ai_line", "with_settings",
]


class Bridge(Dms, ChannelMessages, CatchUp, Commands, SeatCommand, Reminders, Games, Posting, Summaries, Areas,
             Talking):
    """The bot: its parts' methods on one object, with the state they share (``core.BridgeCore``)."""

    def __init__(self, config: Config, chat: Chat, state: State,
                 connect: Callable[[], Awaitable[AsyncClient]] | None = None,
                 now: Callable[[], float] = time.time):
        self.config = config
        self.chat = chat
        self.state = state
        self._connect = connect or (lambda: AsyncClient.connect(**config.address()))
        self.client: AsyncClient | None = None
        self.now = now
        self.lock = asyncio.Lock()  # DMs, commands and syncs change the bot's state one at a time
        # the catch-up after the bot was offline (``catch_up``): the chats read back since it last (re)connected (a
        # live DM in another is answered after that chat's history), one read of a chat at a time, and whether a
        # pass is still to make (the service was down, Discord failed a read, a player's limit was hit), and since when
        # the bot is online (a message sent after it is delivered live: never answered as sent while it was offline)
        self.catch_up_limit = CATCH_UP_LIMIT
        self._live_ok: set[str] = set()
        self._reading: dict[str, asyncio.Lock] = {}
        self._catching = asyncio.Lock()
        self.catch_up_due = False
        self._online_since: float | None = None
        self._step_seen: dict[str, tuple[str, float]] = {}  # the step each game's last sync saw open (``step_began``)
        self._upgrade_read: dict[str, list[int]] = {}  # a game an older bot ran: whose DMs its first read-back read
        self._answer_files: dict[int, File] = {}  # a DM's answer's picture, until sent (``areas``, ``dms.on_dm``)
        self._last_answer: dict[int, tuple[str, float, bool]] = {}  # each player's last answer (``dms._answer_once``)
        self._areas_ahead: dict[tuple[str, str, int], tuple[int, File | str | None]] = {}  # ``areas``, drawn ahead
        self._area_undos: dict[str, int] = {}
