"""A player's DM (``Dms``): answered once (``on_dm``; Discord delivering it again, an edit, ``on_dm_edit``, a deletion,
``on_dm_delete``), routed to the game it is for (the seats the member holds, a ``game: NAME`` header, a private
thread's game, a seat an AI holds for them), refused when it came in before the step now open began
(``answers.too_late``), submitted for the step it came in for, and answered with what was stored; its member mentions
made seats (``_mentions``) and its notes to the GM kept for ``/regent notes`` (``_keep_notes``)."""

from __future__ import annotations

import logging
import re
from typing import Any

from service.client import ServiceError
from service.discord.answers import DELETED, EDITED, FINAL, REPEATED, RESEND, accepted, refusal, too_late
from service.discord.areas import area_asked
from service.discord.chat import DirectMessage, snowflake_time
from service.discord.core import BridgeCore, ServiceDown
from service.discord.routing import channel_of, game_header, names_a_game, step_of
from service.discord.state import ai_seats, held
from service.discord.texts import STEP_WORDS, digest, when

log = logging.getLogger("regent.discord")

USER_MENTION = re.compile(r"<@!?(\d+)>")  # a member, as Discord writes a mention in a message's text
MAX_KEPT_NOTES = 200  # players' notes to the GM a game keeps until /regent notes (the oldest dropped first)
# seconds after an answer to a player's DM during which the same answer to their next DMs is said once (``REPEATED``),
# then left out: Discord rate-limits a bot's DMs to one player, and the bot answers under its lock, so a player sending
# 30 DMs in a minute would make every other player's answer wait behind 30 copies of one
REPEAT_WINDOW = 60.0


