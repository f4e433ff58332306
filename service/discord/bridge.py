"""The bot's logic: DMs become ``game.submit``, resolved steps become channel posts, GM commands
become service calls. It talks to Discord only through ``chat.Chat`` and to the game only through
the RPC service, so the same code runs against discord.py (``adapter.py``) and the tests' fake.

Nothing is lost (issue 24, item 6): a DM is acknowledged only after the service answered that it
stored it; if the service cannot be reached the player is told to send it again; a Discord message
id already stored is never submitted twice; what the bot has posted is kept in ``state.py`` so a
restart neither loses nor repeats a post. Posts that could not be made before a crash are made
after the restart (at least once).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import re
import time
import tomllib
from collections.abc import Awaitable, Callable
from typing import Any

import msgpack

from service.client import AsyncClient, ServiceError
from service.discord import chat as chatlib
from service.discord.chat import Chat, Command, DeliveryFailed, DirectMessage, DmClosed, File, snowflake_at
from service.discord.config import AI_LEVELS, Config, GameConfig
from service.discord.state import State, ai_seats, held
from service.posting import by_seat, split_messages

log = logging.getLogger("regent.discord")

FINAL = "Choices are final (rules 003: \"Once a DM is sent to the GM, your orders/choices are final\")."
RESEND = ("The Regent service cannot be reached right now: your DM was NOT stored. "
          "Please send it again in a few minutes.")
EDITED = ("You edited a DM I had already answered: the edit changes nothing, and what I answered to it stands "
          "(a decision stored is final: rules 003, \"Once a DM is sent to the GM, your orders/choices are final\"). "
          "Anything new goes in a new DM.")
GAME_HEADER = re.compile(r"^\s*game\s*[:=]?\s*(\S+)\s*$", re.IGNORECASE)
ELIMINATED = re.compile(r"^You were eliminated on turn (\d+)", re.MULTILINE)  # engine/protectors/report.py
MENTION = re.compile(r"^<@!?(\d+)>$")
BALANCE_TURN = re.compile(r"^💰 \*\*Turn (\d+): Consolidation")  # a balance line's turn (Bridge._balances)
USER_MENTION = re.compile(r"<@!?(\d+)>")  # a member, as Discord writes a mention in a message's text
# what pings in a post's text: @everyone, @here, a member <@ID> / <@!ID>, a role <@&ID>
PINGS = re.compile(r"@(everyone|here|[!&]?\d+>)")


def quiet_mentions(text: str) -> str:
    """``text`` with every ping made plain text (a zero-width space after the ``@``): a player's words the
    bot answers with (a DM it quotes back) must not ping anyone, nor add a member to a private thread, where
    a mention of another player would let them read it (secrecy)."""
    return PINGS.sub("@\u200b\\1", text)


HUMAN = ("human", "none", "off", "player")
PRIVATE_COMMANDS = ("export", "notes")  # answers only the GM sees (the game file, the players' notes to the GM)
MAX_KEPT_NOTES = 200  # players' notes to the GM a game keeps until /regent notes (the oldest dropped first)
CALL_TIMEOUT = 300.0  # seconds for one service call (a board picture on a busy machine)
# a player's messages read back per pass from their DMs' history after the bot was offline (oldest first); more are
# read on the next pass (each tick), and the GM is told
CATCH_UP_LIMIT = 50
TOO_LATE = "**Nothing was stored.** Your DM came in before the "  # how _too_late's answer begins
# what an empty decision is, said as the rules say it: `none` in the orders step is no orders at all,
# not the rulebook's default for a silent seat (Fortify!), docs/dm-syntax.md
NOTHING = {"orders": "✓ `none`: no orders; your units stay where they are and do nothing",
           "dragon": "✓ `Turn off the lights`: you commit no Army Units"}
# a game's end as players read it; the bot talks only to the service, so this is engine.protectors.victory.how_told
# written out (tests/service/test_how_words.py keeps the two the same)
HOW_WORDS = {"dragon": "Fire and blood! The Dragon wins", "last_man_standing": "Last man standing!",
             "times_up": "Time's Up!"}
STEP_WORDS = {"bid": "Protector Ranking bids", "rebid": "re-bids", "bank_bid": "Bank of Lannuvár bids",
              "orders": "orders", "dragon": "Dragon Attack commitments", "consolidation": "Consolidation"}


class ServiceDown(Exception):
    """The service could not be reached (or closed the connection) during a call."""


# The service's refusals of a configured game that no retry mends: the config (or the file it names) is
# wrong, the service wants a create token, or it is older than the bot. Anything else (the service down,
# too many games, rate limits, a bug) is retried every tick.
PERMANENT = frozenset({"bad_request", "unknown_method", "invalid_params", "invalid_order", "forbidden", "too_large"})


class ConfigRefused(ValueError):
    """A configured game the service refuses for good: the bot stops with this one line."""


def when(ts: float, style: str = "R") -> str:
    """A Discord timestamp: each reader sees it in their own time zone."""
    return f"<t:{int(ts)}:{style}>"


def span(seconds: float) -> str:
    seconds = max(0, int(seconds))
    h, m = divmod(seconds // 60, 60)
    return f"{h} h {m:02d} min" if h else f"{m} min"


class Bridge:
    def __init__(self, config: Config, chat: Chat, state: State,
                 connect: Callable[[], Awaitable[AsyncClient]] | None = None,
                 now: Callable[[], float] = time.time):
        self.config = config
        self.chat = chat
        self.state = state
        self._connect = connect or (lambda: AsyncClient.connect(**config.address()))
        self.client: AsyncClient | None = None
        self.now = now
        self.lock = asyncio.Lock()  # DMs, commands and syncs change the bot's state one at a time
        # the catch-up after the bot was offline (``catch_up``): the chats read back since it last (re)connected (a
        # live DM in another is answered after that chat's history), one read of a chat at a time, and whether a
        # pass is still to make (the service was down, Discord failed a read, a player's limit was hit)
        self.catch_up_limit = CATCH_UP_LIMIT
        self._live_ok: set[str] = set()
        self._reading: dict[str, asyncio.Lock] = {}
        self._catching = asyncio.Lock()
        self.catch_up_due = False

    # -- the service ---------------------------------------------------------------------------
    async def rpc(self, method: str, **fields: Any) -> Any:
        """One service call; ``ServiceDown`` when it cannot be reached, ``ServiceError`` for its refusals."""
        try:
            if self.client is None or self.client._task.done():
                await self.close_client()
                self.client = await self._connect()
            return await asyncio.wait_for(self.client.call(method, **fields), CALL_TIMEOUT)
        except (TimeoutError, ConnectionError, OSError) as err:
            await self.close_client()
            raise ServiceDown(str(err) or type(err).__name__) from None

    async def close_client(self) -> None:
        client, self.client = self.client, None
        if client is not None:
            with contextlib.suppress(Exception):
                await client.close()

    # -- games ---------------------------------------------------------------------------------
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
                                  "expected": False, "users": {}, "dm_from": self.now()})
        controllers = view.get("controllers") or {}
        handed = by_seat(made.get("handed") or {})
        decided = [s for s in handed if any(p["seat"] == s and p["submitted"] for p in view["pending"])]
        if decided:  # the file's AI decided the open step for it before the file was written: that decision stands
            entry = self.state.game(key)
            for seat in decided:
                ai_seats(entry)[seat] = {"decided": list(step_of(view))}
            self.state.set_game(key, entry)
        seats = "\n".join(f"{seat}: {p['name']} ({view.get('colours', {}).get(seat, '?')})"
                          + (f", {p['faction']}" if p.get("faction") else "")
                          + (f", team {p['team']}" if p.get("team") else "")
                          + (f", AI ({controllers[seat]})" if controllers.get(seat) else "")
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
                note += (f"\nNote: {self._label(view, seat)}, played by the game file's AI ({made['handed'][seat]}), "
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
        await self._post(game.channel, head + " Players: DM me your decisions; I answer line by line. " + FINAL
                         + f"\nSeats (name orders by name, colour or seat):\n{seats}" + note)

    def _seats_in_file(self, key: str, game: GameConfig, made: dict[str, Any]) -> None:
        """An imported game's file must hold every seat discord.toml names: a seat it lacks has no token, so
        no DM or AI could ever play it. ``ConfigRefused`` naming the first such seat and the file's seats."""
        have = made.get("seat_tokens") or {}
        extra = by_seat(s for s in game.seats if s not in have)
        if extra:
            raise ConfigRefused(f"{self.config.path}: games.{key}.seats.{extra[0]}: the game file "
                                f"{game.import_path} has no such seat (its seats: {', '.join(by_seat(have))}); "
                                "remove it from the table")

    def users(self, key: str) -> dict[str, int | None]:
        """Seat -> Discord user id now (the config, then the GM's ``/regent seat`` changes)."""
        out: dict[str, int | None] = {s.seat: s.user for s in self.config.games[key].seats.values()}
        for seat, user in (self.state.game(key) or {}).get("users", {}).items():
            out[seat] = user
        return out

    def seats_of(self, user_id: int) -> list[tuple[str, str]]:
        return [(key, seat) for key in self.config.games if self.state.game(key)
                for seat, user in self.users(key).items() if user == user_id]

    def _gm(self, key: str) -> dict[str, Any]:
        entry = self.state.game(key)
        return {"game_id": entry["game_id"], "token": entry["gm_token"]}

    def _seat(self, key: str, seat: str) -> dict[str, Any]:
        entry = self.state.game(key)
        return {"game_id": entry["game_id"], "token": entry["seat_tokens"][seat]}

    # -- talking -------------------------------------------------------------------------------
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

    # -- a player's DM -------------------------------------------------------------------------
    async def on_dm(self, dm: DirectMessage, arrived: float | None = None, *, edit: bool = False,
                    caught_up: bool = False) -> tuple[str | None, str, bool] | None:
        """One DM (``arrived``: when it came in, if not now: an edited DM's first arrival, ``on_dm_edit``; a DM
        read back after the bot was offline, ``caught_up``, its own sending time). Each message is answered once:
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
            key, answer, stored = await self._dm(dm, arrived)
            if caught_up and answer == RESEND:  # left unread: the next pass reads it (the player need not resend)
                raise ServiceDown("the service could not be reached while reading back a DM")
            if key is not None and (caught_up or channel_of(dm) in self._live_ok):
                self.state.set_read(channel_of(dm), dm.message_id, save=False)  # written with the mark below
            if stored:
                self.state.mark_processed(dm.message_id, {"game": key, "at": self.now()})
            else:
                self.state.mark_refused(dm.message_id, arrived, resend=answer == RESEND)
            said = answer
            if caught_up and dm.created is not None:  # the answer comes late: which DM it answers
                said = f"📬 Your DM of {when(dm.created, 'f')}, sent while I was offline, read now:\n{answer}"
            await self.tell(key, dm.user_id, said, dm.thread_id)
        if stored and key is not None:  # what the DM let AI seats do is waited for outside the lock (sync)
            await self.sync(key)
        return key, answer, stored

    async def on_dm_edit(self, before: str, dm: DirectMessage) -> None:
        """A DM the player edited (``before``: its words until now; ``dm``: the edited message). Editing a DM the
        bot answered for good changes nothing, and the player is told so: rules 003, "Once a DM is sent to the
        GM, your orders/choices are final". A DM of which nothing was stored (refused, sent while the service
        was down) is read again in its edited words: the player fixed it where they sent it. It is read as the DM
        that first came in then, so an old refused DM edited after its step resolved is refused as written for
        that step (``_too_late``), never stored as the decision of a step begun since."""
        if before == dm.text:  # Discord adds a link preview or an embed: the words are the same
            return
        if dm.message_id in await self._read_back(dm):  # sent while the bot was offline: read just now, as edited
            return
        async with self.lock:
            answered = self.state.processed(dm.message_id)
            if answered is not None:
                await self.tell(answered.get("game"), dm.user_id, EDITED, dm.thread_id)
                return
            first = self.state.refused(dm.message_id)
        # a DM never answered (sent while the bot was offline) came in when it was sent
        await self.on_dm(dm, float(first["arrived"]) if first else dm.created, edit=True)

    # -- DMs sent while the bot was offline ----------------------------------------------------
    def went_offline(self) -> None:
        """The bot lost Discord: what players send until it is back is not delivered to it (Discord replays
        nothing a bot missed), so each chat's history is read again (``catch_up``) before a live DM there."""
        self._live_ok.clear()
        self.catch_up_due = True

    def _dm_from(self, key: str) -> float:
        """When the bot started reading ``key``'s players' DMs: the game's creation or import, or for a game of an
        older bot, this start (nothing from before it is read back)."""
        entry = self.state.game(key)
        if entry.get("dm_from") is None:
            entry["dm_from"] = self.now()
            self.state.set_game(key, entry)
            log.info("game %s: DMs sent from now on are read back after the bot was offline", key)
        return float(entry["dm_from"])

    def _chats(self) -> dict[str, tuple[int, int | None, float, list[str]]]:
        """Where players' messages come in: ``dm:USER`` or ``thread:ID`` -> (the player, the thread or None, when
        reading them starts, the games they play there). A player's seat an AI holds counts (their DM is
        answered so)."""
        out: dict[str, tuple[int, int | None, float, list[str]]] = {}
        for key in self.config.games:
            entry = self.state.game(key)
            if entry is None:
                continue
            players = {u for u in self.users(key).values() if u}
            players |= {rec["player"] for rec in ai_seats(entry).values() if held(rec) and rec.get("player")}
            since = self._dm_from(key)
            for user in sorted(players):
                chat = f"dm:{user}"
                have = out.get(chat)
                out[chat] = (user, None, min(since, have[2]), [*have[3], key]) if have else (user, None, since, [key])
        for key, user, tid in self.state.threads():
            if key in self.config.games and self.state.game(key) is not None:
                out[f"thread:{tid}"] = (user, tid, self._dm_from(key), [key])
        return out

    async def catch_up(self) -> None:
        """Read back what players sent while the bot was offline (Discord replays none of it), on start and on each
        reconnect: each player's DMs and private thread after the last message handled there (for a chat never
        read, from the game's creation or import), oldest first, at most ``catch_up_limit`` a chat a pass, each
        through the live DMs' path as sent at its own time (``created``): a DM sent for a step resolved meanwhile
        is answered as too late, never stored for the step open now. A message the live delivery answered is not
        answered again. With the service down nothing is read (the next tick tries again)."""
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
            for chat, (user, thread, since, keys) in self._chats().items():
                notes += (await self._catch_up_chat(chat, user, thread, since, keys))[1]
            await self._tell_gm(notes)

    async def _read_back(self, dm: DirectMessage) -> set[int]:
        """Before a live message: the player's messages sent in that chat while the bot was offline, read first
        (once a (re)connection); the ids read, which the live delivery then leaves alone."""
        chat = channel_of(dm)
        if chat in self._live_ok:
            return set()
        where = self._chats().get(chat)
        if where is None:  # not a player's chat (a stranger): nothing to read back
            return set()
        handled, notes = await self._catch_up_chat(chat, *where)
        await self._tell_gm(notes)
        return handled

    async def _catch_up_chat(self, chat: str, user: int, thread: int | None, since: float,
                             keys: list[str]) -> tuple[set[int], list[tuple[str, str]]]:
        """Read back one chat's messages after its mark: (the ids answered or found answered, notes for the GM)."""
        handled: set[int] = set()
        notes: list[tuple[str, str]] = []
        async with self._reading.setdefault(chat, asyncio.Lock()):
            if chat in self._live_ok:
                return handled, notes
            after = max(self.state.read(chat) or 0, snowflake_at(since) - 1)
            try:
                missed = await self.chat.history(user, after, self.catch_up_limit, thread)
            except DeliveryFailed as err:  # read again on the next tick; a live DM there is answered meanwhile
                self.catch_up_due = True
                log.warning("could not read back the messages of user %s (%s): %s", user, chat, err)
                return handled, notes
            for dm in missed.messages:
                try:
                    out = await self.on_dm(dm, dm.created if dm.created is not None else self.now(), caught_up=True)
                except ServiceDown as err:
                    self.catch_up_due = True
                    log.warning("reading back %s stopped at message %s: %s", chat, dm.message_id, err)
                    return handled, notes
                handled.add(dm.message_id)
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

    def _seat_of(self, key: str, user: int) -> str:
        """The seat ``user`` plays (or an AI holds for them) in ``key``, for the GM."""
        seat = next((s for s, u in self.users(key).items() if u == user), None) or next(
            (s for s, rec in ai_seats(self.state.game(key) or {}).items() if rec.get("player") == user), None)
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

    async def _settled(self, key: str) -> None:
        """Wait until the service has no background work left for ``key``'s game (AI seats, a step
        resolving); the next sync reports it. A service that cannot answer is the sync's to report."""
        if self.state.game(key) is None:
            return
        with contextlib.suppress(ServiceDown, ServiceError):
            await self.rpc("game.pending", **self._gm(key), wait=True)

    async def _dm(self, dm: DirectMessage, arrived: float) -> tuple[str | None, str, bool]:
        """(game, answer, stored?) for one DM that came in at ``arrived`` (the bridge's clock)."""
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
            if float(seen.get("step_started") or 0.0) > arrived:
                return key, self._too_late(key, seat, mine[0]["kind"]), False
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
                return target, self._too_late(key, seat, str(err.details.get("step"))), False
            answer = self._refusal(err)
            rejected = (err.details.get("rejected") or []) if err.code == "invalid_order" else []
            if rejected and all(str(r.get("reason", "")).startswith("not a choice for the") for r in rejected):
                # a late correction of a step already resolved, or a decision sent before its step: the bot
                # cannot tell them apart (it does not know the engine's steps), so it says both
                answer += (f"\nThe game now waits for your {STEP_WORDS.get(mine[0]['kind'], mine[0]['kind'])} "
                           f"({seat}, {key}). Send each decision in its own step: one already resolved cannot be "
                           "changed (DMs are final once stored), and a later step's is sent when I announce it.")
            return target, answer, err.code not in ("invalid_order", "invalid_params", "internal", "rate_limited",
                                                    "too_large")
        answer = self._accepted(key, seat, mine[0]["kind"], result)
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
        if still:  # not yet the seat's decision: "final" is for the DM that gives it
            answer = answer.replace("\n" + FINAL, "") + ("\nThese act at once; your decision for this step is "
                                                        "still to come: send it in another DM.")
        return key, answer, True

    @staticmethod
    def _too_late(key: str, seat: str, kind: str) -> str:
        """The answer to a DM that came in before the step now open began: it was written for the step before,
        which resolved (its deadline passed, the GM resolved it) while the DM waited. It is not taken for this
        step, even where its words would fit it (`none` is no orders, and no purchases too): rules 003, "Once a DM
        is sent to the GM, your orders/choices are final", so a misplaced one could never be mended."""
        step = STEP_WORDS.get(kind, kind)
        return (f"{TOO_LATE}{step} step began: the step it was written for "
                f"was resolved meanwhile (its deadline passed or the GM resolved it), and it is not taken as your "
                f"{step}. The game now waits for your {step} ({seat}, {key}): send it in a new DM.")

    def _mentions(self, key: str, text: str) -> str:
        """``text`` with Discord's member mentions (``<@ID>``, what Discord sends for a mention of a member) made
        the seat that member holds in this game; a member with no seat here is left as written (the engine's
        answer says it names no one). ``@Name`` needs nothing here: the engine reads a name after ``@``."""
        record = ai_seats(self.state.game(key) or {})
        holders = {user: seat for seat, user in ((s, u or (record.get(s) or {}).get("player"))
                                                 for s, u in self.users(key).items()) if user}
        return USER_MENTION.sub(lambda m: holders.get(int(m.group(1)), m.group(0)), text)

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

    def _notes(self, key: str, view: dict[str, Any]) -> str:
        """The players' notes to the GM kept since the GM last read them (``/regent notes``), then forgotten."""
        entry = self.state.game(key)
        kept = entry.pop("notes", [])
        self.state.set_game(key, entry)
        if not kept:
            return f"**{key}**: no note from the players for you since you last read them."
        lines = [f"**{key}**: notes from the players for you (`// ...` in their DMs), oldest first:"]
        lines += [f"- turn {n['turn']}, {STEP_WORDS.get(n['step'], n['step'])}, {self._label(view, n['seat'])}: "
                  f"{n['text']}" for n in kept]
        return "\n".join(lines)

    def _accepted(self, key: str, seat: str, kind: str, result: dict[str, Any]) -> str:
        out = [f"**Stored** for {seat} in {key} ({STEP_WORDS.get(kind, kind)}):"]
        out += [f"✓ `{line}`" for line in result.get("accepted") or []] or [NOTHING.get(kind, "✓ nothing")]
        for item in result.get("ignored") or []:
            if not isinstance(item, dict) or str(item.get("text", "")).strip():  # blank lines go unmentioned
                why = str(item.get("why", "")) if isinstance(item, dict) else ""
                # "Hi GM, Bid 20": the line's order was read (above), only the words beside it were left out
                out.append(f"line {item.get('line_no')}: {why}" if why.startswith("left out ")
                           else "ignored: " + _line_note(item))
        for item in result.get("dropped") or []:
            out.append("✗ dropped: " + _line_note(item))
        for warning in result.get("warnings") or []:  # e.g. Provinces with units but no order (Snitch alone)
            if not str(warning).startswith("these act at once"):  # a DM of looks only: said in players' words below
                out.append(f"⚠ {warning}")
        out.append(FINAL)
        return "\n".join(out)

    @staticmethod
    def _refusal(err: ServiceError) -> str:
        if err.code == "invalid_order":
            rejected = err.details.get("rejected") or []
            out = ["**Nothing was stored.** Fix these lines and send the whole DM again:"]
            out += [f"✗ `{r.get('line', '')}`: {r.get('reason', '')}" for r in rejected] or [f"✗ {err.message}"]
            count = err.details.get("rejected_count")
            if isinstance(count, int) and count > len(rejected) > 0:  # the service lists the first ones only
                more = count - len(rejected)
                out.append(f"…and {more} more line{'s' if more > 1 else ''} refused, not listed here: check every "
                           "line of the DM.")
            return "\n".join(out)
        if err.code == "conflict":
            return f"Not stored: {err.message}."
        if err.code in ("internal", "rate_limited"):
            return f"The service could not store your DM ({err.message}). Nothing was stored; please send it again."
        return f"Not stored: {err.message}"

    # -- after each resolved step --------------------------------------------------------------
    async def _sync_quietly(self, key: str) -> None:
        """``_sync`` under the lock, the game's background work already waited for (``sync``); a service
        that cannot answer is told to the log and the post is made on the next tick."""
        try:
            await self._sync(key, wait=False)
        except (ServiceDown, ServiceError) as err:  # posted on the next tick instead
            log.warning("game %s: could not post (%s); will retry", key, err)

    async def sync(self, key: str | None = None) -> None:
        """Post what happened in ``key``'s game (or every game's), the AI seats still deciding (an expert
        seat thinks for seconds) waited for without the bridge's lock, so other DMs are answered meanwhile."""
        for k in [key] if key else list(self.config.games):
            await self._settled(k)
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
        view = await self.rpc("game.view", **gm, wait=wait)
        # The public report of everything since the last post (the GM's token with no seat: public
        # events only, display names; service game.report ``since``, counted as game.log counts).
        new = await self.rpc("game.report", **gm, since=entry["log_next"])
        step_key = f"{view['turn']}:{view['step']}:{view['step_started']}"
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
                            f"{', '.join(self._label(view, s) for s in by_seat(waiting['seats']))}.")
            text.append(with_ai_line(new["report"]))
            if view["over"]:
                text.append(self._result(view))
            else:
                text.append(self._next(view))
            await self._post(game.channel, "\n".join(text))
            if game.pictures:
                await self._picture(key, game.channel)
        elif step_key != entry["step_key"]:
            await self._post(game.channel, self._next(view))
        # a Consolidation begins: each player is told what they hold to buy and bid with (rules: 003 5.
        # Consolidation; nothing else tells them), in the turn's summary when one goes out now, else alone
        balances = (await self._balances(key, view) if step_key != entry["step_key"]
                    and view["step"] == "consolidation" and not view["over"] else {})
        last_finished = view["turn"] if view["over"] else view["turn"] - 1
        for turn in range(entry.get("summarised", 0) + 1, last_finished + 1):
            await self._summaries(key, turn, balances if turn == last_finished else None)
            entry["summarised"] = turn
            self.state.set_game(key, entry)
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
        missing = [p["seat"] for p in view["pending"] if not p["submitted"]]
        deadline = min((p["deadline"] for p in view["pending"] if not p["submitted"]), default=None)
        entry.update(log_next=new["next"], turn=view["turn"], step_key=step_key, expected=False, forced=None,
                     waiting={"seats": missing, "deadline": deadline} if missing else None)
        self.state.set_game(key, entry)

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

    def _label(self, view: dict[str, Any], seat: str) -> str:
        name = ((view.get("players") or {}).get(seat) or {}).get("name")
        return f"{seat} ({name})" if name and name != seat else seat

    def _next(self, view: dict[str, Any]) -> str:
        if view["over"]:
            return self._result(view)
        pend = [p for p in view["pending"] if not p["submitted"]]  # an AI seat has decided already
        who = ", ".join(self._label(view, s) for s in by_seat(p["seat"] for p in pend))  # not ranking order
        dl = min((p["deadline"] for p in pend), default=None)
        out = f"**Turn {view['turn']}: {STEP_WORDS.get(view['step'], view['step'])}**"
        if not pend:
            return out + ": every decision is in; the GM resolves it."
        out += f" from {who}"
        if dl is not None:
            out += f", deadline {when(dl, 'f')} ({when(dl)})"
        if (view.get("clock") or {}).get("paused"):
            out += " (the clock is paused)"
        return out + ". Send yours to me by DM."

    def _result(self, view: dict[str, Any]) -> str:
        res = view.get("result") or {}
        vp = res.get("vp") or {}
        how = HOW_WORDS.get(res.get("how"), res.get("how") or "ended")
        out = [f"**The game is over** (turn {res.get('turn', view['turn'])}, {how})."]
        winner = res.get("winner")
        if winner:
            players = view.get("players") or {}
            team = [s for s, p in players.items() if p.get("team") is not None and str(p["team"]) == str(winner)]
            if winner not in players and team:  # a team game is won by a team
                out.append(f"Winner: team {winner} ({', '.join(self._label(view, s) for s in team)})")
            else:
                out.append(f"Winner: {self._label(view, winner)}")
        teams = [row for row in res.get("table") or () if row.get("side") not in (view.get("players") or {})]
        if teams:  # Time's Up! in a team game: the sides' sums decide (rules: 003 Team Games)
            out.append("Teams: " + ", ".join(f"team {row['side']} {row['vp']} VP" for row in teams))
        if vp:
            out.append("VP: " + ", ".join(f"{self._label(view, s)} {v}" for s, v in sorted(vp.items(),
                                                                                        key=lambda kv: -kv[1])))
        return "\n".join(out)

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

    async def _balances(self, key: str, view: dict[str, Any]) -> dict[str, str]:
        """Seat -> the line telling its player their balance, for each human seat the Consolidation waits for
        (read with that seat's own token: no other seat's $Realm is ever read)."""
        users = self.users(key)
        out = {}
        for seat in by_seat(p["seat"] for p in view["pending"] if not p["submitted"]):
            if not users.get(seat):
                continue
            try:
                mine = await self.rpc("game.view", **self._seat(key, seat))
            except ServiceError as err:
                log.warning("game %s: no balance for %s: %s", key, seat, err)
                continue
            realm = ((mine.get("players") or {}).get(seat) or {}).get("realm")
            if realm is not None:
                out[seat] = (f"💰 **Turn {view['turn']}: Consolidation** ({seat}, {key}): you hold {realm} $Realm "
                             "to buy and bid with.")
        return out

    async def _summaries(self, key: str, turn: int, extra: dict[str, str] | None = None) -> None:
        """Each human player's private summary of a finished turn, by DM (game.report ``private`` with
        their own seat's token: their balance, units and what happened to each of their orders). ``extra``:
        seat -> a line for that player now, sent in the summary (and taken out of ``extra``)."""
        users = self.users(key)
        for seat in by_seat(users):
            if users[seat] is not None:
                await self._summary(key, seat, users[seat], turn, extra=extra)

    async def _summary(self, key: str, seat: str, user: int, turn: int, extra: dict[str, str] | None = None) -> None:
        """One seat's private summary of a finished turn, by DM to ``user``, its header saying whether an AI played
        the seat that turn, or part of it."""
        try:
            rep = await self.rpc("game.report", **self._seat(key, seat), turn=turn, private=seat)
        except ServiceError as err:
            log.warning("game %s: no private summary for %s: %s", key, seat, err)
            return
        out = ELIMINATED.search(rep["report"])
        if out and int(out.group(1)) < turn:  # told once, with the turn it happened in: not every turn after
            return
        line = extra.pop(seat) if extra and seat in extra else None
        note = ""
        if (rep.get("played_by_ai") or {}).get(seat):  # the service's record of the turn's deciders: an AI held
            # the seat for all of the turn's steps it decided, or (handed over or back mid-turn) for some of them
            note = ", partly played by AI" if rep.get("player_decisions") else ", played by AI"
        # told once: the turn summed up again after the GM's undo says nothing new when it reads the same, and says it
        # replaces the one sent before when it does not
        parts: list[tuple[str, str, str]] = []  # (what, its words as remembered, as sent)
        summary = f"summary:{seat}:{user}:{turn}"
        seen = self._told(key, summary, f"{note}\n{rep['report']}")
        if seen is not None:
            again = ", corrected after the GM's undo: it replaces the one I sent before" if seen == "changed" else ""
            parts.append((summary, f"{note}\n{rep['report']}",
                          f"**Your summary of turn {turn}** ({seat}, {key}{note}{again}):\n{rep['report']}"))
        at = BALANCE_TURN.search(line or "")
        balance = f"balance:{seat}:{user}:{at.group(1) if at else turn}"  # the Consolidation's turn (_balances)
        if line is not None and self._told(key, balance, line) is not None:
            parts.append((balance, line, line))
        if parts:
            await self.tell(key, user, "\n".join(sent for _, _, sent in parts))
            for name, words, _ in parts:
                self._keep_told(key, name, words)

    def _told(self, key: str, name: str, words: str) -> str | None:
        """Whether a player's private message ``name`` (``summary:SEAT:USER:TURN``, ``balance:...``) is to be sent
        with ``words``: None when the same words went out already (the step resolved again after the GM's undo, a
        Consolidation begun again), ``"changed"`` when others did (these correct them), else ``"new"``."""
        before = (self.state.game(key).get("told") or {}).get(name)
        if before is None:
            return "new"
        return None if before == digest(words) else "changed"

    def _keep_told(self, key: str, name: str, words: str) -> None:
        """``name`` sent with ``words`` (``_told``); kept for the last turns, which an undo can reach."""
        entry = self.state.game(key)
        told = entry.setdefault("told", {})
        turn = int(name.rsplit(":", 1)[1])
        for old in [n for n in told if int(n.rsplit(":", 1)[1]) < turn - 2]:
            del told[old]
        told[name] = digest(words)
        self.state.set_game(key, entry)

    # -- deadlines -----------------------------------------------------------------------------
    async def tick(self) -> None:
        """Periodic work: catch up with steps resolved by AI seats or expiry, then remind."""
        for key in list(self.config.games):
            await self._settled(key)  # AI seats still thinking are waited for without the bridge's lock
        async with self.lock:
            for key in list(self.config.games):
                try:
                    if self.state.game(key) is None:  # the service was down when the bot started
                        await self._create(key, self.config.games[key])
                    await self._sync(key, wait=False)
                    await self._remind(key)
                except (ServiceDown, ServiceError) as err:  # one game's trouble never stops the others
                    log.warning("game %s: %s", key, err)
        if self.catch_up_due:  # DMs sent while the bot was offline still to read (outside the lock: each is a DM)
            await self.catch_up()

    async def _remind(self, key: str) -> None:
        entry = self.state.game(key)
        if entry is None:
            return
        view = await self.rpc("game.view", **self._gm(key))
        clock = view.get("clock") or {}
        if view["over"] or clock.get("paused") or clock.get("held"):
            return
        users = self.users(key)
        missing = [p for p in view["pending"] if not p["submitted"] and p.get("controller") is None]
        if not missing:
            return
        deadline = min(p["deadline"] for p in missing)
        left = deadline - self.now()
        window = deadline - float(view.get("step_started") or 0.0)  # the time the step began with
        entry["reminded"] = still_crossed(entry["reminded"], left)  # a deadline the GM extended reminds again
        crossed = due_reminders(self.config.reminders, left, entry["reminded"], window)
        if not crossed:
            return
        names = ", ".join(f"<@{users[seat]}> ({seat})" if users.get(seat) else seat
                          for seat in by_seat(p["seat"] for p in missing))
        await self._post(self.config.games[key].channel,
                         f"⏳ Reminder: {span(left)} left for the {STEP_WORDS.get(view['step'], view['step'])} "
                         f"(deadline {when(deadline, 'f')}). Still missing: {names}.")
        entry["reminded"] = sorted(set(entry["reminded"]) | set(crossed), reverse=True)
        self.state.set_game(key, entry)

    # -- the GM's slash commands ---------------------------------------------------------------
    async def on_command(self, cmd: Command) -> None:
        reply = cmd.reply
        assert reply is not None
        if cmd.created is None:  # before any wait: a step may resolve while the command waits for the lock
            cmd.created = self.now()
        if not await self.chat.has_role(cmd.user_id, self.config.gm_role):
            await reply.send(f"Only the GM (role {self.config.gm_role}) can use /regent commands; "
                             "nothing was changed.", private=True)
            return
        # within Discord's 3 seconds, whatever the service then takes; the game file goes to the GM alone
        await reply.defer(private=cmd.name in PRIVATE_COMMANDS)
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
        except ServiceError as err:
            await reply.send(f"Refused by the service ({err.code}): {err.message}. Nothing was changed.")
        except ValueError as err:
            await reply.send(f"{err}. Nothing was changed.")

    async def _command(self, cmd: Command, reply: chatlib.Reply) -> None:
        name, opts = cmd.name, cmd.options
        if name in ("npr invasions", "npn plan"):
            await self._stateless(cmd, reply)
            return
        game = self.config.game_for_channel(cmd.channel_id)
        if game is None or self.state.game(game.key) is None:
            await reply.send("This channel has no Regent game (see the channels in discord.toml).")
            return
        key, gm = game.key, self._gm(game.key)
        if name == "status":
            await self._sync(key)
            await self._send(reply, self._status(key, await self.rpc("game.view", **gm, wait=True)))
        elif name == "advance":
            entry = self.state.game(key)
            entry["expected"] = True
            self.state.set_game(key, entry)
            force = bool(opts.get("force"))
            # the seats still silent (AI seats have decided once the view waited for them): with force the
            # rulebook decides for them, and the channel is told whose decisions were defaulted, as on expiry
            before = await self.rpc("game.view", **gm, wait=True)
            if self._begun_since(cmd, before):
                await reply.send(self._moved_on(before, "Nothing was forced" if force else "Nothing was resolved"))
                return
            silent = by_seat(p["seat"] for p in before["pending"] if not p["submitted"]) if force else []
            try:  # the step the GM meant, never one begun between this look and the call (an AI seat's decision)
                await self.rpc("game.advance", **gm, force=force, wait=True, **step_guard(before))
            except ServiceError as err:
                if err.code != "conflict" or "step_started" not in (err.details or {}):
                    raise
                await reply.send(self._moved_on(await self.rpc("game.view", **gm),
                                                "Nothing was forced" if force else "Nothing was resolved"))
                return
            entry = self.state.game(key)
            entry["forced"] = [self._label(before, s) for s in silent]
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
            dl = min((p["deadline"] for p in out["pending"]), default=None)
            what = {"extend": f"extended by {opts.get('hours')} h", "pause": "paused", "resume": "running again"}
            msg = f"The GM's clock: the deadline is {what[action]}" + (
                f"; it is now {when(dl, 'f')} ({when(dl)})." if dl is not None and action != "pause" else ".")
            await reply.send(msg)
            await self._post(game.channel, msg)
        elif name == "undo":
            before = await self.rpc("game.view", **gm, wait=True)
            if self._begun_since(cmd, before):
                await reply.send(self._moved_on(before, "Nothing was undone"))
                return
            out = await self.rpc("game.undo", **gm)
            after = await self.rpc("game.view", **gm)
            entry = self.state.game(key)
            entry["log_next"] = (await self.rpc("game.log", **gm, since=0))["next"]
            entry["summarised"] = min(entry.get("summarised", 0), out["turn"] - 1)  # a turn undone is summed up again
            entry["turn"] = out["turn"]
            entry["redo"] = True  # its events, posted before, come again when it resolves: said so (_sync)
            self.state.set_game(key, entry)
            msg = (f"↩️ The GM rolled the last resolved step back: turn {out['turn']}, "
                   f"{STEP_WORDS.get(out['step'], out['step'])}, is open again. Decisions already sent for it stand; "
                   "the GM resolves it with /regent advance.")
            # what that step announced is void: the game's end, and who it eliminated (they play on)
            back = [s for s in by_seat(after["players"]) if (before["players"].get(s) or {}).get("eliminated")
                    and not after["players"][s].get("eliminated")]
            if before["over"] and not after["over"]:
                msg += "\nThe game is NOT over: the end announced for that step is void."
            if back:
                msg += (f"\nVoid too: the elimination of {', '.join(self._label(after, s) for s in back)}; "
                        "they are back in the game.")
            late = [p["seat"] for p in after.get("pending") or [] if not p["submitted"] and not p.get("controller")]
            # rules: 003 — the step's choices are revealed together: those posted when it resolved were seen, so a
            # decision sent now by a seat the defaults had stood in for is made knowing them
            who = ", ".join(self._label(after, s) for s in late)
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
            await self._send(reply, await self._public_report(key, opts.get("turn")))
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

    @staticmethod
    def _begun_since(cmd: Command, view: dict[str, Any]) -> bool:
        """Whether the step open now began after the GM issued ``cmd``: the step the command was meant for resolved
        meanwhile (the last DM completed it, its deadline passed), so an advance or an undo must not act on this one
        (a forced advance would default every seat of a step nobody had been told of yet)."""
        return cmd.created is not None and float(view.get("step_started") or 0.0) > cmd.created

    def _moved_on(self, view: dict[str, Any], nothing: str) -> str:
        """The GM's answer when the step a command was meant for resolved before it was carried out."""
        return (f"{nothing}: the step open when you gave the command was resolved meanwhile (its last decision came "
                f"in, or its deadline passed), and the game is now at turn {view['turn']}, "
                f"{STEP_WORDS.get(view['step'], view['step'])}, which the channel has just been told of. "
                "Give the command again if you mean this step.")

    async def _send(self, reply: chatlib.Reply, text: str) -> None:
        for part in split_messages(text) or ["(nothing)"]:
            await reply.send(part)

    def _status(self, key: str, view: dict[str, Any]) -> str:
        users = self.users(key)
        clock = view.get("clock") or {}
        out = [f"**{key}**: turn {view['turn']}, {STEP_WORDS.get(view['step'], view['step'])}"
               + (" (the clock is paused)" if clock.get("paused") else "")
               + (" (held after an undo: resolve it with /regent advance)" if clock.get("held") else "")]
        if view["over"]:
            out.append(self._result(view))
        pending = {p["seat"]: p for p in view["pending"]}
        # one deadline for every seat (the usual case): said once. Read while the clock is paused, each seat's
        # deadline moves on with the wall clock as it is read, so they differ by a moment: still one deadline
        times = [p["deadline"] for p in pending.values()]
        deadlines = {min(times)} if times and max(times) - min(times) < 60 else set(times)
        if len(deadlines) == 1:
            out[0] += f"; deadline {when(next(iter(deadlines)), 'f')}"
        waiting = [s for s in by_seat(pending) if not pending[s]["submitted"]]
        sent = [s for s in by_seat(pending) if pending[s]["submitted"]]
        if pending:
            out.append(f"{len(sent)} of {len(pending)} in" + (f"; waiting for {len(waiting)}:" if waiting else "."))
        for seat in waiting + sent:  # the seats still to send first, each list in seat order
            p = pending[seat]
            who = f"AI ({p['controller']})" if p.get("controller") else (f"<@{users[seat]}>"
                                                                         if users.get(seat) else "nobody")
            mark = "✓ sent" if p["submitted"] else "… waiting"
            own = "" if len(deadlines) == 1 else f", deadline {when(p['deadline'], 'f')}"
            out.append(f"{mark}: {self._label(view, seat)}, {who}{own}")
        return "\n".join(out)

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
        return f"**{key}**\n" + with_ai_line(rep["report"])

    async def _seat_command(self, key: str, opts: dict[str, Any], reply: chatlib.Reply) -> None:
        label, agent = str(opts.get("seat", "")).strip(), str(opts.get("agent", "")).strip()
        now = await self.rpc("game.view", **self._gm(key))
        seat = seat_named(now, label)
        if ((now.get("players") or {}).get(seat) or {}).get("eliminated"):
            raise ValueError(f"{self._label(now, seat)} was eliminated: it has no decisions left for an AI or a "
                             "player to make")
        mention = MENTION.match(agent) or (re.match(r"^(\d{15,22})$", agent))
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
                msg = (f"{self._label(view, seat)} is played by a human again"
                       + (f": <@{user}>." if user else " (no Discord user yet)."))
            else:
                msg = f"{self._label(view, seat)} is played by <@{user}>" + (
                    "." if before == user else f" now, instead of <@{before}>; the seat keeps its history.")
            if before and user and before != user:  # the member who had it hears it from the bot, not a refusal
                await self.tell(key, before, f"The GM gave your seat {self._label(view, seat)} in {key} to another "
                                             "player: I no longer take decisions from you for it.")
            if user and user != before:
                await self.tell(key, user, f"The GM gave you the seat {self._label(view, seat)} in {key}: send me its "
                                           "decisions by DM. The channel says which step is open.")
            if user and since is not None:  # what the seat's AI did meanwhile: the turns it finished
                for turn in range(since, (view["turn"] if view["over"] else view["turn"] - 1) + 1):
                    await self._summary(key, seat, user, turn)
        else:
            out = await self.rpc("game.assign", **self._gm(key), seat=seat, agent=agent)
            player = self.users(key).get(seat)  # the member the AI stands in for, told below
            mine = record.setdefault(seat, {})
            if player:
                mine["player"] = player
            if "since" not in mine:  # a second AI keeps the first one's turn
                mine["since"] = (await self.rpc("game.view", **self._gm(key)))["turn"]
            entry["users"][seat] = None
            self.state.set_game(key, entry)
            view = await self.rpc("game.view", **self._gm(key))
            level = "" if agent in AI_LEVELS else " agent"
            plays = agent + level + ("" if out["controller"] == agent else f" -> {out['controller']}")
            msg = f"{self._label(view, seat)} is now played by AI ({plays}); the seat keeps its history."
            if player:  # from the bot, before a DM of theirs is refused: their seat's decisions are the AI's now
                await self.tell(key, player, f"The GM put an AI in your seat {self._label(view, seat)} in {key}: it "
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
            raise ValueError(f"<@{user}> already holds {self._label(view, held[0])} in {key}, and a player holds "
                             f"one seat of a game (their DMs name no seat); give {held[0]} to an AI or another "
                             "member first")

    async def _stateless(self, cmd: Command, reply: chatlib.Reply) -> None:
        if not cmd.files:
            raise ValueError("attach the world file (JSON or TOML) to the command")
        f = cmd.files[0]
        world = parse_world(f)
        if cmd.name == "npr invasions":
            fields: dict[str, Any] = {"world": world}
            if cmd.options.get("seed") is not None:  # a seed of 0 is a seed: only a missing one is drawn
                fields["seed"] = cmd.options["seed"]
            out = await self.rpc("npr.invasions", **fields)
        else:
            nation = cmd.options.get("nation")
            if not nation:
                raise ValueError("npn plan needs the nation")
            fields = {"world": world, "nation": nation}
            for k in ("turn", "seed"):
                if cmd.options.get(k) is not None:
                    fields[k] = cmd.options[k]
            out = await self.rpc("npn.plan", **fields)
        body = json.dumps(out, indent=2, ensure_ascii=False, default=str).encode()
        summary = summarise(out)
        await reply.send(summary, File(f"{cmd.name.replace(' ', '-')}.json", body))


def with_settings(blob: bytes, game: GameConfig) -> bytes:
    """The game file ``blob`` with discord.toml's ``expiry`` and ``[deadlines]`` for its game written in, so that
    ``game.import`` applies them as ``game.create`` would (the service takes a game's expiry and windows from the
    game file only). The windows the table does not name stay the file's. A blob that is not a game file's map is
    sent as it is: the service's refusal names what is wrong with it. A seat the file's AI plays that the table gives
    to a member (``user``) is taken out of the file's AI seats: the member plays it from the import on."""
    try:
        data = msgpack.unpackb(blob, raw=False, strict_map_key=False)
    except Exception:  # msgpack raises several unrelated types
        return blob
    service = data.get("service") if isinstance(data, dict) else None
    if not isinstance(data, dict) or not isinstance(service if service is not None else {}, dict):
        return blob
    service = dict(service or {})
    expiry = service.get("expiry")
    service["expiry"] = {**(expiry if isinstance(expiry, dict) else {}), "auto": game.expiry}
    data["service"] = service
    # a seat of the file's AI that discord.toml gives to a member is that member's from the import on: the AI must
    # not decide for it (the service would start it as the game comes in); the file's own export of old kept its
    # AI seats as "controllers" under "service", a game file as "agents" at the top
    members = {s.seat for s in game.seats.values() if s.user is not None}
    for holder, name in ((data, "agents"), (service, "controllers")):
        seats = holder.get(name)
        if isinstance(seats, dict) and members & set(seats):
            holder[name] = {seat: agent for seat, agent in seats.items() if seat not in members}
    if game.deadlines:
        # the service's own export of old kept its windows under "service"; a game file keeps them at the top
        holder = service if data.get("kind") == "regent-service-game" else data
        windows = holder.get("deadlines")
        holder["deadlines"] = {**(windows if isinstance(windows, dict) else {}), **game.deadlines}
    return msgpack.packb(data, use_bin_type=True)


def is_setup(blob: bytes) -> bool:
    """Whether ``blob`` is a setup written as JSON (docs/positions.md: a position typed in, or `regent
    export-position`'s output), which ``game.import`` would refuse as "not MessagePack"."""
    if blob.lstrip()[:1] != b"{":  # a game file is a MessagePack map, whose first byte is never "{" (0x7b)
        return False
    try:
        return isinstance(json.loads(blob), dict)
    except ValueError:
        return False


def file_ai(blob: bytes) -> dict[str, str]:
    """The seats an AI plays in the game file ``blob`` (seat -> agent; ``{}`` for a blob that is not a game file's
    map: the service's refusal names what is wrong with it)."""
    try:
        data = msgpack.unpackb(blob, raw=False, strict_map_key=False)
    except Exception:  # msgpack raises several unrelated types
        return {}
    if not isinstance(data, dict):
        return {}
    service = data.get("service")
    seats = (service or {}).get("controllers") if data.get("kind") == "regent-service-game" and isinstance(
        service, dict) else data.get("agents")
    return {str(s): str(a) for s, a in seats.items() if a} if isinstance(seats, dict) else {}


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
    def label_of(s: str) -> str:
        name = (players.get(s) or {}).get("name")
        return f"{s} ({name})" if name and name != s else s
    if found:
        raise ValueError(f"{label!r} names {' and '.join(label_of(s) for s in by_seat(found))}; name the seat "
                         "(Player#N)")
    raise ValueError(f"unknown seat {label!r}; seats are {', '.join(label_of(s) for s in by_seat(players))}")


def renamed(game: GameConfig, view: dict[str, Any]) -> list[str]:
    """Where an imported game's seats differ from discord.toml's names and colours: ``Player#2 is "Sam", not
    "Samuel"``, one item per seat."""
    out = []
    players, colours = view.get("players") or {}, view.get("colours") or {}
    for seat in by_seat(game.seats):
        spec, have = game.seats[seat], []
        name = (players.get(seat) or {}).get("name")
        if spec.name and spec.name != name:
            have.append(f'"{name or seat}", not "{spec.name}"')
        colour = colours.get(seat)
        if spec.colour and colour and spec.colour.casefold() != str(colour).casefold():
            have.append(f'colour "{colour}", not "{spec.colour}"')
        if have:
            out.append(f"{seat} is " + " and ".join(have))
    return out


def _unformatted(line: str) -> str:
    """A DM's line read through Discord formatting (`**game: main**`, `> game: main`), as its orders are."""
    return re.sub(r"[*`~]", "", line).strip().lstrip(">#").strip()


def game_header(line: str) -> str | None:
    """The game a DM's first line names (`game: main`, `**game: main**`, `> game: main`, `game main`)."""
    m = GAME_HEADER.match(_unformatted(line))
    return m.group(1) if m else None


def names_a_game(line: str) -> bool:
    """Whether the line is a `game: NAME` (or `game = NAME`) header beyond doubt: its colon says so, where
    `Game on` may be chatter."""
    return re.match(r"^game\s*[:=]", _unformatted(line), re.IGNORECASE) is not None


def digest(words: str) -> str:
    """A short fingerprint of a message's words (the state file keeps it, not the words)."""
    return hashlib.sha256(words.encode()).hexdigest()[:16]


def channel_of(dm: DirectMessage) -> str:
    """The chat a player's message came in, as the state file's ``read`` marks name it."""
    return f"thread:{dm.thread_id}" if dm.thread_id is not None else f"dm:{dm.user_id}"


def step_guard(view: dict[str, Any]) -> dict[str, Any]:
    """``game.advance``'s guards naming the step ``view`` shows: the service resolves that step or none."""
    guard = {"turn": view.get("turn"), "step": view.get("step"), "step_started": view.get("step_started")}
    return {k: v for k, v in guard.items() if v is not None}


def step_of(view: dict[str, Any]) -> tuple[Any, Any, Any]:
    """Which step a view shows: a step resolved and the next one begun (even of the same kind, as a
    second Dragon attack in one turn) is another step."""
    return view.get("turn"), view.get("step"), view.get("step_started")


def due_reminders(thresholds: list[float], left: float, reminded: list[float],
                  window: float = float("inf")) -> list[float]:
    """The thresholds (seconds before the deadline) crossed with ``left`` seconds to go and not yet
    reminded. One message covers them all, so a bot that was down through several posts one; none
    once the deadline has passed (the step is then the GM's or the expiry's). ``window``: the time
    the step began with; a threshold as long as that or longer was crossed when the step began, and
    the step's announcement already named who it waits for (a "24h" reminder on a 24 h step would
    ping everyone again a second after it)."""
    if left <= 0:
        return []
    return [t for t in thresholds if left <= t < window and t not in reminded]


def still_crossed(reminded: list[float], left: float) -> list[float]:
    """The thresholds already reminded that are still crossed with ``left`` seconds to go. The same deadline
    keeps them all (``left`` only shrinks); a deadline the GM moved later (``/regent deadline extend``) forgets
    those it now lies beyond, so the players are reminded again before the new deadline."""
    return [t for t in reminded if t >= left]


DEFAULTS_LINE = "Rulebook defaults for: "
"""how the service's report of a turn with forced steps ends (its ``Played by AI`` line comes before it)"""


def with_ai_line(report: str) -> str:
    """The report with its ``Played by AI: ...`` line, ``none`` when no AI played, so AI seats are
    always labelled (the service adds the line only when an AI played), where the service puts it: before a closing
    ``Rulebook defaults for: ...`` line."""
    if "Played by AI:" in report:
        return report
    lines = report.rstrip("\n").split("\n")
    at = len(lines) - 1 if lines[-1].startswith(DEFAULTS_LINE) else len(lines)
    return "\n".join([*lines[:at], "Played by AI: none", *lines[at:]])


def parse_world(f: File) -> Any:
    text = f.data.decode("utf-8", "replace")
    try:
        return json.loads(text)
    except ValueError:
        pass
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        raise ValueError(f"{f.name}: the world file is neither JSON nor TOML") from None


def summarise(out: Any, limit: int = 1900) -> str:
    """A short readable head of a decision (the whole of it is in the attached JSON)."""
    lines: list[str] = []
    if isinstance(out, dict):
        for k, v in out.items():
            if k in ("trace", "dice"):
                continue
            lines.append(f"**{k}**: {json.dumps(v, ensure_ascii=False, default=str)[:300]}")
        trace = out.get("trace") or []
        if trace:
            lines.append(f"({len(trace)} trace steps in the attached file)")
    text = "\n".join(lines) or str(out)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _line_note(item: Any) -> str:
    if isinstance(item, dict):
        return f"line {item.get('line_no', item.get('n', '?'))} `{item.get('text', item.get('line', ''))}`" + (
            f" ({item['why'] if 'why' in item else item.get('reason', '')})")
    if isinstance(item, list | tuple) and len(item) == 3:
        return f"line {item[0]} `{item[1]}` ({item[2]})"
    return f"`{item}`"
