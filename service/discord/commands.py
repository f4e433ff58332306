"""The GM's ``/regent`` commands in a game's channel (``Commands``): checked for the GM's role and deferred at once
(``on_command``), then status, advance (never a step begun since the command: ``begun_since``, ``moved_on``),
deadline, undo, report, board, notes and export (``_command``); ``seat`` is ``seat_command.py``'s, the commands that
need no game ``world_commands.py``'s."""

from __future__ import annotations

import logging
from typing import Any

from service.client import ServiceError
from service.discord import chat as chatlib
from service.discord.chat import Command, File, Reply
from service.discord.core import BridgeCore, ServiceDown
from service.discord.routing import step_guard
from service.discord.texts import STEP_WORDS, result_text, seat_label, shown, when, with_ai_line
from service.discord.world_commands import world_command
from service.posting import by_seat, split_messages

log = logging.getLogger("regent.discord")

# the one command whose answer is for the channel (the public report of a turn); every other answers the GM alone:
# the game file and the players' notes are the GM's, the bot posts what seat, deadline, advance, undo and board change
# in the channel itself (a public answer would say it twice there), and status names each waiting member (a public
# answer would ping them all at each look)
PUBLIC_COMMANDS = ("report",)


class Commands(BridgeCore):
    async def on_command(self, cmd: Command) -> None:
        reply = cmd.reply
        assert reply is not None
        if cmd.created is None:  # before any wait: a step may resolve while the command waits for the lock
            cmd.created = self.discord_time(self.now())  # on Discord's clock, as its own stamp would be
        if not await self.chat.has_role(cmd.user_id, self.config.gm_role):
            await reply.send(f"Only the GM (role {self.config.gm_role}) can use /regent commands; "
                             "nothing was changed.", private=True)
            return
        # within Discord's 3 seconds, whatever the service then takes; answered to the GM alone but for the report
        await reply.defer(private=cmd.name not in PUBLIC_COMMANDS)
        try:
            game = self.config.game_for_channel(cmd.channel_id)
            if game is not None:  # AI seats still thinking are waited for without the bridge's lock
                await self._settled(game.key)
            async with self.lock:
                await self._command(cmd, reply)
            if game is not None and cmd.name == "seat":  # an AI now in the seat may think for seconds
                await self.sync(game.key)
        except ServiceDown:
            await reply.send("The Regent service cannot be reached; nothing was changed. Try again shortly.")
        except ServiceError as err:  # cut to Discord's message size, as every answer: one too long is no answer at all
            await send_text(reply, f"Refused by the service ({err.code}): {err.message}. Nothing was changed.")
        except ValueError as err:
            await send_text(reply, f"{err}. Nothing was changed.")

    async def _command(self, cmd: Command, reply: Reply) -> None:
        name, opts = cmd.name, cmd.options
        if name in ("npr invasions", "npn plan"):
            await world_command(self.rpc, cmd, reply)
            return
        game = self.config.game_for_channel(cmd.channel_id)
        if game is None or self.state.game(game.key) is None:
            await reply.send("This channel has no Regent game (see the channels in discord.toml).")
            return
        key, gm = game.key, self._gm(game.key)
        if name == "status":
            await self._sync(key)
            await send_text(reply, status_text(key, await self.rpc("game.view", **gm, wait=True), self.users(key)))
        elif name == "advance":
            entry = self.state.game(key)
            entry["expected"] = True
            self.state.set_game(key, entry)
            force = bool(opts.get("force"))
            # the seats still silent (AI seats have decided once the view waited for them): with force the
            # rulebook decides for them, and the channel is told whose decisions were defaulted, as on expiry
            before = await self.rpc("game.view", **gm, wait=True)
            if begun_since(cmd, self.step_began(key, before)):
                await reply.send(moved_on(before, "Nothing was forced" if force else "Nothing was resolved"))
                return
            missing = by_seat(p["seat"] for p in before["pending"] if not p["submitted"])
            silent = missing if force else []
            try:  # the step the GM meant, never one begun between this look and the call (an AI seat's decision)
                await self.rpc("game.advance", **gm, force=force, wait=True, **step_guard(before))
            except ServiceError as err:
                if err.code == "conflict" and not force and missing and "step_started" not in (err.details or {}):
                    await reply.send(f"Not resolved: the {STEP_WORDS.get(before['step'], before['step'])} step still "
                                     f"waits for {', '.join(seat_label(before, s) for s in missing)}. Wait for their "
                                     "DMs (or the deadline), or give `/regent advance force: True` to resolve it now "
                                     "with the rulebook defaults for them. Nothing was changed.")
                    return
                if err.code != "conflict" or "step_started" not in (err.details or {}):
                    raise
                await reply.send(moved_on(await self.rpc("game.view", **gm),
                                          "Nothing was forced" if force else "Nothing was resolved"))
                return
            entry = self.state.game(key)
            entry["forced"] = [seat_label(before, s) for s in silent]
            self.state.set_game(key, entry)
            await reply.send("Step resolved" + (f"; the rulebook defaults for {', '.join(entry['forced'])}."
                                                if silent else "."))
            await self._sync(key)
        elif name == "seat":
            await self._seat_command(key, opts, reply)
        elif name.startswith("deadline "):
            action = name.split()[1]
            fields: dict[str, Any] = {"action": action}
            if action == "extend":
                hours = opts.get("hours")
                if not isinstance(hours, int | float) or isinstance(hours, bool) or hours <= 0:
                    raise ValueError("extend needs a number of hours above 0")
                fields["seconds"] = float(hours) * 3600
            out = await self.rpc("game.deadline", **gm, **fields)
            if out.get("held"):  # the undo reopened the step: no deadline resolves it, so none moved
                await reply.send("This step was reopened by /regent undo: no deadline resolves it, so there is none "
                                 "to extend, pause or resume. Resolve it with /regent advance once the DMs are in.")
                return
            dl = min((p["deadline"] for p in out["pending"]), default=None)
            what = {"extend": f"extended by {opts.get('hours')} h", "pause": "paused", "resume": "running again"}
            msg = f"The GM's clock: the deadline is {what[action]}" + (
                f"; it is now {when(dl, 'f')} ({when(dl)})." if dl is not None and action != "pause" else ".")
            await reply.send(msg)
            await self._post(game.channel, msg)
        elif name == "undo":
            before = await self.rpc("game.view", **gm, wait=True)
            if begun_since(cmd, self.step_began(key, before)):
                await reply.send(moved_on(before, "Nothing was undone"))
                return
            out = await self.rpc("game.undo", **gm)
            after = await self.rpc("game.view", **gm)
            entry = self.state.game(key)
            entry["log_next"] = (await self.rpc("game.log", **gm, since=0))["next"]
            entry["summarised"] = min(entry.get("summarised", 0), out["turn"] - 1)  # a turn undone is summed up again
            entry["turn"] = out["turn"]
            entry["redo"] = True  # its events, posted before, come again when it resolves: said so (_sync)
            self.state.set_game(key, entry)
            self._void_areas(key)  # a turn played again: the pictures drawn ahead of its summaries are void
            msg = (f"↩️ The GM rolled the last resolved step back: turn {out['turn']}, "
                   f"{STEP_WORDS.get(out['step'], out['step'])}, is open again. Decisions already sent for it stand; "
                   "the GM resolves it with /regent advance.")
            # what that step announced is void: the game's end, and who it eliminated (they play on)
            back = [s for s in by_seat(after["players"]) if (before["players"].get(s) or {}).get("eliminated")
                    and not after["players"][s].get("eliminated")]
            if before["over"] and not after["over"]:
                msg += "\nThe game is NOT over: the end announced for that step is void."
            if back:
                msg += (f"\nVoid too: the elimination of {', '.join(seat_label(after, s) for s in back)}; "
                        "they are back in the game.")
            late = by_seat(p["seat"] for p in after.get("pending") or []
                           if not p["submitted"] and not p.get("controller"))  # in seat order, not ranking order
            # rules: 003 — the step's choices are revealed together: those posted when it resolved were seen, so a
            # decision sent now by a seat the defaults had stood in for is made knowing them
            who = ", ".join(seat_label(after, s) for s in late)
            await reply.send("Undone." + (f" Note: what the step revealed was posted already; {who} may now send a "
                                          "decision made knowing it (rules 003 reveal a step's choices together)."
                                          if late else ""))
            await self._post(game.channel, msg)
            users = self.users(key)
            for s in back:
                if users.get(s):
                    await self.tell(key, users[s], f"↩️ The GM rolled back the step that eliminated you ({s}, {key}): "
                                                   "you are back in the game. The channel says which step is open.")
            await self._sync(key)
        elif name == "report":
            await send_text(reply, await self._public_report(key, opts.get("turn")))
        elif name == "board" and (opts.get("focus") is not None or opts.get("radius") is not None):
            await self._area_for_gm(key, opts, reply)  # a seat's area (areas.py), to the GM alone
        elif name == "board":
            why = await self._picture(key, game.channel, opts.get("turn"))
            await reply.send("Board posted." if why is None else f"No picture: {why}")
        elif name == "notes":
            for part in split_messages(self._notes(key, await self.rpc("game.view", **gm))):
                await reply.send(part, private=True)
        elif name == "export":
            out = await self.rpc("game.export", **gm)
            blob = out["blob"]
            if len(blob) > chatlib.FILE_LIMIT:
                await reply.send(f"The game file is {len(blob)} bytes, over Discord's 10 MiB; use `regent call "
                                 "game.export` on the server instead.", private=True)
            else:
                await reply.send(f"The game file of {key} (all secrets in it: keep it to yourself).",
                                 File(f"{key}.regent-game", blob), private=True)
        else:
            await reply.send(f"Unknown command {name!r}.")

    async def _public_report(self, key: str, turn: Any) -> str:
        gm = self._gm(key)
        view = await self.rpc("game.view", **gm)
        t = view["turn"] if turn is None else turn
        if not isinstance(t, int) or isinstance(t, bool) or not 1 <= t <= view["turn"]:
            raise ValueError(f"turn must be between 1 and {view['turn']}")
        try:
            rep = await self.rpc("game.report", **gm, turn=t)  # the GM's token, no seat: public events only
        except ServiceError as err:
            if err.code == "invalid_params" and (err.details or {}).get("field") == "turn":
                # a turn before an imported position's: the service says so (no event log is carried)
                why = err.message.removeprefix("turn: ")
                return f"**{key}**\n{why[:1].upper()}{why[1:]}."
            raise
        return f"**{key}**\n" + with_ai_line(shown(rep["report"]))

    def _notes(self, key: str, view: dict[str, Any]) -> str:
        """The players' notes to the GM kept since the GM last read them (``/regent notes``), then forgotten."""
        entry = self.state.game(key)
        kept = entry.pop("notes", [])
        self.state.set_game(key, entry)
        if not kept:
            return f"**{key}**: no note from the players for you since you last read them."
        lines = [f"**{key}**: notes from the players for you (`// ...` in their DMs), oldest first:"]
        lines += [f"- turn {n['turn']}, {STEP_WORDS.get(n['step'], n['step'])}, "
                  f"{seat_label(view, n['seat'])}: {n['text']}" for n in kept]
        return "\n".join(lines)


