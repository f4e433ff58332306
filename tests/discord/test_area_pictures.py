"""A seat's area of a big board, for a phone (service/discord/areas.py): each player's turn summary DM carries the
picture of their own area at AREA_SEATS seats or more, and a player asks for one by DM (``board me``, ``board Bob``).

Checked on the fake Discord against the real service: the picture goes to its own player only and is the public
board (the channel view the GM's token draws), not the seat's own view; another seat's hidden decision changes no
byte of it; a seat with no human (an AI's) costs no picture; a picture that cannot be drawn holds up no summary and is
told to the GM once; a summary Discord failed is sent again with its picture, once; the option and the threshold turn
it off; asking is never a decision, and a mistyped name is answered with the closest.
"""

from __future__ import annotations

import asyncio

from service.client import ServiceError
from service.discord.areas import AREA_SEATS, area_asked, wants_areas
from service.discord.chat import File
from service.discord.config import ConfigError, parse
from tests.discord.helpers import GM_USER, Harness, gm_command, gm_view, make_config, seat_view, user_of
from tests.discord.test_big_game import decision

CH = 4100
KEY = "area"
NAMES = ["Ann", "Bob", "Cat", "Dov", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lea"]
HUMANS = (1, 2, 3)  # the other seats are AIs: a turn is played in seconds


def table(seats: int = 10, **extra) -> dict:
    spec = {f"Player#{i}": ({"user": user_of(CH, i), "name": NAMES[i - 1]} if i in HUMANS
                            else {"ai": "heuristic", "name": NAMES[i - 1]}) for i in range(1, seats + 1)}
    return {"channel": CH, "board": f"ring-{seats}", "seed": 4, "pictures": False, "expiry": False,
            "seats": spec, **extra}


class Table:
    def __init__(self, server, tmp_path, **extra):
        self.h = Harness(server, make_config({KEY: table(**extra)}, tmp_path))
        self.bridge = self.h.bridge()
        self.renders: list[dict] = []  # each game.render the bot asked for
        rpc = self.bridge.rpc

        async def recorded(method, **fields):
            if method == "game.render":
                self.renders.append({**fields, "locked": self.bridge.lock.locked()})
            return await rpc(method, **fields)

        self.bridge.rpc = recorded

    def dms(self, no: int) -> list:
        return self.h.chat.dms.get(user_of(CH, no), [])

    async def dm(self, no: int, text: str):
        """Player ``no`` DMs ``text``: the messages the bot sent them back."""
        before = len(self.dms(no))
        await self.bridge.on_dm(self.h.chat.dm(user_of(CH, no), text))
        return self.dms(no)[before:]

    async def play_until(self, step: str) -> None:
        """Every human decides each step until ``step`` of this turn is open."""
        for _ in range(12):
            view = await gm_view(self.bridge, KEY)
            if view["step"] == step:
                return
            await self.decide(view)
        raise AssertionError(f"no {step} step")

    async def decide(self, view: dict) -> None:
        for p in view["pending"]:
            no = int(p["seat"].split("#")[1])
            if not p["submitted"] and not p["controller"]:
                said = await self.dm(no, decision(await seat_view(self.bridge, KEY, p["seat"]), p["seat"]))
                if "may not be played this turn" in said[0].text:
                    said = await self.dm(no, "none")
                assert "**Stored**" in said[0].text, said[0].text  # the answer, then what the step's end told

    async def finish_turn(self) -> None:
        """Every human decides each step until the turn is over (the AIs decide on their own)."""
        turn = (await gm_view(self.bridge, KEY))["turn"]
        for _ in range(12):
            view = await gm_view(self.bridge, KEY)
            if view["turn"] > turn or view["over"]:
                return
            await self.decide(view)
        raise AssertionError("the turn did not end")


def summaries(t: Table, no: int, turn: int) -> list:
    return [s for s in t.dms(no) if s.text.startswith(f"**Your summary of turn {turn}**")]


def test_the_threshold_and_the_option():
    def game(seats: int, **extra):
        return parse({"guild": 1, "gm_role": "GM", "games": {"g": table(seats, **extra)}}).games["g"]

    assert AREA_SEATS == 10
    assert not wants_areas(game(9), 9)
    assert wants_areas(game(10), 10) and wants_areas(game(12), 12)
    assert not wants_areas(game(12, area_pictures=False), 12)
    try:
        parse({"guild": 1, "gm_role": "GM", "games": {"g": table(10, area_pictures="yes")}}, "d.toml")
    except ConfigError as err:
        assert str(err) == "d.toml: games.g.area_pictures: must be true or false"
    else:
        raise AssertionError("a non-boolean area_pictures was taken")


def test_what_reads_as_asking_for_a_picture():
    assert area_asked("board") == (None, None)
    assert area_asked("Board me!") == (None, None)
    assert area_asked("my area") == (None, None)
    assert area_asked("  show my map ") == (None, None)
    assert area_asked("board Bob") == ("Bob", None)
    assert area_asked("map of @Bob, radius 2") == ("Bob", "2")
    assert area_asked("board radius: 3") == (None, "3")
    assert area_asked("area Player#2 radius 9") == ("Player#2", "9")
    for decision_dm in ("Bid 3", "Fortify! P2", "board\nBid 3", "Hi GM, board me and Bid 3 please", "boarding P3"):
        assert area_asked(decision_dm) is None, decision_dm


def test_each_summary_carries_its_own_players_public_area(server, tmp_path):
    t = Table(server, tmp_path)

    async def body():
        await t.bridge.start()
        await t.finish_turn()
        asked = list(t.renders)  # the bot's, before the test draws its own below
        gm = t.bridge._gm(KEY)
        pictures = {}
        for no in HUMANS:
            [summary] = summaries(t, no, 1)
            assert summary.file is not None, no
            assert summary.file.name == f"{KEY}-turn1-player{no}-area.png"
            assert summary.file.data.startswith(b"\x89PNG")
            # the public board around the seat: what the GM's token draws in the channel view, not the seat's own
            public = await t.bridge.rpc("game.render", **gm, format="png", kind="board", focus=f"Player#{no}", turn=1)
            assert summary.file.data == public
            pictures[no] = summary.file.data
        assert len(set(pictures.values())) == len(HUMANS)  # each seat's own area
        # each picture went to its own player only: no one else's DMs, and nothing in the channel
        for no in HUMANS:
            files = [s.file.name for s in t.dms(no) if s.file is not None]
            assert files == [f"{KEY}-turn1-player{no}-area.png"], (no, files)
        assert all(p.file is None for p in t.h.chat.posts[CH])
        # no picture drawn for a seat no human plays (the AIs'), one for each human
        assert sorted(r["focus"] for r in asked) == [f"Player#{no}" for no in HUMANS]
        assert all(r["token"] == t.bridge._seat(KEY, r["focus"])["token"] for r in asked)  # their own token
        # drawn before the bridge's lock was taken: no DM waited for them
        assert not any(r["locked"] for r in asked)
        await t.bridge.close_client()

    asyncio.run(body())


def test_asking_by_dm_answers_the_asker_alone_and_stores_nothing(server, tmp_path):
    t = Table(server, tmp_path)

    async def body():
        await t.bridge.start()
        view = await gm_view(t.bridge, KEY)
        assert view["step"] == "bid"
        [mine] = await t.dm(1, "board me")
        assert mine.file is not None and mine.file.name == f"{KEY}-player1-area.png"
        assert mine.text.startswith("🗺️ The area of Player#1 (Ann) in area now") and "nothing was stored" in mine.text
        assert all(s.file is None for no in HUMANS[1:] for s in t.dms(no))  # the asker's alone
        still = {p["seat"]: p["submitted"] for p in (await gm_view(t.bridge, KEY))["pending"]}
        assert still["Player#1"] is False  # asking is no decision

        # Bob's bid, hidden until the step resolves, changes no byte of the picture Ann gets
        said = await t.dm(2, "Bid 2")
        assert "**Stored**" in said[0].text
        [again] = await t.dm(1, "my area")
        assert again.file.data == mine.file.data
        [around_bob] = await t.dm(1, "board Bob, radius 2")
        assert around_bob.file.name == f"{KEY}-player2-area.png" and around_bob.file.data != mine.file.data
        assert around_bob.text.startswith("🗺️ The area of Player#2 (Bob)")

        [typo] = await t.dm(1, "board Bbo")
        assert typo.file is None
        assert typo.text.startswith("No picture: unknown seat 'Bbo' (did you mean Player#2 (Bob)?); seats are "
                                    "Player#1 (Ann), Player#2 (Bob),"), typo.text
        [far] = await t.dm(1, "board me radius 9")
        assert far.file is None and "a whole number from 0 to 4, not '9'" in far.text
        still = {p["seat"]: p["submitted"] for p in (await gm_view(t.bridge, KEY))["pending"]}
        assert still["Player#1"] is False
        # the GM's /regent board with focus: the area, to the GM alone; nothing in the channel
        posted = len(t.h.chat.posts.get(CH, []))
        cmd = t.h.chat.command("board", GM_USER, CH, focus="bob", radius=2)
        await t.bridge.on_command(cmd)
        [gm_answer] = cmd.reply.sent
        assert gm_answer.private and gm_answer.text.startswith("The area of Player#2 (Bob) now, as every player sees")
        assert gm_answer.file.data == around_bob.file.data
        assert len(t.h.chat.posts.get(CH, [])) == posted
        said = await gm_command(t.h, t.bridge, CH, "board", focus="Bbo")
        assert said.startswith("unknown seat 'Bbo' (did you mean Player#2 (Bob)?)") and said.endswith(
            "Nothing was changed."), said
        said = await gm_command(t.h, t.bridge, CH, "board", radius=2)
        assert said == ("radius is for a seat's area: give focus too (Player#N, a display name or a colour). "
                        "Nothing was changed.")
        assert len(t.h.chat.posts.get(CH, [])) == posted
        # the same DM delivered twice by Discord is answered once
        dm = t.h.chat.dm(user_of(CH, 3), "board")
        await t.bridge.on_dm(dm)
        await t.bridge.on_dm(dm)
        assert [s.file.name for s in t.dms(3) if s.file] == [f"{KEY}-player3-area.png"]
        await t.bridge.close_client()

    asyncio.run(body())


def test_a_failed_picture_holds_up_no_summary_and_is_told_to_the_gm_once(server, tmp_path):
    t = Table(server, tmp_path)
    rpc = t.bridge.rpc
    broken = {"on": True}

    async def failing(method, **fields):
        if method == "game.render":
            t.renders.append(fields)
            if fields["focus"] == "Player#3":  # holds no Province, as the service says: no picture, and no notice
                raise ServiceError({"code": "invalid_params", "message": "focus: Cat (#3) holds no Province",
                                    "details": {"field": "focus"}})
            if broken["on"]:
                raise ServiceError({"code": "internal", "message": "internal error (RuntimeError)"})
        return await rpc(method, **fields)

    t.bridge.rpc = failing
    notice = ("could not draw the players' area pictures (internal: internal error (RuntimeError)), so their turn "
              "summaries go out without them")

    async def body():
        await t.bridge.start()
        await t.finish_turn()
        for no in HUMANS:  # every summary went out, without its picture
            [summary] = summaries(t, no, 1)
            assert summary.file is None
        assert t.h.chat.texts(CH).count(notice) == 1  # once, not once per player
        await t.bridge.tick()
        await t.bridge.tick()
        assert t.h.chat.texts(CH).count("could not draw") == 1  # nor at each tick
        assert t.bridge.state.game(KEY)["area_failed"]

        broken["on"] = False  # drawn again: a later failure is told again (Cat's refused focus is no failure)
        await t.finish_turn()
        assert [summaries(t, no, 2)[0].file is not None for no in HUMANS] == [True, True, False]
        assert t.h.chat.texts(CH).count("could not draw") == 1
        assert "area_failed" not in t.bridge.state.game(KEY)

        # a seat eliminated in the turn gets its last summary without a picture, none asked for
        t.renders.clear()
        await t.finish_turn()
        told = {no: summaries(t, no, 3) for no in HUMANS}
        told = {no: got[0] for no, got in told.items() if got}  # a seat out before turn 3 is told nothing more
        out = [no for no, summary in told.items() if "You were eliminated on turn 3" in summary.text]
        assert out, "the cautious players are expected to be out in turn 3 (seed 4)"
        for no, summary in told.items():
            assert (summary.file is None) == (no in out or no == 3), no
        assert not [r for r in t.renders if int(r["focus"].split("#")[1]) in out]
        await t.bridge.close_client()

    asyncio.run(body())


def test_a_summary_discord_failed_goes_again_with_its_picture_once(server, tmp_path):
    t = Table(server, tmp_path)
    bob = user_of(CH, 2)

    async def body():
        await t.bridge.start()
        await t.play_until("consolidation")  # the turn's last step: Bob decides it last, and Discord fails his DMs
        for no in (1, 3):
            await t.dm(no, decision(await seat_view(t.bridge, KEY, f"Player#{no}"), f"Player#{no}"))
        t.h.chat.failing.add(bob)
        await t.bridge.on_dm(t.h.chat.dm(bob, "no purchases, bid 0"))  # the turn ends: Bob's answer and summary fail
        assert (await gm_view(t.bridge, KEY))["turn"] == 2
        assert summaries(t, 2, 1) == [] and summaries(t, 1, 1)[0].file is not None
        assert t.bridge.state.game(KEY)["unsent"]
        await t.bridge.tick()  # still failing: kept
        assert summaries(t, 2, 1) == []
        t.h.chat.failing.discard(bob)
        await t.bridge.tick()
        await t.bridge.tick()
        [summary] = summaries(t, 2, 1)  # once, with its picture
        assert summary.file is not None and summary.file.name == f"{KEY}-turn1-player2-area.png"
        assert [s.file.name for s in t.dms(2) if s.file] == [f"{KEY}-turn1-player2-area.png"]
        assert not t.bridge.state.game(KEY)["unsent"]
        await t.bridge.close_client()

    asyncio.run(body())


def test_no_pictures_when_turned_off(server, tmp_path):
    t = Table(server, tmp_path, area_pictures=False)

    async def body():
        await t.bridge.start()
        await t.finish_turn()
        assert all(summaries(t, no, 1)[0].file is None for no in HUMANS)
        assert t.renders == []
        [answer] = await t.dm(1, "board me")  # asking still draws one: the option is about the summaries
        assert answer.file is not None
        await t.bridge.close_client()

    asyncio.run(body())


def test_a_picture_drawn_ahead_is_void_after_the_gms_undo(server, tmp_path):
    t = Table(server, tmp_path)

    async def body():
        await t.bridge.start()
        await t.finish_turn()
        stale = File("stale.png", b"stale")
        t.bridge._areas_ahead[(KEY, "Player#1", 1)] = (0, stale)
        assert await t.bridge._summary_area(KEY, "Player#1", 1) is stale  # kept: sent as drawn
        t.bridge._areas_ahead[(KEY, "Player#1", 1)] = (0, stale)
        t.bridge._void_areas(KEY)  # as the undo does
        fresh = await t.bridge._summary_area(KEY, "Player#1", 1)
        assert fresh is not None and fresh.name == f"{KEY}-turn1-player1-area.png"
        t.bridge._areas_ahead[(KEY, "Player#2", 1)] = (1, stale)
        assert (await gm_command(t.h, t.bridge, CH, "undo")).startswith("Undone.")
        assert (KEY, "Player#2", 1) not in t.bridge._areas_ahead and t.bridge._area_undos[KEY] == 2
        await t.bridge.close_client()

    asyncio.run(body())


def test_the_bots_radius_limit_is_the_services():
    # the bot may not import service.render (it talks to the service only), so it keeps its own copy of the limit
    from service.discord.areas import MAX_RADIUS as bots
    from service.render.access import MAX_RADIUS as services

    assert bots == services
