"""Players' display names the bot does not write: Discord markdown in them (``Sam*``, ``_Ann``, ``a|b``, a backtick)
and mentions (``<@&ID>``, ``<@ID>``, ``@everyone``, ``@here``).

Every post naming a seat (the game's announcement, the step's line, the service's report, the defaults the GM forced,
``/regent status``, ``/regent report``, ``/regent seat``, a player's summary) carried the names as written, so
``<@&555>`` as a name pinged that role and ``<@42>`` that member each time (the adapter lets the bot's own role and
member mentions ping), and a name's ``*`` or ``_`` ran the post's formatting into the next name. The bot writes them
now as plain text (``texts.shown``): each markdown character escaped (Discord shows it as written), each ping broken.
"""

from __future__ import annotations

import asyncio
import re

from service.discord.texts import PINGS, shown
from tests.discord.helpers import Harness, dm_text, gm_command, make_config, seat_view, user_of

CH = 2300
NAMES = ["Sam*", "_Ann", "<@&555>", "@everyone", "a|b", "`x", "~~z", "> q", "||sp", "Bo_b", "@here", "<@42>"]
HOSTILE = [n for n in NAMES if n != "Bo_b"]  # Bo_b: one underscore, read back below as the others


def table() -> dict:
    seats = {f"Player#{i}": {"user": user_of(CH, i), "name": NAMES[i - 1]} for i in range(1, 13)}
    return {"channel": CH, "board": "ring-12", "seed": 3, "pictures": False, "expiry": False, "seats": seats}


def raw_names(text: str) -> list[str]:
    """The names written as they are (their markdown or pings live) in ``text``, once their plain forms are taken
    out; ``> q`` quotes only where a line starts (a report's ``- > q: ...``)."""
    for name in NAMES:
        text = text.replace(shown(name), "")
    quoted = re.search(r"^\s*(-\s+)?>", text, re.MULTILINE)
    return [name for name in NAMES if name in text and name != "> q"] + (["> q"] if quoted else [])


def live_pings(text: str) -> list[str]:
    """The pings in ``text`` other than the members the bot names on purpose (the seats' players)."""
    ours = {f"@{user_of(CH, i)}>" for i in range(1, 13)}
    return [m.group(0) for m in PINGS.finditer(text) if m.group(0) not in ours]


def test_players_names_with_markdown_and_mentions_are_posted_as_plain_text(server, tmp_path):
    h = Harness(server, make_config({"main": table()}, tmp_path))

    async def body():
        bridge = h.bridge()
        await bridge.start()
        replies = []
        for _ in range(8):  # turn 1 to its end: Player#5 (a|b) silent, forced each step
            view = await bridge.rpc("game.view", **bridge._gm("main"), wait=True)
            if view["turn"] > 1:
                break
            for p in view["pending"]:
                if not p["submitted"] and p["seat"] != "Player#5":
                    seat_no = int(p["seat"].split("#")[1])
                    mine = await seat_view(bridge, "main", p["seat"])
                    await bridge.on_dm(h.chat.dm(user_of(CH, seat_no), dm_text(mine, p["seat"])))
            replies.append(await gm_command(h, bridge, CH, "status"))
            replies.append(await gm_command(h, bridge, CH, "advance", force=True))
        assert view["turn"] == 2, view["step"]
        replies.append(await gm_command(h, bridge, CH, "report", turn=1))
        replies.append(await gm_command(h, bridge, CH, "seat", seat="a|b", agent="normal"))
        replies.append(await gm_command(h, bridge, CH, "seat", seat="Player#5", agent="human"))
        replies.append(await gm_command(h, bridge, CH, "seat", seat="nobody", agent="normal"))
        channel = h.chat.texts(CH)
        for name in HOSTILE:  # each name was posted: the test reads what it became
            assert shown(name) in channel, name
        assert "Sam\\*" in channel and "\\_Ann" in channel and "a\\|b" in channel and "\\`x" in channel
        assert raw_names(channel) == [], raw_names(channel)
        assert live_pings(channel) == [], live_pings(channel)
        said = "\n".join(replies)
        assert "unknown seat 'nobody'; seats are Player#1 (Sam\\*)" in said, said
        assert raw_names(said) == [] and live_pings(said) == [], said
        summary = next(s.text for s in h.chat.dms[user_of(CH, 1)] if "Your summary of turn 1" in s.text)
        assert "Bo\\_b" in summary and raw_names(summary) == [], summary
        await bridge.close_client()

    asyncio.run(body())


def test_a_line_or_name_with_a_backtick_is_quoted_whole_in_a_dms_answer(server, tmp_path):
    """The answer quotes each line of a DM as inline code: a backtick in it (a name such as "`x", a player's own)
    ended the code halfway, and the rest of the line ran on as formatting."""
    seats = {
        f"Player#{i}": {"user": user_of(CH + 1, i), "name": name} for i, name in ((1, "Ann"), (2, "`x"), (3, "Cy"))
    }
    table = {"channel": CH + 1, "board": "ring-3", "seed": 3, "pictures": False, "expiry": False, "seats": seats}
    h = Harness(server, make_config({"main": table}, tmp_path))
    user = user_of(CH + 1, 1)

    async def body():
        bridge = h.bridge()
        await bridge.start()
        await bridge.on_dm(h.chat.dm(user, "Snitch `x\nSend 1 to ``x"))  # orders in the bid step: refused
        said = h.chat.last_dm(user)
        assert "✗ `` Snitch `x ``: not a choice" in said and "✗ `Send 1 to ˋˋx`: not a choice" in said, said
        await bridge.close_client()

    asyncio.run(body())