def begun_since(cmd: Command, began: float) -> bool:
    """Whether the step open now, begun at ``began`` (Discord's clock, ``BridgeCore.step_began``), began after the GM
    issued ``cmd`` (its ``created``, Discord's clock too: the host's may be minutes off it): the step the command was
    meant for resolved meanwhile (the last DM completed it, its deadline passed), so an advance or an undo must not act
    on this one (a forced advance would default every seat of a step nobody had been told of yet)."""
    return cmd.created is not None and began > cmd.created


def moved_on(view: dict[str, Any], nothing: str) -> str:
    """The GM's answer when the step a command was meant for resolved before it was carried out."""
    return (f"{nothing}: the step open when you gave the command was resolved meanwhile (its last decision came "
            f"in, or its deadline passed), and the game is now at turn {view['turn']}, "
            f"{STEP_WORDS.get(view['step'], view['step'])}, which the channel has just been told of. "
            "Give the command again if you mean this step.")


async def send_text(reply: Reply, text: str) -> None:
    """``text`` as the command's answer, cut to Discord's message size."""
    for part in split_messages(text) or ["(nothing)"]:
        await reply.send(part)


def status_text(key: str, view: dict[str, Any], users: dict[str, int | None]) -> str:
    """``/regent status``: the step open, its deadline, who has sent and who is waited for (``users``: seat ->
    member)."""
    clock = view.get("clock") or {}
    out = [f"**{key}**: turn {view['turn']}, {STEP_WORDS.get(view['step'], view['step'])}"
           + (" (the clock is paused)" if clock.get("paused") else "")
           + (" (held after an undo: resolve it with /regent advance)" if clock.get("held") else "")]
    if view["over"]:
        out.append(result_text(view))
    pending = {p["seat"]: p for p in view["pending"]}
    # one deadline for every seat (the usual case): said once. Read while the clock is paused, each seat's
    # deadline moves on with the wall clock as it is read, so they differ by a moment: still one deadline
    times = [p["deadline"] for p in pending.values()]
    deadlines = {min(times)} if times and max(times) - min(times) < 60 else set(times)
    if clock.get("held"):  # no deadline resolves a step the GM's undo reopened: the GM does
        deadlines = {None}
    elif len(deadlines) == 1:
        out[0] += f"; deadline {when(next(iter(deadlines)), 'f')}"
    waiting = [s for s in by_seat(pending) if not pending[s]["submitted"]]
    sent = [s for s in by_seat(pending) if pending[s]["submitted"]]
    if pending:
        out.append(f"{len(sent)} of {len(pending)} in" + (f"; waiting for {len(waiting)}:" if waiting else "."))
    labels = view.get("controller_labels") or {}  # each AI as the GM chose it: "steward -> steward-search"
    for seat in waiting + sent:  # the seats still to send first, each list in seat order
        p = pending[seat]
        who = f"AI ({labels.get(seat) or p['controller']})" if p.get("controller") else (f"<@{users[seat]}>"
                                                                     if users.get(seat) else "nobody")
        mark = "✓ sent" if p["submitted"] else "… waiting"
        own = "" if len(deadlines) == 1 else f", deadline {when(p['deadline'], 'f')}"
        out.append(f"{mark}: {seat_label(view, seat)}, {who}{own}")
    return "\n".join(out)
