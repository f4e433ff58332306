"""``/regent seat`` (``SeatCommand``): a seat given to a member or an AI, or back to its player, the members told, a
decision the AI made before the hand-back kept, the summaries of the turns an AI played sent to the player it gives
the seat back to; a player holds one seat of a game (``_one_seat_each``); the seat the GM names read as the command
line reads it (``seat_named``), a name mistyped answered with the closest (``closest_name``)."""

from __future__ import annotations

import difflib
import re
from typing import Any

from service.client import ServiceError
from service.discord.chat import Reply
from service.discord.config import AI_LEVELS
from service.discord.core import BridgeCore
from service.discord.routing import step_of
from service.discord.state import ai_seats
from service.discord.texts import echo, seat_label
from service.posting import by_seat, seat_guess

MENTION = re.compile(r"^<@!?(\d+)>$")
MAX_GUESS = 60  # characters of a seat's name compared for a did-you-mean
HUMAN = ("human", "none", "player", "off", "-")  # service/ai.py's HUMAN_WORDS (tests/discord/test_config.py)


class SeatCommand(BridgeCore):
    async def _seat_command(self, key: str, opts: dict[str, Any], reply: Reply) -> None:
        label, agent = str(opts.get("seat", "")).strip(), str(opts.get("agent", "")).strip()
        now = await self.rpc("game.view", **self._gm(key))
        seat = seat_named(now, label)
        if ((now.get("players") or {}).get(seat) or {}).get("eliminated"):
            raise ValueError(f"{seat_label(now, seat)} was eliminated: it has no decisions left for an AI or a "
                             "player to make")
        mention = MENTION.match(agent) or (re.match(r"^(\d{15,22})$", agent))
        if agent.startswith("@") and not mention:  # a name typed: a member picked from Discord's list comes as <@ID>
            raise ValueError(f"{echo(agent)} is not a Discord mention: as you type @ in the agent option, pick the "
                             "member from the list Discord shows, or give their user id (Developer Mode: right-click "
                             f"them, Copy User ID); `human` gives {seat} back to its own player")
        entry = self.state.game(key)
        record = ai_seats(entry)  # the seats an AI holds (their players, since when) or gave back (state.py)
        mine = record.get(seat) or {}
        if mention or agent.lower() in HUMAN:
            user = int(mention.group(1)) if mention else (self.users(key).get(seat) or mine.get("player"))
            self._one_seat_each(key, now, seat, user)
            was_ai = bool((now.get("controllers") or {}).get(seat))
            before = None if was_ai else self.users(key).get(seat)  # the member who played it until now
            await self.rpc("game.assign", **self._gm(key), seat=seat, agent=None)
            entry["users"][seat] = user
            since = mine.get("since")  # the turn its AI took the seat
            # the AI may have decided this step already: the player's DM for it is then told so (a decision
            # it was still making is dropped by the service now that the seat is a human's: no wait)
            view = await self.rpc("game.view", **self._gm(key))
            if was_ai and any(p["seat"] == seat and p["submitted"] for p in view["pending"]):
                record[seat] = {"decided": list(step_of(view))}
            else:
                record.pop(seat, None)
            self.state.set_game(key, entry)
            if was_ai or not before or not user:
                msg = (f"{seat_label(view, seat)} is played by a human again"
                       + (f": <@{user}>." if user else " (no Discord user yet)."))
            else:
                msg = f"{seat_label(view, seat)} is played by <@{user}>" + (
                    "." if before == user else f" now, instead of <@{before}>; the seat keeps its history.")
            if before and user and before != user:  # the member who had it hears it from the bot, not a refusal
                await self.tell(key, before, f"The GM gave your seat {seat_label(view, seat)} in {key} to another "
                                             "player: I no longer take decisions from you for it.")
            if user and user != before:
                await self.tell(key, user, f"The GM gave you the seat {seat_label(view, seat)} in {key}: send me its "
                                           "decisions by DM. The channel says which step is open.")
            if user and since is not None:  # what the seat's AI did meanwhile: the turns it finished
                for turn in range(since, (view["turn"] if view["over"] else view["turn"] - 1) + 1):
                    await self._summary(key, seat, user, turn)
        else:
            if agent.strip().casefold() in AI_LEVELS:  # "Expert", as a phone's keyboard capitalises it
                agent = agent.strip().casefold()
            try:
                out = await self.rpc("game.assign", **self._gm(key), seat=seat, agent=agent)
            except ServiceError as err:  # an AI level misspelt: the service names the levels, the bot the rest
                if err.code != "invalid_params" or not err.message.startswith("agent:"):
                    raise
                raise ValueError(f"{err.message.removeprefix('agent:').strip()}; or `human` to give {seat} back to "
                                 "its own player, or @member (picked from Discord's list) to give it to a member"
                                 ) from None
            player = self.users(key).get(seat)  # the member the AI stands in for, told below
            mine = record.setdefault(seat, {})
            if player:
                mine["player"] = player
            if "since" not in mine:  # a second AI keeps the first one's turn
                # the turn before the assign: the AI may finish the turn at once (read after, its turn was lost)
                mine["since"] = now["turn"]
            entry["users"][seat] = None
            self.state.set_game(key, entry)
            self._decided(key, seat)  # its AI decides the step: no rulebook default, whenever it resolves
            view = await self.rpc("game.view", **self._gm(key))
            level = "" if agent in AI_LEVELS else " agent"
            plays = agent + level + ("" if out["controller"] == agent else f" -> {out['controller']}")
            msg = f"{seat_label(view, seat)} is now played by AI ({plays}); the seat keeps its history."
            if player:  # from the bot, before a DM of theirs is refused: their seat's decisions are the AI's now
                await self.tell(key, player, f"The GM put an AI in your seat {seat_label(view, seat)} in {key}: it "
                                             "makes the seat's decisions from now on, and I take none from you for "
                                             "it until the GM gives it back to you. You will then get the summaries "
                                             "of the turns it played.")
        await reply.send(msg)
        await self._post(self.config.games[key].channel, msg)
        await self._sync(key, wait=False)  # what the new AI seat then does: on_command's sync after the lock

    def _one_seat_each(self, key: str, view: dict[str, Any], seat: str, user: int | None) -> None:
        """A player holds one seat of a game: their DMs name no seat, so a second one could never be played
        (discord.toml refuses it too). ``ValueError`` naming the seat the member holds already."""
        held = by_seat(s for s, u in self.users(key).items() if u == user and user is not None and s != seat)
        if held:
            raise ValueError(f"<@{user}> already holds {seat_label(view, held[0])} in {key}, and a player holds "
                             f"one seat of a game (their DMs name no seat); give {held[0]} to an AI or another "
                             "member first")


