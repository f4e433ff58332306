"""The configured games (``Games``): each created or imported once at start (``start``, ``_create``), remembered as
soon as the service made it so a failure is finished later and never made twice, announced in its channel; and the
refusals no retry mends, which stop the bot with one line (``PERMANENT``, ``ConfigRefused``)."""

from __future__ import annotations

import logging
import os
from collections.abc import Awaitable
from typing import Any

from service.client import ServiceError
from service.discord.answers import FINAL
from service.discord.chat import snowflake_at
from service.discord.config import GameConfig
from service.discord.core import BridgeCore
from service.discord.game_files import file_ai, is_setup, renamed, with_settings
from service.discord.routing import step_of
from service.discord.state import ai_seats
from service.discord.texts import seat_label, shown
from service.posting import by_seat

log = logging.getLogger("regent.discord")

# The service's refusals of a configured game that no retry mends: the config (or the file it names) is
# wrong, the service wants a create token, or it is older than the bot. Anything else (the service down,
# too many games, rate limits, a bug) is retried every tick.
PERMANENT = frozenset({"bad_request", "unknown_method", "invalid_params", "invalid_order", "forbidden", "too_large"})


class ConfigRefused(ValueError):
    """A configured game the service refuses for good: the bot stops with this one line."""


class Games(BridgeCore):
    async def start(self) -> None:
        """Create (or import) every configured game the bot does not run yet, then catch up."""
        async with self.lock:
            for key, game in self.config.games.items():
                if self.state.game(key) is None:
                    await self._create(key, game)
        for key in self.config.games:  # AI seats deciding are waited for without the lock (as in sync)
            await self._settled(key)
            async with self.lock:
                await self._sync(key, wait=False)

    async def _make(self, key: str, game: GameConfig) -> dict[str, Any]:
        """``game.create`` or ``game.import`` for a configured game: its id and tokens."""
        create = os.environ.get(self.config.create_token_env, "").strip()
        auth = {"token": create} if create else {}  # the service's --create-token, when it has one
        if not game.import_path:
            made = await self._refusable(self.rpc("game.create", setup=game.setup(), **auth), f"games.{key}")
            for note in made.get("notes", []):  # for the GM (a $Realm defaulted is no one else's business)
                log.warning("game %s: %s", key, note)
            return made
        try:
            with open(game.import_path, "rb") as f:
                blob = f.read()
        except OSError as err:
            raise ConfigRefused(f"{self.config.path}: games.{key}.import: cannot read {game.import_path}: "
                                f"{err.strerror or err}") from None
        if is_setup(blob):  # a typed-in position or `regent export-position`'s output: JSON, not a game file
            raise ConfigRefused(f"{self.config.path}: games.{key}.import: {game.import_path} is a setup (JSON), not a "
                                f"game file; make the game file with `regent new game.bin --setup "
                                f"{os.path.basename(game.import_path)}` and import that")
        made = await self._refusable(self.rpc("game.import", blob=with_settings(blob, game), **auth),
                                     f"games.{key}.import ({game.import_path})")
        for note in made.get("notes", []):
            log.warning("game %s: %s", key, note)
        # the file's AI seats discord.toml gives to members (``with_settings`` took the AI out): said as the game
        # comes in, and a decision the AI made in the open step before the file was written stands (``_create``)
        handed = {seat: agent for seat, agent in file_ai(blob).items()
                  if seat in game.seats and game.seats[seat].user is not None}
        return {**made, "handed": handed}

    async def _refusable(self, call: Awaitable[Any], where: str) -> Any:
        """``call``; a refusal no retry mends becomes ``ConfigRefused`` naming the config's ``where``."""
        try:
            return await call
        except ServiceError as err:
            if err.code not in PERMANENT:
                raise
            hint = (f"; set ${self.config.create_token_env} to the service's --create-token"
                    if err.code == "forbidden" else "")
            raise ConfigRefused(f"{self.config.path}: {where}: refused by the service ({err.code}: "
                                f"{err.message}){hint}") from None

    async def _create(self, key: str, game: GameConfig) -> None:
        # a game the service made is remembered at once ("creating"), so a failure in what follows (an
        # AI seat the service refuses, the service going down) is finished later, never made twice
        made = self.state.creating(key)
        if made is None:
            made = await self._make(key, game)
            assign = sorted(s.seat for s in game.seats.values() if s.ai) if game.import_path else []
            made = {**made, "assign": assign}  # a created game has its AIs in its setup already
            self.state.set_creating(key, made)
        self._seats_in_file(key, game, made)
        for seat in list(made["assign"]):
            spec = game.seats.get(seat)
            if spec is not None and spec.ai:
                await self._refusable(self.rpc("game.assign", game_id=made["game_id"], token=made["gm_token"],
                                               seat=seat, agent=spec.ai), f"games.{key}.seats.{seat}.ai")
            made["assign"].remove(seat)
            self.state.set_creating(key, made)
        gm = {"game_id": made["game_id"], "token": made["gm_token"]}
        view = await self.rpc("game.view", **gm)
        turn = view["turn"]
        # an imported game's history is not reposted: the channel hears what happens from now on
        log_next = (await self.rpc("game.log", **gm))["next"] if game.import_path else 0
        self.state.set_game(key, {"game_id": made["game_id"], "gm_token": made["gm_token"],
                                  "seat_tokens": made["seat_tokens"], "log_next": log_next, "turn": turn,
                                  "summarised": turn - 1, "step_key": "", "reminded": [], "waiting": None,
                                  "expected": False, "users": {},
                                  "read_from": snowflake_at(self.discord_time(self.now())) - 1})
        controllers = view.get("controllers") or {}
        handed = by_seat(made.get("handed") or {})
        decided = [s for s in handed if any(p["seat"] == s and p["submitted"] for p in view["pending"])]
        if decided:  # the file's AI decided the open step for it before the file was written: that decision stands
            entry = self.state.game(key)
            for seat in decided:
                ai_seats(entry)[seat] = {"decided": list(step_of(view))}
            self.state.set_game(key, entry)
        seats = "\n".join(f"{seat}: {shown(p['name'])} ({shown(view.get('colours', {}).get(seat, '?'))})"
                          + (f", {p['faction']}" if p.get("faction") else "")
                          + (f", team {p['team']}" if p.get("team") else "")
                          + (f", AI ({_ai_named(game, seat, view)})" if controllers.get(seat) else "")
                          + (" (out: eliminated)" if p.get("eliminated") else "")
                          for seat, p in view["players"].items())
        head = (f"**A running game of Protectors of the Realm** ({key}) continues here, at turn {turn}."
                if game.import_path else f"**A new game of Protectors of the Realm** ({key}).")
        differ = renamed(game, view) if game.import_path else []
        note = ""
        if differ:  # the service cannot rename a seat: the game file's names stand, and everyone is told so
            note = ("\nNote: the game file's names and colours stand (players and reports already use them), not "
                    "discord.toml's: " + "; ".join(differ) + ".")
            log.warning("game %s: %s", key, note.strip())
        if handed:  # the file's AI seats discord.toml gives to members: their players are the members now
            users = self.users(key)
            for seat in handed:
                note += (f"\nNote: {seat_label(view, seat)}, played by the game file's AI ({made['handed'][seat]}), "
                         f"is <@{users[seat]}>'s from now on, as discord.toml says: they send its decisions by DM"
                         + (" from the next step (the AI's decision for this one stands)." if seat in decided
                            else "."))
        # an imported game's seats the config leaves out: nobody can DM for them (the file's AI seats play on)
        unplayed = by_seat(s for s in view["players"] if s not in game.seats and not controllers.get(s))
        if unplayed:
            lines = (f"\nNote: discord.toml names no player for {', '.join(unplayed)}: nobody can send their "
                     "decisions by DM (the rulebook defaults stand at each deadline) until the GM gives each a "
                     "player or an AI with /regent seat.")
            note += lines
            log.warning("game %s: %s", key, lines.strip())
        posted = await self._post(game.channel, head + " Players: DM me your decisions; I answer line by line. "
                                  + FINAL + f"\nSeats (name orders by name, colour or seat):\n{seats}" + note)
        if posted is not None:  # DMs are read back from the game's start on Discord's own clock, not the host's
            entry = self.state.game(key)
            entry["read_from"] = posted
            self.state.set_game(key, entry)

    def _seats_in_file(self, key: str, game: GameConfig, made: dict[str, Any]) -> None:
        """An imported game's file must hold every seat discord.toml names: a seat it lacks has no token, so
        no DM or AI could ever play it. ``ConfigRefused`` naming the first such seat and the file's seats."""
        have = made.get("seat_tokens") or {}
        extra = by_seat(s for s in game.seats if s not in have)
        if extra:
            raise ConfigRefused(f"{self.config.path}: games.{key}.seats.{extra[0]}: the game file "
                                f"{game.import_path} has no such seat (its seats: {', '.join(by_seat(have))}); "
                                "remove it from the table")


def _ai_named(game: GameConfig, seat: str, view: dict[str, Any]) -> str:
    """A seat's AI as the service names it (the view's ``controller_labels``: ``normal -> heuristic`` for a level, the
    agent alone for an agent's name; a game file's AI as the file says the GM chose it), or, from a service without
    them, as discord.toml names it, with what the service plays it by when that differs, as /regent seat answers."""
    told = (view.get("controller_labels") or {}).get(seat)
    if told:
        return str(told)
    controller = str(view["controllers"][seat])
    spec = game.seats.get(seat)
    asked = spec.ai if spec is not None and spec.ai else ""
    return controller if not asked or asked == controller else f"{asked} -> {controller}"
