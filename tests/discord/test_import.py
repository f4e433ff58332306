"""A game brought in with ``import =``: discord.toml's expiry and windows apply to it, seat names that differ
from the file's are said, and a report of a turn before its position says why there is none (real server)."""

from __future__ import annotations

import asyncio
import json
import re
import time

import msgpack
import pytest

from service.discord.bridge import with_settings
from service.discord.config import parse
from tests.discord.helpers import GM_USER, NAMES, Harness, game_file, game_table, make_config, user_of

CH = 1700


def position(names=NAMES) -> dict:
    """Three seats at turn 2, waiting for orders (the file a GM makes with `regent new --setup`)."""
    return {"rules": "protectors", "board": "ring-3", "seed": 4,
            "players": [{"seat": f"Player#{i}", "name": names[i - 1]} for i in (1, 2, 3)],
            "position": {"turn": 2, "step": "orders", "ranking": ["Player#1", "Player#2", "Player#3"],
                         "provinces": {"P1": {"owner": "Player#1", "units": 2},
                                       "P2": {"owner": "Player#2", "units": 2},
                                       "P3": {"owner": "Player#3", "units": 2}}}}


def test_an_imported_game_takes_the_configs_expiry_and_deadlines(server, tmp_path):
    async def body():
        table = game_table(CH, seats=3, expiry=True, deadlines={"orders": "2s"})
        table["import"] = await game_file(server, position(), tmp_path / "in.bin")  # the file: no expiry, 72 h
        h = Harness(server, make_config({"imp": table}, tmp_path))
        bridge = h.bridge()
        started = time.time()
        await bridge.start()
        view = await bridge.rpc("game.view", **bridge._gm("imp"), wait=True)
        assert all(p["deadline"] - started < 10 for p in view["pending"])  # 2 s, not the file's 72 h
        await bridge.on_dm(h.chat.dm(user_of(CH, 1), "Fortify! P1"))
        for _ in range(50):  # the service's expiry (every 0.2 s here) resolves the step with the defaults
            await asyncio.sleep(0.2)
            view = await bridge.rpc("game.view", **bridge._gm("imp"), wait=True)
            if view["step"] != "orders":
                break
        assert view["step"] != "orders"
        await bridge.tick()
        assert "⏰ The deadline passed: the step was resolved with the rulebook defaults for Player#2 (Red), " \
            "Player#3 (Green)." in h.chat.texts(CH)
        await bridge.close_client()

    asyncio.run(body())


def test_expiry_false_in_the_config_turns_off_the_files_expiry(server, tmp_path):
    async def body():
        setup = {**position(), "expiry": {"auto": True}}  # a file whose game resolves by itself at a deadline
        table = game_table(CH + 1, seats=3, expiry=False)
        table["import"] = await game_file(server, setup, tmp_path / "auto.bin")
        h = Harness(server, make_config({"imp": table}, tmp_path))
        bridge = h.bridge()
        await bridge.start()
        out = await bridge.rpc("game.export", **bridge._gm("imp"))
        assert msgpack.unpackb(out["blob"], raw=False)["service"]["expiry"]["auto"] is False
        await bridge.close_client()

    asyncio.run(body())


def test_the_windows_the_config_leaves_out_stay_the_files():
    blob = msgpack.packb({"kind": "regent-game", "format": 1, "setup": {}, "actions": [],
                          "deadlines": {"orders": 100.0, "dragon": 50.0}, "service": {"expiry": {"fill": "heuristic"}}})
    table = {"channel": 5, "import": "x.bin", "expiry": True, "deadlines": {"orders": "1h"}, "seats": {"Player#1": 1}}
    cfg = parse({"guild": 1, "gm_role": "GM", "games": {"g": table}})
    out = msgpack.unpackb(with_settings(blob, cfg.games["g"]), raw=False)
    assert out["deadlines"] == {"orders": 3600.0, "dragon": 50.0}
    assert out["service"]["expiry"] == {"fill": "heuristic", "auto": True}  # the file's fill kept
    assert with_settings(b"\xc1junk", cfg.games["g"]) == b"\xc1junk"  # the service names what is wrong with it


