"""The embedded SQLite store: each game's setup, service metadata and append-only action log.

Durability (issue 8): every accepted submission and every advance is committed before the reply.
The database runs in WAL mode; ``synchronous=FULL`` (the default here) also survives power loss,
``NORMAL`` survives a killed process (``kill -9``) but not a power cut. A game is rebuilt by
replaying its setup and actions (``engine.protectors.game.Game`` is a pure function of them), and
the digest stored with every engine action lets a restarted server check the replay is exact (a game
whose replay differs is read-only: ``service.hosting.HostedGame.check``).

One server per database file (hB item 5: a second server on the same file answered ``internal`` and
its ``game.undo`` truncated turns the first had stored): a store holds an exclusive ``flock`` on
``<db>.lock`` (holding the owner's pid) for as long as it is open, and a second process is refused.
A file the server cannot use (not SQLite, damaged, truncated, a directory, in a missing directory,
another program's tables, read-only) is refused when the store opens, with a :class:`StoreError`
naming the file and the problem (hB item 8), never later as ``internal`` replies.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
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
# Columns beside the meta blob so the server never has to load every game (issue 23 item 7):
# ``over`` (finished), ``watch`` (needs the server's attention at start: an AI decision or an
# automatic deadline pending) and ``gm`` (the GM token's hash, for game.list). They are copies of
# meta["over"], meta["watch"] and meta["gm"], written in the same statement as the meta.
FLAG_COLUMNS = (("over", "INTEGER NOT NULL DEFAULT 0"), ("watch", "INTEGER NOT NULL DEFAULT 1"), ("gm", "TEXT"))
INDEXES = """
CREATE INDEX IF NOT EXISTS games_live ON games(over, watch);
CREATE INDEX IF NOT EXISTS games_gm ON games(gm);
"""


# The store's layout, stamped in SQLite's user_version: a file stamped with a later one was written by a newer
# Regent and is refused unchanged (its tables may not take this one's rows: every move answered 'internal');
# 0 is a new file or one from before the stamp, brought up to date (``_migrate``) and stamped.
SCHEMA_VERSION = 1

# The columns Regent reads, per table: a database whose tables lack them belongs to something else.
COLUMNS = {"games": {"id", "created", "setup", "meta"}, "actions": {"game_id", "seq", "action", "at", "digest"}}
LOCK_SUFFIX = ".lock"


class StoreError(ValueError):
    """A database file the server cannot use; the message names the file and what is wrong."""


# Locks held by this process: real path of a database -> [its open lock file, stores using it]. The
# lock keeps other processes out; stores in one process (tests, a restart in place) share it.
_HELD: dict[str, list[Any]] = {}
_HELD_LOCK = threading.Lock()


def _acquire(path: str) -> str:
    key = os.path.realpath(path)
    with _HELD_LOCK:
        held = _HELD.get(key)
        if held is not None:
            held[1] += 1
            return key
        lock = key + LOCK_SUFFIX
        try:
            f = open(lock, "a+")  # noqa: SIM115 - held until the last store on this file closes
        except OSError as err:
            raise StoreError(f"{path}: cannot create its lock file {lock} ({err.strerror}); the server writes "
                             f"next to its database, so the directory must be writable") from None
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as err:
            f.seek(0)
            owner = f.read(20).strip()
            f.close()
            if err.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise StoreError(f"{path}: cannot lock {lock} ({err.strerror})") from None
            who = f" (pid {owner})" if owner.isdigit() else ""
            raise StoreError(f"{path}: in use by another regent serve{who}; one server per database file "
                             f"(stop that one, or give this one another --db)") from None
        f.seek(0)
        f.truncate()
        f.write(f"{os.getpid()}\n")
        f.flush()
        _HELD[key] = [f, 1]
        return key


def _release(key: str) -> None:
    with _HELD_LOCK:
        held = _HELD.get(key)
        if held is None:
            return
        held[1] -= 1
        if held[1] <= 0:
            del _HELD[key]
            with contextlib.suppress(OSError):
                fcntl.flock(held[0].fileno(), fcntl.LOCK_UN)
            held[0].close()


def _problem(err: sqlite3.Error) -> str:
    """What is wrong with a database file SQLite refused, in words."""
    text = str(err)
    if "file is not a database" in text:
        return "not a SQLite database (nor an empty file); give regent serve a new --db file or the right one"
    if "malformed" in text or "corrupt" in text:
        return (f"a damaged SQLite database ({text}); restore it from a backup, or give a new --db file")
    if "readonly" in text or "read-only" in text:
        return "read-only (its permissions, its directory's, or an immutable flag); the server writes every move to it"
    if "locked" in text or "busy" in text:
        return f"locked by another program ({text})"
    if "unable to open" in text:
        return f"cannot open it ({text})"
    return f"cannot use it as a database ({type(err).__name__}: {text})"


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
        self._held: str | None = None
        memory = self.path == ":memory:" or self.path.startswith("file::memory:")
        if not memory:
            where = Path(self.path)
            if where.is_dir():
                raise StoreError(f"{self.path}: is a directory, not a database file")
            if not where.parent.is_dir():
                raise StoreError(f"{self.path}: the directory {where.parent} does not exist")
            if where.exists() and not where.is_file():
                raise StoreError(f"{self.path}: not a regular file")
            self._held = _acquire(self.path)
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except sqlite3.Error as err:
            self._release()
            raise StoreError(f"{self.path}: {_problem(err)}") from None
        try:
            self._check_tables()  # before anything writes to the file
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={sync.upper()}")
            self._db.executescript(SCHEMA)
            self._migrate()
            self._check_writable()
        except sqlite3.Error as err:
            self._db.close()
            self._release()
            raise StoreError(f"{self.path}: {_problem(err)}") from None
        except BaseException:
            self._db.close()
            self._release()
            raise

    def _release(self) -> None:
        if self._held is not None:
            _release(self._held)
            self._held = None

    def _check_tables(self) -> None:
        """Refuse a database that holds another program's tables (hB item 8), or a newer Regent's."""
        version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path}: written by a newer Regent (store version {version}; this one reads up "
                             f"to {SCHEMA_VERSION}); serve it with that Regent, or give regent serve a new --db file")
        tables = [r[0] for r in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                                  "AND name NOT LIKE 'sqlite_%'")]
        foreign = [t for t in tables if t not in COLUMNS]
        if foreign:
            raise StoreError(f"{self.path}: holds tables Regent did not make ({', '.join(sorted(foreign)[:5])}); "
                             f"give regent serve a new --db file")
        for table in tables:
            have = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
            missing = COLUMNS[table] - have
            if missing:
                raise StoreError(f"{self.path}: its {table} table is not Regent's (no {', '.join(sorted(missing))} "
                                 f"column); give regent serve a new --db file")

    def _check_writable(self) -> None:
        """Stamp the layout's version: a read-only file is refused now, not at the first move."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self._db.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):  # (a failed COMMIT may have ended it already)
                self._db.execute("ROLLBACK")
            raise

    def _migrate(self) -> None:
        """Add the flag columns to a database written before them, and fill in ``gm``."""
        have = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        for name, decl in FLAG_COLUMNS:
            if name not in have:
                self._db.execute(f"ALTER TABLE games ADD COLUMN {name} {decl}")
        self._db.executescript(INDEXES)
        missing = self._db.execute("SELECT id, meta FROM games WHERE gm IS NULL").fetchall()
        if missing:
            with self._transaction():
                self._db.executemany("UPDATE games SET gm = ? WHERE id = ?",
                                     [(unpack(meta).get("gm", ""), game_id) for game_id, meta in missing])

    @staticmethod
    def _flags(meta: dict[str, Any]) -> tuple[int, int, str]:
        return int(bool(meta.get("over", False))), int(bool(meta.get("watch", True))), str(meta.get("gm", ""))

    def close(self) -> None:
        with self._lock:
            self._db.close()
            self._release()

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """One write transaction under the store's lock: all of it is stored, or none."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def _insert_actions(self, game_id: str, start: int, actions: list[tuple[list[Any], float, str]]) -> None:
        self._db.executemany("INSERT INTO actions VALUES (?, ?, ?, ?, ?)",
                             [(game_id, start + i, pack(action), at, digest)
                              for i, (action, at, digest) in enumerate(actions)])

    def _update_meta(self, game_id: str, meta: dict[str, Any]) -> None:
        self._db.execute("UPDATE games SET meta = ?, over = ?, watch = ?, gm = ? WHERE id = ?",
                         (pack(meta), *self._flags(meta), game_id))

    def create(self, game_id: str, setup: dict[str, Any], meta: dict[str, Any],
               actions: list[tuple[list[Any], float, str]] = ()) -> float:
        now = time.time()
        with self._transaction():
            self._db.execute("INSERT INTO games (id, created, setup, meta, over, watch, gm) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?)", (game_id, now, pack(setup), pack(meta),
                                                              *self._flags(meta)))
            self._insert_actions(game_id, 0, list(actions))
        return now

    def append(self, game_id: str, seq: int, actions: list[tuple[list[Any], float, str]],
               meta: dict[str, Any] | None = None) -> None:
        """Append engine actions from ``seq`` on (and update the metadata) in one transaction."""
        with self._transaction():
            self._insert_actions(game_id, seq, actions)
            if meta is not None:
                self._update_meta(game_id, meta)

    def truncate(self, game_id: str, actions: list[tuple[list[Any], float, str]], meta: dict[str, Any]) -> None:
        """Replace a game's whole action log and metadata in one transaction (``game.undo``)."""
        with self._transaction():
            self._db.execute("DELETE FROM actions WHERE game_id = ?", (game_id,))
            self._insert_actions(game_id, 0, actions)
            self._update_meta(game_id, meta)

    def load_all(self) -> list[StoredGame]:
        with self._lock:
            games = self._db.execute("SELECT id, created, setup, meta FROM games ORDER BY created").fetchall()
            rows = self._db.execute("SELECT game_id, action, at, digest FROM actions ORDER BY game_id, seq").fetchall()
        by_game: dict[str, list[tuple[list[Any], float, str]]] = {}
        for game_id, action, at, digest in rows:
            by_game.setdefault(game_id, []).append((unpack(action), at, digest))
        return [StoredGame(gid, created, unpack(setup), unpack(meta), by_game.get(gid, []))
                for gid, created, setup, meta in games]

    # -- loading one game at a time (the server keeps only games in use in memory) ---------------
    def load(self, game_id: str) -> StoredGame | None:
        with self._lock:
            row = self._db.execute("SELECT id, created, setup, meta FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                return None
            actions = self._db.execute("SELECT action, at, digest FROM actions WHERE game_id = ? ORDER BY seq",
                                       (game_id,)).fetchall()
        gid, created, setup, meta = row
        return StoredGame(gid, created, unpack(setup), unpack(meta), [(unpack(a), at, d) for a, at, d in actions])

    def watched(self) -> list[str]:
        """Games that need the server's attention as soon as it starts (not over, ``watch`` set)."""
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT id FROM games WHERE over = 0 AND watch = 1 "
                                                   "ORDER BY created")]

    def count_live(self) -> int:
        """Stored games that are not over."""
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM games WHERE over = 0").fetchone()[0])

    def games_of(self, gm_hash: str) -> list[str]:
        """Ids of the games whose GM token has this hash."""
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT id FROM games WHERE gm = ?", (gm_hash,))]
