"""A seat's area of a big board, drawn for a phone (``Areas``): at ``AREA_SEATS`` seats or more the whole board scaled
to a phone's width is unreadable until tapped, so each player's turn summary DM carries the picture of their own
area (``_summary_area``, ``area_pictures`` in discord.toml), and a player may ask for one by DM (``board me``, ``board
Alice radius 2``: ``area_asked``, ``_area_answer``). The picture is the channel's (public) information only: the
service draws a focused board from the channel view whoever asks (docs/rendering.md, "A seat's area, for a phone"),
and the bot asks with the player's own seat token. A picture that cannot be drawn never holds up the words it goes
with; the GM is told once (``_area_failed``) until one is drawn again."""

from __future__ import annotations

import logging
import re
from typing import Any

from service.client import ServiceError
from service.discord import chat as chatlib
from service.discord.answers import RESEND
from service.discord.chat import DirectMessage, File, Reply
from service.discord.config import GameConfig
from service.discord.core import BridgeCore, ServiceDown
from service.discord.seat_command import seat_named
from service.discord.talking import gm_mention
from service.discord.texts import echo, seat_label

log = logging.getLogger("regent.discord")

AREA_SEATS = 10  # from this many seats each summary DM carries the player's area (a phone's width is too narrow)
MAX_RADIUS = 4  # borders away from the seat's Provinces the service draws (docs/protocol.md, game.render radius)
# a DM asking for a picture, all of it: "board", "board me", "my area", "map of Alice", "area Bob, radius 2"
RADIUS = re.compile(r"[\s,;]*\bradius\s*[:=]?\s*(?P<radius>\S+)$", re.IGNORECASE)
ASK = re.compile(r"^(?:(?:show\s+)?my\s+(?:area|board|map)|(?:show\s+)?(?:the\s+)?(?:board|area|map)"
                 r"(?:\s+(?:of|around|for))?(?:\s+(?P<who>.+?))?)$", re.IGNORECASE)
ME = ("me", "mine", "myself", "my area", "my seat")


def wants_areas(game: GameConfig, seats: int) -> bool:
    """Whether a game of ``seats`` seats sends each player's area with their summary: a big board, not turned off."""
    return game.area_pictures and seats >= AREA_SEATS


def area_asked(text: str) -> tuple[str | None, str | None] | None:
    """``(who, radius)`` when the whole DM asks for an area picture (``who``: the seat named as written, None for
    the sender's own; ``radius`` as written, None for the default), else None: the DM is read as a decision."""
    words = " ".join(text.split()).rstrip(".!? ")
    if not words or len(words) > 120 or "\n" in text.strip():  # one line: a DM of orders is never a request
        return None
    radius = None
    cut = RADIUS.search(words)
    if cut:
        radius, words = cut.group("radius"), words[:cut.start()].rstrip(" ,;")
    m = ASK.match(words)
    if m is None:
        return None
    who = (m.group("who") or "").strip().lstrip("@").strip()
    return (None if not who or who.casefold() in ME else who), radius


