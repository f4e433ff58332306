"""``regent serve`` refuses what it cannot use before it starts, in one line naming the flag or file,
exit status 2, never a traceback (hostile-client dogfood hB items 5, 7, 8, 9)."""

from __future__ import annotations

import pytest

from service.cli import main


def serve_error(capsys, *args: str) -> str:
    assert main(["serve", "--log-level", "error", *args]) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("regent: error: "), err
    assert "Traceback" not in err and "bug in Regent" not in err
    return lines[0]


@pytest.mark.parametrize(("flags", "named"), [
    (("--max-message", "0"), "--max-message 0"),
    (("--max-message", "-5"), "--max-message -5"),
    (("--processes", "-1"), "--processes -1"),
    (("--workers", "0"), "--workers 0"),
    (("--idle-timeout", "-1"), "--idle-timeout -1"),
    (("--idle-timeout", "inf"), "--idle-timeout inf"),
    (("--expiry-interval", "nan"), "--expiry-interval nan"),
    (("--max-inflight", "0"), "--max-inflight 0"),
    (("--max-connections", "-3"), "--max-connections -3"),
    (("--port", "70000"), "--port 70000"),
    (("--unix", "/nonexistent/dir/s.sock"), "/nonexistent/dir"),
    (("--unix", "/tmp/" + "x" * 200), "--unix"),
    (("--checkpoint-dir", "/nonexistent/ckpt"), "--checkpoint-dir /nonexistent/ckpt"),
])
def test_bad_flags_are_refused_naming_the_flag(capsys, tmp_path, flags, named):
    line = serve_error(capsys, "--db", str(tmp_path / "r.sqlite"), "--port", "0", *flags)
    assert named in line


