"""The service names who played each turn as the GM chose it then: a seat given ``normal`` (heuristic) in turn 1, given
back to its player and then ``heuristic`` by name is ``normal -> heuristic`` in turn 1's report, ``heuristic`` in the
later turn's; ``game.view``'s ``played_by_labels`` and ``game.export`` (the file's ``ai_history``) say both."""

from __future__ import annotations

import asyncio

import pytest

from service import gamefile
from service.ai import agent_labels
from tests.service.helpers import in_app

PLAYERS = [{"name": "Judy"}, {"name": "Lou"}, {"name": "Max"}]
SETUP = {"board": "ring-3", "seed": 2, "players": PLAYERS, "auto_advance": False}


async def _ai_in(app, gm) -> None:
    """Until the AI seats have decided the open step (they decide in the background)."""
    for _ in range(300):
        view = await app.call("game.view", [gm])
        if all(p["submitted"] for p in view["pending"] if p["controller"]):
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the AI seats did not decide")


async def _force_to(app, gm, turn: int) -> None:
    while (await app.call("game.view", [gm]))["turn"] < turn:
        await _ai_in(app, gm)
        await app.call("game.advance", [{**gm, "force": True}])


def test_each_turns_report_names_the_level_it_was_played_by():
    async def body(app):
        g = await app.call("game.create", [{"setup": {**SETUP, "agents": {"Lou": "normal"}}}])
        gm = {"game_id": g["game_id"], "token": g["gm_token"]}
        await _ai_in(app, gm)
        await app.call("game.assign", [{**gm, "seat": "Lou", "agent": None}])
        await app.call("game.advance", [{**gm, "force": True}])
        await _force_to(app, gm, 2)
        await app.call("game.assign", [{**gm, "seat": "Lou", "agent": "heuristic"}])
        await _ai_in(app, gm)
        advanced = await app.call("game.advance", [{**gm, "force": True}])
        assert "Played by AI: Lou (heuristic)" in advanced["report"].splitlines()
        first = await app.call("game.report", [{**gm, "turn": 1}])
        assert "Played by AI: Lou (normal -> heuristic)" in first["report"].splitlines()
        second = await app.call("game.report", [{**gm, "turn": 2}])
        assert "Played by AI: Lou (heuristic)" in second["report"].splitlines()
        view = await app.call("game.view", [gm])
        assert view["controller_labels"] == {"Player#2": "heuristic"}
        assert view["played_by_labels"] == {"Player#2": ["normal -> heuristic"]}  # one agent, named once
        gf = gamefile.loads((await app.call("game.export", [gm]))["blob"])
        assert gf.ai_history == {"Player#2": [[1, "heuristic", "normal"], [2, "heuristic", None]]}
        made = await app.call("game.import", [{"blob": gamefile.dumps(gf)}])
        again = await app.call("game.report", [{"game_id": made["game_id"], "token": made["gm_token"], "turn": 1}])
        assert "Played by AI: Lou (normal -> heuristic)" in again["report"].splitlines()

    in_app(body)


@pytest.mark.parametrize(("told", "named"), [
    ([("heuristic", None), ("heuristic", "normal")], ["normal -> heuristic"]),
    ([("heuristic", "normal"), ("heuristic", None)], ["normal -> heuristic"]),
    ([("heuristic", "normal"), ("search", "expert"), ("heuristic", "heuristic")],
     ["normal -> heuristic", "expert -> search"]),
    ([("heuristic", None), ("search", None)], ["heuristic", "search"]),
    ([("heuristic", "normal"), ("heuristic", "easy")], ["normal -> heuristic", "easy -> heuristic"]),
])
def test_an_agent_is_named_once_by_its_level_when_one_chose_it(told, named):
    assert agent_labels(told) == named
