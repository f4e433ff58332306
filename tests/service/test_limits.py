"""Issue 23 item 7: limits on what anyone who reaches the port can create and hold.

The create token, a refusal to serve a non-loopback address without one, --max-games
(too_many_games), --max-connections and --idle-timeout (each closing with its reason), TLS, and
games leaving memory (still served from the store)."""

from __future__ import annotations

import asyncio
import shutil
import ssl
import subprocess
import time

import msgpack
import pytest

from service.app import App
from service.cli import main
from service.client import Client, ServiceError
from service.errors import RpcError
from service.hosting import digest
from service.store import Store
from tests.service.helpers import ServerProcess

SETUP = {"board": "ring-5", "players": 5, "seed": 2, "auto_advance": False}


@pytest.fixture(scope="module")
def guarded(tmp_path_factory):
    proc = ServerProcess(tmp_path_factory.mktemp("guarded"),
                         args=("--create-token", "s3cret", "--max-games", "3", "--max-connections", "4",
                               "--idle-timeout", "3")).start()
    yield proc
    proc.stop()


def test_create_and_import_need_the_create_token(guarded):
    with guarded.client() as c:
        for token in (None, "wrong", 5):
            fields = {"setup": SETUP} if token is None else {"setup": SETUP, "token": token}
            with pytest.raises(ServiceError) as err:
                c.call("game.create", **fields)
            assert err.value.code == "forbidden" and "create token" in err.value.message
        game = c.call("game.create", setup=SETUP, token="s3cret")
        blob = c.call("game.export", game_id=game["game_id"], token=game["gm_token"])["blob"]
        with pytest.raises(ServiceError) as err:
            c.call("game.import", blob=blob)
        assert err.value.code == "forbidden"
        c.call("game.import", blob=blob, token="s3cret")


def test_max_games_answers_too_many_games(guarded):
    with guarded.client() as c:
        made = 0
        with pytest.raises(ServiceError) as err:
            for _ in range(5):
                c.call("game.create", setup=SETUP, token="s3cret")
                made += 1
        assert err.value.code == "too_many_games" and "3" in err.value.message and made <= 3
        assert c.call("ping") == "pong"


def test_max_connections_closes_the_extra_one_with_its_reason(guarded):
    clients = [guarded.client() for _ in range(4)]
    try:
        for c in clients:
            assert c.call("ping") == "pong"
        extra = guarded.client()
        reply = extra.read_message()
        assert reply[0] == 1 and reply[1] is None and reply[2]["code"] == "rate_limited"
        assert "connections" in reply[2]["message"]
        with pytest.raises(ConnectionError):
            extra.read_message()
        extra.close()
        assert clients[0].call("ping") == "pong"
    finally:
        for c in clients:
            c.close()


def test_an_idle_connection_is_closed_with_its_reason(guarded):
    with guarded.client() as idle, guarded.client() as busy:
        start = time.monotonic()
        while time.monotonic() - start < 4.5:
            assert busy.call("ping") == "pong"  # a connection in use stays open
            time.sleep(0.3)
        reply = idle.read_message()
        assert reply[1] is None and reply[2]["code"] == "idle_timeout" and "idle-timeout" in reply[2]["message"]
        with pytest.raises(ConnectionError):
            idle.read_message()


def test_a_public_address_needs_a_create_token_or_an_explicit_opt_out(capsys, monkeypatch):
    monkeypatch.delenv("REGENT_CREATE_TOKEN", raising=False)
    assert main(["serve", "--host", "0.0.0.0", "--port", "0", "--db", ":memory:", "--log-level", "error"]) == 2
    err = capsys.readouterr().err
    assert "--create-token" in err and "--no-create-token" in err and "Traceback" not in err


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    if shutil.which("openssl") is None:
        pytest.skip("no openssl command to make a test certificate")
    d = tmp_path_factory.mktemp("tls")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(d / "key.pem"),
                    "-out", str(d / "cert.pem")], check=True, capture_output=True, timeout=60)
    return d / "cert.pem", d / "key.pem"


def test_tls(tmp_path, certificate, capsys):
    cert, key = certificate
    server = ServerProcess(tmp_path, tcp=True, args=("--tls-cert", str(cert), "--tls-key", str(key))).start()
    try:
        ctx = ssl.create_default_context(cafile=str(cert))
        with Client("127.0.0.1", server.port, tls=ctx) as c:
            assert c.call("ping") == "pong"
            game = c.call("game.create", setup=SETUP)
            assert c.call("game.view", game_id=game["game_id"], token=game["gm_token"])["turn"] == 1
        capsys.readouterr()
        assert main(["call", "ping", "--port", str(server.port), "--tls-ca", str(cert), "--compact"]) == 0
        assert capsys.readouterr().out.strip() == '"pong"'
        # a client without TLS gets nothing: the server keeps the connection open without answering its plain frame,
        # so the client's read ends with its timeout; an answer would come in milliseconds, as each call above did
        # (a 5 s timeout here made this the module's slowest test)
        with Client("127.0.0.1", server.port, timeout=1.5) as plain:
            plain.send_raw(msgpack.packb([0, 1, "ping", []]))
            with pytest.raises((ConnectionError, OSError)):
                plain.read_message()
    finally:
        server.stop()


