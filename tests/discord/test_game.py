"""Whole games through the bridge: every decision a DM, every report a channel post (real server)."""

from __future__ import annotations

import asyncio

import pytest

from tests.discord.helpers import NAMES, Harness, dm_text, game_file, game_table, make_config, seat_view, user_of

RING3 = {"rules": "protectors", "board": "ring-3", "seed": 9, "players": 3}

MAX_STEPS = 60


async def play_to_the_end(h: Harness, bridge, keys: list[str], messy: bool = False) -> dict[str, int]:
    """Every human seat DMs its decision from its own view until every game is over."""
    dms = dict.fromkeys(keys, 0)
    for _ in range(MAX_STEPS):
        live = False
        for key in keys:
            gm = bridge._gm(key)
            view = await bridge.rpc("game.view", **gm, wait=True)
            if view["over"]:
                continue
            live = True
            channel = h.config.games[key].channel
            for p in view["pending"]:
                if p["submitted"] or p["controller"]:
                    continue
                user = user_of(channel, int(p["seat"].split("#")[1]))
                text = dm_text(await seat_view(bridge, key, p["seat"]), p["seat"], messy)
                await bridge.on_dm(h.chat.dm(user, text))
                answer = h.chat.last_dm(user) if h.chat.dms.get(user) else ""
                assert "**Stored**" in h.chat.dm_texts(user), (text, answer)
                dms[key] += 1
        if not live:
            return dms
    raise AssertionError("the games did not end")


def test_a_five_seat_game_played_through_dms_to_its_end(server, tmp_path):
    config = make_config({"main": game_table(500, pictures=True)}, tmp_path)
    h = Harness(server, config)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        dms = await play_to_the_end(h, bridge, ["main"], messy=True)
        await bridge.tick()
        posts = h.chat.posts[500]
        text = h.chat.texts(500)
        assert dms["main"] >= 10
        assert "The game is over" in text
        assert text.count("Played by AI: none") >= 3  # every resolved step labels its AI seats
        assert any(p.file is not None and p.file.data[:8] == b"\x89PNG\r\n\x1a\n" for p in posts)  # the board
        view = await bridge.rpc("game.view", **bridge._gm("main"))
        assert view["over"]
        # each player got the private summary of every turn by DM, and the acceptance of each DM
        for i in range(1, 6):
            mine = h.chat.dm_texts(user_of(500, i))
            assert mine.count("**Your summary of turn") == view["turn"]
            assert "Choices are final" in mine
        # the posts, step by step, add up to the whole public report of every turn, in order
        whole = []
        for t in range(1, view["turn"] + 1):
            rep = await bridge.rpc("game.report", **bridge._gm("main"), turn=t)
            whole += [line for line in rep["report"].splitlines() if line.startswith("- ")]
        posted = [line for p in posts for line in p.text.splitlines() if line.startswith("- ")]
        assert posted == whole and len(posted) > 20
        assert "Player#" not in "\n".join(posted)  # display names, as the players and pictures name seats
        assert any(n in "\n".join(posted) for n in NAMES[:5])
        await bridge.close_client()

    asyncio.run(body())


def test_two_games_in_two_channels_at_once(server, tmp_path):
    config = make_config({"north": game_table(601, seats=3), "south": game_table(602, seats=4)}, tmp_path)
    h = Harness(server, config)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        ids = {k: bridge.state.game(k)["game_id"] for k in ("north", "south")}
        assert ids["north"] != ids["south"]
        await play_to_the_end(h, bridge, ["north", "south"])
        north, south = h.chat.texts(601), h.chat.texts(602)
        assert "The game is over" in north and "The game is over" in south
        assert "(north)" in north and "(south)" not in north  # each channel hears only its own game
        # a player of north DMs after the end: a clear answer, nothing stored
        await bridge.on_dm(h.chat.dm(user_of(601, 1), "Bid 3"))
        assert "is over" in h.chat.last_dm(user_of(601, 1))
        await bridge.close_client()

    asyncio.run(body())


