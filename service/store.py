"""The embedded SQLite store: each game's setup, service metadata and append-only action log.

Durability (issue 8): every accepted submission and every advance is committed before the reply.
The database runs in WAL mode; ``synchronous=FULL`` (the default here) also survives power loss,
``NORMAL`` survives a killed process (``kill -9``) but not a power cut. A game is rebuilt by
replaying its setup and actions (``engine.protectors.game.Game`` is a pure function of them), and
the digest stored with every engine action lets a restarted server check the replay is exact.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    setup BLOB NOT NULL,
    meta BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    action BLOB NOT NULL,
    at REAL NOT NULL,
    digest TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""
SYNC_MODES = ("full", "normal")


def pack(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def unpack(blob: bytes) -> Any:
    return msgpack.unpackb(blob, raw=False, strict_map_key=False)


@dataclass
class StoredGame:
    id: str
    created: float
    setup: dict[str, Any]
    meta: dict[str, Any]
    actions: list[tuple[list[Any], float, str]]  # (engine action, time, digest after it)


class Store:
    """One SQLite connection shared by the worker threads, serialised by a lock."""

    def __init__(self, path: str | Path, sync: str = "full"):
        if sync not in SYNC_MODES:
            raise ValueError(f"sync: {sync!r} is not one of {', '.join(SYNC_MODES)}")
        self.path = str(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={sync.upper()}")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def create(self, game_id: str, setup: dict[str, Any], meta: dict[str, Any],
               actions: list[tuple[list[Any], float, str]] = ()) -> float:
        now = time.time()
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("INSERT INTO games VALUES (?, ?, ?, ?)", (game_id, now, pack(setup), pack(meta)))
                for seq, (action, at, digest) in enumerate(actions):
                    self._db.execute("INSERT INTO actions VALUES (?, ?, ?, ?, ?)",
                                     (game_id, seq, pack(action), at, digest))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return now

    def append(self, game_id: str, seq: int, actions: list[tuple[list[Any], float, str]],
               meta: dict[str, Any] | None = None) -> None:
        """Append engine actions from ``seq`` on (and update the metadata) in one transaction."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for i, (action, at, digest) in enumerate(actions):
                    self._db.execute("INSERT INTO actions VALUES (?, ?, ?, ?, ?)",
                                     (game_id, seq + i, pack(action), at, digest))
                if meta is not None:
                    self._db.execute("UPDATE games SET meta = ? WHERE id = ?", (pack(meta), game_id))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def truncate(self, game_id: str, actions: list[tuple[list[Any], float, str]], meta: dict[str, Any]) -> None:
        """Replace a game's whole action log and metadata in one transaction (``game.undo``)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("DELETE FROM actions WHERE game_id = ?", (game_id,))
                for seq, (action, at, digest) in enumerate(actions):
                    self._db.execute("INSERT INTO actions VALUES (?, ?, ?, ?, ?)",
                                     (game_id, seq, pack(action), at, digest))
                self._db.execute("UPDATE games SET meta = ? WHERE id = ?", (pack(meta), game_id))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def load_all(self) -> list[StoredGame]:
        with self._lock:
            games = self._db.execute("SELECT id, created, setup, meta FROM games ORDER BY created").fetchall()
            rows = self._db.execute("SELECT game_id, action, at, digest FROM actions ORDER BY game_id, seq").fetchall()
        by_game: dict[str, list[tuple[list[Any], float, str]]] = {}
        for game_id, action, at, digest in rows:
            by_game.setdefault(game_id, []).append((unpack(action), at, digest))
        return [StoredGame(gid, created, unpack(setup), unpack(meta), by_game.get(gid, []))
                for gid, created, setup, meta in games]
