"""An in-process Discord for the bridge: it keeps what was posted and enforces Discord's limits.

A message over 2,000 characters, an empty message, a file over 10 MiB, or an interaction first
answered after 3 seconds raises :class:`DiscordRefused` (as Discord would refuse it), so a bridge
that breaks a limit fails the test. DMs to a user in ``closed`` raise ``DmClosed`` (Discord's
50007), as for a member who does not accept DMs from server members.

It keeps each DM channel's and private thread's history as Discord does (ids that grow with time, the bot's own
messages too): a player's message sent with :meth:`FakeChat.send` is in it whether the test delivers it to the
bridge (the bot online) or not (the bot offline), and :meth:`FakeChat.history` reads it back.
"""

from __future__ import annotations

import dataclasses
import itertools
import time
from dataclasses import dataclass, field
from typing import Any

from service.discord.chat import (
    ACK_SECONDS,
    FILE_LIMIT,
    MESSAGE_LIMIT,
    ChannelGone,
    Command,
    DeliveryFailed,
    DirectMessage,
    DmClosed,
    File,
    Missed,
    snowflake_at,
)


class DiscordRefused(AssertionError):
    """Discord would have refused this (an AssertionError so a test fails on it)."""


def check(text: str, file: File | None) -> None:
    if len(text) > MESSAGE_LIMIT:
        raise DiscordRefused(f"message of {len(text)} characters (limit {MESSAGE_LIMIT})")
    if not text and file is None:
        raise DiscordRefused("empty message")
    if file is not None and len(file.data) > FILE_LIMIT:
        raise DiscordRefused(f"file {file.name} of {len(file.data)} bytes (limit {FILE_LIMIT})")


@dataclass
class Sent:
    text: str
    file: File | None = None
    private: bool = False