def test_a_running_game_is_imported_without_reposting_its_history(server, tmp_path):
    async def bids(c, g):  # the bid step resolves before the game comes in
        for n, (_seat, token) in enumerate(sorted(g["seat_tokens"].items()), start=1):
            await c.call("game.submit", game_id=g["game_id"], token=token, text=f"Bid {n}")
        await c.call("game.view", game_id=g["game_id"], token=g["gm_token"], wait=True)

    async def body():
        table = game_table(650, seats=3, ai={"Player#3": "caretaker"})
        table["import"] = await game_file(server, RING3, tmp_path / "running.bin", bids)
        h = Harness(server, make_config({"old": table}, tmp_path))
        bridge = h.bridge()
        await bridge.start()
        text = h.chat.texts(650)
        assert "- Bids:" not in text and "**Turn 1: orders**" in text  # only what happens from now on
        waits = next(line for line in text.splitlines() if line.startswith("**Turn 1: orders**"))
        assert "Player#1" in waits and "Player#3" not in waits  # the AI seat has decided: it owes no DM
        assert "A new game" not in text and "**A running game of Protectors of the Realm** (old) continues here, " \
            "at turn 1." in text
        view = await bridge.rpc("game.view", **bridge._gm("old"), wait=True)
        assert view["step"] == "orders" and view["controllers"]["Player#3"] == "caretaker"
        await play_to_the_end(h, bridge, ["old"])
        assert "The game is over" in h.chat.texts(650)
        assert "Played by AI: Player#3 (caretaker)" in h.chat.texts(650)  # that game has no display names
        await bridge.close_client()

    asyncio.run(body())


def two_games(server, tmp_path, channel: int, both: int) -> Harness:
    """Games north and south (3 seats each) with user ``both`` in Player#1 of north and Player#2 of south."""
    north, south = game_table(channel, seats=3), game_table(channel + 1, seats=3)
    north["seats"]["Player#1"]["user"] = both
    south["seats"]["Player#2"]["user"] = both
    return Harness(server, make_config({"north": north, "south": south}, tmp_path))


def test_a_player_in_two_games_names_the_game_when_both_wait(server, tmp_path):
    both = 424_242
    h = two_games(server, tmp_path, 661, both)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await bridge.on_dm(h.chat.dm(both, "Bid 1"))
        assert "several games" in h.chat.last_dm(both) and "`game: NAME`" in h.chat.last_dm(both)
        await bridge.on_dm(h.chat.dm(both, "game: south\nBid 2"))
        assert "**Stored** for Player#2 in south" in h.chat.last_dm(both)
        # now only north waits for them: no header needed
        await bridge.on_dm(h.chat.dm(both, "Bid 1"))
        assert "**Stored** for Player#1 in north" in h.chat.last_dm(both)
        # now neither waits for them: said at once (it asked for a `game:` line, and that line changed nothing)
        await bridge.on_dm(h.chat.dm(both, "Bid 3"))
        assert h.chat.last_dm(both).startswith("None of your games (north (Player#1), south (Player#2)) waits for a "
                                               "decision from you right now; nothing was stored.")
        await bridge.on_dm(h.chat.dm(both, "game: west\nBid 1"))
        assert "no seat in a game called 'west'" in h.chat.last_dm(both)
        await bridge.close_client()

    asyncio.run(body())


def test_the_game_line_is_read_through_capitals_and_discord_formatting(server, tmp_path):
    both = 434_343
    h = two_games(server, tmp_path, 663, both)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await bridge.on_dm(h.chat.dm(both, "\n**Game: South**\nBid 2"))
        assert "**Stored** for Player#2 in south" in h.chat.last_dm(both)
        await bridge.on_dm(h.chat.dm(both, "> game: NORTH\nBid 1"))
        assert "**Stored** for Player#1 in north" in h.chat.last_dm(both)
        await bridge.close_client()

    asyncio.run(body())


