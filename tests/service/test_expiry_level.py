"""An expiry fill given as a level (``expiry.fill: normal``) is kept as the agent it resolves to with the level beside
it: the seats it fills are named ``normal -> heuristic`` under Played by AI, as a seat given that level is, and an
exported setup keeps the level."""

from __future__ import annotations

from tests.service.helpers import in_app

PLAYERS = [{"name": "Judy"}, {"name": "Lou"}, {"name": "Max"}]
SETUP = {"board": "ring-3", "seed": 2, "players": PLAYERS, "auto_advance": False}


def test_an_expiry_fill_given_as_a_level_is_named_by_it():
    async def body(app):
        g = await app.call("game.create", [{"setup": {**SETUP, "expiry": {"auto": False, "fill": "normal"}}}])
        gm = {"game_id": g["game_id"], "token": g["gm_token"]}
        advanced = await app.call("game.advance", [{**gm, "expired": True, "force": True}])
        assert "Played by AI: Judy, Lou and Max (normal -> heuristic)" \
            in advanced["report"].splitlines()
        setup = (await app.call("game.export_position", [gm]))["setup"]
        assert setup["expiry"] == {"auto": False, "fill": "heuristic", "level": "normal"}
        again = await app.call("game.create", [{"setup": setup}])  # the exported setup keeps the fill's level
        gm2 = {"game_id": again["game_id"], "token": again["gm_token"]}
        advanced = await app.call("game.advance", [{**gm2, "expired": True, "force": True}])
        assert "Judy, Lou and Max (normal -> heuristic)" in advanced["report"]

    in_app(body)


def test_a_bad_expiry_level_is_invalid_params():
    import pytest

    from service.errors import RpcError

    async def body(app):
        for bad in ({"fill": "heuristic", "level": "bogus"}, {"fill": "default", "level": "normal"}):
            with pytest.raises(RpcError) as err:
                await app.call("game.create", [{"setup": {**SETUP, "expiry": bad}}])
            assert err.value.code == "invalid_params" and "setup.expiry.level" in err.value.message

    in_app(body)
