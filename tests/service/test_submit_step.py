"""``game.submit``'s optional ``turn`` and ``step``: a DM tied to the step it was written for is never stored as
a later step's decision (dogfood 2: a `none` sent just after the orders step resolved became the Consolidation's
`Bid 0`)."""

from __future__ import annotations

import asyncio

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


def test_a_step_started_guard_tells_a_reopened_step_from_the_one_the_decision_was_for(tmp_path):
    # turn and step alone cannot tell apart two steps of one kind in one turn, or a step game.undo reopened:
    # game.view's step_started can, and a decision (or an advance) for the earlier one stores nothing
    async def body(app, g):
        gm = {"game_id": g["game_id"], "token": g["gm_token"]}
        seat = {"game_id": g["game_id"], "token": g["seat_tokens"]["Player#1"]}
        first = (await app.call("game.view", [seat]))["step_started"]
        await app.call("game.advance", [{**gm, "force": True}])
        await asyncio.sleep(0.01)  # the clock moves on: the reopened step starts later
        await app.call("game.undo", [gm])  # the bid step of turn 1 again
        again = (await app.call("game.view", [seat]))
        assert (again["turn"], again["step"]) == (1, "bid") and again["step_started"] != first
        rows = len(app.games[g["game_id"]].rows)
        with pytest.raises(RpcError) as err:
            await app.call("game.submit", [{**seat, "text": "Bid 2", "turn": 1, "step": "bid", "step_started": first}])
        assert err.value.code == "conflict"
        assert err.value.message.startswith("the game is at turn 1, bid step; this decision was for the turn 1 bid "
                                            f"step that started at {first}")
        assert err.value.details["for_step_started"] == first
        assert err.value.details["step_started"] == again["step_started"]
        with pytest.raises(RpcError) as err:
            await app.call("game.advance", [{**gm, "force": True, "step_started": first}])
        assert err.value.code == "conflict" and "not advancing" in err.value.message
        assert len(app.games[g["game_id"]].rows) == rows  # nothing stored, nothing resolved
        await app.call("game.submit", [{**seat, "text": "Bid 2", "turn": 1, "step": "bid",
                                        "step_started": again["step_started"]}])
        assert len(app.games[g["game_id"]].rows) == rows + 1

    _run(tmp_path, body)


@pytest.mark.parametrize("value", ["soon", float("nan"), float("inf"), True])
def test_a_step_started_guard_that_is_not_a_finite_number_is_invalid_params(tmp_path, value):
    async def body(app, g):
        with pytest.raises(RpcError) as err:
            await app.call("game.submit", [{"game_id": g["game_id"], "token": g["seat_tokens"]["Player#1"],
                                            "text": "Bid 1", "step_started": value}])
        assert err.value.code == "invalid_params" and err.value.details["field"] == "step_started"

    _run(tmp_path, body)


def test_an_unknown_step_guard_on_advance_is_invalid_params_not_a_conflict(tmp_path):
    # game.advance read its step guard unchecked: 'ordres' was a conflict ("not advancing"), as if the game had moved
    async def body(app, g):
        with pytest.raises(RpcError) as err:
            await app.call("game.advance", [{"game_id": g["game_id"], "token": g["gm_token"], "force": True,
                                             "step": "ordres"}])
        assert err.value.code == "invalid_params" and err.value.details["field"] == "step"
        assert app.games[g["game_id"]].game.step == "bid"

    _run(tmp_path, body)