def test_a_service_with_a_create_token(tmp_path, monkeypatch):
    from service.discord.bridge import ConfigRefused
    from tests.service.helpers import ServerProcess

    (tmp_path / "srv").mkdir()
    locked = ServerProcess(tmp_path / "srv", args=("--create-token", "let-me-in")).start()
    try:
        config = make_config({"g": game_table(670, seats=3)}, tmp_path)

        async def body(expect_ok: bool):
            bridge = Harness(locked, config).bridge()
            try:
                await bridge.start()
                assert expect_ok and bridge.state.game("g") is not None
            except ConfigRefused as err:  # no retry mends it: the bot stops with one line saying what to set
                assert not expect_ok and bridge.state.game("g") is None
                assert str(err).startswith("test-discord.toml: games.g: refused by the service (forbidden: ")
                assert str(err).endswith("set $REGENT_CREATE_TOKEN to the service's --create-token")
            await bridge.close_client()

        monkeypatch.delenv("REGENT_CREATE_TOKEN", raising=False)
        asyncio.run(body(False))
        monkeypatch.setenv("REGENT_CREATE_TOKEN", "let-me-in")
        asyncio.run(body(True))
    finally:
        locked.stop()


def test_a_game_the_service_refuses_for_good_stops_the_bot_with_one_line(server, tmp_path):
    from service.discord.bridge import ConfigRefused

    table = game_table(672, seats=5, teams=True)
    for n, spec in enumerate(table["seats"].values()):
        spec["team"] = "AAABB"[n]  # 3 against 2: the engine's rule, which the config does not repeat
    h = Harness(server, make_config({"uneven": table}, tmp_path))

    async def body():
        bridge = h.bridge()
        with pytest.raises(ConfigRefused, match=r"^test-discord.toml: games.uneven: refused by the service "
                                                r"\(invalid_params: .*same size \(here: 'A' has 3, 'B' has 2\)"):
            await bridge.start()
        assert bridge.state.game("uneven") is None and bridge.state.creating("uneven") is None
        assert h.chat.texts(672) == ""  # nothing announced
        await bridge.close_client()

    asyncio.run(body())


def test_an_unreadable_import_file_stops_the_bot_with_one_line(server, tmp_path):
    from service.discord.bridge import ConfigRefused

    table = game_table(674, seats=3)
    table["import"] = str(tmp_path / "missing.bin")
    h = Harness(server, make_config({"gone": table}, tmp_path))

    async def body():
        bridge = h.bridge()
        with pytest.raises(ConfigRefused, match=r"games.gone.import: cannot read .*missing.bin: No such file"):
            await bridge.start()
        (tmp_path / "junk.bin").write_bytes(b"not a game")
        h.config.games["gone"].import_path = str(tmp_path / "junk.bin")
        with pytest.raises(ConfigRefused, match=r"games.gone.import \(.*junk.bin\): refused by the service"):
            await h.bridge().start()
        assert bridge.state.game("gone") is None
        await bridge.close_client()

    asyncio.run(body())


def test_an_imported_game_whose_ai_seat_is_refused_is_finished_after_the_fix_not_imported_twice(server, tmp_path):
    from service.discord.bridge import ConfigRefused

    async def body():
        table = game_table(676, seats=3, ai={"Player#3": "grandmaster"})
        table["import"] = await game_file(server, RING3, tmp_path / "running.bin")
        h = Harness(server, make_config({"fix": table}, tmp_path))
        bridge = h.bridge()
        with pytest.raises(ConfigRefused, match=r"games.fix.seats.Player#3.ai: refused by the service "
                                                r"\(invalid_params: .*grandmaster"):
            await bridge.start()
        made = bridge.state.creating("fix")
        assert bridge.state.game("fix") is None and made["assign"] == ["Player#3"]
        assert h.chat.texts(676) == ""
        await bridge.close_client()

        h.config.games["fix"].seats["Player#3"].ai = "caretaker"  # the GM mends discord.toml and restarts
        bridge = h.bridge()
        await bridge.start()
        entry = bridge.state.game("fix")
        assert entry["game_id"] == made["game_id"] and bridge.state.creating("fix") is None  # the same game
        view = await bridge.rpc("game.view", **bridge._gm("fix"), wait=True)
        assert view["controllers"]["Player#3"] == "caretaker"
        assert h.chat.texts(676).count("**A running game of Protectors of the Realm** (fix)") == 1
        await bridge.close_client()

    asyncio.run(body())


