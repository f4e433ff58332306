"""A long DM with many wrong lines: the answer says how many were refused, not only the ones listed (real service)."""

from __future__ import annotations

import asyncio

from tests.discord.helpers import Harness, game_table, make_config, user_of

CH = 3800


def test_a_refusal_says_how_many_lines_were_refused_beyond_those_listed(server, tmp_path):
    h = Harness(server, make_config({"g": game_table(CH, seats=3)}, tmp_path))

    async def body():
        bridge = h.bridge()
        await bridge.start()
        text = "\n".join(f"Frobnicate P{n} 🐉" for n in range(1, 36))  # 35 lines, none of them a bid
        await bridge.on_dm(h.chat.dm(user_of(CH, 1), text))
        answer = h.chat.dm_texts(user_of(CH, 1))
        listed = answer.count("✗ `Frobnicate")
        assert 0 < listed < 35  # the service lists the first ones
        assert f"…and {35 - listed} more lines refused" in answer, answer[-300:]
        await bridge.close_client()

    asyncio.run(body())


def test_a_dm_the_service_could_not_store_for_now_is_asked_for_again():
    # the service's store refused the write (disk full, database locked): 'unavailable', nothing stored; the player
    # is asked to send the DM again, as for 'internal', never told it was refused for what it says
    from service.client import ServiceError
    from service.discord.answers import refusal

    for code in ("unavailable", "internal", "rate_limited"):
        answer = refusal(ServiceError({"code": code, "message": "the game could not be stored; nothing was changed"}))
        assert answer.startswith("The service could not store your DM") and "please send it again" in answer, code
    assert not refusal(ServiceError({"code": "conflict", "message": "over"})).startswith("The service could not")