def test_idle_games_leave_memory_and_come_back_from_the_store(tmp_path):
    async def go():
        app = App(Store(tmp_path / "g.sqlite"), workers=2, expiry_interval=0, max_resident=2)
        app.start()
        games = []
        for i in range(6):
            g = await app.call("game.create", [{"setup": {**SETUP, "seed": i}}])
            await app.call("game.submit", [{"game_id": g["game_id"], "token": g["seat_tokens"]["Player#1"],
                                            "text": f"Bid {i}"}])
            games.append((g, digest(app.games[g["game_id"]].game)))
        assert len(app.games) <= 2, "idle games stayed in memory"
        for g, before in games:
            view = await app.call("game.view", [{"game_id": g["game_id"], "token": g["gm_token"]}])
            assert view["submissions"]["Player#1"] and digest(app.games[g["game_id"]].game) == before
        assert len(app.games) <= 2
        assert sorted(await app.call("game.list", [{"token": games[0][0]["gm_token"]}])) == [games[0][0]["game_id"]]
        with pytest.raises(RpcError) as err:
            await app.call("game.view", [{"game_id": "g-nosuch", "token": "x"}])
        assert err.value.code == "not_found"
        await app.close()
        # a restarted server loads none of these (nothing pending for it to do) until asked
        again = App(Store(tmp_path / "g.sqlite"), workers=2, expiry_interval=0, max_resident=2)
        # load() answers the unfinished games the store holds (the "listening" line's games), having loaded none
        assert await asyncio.get_running_loop().run_in_executor(again.executor, again.load) == 6
        assert not again.games
        again.start()
        g, before = games[3]
        assert g["game_id"] not in again.games
        await again.call("game.pending", [{"game_id": g["game_id"], "token": g["gm_token"]}])
        assert digest(again.games[g["game_id"]].game) == before
        await again.close()

    asyncio.run(go())


def test_many_calls_for_one_stored_game_load_it_once(tmp_path):
    async def go():
        app = App(Store(tmp_path / "g.sqlite"), workers=2, expiry_interval=0, max_resident=1)
        app.start()
        games = [await app.call("game.create", [{"setup": {**SETUP, "seed": i}}]) for i in range(3)]
        first = games[0]
        for task in list(app.pumps.values()):
            await task
        await app.call("ping", [])
        assert first["game_id"] not in app.games and len(app.games) == 1
        views = await asyncio.gather(*(app.call("game.view", [{"game_id": first["game_id"],
                                                                 "token": first["gm_token"]}]) for _ in range(8)))
        assert all(v["game_id"] == first["game_id"] for v in views)
        await app.close()

    asyncio.run(go())


def test_a_store_from_before_the_flag_columns_is_migrated(tmp_path):
    """Rows written before over/watch/gm existed: gm is filled at open, over/watch when a game loads."""
    import sqlite3

    from service.store import SCHEMA, pack, unpack

    async def make():
        app = App(Store(tmp_path / "old.sqlite"), workers=1, expiry_interval=0)
        app.start()
        g = await app.call("game.create", [{"setup": SETUP}])
        await app.close()
        return g

    g = asyncio.run(make())
    db = sqlite3.connect(tmp_path / "old.sqlite")  # rebuild the table as an old server wrote it
    rows = [(gid, created, setup, pack({k: v for k, v in unpack(meta).items() if k not in ("over", "watch")}))
            for gid, created, setup, meta in db.execute("SELECT id, created, setup, meta FROM games")]
    db.executescript("DROP TABLE games;" + SCHEMA.split("CREATE TABLE IF NOT EXISTS actions")[0])
    db.executemany("INSERT INTO games VALUES (?, ?, ?, ?)", rows)
    db.commit()
    db.close()

    async def reopen():
        app = App(Store(tmp_path / "old.sqlite"), workers=1, expiry_interval=0)
        assert await asyncio.get_running_loop().run_in_executor(app.executor, app.load) == 1  # watch: unknown yet
        app.start()
        assert await app.call("game.list", [{"token": g["gm_token"]}]) == [g["game_id"]]
        await app.close()
        store = Store(tmp_path / "old.sqlite")
        assert store.watched() == [] and store.count_live() == 1  # the load wrote its flags
        store.close()

    asyncio.run(reopen())