def seat_named(view: dict[str, Any], label: str) -> str:
    """The seat a GM names in ``/regent seat``: ``Player#3`` (any case), its display name or its colour, as the
    command line takes them; ``ValueError`` naming the seats, in seat order, when none (or two) is meant."""
    players, colours = view.get("players") or {}, view.get("colours") or {}
    key = " ".join(label.split()).casefold()
    found = [s for s in players if s.casefold() == key]
    for names in ([str(p.get("name") or "") for p in players.values()], [str(colours.get(s, "")) for s in players]):
        if not found:
            found = [s for s, n in zip(players, names, strict=True) if " ".join(n.split()).casefold() == key]
    if len(found) == 1:
        return found[0]
    if found:
        raise ValueError(f"{echo(label)} names {' and '.join(seat_label(view, s) for s in by_seat(found))}; name the "
                         "seat (Player#N)")
    seats = ", ".join(seat_label(view, s) for s in by_seat(players))
    close = closest_name(view, label)
    hint = f" ({seat_guess(seat_label(view, close[1]), close[0], (view.get('colours') or {}).get(close[1], ''))})" \
        if close else ""
    raise ValueError(f"unknown seat {echo(label)}{hint}; seats are {seats}")


def closest_name(view: dict[str, Any], label: str) -> tuple[str, str] | None:
    """``(name, seat)``: the number, display name or colour ``label`` is closest to and its seat, if any."""
    players, colours = view.get("players") or {}, view.get("colours") or {}
    names: dict[str, tuple[str, str]] = {}
    for s in players:
        for name in (s, str((players[s] or {}).get("name") or ""), str(colours.get(s, ""))):
            if name.strip():
                names.setdefault(" ".join(name.split()).casefold(), (name, s))
    key = " ".join(label.split()).casefold()[:MAX_GUESS]  # difflib's work grows with the label's length
    close = difflib.get_close_matches(key, list(names), n=1, cutoff=0.6)
    return names[close[0]] if close else None