def test_a_team_game_won_by_the_last_team_standing_is_told_in_words(server, tmp_path):
    async def body():
        setup = {"rules": "protectors", "board": "ring-4", "seed": 3, "options": {"teams": True},
                 "players": [{"seat": f"Player#{i}", "name": NAMES[i - 1], "team": t}
                             for i, t in ((1, "A"), (2, "A"), (3, "B"), (4, "B"))],
                 "position": {"turn": 2, "step": "orders", "ranking": ["Player#1", "Player#2", "Player#3"],
                              "eliminated": {"Player#4": {"turn": 1, "by": "players"}},
                              "provinces": {"P1": {"owner": "Player#1", "units": 1},
                                            "P2": {"owner": "Player#2", "units": 3},
                                            "P3": {"owner": "Player#3", "units": 1},
                                            "P4": {"owner": "Player#1", "units": 1}}}}
        table = game_table(680, seats=4)
        table["import"] = await game_file(server, setup, tmp_path / "teams.bin")
        h = Harness(server, make_config({"t": table}, tmp_path))
        bridge = h.bridge()
        await bridge.start()
        assert "Player#4: Gold (light green), team B (out: eliminated)" in h.chat.texts(680)
        for i, text in ((1, "Fortify! P1\nFortify! P4"), (2, "March! 3 from P2 to P3"), (3, "Fortify! P3")):
            await bridge.on_dm(h.chat.dm(user_of(680, i), text))
        text = h.chat.texts(680)
        assert "- Game over (Last man standing!): team A wins." in text
        assert "**The game is over** (turn 2, Last man standing!)." in text
        assert "Winner: team A (Player#1 (Blue), Player#2 (Red))" in text
        assert "last_man_standing" not in text and "Winner: A" not in text
        assert "- Red loots Green's $Realm." in text  # one eliminator: no "loot ... split equally"
        assert "25 $Realm" not in text  # the amount is the looter's and the looted's alone
        await bridge.close_client()

    asyncio.run(body())


def test_an_eliminated_player_gets_the_summary_of_that_turn_and_none_after(server, tmp_path):
    async def body():
        setup = {"rules": "protectors", "board": "ring-3", "seed": 4,
                 "players": [{"seat": f"Player#{i}", "name": NAMES[i - 1]} for i in (1, 2, 3)],
                 "position": {"turn": 2, "step": "orders", "ranking": ["Player#1", "Player#2", "Player#3"],
                              "provinces": {"P1": {"owner": "Player#1", "units": 3},
                                            "P2": {"owner": "Player#2", "units": 3},
                                            "P3": {"owner": "Player#3", "units": 1}}}}
        table = game_table(690, seats=3)
        table["import"] = await game_file(server, setup, tmp_path / "out.bin")
        h = Harness(server, make_config({"o": table}, tmp_path))
        bridge = h.bridge()
        await bridge.start()
        await bridge.on_dm(h.chat.dm(user_of(690, 2), "March! 5 from P2 to P3"))
        await bridge.on_dm(h.chat.dm(user_of(690, 3), "Fortify! P3"))
        await bridge.on_dm(h.chat.dm(user_of(690, 1), "Fortify! P1"))
        assert not (await bridge.rpc("game.view", **bridge._gm("o"), wait=True))["over"]  # the two left play on
        await bridge.on_dm(h.chat.dm(user_of(690, 3), "Bid 0"))  # told why, not "nothing is pending"
        assert "Your seat Player#3 in o was eliminated, so the game no longer waits" in h.chat.last_dm(user_of(690, 3))
        for _ in range(12):  # the two left play on, to the end of turn 3 at least
            view = await bridge.rpc("game.view", **bridge._gm("o"), wait=True)
            if view["over"] or view["turn"] >= 4:
                break
            for p in view["pending"]:
                if not p["submitted"]:
                    n = int(p["seat"].split("#")[1])
                    await bridge.on_dm(h.chat.dm(user_of(690, n), dm_text(await seat_view(bridge, "o", p["seat"]),
                                                                          p["seat"])))
        assert "Green is eliminated" in h.chat.texts(690)
        assert h.chat.dm_texts(user_of(690, 1)).count("**Your summary of turn") >= 2  # turns 2 and 3
        mine = h.chat.dm_texts(user_of(690, 3))
        assert mine.count("**Your summary of turn") == 1 and "**Your summary of turn 2**" in mine
        assert "You were eliminated on turn 2" in mine
        await bridge.close_client()

    asyncio.run(body())


