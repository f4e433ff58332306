"""The GM's /regent commands through the bridge: GM role only, acknowledged within 3 s, real service."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from service.discord.chat import File
from tests.discord.helpers import GM_USER, Harness, dm_text, game_file, game_table, make_config, seat_view, user_of

CH = 800
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ALL_COMMANDS = [("status", {}), ("advance", {"force": True}), ("seat", {"seat": "Player#2", "agent": "normal"}),
                ("deadline extend", {"hours": 5}), ("deadline pause", {}), ("deadline resume", {}), ("undo", {}),
                ("report", {}), ("board", {}), ("export", {}), ("notes", {}), ("npr invasions", {}),
                ("npn plan", {"nation": "Spain"})]


def harness(server, tmp_path, **table):
    return Harness(server, make_config({"g": game_table(CH, **table)}, tmp_path))


async def command(h, bridge, name, user=GM_USER, files=None, **options):
    cmd = h.chat.command(name, user, CH, files=files, **options)
    await bridge.on_command(cmd)
    assert cmd.reply.acked_after is not None and cmd.reply.acked_after <= 3.0
    return cmd.reply


async def everyone_sends(h, bridge, seats=None):
    view = await bridge.rpc("game.view", **bridge._gm("g"), wait=True)
    for p in view["pending"]:
        if p["submitted"] or p["controller"] or (seats and p["seat"] not in seats):
            continue
        text = dm_text(await seat_view(bridge, "g", p["seat"]), p["seat"])
        await bridge.on_dm(h.chat.dm(user_of(CH, int(p["seat"].split("#")[1])), text))


def test_a_dm_discord_fails_to_deliver_stops_no_one_else(server, tmp_path):
    h = harness(server, tmp_path)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        unlucky = user_of(CH, 1)
        h.chat.failing.add(unlucky)  # every DM to them fails (a 503), as Discord sometimes does
        await bridge.on_dm(h.chat.dm(unlucky, "Bid 3"))  # answered into the void: no exception, the bid stored
        assert unlucky not in h.chat.dms
        view = await bridge.rpc("game.view", **bridge._gm("g"), wait=True)
        assert next(p for p in view["pending"] if p["seat"] == "Player#1")["submitted"]
        while (await bridge.rpc("game.view", **bridge._gm("g"), wait=True))["turn"] == 1:
            await everyone_sends(h, bridge)
            await command(h, bridge, "advance", force=True)
        for i in range(2, 6):  # the turn's summaries after the failed one still went out
            assert "**Your summary of turn 1**" in h.chat.dm_texts(user_of(CH, i))
        await bridge.close_client()

    asyncio.run(body())


def gm_state(view):
    return {k: v for k, v in view.items() if k not in ("pending", "clock", "step_started")}


def test_a_player_using_gm_commands_is_refused_and_nothing_changes(server, tmp_path):
    h = harness(server, tmp_path)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await bridge.on_dm(h.chat.dm(user_of(CH, 1), "Bid 1"))
        before = await bridge.rpc("game.view", **bridge._gm("g"), wait=True)
        posts = len(h.chat.posts[CH])
        for name, opts in ALL_COMMANDS:
            reply = await command(h, bridge, name, user=user_of(CH, 3), **opts)
            assert len(reply.sent) == 1 and reply.sent[0].private and "Only the GM" in reply.sent[0].text
            assert not reply.deferred
        after = await bridge.rpc("game.view", **bridge._gm("g"), wait=True)
        assert gm_state(after) == gm_state(before) and after["clock"] == before["clock"]
        assert len(h.chat.posts[CH]) == posts
        await bridge.close_client()

    asyncio.run(body())


def test_status_advance_undo_report_export(server, tmp_path):
    h = harness(server, tmp_path)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await everyone_sends(h, bridge, seats={"Player#1", "Player#2"})
        status = (await command(h, bridge, "status")).text()
        assert "✓ sent: Player#1 (Blue)" in status and "… waiting: Player#3 (Green)" in status
        lines = status.splitlines()
        assert "; deadline <t:" in lines[0] and "deadline" not in "\n".join(lines[1:])  # one deadline, said once
        assert lines[1] == "2 of 5 in; waiting for 3:"
        assert [ln.split(":")[1].split(",")[0].strip() for ln in lines[2:]] == [
            "Player#3 (Green)", "Player#4 (Gold)", "Player#5 (Black)", "Player#1 (Blue)", "Player#2 (Red)"]
        reply = await command(h, bridge, "advance")  # not everyone has sent: refused, nothing changes
        assert reply.deferred and "still waits for Player#3 (Green)" in reply.text()
        assert "Nothing was changed" in reply.text()
        reply = await command(h, bridge, "advance", force=True)
        assert "Step resolved" in reply.text()
        resolved = await bridge.rpc("game.view", **bridge._gm("g"), wait=True)
        assert resolved["step"] == "orders"
        text = h.chat.texts(CH)
        assert "- Bids:" in text and "The deadline passed" not in text  # the GM resolved it, not the clock
        assert "**Turn 1: orders**" in text
        # undo: the bids step is open again, the channel is told, a later advance resolves it the same way
        reply = await command(h, bridge, "undo")
        # the bids the defaults stood in for were posted with the others: the GM is told a late one knows them
        assert reply.text() == ("Undone. Note: what the step revealed was posted already; Player#3 (Green), "
                                "Player#4 (Gold), Player#5 (Black) may now send a decision made knowing it (rules 003 "
                                "reveal a step's choices together).")
        assert "rolled the last resolved step back" in h.chat.texts(CH)
        back = await bridge.rpc("game.view", **bridge._gm("g"), wait=True)
        assert back["step"] == "bid" and back["clock"]["held"]
        await bridge.on_dm(h.chat.dm(user_of(CH, 3), "Bid 3"))  # a late DM now counts
        assert "✓ `Bid 3`" in h.chat.last_dm(user_of(CH, 3))
        posts = len(h.chat.posts[CH])
        await command(h, bridge, "advance", force=True)
        # its events come a second time in the channel: said so (read as the cards revealed twice)
        assert any(p.text.startswith("↩️ Resolved again after the GM's undo:\n") for p in h.chat.posts[CH][posts:])
        again = await bridge.rpc("game.view", **bridge._gm("g"), wait=True)
        assert again["step"] == "orders" and again["players"]["Player#3"]["realm"] != resolved["players"][
            "Player#3"]["realm"]
        report = (await command(h, bridge, "report", turn=1)).text()
        assert report.startswith("**g**\n== Turn 1 ==") and "Green 3" in report and "Played by AI: none" in report
        bad = await command(h, bridge, "report", turn=9)
        assert "turn must be between 1 and 1" in bad.text()
        export = await command(h, bridge, "export")
        [sent] = export.sent
        assert sent.private and sent.file is not None
        imported = await bridge.rpc("game.import", blob=sent.file.data)
        copy = await bridge.rpc("game.view", game_id=imported["game_id"], token=imported["gm_token"], wait=True)
        assert copy["players"] == again["players"] and copy["step"] == again["step"]
        await bridge.close_client()

    asyncio.run(body())


def test_an_ai_takes_a_seat_mid_game_and_a_human_takes_it_back(server, tmp_path):
    h = harness(server, tmp_path)
    user2 = user_of(CH, 2)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await everyone_sends(h, bridge)  # turn 1 bids
        reply = await command(h, bridge, "seat", seat="Player#2", agent="normal")
        assert "Player#2 (Red) is now played by AI (normal -> heuristic); the seat keeps its history." in reply.text()
        assert "Player#2 (Red) is now played by AI" in h.chat.texts(CH)
        await everyone_sends(h, bridge)  # orders: Player#2's AI sends its own
        view = await bridge.rpc("game.view", **bridge._gm("g"), wait=True)
        assert view["step"] == "consolidation"
        assert "Played by AI: Red (normal -> heuristic)" in h.chat.texts(CH)  # as the GM chose it
        await bridge.on_dm(h.chat.dm(user2, "Bid 0"))
        assert "Player#2 in g is played by an AI now" in h.chat.last_dm(user2)  # the seat is the AI's now
        assert "nothing was stored" in h.chat.last_dm(user2)
        reply = await command(h, bridge, "seat", seat="Player#2", agent=f"<@{user2}>")
        assert f"played by a human again: <@{user2}>" in reply.text()
        seen = len(h.chat.dms[user2])
        await everyone_sends(h, bridge)  # consolidation (the AI had already sent Player#2's)
        await everyone_sends(h, bridge)  # turn 2 orders: the human's DM
        assert any("**Stored** for Player#2" in s.text for s in h.chat.dms[user2][seen:])
        status = (await command(h, bridge, "status")).text()
        assert f"<@{user2}>" in status
        view = await bridge.rpc("game.view", **bridge._gm("g"), wait=True)
        assert view["controllers"]["Player#2"] is None and view["played_by_ai"] == {"Player#2": ["heuristic"]}
        bad = await command(h, bridge, "seat", seat="Player#9", agent="normal")
        assert "unknown seat" in bad.text()
        await bridge.close_client()

    asyncio.run(body())


def test_human_gives_an_ai_held_seat_back_to_its_own_player(server, tmp_path):
    h = harness(server, tmp_path)
    user4 = user_of(CH, 4)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        taken = await command(h, bridge, "seat", seat="Player#4", agent="heuristic")
        assert "Player#4 (Gold) is now played by AI (heuristic agent); the seat" in taken.text()  # no "-> heuristic"
        reply = await command(h, bridge, "seat", seat="Player#4", agent="human")  # as docs/discord.md allows
        assert f"Player#4 (Gold) is played by a human again: <@{user4}>." in reply.text()
        assert "no Discord user" not in reply.text()
        view = await bridge.rpc("game.view", **bridge._gm("g"), wait=True)
        assert next(p for p in view["pending"] if p["seat"] == "Player#4")["submitted"]  # the AI bid at once
        await bridge.on_dm(h.chat.dm(user4, "Bid 4"))  # not "your decision is already stored": it was not theirs
        answer = h.chat.last_dm(user4)
        assert "The AI that played your seat (Player#4, g) had already decided the Protector Ranking bids" in answer
        assert "Your decision" not in answer
        await everyone_sends(h, bridge)  # the bids resolve; the orders are the player's own again
        await bridge.on_dm(h.chat.dm(user4, "Fortify! P4"))
        assert "**Stored** for Player#4" in h.chat.last_dm(user4)
        assert f"<@{user4}>" in (await command(h, bridge, "status")).text()
        await bridge.close_client()

    asyncio.run(body())


def test_a_player_given_their_seat_back_gets_the_summaries_of_the_turns_its_ai_played(server, tmp_path):
    h = harness(server, tmp_path)
    user2 = user_of(CH, 2)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await command(h, bridge, "seat", seat="Player#2", agent="heuristic")  # turn 1: the AI plays it
        for _ in range(10):
            view = await bridge.rpc("game.view", **bridge._gm("g"), wait=True)
            if view["turn"] >= 2 or view["over"]:
                break
            await everyone_sends(h, bridge)
        assert view["turn"] >= 2
        assert not any("Your summary of turn 1" in m.text for m in h.chat.dms.get(user2, []))  # not while away
        await command(h, bridge, "seat", seat="Player#2", agent="human")
        told = [m.text for m in h.chat.dms.get(user2, []) if "Your summary of turn" in m.text]
        assert len(told) == 1 and told[0].startswith("**Your summary of turn 1** (Player#2, g, played by AI):")
        await bridge.close_client()

    asyncio.run(body())


def test_a_seat_an_older_bot_gave_an_ai_goes_back_to_its_player_after_the_upgrade(server, tmp_path):
    # the state file of a bot that kept away / ai_since in maps of their own: the upgraded bot still refuses the
    # player's DM naming their seat, gives the seat back to them and sends the summaries of the turns the AI played
    h = harness(server, tmp_path)
    user2 = user_of(CH, 2)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await command(h, bridge, "seat", seat="Player#2", agent="heuristic")
        for _ in range(10):
            view = await bridge.rpc("game.view", **bridge._gm("g"), wait=True)
            if view["turn"] >= 2 or view["over"]:
                break
            await everyone_sends(h, bridge)
        await bridge.close_client()
        data = json.loads(Path(h.config.state).read_text())
        entry = data["games"]["g"]
        record = entry.pop("ai_seats")
        assert record == {"Player#2": {"player": user2, "since": 1}}
        entry["away"], entry["ai_since"] = {"Player#2": user2}, {"Player#2": 1}  # as the older bot wrote them
        Path(h.config.state).write_text(json.dumps(data))
        upgraded = h.bridge()
        await upgraded.start()
        await upgraded.on_dm(h.chat.dm(user2, "Fortify! P2"))
        assert h.chat.last_dm(user2).startswith("Your seat Player#2 in g is played by an AI now")
        await command(h, upgraded, "seat", seat="Player#2", agent="human")
        told = [m.text for m in h.chat.dms.get(user2, []) if "Your summary of turn" in m.text]
        assert len(told) == 1 and told[0].startswith("**Your summary of turn 1** (Player#2, g, played by AI):")
        assert upgraded.users("g")["Player#2"] == user2
        await upgraded.close_client()

    asyncio.run(body())


def test_an_ai_that_takes_a_seat_in_a_turns_last_step_counts_that_turn_as_its_own(server, tmp_path):
    # the GM hands a silent seat to an AI in the Consolidation; its decision ends the turn at once. The turn
    # the AI took the seat is that one, not the next: the player coming back gets its summary
    h = harness(server, tmp_path, seats=3)
    user3 = user_of(CH, 3)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        for _ in range(6):  # turn 1 up to its Consolidation, every seat by DM
            view = await bridge.rpc("game.view", **bridge._gm("g"), wait=True)
            if view["step"] == "consolidation":
                break
            await everyone_sends(h, bridge)
        assert (view["turn"], view["step"]) == (1, "consolidation")
        await everyone_sends(h, bridge, seats={"Player#1", "Player#2"})  # Player#3 stays silent
        await command(h, bridge, "seat", seat="Player#3", agent="heuristic")
        view = await bridge.rpc("game.view", **bridge._gm("g"), wait=True)
        assert view["turn"] == 2  # the AI's Consolidation ended turn 1
        await command(h, bridge, "seat", seat="Player#3", agent="human")
        told = [m.text for m in h.chat.dms.get(user3, []) if "Your summary of turn 1" in m.text]
        # its player sent turn 1's bid and orders, the AI its Consolidation: part of the turn (it said "played by AI")
        assert [t.split(":")[0] for t in told] == ["**Your summary of turn 1** (Player#3, g, partly played by AI)"]
        await bridge.close_client()

    asyncio.run(body())


def test_a_turn_an_ai_played_part_of_is_marked_in_the_summary_of_the_player_who_finished_it(server, tmp_path):
    # the GM hands a seat to an AI, it decides the turn's first step, and the seat goes back to its player, who
    # plays the rest of the turn: that turn's summary says the AI played some of it (the service's record)
    h = harness(server, tmp_path, seats=3)
    user1, user3 = user_of(CH, 1), user_of(CH, 3)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await command(h, bridge, "seat", seat="Player#3", agent="heuristic")
        view = await bridge.rpc("game.view", **bridge._gm("g"), wait=True)
        assert (view["turn"], next(p for p in view["pending"] if p["seat"] == "Player#3")["submitted"]) == (1, True)
        await command(h, bridge, "seat", seat="Player#3", agent="human")
        for _ in range(10):
            view = await bridge.rpc("game.view", **bridge._gm("g"), wait=True)
            if view["turn"] >= 2 or view["over"]:
                break
            await everyone_sends(h, bridge)
        assert view["turn"] == 2
        heads = {u: [m.text.split(":")[0] for m in h.chat.dms.get(u, []) if "Your summary of turn 1" in m.text]
                 for u in (user1, user3)}
        assert heads == {user1: ["**Your summary of turn 1** (Player#1, g)"],
                         user3: ["**Your summary of turn 1** (Player#3, g, partly played by AI)"]}
        await bridge.close_client()

    asyncio.run(body())


def test_deadline_extend_pause_resume_and_board(server, tmp_path):
    h = harness(server, tmp_path)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        first = (await bridge.rpc("game.pending", **bridge._gm("g")))[0]["deadline"]
        reply = await command(h, bridge, "deadline extend", hours=12)
        assert "extended by 12 h" in reply.text() and "extended by 12 h" in h.chat.texts(CH)
        assert (await bridge.rpc("game.pending", **bridge._gm("g")))[0]["deadline"] == first + 12 * 3600
        await command(h, bridge, "deadline pause")
        assert "(the clock is paused)" in (await command(h, bridge, "status")).text()
        assert "Refused" in (await command(h, bridge, "deadline pause")).text()
        await command(h, bridge, "deadline resume")
        assert "paused" not in (await command(h, bridge, "status")).text()
        assert "above 0" in (await command(h, bridge, "deadline extend", hours=-1)).text()
        reply = await command(h, bridge, "board")
        assert reply.deferred and reply.text() == "Board posted."
        png = [p.file for p in h.chat.posts[CH] if p.file is not None]
        assert png and png[-1].data[:4] == b"\x89PNG" and len(png[-1].data) < 10 * 1024 * 1024
        await bridge.close_client()

    asyncio.run(body())


def test_npr_invasions_and_npn_plan_with_an_attached_world(server, tmp_path):
    h = harness(server, tmp_path)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        realms = File("world.json", (EXAMPLES / "realms" / "world.json").read_bytes())
        reply = await command(h, bridge, "npr invasions", files=[realms], seed=3)
        [sent] = reply.sent
        direct = await bridge.rpc("npr.invasions", world=json.loads(realms.data), seed=3)
        assert json.loads(sent.file.data) == json.loads(json.dumps(direct, default=str))
        zero = await command(h, bridge, "npr invasions", files=[realms], seed=0)  # 0 is a seed, not "none"
        assert json.loads(zero.sent[0].file.data)["dice"]["seed"] == 0
        nw = File("world.json", (EXAMPLES / "newworld" / "world.json").read_bytes())
        reply = await command(h, bridge, "npn plan", files=[nw], nation="Spain", seed=4)
        assert reply.sent[0].file is not None and "trace steps" in reply.sent[0].text
        assert "attach the world file" in (await command(h, bridge, "npr invasions")).text()
        junk = File("w.txt", b"\x00 not a world")
        assert "neither JSON nor TOML" in (await command(h, bridge, "npr invasions", files=[junk])).text()
        await bridge.close_client()

    asyncio.run(body())


def test_a_command_is_acknowledged_at_once_while_the_bot_is_busy(server, tmp_path):
    h = harness(server, tmp_path)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await bridge.lock.acquire()  # a long picture or a slow service holds the bot past 3 s
        cmd = h.chat.command("board", GM_USER, CH)
        task = asyncio.get_running_loop().create_task(bridge.on_command(cmd))
        await asyncio.sleep(0.2)
        assert cmd.reply.deferred and cmd.reply.acked_after < 0.2 and cmd.reply.sent == []
        await asyncio.sleep(3.0)
        bridge.lock.release()
        await task
        assert cmd.reply.text() == "Board posted."  # the answer follows when the work is done
        await bridge.close_client()

    asyncio.run(body())


def test_a_forced_advance_tells_the_channel_whose_decisions_were_defaulted(server, tmp_path):
    h = harness(server, tmp_path)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await everyone_sends(h, bridge, seats={"Player#1", "Player#4"})
        reply = await command(h, bridge, "advance", force=True)
        defaults = "the rulebook defaults for Player#2 (Red), Player#3 (Green), Player#5 (Black)."
        assert reply.text() == "Step resolved; " + defaults
        post = next(p.text for p in h.chat.posts[CH] if "- Bids:" in p.text)
        assert post.startswith("⏩ The GM resolved the step without waiting: " + defaults)
        await everyone_sends(h, bridge)  # every order is in: the step resolves by itself, no defaults
        text = h.chat.texts(CH)
        assert text.count("⏩") == 1 and "The deadline passed" not in text
        await bridge.close_client()

    asyncio.run(body())


def test_report_of_a_turn_says_nothing_has_happened_yet_and_whose_decisions_the_rulebook_made(server, tmp_path):
    # /regent report posted a bare "== Turn 1 ==" before anything happened, and a turn with forced steps without
    # the seats the rulebook's default played for (the service's game.report, as regent report says them)
    h = harness(server, tmp_path)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        quiet = (await command(h, bridge, "report")).text()
        assert quiet == "**g**\n== Turn 1 ==\nNothing has happened yet this turn.\nPlayed by AI: none"
        await everyone_sends(h, bridge, seats={"Player#1", "Player#4"})
        await command(h, bridge, "advance", force=True)
        await everyone_sends(h, bridge, seats={"Player#1", "Player#2", "Player#4", "Player#5"})
        await command(h, bridge, "advance", force=True)  # Green's orders: Fortify! for her
        line = "Rulebook defaults for: Red, Green, Black in the bid step; Green in the orders step"
        report = (await command(h, bridge, "report", turn=1)).text()
        assert line in report.splitlines() and report.count("Rulebook defaults") == 1
        assert report.splitlines()[-2:] == ["Played by AI: none", line]  # as the service and the CLI order them
        assert "Nothing has happened" not in report
        # the channel's own posts of each step say it their way, once each: the line is not added to them
        channel = h.chat.texts(CH)
        assert "Rulebook defaults" not in channel and channel.count("⏩") == 2
        await everyone_sends(h, bridge)  # the consolidation resolves by itself: turn 1 ends, its summaries go out
        await bridge.sync("g")
        for no in range(1, 6):  # each player's own summary: only their own default, and no public line
            mine = h.chat.dm_texts(user_of(CH, no))
            summary = mine[mine.index("**Your summary of turn 1**"):]
            assert "Rulebook defaults" not in summary
            told = [ln.split(" DM ")[0] for ln in summary.splitlines() if "was not stored" in ln]
            assert told == {2: ["Your bid"], 3: ["Your bid", "Your orders"], 5: ["Your bid"]}.get(no, []), no
        await bridge.close_client()

    asyncio.run(body())


def test_status_while_paused_says_the_deadline_once(server, tmp_path):
    h = harness(server, tmp_path)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await command(h, bridge, "deadline pause")
        lines = (await command(h, bridge, "status")).text().splitlines()
        assert "(the clock is paused); deadline <t:" in lines[0]
        assert "deadline" not in "\n".join(lines[1:])  # not on each of the 5 seat lines
        await bridge.close_client()

    asyncio.run(body())


def ten_seats(channel: int) -> dict:
    """A ten-seat game: seat order (Player#2 before Player#10) is not the order of the seats' names."""
    table = game_table(channel, seats=5)
    table["board"] = "ring-10"
    table["seats"] = {f"Player#{i}": {"user": user_of(channel, i), "name": f"Name{i}"} for i in range(1, 11)}
    return table


def test_seat_takes_a_display_name_and_lists_the_seats_in_seat_order(server, tmp_path):
    h = Harness(server, make_config({"g": ten_seats(CH)}, tmp_path))

    async def body():
        bridge = h.bridge()
        await bridge.start()
        reply = await command(h, bridge, "seat", seat="name4", agent="normal")  # the name, in any case
        assert reply.text().startswith("Player#4 (Name4) is now played by AI (normal")
        view = await bridge.rpc("game.view", **bridge._gm("g"), wait=True)
        assert view["controllers"]["Player#4"] is not None
        colour = view["colours"]["Player#7"]
        reply = await command(h, bridge, "seat", seat=colour.upper(), agent="normal")  # or its colour
        assert reply.text().startswith("Player#7 (Name7) is now played by AI")
        bad = (await command(h, bridge, "seat", seat="Zed", agent="normal")).text()
        seats = ", ".join(f"Player#{i} (Name{i})" for i in range(1, 11))
        assert bad == f"unknown seat 'Zed'; seats are {seats}. Nothing was changed."
        await bridge.close_client()

    asyncio.run(body())


LAST_TWO = {"rules": "protectors", "board": "ring-3", "seed": 4,
            "players": [{"seat": f"Player#{i}", "name": n} for i, n in ((1, "Blue"), (2, "Red"), (3, "Green"))],
            "position": {"turn": 2, "step": "orders", "ranking": ["Player#2", "Player#3"],
                         "eliminated": {"Player#1": {"turn": 1, "by": "players"}},
                         "provinces": {"P2": {"owner": "Player#2", "units": 3},
                                       "P3": {"owner": "Player#3", "units": 1}}}}


def test_an_eliminated_seat_is_refused_by_seat(server, tmp_path):
    async def body():
        table = game_table(CH, seats=3)
        table["import"] = await game_file(server, LAST_TWO, tmp_path / "two.bin")
        h = Harness(server, make_config({"g": table}, tmp_path))
        bridge = h.bridge()
        await bridge.start()
        posts = len(h.chat.posts[CH])
        reply = await command(h, bridge, "seat", seat="Blue", agent="strong")
        assert reply.text() == ("Player#1 (Blue) was eliminated: it has no decisions left for an AI or a player to "
                                "make. Nothing was changed.")
        assert len(h.chat.posts[CH]) == posts  # nothing announced
        view = await bridge.rpc("game.view", **bridge._gm("g"), wait=True)
        assert view["controllers"]["Player#1"] is None
        await bridge.close_client()

    asyncio.run(body())


def test_undo_of_a_step_that_ended_the_game_says_the_end_and_the_elimination_are_void(server, tmp_path):
    async def body():
        table = game_table(CH, seats=3)
        table["import"] = await game_file(server, LAST_TWO, tmp_path / "two.bin")
        h = Harness(server, make_config({"g": table}, tmp_path))
        bridge = h.bridge()
        await bridge.start()
        green = user_of(CH, 3)
        await bridge.on_dm(h.chat.dm(user_of(CH, 2), "March! 3 from P2 to P3"))
        await bridge.on_dm(h.chat.dm(green, "Fortify! P3"))
        assert "**The game is over**" in h.chat.texts(CH) and "You were eliminated on turn 2" in h.chat.dm_texts(green)
        await command(h, bridge, "undo")
        notice = next(p.text for p in h.chat.posts[CH] if p.text.startswith("↩️"))
        assert notice.splitlines()[1:] == ["The game is NOT over: the end announced for that step is void.",
                                           "Void too: the elimination of Player#3 (Green); they are back in the game."]
        assert "Player#1" not in notice  # eliminated before that step: still out
        assert "you are back in the game" in h.chat.last_dm(green)
        assert "you are back in the game" not in h.chat.dm_texts(user_of(CH, 1))
        view = await bridge.rpc("game.view", **bridge._gm("g"), wait=True)
        assert not view["over"] and not view["players"]["Player#3"]["eliminated"]
        await bridge.close_client()

    asyncio.run(body())


def test_a_seat_is_given_to_another_member_but_never_to_one_holding_a_seat_already(server, tmp_path):
    h = harness(server, tmp_path)
    old, new, one = user_of(CH, 2), 555_000_111, user_of(CH, 1)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await bridge.on_dm(h.chat.dm(old, "Bid 2"))  # Red's own bid is in before the seat changes hands
        # Blue's player would hold two seats, and could DM for neither: refused, nothing changed
        bad = await command(h, bridge, "seat", seat="Red", agent=f"<@{one}>")
        assert bad.text() == (f"<@{one}> already holds Player#1 (Blue) in g, and a player holds one seat of a game "
                              "(their DMs name no seat); give Player#1 to an AI or another member first. Nothing was "
                              "changed.")
        assert bridge.users("g")["Player#2"] == old
        reply = await command(h, bridge, "seat", seat="Red", agent=f"<@{new}>")
        assert reply.text() == (f"Player#2 (Red) is played by <@{new}> now, instead of <@{old}>; the seat keeps its "
                                "history.")
        assert h.chat.last_dm(old) == ("The GM gave your seat Player#2 (Red) in g to another player: I no longer "
                                       "take decisions from you for it.")
        await bridge.on_dm(h.chat.dm(new, "Bid 5"))  # the step's bid was the old player's: final, not the AI's
        assert h.chat.last_dm(new).startswith("Your decision for this step (Player#2, g) is already stored")
        await bridge.on_dm(h.chat.dm(one, "Bid 1"))
        assert "**Stored** for Player#1" in h.chat.last_dm(one)
        await bridge.close_client()

    asyncio.run(body())


def test_a_players_notes_to_the_gm_are_kept_for_the_gm_alone(server, tmp_path):
    # the rules' answers tell players "a note to the GM can go on a line starting with //"; in Discord no person
    # reads the DM, so the note went nowhere. The bot keeps it for the GM, who reads it with /regent notes
    h = harness(server, tmp_path)
    user1, user2 = user_of(CH, 1), user_of(CH, 2)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await bridge.on_dm(h.chat.dm(user1, "// GM: I'm away next week, an AI may play me\nBid 3 // a small one"))
        assert h.chat.last_dm(user1).startswith("**Stored**") and "📝 Your 2 notes for the GM are kept for them." \
            in h.chat.last_dm(user1)
        await bridge.on_dm(h.chat.dm(user2, "Bid 4"))
        assert "📝" not in h.chat.last_dm(user2)
        posts = list(h.chat.posts[CH])
        reply = await command(h, bridge, "notes")
        assert reply.deferred and all(sent.private for sent in reply.sent)
        assert reply.text() == ("**g**: notes from the players for you (`// ...` in their DMs), oldest first:\n"
                                "- turn 1, Protector Ranking bids, Player#1 (Blue): GM: I'm away next week, an AI may "
                                "play me\n- turn 1, Protector Ranking bids, Player#1 (Blue): a small one")
        assert h.chat.posts[CH] == posts and "away next week" not in h.chat.last_dm(user2)  # nobody else's
        again = await command(h, bridge, "notes")  # read once: the next asks for the new ones
        assert again.text() == "**g**: no note from the players for you since you last read them."
        await bridge.close_client()

    asyncio.run(body())


def test_a_summary_discord_failed_to_deliver_goes_out_once_it_can(server, tmp_path):
    """A private summary Discord failed (its 429s or 5xxs outlasting discord.py's retries) was marked sent and never
    went out again: the player never learnt what became of their orders. It is tried again at each tick until it is
    delivered, once."""
    h = harness(server, tmp_path)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        unlucky = user_of(CH, 2)
        h.chat.failing.add(unlucky)
        while (await bridge.rpc("game.view", **bridge._gm("g"), wait=True))["turn"] == 1:
            await everyone_sends(h, bridge)
            await command(h, bridge, "advance", force=True)
        assert "**Your summary of turn 1**" not in h.chat.dm_texts(unlucky)
        await bridge.tick()  # still failing: kept
        h.chat.failing.discard(unlucky)
        await bridge.tick()
        assert h.chat.dm_texts(unlucky).count("**Your summary of turn 1**") == 1
        await bridge.tick()
        assert h.chat.dm_texts(unlucky).count("**Your summary of turn 1**") == 1
        assert h.chat.dm_texts(user_of(CH, 3)).count("**Your summary of turn 1**") == 1
        await bridge.close_client()

    asyncio.run(body())
