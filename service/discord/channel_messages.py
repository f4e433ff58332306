"""A player's decision posted in the game's channel, or a thread of it, instead of a DM (``ChannelMessages``).

The bot reads decisions only by DM (rules 003: "All orders/choices made by the players ... are given in secret as a
Direct Message (DM) to the GM"): a message in the channel is never stored, and everyone there can read it. The player
whose message reads as a decision (``looks_like_a_decision``: a line starting with an order's word and naming a number
or a Province, a line of only ``none`` or ``Turn off the lights``, a ``game: NAME`` header) is told so by DM, once a
step; table talk is left alone (``Blue, I will march on you``), and the channel hears nothing of it."""

from __future__ import annotations

import logging
import re

from service.discord.core import BridgeCore
from service.discord.state import ai_seats, held

log = logging.getLogger("regent.discord")

# the first words of the DM syntax's orders (docs/dm-syntax.md), read through Discord formatting and a list's bullet
_LEAD = r"^[\s*_~`>#\-•]*(?:\d+[.)]\s+)?"
_ORDER = re.compile(
    _LEAD + r"(?:golden\s+|delayed\s+)?(?:march|move|support|fortify|work|send|snitch|ferry|bid|rebid|"
    r"buy|purchase|upgrade|commit|i\s+commit|all\s+from)\b",
    re.IGNORECASE,
)
_NAMES_SOMETHING = re.compile(r"\d|\bisland\b", re.IGNORECASE)  # a count, an amount or a Province
_WHOLE = re.compile(_LEAD + r"(?:none|no\s+orders|turn\s+off\s+the\s+lights|lights\s+out)[\s.!*_~`]*$", re.IGNORECASE)
_HEADER = re.compile(_LEAD + r"game\s*[:=]", re.IGNORECASE)
NOT_READ = (
    "I read decisions only in a DM to me (or in your private thread, if I opened one for you): your message in "
    "the game's channel was **not stored**, and everyone there can read it. If it was your decision for "
    "{seat} in {key}, send it to me by DM."
)


def looks_like_a_decision(text: str) -> bool:
    """Whether a message reads as a decision for the bot rather than table talk."""
    return any(
        (_ORDER.match(line) and _NAMES_SOMETHING.search(line)) or _WHOLE.match(line) or _HEADER.match(line)
        for line in text.splitlines()
    )


class ChannelMessages(BridgeCore):
    async def on_channel_message(self, user_id: int, channel_id: int, text: str) -> bool:
        """A member's message in ``channel_id`` (a game's channel, or a public thread of it: the adapter passes the
        channel). Its player is told by DM, once a step, that a decision there is not stored; True when told."""
        game = self.config.game_for_channel(channel_id)
        if game is None or not looks_like_a_decision(text):
            return False
        async with self.lock:
            entry = self.state.game(game.key)
            if entry is None:
                return False
            seat = next((s for s, u in self.users(game.key).items() if u == user_id), None) or next(
                (s for s, rec in ai_seats(entry).items() if held(rec) and rec.get("player") == user_id), None
            )
            if seat is None:  # not a player of this game: not the bot's business
                return False
            told = entry.setdefault("channel_told", {})
            if told.get(str(user_id)) == entry.get("step_key"):
                return False
            told[str(user_id)] = entry.get("step_key")
            self.state.set_game(game.key, entry)
            log.info("game %s: %s posted what reads as a decision in the channel; told to DM it", game.key, seat)
            await self.tell(game.key, user_id, NOT_READ.format(seat=seat, key=game.key))
        return True