class Areas(BridgeCore):
    async def _summary_area(self, key: str, seat: str, turn: int) -> File | None:
        """The picture of ``seat``'s area after ``turn`` for its summary DM, or None: a small game, the option off, the
        seat holding no Province (the service refuses its focus: nothing to draw), or a picture that could not be drawn
        (the GM told once). Drawn before the bridge's lock was taken when it could be (``_draw_areas_ahead``)."""
        if not wants_areas(self.config.games[key], len(self.users(key))):
            return None
        kept = self._areas_ahead.pop((key, seat, turn), None)
        if kept is not None and kept[0] == self._area_undos.get(key, 0):
            drawn = kept[1]
        else:
            drawn = await self._draw_area(key, seat, turn)
        if isinstance(drawn, str):
            await self._area_failed(key, drawn)
            return None
        if drawn is not None:
            self._area_drawn(key)
        return drawn

    async def _draw_area(self, key: str, seat: str, turn: int) -> File | str | None:
        """The picture of ``seat``'s area after ``turn``; None when it has none (out, or holding no Province: the
        service refuses its focus), or why it could not be drawn."""
        try:
            png = await self.rpc("game.render", **self._seat(key, seat), format="png", kind="board", focus=seat,
                                 turn=turn)
        except ServiceError as err:
            if err.code == "invalid_params" and (err.details or {}).get("field") == "focus":
                return None
            return f"{err.code}: {err.message}"
        except ServiceDown as err:
            return f"the service could not be reached ({err})"
        if not isinstance(png, bytes) or len(png) > chatlib.FILE_LIMIT:
            return "the picture came back too big for Discord"
        return File(area_file_name(key, seat, turn), png)

    async def _draw_areas_ahead(self, key: str) -> None:
        """Without the bridge's lock (``sync``, ``tick``): the pictures of the turns finished and not yet summed up,
        drawn first, so the summaries sent under the lock wait for no drawing and no DM waits for them (the service
        draws them one at a time, each in its worker). Kept for ``_summary_area``; an undo meanwhile voids them
        (``_void_areas``)."""
        entry = self.state.game(key)
        if entry is None or not wants_areas(self.config.games[key], len(self.users(key))):
            return
        undos = self._area_undos.get(key, 0)
        try:
            view = await self.rpc("game.view", **self._gm(key))
        except (ServiceDown, ServiceError):
            return  # the sync says so
        players = view.get("players") or {}
        last = view["turn"] if view["over"] else view["turn"] - 1
        for turn in range(int(entry.get("summarised", 0)) + 1, last + 1):
            for seat, user in self.users(key).items():
                if not user or (players.get(seat) or {}).get("eliminated") or (key, seat, turn) in self._areas_ahead:
                    continue
                drawn = await self._draw_area(key, seat, turn)
                if self._area_undos.get(key, 0) != undos:  # the GM's undo came while it was drawn
                    return
                self._areas_ahead[(key, seat, turn)] = (undos, drawn)

    def _void_areas(self, key: str, summarised: int | None = None) -> None:
        """The pictures drawn ahead for ``key`` forgotten: all of them after the GM's undo (the turn is played again),
        else those of the turns up to ``summarised`` (their summaries went out)."""
        if summarised is None:
            self._area_undos[key] = self._area_undos.get(key, 0) + 1
        for k in [k for k in self._areas_ahead if k[0] == key and (summarised is None or k[2] <= summarised)]:
            del self._areas_ahead[k]

    async def _area_failed(self, key: str, why: str) -> None:
        """A summary's area picture could not be drawn: logged each time, the GM told once (until one is drawn)."""
        log.warning("game %s: no area picture: %s", key, why)
        entry = self.state.game(key)
        if entry is None or entry.get("area_failed"):
            return
        entry["area_failed"] = True
        self.state.set_game(key, entry)
        await self._post(self.config.games[key].channel,
                         f"{gm_mention(self.config.gm_role)}: I could not draw the players' area pictures "
                         f"({why[:300]}), so their turn summaries go out without them. I try again each turn and "
                         "say nothing more until one is drawn; `area_pictures = false` in discord.toml turns them off.")

    def _area_drawn(self, key: str) -> None:
        entry = self.state.game(key)
        if entry is not None and entry.pop("area_failed", None):
            self.state.set_game(key, entry)

    async def _area_for_gm(self, key: str, opts: dict[str, Any], reply: Reply) -> None:
        """``/regent board focus: SEAT [radius: N] [turn: T]``: the seat's area, answered to the GM alone (the command
        is deferred privately) where ``/regent board`` posts the whole board in the channel. A seat that is none,
        or a radius out of range, is a ``ValueError`` naming it (``on_command`` says nothing was changed)."""
        focus, radius, turn = opts.get("focus"), opts.get("radius"), opts.get("turn")
        if focus is None or not str(focus).strip():
            raise ValueError("radius is for a seat's area: give focus too (Player#N, a display name or a colour)")
        if radius is not None and (isinstance(radius, bool) or not isinstance(radius, int)
                                   or not 0 <= radius <= MAX_RADIUS):
            raise ValueError(f"radius must be a whole number from 0 to {MAX_RADIUS}, not {echo(str(radius))}")
        view = await self.rpc("game.view", **self._gm(key))
        seat = seat_named(view, str(focus))
        fields = {k: v for k, v in (("radius", radius), ("turn", turn)) if v is not None}
        png = await self.rpc("game.render", **self._gm(key), format="png", kind="board", focus=seat, **fields)
        if not isinstance(png, bytes) or len(png) > chatlib.FILE_LIMIT:
            await reply.send("No picture: it came out too big for Discord.")
            return
        at = f"after turn {turn}" if turn is not None else "now"
        await reply.send(f"The area of {seat_label(view, seat)} {at}, as every player sees it (sent to you alone; "
                         "`/regent board` without focus posts the whole board in the channel).",
                         File(area_file_name(key, seat, turn), png), private=True)

    async def _area_answer(self, dm: DirectMessage, choices: list[tuple[str, str]], who: str | None,
                           radius: str | None) -> tuple[str | None, str, bool]:
        """The answer to a DM asking for an area picture (``area_asked``), the picture kept for ``on_dm`` to send
        with it (``_answer_files``); nothing is stored. Another seat's area may be asked for: it is public."""
        if len(choices) > 1:
            names = ", ".join(f"{k} ({s})" for k, s in choices)
            return choices[0][0], (f"You play in several games ({names}). Start your DM with a line `game: NAME` to "
                                   "say which game's board you mean."), False
        key, seat = choices[0]
        r = None
        if radius is not None:
            if not radius.isdigit() or not 0 <= int(radius) <= MAX_RADIUS:
                return key, (f"The radius is how many borders away from the seat's Provinces the picture reaches: a "
                             f"whole number from 0 to {MAX_RADIUS}, not {echo(radius)}. Nothing was stored."), False
            r = int(radius)
        try:
            view = await self.rpc("game.view", **self._seat(key, seat))
            if who is None:
                target = seat
            else:
                mention = re.fullmatch(r"<@!?(\d+)>", who)
                held = [s for s, u in self.users(key).items() if mention and u == int(mention.group(1))]
                target = held[0] if held else seat_named(view, who)
            label = seat_label(view, target)
            if ((view.get("players") or {}).get(target) or {}).get("eliminated"):
                mine = " your seat" if target == seat else ""
                return key, (f"{label}{mine} was eliminated: it has no area left to draw. `board NAME` draws "
                             "another seat's. Nothing was stored."), False
            png = await self.rpc("game.render", **self._seat(key, seat), format="png", kind="board", focus=target,
                                 **({"radius": r} if r is not None else {}))
        except ValueError as err:  # a name that is no seat's (seat_named: the seats, and the closest name)
            return key, f"No picture: {err}. Write `board me`, or `board NAME` for another seat's area.", False
        except ServiceDown:
            return key, RESEND, False
        except ServiceError as err:
            if err.code == "rate_limited":
                return key, "I am still drawing your last pictures; ask again in a moment. Nothing was stored.", False
            log.warning("game %s: no area picture for %s: %s", key, seat, err)
            return key, f"I could not draw that picture ({err.message}). Nothing was stored.", False
        if not isinstance(png, bytes) or len(png) > chatlib.FILE_LIMIT:
            return key, "That picture came out too big for Discord. Nothing was stored.", False
        self._answer_files[dm.message_id] = File(area_file_name(key, target, None), png)
        return key, (f"🗺️ The area of {label} in {key} now, as every player sees it on the board (not a decision: "
                     "nothing was stored). `board NAME` draws another seat's; add `radius 2` to see further."), False


def area_file_name(key: str, seat: str, turn: int | None) -> str:
    """``realm-turn5-player3-area.png``: a picture's name as Discord shows it (no ``#``)."""
    at = f"-turn{turn}" if turn is not None else ""
    return f"{key}{at}-{seat.replace('#', '').lower()}-area.png"
