"""What every part of the bridge shares (``BridgeCore``, the base of ``bridge.Bridge`` and of each of its parts): the
state it works on (the config, the chat, the state file, the service's client, the clock, the lock that lets DMs,
commands and syncs change the bot's state one at a time), the service calls (``rpc``, ``ServiceDown``, ``_settled``),
who holds which seat with which token (``users``, ``seats_of``, ``_gm``, ``_seat``) and which seats a deadline passed
would still default (``_decided``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from service.client import AsyncClient, ServiceError
from service.discord.chat import Chat, File, snowflake_time
from service.discord.config import Config
from service.discord.state import State

log = logging.getLogger("regent.discord")

CALL_TIMEOUT = 300.0  # seconds for one service call (a board picture on a busy machine)
SKEW_TOLERANCE = 1.0  # seconds the host clock's measured offset from Discord's may move before it is written again


def step_key(view: dict[str, Any]) -> str:
    """The step a game view shows, as the state file names it (``step_key``, ``step_post``)."""
    return f"{view['turn']}:{view['step']}:{view['step_started']}"


class ServiceDown(Exception):
    """The service could not be reached (or closed the connection) during a call."""


class BridgeCore:
    """The bridge's state (set by ``Bridge.__init__``) and the calls every part makes. The parts (``talking``,
    ``channel_posts``, ``summaries``, ``games``, ``dms``, ``catch_up``, ``reminders``, ``commands``,
    ``seat_command``) are mixins of ``Bridge`` and reach one another through ``self``, so a test that replaces
    one of its methods on a bridge (``rpc``, ``_post``, ``_tell``) replaces it for every part."""

    config: Config
    chat: Chat
    state: State
    _connect: Callable[[], Awaitable[AsyncClient]]
    client: AsyncClient | None
    now: Callable[[], float]
    lock: asyncio.Lock
    # the catch-up after the bot was offline (``catch_up.py``)
    catch_up_limit: int
    _live_ok: set[str]
    _reading: dict[str, asyncio.Lock]
    _catching: asyncio.Lock
    catch_up_due: bool
    _online_since: float | None
    _upgrade_read: dict[str, list[int]]
    # each game's step a sync last saw still open, and when (the host's clock): where a step announced next began at
    # the earliest (``channel_posts._sync``, ``step_began``)
    _step_seen: dict[str, tuple[str, float]]
    # a picture an answer to a DM carries (a player's ``board me``: ``areas.py``), by the DM's id, until it is sent
    _answer_files: dict[int, File]
    # the last answer sent to each player's DM: (its words, when, whether ``REPEATED`` was said since) (``Dms``)
    _last_answer: dict[int, tuple[str, float, bool]]
    # the summaries' area pictures drawn before the lock is taken, by (game, seat, turn): (the game's undos then, the
    # picture, None for none, or why it could not be drawn); and each game's undos (``areas.py``)
    _areas_ahead: dict[tuple[str, str, int], tuple[int, File | str | None]]
    _area_undos: dict[str, int]

    # -- Discord's clock ------------------------------------------------------------------------
    def learn_clock(self, before: float, after: float, message_id: int | None) -> None:
        """A message the bot posted between ``before`` and ``after`` (the host's clock) got the Discord id
        ``message_id``: how far the host's clock is ahead of Discord's (kept when it moved by more than a second)."""
        if message_id is None or after - before > 2 * SKEW_TOLERANCE:  # a slow post (a 429 waited out) tells little
            return
        skew = (before + after) / 2 - snowflake_time(message_id)
        if abs(skew - self.state.skew()) > SKEW_TOLERANCE:
            log.info("the host's clock is %.1f s ahead of Discord's", skew)
            self.state.set_skew(skew)

    def discord_time(self, host_time: float) -> float:
        """``host_time`` (the bot's clock) on Discord's clock, which a message's id and ``created`` are on."""
        return host_time - self.state.skew()

    def step_began(self, key: str, view: dict[str, Any]) -> float:
        """When the step ``view`` shows began, on Discord's clock (a DM read back is on it: whether it came in before
        that step): as told when its announcement was posted (the state's ``step_post``, ``Posting._keep_step_post``),
        else (an older bot's state, a step whose post failed) the service's ``step_started`` converted with the host
        clock's offset measured last (``skew``)."""
        post = (self.state.game(key) or {}).get("step_post") or {}
        if post.get("step") == step_key(view) and post.get("began") is not None:
            return float(post["began"])
        return self.discord_time(float(view.get("step_started") or 0.0))

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

    async def _settled(self, key: str) -> None:
        """Wait until the service has no background work left for ``key``'s game (AI seats, a step
        resolving); the next sync reports it. A service that cannot answer is the sync's to report."""
        if self.state.game(key) is None:
            return
        with contextlib.suppress(ServiceDown, ServiceError):
            await self.rpc("game.pending", **self._gm(key), wait=True)

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

    def _decided(self, key: str, seat: str, step: tuple[Any, Any, Any] | None = None) -> None:
        """``seat``'s decision for the open step (``step``, when known: the one the bot last posted) is in or is an
        AI's (a DM stored, an AI put in the seat): if the step resolves past its deadline, the channel's notice
        (``Posting._sync``: the rulebook's defaults for the seats still waited for) does not name it."""
        entry = self.state.game(key)
        waiting = (entry or {}).get("waiting")
        if not waiting or seat not in waiting["seats"]:
            return
        if step is None or entry["step_key"] == ":".join(map(str, step)):
            waiting["seats"] = [s for s in waiting["seats"] if s != seat]
            self.state.set_game(key, entry)
