"""game.export carries the GM's hand on the clock: a step game.undo held, a paused clock, an extension. The game
file brought back with game.import waits as the exported game did (it used to resolve the held step by itself at
once, the way the undo had just rolled back, and to start its deadlines running)."""

from __future__ import annotations

import msgpack
import pytest

from tests.service.helpers import error_of


def held_game(client):
    """A 3-seat game whose bid step game.undo has reopened with every bid in (held: it waits for the GM)."""
    g = client.call("game.create", setup={"board": "ring-3", "players": 3, "seed": 5})
    gid, gm = g["game_id"], g["gm_token"]
    for i, token in enumerate(g["seat_tokens"].values(), 1):
        client.call("game.submit", game_id=gid, token=token, text=f"Bid {i}")
    assert client.call("game.view", game_id=gid, token=gm, wait=True)["step"] == "orders"
    client.call("game.undo", game_id=gid, token=gm)
    return gid, gm


def imported(client, blob):
    g = client.call("game.import", blob=blob)
    return g["game_id"], g["gm_token"]


def test_an_imported_game_keeps_the_held_step_and_the_clock(client):
    gid, gm = held_game(client)
    client.call("game.deadline", game_id=gid, token=gm, action="extend", seconds=3600)
    client.call("game.deadline", game_id=gid, token=gm, action="pause")
    clock = client.call("game.view", game_id=gid, token=gm, wait=True)["clock"]
    assert clock["held"] and clock["paused"]
    new_id, new_gm = imported(client, client.call("game.export", game_id=gid, token=gm)["blob"])
    view = client.call("game.view", game_id=new_id, token=new_gm, wait=True)
    assert view["step"] == "bid"  # held: not resolved by itself again
    assert view["clock"]["held"] and view["clock"]["paused"] and view["clock"]["shift"] >= 3600
    client.call("game.deadline", game_id=new_id, token=new_gm, action="resume")
    assert client.call("game.advance", game_id=new_id, token=new_gm)["pending"][0]["kind"] == "orders"


def test_a_game_exported_without_clock_changes_imports_as_before(client):
    g = client.call("game.create", setup={"board": "ring-3", "players": 3, "seed": 5})
    new_id, new_gm = imported(client, client.call("game.export", game_id=g["game_id"], token=g["gm_token"])["blob"])
    assert client.call("game.view", game_id=new_id, token=new_gm)["clock"] == {
        "paused": False,
        "shift": 0.0,
        "held": False,
    }


@pytest.mark.parametrize(
    "bad",
    [
        5,
        {"held": 1},
        {"paused": "yes"},
        {"extra": float("nan")},
        {"extra": -5},
        {"extra": "x"},
        {"when": True},
        {"held": True},
        {"actions": -1, "held": True},
    ],
)
def test_a_hostile_clock_in_the_file_is_refused_naming_it(client, bad):
    gid, gm = held_game(client)
    data = msgpack.unpackb(client.call("game.export", game_id=gid, token=gm)["blob"], raw=False)
    data["service"]["clock"] = bad
    err = error_of(client, "game.import", blob=msgpack.packb(data, use_bin_type=True))
    assert err.code == "invalid_params" and "service.clock" in err.message, err.message


def test_a_file_whose_game_went_on_elsewhere_is_not_held_again(client):
    """The clock is for the step the file was written in: a tool that resolved a step in the file since then
    (regent adjudicate) started another, which runs on the rulebook's clock."""
    gid, gm = held_game(client)
    data = msgpack.unpackb(client.call("game.export", game_id=gid, token=gm)["blob"], raw=False)
    data["service"]["clock"]["actions"] -= 1
    new_id, new_gm = imported(client, msgpack.packb(data, use_bin_type=True))
    view = client.call("game.view", game_id=new_id, token=new_gm, wait=True)
    assert view["step"] == "orders" and not view["clock"]["held"]
