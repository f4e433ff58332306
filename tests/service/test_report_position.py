"""``game.report`` of a turn before the position a game was set up from (docs/positions.md: the event log is
not carried): refused, saying why, instead of an empty report that reads as "nothing happened"."""

from __future__ import annotations

import pytest

from service.client import ServiceError

POSITION = {"board": "ring-3", "seed": 4, "players": [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cat"}],
            "position": {"turn": 3, "step": "orders"}, "auto_advance": False}


def test_a_turn_before_the_position_is_refused_with_why(client):
    game = client.call("game.create", setup=POSITION)
    gid, gm, tokens = game["game_id"], game["gm_token"], game["seat_tokens"]
    for turn in (1, 2):
        with pytest.raises(ServiceError) as err:
            client.call("game.report", game_id=gid, token=gm, turn=turn)
        assert err.value.code == "invalid_params" and err.value.details["field"] == "turn"
        assert f"turn {turn} predates this game's start" in err.value.message and "turn 3" in err.value.message
        with pytest.raises(ServiceError) as err:  # a seat's own summary of it likewise
            client.call("game.report", game_id=gid, token=tokens["Player#2"], turn=turn, private="Player#2")
        assert "predates" in err.value.message
    # the position's own turn and the game's reports go on as before
    client.call("game.advance", game_id=gid, token=gm, force=True)
    assert "Fortify!" in client.call("game.report", game_id=gid, token=gm, turn=3)["report"]
    assert client.call("game.report", game_id=gid, token=gm, since=0)["report"]


def test_a_game_played_from_turn_1_reports_every_turn(client):
    game = client.call("game.create", setup={**POSITION, "position": None})
    gid, gm = game["game_id"], game["gm_token"]
    client.call("game.advance", game_id=gid, token=gm, force=True)
    assert "predates" not in client.call("game.report", game_id=gid, token=gm, turn=1)["report"]
