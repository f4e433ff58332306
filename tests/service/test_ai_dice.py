"""An AI seat's dice (``service.ai.decision_seed``) depend on the game, the step and the seat's own
decisions in it, not on how many of the other players' DMs came in before the AI seat decided: in a
game that lives in Discord DMs that order is chance, and it must not change what the AI does."""

from __future__ import annotations

import asyncio

import pytest

from service import ai
from service.app import App
from service.store import Store

SETUP = {"board": "ring-3", "players": 3, "seed": 11}


def test_other_seats_dms_in_the_step_do_not_change_the_dice():
    before = [["submit", "Player#1", ["Bid 2"]], ["advance", False]]
    alone = ai.decision_seed(5, "Player#3", before)
    after_dms = ai.decision_seed(5, "Player#3", [*before, ["submit", "Player#2", ["x"]],
                                                 ["submit", "Player#1", ["y"]]])
    assert alone == after_dms
    # but a new step, the seat's own second decision in a step, another seat or another game do
    others = {ai.decision_seed(5, "Player#3", [*before, ["advance", False]]),
              ai.decision_seed(5, "Player#3", [*before, ["submit", "Player#3", ["z"]]]),
              ai.decision_seed(5, "Player#2", before), ai.decision_seed(6, "Player#3", before)}
    assert alone not in others and len(others) == 4


SEEDS: list[int] = []
"""the dice of every decision a ``SeedProbe`` made, in order"""


class SeedProbe:
    """Records the dice each decision is made with, then plays the heuristic."""

    def __init__(self, seed=None):
        from agents.heuristic import HeuristicAgent

        self.inner = HeuristicAgent()

    def reset(self, seed=None):
        SEEDS.append(seed)
        self.inner.reset(seed)

    def act(self, ctx):
        return self.inner.act(ctx)


@pytest.fixture
def probe(monkeypatch):
    from agents.registry import AGENTS

    SEEDS.clear()
    monkeypatch.setitem(AGENTS, "test-probe", SeedProbe)
    return SEEDS


def _dice(tmp_path, name: str, dms_first: bool, seeds: list[int]) -> int:
    """The dice Player#3's AI decides the opening bid with, given the seat before or after the two DMs."""

    async def go():
        app = App(Store(tmp_path / f"{name}.sqlite"), workers=2)
        app.start()
        try:
            g = await app.call("game.create", [{"setup": {**SETUP, "auto_advance": False}}])
            gm = {"game_id": g["game_id"], "token": g["gm_token"]}
            dms = [app.call("game.submit", [{"game_id": g["game_id"], "token": g["seat_tokens"][s], "text": "Bid 1"}])
                   for s in ("Player#1", "Player#2")]
            if dms_first:
                for dm in dms:
                    await dm
            await app.call("game.assign", [{**gm, "seat": "Player#3", "agent": "test-probe"}])
            task = app.pumps.get(g["game_id"])
            if task is not None:
                await asyncio.wait_for(asyncio.shield(task), 20)
            if not dms_first:
                for dm in dms:
                    await dm
            pending = await app.call("game.pending", [gm])
            assert all(p["submitted"] for p in pending), pending
        finally:
            await app.close()

    seeds.clear()
    asyncio.run(go())
    assert seeds, "the AI seat never decided"
    return seeds[-1]


def test_an_ai_seat_bids_with_the_same_dice_before_or_after_the_players_dms(tmp_path, probe):
    first = _dice(tmp_path, "first", True, probe)
    assert first == _dice(tmp_path, "last", False, probe)
    # the service's AI turn is keyed as decision_seed keys it: step 0, the seat's first decision in it
    assert first == ai.decision_seed(SETUP["seed"], "Player#3", [["submit", "Player#1", ["Bid 1"]]])


def test_a_game_made_from_an_export_gives_its_ai_seats_the_dice_the_game_exported_would_have(tmp_path, probe):
    """The dice count the steps resolved since the game began (``position.steps_resolved``, before the position):
    an imported game counted from 0 in the service, so its AI seats rolled other dice than the game exported (the
    CLI counted on since 017e837; one key for both now, ``decision_seed``'s ``before``)."""

    async def go():
        app = App(Store(tmp_path / "export.sqlite"), workers=2)
        app.start()
        try:
            g = await app.call("game.create", [{"setup": {**SETUP, "auto_advance": False}}])
            gm = {"game_id": g["game_id"], "token": g["gm_token"]}
            for _ in range(3):  # three steps resolved by the rulebook defaults
                await app.call("game.advance", [{**gm, "force": True}])
            exported = await app.call("game.export_position", [gm])
            setup = exported["setup"]
            assert setup["position"]["steps_resolved"] == 3
            made = await app.call("game.create", [{"setup": setup}])
            await app.call("game.assign", [{"game_id": made["game_id"], "token": made["gm_token"],
                                            "seat": "Player#3", "agent": "test-probe"}])
            task = app.pumps.get(made["game_id"])
            if task is not None:
                await asyncio.wait_for(asyncio.shield(task), 20)
        finally:
            await app.close()

    asyncio.run(go())
    assert probe, "the AI seat never decided"
    steps = [["advance", True]] * 3
    assert probe[0] == ai.decision_seed(SETUP["seed"], "Player#3", steps)  # as in the game exported
    assert probe[0] != ai.decision_seed(SETUP["seed"], "Player#3", [])  # not the dice of a game's first step
