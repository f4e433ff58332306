"""Smaller edges of dogfood 2: a seed outside 63 bits, ``step_ai`` with no position, a field name sent as bytes,
a ``game_id`` that is not UTF-8, ``game.report``'s ``since`` with ``turn``, and what the "listening" log line's
``games`` counts."""

from __future__ import annotations

import msgpack
import pytest

from service.app import App
from service.errors import RpcError
from service.store import Store
from tests.service.helpers import in_app


def _run(body, store=None):
    in_app(body, store)


async def _refusal(app, method, fields):
    with pytest.raises(RpcError) as err:
        await app.call(method, [fields])
    return err.value


@pytest.mark.parametrize("seed", [-1, 2**63, 2**64 - 1])
def test_a_seed_outside_63_bits_is_refused_naming_setup_seed(seed):
    async def body(app):
        err = await _refusal(app, "game.create", {"setup": {"board": "ring-3", "seed": seed}})
        assert err.code == "invalid_params" and err.details["field"] == "setup.seed"
        assert "from 0 to 2**63-1" in err.message

    _run(body)


def test_the_largest_63_bit_seed_is_taken():
    async def body(app):
        g = await app.call("game.create", [{"setup": {"board": "ring-3", "seed": 2**63 - 1}}])
        out = await app.call("game.export_position", [{"game_id": g["game_id"], "token": g["gm_token"]}])
        assert out["setup"]["seed"] == 2**63 - 1

    _run(body)


def test_step_ai_without_a_position_is_refused():
    async def body(app):
        err = await _refusal(app, "game.create", {"setup": {"board": "ring-3", "step_ai": {"Player#2": "caretaker"}}})
        assert err.code == "invalid_params" and err.details["field"] == "setup.step_ai"
        assert "has no position" in err.message

    _run(body)


def test_a_field_name_sent_as_bytes_is_named_readably():
    async def body(app):
        g = await app.call("game.create", [{"setup": {"board": "ring-3"}}])
        err = await _refusal(app, "game.view", {"game_id": g["game_id"], "token": g["gm_token"], b"x": 1})
        assert err.code == "invalid_params" and err.details["field"] == "x", err.details
        assert "b'x'" not in err.message
        err = await _refusal(app, "game.create", {"setup": {"board": "ring-3", "options": {b"teams": True}}})
        assert err.code == "invalid_params" and "b'teams'" not in err.message, err.message

    _run(body)


def test_a_game_id_that_is_not_utf8_is_invalid_params():
    # the server reads a str that is not UTF-8 with U+FFFD in place of the bad bytes (service/rpc.py)
    raw = msgpack.packb({"game_id": b"\xff\xfe"}, use_bin_type=False)
    read = msgpack.unpackb(raw, raw=False, unicode_errors="replace")

    async def body(app):
        err = await _refusal(app, "game.view", {**read, "token": "x"})
        assert err.code == "invalid_params" and err.details["field"] == "game_id"

    _run(body)


def test_report_since_with_turn_gives_that_turns_events_from_since_on():
    async def body(app):
        g = await app.call("game.create", [{"setup": {"board": "ring-3", "seed": 3}}])
        gm = {"game_id": g["game_id"], "token": g["gm_token"]}
        for _ in range(3):  # turn 1's bid, orders and Consolidation: turn 2 is open
            await app.call("game.advance", [{**gm, "force": True}])
        whole = (await app.call("game.report", [{**gm, "turn": 1}]))["report"].splitlines()
        since = (await app.call("game.report", [{**gm, "turn": 1, "since": 3}]))["report"].splitlines()
        assert since[0] == "== Turn 1 ==" and since[1:] and "\n".join(since[1:]) in "\n".join(whole)
        assert whole[1] not in since  # the turn's first events, before index 3, are left out
        assert not [line for line in since if "Turn 2" in line]

    _run(body)


def test_load_answers_the_unfinished_games_the_store_holds(tmp_path):
    async def make(app):
        for _ in range(3):
            await app.call("game.create", [{"setup": {"board": "ring-3"}}])

    _run(make, Store(tmp_path / "g.sqlite"))
    app = App(Store(tmp_path / "g.sqlite"), workers=1, expiry_interval=0)
    try:
        assert app.load() == 3 and len(app.games) == 0  # none needs attention at once: none is loaded
    finally:
        app.executor.shutdown()


@pytest.mark.parametrize(("setup", "field"), [
    # Player#2's agent in its players entry and in setup.agents: the entry's won without a word
    ({"players": [{}, {"agent": "random"}, *({} for _ in range(14))], "agents": {"Player#2": "caretaker"}},
     "setup.players[1].agent"),
    # a service key at the top of setup and in setup.options: the top's won without a word
    ({"players": 16, "agents": {"Player#2": "caretaker"}, "options": {"agents": {"Player#2": "random"}}},
     "setup.options.agents"),
    ({"players": 16, "auto_advance": True, "options": {"auto_advance": False}}, "setup.options.auto_advance"),
])
def test_a_setting_given_twice_is_refused_not_one_dropped(setup, field):
    async def body(app):
        err = await _refusal(app, "game.create", {"setup": {"board": "ring-16", **setup}})
        assert err.code == "invalid_params" and err.details["field"] == field and "once" in err.message
        assert await app.live_games() == 0
        once = {**setup, "agents": {"Player#3": "caretaker"}, "options": {}}  # each given once: taken
        g = await app.call("game.create", [{"setup": {"board": "ring-16", **once}}])
        controllers = (await app.call("game.view", [{"game_id": g["game_id"], "token": g["gm_token"]}]))["controllers"]
        assert controllers["Player#3"] == "caretaker"

    _run(body)
