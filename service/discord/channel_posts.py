"""What the channel hears after each resolved step (``Posting``): the public report with its AI line, the deadline
or the GM's forcing, the next step or the result, the board picture (``_sync``, ``sync``); and each player's looks
at a deck, told at once while the orders are still to give (``_new_looks``, ``_tell_looks``)."""

from __future__ import annotations

import logging
from typing import Any

from service.client import ServiceError
from service.discord import chat as chatlib
from service.discord.chat import File, snowflake_time
from service.discord.core import BridgeCore, ServiceDown
from service.discord.core import step_key as step_key_of
from service.discord.texts import next_text, result_text, seat_label, shown, with_ai_line
from service.posting import by_seat

log = logging.getLogger("regent.discord")


class Posting(BridgeCore):
    async def _sync_quietly(self, key: str) -> None:
        """``_sync`` under the lock, the game's background work already waited for (``sync``); a service
        that cannot answer, or a post Discord fails (a 5xx, the channel gone), is told to the log and the post is made
        on the next tick: it never stops what called for the sync (the read-back of the DMs sent while the bot was
        offline reads on, other players' chats too)."""
        try:
            await self._sync(key, wait=False)
        except (ServiceDown, ServiceError, chatlib.DeliveryFailed) as err:  # posted on the next tick instead
            log.warning("game %s: could not post (%s); will retry", key, err)

    async def sync(self, key: str | None = None) -> None:
        """Post what happened in ``key``'s game (or every game's), the AI seats still deciding (an expert
        seat thinks for seconds) waited for without the bridge's lock, so other DMs are answered meanwhile."""
        for k in [key] if key else list(self.config.games):
            await self._settled(k)
            await self._draw_areas_ahead(k)  # the summaries' pictures, drawn while DMs are still answered
            async with self.lock:
                await self._sync_quietly(k)

    async def _sync(self, key: str, wait: bool = True) -> None:
        """Post what happened since the last post: the report, the board, the AI line, private summaries.
        ``wait``: first let the game's background work (AI seats) finish; callers that hold the bridge's
        lock during DMs and ticks wait beforehand instead (``_settled``), so no DM waits on an AI seat."""
        entry = self.state.game(key)
        if entry is None:
            return
        game = self.config.games[key]
        gm = self._gm(key)
        asked = self.now()  # the step the view shows was still open then
        view = await self.rpc("game.view", **gm, wait=wait)
        # The public report of everything since the last post (the GM's token with no seat: public
        # events only, display names; service game.report ``since``, counted as game.log counts).
        new = await self.rpc("game.report", **gm, since=entry["log_next"])
        step_key = step_key_of(view)
        posted = None  # the id of the post that announced the step now open
        if new["report"].strip():
            text = []
            if entry.pop("redo", False):  # the step the GM rolled back, resolved again: its events come a second time
                text.append("↩️ Resolved again after the GM's undo:")
            waiting = entry.get("waiting")
            if entry.get("forced"):
                text.append("⏩ The GM resolved the step without waiting: the rulebook defaults for "
                            f"{', '.join(entry['forced'])}.")
            elif waiting and not entry.get("expected") and self.now() >= waiting["deadline"] and waiting["seats"]:
                text.append(f"⏰ The deadline passed: the step was resolved with the rulebook defaults for "
                            f"{', '.join(seat_label(view, s) for s in by_seat(waiting['seats']))}.")
            text.append(with_ai_line(shown(new["report"])))  # players' names in it: plain text
            if view["over"]:
                text.append(result_text(view))
            else:
                text.append(next_text(view))
            posted = await self._post(game.channel, "\n".join(text))
            # kept as posted at once (with its picture due): a failure after it (the picture, the summaries, the service
            # lost) makes the next sync carry on from here, never post the report again
            entry["log_next"], entry["picture_due"] = new["next"], game.pictures
            self._announced(key, entry, view, posted)
            await self._board_after(key, entry)  # the board now: one due from before is this one
        elif step_key != entry["step_key"] and entry.get("announced") != step_key:
            self._announced(key, entry, view, await self._post(game.channel, next_text(view)))
        if entry.get("picture_due") and not new["report"].strip():  # Discord failed it after the last report
            await self._board_after(key, entry)
        self._step_seen[key] = (step_key, asked)
        # a Consolidation begins: each player is told what they hold to buy and bid with (rules: 003 5.
        # Consolidation; nothing else tells them), in the turn's summary when one goes out now, else alone
        balances = (await self._balances(key, view) if step_key != entry["step_key"]
                    and view["step"] == "consolidation" and not view["over"] else {})
        last_finished = view["turn"] if view["over"] else view["turn"] - 1
        await self._unsent_summaries(key)
        for turn in range(entry.get("summarised", 0) + 1, last_finished + 1):
            await self._summaries(key, turn, balances if turn == last_finished else None)
            entry["summarised"] = turn
            self.state.set_game(key, entry)
        self._void_areas(key, entry.get("summarised", 0))  # those drawn ahead and not sent: a seat now an AI's
        users = self.users(key)
        for seat, line in balances.items():  # told once: a Consolidation begun again after an undo, the same, is not
            name = f"balance:{seat}:{users[seat]}:{view['turn']}"  # the Consolidation's turn, as in _summary
            if self._told(key, name, line) is not None:
                await self.tell(key, users[seat], line)
                self._keep_told(key, name, line)
        if step_key != entry["step_key"]:
            entry["reminded"] = []
            if view["step"] == "orders" and not view["over"]:
                await self._tell_looks(key, view)
        # the seats whose decisions the rulebook makes if the deadline passes: not those an AI decides for (the GM put
        # one in a silent seat), nor those whose DM comes in before it resolves (``Dms._decided``)
        missing = [p["seat"] for p in view["pending"] if not p["submitted"] and not p.get("controller")]
        deadline = min((p["deadline"] for p in view["pending"] if not p["submitted"]), default=None)
        entry.update(log_next=new["next"], turn=view["turn"], step_key=step_key, expected=False, forced=None,
                     waiting={"seats": missing, "deadline": deadline} if missing else None)
        self.state.set_game(key, entry)

    def _announced(self, key: str, entry: dict[str, Any], view: dict[str, Any], posted: int | None) -> None:
        """The step ``view`` shows was announced in the channel by the post ``posted`` (None: its id unknown), the
        report before it if any: kept in the state at once (``announced``, and when the step began, ``step_post``), so
        a sync cut short after it does not announce it again."""
        if step_key_of(view) != entry["step_key"]:
            self._keep_step_post(key, entry, view, posted)
        entry["announced"] = step_key_of(view)
        self.state.set_game(key, entry)

    def _keep_step_post(self, key: str, entry: dict[str, Any], view: dict[str, Any], posted: int | None) -> None:
        """The step ``view`` shows was announced by the post ``posted`` (None: unknown): when it began on Discord's
        clock is kept in the game's entry (``step_post``, written with it; ``BridgeCore.step_began`` reads it). The
        service's ``step_started`` converted with the offset just measured (a later correction of the host's clock
        does not move it), but never after the post's id, nor, when this bot saw the step before still open
        (``_step_seen``), before that sighting, on Discord's clock as the post measures it (host seconds between the
        two, which no clock offset changes): a clock minutes off moves it by no more than the time in between."""
        entry.pop("step_post", None)
        if posted is None:
            return
        began = min(self.discord_time(float(view.get("step_started") or 0.0)), snowflake_time(posted))
        seen = self._step_seen.get(key)
        if seen is not None and seen[0] == entry["step_key"]:
            began = max(began, snowflake_time(posted) - (self.now() - seen[1]))
        entry["step_post"] = {"step": step_key_of(view), "id": posted, "began": began}

    async def _tell_looks(self, key: str, view: dict[str, Any]) -> None:
        """A new orders step: each player whose seat looked at a deck as it began (Weather forecast's free
        look) is told the card by DM, while the orders are still to give."""
        for seat, user in self.users(key).items():
            if not user or ((view.get("players") or {}).get(seat) or {}).get("eliminated"):
                continue
            try:
                looks = self._new_looks(key, seat, await self.rpc("game.view", **self._seat(key, seat)))
            except ServiceError as err:
                log.warning("game %s: no looks for %s: %s", key, seat, err)
                continue
            if looks:
                await self.tell(key, user, f"**Your look for the orders of turn {view['turn']}** ({seat}, {key}):\n"
                                + "\n".join(f"👁 {line}" for line in looks))

    def _new_looks(self, key: str, seat: str, view: dict[str, Any], again: bool = False) -> list[str]:
        """The seat's looks at the decks this turn (its own view's ``peeks``, made from the orders step on) not
        yet told (``again``: all of them), as lines; remembered as told, per turn. rules: 003 Kalu'Ak, Weather
        forecast; Wizard Sanctum, the Palantír: a look is worth something before the orders are given, so it
        is told at once, not only in the turn's summary."""
        entry = self.state.game(key)
        peeks, turn = view.get("peeks") or [], view["turn"]  # each look in its seat's words (engine peeks.look_text)
        told = entry.setdefault("looks", {})
        done = told.get(seat, [turn, 0])
        count = 0 if again or done[0] != turn else done[1]
        lines = [p["text"] for p in peeks[count:]]
        if [turn, len(peeks)] != done:
            told[seat] = [turn, len(peeks)]
            self.state.set_game(key, entry)
        return lines

    def _next(self, view: dict[str, Any]) -> str:
        """The channel's line for the step open (``texts.next_text``)."""
        return next_text(view)

    def _result(self, view: dict[str, Any]) -> str:
        """The game's end as the channel reads it (``texts.result_text``)."""
        return result_text(view)

    async def _board_after(self, key: str, entry: dict[str, Any]) -> None:
        """The board picture after a report posted (``_sync``). One Discord fails (a 5xx, a lost connection) or the
        service cannot draw for now (down) is kept due in the game's entry (``picture_due``) and posted at the next
        sync, as the board then is (a later report's own picture replaces it): the report posted before it is not
        posted again, as it was when the failure left the sync unfinished."""
        entry.pop("picture_due", None)
        if not self.config.games[key].pictures:
            return
        try:
            await self._picture(key, self.config.games[key].channel)
        except (chatlib.DeliveryFailed, ServiceDown) as err:
            log.warning("game %s: the board picture is posted at the next sync: %s", key, err)
            entry["picture_due"] = True

    async def _picture(self, key: str, channel: int, turn: int | None = None) -> str | None:
        """Post the board picture; returns why not when it could not be drawn."""
        fields = {"turn": turn} if turn is not None else {}
        try:
            png = await self.rpc("game.render", **self._gm(key), format="png", kind="board", public=True, **fields)
        except ServiceError as err:
            log.warning("game %s: no board picture: %s", key, err)
            return err.message
        if not isinstance(png, bytes) or len(png) > chatlib.FILE_LIMIT:
            return f"the picture is {len(png)} bytes, over Discord's 10 MiB"
        await self.chat.post(channel, "", File(f"{key}-board.png", png))
        return None
