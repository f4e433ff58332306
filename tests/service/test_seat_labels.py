"""One reading of a seat's name everywhere (service/seat_names.py): ``game.undo``'s ``drop`` and ``setup.agents`` /
``setup.step_ai`` take a display name as ``game.submit`` and ``game.assign`` do, and a typo is told the closest seat
(dogfood 2: ``drop[0]: unknown seat 'Judy'``; ``setup.agents.Lou: unknown seat``)."""

from __future__ import annotations

import pytest

from service.errors import RpcError
from service.store import Store
from tests.service.helpers import in_app

PLAYERS = [{"name": "Judy"}, {"name": "Lou"}, {"name": "Max"}]


def _run(tmp_path, body):
    in_app(body, Store(tmp_path / "g.sqlite"))


def test_undo_drops_a_seat_named_by_its_display_name(tmp_path):
    async def body(app):
        g = await app.call("game.create", [{"setup": {"board": "ring-3", "seed": 2, "players": PLAYERS}}])
        gm = {"game_id": g["game_id"], "token": g["gm_token"]}
        await app.call("game.submit", [{**gm, "seat": "Judy", "text": "Bid 2"}])
        await app.call("game.advance", [{**gm, "force": True}])
        with pytest.raises(RpcError) as err:
            await app.call("game.undo", [{**gm, "drop": ["Jduy"]}])
        assert err.value.details["field"] == "drop[0]" and "did you mean Player#1 (Judy)?" in err.value.message
        out = await app.call("game.undo", [{**gm, "drop": ["judy"]}])
        assert out["dropped"] == ["Player#1"] and (out["turn"], out["step"]) == (1, "bid")

    _run(tmp_path, body)


def test_setup_agents_and_step_ai_take_display_names(tmp_path):
    async def body(app):
        g = await app.call("game.create", [{"setup": {"board": "ring-3", "seed": 2, "players": PLAYERS,
                                                      "agents": {"Lou": "caretaker"}}}])
        view = await app.call("game.view", [{"game_id": g["game_id"], "token": g["gm_token"]}])
        assert view["controllers"] == {"Player#1": None, "Player#2": "caretaker", "Player#3": None}
        with pytest.raises(RpcError) as err:
            await app.call("game.create", [{"setup": {"board": "ring-3", "players": PLAYERS,
                                                      "agents": {"Luo": "caretaker"}}}])
        assert err.value.details["field"] == "setup.agents.Luo"
        assert "did you mean Player#2 (Lou)?" in err.value.message
        with pytest.raises(RpcError) as err:
            await app.call("game.create", [{"setup": {"board": "ring-3", "players": PLAYERS,
                                                      "agents": {"Lou": "caretaker", "Player#2": "random"}}}])
        assert "names Player#2 again" in err.value.message

    _run(tmp_path, body)
