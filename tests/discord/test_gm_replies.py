"""What the channel sees of the GM's /regent commands (real service): the bot's own post, once, and no ping.

An interaction's answer that is not private is a message in the channel, there for every member. The commands whose
outcome the bot posts in the channel itself (seat, deadline, advance, undo, board) and status (which names each
waiting member) answer the GM alone: the channel gets each outcome once, and a status check pings nobody."""

from __future__ import annotations

import asyncio
import re

import pytest

from tests.discord.helpers import GM_USER, Harness, dm_text, game_table, gm_command, make_config, seat_view, user_of

CH = 4300


def seen_in_channel(h: Harness, replies: list) -> list[str]:
    """Every message the channel's members see: the bot's posts and the GM's answers that are not private."""
    return [s.text for s in h.chat.posts.get(CH, [])] + [s.text for r in replies for s in r.sent if not s.private]


def test_the_gms_commands_are_seen_once_in_the_channel_and_status_pings_nobody(server, tmp_path):
    h = Harness(server, make_config({"g": game_table(CH)}, tmp_path))

    async def body():
        bridge = h.bridge()
        await bridge.start()
        replies = []

        async def gm(name, **options):
            cmd = h.chat.command(name, GM_USER, CH, **options)
            await bridge.on_command(cmd)
            replies.append(cmd.reply)
            return cmd.reply

        view = await bridge.rpc("game.view", **bridge._gm("g"), wait=True)
        for no in (1, 2, 3):
            seat = f"Player#{no}"
            await bridge.on_dm(h.chat.dm(user_of(CH, no), dm_text(await seat_view(bridge, "g", seat), seat)))
        status = await gm("status")
        assert f"<@{user_of(CH, 4)}>" in status.text()  # the GM sees who is missing ...
        assert all(s.private for s in status.sent)  # ... and nobody is pinged for it
        await gm("deadline pause")
        await gm("deadline resume")
        await gm("deadline extend", hours=2)
        await gm("seat", seat="Player#5", agent="normal")
        await gm("seat", seat="Player#5", agent="human")
        await gm("advance", force=True)
        await gm("undo")
        report = await gm("report", turn=1)  # the public report is for everyone
        assert not any(s.private for s in report.sent)
        seen = seen_in_channel(h, replies)
        for told in (
            "deadline is paused",
            "deadline is running again",
            "deadline is extended by 2 h",
            "Player#5 (Black) is now played by AI",
            "Player#5 (Black) is played by a human again",
            "rulebook defaults for Player#4",
            "rolled the last resolved step back",
        ):
            assert sum(told in text for text in seen) == 1, (told, [t for t in seen if told in t])
        pings = [
            t
            for r in replies
            if r is not report
            for s in r.sent
            if not s.private
            for t in re.findall(r"<@\d+>", s.text)
        ]
        assert pings == []
        assert view["turn"] == 1
        await bridge.close_client()

    asyncio.run(body())


def test_advance_while_players_are_missing_names_them_and_says_how_to_force(server, tmp_path):
    h = Harness(server, make_config({"g": game_table(CH + 1)}, tmp_path))

    async def body():
        bridge = h.bridge()
        await bridge.start()
        for no in (1, 3, 5):
            seat = f"Player#{no}"
            await bridge.on_dm(h.chat.dm(user_of(CH + 1, no), dm_text(await seat_view(bridge, "g", seat), seat)))
        cmd = h.chat.command("advance", GM_USER, CH + 1)
        await bridge.on_command(cmd)
        answer = cmd.reply.text()
        assert "Player#2 (Red), Player#4 (Gold)" in answer, answer  # who, by name, in seat order
        assert "/regent advance force" in answer, answer  # what to write instead
        view = await bridge.rpc("game.view", **bridge._gm("g"))
        assert (view["turn"], view["step"]) == (1, "bid")  # nothing resolved
        await bridge.close_client()

    asyncio.run(body())


