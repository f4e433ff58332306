"""A big game brought in mid-game, walked through the bridge on the fake Discord against the real service.

The GM ran turns 1 and 2 with the command-line tools (two seats played by the CLI's AI) and brings the game file in
at turn 3's orders: twelve seats on the Grand board with the Island, factions, four teams of three. discord.toml
gives one of the file's AI seats to a member and keeps the other an AI. Players DM as they do (late, twice,
correcting themselves, in the wrong step), a silent player's seat goes to an AI mid-step, the GM forces a step
over two silent seats, and what each player and the channel received is checked: nobody sees another seat's
decision before the rules reveal it (rules: 003 "All orders/choices ... will be revealed to all players at the same
time as they are executed"), and nothing private reaches the channel.
"""

from __future__ import annotations

import asyncio
import re
import time

from engine.protectors.defaults import default_decision
from engine.protectors.game import Game
from service import ai, gamefile
from tests.discord.helpers import Harness, gm_command, gm_view, make_config, seat_view, user_of
from tests.discord.test_big_game import decision

CH = 2300
KEY = "realm"
NAMES = ["Ann", "Bob", "Cat", "Dov", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lea"]
FILE_AI = (3, 9)  # the CLI's AI played these seats; discord.toml gives Player#3 to Cat, keeps Player#9 an AI
SILENT = 8  # Hal stops answering: the GM gives his seat to an AI in the orders step
FORCED = (11, 12)  # Kim and Lea say nothing: the GM resolves the orders without them


def cli_game_file(path, turn: int = 3) -> str:
    """The game file of a CLI game played to ``turn``'s orders by the heuristic AI for every seat (as `regent new`
    then `regent adjudicate` or `regent seat` would write it): the seats of FILE_AI are the file's AI seats, which
    have decided the open step already."""
    setup = {"rules": "protectors", "board": "ring-12-grand+island", "seed": 8,
             "players": [{"seat": f"Player#{i}", "name": NAMES[i - 1], "team": "ABCD"[(i - 1) // 3]}
                         for i in range(1, 13)],
             "options": {"factions": True, "teams": True}}
    game, cache = Game(setup), {}
    record = gamefile.GameFile(game, agents={f"Player#{i}": "heuristic" for i in FILE_AI})

    def decide(seat: str) -> None:
        try:
            game.submit(seat, ai.decide(game, seat, "heuristic", cache, 1))
        except Exception:  # an agent's illegal proposal: the rulebook default, as the service does
            game.submit(seat, default_decision(game.state, seat))
        if seat in record.agents:
            record.note_ai(seat, "heuristic", game.state.turn)

    while (game.state.turn, game.step) != (turn, "orders"):
        assert not game.over and game.state.turn <= turn
        for p in game.pending():
            decide(p.seat)
        game.advance()
    for seat in record.agents:
        decide(seat)
        record.step_ai[seat] = "heuristic"
    record.step_started = time.time()
    path.write_bytes(gamefile.dumps(record))
    return str(path)


def table(path: str) -> dict:
    seats = {f"Player#{i}": {"user": user_of(CH, i), "name": NAMES[i - 1]} for i in range(1, 13)}
    seats["Player#9"] = {"ai": "normal"}
    return {"channel": CH, "import": path, "pictures": False, "expiry": False, "factions": True, "teams": True,
            "seats": seats}


class Table:
    def __init__(self, server, tmp_path):
        self.h = Harness(server, make_config({KEY: table(cli_game_file(tmp_path / "cli.bin"))}, tmp_path))
        self.bridge = self.h.bridge()

    def received(self, no: int) -> list[str]:
        return [s.text for s in self.h.chat.dms.get(user_of(CH, no), [])]

    def channel(self, since: int = 0) -> str:
        return "\n".join(p.text for p in self.h.chat.posts.get(CH, [])[since:])

    def posts(self) -> int:
        return len(self.h.chat.posts.get(CH, []))

    async def dm(self, no: int, text: str) -> str:
        before = len(self.received(no))
        await self.bridge.on_dm(self.h.chat.dm(user_of(CH, no), text))
        return "\n".join(self.received(no)[before:])

    async def gm(self, name: str, **options) -> str:
        return await gm_command(self.h, self.bridge, CH, name, **options)

    async def view(self) -> dict:
        return await gm_view(self.bridge, KEY)


def holdings(view: dict, no: int) -> list[tuple[str, int]]:
    return [(p, pr["units"]) for p, pr in view["provinces"].items() if pr["holder"] == f"Player#{no}" and pr["units"]]


def seats_named(texts: list[str]) -> set[str]:
    """The seats a player's messages speak for (answers, balances, summaries all name the seat they are for)."""
    mine = "\n".join(texts)
    return set(re.findall(r"\((Player#\d+), " + KEY, mine)) | set(re.findall(r"for (Player#\d+) in " + KEY, mine))


def test_a_twelve_seat_cli_game_brought_in_at_turn_3_walked_as_a_gm_lives_it(server, tmp_path):
    t = Table(server, tmp_path)

    async def body():
        await t.bridge.start()
        opening = t.channel()
        assert "**A running game of Protectors of the Realm** (realm) continues here, at turn 3." in opening
        assert re.search(r"^Player#9: Ivy \([a-z ]+\), [A-Za-zá' ]+, team C, AI \(normal -> heuristic\)$", opening,
                         re.M)
        assert re.search(r"^Player#3: Cat \([a-z ]+\), [A-Za-zá' ]+, team A$", opening, re.M)  # no longer an AI's
        assert (f"Note: Player#3 (Cat), played by the game file's AI (heuristic), is <@{user_of(CH, 3)}>'s from now "
                "on, as discord.toml says: they send its decisions by DM from the next step (the AI's decision for "
                "this one stands).") in opening
        assert "nobody can send" not in opening
        view = await t.view()
        assert view["controllers"]["Player#3"] is None and view["controllers"]["Player#9"] == "heuristic"
        assert (view["turn"], view["step"]) == (3, "orders")

        # -- turn 3's orders, as the DMs come in ------------------------------------------------------------------
        cat = await t.dm(3, "Hi GM, Cat here\nnone")  # the file's AI gave this step's orders before the import
        assert cat == ("The AI that played your seat (Player#3, realm) had already decided the orders step before the "
                       "seat was handed to you; nothing was changed. Your DMs count from the next step.")
        (p1, n1), = holdings(view, 1)
        (p2, _n2), = holdings(view, 2)
        wrong = await t.dm(1, f"March! {n1} from {p2} to {p1}")  # not her Province: refused, nothing stored
        assert wrong.startswith("**Nothing was stored.**") and f"✗ `March! {n1} from {p2} to {p1}`" in wrong
        march = f"March! 1 from {p1} to {p2}"
        ann = await t.dm(1, f"Hi GM!\nmarch! 1 from {p1.lower()} to {p2.lower()}\ncheers")
        assert f"**Stored** for Player#1 in realm (orders):\n✓ `{march}`" in ann and "Choices are final" in ann
        assert (await t.dm(1, f"sorry, make that March! 2 from {p1} to {p2}")).startswith(
            "Your decision for this step (Player#1, realm) is already stored; nothing was changed.")
        bob = await t.dm(2, "Bid 10")  # a bid in the orders step
        assert "✗ `Bid 10`: not a choice for the orders step" in bob
        assert "The game now waits for your orders (Player#2, realm)" in bob
        assert "✓ `none`: no orders" in await t.dm(2, "none")
        dov = t.h.chat.dm(user_of(CH, 4), "My orders for turn 3:\nnone")
        await t.bridge.on_dm(dov)
        await t.bridge.on_dm(dov)  # Discord delivers it twice: stored and answered once
        assert len(t.received(4)) == 1 and "**Stored** for Player#4" in t.received(4)[0]
        for no in (5, 6, 7, 10):
            assert f"**Stored** for Player#{no} in realm (orders)" in await t.dm(no, "none")
        assert t.channel() == opening  # eight decisions in: the channel has said nothing of them

        # a reminder names the players still missing: not Cat (her AI's orders stand) nor the AI seat
        deadline = min(p["deadline"] for p in (await t.view())["pending"] if not p["submitted"])
        t.h.now = deadline - 3000
        await t.bridge.tick()
        t.h.now = None
        reminder = t.channel()[len(opening):].strip()
        assert reminder.startswith("⏳ Reminder") and reminder.endswith(
            f"Still missing: <@{user_of(CH, 8)}> (Player#8), <@{user_of(CH, 11)}> (Player#11), "
            f"<@{user_of(CH, 12)}> (Player#12).")

        # Hal is silent: the GM gives his seat to an AI mid-step; his late DM is refused
        assert await t.gm("seat", seat="hal", agent="normal") == (
            "Player#8 (Hal) is now played by AI (normal -> heuristic); the seat keeps its history.")
        assert (await t.dm(SILENT, "sorry I'm late!\nnone")).startswith(
            "Your seat Player#8 in realm is played by an AI now")
        # Kim and Lea stay silent: the GM resolves the step over them
        mark = t.posts()
        assert await t.gm("advance", force=True) == (
            "Step resolved; the rulebook defaults for Player#11 (Kim), Player#12 (Lea).")
        posted = t.channel(mark)
        assert posted.startswith("⏩ The GM resolved the step without waiting: the rulebook defaults for "
                                 "Player#11 (Kim), Player#12 (Lea).\n== Turn 3 ==")
        assert "Played by AI: Cat (heuristic), Hal and Ivy (normal -> heuristic)" in posted
        assert f"- Ann: {march}" in posted  # revealed now, with everyone's orders

        # -- on to turn 4's orders: Cat pools $Realm from Bob, Ann's second DM is refused, Kim and Lea stay silent
        for _ in range(6):
            view = await t.view()
            if (view["turn"], view["step"]) == (4, "orders") or view["over"]:
                break
            step = view["step"]
            mark = t.posts()
            for p in view["pending"]:
                no = int(p["seat"].split("#")[1])
                if p["submitted"] or p["controller"] or no in FORCED:
                    continue
                text = decision(await seat_view(t.bridge, KEY, p["seat"]), p["seat"])
                if step == "consolidation":
                    text = {3: "Hi! Bid 12 (20 from Bob)", 1: "bid 30 for next turn", 4: "Fortify! P19"}.get(no, text)
                answer = await t.dm(no, text)
                if no == 4 and step == "consolidation":  # an order in the Consolidation: refused, then the bid
                    assert "not a choice for the Consolidation step" in answer
                    answer = await t.dm(no, "I bid five")
                assert f"**Stored** for {p['seat']} in realm" in answer, answer
                if no == 1 and step == "consolidation":
                    assert (await t.dm(1, "Bid 40")).startswith("Your decision for this step (Player#1, realm) is "
                                                                "already stored")
            assert "- Bids:" not in t.channel(mark)  # nobody's bid is out before the step resolves
            await t.gm("advance", force=True)
        view = await t.view()
        assert (view["turn"], view["step"]) == (4, "orders")
        bids = next(line for line in t.channel().splitlines() if line.startswith("- Bids:"))
        assert re.search(r"\bAnn 30\b", bids) and re.search(r"\bCat 12\b", bids) and re.search(r"\bDov 5\b", bids)

        # -- Hal comes back at turn 4: he gets the summary of the turn his AI finished -----------------------------
        assert await t.gm("seat", seat="Player#8", agent="human") == (
            f"Player#8 (Hal) is played by a human again: <@{user_of(CH, SILENT)}>.")
        assert t.received(SILENT)[-1].startswith("**Your summary of turn 3** (Player#8, realm, played by AI):")
        # (the GM's forced advance waited for the AI seats: Hal's AI gave turn 4's orders before the hand-back)
        assert (await t.dm(SILENT, "none")).startswith("The AI that played your seat (Player#8, realm) had already "
                                                       "decided the orders step before the seat was handed to you")

        # -- what each player received: only their own seat's answers, balances and summaries ----------------------
        for no in range(1, 13):
            got = t.received(no)
            if no == 9:
                assert got == []  # the AI seat has no player to tell
                continue
            assert seats_named(got) == {f"Player#{no}"}, (no, seats_named(got))
            summaries = [m for m in got if m.startswith("**Your summary of turn")]
            assert [m.split(" (")[0] for m in summaries] == ["**Your summary of turn 3**"], (no, summaries)
            if no != SILENT:
                assert any(m.startswith(f"💰 **Turn 3: Consolidation** (Player#{no}, realm)") for m in got), no
            if no != 1:
                assert march not in "\n".join(got), no  # Ann's orders reached nobody else before the reveal
        assert any(m.startswith("**Your summary of turn 3** (Player#3, realm, partly played by AI):")
                   for m in t.received(3))  # its orders were the file's AI's
        for no in FORCED:
            summary = next(m for m in t.received(no) if m.startswith("**Your summary of turn 3**"))
            assert "Your orders DM for turn 3 was not stored" in summary, summary

        # -- and the channel: public events only ----------------------------------------------------------------------
        text = t.channel()
        for private in ("**Stored**", "**Your summary", "💰", "Balance:", "(20 from", "already stored"):
            assert private not in text, private
        await t.bridge.close_client()

    asyncio.run(body())
