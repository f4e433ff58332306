"""``game.assign`` needs its ``agent``: a call without it never hands an AI seat back to a player by default
(dogfood 2: ``{'seat': 'Player#3', 'controller': None, 'human': True}``); nil or a word for a person does."""

from __future__ import annotations

import asyncio

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


@pytest.mark.parametrize("agent", ["hard", None])
def test_an_eliminated_seat_is_refused_as_regent_seat_refuses_it(tmp_path, agent):
    # game.assign put 'strong' in a seat eliminated turns ago and answered as if it would play; regent seat and the
    # Discord bridge's /regent seat refuse it ("was eliminated: it has no decisions left ...")
    async def made(app):
        position = {
            "turn": 3,
            "provinces": {"P1": {"owner": "Player#1"}, "P2": {"owner": "Player#2"}, "P3": {"owner": "Player#1"}},
            "eliminated": {"Player#3": {"turn": 2, "by": "players"}},
        }
        setup = {
            "board": "ring-3",
            "seed": 9,
            "players": [
                {"seat": "Player#1", "name": "Ann"},
                {"seat": "Player#2", "name": "Ben"},
                {"seat": "Player#3", "name": "Cy"},
            ],
            "position": position,
        }
        g = await app.call("game.create", [{"setup": setup}])
        gm = {"game_id": g["game_id"], "token": g["gm_token"]}
        with pytest.raises(RpcError) as err:
            await app.call("game.assign", [{**gm, "seat": "Cy", "agent": agent}])
        assert err.value.code == "conflict" and err.value.details == {"seat": "Player#3"}
        assert err.value.message == (
            "Player#3 (Cy) was eliminated: it has no decisions left for an AI or a player to make"
        )
        assert (await app.call("game.view", [gm]))["controllers"]["Player#3"] is None
        assert (await app.call("game.assign", [{**gm, "seat": "Ben", "agent": "hard"}]))["controller"] == "strong"

    in_app(made, Store(tmp_path / "g.sqlite"))


def test_a_dm_for_a_seat_its_ai_decided_says_the_ai_did(tmp_path):
    # the DM of a seat whose AI had bid was answered 'Player#2 has already submitted for the bid step', which the GM
    # (or the player, back and given the seat) reads as a DM of the player's; regent adjudicate says who decided
    async def made(app):
        players = [{"name": "Ann"}, {"name": "Ben", "agent": "hard"}, {"name": "Cy"}]
        g = await app.call("game.create", [{"setup": {"board": "ring-3", "seed": 9, "players": players}}])
        gm = {"game_id": g["game_id"], "token": g["gm_token"]}
        for _ in range(300):
            if any(p["submitted"] for p in (await app.call("game.view", [gm]))["pending"]):
                break
            await asyncio.sleep(0.05)
        await app.call("game.assign", [{**gm, "seat": "Ben", "agent": "human"}])  # the player is back mid-step
        said = "Player#2 (Ben) is already in by its AI (hard -> strong) for the bid step; choices are final"
        for token, seat in ((gm["token"], "Ben"), (g["seat_tokens"]["Player#2"], None)):
            with pytest.raises(RpcError) as err:
                await app.call("game.submit", [{**gm, "token": token, "seat": seat, "text": "Bid 3"}])
            assert err.value.code == "conflict" and err.value.message == said
        await app.call("game.submit", [{**gm, "seat": "Ann", "text": "Bid 2"}])
        with pytest.raises(RpcError) as err:  # a player's own second DM: as before
            await app.call("game.submit", [{**gm, "seat": "Ann", "text": "Bid 4"}])
        assert err.value.message == "Player#1 has already submitted for the bid step; choices are final"

    in_app(made, Store(tmp_path / "g.sqlite"))