def test_undo_names_the_seats_that_may_now_decide_in_seat_order(server, tmp_path):
    channel = CH + 2
    h = Harness(server, make_config({"g": game_table(channel)}, tmp_path))

    async def body():
        bridge = h.bridge()
        await bridge.start()

        async def send(seats):
            for no in seats:
                seat = f"Player#{no}"
                await bridge.on_dm(h.chat.dm(user_of(channel, no), dm_text(await seat_view(bridge, "g", seat), seat)))

        async def gm(name, **options):
            return await gm_command(h, bridge, channel, name, **options)

        await send(range(1, 6))  # Player#N bids N: the ranking runs Player#5 first, Player#1 last
        if (await bridge.rpc("game.view", **bridge._gm("g"), wait=True))["step"] == "bid":
            await gm("advance")
        view = await bridge.rpc("game.view", **bridge._gm("g"), wait=True)
        assert view["step"] == "orders"
        await send((1, 3, 5))
        await gm("advance", force=True)
        undone = await gm("undo")
        assert "Player#2 (Red), Player#4 (Gold) may now send" in undone, undone
        await bridge.close_client()

    asyncio.run(body())


def test_seat_with_a_typed_name_or_an_unknown_ai_says_what_to_write(server, tmp_path):
    channel = CH + 3
    h = Harness(server, make_config({"g": game_table(channel)}, tmp_path))

    async def body():
        bridge = h.bridge()
        await bridge.start()

        async def gm(**options):
            cmd = h.chat.command("seat", GM_USER, channel, **options)
            await bridge.on_command(cmd)
            return cmd.reply.text()

        typed = await gm(seat="Player#2", agent="@Red")  # the name typed, not the member picked from Discord's list
        assert "'@Red' is not a Discord mention" in typed and "user id" in typed and "`human`" in typed, typed
        typo = await gm(seat="Player#2", agent="hardd")
        assert "did you mean hard?" in typo and "`human`" in typo and "@member" in typo, typo
        view = await bridge.rpc("game.view", **bridge._gm("g"))
        assert not any((view.get("controllers") or {}).values())  # nothing changed
        assert h.chat.posts[channel][-1].text.startswith("**Turn 1")  # the channel heard nothing
        await bridge.close_client()

    asyncio.run(body())


def test_a_seat_command_with_a_pasted_option_is_answered_within_discords_limit(server, tmp_path):
    """A command's option holds up to 6,000 characters: the bot quoted the GM's seat or agent back whole, and its
    answer of over 2,000 characters was refused by Discord, so the GM, kept waiting on "thinking...", got none."""
    channel = CH + 4
    h = Harness(server, make_config({"g": game_table(channel)}, tmp_path))

    async def body():
        bridge = h.bridge()
        await bridge.start()
        pasted = "Player#2 " + "x" * 3000
        for options in ({"seat": pasted, "agent": "normal"}, {"seat": "Player#2", "agent": "@" + pasted}):
            said = await gm_command(h, bridge, channel, "seat", **options)  # the fake refuses what Discord would
            assert said.startswith(("unknown seat 'Player#2 xxx", "'@Player#2 xxx")), said[:200]
            assert "... (" in said and "more characters)" in said and len(said) < 1000, said[:200]
            assert said.endswith("Nothing was changed."), said[-200:]
        view = await bridge.rpc("game.view", **bridge._gm("g"))
        assert not any((view.get("controllers") or {}).values())
        await bridge.close_client()

    asyncio.run(body())


def test_a_capitalised_ai_level_is_that_level(server, tmp_path):
    """``Expert`` (a phone's keyboard capitalises the option) was refused with "did you mean expert?"; a level is read
    whatever its case, and the channel names it as the level it is."""
    channel = CH + 5
    h = Harness(server, make_config({"g": game_table(channel)}, tmp_path))

    async def body():
        bridge = h.bridge()
        await bridge.start()
        said = await gm_command(h, bridge, channel, "seat", seat="Player#2", agent=" Normal ")
        assert "is now played by AI (normal -> " in said, said
        view = await bridge.rpc("game.view", **bridge._gm("g"))
        assert view["controllers"]["Player#2"] == "heuristic"
        await bridge.close_client()

    asyncio.run(body())


def test_a_seat_guessed_by_its_colour_says_so():
    # 'Zed' is one letter off Player#3's colour red: "(did you mean Player#3 (Cat)?)" read as a wild guess
    from service.discord.seat_command import seat_named

    view = {"players": {"Player#1": {"name": "Ann"}, "Player#2": {"name": "Bob"}, "Player#3": {"name": "Cat"}},
            "colours": {"Player#1": "blue", "Player#2": "green", "Player#3": "red"}}
    with pytest.raises(ValueError, match=r"did you mean Player#3 \(Cat\), whose colour is red\?"):
        seat_named(view, "Zed")
    with pytest.raises(ValueError) as err:
        seat_named(view, "Bbo")
    assert "(did you mean Player#2 (Bob)?)" in str(err.value)
