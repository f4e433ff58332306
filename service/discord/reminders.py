"""The bot's periodic work and the deadlines (``Reminders``): each tick creates a game the service could not make at
start, posts what happened, reminds the players still missing as the deadline nears (``_remind``) and reads back the
DMs still to read; which reminder thresholds are due (``due_reminders``) and which stay reminded when the GM moves the
deadline (``still_crossed``), as pure functions."""

from __future__ import annotations

import logging

from service.client import ServiceError
from service.discord.chat import DeliveryFailed
from service.discord.core import BridgeCore, ServiceDown
from service.discord.texts import STEP_WORDS, span, when
from service.posting import by_seat

log = logging.getLogger("regent.discord")


class Reminders(BridgeCore):
    async def tick(self) -> None:
        """Periodic work: catch up with steps resolved by AI seats or expiry, then remind."""
        for key in list(self.config.games):
            await self._settled(key)  # AI seats still thinking are waited for without the bridge's lock
            await self._draw_areas_ahead(key)  # and the summaries' pictures drawn (areas.py)
        async with self.lock:
            for key in list(self.config.games):
                try:
                    if self.state.game(key) is None:  # the service was down when the bot started
                        await self._create(key, self.config.games[key])
                    await self._sync(key, wait=False)
                    await self._remind(key)
                except (ServiceDown, ServiceError, DeliveryFailed) as err:  # one game's trouble (its channel
                    # failing too) never stops the others
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