class Dms(BridgeCore):
    async def on_dm(self, dm: DirectMessage, arrived: float | None = None, *, edit: bool = False,
                    caught_up: bool = False, offline: bool = True,
                    on_discord: bool = False) -> tuple[str | None, str, bool] | None:
        """One DM (``arrived``: when it came in, if not now: an edited DM's first arrival, ``on_dm_edit``; a DM
        read back from the history, ``caught_up``, its own sending time; ``on_discord``: ``arrived`` is on Discord's
        clock, a message's own time, not the host's, ``step_began``; ``offline``: it was sent while the bot was
        offline, and its answer says so, where one read back with a live DM was not: the live one itself, or one
        sent after it). Each message is answered once:
        one already answered (stored, or refused for good: Discord delivering it again, or the catch-up and the live
        delivery both seeing it) is ignored, but for an edit of a refused DM, read again (``edit``). A live DM in a
        chat whose history was not read since the bot (re)connected is answered after the ones sent there while the
        bot was offline (in the order sent). Returns (game, answer, stored?), or None when nothing was answered."""
        if arrived is None:
            arrived = self.now()  # before the lock: a step may resolve while the DM waits for it (``_dm``)
        if not (edit or caught_up) and dm.message_id in await self._read_back(dm):
            return None  # read just now from the history, among those sent before it
        async with self.lock:
            refused = self.state.refused(dm.message_id)
            if self.state.processed(dm.message_id) is not None or (
                    not edit and refused is not None and not refused.get("resend")):
                log.info("message %s delivered again; already answered, ignored", dm.message_id)
                if caught_up:
                    self.state.set_read(channel_of(dm), dm.message_id)
                return None
            key, answer, stored = await self._dm(dm, arrived, on_discord)
            if caught_up and answer == RESEND:  # left unread: the next pass reads it (the player need not resend)
                raise ServiceDown("the service could not be reached while reading back a DM")
            if key is not None and (caught_up or channel_of(dm) in self._live_ok):
                self.state.set_read(channel_of(dm), dm.message_id, save=False)  # written with the mark below
            # the words answered and where (an edit made while the bot was offline is found by them: ``catch_up``)
            seen = {"words": digest(dm.text or ""), "chat": channel_of(dm)}
            if stored:
                self.state.mark_processed(dm.message_id, {"game": key, "at": self.now(), **seen})
            else:
                self.state.mark_refused(dm.message_id, arrived, resend=answer == RESEND, on_discord=on_discord,
                                        **seen)
            said = answer
            if caught_up and offline and dm.created is not None:  # the answer comes late: which DM it answers
                said = f"📬 Your DM of {when(dm.created, 'f')}, sent while I was offline, read now:\n{answer}"
            # a picture the answer carries (``board me``: ``areas.py``), sent with its words
            file = self._answer_files.pop(dm.message_id, None)
            said = self._answer_once(dm.user_id, said, file is not None)
            if said is not None:
                await self.tell(key, dm.user_id, said, dm.thread_id, file=file)
        if stored and key is not None:  # what the DM let AI seats do is waited for outside the lock (sync)
            await self.sync(key)
        return key, answer, stored

    def _answer_once(self, user_id: int, said: str, picture: bool = False) -> str | None:
        """What to send for the answer ``said`` to ``user_id``'s DM: ``said``, or, when it is the answer they were sent
        last, less than ``REPEAT_WINDOW`` ago (a flood of DMs: the same one again, many "already stored"), ``REPEATED``
        once, then nothing while they go on (the window runs from their last DM). A stored decision and a picture
        asked for are always sent; the DM itself is read and kept either way."""
        now = self.now()
        last = self._last_answer.get(user_id)
        if (picture or said.startswith("**Stored**") or last is None or last[0] != said
                or now - last[1] >= REPEAT_WINDOW):
            self._last_answer[user_id] = (said, now, False)
            return said
        self._last_answer[user_id] = (said, now, True)
        if last[2]:
            log.info("user %s: the same answer again within %.0f s, not sent", user_id, REPEAT_WINDOW)
            return None
        return REPEATED

    async def on_dm_edit(self, before: str | None, dm: DirectMessage) -> None:
        """A DM the player edited (``before``: its words until now, None when unknown: a DM sent before the bot last
        started, which discord.py does not keep; ``dm``: the edited message). Editing a DM the
        bot answered for good changes nothing, and the player is told so: rules 003, "Once a DM is sent to the
        GM, your orders/choices are final". A DM of which nothing was stored (refused, sent while the service
        was down) is read again in its edited words: the player fixed it where they sent it. It is read as the DM
        that first came in then, so an old refused DM edited after its step resolved is refused as written for
        that step (``_too_late``), never stored as the decision of a step begun since."""
        if before == dm.text:  # Discord adds a link preview or an embed: the words are the same
            return
        if dm.message_id in await self._read_back(dm):  # sent while the bot was offline: read just now, as edited
            return
        await self._edited(dm)

    async def _edited(self, dm: DirectMessage, offline: bool = False) -> None:
        """An edit of a DM (``on_dm_edit``; ``offline``: made while the bot was offline, found by the read-back). Words
        the bot answered already (a link preview added, an edit already handled) are no edit."""
        async with self.lock:
            answered = self.state.processed(dm.message_id)
            first = self.state.refused(dm.message_id)
            if (answered or first or {}).get("words") == digest(dm.text or ""):
                return
            if answered is not None:
                answered["words"] = digest(dm.text or "")  # told once
                self.state.mark_processed(dm.message_id, answered)
                said = EDITED
                if offline and dm.created is not None:
                    said = f"📬 Your DM of {when(dm.created, 'f')} was edited while I was offline:\n{EDITED}"
                await self.tell(answered.get("game"), dm.user_id, said, dm.thread_id)
                return
        # a DM never answered (sent while the bot was offline) came in when it was sent
        await self.on_dm(dm, float(first["arrived"]) if first else dm.created, edit=True,
                         on_discord=bool(first.get("on_discord")) if first else dm.created is not None)

    async def on_dm_delete(self, message_id: int, user_id: int, thread_id: int | None = None) -> None:
        """A player deleted a DM (``thread_id``: a message in their private thread). One the bot answered for good
        stands as answered, and the player is told so, as for an edit (rules 003: "Once a DM is sent to the GM, your
        orders/choices are final"): a player who deleted their orders to take them back must not believe they did.
        One of which nothing was stored was never a decision: nothing to say."""
        await self._deleted(message_id, user_id, thread_id)

    async def _deleted(self, message_id: int, user_id: int, thread_id: int | None = None,
                       offline: bool = False) -> None:
        """A DM deleted (``on_dm_delete``; ``offline``: while the bot was offline, found missing by the read-back,
        ``catch_up._edits_offline``): one answered for good is told, once."""
        async with self.lock:
            answered = self.state.processed(message_id)
            if answered is None or answered.get("deleted"):
                return
            answered["deleted"] = True  # told once (a read-back finds it missing again)
            self.state.mark_processed(message_id, answered)
            said = DELETED
            if offline:
                said = (f"📬 You deleted your DM of {when(snowflake_time(message_id), 'f')} while I was offline:\n"
                        f"{DELETED}")
            await self.tell(answered.get("game"), user_id, said, thread_id)

    async def _dm(self, dm: DirectMessage, arrived: float, on_discord: bool = False) -> tuple[str | None, str, bool]:
        """(game, answer, stored?) for one DM that came in at ``arrived`` (the bridge's clock; ``on_discord``:
        Discord's, a DM read back, whose step is told on Discord's clock, ``step_began``)."""
        text = dm.text or ""
        choices = self.seats_of(dm.user_id)
        if dm.thread_id is not None:
            owner = self.state.thread_owner(dm.thread_id)
            if owner is None or owner[1] != dm.user_id:
                return (owner[0] if owner else None), ("This thread is for another player's decisions; "
                                                       "send yours to me by DM. Nothing was stored."), False
            choices = [c for c in choices if c[0] == owner[0]]
        # the seats an AI holds for this member (the GM put it there): their DMs for those games are answered so
        away = [(k, s) for k in self.config.games if self.state.game(k)
                for s, rec in ai_seats(self.state.game(k)).items() if held(rec) and rec.get("player") == dm.user_id]

        def ai_holds(k: str, s: str) -> tuple[str, str, bool]:
            return k, (f"Your seat {s} in {k} is played by an AI now (the GM put it there), so I cannot take "
                       f"orders from you for it; nothing was stored. Ask the GM to give it back to you "
                       f"(`/regent seat {s} human`)."), False

        if not choices:
            if away:
                return ai_holds(*away[0])
            return None, ("You have no seat in a Regent game on this server, so I cannot take orders from you. "
                          "Ask the GM to give you a seat."), False
        lines = text.splitlines()
        first = next((i for i, line in enumerate(lines) if line.strip()), None)
        named = game_header(lines[first]) if first is not None else None
        known = {k.casefold(): k for k in self.config.games}  # `game: Main` names the game main
        # `game: NAME` (with its colon) names a game even for a player in one: a name that is none of theirs
        # is answered naming their games, not handed to the rules as an order ("unknown order 'game:'")
        said = first is not None and names_a_game(lines[first])
        if named and (len(choices) > 1 or named.casefold() in known or said):
            picked = [c for c in choices if c[0] == known.get(named.casefold())]
            held_there = [a for a in away if a[0] == known.get(named.casefold())]
            if not picked and held_there:  # a game they play in, but the GM gave their seat there to an AI
                return ai_holds(*held_there[0])
            if not picked:
                return choices[0][0], (f"You have no seat in a game called {named!r}, so nothing was stored; "
                                       f"your games: {', '.join(dict.fromkeys(c[0] for c in choices))}. Start "
                                       "your DM with `game: NAME` naming one of them."), False
            choices, text = picked, "\n".join(lines[first + 1:])
        if not text.strip():
            return choices[0][0], "Your message has no orders in it: send your decision as text.", False
        asked = area_asked(text)  # "board me", "board Alice": a picture, not a decision
        if asked is not None:
            return await self._area_answer(dm, choices, *asked)
        target = choices[0][0]  # the game named in answers (the one the DM is for, once known)
        try:
            waiting = []
            for key, seat in choices:
                mine = await self.rpc("game.pending", **self._seat(key, seat))
                if any(not p["submitted"] for p in mine):
                    waiting.append((key, seat))
            if len(choices) > 1 and not waiting:  # a `game:` line would change nothing: said at once
                names = ", ".join(f"{k} ({s})" for k, s in choices)
                return choices[0][0], (f"None of your games ({names}) waits for a decision from you right now; "
                                       "nothing was stored. The channels say which step is open."), False
            if len(choices) > 1 and len(waiting) != 1:
                names = ", ".join(f"{k} ({s})" for k, s in waiting)
                return choices[0][0], (f"You play in several games ({names}). Start your DM with a line "
                                       f"`game: NAME` to say which one it is for."), False
            key, seat = waiting[0] if len(choices) > 1 else choices[0]
            target = key
            mine = await self.rpc("game.pending", **self._seat(key, seat))
            if not mine:
                view = await self.rpc("game.view", **self._seat(key, seat))
                if view.get("over"):
                    return key, f"The game {key} is over; there is nothing more to send.", True
                if ((view.get("players") or {}).get(seat) or {}).get("eliminated"):
                    return key, (f"Your seat {seat} in {key} was eliminated, so the game no longer waits for "
                                 "decisions from you; nothing was stored."), True
                return key, (f"Nothing is pending for you ({seat}) in {key} right now: the game is in the "
                             f"{STEP_WORDS.get(view['step'], view['step'])} step and does not wait for you. "
                             "Nothing was stored."), True
            if all(p["submitted"] for p in mine):
                decided = (ai_seats(self.state.game(key)).get(seat) or {}).get("decided")
                now = await self.rpc("game.view", **self._seat(key, seat)) if decided is not None else {}
                if decided is not None and list(step_of(now)) == decided:
                    return key, (f"The AI that played your seat ({seat}, {key}) had already decided the "
                                 f"{STEP_WORDS.get(mine[0]['kind'], mine[0]['kind'])} step before the seat was "
                                 "handed to you; nothing was changed. Your DMs count from the next step."), True
                return key, (f"Your decision for this step ({seat}, {key}) is already stored; nothing was changed. "
                             + FINAL), True
            fields: dict[str, Any] = {"text": text}
            if self.config.games[key].lenient:
                fields["lenient"] = True
            seen = await self.rpc("game.view", **self._seat(key, seat))
            before = step_of(seen)
            began = self.step_began(key, seen) if on_discord else float(seen.get("step_started") or 0.0)
            if began > arrived:
                return key, too_late(key, seat, mine[0]["kind"]), False
            fields["text"] = self._mentions(key, text)
            # the step the DM came in for: one resolved before the service stores it is refused, never taken as
            # the next step's decision (`none` stored as the Consolidation's `Bid 0`); its start (game.view's own
            # number, passed back unchanged) tells apart a step of the same kind in the same turn: one game.undo
            # reopened, a second Dragon attack, a Bank of Lannuvár round
            fields.update(turn=seen["turn"], step=seen["step"])
            if seen.get("step_started") is not None:
                fields["step_started"] = seen["step_started"]
            result = await self.rpc("game.submit", **self._seat(key, seat), **fields)
        except ServiceDown:
            return target, RESEND, False
        except ServiceError as err:
            if err.code == "conflict" and (err.details.get("for_step") is not None
                                           or err.details.get("for_step_started") is not None):  # it ended meanwhile
                return target, too_late(key, seat, str(err.details.get("step"))), False
            answer = refusal(err)
            rejected = (err.details.get("rejected") or []) if err.code == "invalid_order" else []
            if rejected and all(str(r.get("reason", "")).startswith("not a choice for the") for r in rejected):
                # a late correction of a step already resolved, or a decision sent before its step: the bot
                # cannot tell them apart (it does not know the engine's steps), so it says both
                answer += (f"\nThe game now waits for your {STEP_WORDS.get(mine[0]['kind'], mine[0]['kind'])} "
                           f"({seat}, {key}). Send each decision in its own step: one already resolved cannot be "
                           "changed (DMs are final once stored), and a later step's is sent when I announce it.")
            return target, answer, err.code not in ("invalid_order", "invalid_params", "internal", "unavailable",
                                                    "rate_limited", "too_large")
        names = {s: str(p["name"]) for s, p in (seen.get("players") or {}).items() if p.get("name")}
        answer = accepted(key, seat, mine[0]["kind"], result, names)
        notes = [str(n) for n in result.get("notes") or []]
        if notes:  # "// away next week": in Discord no person reads the DM, so the GM gets it with /regent notes
            self._keep_notes(key, seat, notes, before)
            answer += ("\n📝 Your note for the GM is kept for them." if len(notes) == 1 else
                       f"\n📝 Your {len(notes)} notes for the GM are kept for them.")
        # rules: 003 Weather forecast / Palantír: a DM of only look-ahead abilities acts at once and is
        # not yet the seat's orders (docs/service.md, ability-only messages)
        # (only in the same step: a DM that completed the step may have resolved it at once, and the
        # seat's next step waiting for it is not this DM's business)
        try:
            now = await self.rpc("game.view", **self._seat(key, seat))
            same = step_of(now) == before
            still = same and any(p["seat"] == seat and not p["submitted"] for p in now["pending"])
            # what a Palantír or a paid Weather forecast just showed, while the orders are still to give (a
            # DM that resolved the step has given them); `Weather forecast` alone asks for the looks again
            again = "Weather forecast" in (result.get("accepted") or [])
            looks = self._new_looks(key, seat, now, again) if same and now.get("step") == "orders" else []
        except (ServiceDown, ServiceError):  # stored all the same: the answer must say so
            still, looks = False, []
        answer += "".join(f"\n👁 {line}" for line in looks)
        if not still:
            self._decided(key, seat, before)
        if still:  # not yet the seat's decision: "final" is for the DM that gives it
            answer = answer.replace("\n" + FINAL, "") + ("\nThese act at once; your decision for this step is "
                                                        "still to come: send it in another DM.")
        return key, answer, True

    def _accepted(self, key: str, seat: str, kind: str, result: dict[str, Any]) -> str:
        """The answer to a stored DM (``answers.accepted``)."""
        return accepted(key, seat, kind, result)

    def _mentions(self, key: str, text: str) -> str:
        """``text`` with Discord's member mentions (``<@ID>``, what Discord sends for a mention of a member) made
        the seat that member holds in this game; a member with no seat here is left as written (the engine's
        answer says it names no one). ``@Name`` needs nothing here: the engine reads a name after ``@``."""
        record = ai_seats(self.state.game(key) or {})
        holders = {user: seat for seat, user in ((s, u or (record.get(s) or {}).get("player"))
                                                 for s, u in self.users(key).items()) if user}
        return USER_MENTION.sub(lambda m: holders.get(int(m.group(1)), m.group(0)), text)

    def _keep_notes(self, key: str, seat: str, notes: list[str], step: tuple[Any, Any, Any]) -> None:
        """A stored DM's notes to the GM (``// ...``, docs/dm-syntax.md), kept in the game's entry until the GM reads
        them (``/regent notes``); at most ``MAX_KEPT_NOTES``, the oldest dropped first."""
        entry = self.state.game(key)
        kept = entry.setdefault("notes", [])
        kept += [{"seat": seat, "turn": step[0], "step": step[1], "text": text} for text in notes]
        if len(kept) > MAX_KEPT_NOTES:
            log.warning("game %s: %d notes to the GM unread; the oldest dropped", key, len(kept) - MAX_KEPT_NOTES)
            del kept[: len(kept) - MAX_KEPT_NOTES]
        self.state.set_game(key, entry)
        log.info("game %s: %d note(s) from %s for the GM (/regent notes)", key, len(notes), seat)
