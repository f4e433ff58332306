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


CAME = ("Nothing has happened since the game was brought in here from a position, at turn 3's orders step (what came "
        "before is not in its record).")


def test_the_report_of_a_game_just_brought_in_says_nothing_has_happened_since(client):
    # game.report straight after a game was set up at a position (or brought in with game.import) was a bare
    # "== Turn 3 ==": an empty report, as if something had been lost (regent report says so under the header)
    from engine.protectors.game import Game
    from service import gamefile

    game = client.call("game.create", setup=POSITION)
    blob = gamefile.dumps(gamefile.GameFile(Game({k: v for k, v in POSITION.items() if k != "auto_advance"})))
    copy = client.call("game.import", blob=blob)
    for g in (game, copy):
        for token in (g["gm_token"], g["seat_tokens"]["Player#2"]):
            for fields in ({}, {"turn": 3}):
                out = client.call("game.report", game_id=g["game_id"], token=token, **fields)
                assert out["report"].splitlines() == ["== Turn 3 ==", CAME], fields
            assert client.call("game.report", game_id=g["game_id"], token=token, since=0)["report"] == ""
    gm = {"game_id": game["game_id"], "token": game["gm_token"]}
    client.call("game.advance", **gm, force=True)
    text = client.call("game.report", **gm, turn=3)["report"]
    assert "Fortify!" in text and "Nothing has happened" not in text  # the turn has its events now


def test_the_report_of_a_turn_nothing_has_happened_in_yet_says_so(client):
    game = client.call("game.create", setup={**POSITION, "position": None})
    out = client.call("game.report", game_id=game["game_id"], token=game["gm_token"])
    assert out["report"].splitlines() == ["== Turn 1 ==", "Nothing has happened yet this turn."]
