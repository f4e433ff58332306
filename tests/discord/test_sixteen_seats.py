"""Sixteen seats brought in mid-game from a position, played in Discord DMs as a GM lives it.

The GM ran turns 1-4 elsewhere and moves the game in at turn 5 with `regent export-position` (docs/positions.md):
the Grand board for 16 with the Island, factions, eight teams of two; one seat an AI from discord.toml. One member
also plays in a second, small game. Through several turns: DMs arrive messy (emoji, greetings, notes), edited,
delivered twice, long, for the wrong game; a player leaves the server (the GM gives the seat to an AI, she comes back
later and takes it over by mention); a seat goes to an AI mid-step and back; the bot restarts between two DMs and is
down while a deadline passes; the GM pauses, extends, forces, undoes, reports, posts the board, exports, and runs the
NPR and NPN tools. Checked: every post and DM is cut at line boundaries within Discord's 2,000 characters and nothing
of it is lost; each DM is answered once and stored once; each player receives only their own seat's answers,
balances and summaries; nobody sees a bid before the rules reveal it (rules: 003 "All orders/choices ... will be
revealed to all players at the same time as they are executed"); and nothing private reaches the channel.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path

from engine.protectors.defaults import default_decision
from engine.protectors.game import Game
from service import ai
from service.cli.position import exported_setup
from service.discord.chat import DirectMessage, File
from service.posting import DISCORD_LIMIT
from tests.discord.helpers import GM_USER, Harness, game_file, gm_command, gm_view, make_config, seat_view, user_of
from tests.discord.test_big_game import decision

CH, SIDE = 3100, 3200
KEY = "grand16"
NAMES = ["Ann", "Bob", "Cat", "Dov", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lea", "Max", "Ned", "Oda", "Pia"]
TEAMS = "ABCDEFGH"  # teams of two: Ann and Bob are team A
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
LEFT = 6  # Fay leaves the server in turn 5's orders, and comes back in turn 6
SILENT = 15  # Oda sends nothing in turn 5's orders until the GM's undo
BOTH = 5  # Eve also plays Player#2 of the side game
LATER_AI = (9, 10, 11, 12, 13)  # handed to an AI from turn 6 on: the turns then have fights to report


def position_setup() -> dict:
    """The setup `regent export-position` writes for a 16-seat game played by the heuristic AI to turn 5's orders."""
    setup = {"rules": "protectors", "board": "ring-16-grand+island", "seed": 2,
             "players": [{"seat": f"Player#{i}", "name": NAMES[i - 1], "team": TEAMS[(i - 1) // 2]}
                         for i in range(1, 17)],
             "options": {"factions": True, "teams": True}}
    game, cache = Game(setup), {}
    while (game.state.turn, game.step) != (5, "orders"):
        assert not game.over
        for p in game.pending():
            try:
                game.submit(p.seat, ai.decide(game, p.seat, "heuristic", cache, 1))
            except Exception:  # an agent's illegal proposal: the rulebook default, as the service does
                game.submit(p.seat, default_decision(game.state, p.seat))
        game.advance()
    return json.loads(json.dumps(exported_setup(game)))  # as written to setup.json and read back


class Table:
    """The fake Discord, the bot (made again at each restart), and every message cut from what the bot meant to say."""

    def __init__(self, server, tmp_path, path: str):
        seats = {f"Player#{i}": {"user": user_of(CH, i), "name": NAMES[i - 1], "team": TEAMS[(i - 1) // 2]}
                 for i in range(1, 17)}
        seats["Player#16"] = {"ai": "normal"}
        table = {"channel": CH, "import": path, "pictures": False, "expiry": True, "factions": True, "teams": True,
                 "deadlines": {"consolidation": "6s"}, "seats": seats}
        side = {"channel": SIDE, "board": "ring-5", "seed": 2, "pictures": False, "expiry": False,
                "seats": {f"Player#{i}": {"user": user_of(CH, BOTH) if i == 2 else user_of(SIDE, i), "name": f"S{i}"}
                          for i in range(1, 6)}}
        self.h = Harness(server, make_config({KEY: table, "side": side}, tmp_path))
        self.cuts: list[tuple[str, list[str]]] = []  # (what the bot said, the messages Discord got)
        self.bridge = self.restart()

    def restart(self):
        """A new bot process on the same state file and Discord; what it says is recorded with how it was cut."""
        bridge = self.h.bridge()
        chat, table = self.h.chat, self

        async def post(channel, text, file=None, _orig=bridge._post):
            before = len(chat.posts.get(channel, []))
            await _orig(channel, text, file)
            table.cuts.append((text, [p.text for p in chat.posts[channel][before:]]))

        async def tell(key, user_id, text, thread_id=None, file=None, _orig=bridge._tell):
            before = len(chat.dms.get(user_id, []))
            await _orig(key, user_id, text, thread_id, file)
            if thread_id is None and user_id in chat.dms:
                table.cuts.append((text, [m.text for m in chat.dms[user_id][before:]]))

        bridge._post, bridge._tell = post, tell
        return bridge

    def received(self, no: int) -> list[str]:
        return [s.text for s in self.h.chat.dms.get(user_of(CH, no), [])]

    def channel(self, since: int = 0) -> str:
        return "\n".join(p.text for p in self.h.chat.posts.get(CH, [])[since:])

    def posts(self) -> int:
        return len(self.h.chat.posts.get(CH, []))

    async def send(self, dm: DirectMessage) -> str:
        user = dm.user_id
        before = len(self.h.chat.dms.get(user, []))
        await self.bridge.on_dm(dm)
        return "\n".join(s.text for s in self.h.chat.dms.get(user, [])[before:])

    async def dm(self, no: int, text: str) -> str:
        return await self.send(self.h.chat.dm(user_of(CH, no), text))

    async def gm(self, name: str, channel: int = CH, **options) -> str:
        return await gm_command(self.h, self.bridge, channel, name, **options)

    async def view(self) -> dict:
        return await gm_view(self.bridge, KEY)


def seats_named(texts: list[str]) -> set[str]:
    """The seats a player's messages speak for (answers, balances, summaries all name the seat they are for)."""
    mine = "\n".join(texts)
    return set(re.findall(r"\((Player#\d+), " + KEY, mine)) | set(re.findall(r"for (Player#\d+) in " + KEY, mine))


def holding(view: dict, no: int) -> str:
    return next(p for p, pr in view["provinces"].items() if pr["holder"] == f"Player#{no}" and pr["units"])


async def play_step(t: Table, skip: tuple[int, ...] = ()) -> tuple[dict, list[str]]:
    """Every human seat the step waits for sends its decision (but ``skip``); the GM forces what is left. Returns the
    view the step was played from and the answers."""
    view = await t.view()
    answers = []
    for p in view["pending"]:
        no = int(p["seat"].split("#")[1])
        if p["submitted"] or p["controller"] or no in skip:
            continue
        head = f"game: {KEY}\n" if no == BOTH else ""  # she plays in two games
        answer = await t.dm(no, head + decision(await seat_view(t.bridge, KEY, p["seat"]), p["seat"]))
        if "may not be played this turn" in answer or "Nothing was stored" in answer:
            answer = await t.dm(no, head + "none")  # rules: 003 a card forbids the order: the player sends none
        assert f"**Stored** for {p['seat']} in {KEY}" in answer, answer
        answers.append(answer)
    now = await t.view()
    if now["step_started"] == view["step_started"] and not now["over"]:  # someone is still silent
        assert (await t.gm("advance", force=True)).startswith("Step resolved")
    return view, answers


def test_sixteen_seats_imported_at_turn_5_from_a_position_played_in_dms_for_several_turns(server, tmp_path):
    async def body():
        path = await game_file(server, position_setup(), tmp_path / "from-position.bin")
        t = Table(server, tmp_path, path)
        await t.bridge.start()
        opening = t.channel()
        assert "**A running game of Protectors of the Realm** (grand16) continues here, at turn 5." in opening
        assert len(re.findall(r"^Player#\d+: [A-Z][a-z]+ \([a-z ]+\), [A-Za-zá' ]+, team [A-H]", opening, re.M)) == 16
        assert re.search(r"^Player#16: Pia .*, AI \(normal -> heuristic\)$", opening, re.M)
        view = await t.view()
        assert (view["turn"], view["step"]) == (5, "orders")

        # -- turn 5's orders, as the DMs come in -----------------------------------------------------------------
        ann = await t.dm(1, f"hi GM 👋\nfortify! {holding(view, 1).lower()}. 🛡️\n// away this weekend 🏖️\nthx ❤️")
        assert f"**Stored** for Player#1 in {KEY} (orders):\n✓ `Fortify! {holding(view, 1)}`" in ann, ann
        assert "📝 Your note for the GM is kept for them." in ann
        # Bob's long DM, every line wrong: refused line by line, the answer cut into messages at line boundaries
        bad = "\n".join(f"attack P{n} with everything!! 🐉🔥" for n in range(1, 40))
        bob = t.h.chat.dm(user_of(CH, 2), bad)
        answer = await t.send(bob)
        assert answer.startswith("**Nothing was stored.**") and answer.count("✗") == 20  # the service lists 20
        assert "…and 19 more lines refused" in answer
        assert len(t.cuts[-1][1]) >= 2, "a refusal of 39 lines in one message?"
        fixed = DirectMessage(bob.message_id, bob.user_id, f"Fortify! {holding(view, 2)}", bob.user_name)
        await t.bridge.on_dm_edit(bad, fixed)  # Bob fixes his DM in place: read again, stored
        assert t.received(2)[-1].startswith(f"**Stored** for Player#2 in {KEY} (orders)")
        await t.bridge.on_dm_edit(fixed.text, DirectMessage(bob.message_id, bob.user_id, "none", bob.user_name))
        assert t.received(2)[-1].startswith("You edited a DM I had already answered: the edit changes nothing")
        cat = t.h.chat.dm(user_of(CH, 3), "none 🙂")
        await t.bridge.on_dm(cat)
        await t.bridge.on_dm(cat)  # Discord delivers it twice: answered and stored once
        assert len(t.received(3)) == 1 and "**Stored** for Player#3" in t.received(3)[0]
        # Eve plays in two games: a DM without `game:` is not guessed; one for the wrong game is refused there
        assert (await t.dm(BOTH, "none")).startswith("You play in several games (grand16 (Player#5), side (Player#2))")
        assert "**Nothing was stored.**" in await t.dm(BOTH, f"game: side\nFortify! {holding(view, BOTH)}")
        assert "**Stored** for Player#5 in grand16" in await t.dm(BOTH, "**game: grand16**\nnone")
        # Fay leaves the server: the GM gives her seat to an AI, and hears once that she cannot be reached
        t.h.chat.gone.add(user_of(CH, LEFT))
        assert (await t.gm("seat", seat="Fay", agent="hard")).startswith("Player#6 (Fay) is now played by AI (hard")
        assert t.channel().count(f"<@{user_of(CH, LEFT)}> (Player#6) cannot be reached") == 1
        # Gus is slow: an AI takes his seat mid-step, decides, and he takes it back (by his colour) mid-turn
        assert (await t.gm("seat", seat="Player#7", agent="steward")).startswith("Player#7 (Gus) is now played by AI")
        assert (await t.dm(7, "none")).startswith("Your seat Player#7 in grand16 is played by an AI now")
        colour = (await t.view())["colours"]["Player#7"]
        assert await t.gm("seat", seat=colour, agent="human") == (
            f"Player#7 (Gus) is played by a human again: <@{user_of(CH, 7)}>.")
        assert (await t.dm(7, "none")).startswith("The AI that played your seat (Player#7, grand16) had already")
        for no in (4, 8, 9, 10, 11, 12):
            assert f"**Stored** for Player#{no}" in await t.dm(no, "None thanks!")
        # the bot restarts between two DMs: nothing is posted twice, the next DMs are answered as before
        posted = t.posts()
        await t.bridge.close_client()
        t.bridge = t.restart()
        await t.bridge.start()
        assert t.posts() == posted
        await t.bridge.on_dm(cat)  # and Discord's late redelivery is still recognised
        assert len(t.received(3)) == 1
        for no in (13, 14):
            assert f"**Stored** for Player#{no}" in await t.dm(no, "none 🙏")
        status = await t.gm("status")
        assert "15 of 16 in; waiting for 1:" in status, status
        assert "… waiting: Player#1 (Ann)" not in status
        assert f"… waiting: Player#15 (Oda), <@{user_of(CH, 15)}>" in status
        assert "deadline is paused" in await t.gm("deadline pause")
        assert "running again" in await t.gm("deadline resume")
        assert "extended by 2 h" in await t.gm("deadline extend", hours=2)
        notes = await t.gm("notes")
        assert "turn 5, orders, Player#1 (Ann): away this weekend 🏖️" in notes, notes
        assert t.channel(posted).count("⏳") == 0 and "away this weekend" not in t.channel()

        # Oda is silent: the GM forces the step; then undoes it, Oda's late DM counts, and it resolves again
        mark = t.posts()
        assert await t.gm("advance", force=True) == "Step resolved; the rulebook defaults for Player#15 (Oda)."
        forced = t.channel(mark)
        assert forced.startswith("⏩ The GM resolved the step without waiting: the rulebook defaults for "
                                 "Player#15 (Oda).\n== Turn 5 ==")
        assert f"- Ann: Fortify! {holding(view, 1)}" in forced
        assert ("Played by AI: Fay (hard -> strong), Gus (steward -> steward-search), Pia (normal -> heuristic)"
                in forced)  # each as the GM chose it
        undone = await t.gm("undo")
        assert undone.startswith("Undone. Note: what the step revealed was posted already; Player#15 (Oda)")
        assert "**Stored** for Player#15" in await t.dm(SILENT, "sorry I am late 😅\nnone")
        mark = t.posts()
        assert await t.gm("advance") == "Step resolved."
        again = t.channel(mark)
        assert again.startswith("↩️ Resolved again after the GM's undo:\n== Turn 5 ==") and "⏩" not in again
        assert "**Turn 5: Consolidation**" in again

        # -- turn 5's Consolidation: some bid, then the bot is down while its deadline passes ----------------------
        view = await t.view()
        assert view["step"] == "consolidation"
        for no in (1, 2, 3):
            assert t.received(no)[-1].startswith(f"💰 **Turn 5: Consolidation** (Player#{no}, grand16): you hold")
        assert "✓ `Bid 20`" in await t.dm(1, "Bid 20 💰")
        assert "✓ `Bid 5 (10 from Ann)`" in await t.dm(2, "no purchases, bid 5 (10 from Ann)")  # teammates
        assert "✓ `Bid 3`" in await t.dm(3, "game: grand16\nBid 3")
        assert "Ann 20" not in t.channel() and "Bid 20" not in "\n".join(t.received(2))  # Bob sees not Ann's bid
        await t.bridge.close_client()  # the bot goes down ...
        deadline = min(p["deadline"] for p in view["pending"] if not p["submitted"])
        await asyncio.sleep(max(0.0, deadline - time.time()) + 1.5)  # ... and the service's expiry resolves the step
        mark = t.posts()
        t.bridge = t.restart()
        await t.bridge.start()
        caught_up = t.channel(mark)
        assert caught_up.startswith("⏰ The deadline passed: the step was resolved with the rulebook defaults for "
                                    "Player#4 (Dov), Player#5 (Eve), Player#7 (Gus), Player#8 (Hal)"), caught_up
        bids = next(line for line in caught_up.splitlines() if line.startswith("- Bids:"))
        assert re.search(r"\bAnn 20\b", bids) and re.search(r"\bBob 5\b", bids)  # revealed now, to everyone at once
        assert "**Turn 6: orders**" in caught_up
        for no in range(1, 16):
            summary = [m for m in t.received(no) if m.startswith("**Your summary of turn 5**")]
            if no == LEFT:
                assert summary == []  # she cannot be reached: dropped, the rest still went out
                continue
            assert len(summary) == 1, (no, summary)
        assert "-10 (Team Games, pooled $Realm to Bob)" in next(m for m in t.received(1) if "summary of turn 5" in m)
        assert any("Your consolidation DM for turn 5 was not stored" in m for m in t.received(4))

        # -- turn 6: Fay is back and takes her seat by mention; five seats go to an AI; several steps --------------
        t.h.chat.gone.discard(user_of(CH, LEFT))
        assert (await t.gm("seat", seat="Player#6", agent=f"<@{user_of(CH, LEFT)}>")).startswith(
            "Player#6 (Fay) is played by a human again")
        assert t.received(LEFT)[-1].startswith("**Your summary of turn 5** (Player#6, grand16, played by AI):")
        for no in LATER_AI:
            assert "is now played by AI (heuristic" in await t.gm("seat", seat=f"Player#{no}", agent="heuristic")
        for _ in range(8):
            view = await t.view()
            if view["over"] or view["turn"] >= 8:
                break
            await play_step(t, skip=(14,) if view["step"] == "orders" else ())
        view = await t.view()
        assert view["turn"] >= 7 or view["over"], (view["turn"], view["step"])

        # -- the GM's other tools -----------------------------------------------------------------------------------
        assert "== Turn 6 ==" in await t.gm("report", turn=6)
        assert "predates this game's start: it was brought in as a position at turn 5" in await t.gm("report", turn=4)
        assert await t.gm("board") == "Board posted."
        cmd = t.h.chat.command("export", GM_USER, CH)  # the game file, every secret in it: to the GM alone
        await t.bridge.on_command(cmd)
        assert cmd.reply.private and cmd.reply.sent[-1].file is not None
        realms = File("world.json", (EXAMPLES / "realms" / "world.json").read_bytes())
        cmd = t.h.chat.command("npr invasions", GM_USER, CH, files=[realms], seed=3)
        await t.bridge.on_command(cmd)
        assert cmd.reply.sent[-1].file is not None
        nw = File("world.json", (EXAMPLES / "newworld" / "world.json").read_bytes())
        cmd = t.h.chat.command("npn plan", GM_USER, CH, files=[nw], nation="Spain", seed=4)
        await t.bridge.on_command(cmd)
        assert cmd.reply.sent[-1].file is not None

        # -- what was cut, and who got what ---------------------------------------------------------------------------
        assert t.cuts
        for text, parts in t.cuts:
            assert "".join(parts) == text  # nothing lost, nothing reordered
            assert all(len(p) <= DISCORD_LIMIT for p in parts)
            for part in parts[:-1]:
                assert part.endswith("\n"), part[-80:]  # cut at a line's end, never inside one
            assert all(p.count("```") % 2 == 0 for p in parts)  # never inside a code block
        for no in range(1, 16):
            got = t.received(no)
            if no == BOTH:  # her side game's answers name that game
                got = [m for m in got if "side" not in m.split("\n")[0]]
            assert seats_named(got) <= {f"Player#{no}"}, (no, seats_named(got))
            summaries = [m.split(" (")[0] for m in got if m.startswith("**Your summary of turn")]
            assert len(summaries) == len(set(summaries)), (no, summaries)  # each turn's summary once
            if no not in (1, 2):
                assert "✓ `Bid 20`" not in "\n".join(got), no  # Ann's bid, as her answer said it
        text = t.channel()
        for private in ("**Stored**", "**Your summary", "💰", "Balance:", "(10 from", "already stored", "📝",
                        "away this weekend", "$Realm to buy"):
            assert private not in text, private
        await t.bridge.close_client()

    asyncio.run(body())
