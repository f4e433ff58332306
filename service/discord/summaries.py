"""What each player is told alone after a turn (``Summaries``): their private summary of each finished turn
(``_summaries``, ``_summary``; saying whether an AI played the seat), their balance as a Consolidation begins
(``_balances``), each told once and corrected after the GM's undo when it reads otherwise (``_told``,
``_keep_told``)."""

from __future__ import annotations

import logging
import re
from typing import Any

from service.client import ServiceError
from service.discord.core import BridgeCore
from service.discord.texts import digest, shown
from service.posting import by_seat

log = logging.getLogger("regent.discord")

ELIMINATED = re.compile(r"^You were eliminated on turn (\d+)", re.MULTILINE)  # engine/protectors/report.py
BALANCE_TURN = re.compile(r"^💰 \*\*Turn (\d+): Consolidation")  # a balance line's turn (Summaries._balances)


class Summaries(BridgeCore):
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
                          f"**Your summary of turn {turn}** ({seat}, {key}{note}{again}):\n{shown(rep['report'])}"))
        at = BALANCE_TURN.search(line or "")
        balance = f"balance:{seat}:{user}:{at.group(1) if at else turn}"  # the Consolidation's turn (_balances)
        if line is not None and self._told(key, balance, line) is not None:
            parts.append((balance, line, line))
        if parts:
            # the picture of the seat's area on a big board (``areas.py``), with the summary it belongs to: none for a
            # seat eliminated this turn; drawn again with the words when Discord failed them (never sent twice)
            picture = await self._summary_area(key, seat, turn) if seen is not None and not out else None
            if not await self.tell(key, user, "\n".join(sent for _, _, sent in parts), file=picture):
                # Discord failed it (its 429s or 5xxs outlasted discord.py's retries, a member unreachable for now):
                # sent again at the next sync, every tick, until it goes out (``_unsent_summaries``)
                entry = self.state.game(key)
                unsent = [u for u in entry.get("unsent", []) if u[:3] != [seat, user, turn]]
                entry["unsent"] = [*unsent, [seat, user, turn, line]]
                self.state.set_game(key, entry)
                return
            for name, words, _ in parts:
                self._keep_told(key, name, words)

    async def _unsent_summaries(self, key: str) -> None:
        """The private summaries Discord failed to deliver (``_summary``), tried again; those of turns an undo can no
        longer reach (more than two back) are given up, as ``told`` forgets them."""
        entry = self.state.game(key)
        unsent, entry["unsent"] = entry.get("unsent") or [], []
        if not unsent:
            return
        self.state.set_game(key, entry)
        for seat, user, turn, line in unsent:
            if turn >= int(entry.get("turn") or 0) - 2:
                await self._summary(key, seat, user, turn, {seat: line} if line is not None else None)

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
