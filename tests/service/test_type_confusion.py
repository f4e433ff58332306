"""Issue 23 item 3: ``internal`` only for a real bug.

Every method the service lists (``methods``: new ones are covered as they land) is sent
type-confused parameters: wrong types at every key, huge integers, deep nesting, NaN, empty and
1 MB strings, bin where str is expected and the reverse, with and without a real game and token.
Every answer is a result or one of the documented error codes, never ``internal``, and a request
answered with an error leaves the stored games exactly as they were. The app runs in-process on
its own event loop with a real SQLite store (the wire layer is fuzzed in test_fuzz.py)."""

from __future__ import annotations

import asyncio
import base64
import reprlib

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.app import App
from service.errors import CODES, INTERNAL, RpcError
from service.hosting import digest
from service.store import Store

# every field name any method takes (a method ignores none of them: unknown ones are invalid_params)
FIELDS = ["game_id", "token", "seat", "text", "decision", "setup", "blob", "since", "turn", "force",
          "expired", "step", "wait", "agent", "format", "kind", "world", "seed", "deck", "attacks", "supply",
          "battle", "declaration", "provinces", "dnpr", "nation", "action", "seconds", "drop", "options",
          "players", "board", "lines", "bid", "orders", "position"]
MB = "x" * (1 << 20)
HUGE = [2**63 - 1, -(2**63), 2**64 - 1, 10**18, -1, 0]


def nested(depth: int, leaf=0):
    value = leaf
    for i in range(depth):
        value = [value] if i % 2 else {"setup": value}
    return value


def build():
    loop = asyncio.new_event_loop()
    app = App(Store(":memory:"), workers=2, expiry_interval=0)
    app_ref = {}

    async def setup():
        app.start()
        g = await app.call("game.create", [{"setup": {"board": "ring-5", "seed": 5, "players": 5,
                                                      "auto_advance": False}}])
        app_ref.update(g)

    loop.run_until_complete(setup())
    return loop, app, app_ref


@pytest.fixture(scope="module")
def env():
    loop, app, game = build()
    methods = loop.run_until_complete(app.call("methods", []))
    yield loop, app, game, methods
    loop.run_until_complete(app.close())
    loop.close()


def hostile(game):
    known = [game["game_id"], game["gm_token"], *game["seat_tokens"].values(), "Player#1", "ring-5", "Bid 3",
             "P1", "bid", "png", "caretaker"]
    leaves = st.one_of(
        st.none(), st.booleans(), st.integers(-(2**63), 2**64 - 1), st.sampled_from(HUGE),
        st.floats(allow_nan=True, allow_infinity=True), st.just(float("nan")),
        st.text(max_size=12), st.just(""), st.just(MB), st.binary(max_size=12), st.just(b""),
        st.sampled_from(known), st.sampled_from(known).map(str.encode),  # bin where str is expected
        st.sampled_from([1, 50, 400, 1000, 5000]).map(nested),
        st.sampled_from([400, 1000, 5000]).map(lambda d: {"x": nested(d)}),
    )
    return st.recursive(leaves, lambda inner: st.lists(inner, max_size=3)
                        | st.dictionaries(st.one_of(st.sampled_from(FIELDS), st.text(max_size=6), st.integers()),
                                          inner, max_size=3), max_leaves=6)


def params_for(game):
    real = st.fixed_dictionaries({}, optional={
        "game_id": st.just(game["game_id"]),
        "token": st.sampled_from([game["gm_token"], *game["seat_tokens"].values()]),
    })
    confused = st.dictionaries(st.sampled_from(FIELDS), hostile(game), max_size=4)
    fields = st.tuples(real, confused).map(lambda rc: {**rc[0], **rc[1]})
    return st.one_of(fields.map(lambda f: [f]), st.just([]), st.lists(fields, min_size=2, max_size=2),
                     hostile(game).map(lambda v: [v]))


def snapshot(app, game):
    hosted = app.games[game["game_id"]]
    meta = msgpack.packb(hosted.meta, use_bin_type=True, default=str)
    return len(app.games), len(hosted.rows), digest(hosted.game), meta


def check(env, method, params):
    loop, app, game, _ = env

    async def once():
        try:
            return None, await app.call(method, params, None)
        except RpcError as err:
            return err, None
        finally:
            for task in list(app.pumps.values()):  # an AI seat assigned by a lucky call decides first
                await asyncio.gather(task, return_exceptions=True)

    before = snapshot(app, game)
    err, _ = loop.run_until_complete(once())
    if err is None:
        return
    assert err.code in CODES and err.code != INTERNAL, f"{method} {reprlib.repr(params)} -> {err.code}: {err.message}"
    assert snapshot(app, game) == before, f"{method} failed with {err.code} but changed the game"


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_every_method_answers_type_confusion_with_documented_codes(env, data):
    _, _, game, methods = env
    method = data.draw(st.sampled_from(methods), label="method")
    check(env, method, data.draw(params_for(game), label="params"))


