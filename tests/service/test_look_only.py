"""A DM of only looks at the decks (Weather forecast, Palantír) acts at once and is not yet the seat's orders: the
answer says so in ``warnings`` (dogfood 2: a bot read the plain ``accepted`` as "orders in"), and the card seen is
in the seat's view (``peeks``) and log (``peek``), as docs/service.md says."""

from __future__ import annotations

import asyncio

from service.app import App
from service.hosting import LOOKS_ONLY

SETUP = {"board": "ring-3", "seed": 3, "options": {"factions": True},
         "players": [{"faction": "Kalu'Ak"}, {"faction": "Hodir"}, {"faction": "Cenarion"}]}


def test_a_look_only_dm_warns_that_the_orders_are_still_to_come():
    async def go():
        app = App(None, workers=2, expiry_interval=0)
        app.start()
        try:
            g = await app.call("game.create", [{"setup": SETUP}])
            for n in (1, 2, 3):
                await app.call("game.submit", [{"game_id": g["game_id"], "token": g["seat_tokens"][f"Player#{n}"],
                                                "text": f"Bid {n}"}])
            me = {"game_id": g["game_id"], "token": g["seat_tokens"]["Player#1"]}
            assert (await app.call("game.view", [me]))["step"] == "orders"
            answer = await app.call("game.submit", [{**me, "text": "Weather forecast: There be Dragons?"}])
            assert answer["accepted"] == ["Weather forecast: There be Dragons?"]
            assert answer["warnings"] == [LOOKS_ONLY]
            assert "your orders for this step are still to come" in LOOKS_ONLY
            view = await app.call("game.view", [me])
            assert [p["submitted"] for p in view["pending"]] == [False]
            seen = [p["card"] for p in view["peeks"]]
            log = [e["data"]["card"] for e in (await app.call("game.log", [me]))["events"] if e["kind"] == "peek"]
            assert len(seen) == 2 and log == seen  # the Event card and the There be Dragons? card
            answer = await app.call("game.submit", [{**me, "text": "none"}])  # now the orders: no warning
            assert "warnings" not in answer
        finally:
            await app.close()

    asyncio.run(go())


def test_the_discord_bot_says_it_in_players_words_not_the_services():
    from service.discord.bridge import Bridge

    text = Bridge._accepted(None, "g", "Player#1", "orders", {"accepted": ["Palantír Sea"], "warnings": [LOOKS_ONLY]})
    assert "game.view" not in text
