"""The service names an AI seat's agent as the GM chose it: ``game.assign`` with a level stores the agent it resolves
to (``controllers``, ``ai_played``, the action log: what replays) and the level beside it (meta's ``ai_levels``), so
the reports say ``Played by AI: Lou (steward -> steward-search)``, ``game.view``'s ``controller_labels`` lists it,
and ``game.export`` / ``game.import`` / ``game.export_position`` carry it. A stored game from before names the agent
alone."""

from __future__ import annotations

import asyncio

import pytest

from service import gamefile
from service.errors import RpcError
from service.store import Store
from tests.service.helpers import in_app

PLAYERS = [{"name": "Judy"}, {"name": "Lou"}, {"name": "Max"}]
SETUP = {"board": "ring-3", "seed": 2, "players": PLAYERS, "auto_advance": False}


async def _bid_step_in(app, gm) -> dict:
    """The GM's view once the AI seats have decided the bid step (they decide in the background)."""
    for _ in range(300):
        view = await app.call("game.view", [gm])
        if all(p["submitted"] for p in view["pending"] if p["controller"]):
            return view
        await asyncio.sleep(0.05)
    raise AssertionError("the AI seats did not decide")


def test_assign_by_level_labels_the_reports_and_the_view(tmp_path):
    async def body(app):
        g = await app.call("game.create", [{"setup": {**SETUP, "agents": {"Max": "Normal"}}}])
        gm = {"game_id": g["game_id"], "token": g["gm_token"]}
        out = await app.call("game.assign", [{**gm, "seat": "Lou", "agent": "steward"}])
        assert out == {"seat": "Player#2", "controller": "steward-search", "human": False}
        view = await _bid_step_in(app, gm)
        assert view["controllers"] == {"Player#1": None, "Player#2": "steward-search", "Player#3": "heuristic"}
        assert view["controller_labels"] == {"Player#2": "steward -> steward-search", "Player#3": "normal -> heuristic"}
        await app.call("game.submit", [{**gm, "seat": "Judy", "text": "Bid 2"}])
        advanced = await app.call("game.advance", [{**gm, "force": True}])
        line = "Played by AI: Lou (steward -> steward-search), Max (normal -> heuristic)"
        assert line in advanced["report"].splitlines()
        report = await app.call("game.report", [{**gm, "turn": 1}])
        assert line in report["report"].splitlines()
        assert report["played_by_ai"] == {"Player#2": ["steward-search"], "Player#3": ["heuristic"]}  # the agents
        seat = await app.call("game.report", [{"game_id": g["game_id"], "token": g["seat_tokens"]["Player#1"]}])
        assert line in seat["report"].splitlines()
        # an agent's own name: named alone
        await app.call("game.assign", [{**gm, "seat": "Max", "agent": "heuristic"}])
        assert (await app.call("game.view", [gm]))["controller_labels"]["Player#3"] == "heuristic"
        await app.call("game.assign", [{**gm, "seat": "Max", "agent": None}])
        assert "Player#3" not in (await app.call("game.view", [gm]))["controller_labels"]

    in_app(body, Store(tmp_path / "g.sqlite"))


def test_export_import_and_export_position_keep_the_label():
    async def body(app):
        g = await app.call("game.create", [{"setup": {**SETUP, "agents": {"Lou": "steward"}}}])
        gm = {"game_id": g["game_id"], "token": g["gm_token"]}
        await _bid_step_in(app, gm)
        await app.call("game.advance", [{**gm, "force": True}])
        blob = (await app.call("game.export", [gm]))["blob"]
        gf = gamefile.loads(blob)
        assert gf.agents == {"Player#2": "steward-search"}
        assert gf.ai_levels == {"Player#2": {"steward-search": "steward"}}
        made = await app.call("game.import", [{"blob": blob}])
        gm2 = {"game_id": made["game_id"], "token": made["gm_token"]}
        report = await app.call("game.report", [{**gm2, "turn": 1}])
        assert "Played by AI: Lou (steward -> steward-search)" in report["report"].splitlines()
        assert (await app.call("game.view", [gm2]))["controller_labels"] == {"Player#2": "steward -> steward-search"}
        setup = (await app.call("game.export_position", [gm2]))["setup"]
        assert setup["agents"] == {"Player#2": "steward-search"}
        assert setup["ai_levels"] == {"Player#2": {"steward-search": "steward"}}
        again = await app.call("game.create", [{"setup": setup}])
        view = await app.call("game.view", [{"game_id": again["game_id"], "token": again["gm_token"]}])
        assert view["controller_labels"] == {"Player#2": "steward -> steward-search"}

    in_app(body)


def test_a_stored_game_and_a_file_from_before_name_the_agent_alone(tmp_path):
    async def body(app):
        g = await app.call("game.create", [{"setup": {**SETUP, "agents": {"Lou": "steward"}}}])
        gm = {"game_id": g["game_id"], "token": g["gm_token"]}
        await _bid_step_in(app, gm)
        await app.call("game.advance", [{**gm, "force": True}])
        hosted = app.games[g["game_id"]]
        del hosted.meta["ai_levels"]  # a game stored before the levels were kept
        for row, _, _ in hosted.rows:  # and before its rows kept the level each AI decision was made by
            row.pop("level", None)
        report = await app.call("game.report", [{**gm, "turn": 1}])
        assert "Played by AI: Lou (steward-search)" in report["report"].splitlines()
        assert (await app.call("game.view", [gm]))["controller_labels"] == {"Player#2": "steward-search"}
        blob = (await app.call("game.export", [gm]))["blob"]  # a file without ai_levels
        made = await app.call("game.import", [{"blob": blob}])
        report = await app.call("game.report", [{"game_id": made["game_id"], "token": made["gm_token"], "turn": 1}])
        assert "Played by AI: Lou (steward-search)" in report["report"].splitlines()

    in_app(body, Store(tmp_path / "g.sqlite"))


def test_a_bad_setup_levels_map_is_invalid_params():
    async def body(app):
        for bad, why in (({"Lou": "steward"}, "setup.ai_levels: ai_levels must be a map seat -> {agent: level}"),
                         ({"Lu": {"heuristic": "normal"}}, "did you mean Player#2 (Lou)?")):
            with pytest.raises(RpcError) as err:
                await app.call("game.create", [{"setup": {**SETUP, "ai_levels": bad}}])
            assert err.value.code == "invalid_params" and why in err.value.message

    in_app(body)
