"""How the bot reaches people (``Talking``): a post in a channel or thread, cut to Discord's message size
(``_post``), and a player reached in their private thread, by DM, or (DMs closed) in a private thread opened for them
with the GM told once (``tell``); a private thread found gone (deleted, locked) is forgotten and a new one opened, the
GM told (``_in_thread``); a member reached neither way is told to the GM once (``_unreachable``)."""

from __future__ import annotations

import logging

from service.discord.chat import ChannelGone, DeliveryFailed, DmClosed, File
from service.discord.core import BridgeCore
from service.discord.state import ai_seats
from service.discord.texts import quiet_mentions
from service.posting import split_messages

log = logging.getLogger("regent.discord")


class Talking(BridgeCore):
    async def _post(self, channel: int, text: str, file: File | None = None) -> int | None:
        """Post ``text`` (cut into Discord's message size) and ``file``; the last message's id, None when unknown. Each
        post measures the host clock against Discord's (``learn_clock``)."""
        parts = split_messages(text) or [""]
        posted = None
        for i, part in enumerate(parts):
            before = self.now()
            posted = await self.chat.post(channel, part, file if i == len(parts) - 1 else None)
            self.learn_clock(before, self.now(), posted)
        return posted

    async def tell(self, key: str | None, user_id: int, text: str, thread_id: int | None = None,
                   file: File | None = None) -> bool:
        """Reach a player: in their private thread if they wrote there, else by DM, else (DMs closed)
        in a private thread of the game channel opened for them, with the GM told once (and again for a new one
        opened when a moderator deleted or locked theirs: the message goes there). A message Discord fails
        to deliver is logged and dropped: what it answers is stored already, and the next player's message (the
        next summary of the same turn) must still go out. ``file`` (a picture) goes with the text's last message, so
        it is delivered, or retried, with its words. Returns whether it was delivered."""
        try:
            await self._tell(key, user_id, text, thread_id, file)
        except DeliveryFailed as err:
            log.warning("game %s: not delivered to user %s: %s", key, user_id, err)
            return False
        return True

    async def _tell(self, key: str | None, user_id: int, text: str, thread_id: int | None,
                    file: File | None = None) -> None:
        lost = False  # the player's private thread was found gone: a new one is opened, and the GM told so
        if thread_id is not None:
            owner = self.state.thread_owner(thread_id)
            if await self._in_thread(thread_id, quiet_mentions(text), file):
                return
            lost = True
            if key is None and owner is not None:  # the game the thread was opened in
                key = owner[0]
        try:
            parts = split_messages(text)
            for i, part in enumerate(parts):
                await self.chat.send_dm(user_id, part, file if i == len(parts) - 1 else None)
            self._reachable(key, user_id)
            return
        except DmClosed:
            pass
        if key is None:  # no game to open a thread in: nothing more can be done
            log.warning("user %s does not accept DMs and has no game", user_id)
            return
        said = f"<@{user_id}> {quiet_mentions(text)}"
        tid = self.state.thread(key, user_id)
        if tid is not None:
            if await self._in_thread(tid, said, file):
                return
            lost = True
        channel = self.config.games[key].channel
        # the seat they play, or the one an AI has just taken from them (the GM's notice names it)
        held_by_ai = {s: rec.get("player") for s, rec in ai_seats(self.state.game(key) or {}).items()}
        seat = next((s for s, u in [*self.users(key).items(), *held_by_ai.items()] if u == user_id), "a player")
        try:
            tid = await self.chat.open_private_thread(channel, user_id, f"regent {seat}")
        except DeliveryFailed:
            # neither a DM nor a thread reaches them: a member who left the server, or the bot may open no thread
            # there any more. The GM hears it once (until a message reaches them again), and the message is dropped
            # like any undelivered one
            await self._unreachable(key, user_id, seat, lost)
            raise
        self.state.set_thread(key, user_id, tid)
        if lost:  # the seat alone: the notice pings no one but the GM role
            await self._post(channel, f"{gm_mention(self.config.gm_role)}: the private thread I opened for {seat} "
                                      "is gone (deleted or locked), so I opened a new one for them in this channel; "
                                      "they can send their decisions there.")
        else:
            await self._post(channel, f"{gm_mention(self.config.gm_role)}: <@{user_id}> ({seat}) does not accept "
                                      "DMs from me, so I talk to them in a private thread of this channel; "
                                      "they can send their decisions there.")
        if not await self._in_thread(tid, said, file):  # gone as soon as opened: the bot may not post in threads there
            await self._unreachable(key, user_id, seat, True)
            raise DeliveryFailed(f"the private thread {tid} opened for user {user_id} is gone already")
        self._reachable(key, user_id)

    async def _in_thread(self, tid: int, text: str, file: File | None = None) -> bool:
        """Post in a player's private thread: False when it is gone (deleted, or locked, or closed to the bot) and
        so forgotten, for a new one to be opened; a passing failure raises :class:`DeliveryFailed` as any."""
        try:
            await self._post(tid, text, file)
        except ChannelGone as err:
            log.warning("the private thread %s is gone, a new one is opened: %s", tid, err)
            self.state.forget_thread(tid)
            return False
        return True

    async def _unreachable(self, key: str, user_id: int, seat: str, lost: bool = False) -> None:
        """Tell the GM, once, that ``user_id`` (``seat``) can be reached neither by DM nor in a private thread
        (``lost``: theirs was deleted or locked, and no new one can be opened)."""
        entry = self.state.game(key)
        if entry is None or user_id in entry.get("unreachable", []):
            return
        entry.setdefault("unreachable", []).append(user_id)
        self.state.set_game(key, entry)
        if lost:  # the seat alone: the notice pings no one but the GM role
            why = (f"the player of {seat} cannot be reached: Discord refuses my DMs to them, the private thread I "
                   "opened for them is gone (deleted or locked), and I cannot open a new one")
        else:
            why = (f"<@{user_id}> ({seat}) cannot be reached: Discord refuses my DMs to them and I cannot add them "
                   "to a private thread (have they left the server?)")
        await self._post(self.config.games[key].channel,
                         f"{gm_mention(self.config.gm_role)}: {why}. Nothing I send them arrives; give the seat to an "
                         f"AI or another member with `/regent seat {seat} ...`.")

    def _reachable(self, key: str | None, user_id: int) -> None:
        """A message reached ``user_id`` again: a later failure is told to the GM again."""
        entry = self.state.game(key) if key is not None else None
        if entry is not None and user_id in entry.get("unreachable", []):
            entry["unreachable"].remove(user_id)
            self.state.set_game(key, entry)


def gm_mention(role: str) -> str:
    """The GM role as the bot's notices name it: mentioned by its id (it pings), else named."""
    return f"<@&{role}>" if role.isdigit() else f"GM (role {role})"
