"""After an upgrade that changed a rule a game went through, the bot's game is read-only, not lost: a
player's DM is answered "Not stored" with the reason and the way on, and the GM can still export it."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from types import SimpleNamespace

from service.server import ServeConfig, start
from tests.discord.helpers import GM_USER, Harness, game_table, make_config, user_of

CH = 960


@contextlib.asynccontextmanager
async def running(h, sock: str, db: str):
    """``regent serve`` on ``db`` in this process and a started bridge on it; both closed after."""
    server, app = await start(ServeConfig(unix=sock, db=db, expiry_interval=0))
    bridge = h.bridge()
    try:
        await bridge.start()
        yield bridge
    finally:
        await bridge.close_client()
        server.close()
        await app.close()
        app.store.close()


def test_a_read_only_game_answers_dms_not_stored_and_still_exports(tmp_path):
    sock, db = str(tmp_path / "s.sock"), str(tmp_path / "g.sqlite")
    h = Harness(SimpleNamespace(unix=sock), make_config({"g": game_table(CH, seats=3)}, tmp_path))

    async def first():
        async with running(h, sock, db) as bridge:
            await bridge.on_dm(h.chat.dm(user_of(CH, 1), "Bid 1"))
            assert "**Stored**" in h.chat.last_dm(user_of(CH, 1))
            return bridge.state.game("g")["game_id"]

    game_id = asyncio.run(first())
    con = sqlite3.connect(db)  # as if a Regent with other rules had stored it
    with con:
        con.execute("UPDATE actions SET digest = 'x' WHERE game_id = ?", (game_id,))
    con.close()

    async def again():
        async with running(h, sock, db) as bridge:
            await bridge.on_dm(h.chat.dm(user_of(CH, 2), "Bid 2"))
            answer = h.chat.last_dm(user_of(CH, 2))
            assert answer.startswith("Not stored: ") and "is read-only" in answer and "game.import" in answer
            cmd = h.chat.command("export", GM_USER, CH)
            await bridge.on_command(cmd)
            assert [s.file.name for s in cmd.reply.sent if s.file] == ["g.regent-game"]

    asyncio.run(again())
