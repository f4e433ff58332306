"""The bot's own small state, in one JSON file written atomically.

What the bot must not forget across a restart: each game's id and tokens (``game.create`` gives
them once), how far into each game's log it has posted, which reminder thresholds it posted for
the current step, which Discord messages it already stored (Discord may deliver one twice), and
the private threads opened for players whose DMs are closed, and a game the service has made but the bot
has not finished setting up (its AI seats, its first post), and the last message it handled from each player in
their DMs and private thread (``read``: where the history is read from after the bot was offline, since Discord
replays nothing it missed), the host clock's offset from Discord's (``skew``) and when the step each game has open
began on Discord's clock, told as it was announced (its entry's ``step_post``; an older bot's state has neither, and
the read-back falls back to the service's clock). The game itself lives in the service.

Every change is written to a temporary file, flushed to disk and renamed over the old one, so a
crash leaves either the old or the new file, never half of one. The file holds game tokens: it is
created readable by its owner only.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

VERSION = 1
MAX_PROCESSED = 5000  # message ids remembered (oldest dropped first); Discord redelivers within minutes


class StateError(ValueError):
    pass


# An older bot kept three maps per game for a seat an AI holds: ``away`` (seat -> its player), ``ai_since`` (seat ->
# the turn the AI took it) and ``ai_step`` (seat -> the step the AI had decided when the seat was given back).
OLD_AI_KEYS = {"away": "player", "ai_since": "since", "ai_step": "decided"}


def ai_seats(entry: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A game entry's record of its seats an AI holds or held: seat -> ``{"player", "since", "decided"}``, each key
    only when known. ``player``: the member the seat goes back to; ``since``: the turn the AI took the seat (the
    turns whose summaries its player gets on the hand-back); both are there while the AI holds the seat
    (:func:`held`). ``decided``: ``[turn, step, started]``, the step the AI had decided when the seat was given back
    (the player's DM for it is told so). The maps of an older bot's file are moved in (and dropped) here."""
    record = entry.setdefault("ai_seats", {})
    for old, key in OLD_AI_KEYS.items():
        for seat, value in (entry.pop(old, None) or {}).items():
            record.setdefault(seat, {})[key] = value
    return record


def held(seat_record: dict[str, Any] | None) -> bool:
    """Whether an AI holds the seat now (``ai_seats``): anything but a hand-back's ``decided`` says it does."""
    return bool(seat_record) and any(key != "decided" for key in seat_record)


