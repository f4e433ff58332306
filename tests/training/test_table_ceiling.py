"""The cheats that bound a filler's Dragon fights (training/table_ceiling.py): they cheat as documented,
only inside ``cheats()``, and only in their own game."""

from __future__ import annotations

import engine.protectors.dragon as dragon
from agents import registry
from training.table_ceiling import CHEATS, FREE_US, FREE_US_ALWAYS, FULL_STACK, cheats


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


def test_full_stack_commits_a_full_stack_to_every_fight():
    with cheats():
        played = _games(FULL_STACK)
    commits = [(e.data["units"], e.data["min_us"]) for game, seat in played for e in game.state.events
               if e.kind == "commitment" and e.data["seat"] == seat]
    # one Province on ring-5, filled to the supply limit before each fight: all 3 go in, unless no unit on
    # the board could turn the fight (then, as the steward, it keeps them and meets its min.US)
    assert commits and all(units in (3, need) for units, need in commits)
    assert sum(units == 3 for units, _ in commits) > len(commits) / 2
