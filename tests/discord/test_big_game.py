"""A GM's real loop in a big game, walked through the bridge on the fake Discord against the real service.

Twelve seats on the Grand board with the Island, factions and four teams: players DM as they really do
(greetings, capitals, spelled numbers, "here's my stuff"), one of them with closed DMs; a stranger, a second
DM, a DM for the wrong step, a game line naming no game and hostile text are each refused naming what was
wrong; a reminder names only the seats still missing; a silent seat gets an AI mid-step and later goes back
to its player. What each seat and the channel received is checked: nobody sees another seat's decision
before the rules reveal it (rules: 003 "All orders/choices ... will be revealed to all players at the same
time as they are executed"), and nothing private reaches the channel.
"""

from __future__ import annotations

import asyncio
import re

from tests.discord.helpers import Harness, gm_command, gm_view, make_config, seat_view, user_of

CH = 2100
KEY = "big"
NAMES = ["Ann", "Bob", "Cat", "Dov", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lea"]
FACTIONS = ["Hodir", "Kalu'Ak", "Iron Light", "Cenarion", "Lannuvár"]
CLOSED = 4  # Player#4 does not accept DMs: the bot talks to them in a private thread
SILENT = 7  # Player#7 goes quiet in turn 1's orders: the GM puts an AI in the seat
STRANGER = 999_999
TURNS = 3  # turns played to their end


def table() -> dict:
    seats = {f"Player#{i}": {"user": user_of(CH, i), "name": NAMES[i - 1], "team": "ABCD"[(i - 1) % 4]}
             for i in range(1, 13)}
    return {"channel": CH, "board": "ring-12-grand+island", "seed": 3, "pictures": False, "expiry": False,
            "factions": True, "teams": True, "seats": seats}


# turn 1's bids, as the players wrote them (a faction chosen beside each bid)
BIDS = {1: "Hi GM! here's my stuff\nBid: twelve\nHodir please\nthanks",
        2: "bid 5, kalu'ak",
        3: "I bid 3. Iron Light please",
        4: "hello\n\nBID 4\nCENARION",
        5: "Bid 7\nFaction Lannuvár"}
READ = {1: ("Bid 12", "Faction Hodir"), 2: ("Bid 5", "Faction Kalu'Ak"), 3: ("Bid 3", "Faction Iron Light"),
        4: ("Bid 4", "Faction Cenarion"), 5: ("Bid 7", "Faction Lannuvár")}


class Table:
    """The fake Discord and the bot, with what each member received read back."""

    def __init__(self, server, tmp_path):
        self.h = Harness(server, make_config({KEY: table()}, tmp_path))
        self.h.chat.closed.add(user_of(CH, CLOSED))
        self.bridge = self.h.bridge()

    def thread(self) -> int:
        return next(tid for tid, (_ch, user, _name) in self.h.chat.threads.items() if user == user_of(CH, CLOSED))

    def received(self, seat_no: int) -> list[str]:
        """Every message the player of ``Player#seat_no`` got: their DMs, or their private thread's posts."""
        if seat_no == CLOSED:
            return [s.text for s in self.h.chat.posts.get(self.thread(), [])]
        return [s.text for s in self.h.chat.dms.get(user_of(CH, seat_no), [])]

    def last(self, seat_no: int) -> str:
        return self.received(seat_no)[-1]

    def channel(self) -> str:
        return self.h.chat.texts(CH)

    async def dm(self, seat_no: int, text: str) -> str:
        """The player of ``Player#seat_no`` DMs ``text`` (in their thread when their DMs are closed); the answer."""
        user = user_of(CH, seat_no)
        thread = self.thread() if seat_no == CLOSED and self.h.chat.threads else None
        before = len(self.received(seat_no)) if seat_no != CLOSED or self.h.chat.threads else 0
        await self.bridge.on_dm(self.h.chat.dm(user, text, thread_id=thread))
        return "\n".join(self.received(seat_no)[before:])

    async def gm(self, name: str, **options) -> str:
        return await gm_command(self.h, self.bridge, CH, name, **options)

    async def view(self) -> dict:
        return await gm_view(self.bridge, KEY)


def decision(view: dict, seat: str) -> str:
    """A cautious player's DM for the step, from their own view, in their own wording."""
    step = view["step"]
    mine = [(p, pr["units"]) for p, pr in view["provinces"].items() if pr["holder"] == seat and pr["units"] > 0]
    if step in ("bid", "rebid", "bank_bid"):
        return f"Hi GM!\nBid: {min(1, view['players'][seat]['realm'])} $Realm\nthanks"
    if step == "orders":
        return "\n".join(f"fortify! {p.lower()}." for p, _n in mine) or "none"
    if step == "dragon":
        return "I commit " + ", ".join(f"{n} from {p}" for p, n in mine) if mine else "Turn off the lights"
    return "no purchases, bid 0 thanks"


async def everyone_decides(t: Table, skip: tuple[int, ...] = ()) -> None:
    """Each human seat the step waits for DMs its decision; orders a card forbids are sent again as `none`."""
    view = await t.view()
    for p in view["pending"]:
        no = int(p["seat"].split("#")[1])
        if p["submitted"] or p["controller"] or no in skip:
            continue
        answer = await t.dm(no, decision(await seat_view(t.bridge, KEY, p["seat"]), p["seat"]))
        if "may not be played this turn" in answer:  # rules: 003 Restlessness of Spring (no Fortify!)
            answer = await t.dm(no, "none")
        assert f"**Stored** for {p['seat']} in {KEY}" in answer, answer


def test_a_twelve_seat_grand_island_team_game_with_factions_walked_as_a_gm_lives_it(server, tmp_path):
    t = Table(server, tmp_path)

    async def body():
        await t.bridge.start()
        opening = t.channel()
        posted = len(t.h.chat.posts[CH])
        assert "**A new game of Protectors of the Realm** (big)" in opening
        assert "Player#12: Lea (pale blue), team D" in opening

        # -- turn 1, the bids: each as it arrives ------------------------------------------------------------
        for no in (1, 2, 3):
            answer = await t.dm(no, BIDS[no])
            assert all(f"✓ `{line}`" in answer for line in READ[no]) and "Choices are final" in answer
        assert "ignored: line 1 `Hi GM! here's my stuff` (a header)" in t.last(1)
        assert "line 3: left out 'please': a sign-off" in t.last(1)
        assert t.last(2).count("✓") == 2 and "ignored" not in t.last(2)
        answer = await t.dm(4, BIDS[4])  # closed DMs: answered in a private thread, the GM told once
        assert answer.startswith(f"<@{user_of(CH, 4)}> **Stored** for Player#4")
        assert all(f"✓ `{line}`" in answer for line in READ[4])
        assert t.h.chat.dms.get(user_of(CH, 4)) is None
        assert t.channel().count("does not accept DMs from me") == 1
        await t.dm(5, BIDS[5])
        assert all(f"✓ `{line}`" in t.last(5) for line in READ[5])

        # the refusals, each naming what was wrong; none stores anything
        await t.bridge.on_dm(t.h.chat.dm(STRANGER, "hi! Bid 3 please"))
        assert t.h.chat.last_dm(STRANGER).startswith("You have no seat in a Regent game on this server")
        assert (await t.dm(2, "Bid 9, Hodir")).startswith(  # a second DM: choices are final
            "Your decision for this step (Player#2, big) is already stored; nothing was changed.")
        wrong = await t.dm(6, "Fortify! P18")
        assert "✗ `Fortify! P18`: not a choice for the bid step" in wrong
        assert "The game now waits for your Protector Ranking bids (Player#6, big)" in wrong
        assert (await t.dm(8, "game: bigg\nBid 8")).startswith("You have no seat in a game called 'bigg'")
        for hostile in ("\x00\x00", "a" * 4000, "```", "@everyone", "Bid -3", "Bid 99999999999999999999"):
            assert "Nothing was stored" in await t.dm(9, hostile)
        assert (await t.dm(9, "")) == "Your message has no orders in it: send your decision as text."
        for no in range(6, 12):
            answer = await t.dm(no, f"Bid {no}\n{FACTIONS[no % 5]}")
            assert f"✓ `Bid {no}`" in answer

        # eleven bids in: the channel has said nothing of them, and no seat has seen another's answer
        since = [p.text for p in t.h.chat.posts[CH][posted:]]
        assert len(since) == 1 and "does not accept DMs from me" in since[0]
        assert t.channel().startswith(opening)
        await t.dm(12, "Bid 12\nCenarion")
        text = t.channel()
        bids = next(line for line in text.splitlines() if line.startswith("- Bids:"))
        for no, amount in ((1, 12), (2, 5), (3, 3), (4, 4), (5, 7), (6, 6), (9, 9), (12, 12)):
            assert re.search(rf"\b{NAMES[no - 1]} {amount}\b", bids), (no, bids)
        # Ann and Lea tied at 12: they alone re-bid (rules: 003 Protector Ranking, ties bid again)
        assert "**Turn 1: re-bids** from Player#1 (Ann), Player#12 (Lea)," in text
        assert (await t.dm(5, "Bid 20")).startswith("Nothing is pending for you (Player#5) in big right now")
        assert "✓ `Bid 13`" in await t.dm(1, "rebid 13")
        assert "- Bids:" not in t.channel()[len(text):]  # Ann's re-bid stays hers until Lea's is in
        assert "✓ `Bid 2`" in await t.dm(12, "2")
        assert "**Turn 1: orders**" in t.channel()

        # -- turn 1, the orders: a look told privately, a reminder, a silent seat given to an AI ---------------
        kaluak = [no for no in range(1, 13) if "Kalu'Ak" in (await t.view())["players"][f"Player#{no}"]["faction"]]
        assert 2 in kaluak
        for no in range(1, 13):  # rules: 003 Kalu'Ak, Weather forecast: its holder alone sees the card
            looked = any("**Your look for the orders of turn 1**" in m for m in t.received(no))
            assert looked == (no in kaluak), no
        await everyone_decides(t, skip=tuple(range(SILENT, 13)))
        view = await t.view()
        deadline = min(p["deadline"] for p in view["pending"] if not p["submitted"])
        t.h.now = deadline - 3000
        await t.bridge.tick()
        t.h.now = None
        reminder = [p.text for p in t.h.chat.posts[CH] if p.text.startswith("⏳ Reminder")][-1]
        for no in range(1, 13):
            assert (f"<@{user_of(CH, no)}> (Player#{no})" in reminder) == (no >= SILENT), (no, reminder)
        reply = await t.gm("seat", seat="Gus", agent="normal")
        assert reply == "Player#7 (Gus) is now played by AI (normal -> heuristic); the seat keeps its history."
        assert reply in t.channel()
        assert t.last(SILENT) == ("The GM put an AI in your seat Player#7 (Gus) in big: it makes the seat's decisions "
                                  "from now on, and I take none from you for it until the GM gives it back to you. You "
                                  "will then get the summaries of the turns it played.")
        late = await t.dm(SILENT, "sorry for the delay!\nFortify! P12")
        assert late.startswith("Your seat Player#7 in big is played by an AI now") and "nothing was stored" in late
        await everyone_decides(t)
        assert "Played by AI: Gus (normal -> heuristic)" in t.channel()  # as the GM chose it

        # -- on to the end of turn 3; Gus goes back to his player as turn 3 begins -------------------------------
        for _ in range(40):
            view = await t.view()
            if view["over"] or view["turn"] > TURNS:
                break
            if view["turn"] == 3 and (await t.bridge.rpc("game.view", **t.bridge._gm(KEY)))["controllers"].get(
                    f"Player#{SILENT}"):
                reply = await t.gm("seat", seat=f"Player#{SILENT}", agent="human")
                assert reply == f"Player#7 (Gus) is played by a human again: <@{user_of(CH, SILENT)}>."
                back = t.received(SILENT)[-3:]
                assert back[0] == ("The GM gave you the seat Player#7 (Gus) in big: send me its decisions by DM. "
                                   "The channel says which step is open.")
                # Gus bid for turn 1 himself, the AI did the rest of it and all of turn 2
                assert [m.split("\n")[0] for m in back[1:]] == [
                    "**Your summary of turn 1** (Player#7, big, partly played by AI):",
                    "**Your summary of turn 2** (Player#7, big, played by AI):"]
            await everyone_decides(t)
        view = await t.view()
        assert view["turn"] > TURNS or view["over"]
        finished = range(1, TURNS + 1)

        # -- what each seat received ---------------------------------------------------------------------------
        # Gus's AI may have decided turn 3's first step before the GM gave the seat back (it decides in the
        # background): the service's record says, and the summary then says the AI played part of that turn
        back_turn = await t.bridge.rpc("game.report", **t.bridge._gm(KEY), turn=3, private=f"Player#{SILENT}")
        back_note = ", partly played by AI" if back_turn["played_by_ai"] else ""
        for no in range(1, 13):
            mine = "\n".join(t.received(no))
            seats = set(re.findall(r"\((Player#\d+), big", mine)) | set(re.findall(r"for (Player#\d+) in big", mine))
            assert seats == {f"Player#{no}"}, (no, seats)  # only its own answers, looks, balances, summaries
            for turn in finished:
                note = ({1: ", partly played by AI", 2: ", played by AI", 3: back_note}.get(turn, "")
                        if no == SILENT else "")
                assert f"**Your summary of turn {turn}** (Player#{no}, big{note}):" in mine, (no, turn)
                assert mine.count(f"**Your summary of turn {turn}**") == 1
        assert t.h.chat.dms.get(user_of(CH, CLOSED)) is None  # all of Player#4's went to the thread

        # -- what the channel received: public events only ------------------------------------------------------
        text = t.channel()
        for private in ("**Stored**", "**Your summary", "💰", "👁", "Your look", "the top card of", "Balance:"):
            assert private not in text, private
        assert text.count("Played by AI: none") >= 2 and "Player#7 (Gus) is played by a human again" in text
        for turn in finished:
            assert f"== Turn {turn} ==" in text
        await t.bridge.close_client()

    asyncio.run(body())