class FakeChat:
    def __init__(self, gm_role: str = "GM"):
        self.gm_role = gm_role
        self.dms: dict[int, list[Sent]] = {}
        self.posts: dict[int, list[Sent]] = {}
        self.closed: set[int] = set()
        self.failing: set[int] = set()  # users a DM to fails for another reason (DeliveryFailed)
        # members who left the server: no DM reaches them (Discord's 50007, no server in common) and no private
        # thread can take them in (adding a non-member fails)
        self.gone: set[int] = set()
        self.roles: dict[int, set[str]] = {}
        self.threads: dict[int, tuple[int, int, str]] = {}
        # private threads a moderator deleted or locked (a post there raises ChannelGone, as Discord's 404 or 403
        # would), threads a post to fails for a passing reason (DeliveryFailed, a 503), and channels the bot may
        # open no thread in any more
        self.removed: set[int] = set()
        self.flaky: set[int] = set()
        self.no_threads: set[int] = set()
        self.ids = itertools.count(900_000_000_000_000_000)
        self.message_ids = itertools.count(1)
        # each DM channel ("dm:USER") and private thread ("thread:ID") as Discord keeps it: (id, the player's
        # message, or None for one of the bot's), and the reads of it (user, after, limit, thread)
        self.kept: dict[str, list[tuple[int, DirectMessage | None]]] = {}
        self.reads: list[tuple[int, int, int, int | None]] = []
        self.unreadable: set[int] = set()  # users whose history Discord fails to give (DeliveryFailed)
        self._sequence = itertools.count()  # the low bits of the ids (Discord's increment)

    # -- the Chat interface ----------------------------------------------------------------------
    async def send_dm(self, user_id: int, text: str, file: File | None = None) -> None:
        if user_id in self.closed or user_id in self.gone:
            raise DmClosed(user_id)
        if user_id in self.failing:
            raise DeliveryFailed(f"DM to {user_id}: 503 Service Unavailable")
        check(text, file)
        self.dms.setdefault(user_id, []).append(Sent(text, file))
        self._keep(f"dm:{user_id}", None)

    async def post(self, channel_id: int, text: str, file: File | None = None) -> int:
        if channel_id in self.removed:
            raise ChannelGone(f"post in {channel_id}: 404 Not Found (error code: 10003): Unknown Channel")
        if channel_id in self.flaky:
            raise DeliveryFailed(f"post in {channel_id}: 503 Service Unavailable")
        check(text, file)
        self.posts.setdefault(channel_id, []).append(Sent(text, file))
        if channel_id in self.threads:
            return self._keep(f"thread:{channel_id}", None)
        return self._snowflake(time.time())  # Discord's clock: the tests' bridge may run on a host clock that is off

    async def open_private_thread(self, channel_id: int, user_id: int, name: str) -> int:
        if user_id in self.gone:
            raise DeliveryFailed(f"private thread in {channel_id} for {user_id}: 404 Unknown Member")
        if channel_id in self.no_threads:
            raise DeliveryFailed(f"private thread in {channel_id} for {user_id}: 403 Missing Permissions")
        tid = next(self.ids)
        self.threads[tid] = (channel_id, user_id, name)
        return tid

    async def has_role(self, user_id: int, role: str) -> bool:
        return role in self.roles.get(user_id, set())

    async def history(self, user_id: int, after: int, limit: int, thread_id: int | None = None) -> Missed:
        self.reads.append((user_id, after, limit, thread_id))
        if thread_id is not None and thread_id in self.removed:
            raise ChannelGone(f"history of {user_id} (thread {thread_id}): 404 Not Found (error code: 10003)")
        if user_id in self.unreadable:
            raise DeliveryFailed(f"history of {user_id}: 503 Service Unavailable")
        out, last = [], None
        for mid, dm in sorted(self.kept.get(f"thread:{thread_id}" if thread_id else f"dm:{user_id}", []),
                              key=lambda kept: kept[0]):
            if mid <= after:
                continue
            if dm is not None:
                if len(out) == limit:
                    return Missed(out, last, True)
                out.append(dataclasses.replace(dm))
            last = mid
        return Missed(out, last, False)

    def _snowflake(self, at: float) -> int:
        """An id of the time ``at``, as Discord's: later messages have larger ones (within a millisecond too)."""
        return snowflake_at(at) + next(self._sequence)

    def _keep(self, chat: str, dm: DirectMessage | None, at: float | None = None) -> int:
        mid = self._snowflake(time.time() if at is None else at)
        self.kept.setdefault(chat, []).append((mid, dm))
        return mid

    # -- what the tests do -----------------------------------------------------------------------
    def dm(self, user_id: int, text: str, message_id: int | None = None, thread_id: int | None = None
           ) -> DirectMessage:
        """A player's message with a small id of its own (``message_id``, else the next): in the chat's history as
        Discord keeps it (once, whatever times it is delivered), but older than anything :meth:`send` keeps, so no
        read-back after the bot was offline reads it as new (:meth:`send` is for those)."""
        dm = DirectMessage(message_id=message_id if message_id is not None else next(self.message_ids),
                           user_id=user_id, text=text, user_name=f"user{user_id}", thread_id=thread_id)
        kept = self.kept.setdefault(f"thread:{thread_id}" if thread_id else f"dm:{user_id}", [])
        kept[:] = [k for k in kept if k[0] != dm.message_id] + [(dm.message_id, dataclasses.replace(dm))]
        return dm

    def delete(self, dm: DirectMessage) -> None:
        """The player deletes a message they sent: it leaves the chat's history."""
        chat = f"thread:{dm.thread_id}" if dm.thread_id else f"dm:{dm.user_id}"
        self.kept[chat] = [k for k in self.kept.get(chat, []) if k[0] != dm.message_id]

    def send(self, user_id: int, text: str, at: float | None = None, thread_id: int | None = None) -> DirectMessage:
        """A player sends the bot a message (at ``at``, Unix time; now by default): Discord keeps it in the chat's
        history with an id of its time, whether the test then delivers it to the bridge (``bridge.on_dm``: the bot
        online) or not (offline)."""
        at = time.time() if at is None else at
        chat = f"thread:{thread_id}" if thread_id else f"dm:{user_id}"
        mid = self._snowflake(at)
        dm = DirectMessage(message_id=mid, user_id=user_id, text=text, user_name=f"user{user_id}",
                           thread_id=thread_id, created=at)
        self.kept.setdefault(chat, []).append((mid, dm))
        return dataclasses.replace(dm)

    def edit(self, dm: DirectMessage, text: str) -> DirectMessage:
        """The player edits a message they sent: the history holds the new words (the id and time stay)."""
        chat = f"thread:{dm.thread_id}" if dm.thread_id else f"dm:{dm.user_id}"
        for i, (mid, kept) in enumerate(self.kept[chat]):
            if mid == dm.message_id:
                self.kept[chat][i] = (mid, dataclasses.replace(kept, text=text))
        return dataclasses.replace(dm, text=text)

    def command(self, name: str, user_id: int, channel_id: int, files: list[File] | None = None,
                **options: Any) -> Command:
        return Command(name=name, user_id=user_id, channel_id=channel_id, options=options, files=files or [],
                       reply=FakeReply())

    def texts(self, channel_id: int) -> str:
        return "\n".join(s.text for s in self.posts.get(channel_id, []))

    def dm_texts(self, user_id: int) -> str:
        return "\n".join(s.text for s in self.dms.get(user_id, []))

    def last_dm(self, user_id: int) -> str:
        return self.dms[user_id][-1].text


@dataclass
class FakeReply:
    """An interaction: answered (or deferred) within 3 seconds of its creation, then follow-ups."""

    created: float = field(default_factory=time.monotonic)
    acked_after: float | None = None
    deferred: bool = False
    private: bool = False  # deferred as visible to the GM alone
    sent: list[Sent] = field(default_factory=list)

    def _ack(self) -> None:
        if self.acked_after is None:
            self.acked_after = time.monotonic() - self.created
            if self.acked_after > ACK_SECONDS:
                raise DiscordRefused(f"interaction first answered after {self.acked_after:.2f} s (limit 3 s)")

    async def defer(self, private: bool = False) -> None:
        if self.acked_after is not None:
            raise DiscordRefused("interaction already acknowledged")
        self._ack()
        self.deferred = True
        self.private = private

    async def send(self, text: str, file: File | None = None, private: bool = False) -> None:
        check(text, file)
        self._ack()
        self.sent.append(Sent(text, file, private or self.private))  # deferred privately: private (the adapter)

    def text(self) -> str:
        return "\n".join(s.text for s in self.sent)
