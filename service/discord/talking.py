"""How the bot reaches people (``Talking``): a post in a channel or thread, cut to Discord's message size
(``_post``), and a player reached in their private thread, by DM, or (DMs closed) in a private thread opened for them
with the GM told once (``tell``); a member reached neither way is told to the GM once (``_unreachable``)."""

from __future__ import annotations

import logging

from service.discord.chat import DeliveryFailed, DmClosed, File
from service.discord.core import BridgeCore
from service.discord.state import ai_seats
from service.discord.texts import quiet_mentions
from service.posting import split_messages

log = logging.getLogger("regent.discord")


class Talking(BridgeCore):
    async def _post(self, channel: int, text: str, file: File | None = None) -> None:
        parts = split_messages(text) or [""]
        for i, part in enumerate(parts):
            await self.chat.post(channel, part, file if i == len(parts) - 1 else None)

    async def tell(self, key: str | None, user_id: int, text: str, thread_id: int | None = None) -> None:
        """Reach a player: in their private thread if they wrote there, else by DM, else (DMs closed)
        in a private thread of the game channel opened for them, with the GM told once. A message Discord fails
        to deliver is logged and dropped: what it answers is stored already, and the next player's message (the
        next summary of the same turn) must still go out."""
        try:
            await self._tell(key, user_id, text, thread_id)
        except DeliveryFailed as err:
            log.warning("game %s: not delivered to user %s: %s", key, user_id, err)

    async def _tell(self, key: str | None, user_id: int, text: str, thread_id: int | None) -> None:
        if thread_id is not None:
            await self._post(thread_id, quiet_mentions(text))
            return
        try:
            for part in split_messages(text):
                await self.chat.send_dm(user_id, part)
            self._reachable(key, user_id)
            return
        except DmClosed:
            pass
        if key is None:  # no game to open a thread in: nothing more can be done
            log.warning("user %s does not accept DMs and has no game", user_id)
            return
        tid = self.state.thread(key, user_id)
        if tid is None:
            channel = self.config.games[key].channel
            # the seat they play, or the one an AI has just taken from them (the GM's notice names it)
            held_by_ai = {s: rec.get("player") for s, rec in ai_seats(self.state.game(key) or {}).items()}
            seat = next((s for s, u in [*self.users(key).items(), *held_by_ai.items()] if u == user_id), "a player")
            try:
                tid = await self.chat.open_private_thread(channel, user_id, f"regent {seat}")
            except DeliveryFailed:
                # neither a DM nor a thread reaches them: a member who left the server. The GM hears it once
                # (until a message reaches them again), and the message is dropped like any undelivered one
                await self._unreachable(key, user_id, seat)
                raise
            self.state.set_thread(key, user_id, tid)
            role = self.config.gm_role
            gm = f"<@&{role}>" if role.isdigit() else f"GM (role {role})"  # a role id can be mentioned
            await self._post(channel, f"{gm}: <@{user_id}> ({seat}) does not accept "
                                      "DMs from me, so I talk to them in a private thread of this channel; "
                                      "they can send their decisions there.")
        await self._post(tid, f"<@{user_id}> {quiet_mentions(text)}")

    async def _unreachable(self, key: str, user_id: int, seat: str) -> None:
        """Tell the GM, once, that ``user_id`` (``seat``) can be reached neither by DM nor in a private thread."""
        entry = self.state.game(key)
        if entry is None or user_id in entry.get("unreachable", []):
            return
        entry.setdefault("unreachable", []).append(user_id)
        self.state.set_game(key, entry)
        role = self.config.gm_role
        gm = f"<@&{role}>" if role.isdigit() else f"GM (role {role})"
        await self._post(self.config.games[key].channel,
                         f"{gm}: <@{user_id}> ({seat}) cannot be reached: Discord refuses my DMs to them and I cannot "
                         "add them to a private thread (have they left the server?). Nothing I send them arrives; "
                         f"give the seat to an AI or another member with `/regent seat {seat} ...`.")

    def _reachable(self, key: str | None, user_id: int) -> None:
        """A message reached ``user_id`` again: a later failure is told to the GM again."""
        entry = self.state.game(key) if key is not None else None
        if entry is not None and user_id in entry.get("unreachable", []):
            entry["unreachable"].remove(user_id)
            self.state.set_game(key, entry)
