"""The small interface between the bridge's logic and a chat service.

The bridge (``bridge.py``) sees Discord only through this: a DM arrives (:class:`DirectMessage`), a
slash command arrives (:class:`Command`), and it can DM a user, post to a channel or thread, open a
private thread, and check a role (:class:`Chat`). ``adapter.py`` maps discord.py onto it; the tests
drive it with an in-process fake that enforces Discord's limits. The chat can also read back a player's
messages sent while the bot was offline (``Chat.history``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

DISCORD_EPOCH_MS = 1_420_070_400_000  # a Discord id (snowflake) counts milliseconds from 2015-01-01 in its high bits
MESSAGE_LIMIT = 2000  # characters in one Discord message
FILE_LIMIT = 10 * 1024 * 1024  # bytes in one attachment (the default upload limit)
ACK_SECONDS = 3.0  # an interaction must be answered or deferred within this


def snowflake_at(ts: float) -> int:
    """The smallest Discord id a message sent at ``ts`` (Unix time) can have: ids grow with time."""
    return max(0, int(ts * 1000) - DISCORD_EPOCH_MS) << 22


def snowflake_time(message_id: int) -> float:
    """When the Discord id ``message_id`` was made (Unix time, Discord's own clock)."""
    return ((message_id >> 22) + DISCORD_EPOCH_MS) / 1000


class DmClosed(Exception):
    """The user does not accept DMs from the bot (Discord error 50007)."""


class DeliveryFailed(Exception):
    """Discord did not deliver a message for another reason (a server error, a deleted account or channel, a
    lost connection): the bridge logs it and goes on, so one player's failed answer never stops the others'."""


class ChannelGone(DeliveryFailed):
    """The channel or thread posted to is gone or closed to the bot (deleted, locked, the bot's access taken away):
    unlike a passing failure, posting there again fails too. The bridge forgets a player's private thread that
    answers so and opens a new one (``Talking._tell``)."""


@dataclass(frozen=True)
class File:
    name: str
    data: bytes


@dataclass
class DirectMessage:
    """A player's message to the bot: in DMs, or in the private thread opened for them."""

    message_id: int
    user_id: int
    text: str
    user_name: str = ""
    thread_id: int | None = None  # set when the message came in the player's private thread
    # when the player sent it (Unix time, Discord's own stamp from the message's snowflake); None when unknown.
    # A DM read back from the history after the bot was offline (:meth:`Chat.history`) counts as come in then
    created: float | None = None


@dataclass
class Missed:
    """A player's messages read back from a DM channel's (or private thread's) history, oldest first
    (:meth:`Chat.history`). ``last``: the newest message id looked at, the bot's own answers included (the next
    read starts after it once these are handled); ``more``: the limit was hit and more of the player's messages
    follow ``last``."""

    messages: list[DirectMessage] = field(default_factory=list)
    last: int | None = None
    more: bool = False


@dataclass
class Command:
    """One ``/regent ...`` interaction. ``name`` is the path after ``/regent`` (``"deadline extend"``)."""

    name: str
    user_id: int
    channel_id: int
    options: dict[str, Any] = field(default_factory=dict)
    files: list[File] = field(default_factory=list)
    interaction: Any = None  # the chat's own object; the adapter's Reply uses it

    reply: Reply | None = None
    # when the member issued it (Unix time, Discord's own stamp); None: when the bridge first sees it
    created: float | None = None


class Reply(Protocol):
    """Answering an interaction: first ``defer`` or ``send`` within ACK_SECONDS, then ``send`` more."""

    async def defer(self, private: bool = False) -> None: ...

    async def send(self, text: str, file: File | None = None, private: bool = False) -> None: ...


class Chat(Protocol):
    async def send_dm(self, user_id: int, text: str, file: File | None = None) -> None:
        """DM a user; raises :class:`DmClosed` when they do not accept DMs from the bot, :class:`DeliveryFailed`
        when Discord fails it otherwise."""

    async def post(self, channel_id: int, text: str, file: File | None = None) -> int | None:
        """Post in a channel or thread; returns the message's id (Discord's snowflake: its time on Discord's clock),
        None when unknown. Raises :class:`ChannelGone` when it is gone or closed to the bot, else
        :class:`DeliveryFailed` when Discord fails it."""

    async def open_private_thread(self, channel_id: int, user_id: int, name: str) -> int:
        """A private thread in ``channel_id`` that ``user_id`` is added to; returns its id (raises
        :class:`DeliveryFailed` when Discord fails it)."""

    async def has_role(self, user_id: int, role: str) -> bool:
        """Whether the server member holds ``role`` (a role name or id)."""

    async def history(self, user_id: int, after: int, limit: int, thread_id: int | None = None) -> Missed:
        """The messages ``user_id`` sent the bot after the message id ``after`` (a snowflake: ids grow with time),
        oldest first, at most ``limit`` of them, in their DM channel or (``thread_id``) the private thread opened
        for them; each as it reads now (an edit's words) with its ``created`` time. Raises :class:`DeliveryFailed`
        when Discord fails it. Discord replays no message a bot missed while offline: the bridge reads them here
        (``Bridge.catch_up``)."""
