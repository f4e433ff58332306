"""``game.assign`` needs its ``agent``: a call without it never hands an AI seat back to a player by default
(dogfood 2: ``{'seat': 'Player#3', 'controller': None, 'human': True}``); nil or a word for a person does."""

from __future__ import annotations

import pytest

from service.errors import RpcError
from service.store import Store
from tests.service.helpers import in_app


def _run(tmp_path, body):
    async def made(app):
        setup = {"board": "ring-3", "seed": 9, "agents": {"Player#3": "heuristic"}}
        g = await app.call("game.create", [{"setup": setup}])
        await body(app, {"game_id": g["game_id"], "token": g["gm_token"]})

    in_app(made, Store(tmp_path / "g.sqlite"))


def test_assign_without_agent_is_refused_and_leaves_the_ai_seat(tmp_path):
    async def body(app, gm):
        with pytest.raises(RpcError) as err:
            await app.call("game.assign", [{**gm, "seat": "Player#3"}])
        assert err.value.code == "invalid_params" and err.value.details["field"] == "agent"
        assert "nil (or 'human')" in err.value.message
        assert (await app.call("game.view", [gm]))["controllers"]["Player#3"] == "heuristic"

    _run(tmp_path, body)


@pytest.mark.parametrize("agent", [None, "human", " Human ", "none"])
def test_nil_or_a_word_for_a_person_gives_the_seat_back(tmp_path, agent):
    async def body(app, gm):
        out = await app.call("game.assign", [{**gm, "seat": "Player#3", "agent": agent}])
        assert out == {"seat": "Player#3", "controller": None, "human": True}
        assert (await app.call("game.view", [gm]))["controllers"]["Player#3"] is None

    _run(tmp_path, body)
