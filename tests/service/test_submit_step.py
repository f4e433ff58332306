"""``game.submit``'s optional ``turn`` and ``step``: a DM tied to the step it was written for is never stored as
a later step's decision (dogfood 2: a `none` sent just after the orders step resolved became the Consolidation's
`Bid 0`)."""

from __future__ import annotations

import pytest

from service.errors import RpcError
from service.store import Store
from tests.service.helpers import in_app

SETUP = {"board": "ring-3", "players": 3, "seed": 4}


def _run(tmp_path, body):
    async def made(app):
        await body(app, await app.call("game.create", [{"setup": SETUP}]))

    in_app(made, Store(tmp_path / "g.sqlite"))


def test_a_submit_for_a_step_no_longer_open_is_a_conflict_and_stores_nothing(tmp_path):
    async def body(app, g):
        gm = {"game_id": g["game_id"], "token": g["gm_token"]}
        await app.call("game.advance", [{**gm, "force": True}])  # the bid step: now the orders step
        rows = len(app.games[g["game_id"]].rows)
        with pytest.raises(RpcError) as err:
            await app.call("game.submit", [{"game_id": g["game_id"], "token": g["seat_tokens"]["Player#1"],
                                            "text": "none", "turn": 1, "step": "bid"}])
        assert err.value.code == "conflict"
        assert err.value.message == ("the game is at turn 1, orders step; this decision was for the turn 1 bid step: "
                                     "nothing was stored")
        assert err.value.details["step"] == "orders" and err.value.details["for_step"] == "bid"
        assert len(app.games[g["game_id"]].rows) == rows
        with pytest.raises(RpcError) as err:  # a later turn, the GM's token, the step alone
            await app.call("game.submit", [{**gm, "seat": "Player#1", "text": "none", "turn": 2}])
        assert err.value.code == "conflict"
        await app.call("game.submit", [{"game_id": g["game_id"], "token": g["seat_tokens"]["Player#1"],
                                        "text": "none", "turn": 1, "step": "orders"}])  # the step open: stored
        assert len(app.games[g["game_id"]].rows) == rows + 1

    _run(tmp_path, body)


def test_an_unknown_step_guard_is_invalid_params(tmp_path):
    async def body(app, g):
        with pytest.raises(RpcError) as err:
            await app.call("game.submit", [{"game_id": g["game_id"], "token": g["seat_tokens"]["Player#1"],
                                            "text": "Bid 1", "step": "bidding"}])
        assert err.value.code == "invalid_params" and err.value.details["field"] == "step"
        assert "one of bid, rebid, bank_bid, orders" in err.value.message

    _run(tmp_path, body)