def test_config_names_that_differ_from_the_files_are_said_once(server, tmp_path):
    async def body():
        table = game_table(CH + 2, seats=3)
        table["seats"]["Player#2"]["name"] = "Samuel"  # the file calls Player#2 "Red"
        table["seats"]["Player#3"]["colour"] = "orange"
        table["import"] = await game_file(server, position(), tmp_path / "names.bin")
        h = Harness(server, make_config({"imp": table}, tmp_path))
        bridge = h.bridge()
        await bridge.start()
        text = h.chat.texts(CH + 2)
        assert "Player#2: Red (" in text  # the file's names stand
        view = await bridge.rpc("game.view", **bridge._gm("imp"))
        note = next(line for line in text.splitlines() if line.startswith("Note:"))
        assert note == ("Note: the game file's names and colours stand (players and reports already use them), not "
                        f"discord.toml's: Player#2 is \"Red\", not \"Samuel\"; Player#3 is colour "
                        f"\"{view['colours']['Player#3']}\", not \"orange\".")
        await bridge.tick()
        await bridge.close_client()
        again = h.bridge()  # a restart says nothing more: the game is the bot's now
        await again.start()
        assert h.chat.texts(CH + 2).count("Note:") == 1
        await again.close_client()

    asyncio.run(body())


def test_a_report_of_a_turn_before_the_imported_position_says_so(server, tmp_path):
    async def body():
        table = game_table(CH + 3, seats=3)
        table["import"] = await game_file(server, position(), tmp_path / "old.bin")
        h = Harness(server, make_config({"imp": table}, tmp_path))
        bridge = h.bridge()
        await bridge.start()
        cmd = h.chat.command("report", GM_USER, CH + 3, turn=1)
        await bridge.on_command(cmd)
        assert cmd.reply.text() == ("**imp**\nTurn 1 predates this game's start: it was brought in as a position at "
                                    "turn 2, and the event log before that is not carried.")
        cmd = h.chat.command("report", GM_USER, CH + 3, turn=2)
        await bridge.on_command(cmd)
        assert "predates" not in cmd.reply.text() and cmd.reply.text().startswith("**imp**\n")
        await bridge.close_client()

    asyncio.run(body())


def test_a_config_seat_the_game_file_lacks_stops_the_bot_naming_it_and_is_not_imported_twice(server, tmp_path):
    from service.discord.bridge import ConfigRefused

    async def body():
        table = game_table(CH + 4, seats=4)  # the file holds three seats: Player#4 has none to play
        table["import"] = await game_file(server, position(), tmp_path / "three.bin")
        h = Harness(server, make_config({"imp": table}, tmp_path))
        bridge = h.bridge()
        with pytest.raises(ConfigRefused, match=r"games\.imp\.seats\.Player#4: the game file .*three\.bin has no "
                                                r"such seat \(its seats: Player#1, Player#2, Player#3\)"):
            await bridge.start()
        made = bridge.state.creating("imp")
        assert bridge.state.game("imp") is None and h.chat.texts(CH + 4) == ""
        await bridge.close_client()
        del h.config.games["imp"].seats["Player#4"]  # the GM mends discord.toml and restarts
        bridge = h.bridge()
        await bridge.start()
        assert bridge.state.game("imp")["game_id"] == made["game_id"]  # the same game, not a second import
        await bridge.on_dm(h.chat.dm(user_of(CH + 4, 1), "Fortify! P1"))
        assert "**Stored**" in h.chat.last_dm(user_of(CH + 4, 1))
        await bridge.close_client()

    asyncio.run(body())


def test_the_files_seats_the_config_leaves_out_are_named_in_the_announcement(server, tmp_path):
    async def body():
        table = game_table(CH + 5, seats=2)  # the file holds three seats: nobody plays Player#3
        table["import"] = await game_file(server, position(), tmp_path / "two.bin")
        h = Harness(server, make_config({"imp": table}, tmp_path))
        bridge = h.bridge()
        await bridge.start()
        assert ("Note: discord.toml names no player for Player#3: nobody can send their decisions by DM (the "
                "rulebook defaults stand at each deadline) until the GM gives each a player or an AI with /regent "
                "seat.") in h.chat.texts(CH + 5)
        await bridge.close_client()

    asyncio.run(body())


