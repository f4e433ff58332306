"""The bot's own small state, in one JSON file written atomically.

What the bot must not forget across a restart: each game's id and tokens (``game.create`` gives
them once), how far into each game's log it has posted, which reminder thresholds it posted for
the current step, which Discord messages it already stored (Discord may deliver one twice), and
the private threads opened for players whose DMs are closed, and a game the service has made but the bot
has not finished setting up (its AI seats, its first post). The game itself lives in the service.

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


class State:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.data: dict[str, Any] = {"version": VERSION, "games": {}, "creating": {}, "processed": {}, "threads": {}}
        if self.path.exists():
            try:
                loaded = json.loads(self.path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as e:
                raise StateError(f"{self.path}: cannot read the bot's state: {e}") from None
            if not isinstance(loaded, dict) or loaded.get("version") != VERSION:
                raise StateError(f"{self.path}: not a regent discord state file (version {VERSION})")
            self.data.update(loaded)

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
        done = self.data["processed"]
        done[str(message_id)] = record
        while len(done) > MAX_PROCESSED:
            done.pop(next(iter(done)))
        self.save()

    # -- private threads for closed DMs ----------------------------------------------------------
    def thread(self, game: str, user_id: int) -> int | None:
        return self.data["threads"].get(f"{game}:{user_id}")

    def set_thread(self, game: str, user_id: int, thread_id: int) -> None:
        self.data["threads"][f"{game}:{user_id}"] = thread_id
        self.save()

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