class State:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.data: dict[str, Any] = {"version": VERSION, "games": {}, "creating": {}, "processed": {}, "threads": {},
                                     "refused": {}, "read": {}, "printed": []}
        if self.path.exists():
            try:
                loaded = json.loads(self.path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as e:
                raise StateError(f"{self.path}: cannot read the bot's state: {e}") from None
            if not isinstance(loaded, dict) or loaded.get("version") != VERSION:
                raise StateError(f"{self.path}: not a regent discord state file (version {VERSION})")
            self.data.update(loaded)
            for entry in self.data["games"].values():
                if isinstance(entry, dict):
                    ai_seats(entry)  # a file of an older bot: its three per-seat maps become the one record

    # -- games -----------------------------------------------------------------------------------
    def game(self, key: str) -> dict[str, Any] | None:
        return self.data["games"].get(key)

    def set_game(self, key: str, entry: dict[str, Any]) -> None:
        self.data["games"][key] = entry
        self.data["creating"].pop(key, None)  # set up: in the same write
        self.save()

    # -- a game the service made, still being set up ---------------------------------------------
    def creating(self, key: str) -> dict[str, Any] | None:
        return self.data["creating"].get(key)

    def set_creating(self, key: str, made: dict[str, Any]) -> None:
        self.data["creating"][key] = made
        self.save()

    # -- messages already stored -----------------------------------------------------------------
    def processed(self, message_id: int) -> dict[str, Any] | None:
        return self.data["processed"].get(str(message_id))

    def mark_processed(self, message_id: int, record: dict[str, Any]) -> None:
        self._keep("processed", message_id, record)

    def _keep(self, kind: str, message_id: int, record: dict[str, Any]) -> None:
        """``record`` for a message, in the ``kind`` map of at most MAX_PROCESSED (the oldest go first)."""
        kept = self.data[kind]
        kept[str(message_id)] = record
        while len(kept) > MAX_PROCESSED:
            kept.pop(next(iter(kept)))
        self.save()

    # -- messages answered with nothing stored: when each first came in (an edit of it is of that DM) --------------
    def refused(self, message_id: int) -> dict[str, Any] | None:
        return self.data["refused"].get(str(message_id))

    def mark_refused(self, message_id: int, arrived: float, resend: bool = False, on_discord: bool = False,
                     **seen: Any) -> None:
        """Keep the first arrival of a DM nothing of which was stored (an edit read later keeps it too). ``resend``:
        it was not read at all (the service was down, the player was asked to send it again), so a delivery of it
        again is read; a DM answered for good is answered once. ``seen``: the words answered (``words``, a digest)
        and the chat (``chat``), replaced by an edit's. ``on_discord``: ``arrived`` is on Discord's clock (a DM read
        back: its own time), kept with it (an older bot's record, without it, is on the host's)."""
        record = self.data["refused"].get(str(message_id))
        if record is None:
            self._keep("refused", message_id, {"arrived": arrived, **({"resend": True} if resend else {}),
                                               **({"on_discord": True} if on_discord else {}), **seen})
        elif bool(record.get("resend")) != resend or any(record.get(k) != v for k, v in seen.items()):
            if resend:
                record["resend"] = True
            else:
                record.pop("resend", None)
            record.update(seen)
            self.save()

    def answered_in(self, channel: str, upto: int, newest: int) -> list[int]:
        """The ids of the ``newest`` messages answered in ``channel`` (stored or refused) up to ``upto`` whose words
        the state keeps (an older bot kept none), oldest first."""
        ids = sorted(int(m) for kind in ("processed", "refused") for m, rec in self.data[kind].items()
                     if rec.get("chat") == channel and rec.get("words") is not None and int(m) <= upto)
        return ids[-newest:]

    def unprinted(self, newest: int) -> list[int]:
        """The ids of the ``newest`` messages answered (stored or refused) whose words and chat the state does not
        keep (a bot before the fingerprints, session 32, kept neither), oldest first."""
        ids = sorted(int(m) for kind in ("processed", "refused") for m, rec in self.data[kind].items()
                     if rec.get("words") is None)
        return ids[-newest:] if newest > 0 else []

    def fingerprint(self, message_id: int, channel: str, words: str, save: bool = True) -> None:
        """Keep ``words`` (a digest) as the words a message answered by an older bot was answered with, and its chat
        (``answered_in`` then finds it), unless the state keeps some already. ``save``: write now (else with the
        caller's next write)."""
        for kind in ("processed", "refused"):
            rec = self.data[kind].get(str(message_id))
            if rec is not None and rec.get("words") is None:
                rec.update(words=words, chat=channel)
                if save:
                    self.save()

    def printed(self, channel: str) -> bool:
        """Whether ``channel``'s messages answered by an older bot, which kept no words, were fingerprinted."""
        return channel in self.data["printed"]

    def set_printed(self, channel: str) -> None:
        if channel not in self.data["printed"]:
            self.data["printed"].append(channel)
            self.save()

    # -- how far each player's DMs were handled: the history read after the bot was offline starts there ---------
    def read(self, channel: str) -> int | None:
        """The newest message id handled in ``channel`` (``dm:USER`` or ``thread:ID``), or None."""
        value = self.data["read"].get(channel)
        return int(value) if value is not None else None

    def set_read(self, channel: str, message_id: int, save: bool = True) -> None:
        """``message_id`` handled in ``channel``: the mark only moves forward (ids grow with time). ``save``: write
        now (else with the caller's next write)."""
        if message_id > (self.read(channel) or 0):
            self.data["read"][channel] = message_id
            if save:
                self.save()

    def last_handled(self) -> int | None:
        """The newest message id answered (stored or refused) that the state remembers, or None: how far an older
        bot, which kept no ``read`` marks, had read its players' DMs."""
        ids = [int(m) for kind in ("processed", "refused") for m in self.data[kind]]
        return max(ids, default=None)

    # -- the host clock against Discord's ----------------------------------------------------------------------------
    def skew(self) -> float:
        """How far the host's clock is ahead of Discord's, in seconds (0 until measured): as last measured on a post
        (``BridgeCore.learn_clock``), kept across restarts so the read-back on start has it."""
        return float(self.data.get("skew") or 0.0)

    def set_skew(self, seconds: float) -> None:
        self.data["skew"] = seconds
        self.save()

    # -- private threads for closed DMs ----------------------------------------------------------
    def thread(self, game: str, user_id: int) -> int | None:
        return self.data["threads"].get(f"{game}:{user_id}")

    def set_thread(self, game: str, user_id: int, thread_id: int) -> None:
        self.data["threads"][f"{game}:{user_id}"] = thread_id
        self.save()

    def forget_thread(self, thread_id: int) -> None:
        """The private thread ``thread_id`` is gone (deleted, locked): a new one is opened for its player."""
        self.data["threads"] = {k: tid for k, tid in self.data["threads"].items() if tid != thread_id}
        self.save()

    def threads(self) -> list[tuple[str, int, int]]:
        """Every private thread opened: (game, user, thread id)."""
        out = []
        for key, tid in self.data["threads"].items():
            game, user = key.rsplit(":", 1)
            out.append((game, int(user), int(tid)))
        return out

    def thread_owner(self, thread_id: int) -> tuple[str, int] | None:
        for key, tid in self.data["threads"].items():
            if tid == thread_id:
                game, user = key.rsplit(":", 1)
                return game, int(user)
        return None

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", dir=self.path.parent)
        try:
            os.fchmod(fd, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(self.data, f, indent=1, sort_keys=True)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
