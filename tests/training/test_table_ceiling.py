"""The cheats that bound a filler's Dragon fights (training/table_ceiling.py): they cheat as documented,
only inside ``cheats()``, and only in their own game."""

from __future__ import annotations

import pytest

import engine.protectors.dragon as dragon
from agents import registry
from agents.registry import make_agent
from engine.errors import ValidationError
from engine.protectors import build_of
from training.table_ceiling import (
    CHEATS,
    FREE_US,
    FREE_US_ALWAYS,
    FULL_STACK,
    TableClairvoyant,
    cheats,
    clairvoyant_table,
)


def test_the_cheats_exist_only_inside_the_block():
    original = dragon.fought_dpl
    with cheats():
        assert all(c in registry.AGENTS for c in CHEATS) and dragon.fought_dpl is not original
    assert dragon.fought_dpl is original and not any(c in registry.AGENTS for c in CHEATS)


def _games(filler, games=10, seed=5):
    """``games`` ring-5 games with ``filler`` in the rotating vacant seat among heuristics: (game, seat)."""
    from agents.runner import finish
    from engine.protectors.game import Game
    from envs.opponents import make_setup
    from training.evaluate import AgentCache, _setup_kwargs, field_specs, seat_of
    from training.table import FILLER_SEED

    out, cache = [], AgentCache()
    kw = _setup_kwargs(5, None, "normal", False, False, 0)
    for g in range(games):
        game = Game(make_setup(seed=seed + g, **kw))
        seats = list(game.state.players)
        vacant = seat_of(g, seats)
        agents = {s: cache.get(spec, g * 100 + i)
                  for i, (s, spec) in enumerate(field_specs(seats, vacant, ["heuristic"], seed + g).items())}
        agents[vacant] = cache.get(filler, g * 100 + FILLER_SEED)
        finish(game, agents)
        out.append((game, vacant))
    return out


def _battles(filler):
    """(attack DPL, fought DPL) of every Dragon fight beside ``filler``."""
    out = []
    for game, _ in _games(filler):
        attacks = [e.data["dpl"] for e in game.state.events if e.kind == "dragon_attack"]
        fought = [e.data["dpl"] for e in game.state.events if e.kind == "dragon_battle"]
        out += list(zip(attacks, fought, strict=True))
    return out


@pytest.mark.skipif(build_of("engine.protectors.dragon") != "pure Python",
                    reason="the free-us cheats patch the pure engine (see the next test)")
def test_free_us_lowers_only_the_fought_dpl_and_only_beside_it():
    with cheats():
        helped = _battles(FREE_US)
        always = _battles(FREE_US_ALWAYS)
        plain = _battles("steward")  # the same block, another filler: its fights are the rules' own
    assert helped and all(f <= a for a, f in helped) and any(f < a for a, f in helped)
    assert all(f == a for a, f in plain)
    # after its seat is gone, 'always' still gives a full stack's 3 US; never more than 3 a fight
    assert all(a - f <= 3 for a, f in helped + always)
    assert sum(a - f for a, f in always) >= sum(a - f for a, f in helped)


@pytest.mark.skipif(build_of("engine.protectors.dragon") == "pure Python", reason="the compiled engine's refusal")
def test_free_us_is_refused_by_the_compiled_engine_with_a_clear_error():
    with cheats(), pytest.raises(ValidationError, match="pure engine"):
        make_agent(FREE_US, 0)


def test_full_stack_commits_a_full_stack_to_every_fight():
    with cheats():
        played = _games(FULL_STACK)
    commits = [(e.data["units"], e.data["min_us"]) for game, seat in played for e in game.state.events
               if e.kind == "commitment" and e.data["seat"] == seat]
    # one Province on ring-5, filled to the supply limit before each fight: all 3 go in, unless no unit on
    # the board could turn the fight (then, as the steward, it keeps them and meets its min.US)
    assert commits and all(units in (3, need) for units, need in commits)
    assert sum(units == 3 for units, _ in commits) > len(commits) / 2


class _Blind(TableClairvoyant):
    """The clairvoyant steward with nothing to tell its candidates apart: it keeps the steward's own."""

    def value(self, game, outcome):
        return (0.0, 0.0)


def _table_value(row) -> int:
    return 0 if row["how"] == "dragon" else 1 if row["filler_won"] or not row["winners"] else 2


def test_the_clairvoyant_plays_the_steward_tables_games():
    from training import table_ceiling
    from training.table import table

    steward = table("steward", games=6, seed=40, progress=False)
    original = table_ceiling.TableClairvoyant
    table_ceiling.TableClairvoyant = _Blind  # ties keep the first candidate: the steward's own choice
    try:
        blind = clairvoyant_table(6, seed=40, progress=False)
    finally:
        table_ceiling.TableClairvoyant = original
    # common random numbers: the same seeds, seats and field agents as the steward's table, game by game
    assert [(r["filler"], r["how"], r["winner"]) for r in blind["detail"]] == \
        [(r["filler"], r["how"], r["winner"]) for r in steward["detail"]]
    seen = clairvoyant_table(6, seed=40, progress=False)
    assert seen["playouts"] > 6
    # the steward's own line is always a candidate and every play-out is exact: never worse, game by game
    for mine, base in zip(seen["detail"], steward["detail"], strict=True):
        assert _table_value(mine) >= _table_value(base)
    assert sum(map(_table_value, seen["detail"])) > sum(map(_table_value, steward["detail"]))


def test_the_clairvoyant_tries_only_what_a_steward_may_order():
    from engine.protectors.decisions import OrdersDecision
    from engine.protectors.orders import Fortify, March, Support

    oracle = TableClairvoyant("Player#1")
    oracle.held = {"P1", "P3"}
    ctx = None  # allowed() reads only the decision and what the seat has held
    assert oracle.allowed(ctx, OrdersDecision((Fortify("P1", False),)))
    assert oracle.allowed(ctx, OrdersDecision((March(2, "P2", "P3"),)))  # back into a Province it held
    assert not oracle.allowed(ctx, OrdersDecision((Fortify("P1"), March(1, "P1", "P2"))))
    assert not oracle.allowed(ctx, OrdersDecision((Support("Player#1", "P2", "P1"),)))