@pytest.mark.slow
@settings(max_examples=4000, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_every_method_answers_type_confusion_long_run(env, data):
    _, _, game, methods = env
    method = data.draw(st.sampled_from(methods), label="method")
    check(env, method, data.draw(params_for(game), label="params"))


def test_every_method_gets_every_field_wrong(env):
    """Deterministic sweep: each method, each field, each hostile value, beside a real game and token."""
    _, _, game, methods = env
    values = [None, True, -1, 2**64 - 1, float("nan"), "", MB, b"\xff\x00", [], {}, [[[]]], {"a": {"b": 1}},
              nested(60), nested(600), nested(5000), {"x": nested(5000)}, {"setup": {"x": nested(2000)}},
              game["game_id"].encode()]
    bases = [{}, {"game_id": game["game_id"], "token": game["gm_token"]}]  # unknown fields end a call early
    for method in methods:
        for field in FIELDS:
            for value in values:
                for base in bases:
                    check(env, method, [{**base, field: value}])


def _engine_blob(setup, actions) -> bytes:
    return msgpack.packb({"v": 1, "setup": setup, "actions": actions}, use_bin_type=True)


SETUP = {"board": "ring-5", "seed": 1, "players": 5}


@pytest.mark.parametrize("blob, field", [
    (msgpack.packb({"v": 1, "actions": []}), "blob.setup"),
    (_engine_blob(SETUP, [["submit"]]), "blob.actions[0]"),
    (_engine_blob(SETUP, 7), "blob.actions"),
    (_engine_blob(SETUP, [["submit", "Player#1", 5]]), "blob.actions[0][2]"),
    (_engine_blob(SETUP, [["submit", "Player#1", ["Bid 1", 3]]]), "blob.actions[0][2][1]"),
    (_engine_blob(SETUP, [["launch", 1]]), "blob.actions[0][0]"),
    (_engine_blob({**SETUP, "options": "grand"}, []), "blob.setup.options"),
    (msgpack.packb([1, 2]), "blob"),
])
def test_import_validates_the_blob_at_the_edge(env, blob, field):
    loop, app, _, _ = env
    with pytest.raises(RpcError) as err:
        loop.run_until_complete(app.call("game.import", [{"blob": blob}]))
    assert err.value.code == "invalid_params" and err.value.details.get("field") == field, err.value.to_wire()


@pytest.mark.parametrize("options", ["grand", ["version", "grand"], 5])
def test_create_validates_setup_options(env, options):
    loop, app, _, _ = env
    with pytest.raises(RpcError) as err:
        loop.run_until_complete(app.call("game.create", [{"setup": {**SETUP, "options": options}}]))
    assert err.value.code == "invalid_params" and err.value.details["field"] == "setup.options"


def test_import_takes_a_base64_text_blob(env):
    loop, app, game, _ = env

    async def go():
        blob = (await app.call("game.export", [{"game_id": game["game_id"], "token": game["gm_token"]}]))["blob"]
        return await app.call("game.import", [{"blob": base64.b64encode(blob).decode()}])

    copy = loop.run_until_complete(go())
    assert digest(app.games[copy["game_id"]].game) == digest(app.games[game["game_id"]].game)

    async def as_regent_call_prints_it():
        blob = (await app.call("game.export", [{"game_id": game["game_id"], "token": game["gm_token"]}]))["blob"]
        return await app.call("game.import", [{"blob": {"$bytes": base64.b64encode(blob).decode()}}])

    again = loop.run_until_complete(as_regent_call_prints_it())
    assert digest(app.games[again["game_id"]].game) == digest(app.games[game["game_id"]].game)
    with pytest.raises(RpcError) as err:
        loop.run_until_complete(app.call("game.import", [{"blob": "not base64 !"}]))
    assert err.value.code == "invalid_params" and "base64" in err.value.message


SETUP_KEYS = ["rules", "seed", "board", "players", "options", "position", "deadlines", "auto_advance", "expiry",
              "agents"]


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_confused_setups_and_import_records(env, data):
    """The shapes behind game.create's setup and game.import's blob, one level in and deeper."""
    _, _, game, _ = env
    value = hostile(game)
    small = st.one_of(value, st.sampled_from(["ring-5", "ring-4-grand+island", 5, 2, 17, {"version": "grand"}]),
                      st.lists(st.dictionaries(st.sampled_from(["seat", "name", "faction", "team", "start", "agent"]),
                                               value, max_size=3), max_size=6))
    setup = data.draw(st.dictionaries(st.sampled_from(SETUP_KEYS), small, max_size=5), label="setup")
    check(env, "game.create", [{"setup": setup}])
    actions = data.draw(st.one_of(value, st.lists(st.one_of(
        value, st.tuples(st.sampled_from(["submit", "advance"]), value, value).map(list),
        st.tuples(st.just("submit"), st.sampled_from(["Player#1", "Player#9"]),
                  st.lists(st.one_of(value, st.just("Bid 3")), max_size=3)).map(list)), max_size=4)),
        label="actions")
    record = {"v": 1, "setup": {**SETUP, **setup}, "actions": actions}
    try:
        blob = msgpack.packb(record, use_bin_type=True)
    except (OverflowError, ValueError, TypeError):  # not representable in msgpack: no client can send it
        return
    check(env, "game.import", [{"blob": blob}])