# -- item 8: a database file the server cannot use -----------------------------------------------
def _truncated(path):
    import sqlite3

    db = sqlite3.connect(path)
    db.execute("CREATE TABLE games (id TEXT PRIMARY KEY, created REAL, setup BLOB, meta BLOB)")
    db.executemany("INSERT INTO games VALUES (?, 0, ?, ?)", [(f"g{i}", b"x" * 500, b"y" * 500) for i in range(500)])
    db.commit()
    db.close()
    size = path.stat().st_size
    with open(path, "r+b") as f:
        f.truncate(size // 2)


def _other_schema(path, sql):
    import sqlite3

    db = sqlite3.connect(path)
    db.execute(sql)
    db.commit()
    db.close()


@pytest.mark.parametrize(("kind", "words"), [
    ("random", "not a SQLite database"),
    ("text", "not a SQLite database"),
    ("directory", "is a directory"),
    ("missing-parent", "does not exist"),
    ("truncated", "damaged"),
    ("other-games", "not Regent's"),
    ("foreign-table", "did not make"),
])
def test_a_database_file_it_cannot_use_is_one_line(capsys, tmp_path, kind, words):
    import os

    db = tmp_path / "db.sqlite"
    if kind == "random":
        db.write_bytes(os.urandom(5000))
    elif kind == "text":
        db.write_text("hello\n")
    elif kind == "directory":
        db.mkdir()
    elif kind == "missing-parent":
        db = tmp_path / "nope" / "x.sqlite"
    elif kind == "truncated":
        _truncated(db)
    elif kind == "other-games":
        _other_schema(db, "CREATE TABLE games (x)")
    else:
        _other_schema(db, "CREATE TABLE users (name TEXT)")
    before = db.read_bytes() if db.is_file() else None
    line = serve_error(capsys, "--db", str(db), "--port", "0")
    assert str(db) in line and words in line, line
    if before is not None:
        assert db.read_bytes() == before  # refused, not changed


def test_a_read_only_database_is_refused_at_start(capsys, tmp_path):
    import subprocess

    from service.store import Store

    db = tmp_path / "ro.sqlite"
    Store(db).close()
    if subprocess.run(["chattr", "+i", str(db)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not allowed here")
    try:
        line = serve_error(capsys, "--db", str(db), "--port", "0")
        assert str(db) in line and "read-only" in line
    finally:
        subprocess.run(["chattr", "-i", str(db)], capture_output=True)


# -- item 5: one server per database file --------------------------------------------------------
def test_a_second_server_on_the_same_database_is_refused(capsys, tmp_path):
    from tests.service.helpers import ServerProcess

    first = ServerProcess(tmp_path).start()
    try:
        with first.client() as c:
            g = c.call("game.create", setup={"board": "ring-5", "players": 5, "seed": 1})
        line = serve_error(capsys, "--db", str(first.db), "--port", "0")
        assert str(first.db) in line and "in use by another regent serve" in line
        assert f"pid {first.proc.pid}" in line
        with first.client() as c:  # the first one is untouched
            assert c.call("game.view", game_id=g["game_id"], token=g["gm_token"])["game_id"] == g["game_id"]
    finally:
        first.stop()
    second = ServerProcess(tmp_path).start()  # once it stopped, the file is free again
    try:
        with second.client() as c:
            assert c.call("game.view", game_id=g["game_id"], token=g["gm_token"])["game_id"] == g["game_id"]
    finally:
        second.stop()


# -- item 7: a small file descriptor limit -------------------------------------------------------
def test_a_small_fd_limit_caps_connections_and_the_log_stays_quiet(tmp_path):
    import json
    import resource
    import socket
    import subprocess
    import sys
    import time

    import msgpack

    from service.client import Client
    from tests.service.helpers import ENTRY, ROOT

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (128, 128))  # a hard limit it cannot raise

    sock_path, log_path = tmp_path / "s.sock", tmp_path / "server.log"
    with open(log_path, "w") as log:
        proc = subprocess.Popen([sys.executable, "-c", ENTRY, "serve", "--db", str(tmp_path / "r.sqlite"),
                                 "--unix", str(sock_path), "--log-level", "warning"],
                                cwd=ROOT, stderr=log, stdout=subprocess.DEVNULL, preexec_fn=limit)
    socks = []
    try:
        for _ in range(600):
            if sock_path.exists() or proc.poll() is not None:
                break
            time.sleep(0.1)
        assert proc.poll() is None, log_path.read_text()
        lowered = [json.loads(line) for line in log_path.read_text().splitlines() if "lowered" in line]
        assert lowered and lowered[0]["fd_limit"] == 128
        cap = lowered[0]["max_connections"]
        assert 8 <= cap <= 128 - 4 * lowered[0]["backlog"] - 13
        for _ in range(200):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.settimeout(30)
            for _ in range(300):
                try:
                    s.connect(str(sock_path))
                    break
                except BlockingIOError:  # the listen backlog is full until the server accepts
                    time.sleep(0.05)
            socks.append(s)
        refused = 0
        for s in socks[cap:]:  # beyond the cap: told why, then closed
            reply = msgpack.Unpacker(raw=False)
            reply.feed(s.recv(65536))
            message = next(reply)
            assert message[2]["code"] == "rate_limited"
            refused += 1
        assert refused == 200 - cap
        for s in socks:
            s.close()
        socks.clear()
        with Client(unix=str(sock_path), timeout=30) as c:
            assert c.call("ping") == "pong"
    finally:
        for s in socks:
            s.close()
        proc.terminate()
        proc.wait(timeout=30)
    lines = log_path.read_text().splitlines()
    assert all(line.startswith("{") for line in lines), lines[:5]
    assert any(json.loads(line)["msg"].startswith("--max-connections lowered") for line in lines)
    assert len(lines) <= 1, lines[:5]  # the one warning: never out of descriptors


# -- a store written by another Regent -----------------------------------------------------------
def test_a_database_from_a_newer_regent_is_refused_unchanged(capsys, tmp_path):
    # a newer Regent's store (its layout is stamped in user_version) used to start, then answer every move
    # 'internal' once its tables did not take this one's rows
    import sqlite3

    from service.store import SCHEMA_VERSION, Store

    db = tmp_path / "new.sqlite"
    Store(db).close()
    con = sqlite3.connect(db)
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    con.execute("ALTER TABLE actions ADD COLUMN signer TEXT NOT NULL DEFAULT ''")
    con.commit()
    con.close()
    before = db.read_bytes()
    line = serve_error(capsys, "--db", str(db), "--port", "0")
    assert str(db) in line and "newer Regent" in line and f"version {SCHEMA_VERSION + 1}" in line, line
    assert db.read_bytes() == before


def test_a_database_from_before_the_version_stamp_is_migrated_and_stamped(tmp_path):
    import sqlite3

    from service.store import SCHEMA_VERSION, Store

    db = tmp_path / "old.sqlite"
    con = sqlite3.connect(db)
    con.executescript("CREATE TABLE games (id TEXT PRIMARY KEY, created REAL NOT NULL, setup BLOB NOT NULL, "
                      "meta BLOB NOT NULL); CREATE TABLE actions (game_id TEXT NOT NULL, seq INTEGER NOT NULL, "
                      "action BLOB NOT NULL, at REAL NOT NULL, digest TEXT NOT NULL, PRIMARY KEY (game_id, seq));")
    con.close()
    Store(db).close()
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert "watch" in {r[1] for r in con.execute("PRAGMA table_info(games)")}
    con.close()