def test_a_team_game_configured_in_discord_toml_is_created_with_its_teams(server, tmp_path):
    table = game_table(695, seats=4, teams=True)
    for n, spec in enumerate(table["seats"].values()):
        spec["team"] = "AB"[n // 2]
    h = Harness(server, make_config({"teams": table}, tmp_path))

    async def body():
        bridge = h.bridge()
        await bridge.start()
        view = await bridge.rpc("game.view", **bridge._gm("teams"), wait=True)
        assert view["options"]["teams"] is True
        seats = ("Player#1: Blue (indigo), team A\nPlayer#2: Red (sky blue), team A\n"
                 "Player#3: Green (dark green), team B")
        assert seats in h.chat.texts(695)  # the channel knows the teams from the start
        assert {s: p["team"] for s, p in view["players"].items()} == {
            "Player#1": "A", "Player#2": "A", "Player#3": "B", "Player#4": "B"}
        await bridge.close_client()

    asyncio.run(body())


def test_a_kaluak_player_is_told_the_forecast_while_the_orders_are_still_to_give(server, tmp_path):
    # rules: 003 Kalu'Ak, Weather forecast: the look is worth something only before the orders
    async def body():
        setup = {"rules": "protectors", "board": "ring-3", "seed": 6, "options": {"factions": True},
                 "players": [{"seat": f"Player#{i}", "name": NAMES[i - 1]} for i in (1, 2, 3)],
                 "position": {"turn": 2, "step": "orders", "ranking": ["Player#1", "Player#2", "Player#3"],
                              "factions": {"Player#1": "Kalu'Ak", "Player#2": "Hodir", "Player#3": "Cenarion"},
                              "realm": {"Player#1": 80, "Player#2": 50, "Player#3": 50}}}
        table = game_table(697, seats=3)
        table["import"] = await game_file(server, setup, tmp_path / "kaluak.bin")
        h = Harness(server, make_config({"k": table}, tmp_path))
        bridge = h.bridge()
        await bridge.start()
        mine = h.chat.dm_texts(user_of(697, 1))
        assert "**Your look for the orders of turn 2** (Player#1, k):\n👁 Weather forecast: the top card of the " \
               "Event deck is " in mine
        assert "Your look" not in h.chat.dm_texts(user_of(697, 2))  # Hodir has no forecast
        assert "top card" not in h.chat.texts(697)  # never in the channel
        await bridge.on_dm(h.chat.dm(user_of(697, 1), "Weather forecast: There be Dragons?"))  # the paid look
        answer = h.chat.last_dm(user_of(697, 1))
        assert "👁 Weather forecast: the top card of the There be Dragons? deck is " in answer
        assert answer.count("👁") == 1  # the free look was told already: not again
        assert "your decision for this step is still to come" in answer and "Choices are final" not in answer
        await bridge.on_dm(h.chat.dm(user_of(697, 1), "Weather forecast"))  # asking for the looks again
        assert h.chat.last_dm(user_of(697, 1)).count("👁") == 2
        for n in (1, 2, 3):  # the orders: the step resolves; no look is told again after it
            await bridge.on_dm(h.chat.dm(user_of(697, n), f"Fortify! P{n}"))
        view = await bridge.rpc("game.view", **bridge._gm("k"), wait=True)
        assert view["step"] != "orders" and "👁" not in h.chat.last_dm(user_of(697, 1))
        assert view["step"] == "consolidation"  # no Dragon Attack this turn: the seat's next DM is its bid
        await bridge.on_dm(h.chat.dm(user_of(697, 1), "Bid 0"))
        assert "**Stored**" in h.chat.last_dm(user_of(697, 1)) and "👁" not in h.chat.last_dm(user_of(697, 1))
        await bridge.close_client()

    asyncio.run(body())
