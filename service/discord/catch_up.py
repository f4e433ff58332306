"""DMs sent while the bot was offline (``CatchUp``): Discord replays none of them, so on start, on each reconnect and
before a live message in a chat not read since, each player's DMs and private thread are read back after the last
message handled there, oldest first, at most ``catch_up_limit`` a chat a pass, each through the live DMs' path as
sent at its own time; the GM is told of a DM that came too late and of a player over the limit."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from service.client import ServiceError
from service.discord.answers import TOO_LATE
from service.discord.chat import ChannelGone, DeliveryFailed, DirectMessage, snowflake_at, snowflake_time
from service.discord.core import BridgeCore, ServiceDown
from service.discord.routing import channel_of
from service.discord.state import ai_seats, held
from service.discord.texts import digest, when

log = logging.getLogger("regent.discord")

# a player's messages read back per pass from their DMs' history after the bot was offline (oldest first); more are
# read on the next pass (each tick), and the GM is told
CATCH_UP_LIMIT = 50
# a player's last DMs answered that each read-back reads again for an edit made while the bot was offline
EDITS_CHECKED = 20
# the newest DMs answered by a bot that kept no fingerprint of their words (before session 32) that the first read-back
# of each chat since the upgrade fingerprints as they read then (20 DMs each for 25 players)
LEGACY_PRINTED = 500


class CatchUp(BridgeCore):
    def went_offline(self) -> None:
        """The bot lost Discord: what players send until it is back is not delivered to it (Discord replays
        nothing a bot missed), so each chat's history is read again (``catch_up``) before a live DM there."""
        self._live_ok.clear()
        self._online_since = None
        self.catch_up_due = True

    def went_online(self) -> None:
        """The bot has Discord (again): what players send from now on is delivered to it live, so a read-back that
        finds it does not answer it as sent while the bot was offline (``_sent_offline``). The first read-back since
        the bot (re)connected marks it too; the mark stays until the bot goes offline again."""
        if self._online_since is None:
            self._online_since = self.now()

    async def _read_from(self, key: str) -> int | None:
        """The Discord id after which a chat of ``key``'s players never read is read back: the game's creation or
        import in this bot (``read_from``, or ``dm_from``, the time an earlier version kept), or, for a game an older
        bot ran (its state has neither, nor any ``read`` mark), the last DM that bot recorded handling (``processed``
        or ``refused``): every DM sent since, the restart of the upgrade included, is read back (one it answered is
        not answered again). Where the old state names no DM at all, from the step now open. None while that step
        cannot be asked (the service down): the chats wait for the next pass. The GM is told what an upgrade read
        back (``_upgrade_notes``)."""
        entry = self.state.game(key)
        if entry.get("read_from") is not None:
            return int(entry["read_from"])
        if entry.get("dm_from") is not None:  # the host's time, as the bot kept it before ``read_from``
            return snowflake_at(self.discord_time(float(entry["dm_from"]))) - 1
        last = self.state.last_handled()
        if last is not None:
            since, how = last, f"since the last DM it handled ({when(snowflake_time(last), 'f')})"
        else:
            try:
                view = await self.rpc("game.view", **self._gm(key))
            except (ServiceDown, ServiceError):
                return None
            started = self.discord_time(float(view.get("step_started") or self.now()))
            since, how = snowflake_at(started) - 1, f"since the step now open began ({when(started, 'f')})"
        entry["read_from"], entry["upgrade_read"] = since, how
        self.state.set_game(key, entry)
        log.info("game %s: an older bot's state: DMs are read back %s", key, how)
        return since

    async def _chats(self) -> dict[str, tuple[int, int | None, int, list[str]]]:
        """Where players' messages come in: ``dm:USER`` or ``thread:ID`` -> (the player, the thread or None, the id
        reading them starts after, the games they play there). A player's seat an AI holds counts (their DM is
        answered so). A game whose start cannot be told yet (``_read_from``) is left out."""
        out: dict[str, tuple[int, int | None, int, list[str]]] = {}
        for key in self.config.games:
            entry = self.state.game(key)
            if entry is None:
                continue
            since = await self._read_from(key)
            if since is None:  # read on the next pass
                self.catch_up_due = True
                continue
            players = {u for u in self.users(key).values() if u}
            players |= {rec["player"] for rec in ai_seats(entry).values() if held(rec) and rec.get("player")}
            for user in sorted(players):
                chat = f"dm:{user}"
                have = out.get(chat)
                out[chat] = (user, None, min(since, have[2]), [*have[3], key]) if have else (user, None, since, [key])
        for key, user, tid in self.state.threads():
            if key in self.config.games and self.state.game(key) is not None:
                since = await self._read_from(key)
                if since is not None:
                    out[f"thread:{tid}"] = (user, tid, since, [key])
        return out

    async def catch_up(self) -> None:
        """Read back what players sent while the bot was offline (Discord replays none of it), on start and on each
        reconnect: each player's DMs and private thread after the last message handled there (for a chat never
        read, from the game's creation or import), oldest first, at most ``catch_up_limit`` a chat a pass, each
        through the live DMs' path as sent at its own time (``created``): a DM sent for a step resolved meanwhile
        is answered as too late, never stored for the step open now. A message the live delivery answered is not
        answered again. With the service down nothing is read (the next tick tries again)."""
        self.went_online()
        async with self._catching:
            self.catch_up_due = False
            games = [k for k in self.config.games if self.state.game(k) is not None]
            if not games:
                return
            try:
                await self.rpc("game.view", **self._gm(games[0]))
            except ServiceDown as err:
                self.catch_up_due = True
                log.warning("DMs sent while the bot was offline are read once the service answers (%s)", err)
                return
            except ServiceError:
                pass
            notes: list[tuple[str, str]] = []
            for chat, (user, thread, since, keys) in (await self._chats()).items():
                notes += (await self._catch_up_chat(chat, user, thread, since, keys))[1]
            if not self.catch_up_due:  # every chat read: what an upgrade read back is told once
                notes += self._upgrade_notes()
            await self._tell_gm(notes)

    async def _read_back(self, dm: DirectMessage) -> set[int]:
        """Before a live message: the player's messages sent in that chat while the bot was offline, read first
        (once a (re)connection); the ids read, which the live delivery then leaves alone."""
        chat = channel_of(dm)
        if chat in self._live_ok:
            return set()
        where = (await self._chats()).get(chat)
        if where is None:  # not a player's chat (a stranger): nothing to read back
            return set()
        handled, notes = await self._catch_up_chat(chat, *where, live=dm.message_id)
        await self._tell_gm(notes)
        return handled

    async def _catch_up_chat(self, chat: str, user: int, thread: int | None, since: int, keys: list[str],
                             live: int | None = None) -> tuple[set[int], list[tuple[str, str]]]:
        """Read back one chat's messages after its mark: (the ids answered or found answered, notes for the GM).
        ``live``: the id of the live message that made the read (``_read_back``): it and those sent after it came
        while the bot was online (a member the GM seated since the bot connected, a DM just after a reconnect), so
        their answers are not headed as read late."""
        handled: set[int] = set()
        notes: list[tuple[str, str]] = []
        async with self._reading.setdefault(chat, asyncio.Lock()):
            if chat in self._live_ok:
                return handled, notes
            await self._edits_offline(chat, user, thread, live)
            after = max(self.state.read(chat) or 0, since)
            try:
                missed = await self.chat.history(user, after, self.catch_up_limit, thread)
            except ChannelGone as err:  # the player's private thread was deleted or locked while the bot was away:
                # not read again on every pass. Before a live message there, the answer to it finds the thread gone
                # and opens a new one (``talking._tell``, which tells the GM); else it is forgotten now, and the
                # bot's next message to the player opens them a new one
                if thread is not None and live is None:
                    self.state.forget_thread(thread)
                log.warning("the private thread %s of user %s is gone: %s", thread, user, err)
                return handled, notes
            except DeliveryFailed as err:  # read again on the next tick; a live DM there is answered meanwhile
                self.catch_up_due = True
                log.warning("could not read back the messages of user %s (%s): %s", user, chat, err)
                return handled, notes
            for dm in missed.messages:
                try:
                    out = await self.on_dm(dm, dm.created if dm.created is not None else self.now(), caught_up=True,
                                           offline=self._sent_offline(dm, live), on_discord=dm.created is not None)
                except ServiceDown as err:
                    self.catch_up_due = True
                    log.warning("reading back %s stopped at message %s: %s", chat, dm.message_id, err)
                    return handled, notes
                handled.add(dm.message_id)
                told = out[0] if out is not None and out[0] is not None else keys[0]
                if out is not None and (self.state.game(told) or {}).get("upgrade_read"):
                    self._upgrade_read.setdefault(told, []).append(user)
                if out is not None and out[0] is not None and out[1].startswith(TOO_LATE):
                    notes.append((out[0], f"{self._seat_of(out[0], user)} sent a DM at "
                                          f"{when(dm.created or self.now(), 'f')} while I was offline; the step it was "
                                          "for was resolved before I could read it (its deadline passed or the GM "
                                          "resolved it), so it was not stored, and the player was told."))
            if missed.last is not None:
                self.state.set_read(chat, missed.last)
            if missed.more:
                self.catch_up_due = True
                log.warning("user %s sent more than %d messages while the bot was offline (%s): the rest are read "
                            "on the next pass", user, self.catch_up_limit, chat)
                notes += [(key, f"{self._seat_of(key, user)} sent more than {self.catch_up_limit} messages while I was "
                                f"offline: I answered the {self.catch_up_limit} oldest and read the rest next, "
                                f"{self.catch_up_limit} at a time.") for key in keys[:1]]
            else:
                self._live_ok.add(chat)
        return handled, notes

    async def _edits_offline(self, chat: str, user: int, thread: int | None, live: int | None = None) -> None:
        """Edits made while the bot was offline to DMs it had answered (Discord tells a bot of no edit it missed): the
        chat's last ``EDITS_CHECKED`` answered DMs are read again, and one whose words are not those answered is an
        edit, answered as the live edit is (``Dms._edited``: one stored is told the edit changes nothing, one refused
        is read again as the DM that came in then), and one deleted (missing from the history read whole) is told as the
        live deletion is (``Dms._deleted``). A chat that cannot be read is left to the read that follows.
        ``live``: a message whose edit Discord just delivered (``Dms.on_dm_edit``), answered as a live edit."""
        mark = self.state.read(chat)
        answered = self.state.answered_in(chat, mark, EDITS_CHECKED) if mark is not None else []
        older = [] if self.state.printed(chat) else self.state.unprinted(LEGACY_PRINTED)
        if not answered and not older:
            return
        try:
            now = await self.chat.history(user, min(answered[:1] + older[:1]) - 1,
                                          len(answered) + len(older) + self.catch_up_limit, thread)
        except DeliveryFailed:
            return
        older_here = set(older)
        for dm in now.messages:
            if dm.message_id in older_here and dm.message_id != live:  # answered by a bot that kept no fingerprint:
                # its words as they read now are, from here on (an edit made before this read is not seen: that bot's
                # words are unknown; a live edit is the live edit's to answer)
                self.state.fingerprint(dm.message_id, chat, digest(dm.text or ""), save=False)
            elif dm.message_id in answered and dm.message_id != live:
                await self._edited(dm, offline=True)
        if older:
            self.state.set_printed(chat)  # written with the fingerprints
        if not now.more:  # the chat read whole from the first DM checked: one answered and missing was deleted
            here = {dm.message_id for dm in now.messages}
            for gone in [m for m in answered if m not in here and m != live]:
                await self._deleted(gone, user, thread, offline=True)

    def _sent_offline(self, dm: DirectMessage, live: int | None) -> bool:
        """Whether a message a read-back found was sent while the bot was offline, and its answer says so: not the
        live message that made the read (``live``) nor one after it, nor one sent after the bot (re)connected (as
        the read-back on start runs: Discord delivers it live too)."""
        if live is not None and dm.message_id >= live:
            return False
        return (dm.created is None or self._online_since is None
                or dm.created < self.discord_time(self._online_since))

    def _upgrade_notes(self) -> list[tuple[str, str]]:
        """For each game an older bot ran, once its first read-back is done: from where its players' DMs were read
        back, and how many of each seat's were answered."""
        notes = []
        for key in self.config.games:
            entry = self.state.game(key)
            if entry is None or not entry.get("upgrade_read"):
                continue
            read = self._upgrade_read.pop(key, [])
            counts = {u: read.count(u) for u in dict.fromkeys(read)}
            got = ("; ".join(f"{n} from {self._seat_of(key, u, ping=False)}" for u, n in counts.items())
                   if counts else "none had been sent")
            notes.append((key, f"I was upgraded from a version that kept no mark of where it had read each player's "
                               f"DMs, so I read back every DM sent {entry['upgrade_read']}, each answered once "
                               f"(none stored twice): {got}."))
            entry.pop("upgrade_read")
            self.state.set_game(key, entry)
        return notes

    def _seat_of(self, key: str, user: int, ping: bool = True) -> str:
        """The seat ``user`` plays (or an AI holds for them) in ``key``, for the GM."""
        seat = next((s for s, u in self.users(key).items() if u == user), None) or next(
            (s for s, rec in ai_seats(self.state.game(key) or {}).items() if rec.get("player") == user), None)
        if not ping:
            return seat or "a player with no seat"
        return f"<@{user}> ({seat})" if seat else f"<@{user}>"

    async def _tell_gm(self, notes: list[tuple[str, str]]) -> None:
        """Notes for the GM about reading back DMs sent while the bot was offline: in each game's channel."""
        by_game: dict[str, list[str]] = {}
        for key, text in notes:
            log.warning("game %s: %s", key, text)
            by_game.setdefault(key, []).append(text)
        for key, texts in by_game.items():
            with contextlib.suppress(DeliveryFailed):
                await self._post(self.config.games[key].channel,
                                 "📬 Note for the GM, on the DMs sent while I was offline:\n"
                                 + "\n".join(f"- {t}" for t in texts))
