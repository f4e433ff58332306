"""The bridge names an AI seat as the GM chose it, from the service's ``controller_labels`` (the bot imports no
service module to work it out): ``/regent status`` says ``AI (steward -> steward-search)``, not
``AI (steward-search)``."""

from __future__ import annotations

from service.discord.commands import status_text
from tests.service.helpers import in_app


def test_status_names_an_ai_seat_by_the_level_the_gm_gave():
    async def body(app):
        g = await app.call("game.create", [{"setup": {"board": "ring-3", "seed": 2, "auto_advance": False,
                                                      "players": [{"name": "Judy"}, {"name": "Lou"}, {"name": "Max"}],
                                                      "agents": {"Lou": "steward", "Max": "heuristic"}}}])
        return await app.call("game.view", [{"game_id": g["game_id"], "token": g["gm_token"]}])

    text = status_text("g", in_app(body), {})
    assert "Player#2 (Lou), AI (steward -> steward-search)" in text and "Player#3 (Max), AI (heuristic)" in text
    assert "AI (steward-search)" not in text