def test_a_seat_the_files_ai_played_is_the_members_the_config_gives_it_to(server, tmp_path):
    """A GM who ran the game with the CLI's AI in a seat gives that seat to a member in discord.toml: the AI stops at
    the import (it decided nothing more for the seat), its decision for the open step stands and its player is told so,
    and the member plays on from the next step. Before, the file's AI kept the seat: every DM of the member was
    answered "already stored" and the AI went on deciding for them."""
    async def body():
        setup = {**position(), "agents": {"Player#2": "heuristic", "Player#3": "heuristic"}}
        table = game_table(CH + 6, seats=3)
        del table["seats"]["Player#3"]  # left out: the file's AI plays on there
        async def ai_decided(c, made):  # the file is written once the AIs have sent the open step's decisions
            await c.call("game.view", game_id=made["game_id"], token=made["gm_token"], wait=True)

        table["import"] = await game_file(server, setup, tmp_path / "ai.bin", play=ai_decided)
        h = Harness(server, make_config({"imp": table}, tmp_path))
        bridge = h.bridge()
        await bridge.start()
        text = h.chat.texts(CH + 6)
        assert (f"Note: Player#2 (Red), played by the game file's AI (heuristic), is <@{user_of(CH + 6, 2)}>'s from "
                "now on, as discord.toml says: they send its decisions by DM from the next step (the AI's decision "
                "for this one stands).") in text
        assert re.search(r"^Player#3: Green \([a-z ]+\), AI \(heuristic\)$", text, re.M)
        assert "nobody can send" not in text  # the file's AI plays Player#3
        view = await bridge.rpc("game.view", **bridge._gm("imp"), wait=True)
        assert view["controllers"] == {"Player#1": None, "Player#2": None, "Player#3": "heuristic"}
        await bridge.on_dm(h.chat.dm(user_of(CH + 6, 2), "none"))
        assert h.chat.last_dm(user_of(CH + 6, 2)) == (
            "The AI that played your seat (Player#2, imp) had already decided the orders step before the seat was "
            "handed to you; nothing was changed. Your DMs count from the next step.")
        await bridge.on_dm(h.chat.dm(user_of(CH + 6, 1), "none"))  # the orders resolve: the Consolidation opens
        view = await bridge.rpc("game.view", **bridge._gm("imp"), wait=True)
        assert view["step"] == "consolidation"
        assert {p["seat"]: p["submitted"] for p in view["pending"]} == {
            "Player#1": False, "Player#2": False, "Player#3": True}
        await bridge.on_dm(h.chat.dm(user_of(CH + 6, 2), "Bid 3"))
        assert "**Stored** for Player#2 in imp (Consolidation):\n✓ `Bid 3`" in h.chat.last_dm(user_of(CH + 6, 2))
        await bridge.close_client()

    asyncio.run(body())


def test_a_setup_json_named_as_the_import_is_refused_naming_the_way(server, tmp_path):
    """`import =` naming a typed-in position (JSON, docs/positions.md) stops the bot naming the command that makes the
    game file (it was "blob: not MessagePack (ExtraData)")."""
    from service.discord.bridge import ConfigRefused

    async def body():
        (tmp_path / "setup.json").write_text(json.dumps(position()))
        table = game_table(CH + 7, seats=3)
        table["import"] = str(tmp_path / "setup.json")
        h = Harness(server, make_config({"imp": table}, tmp_path))
        bridge = h.bridge()
        with pytest.raises(ConfigRefused) as err:
            await bridge.start()
        assert str(err.value) == (f"test-discord.toml: games.imp.import: {tmp_path / 'setup.json'} is a setup (JSON), "
                                  "not a game file; make the game file with `regent new game.bin --setup setup.json` "
                                  "and import that")
        assert bridge.state.creating("imp") is None and h.chat.texts(CH + 7) == ""
        await bridge.close_client()

    asyncio.run(body())
