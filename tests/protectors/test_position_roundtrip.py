"""Export a random game's position at a random point, import it, play on with the same decisions:
the same game (engine/protectors/position.py, position_import.py; issue 17, item 1).

Each original game is played once to its end by random and heuristic players, one decision or one
resolution at a time (so positions with some seats' decisions already in are cut too); the position is
exported at a few points on the way. A game built from each exported position (with the setup, no
decisions) then replays the original's later actions and must end identical: every view, every event
from the cut on, the result and the exported position, and right after the import its whole state.
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

from agents.heuristic import HeuristicAgent
from agents.random_agent import RandomAgent
from engine.protectors.game import Game
from engine.protectors.position import export_position
from engine.protectors.seat import SeatContext
from engine.protectors.state import BANK_BID, BID, CONSOLIDATION, DRAGON, ORDERS, OVER, REBID, GameState
from envs.opponents import make_setup

# The state's fields a position does not carry: logs (events, the $Realm ledger) and a memo.
NOT_CARRIED = {"events", "ledger", "end_key"}
GAMES, CUTS = 300, 2  # 300 random games, 600 imported positions in the default run (~40 s)
SLOW_GAMES = 600


def _setup(rng: random.Random, seed: int) -> dict[str, Any]:
    players = rng.choice([2, 3, 4, 5, 6, 7, 8, 10])
    teams = 2 if players in (4, 6, 8) and rng.random() < 0.25 else 0
    return make_setup(None, players, seed, version=rng.choice(["normal", "grand"]),
                      factions=rng.random() < 0.7, island=rng.random() < 0.4, teams=teams)


def _play(setup: dict[str, Any], rng: random.Random, cuts: int,
          keep: frozenset[int] = frozenset()) -> tuple[Game, list[dict[str, Any]], dict[int, Game]]:
    """Play to the end one action at a time; export at ``cuts`` points (one at a rare step if any).

    ``keep`` (action counts): a copy of the game as it stood after each; played again from the same ``rng``
    state, the same game is stopped at the last of them (no cuts chosen then)."""
    game = Game(setup)
    share = rng.choice([0.3, 0.9, 1.0])  # heuristic players make games last (cards of turn 5+, locked ones)
    agents = {s: (HeuristicAgent(rng.randrange(10**6)) if rng.random() < share else RandomAgent(rng.randrange(10**6)))
              for s in game.state.players}
    snaps: list[dict[str, Any]] = []  # where the position can be cut: action index and what it shows
    kept: dict[int, Game] = {}
    while True:
        if len(game.actions) in keep:
            kept[len(game.actions)] = game.clone()
            if len(kept) == len(keep):
                return game, [], kept
        st = game.state
        snaps.append({"at": len(game.actions), "step": game.step, "partial": bool(st.submissions),
                      "bank_round": bool(st.attack and st.attack.bank_round),
                      "rare": sorted(k for k, v in (("locked_cards", st.locked_cards), ("pirates_due", st.pirates_due),
                                                    ("work_orders", st.work_orders), ("sanctum", st.sanctum),
                                                    ("times_up", st.times_up), ("end_is_nigh", st.end_is_nigh),
                                                    ("occupant", any(p.occupant for p in st.provinces.values())))
                                     if v)})
        if game.over:
            break
        waiting = [p.seat for p in game.pending() if not p.submitted]
        if waiting and rng.random() < 0.97:  # now and then a silent seat gets the rulebook default
            seat = rng.choice(waiting)
            game.submit(seat, agents[seat].act(SeatContext(game, seat)))
        else:
            game.advance(force=True)
        assert len(snaps) < 5000
    return game, _choose(snaps, rng, cuts), kept


def _choose(snaps: list[dict[str, Any]], rng: random.Random, cuts: int) -> list[dict[str, Any]]:
    rare = [s for s in snaps if s["step"] == BANK_BID or s["bank_round"] or s["rare"]]  # (turn-1 ties are common)
    picked = [rng.choice(rare)] if rare else []
    picked += rng.sample(snaps, min(cuts - len(picked), len(snaps)))
    return picked


def _replay(game: Game, actions: list[list[Any]]) -> None:
    for a in actions:
        if a[0] == "submit":
            game.submit(a[1], "\n".join(a[2]))
        else:
            game.advance(force=bool(a[1]))


def _dump(x: Any) -> str:
    return json.dumps(x, sort_keys=True, default=str)


def _state_fields(st: GameState) -> dict[str, Any]:
    out = {}
    for f in dataclasses.fields(GameState):
        if f.name in NOT_CARRIED:
            continue
        v = getattr(st, f.name)
        out[f.name] = v.getstate() if f.name == "rng" else v
    return out


def _at(setup: dict[str, Any], rng_state: Any, final: Game, ats: frozenset[int]) -> dict[int, Game]:
    """The original game as it stood after each of ``ats`` actions: played again by the same players from the
    same random state, in one pass to the last cut. (Rebuilding each from the recorded actions read every DM
    text of the prefix again: over a third of this test's time. The text replay of the actions after each cut
    is still what both games play on below.)"""
    rng = random.Random()
    rng.setstate(rng_state)
    _, _, kept = _play(setup, rng, 0, keep=ats)
    assert set(kept) == ats
    for at, g in kept.items():
        assert g.actions == final.actions[:at]  # the same game as the original, action for action
    return kept


def check_roundtrip(seed: int, cuts: int = CUTS) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    setup = _setup(rng, seed)
    rng_state = rng.getstate()
    final, picked, _ = _play(setup, rng, cuts)
    originals = _at(setup, rng_state, final, frozenset(snap["at"] for snap in picked))
    for snap in picked:
        before = originals[snap["at"]].clone()  # two cuts may be at the same point
        pos = export_position(before)
        json.dumps(pos)  # plain JSON (and so msgpack) all the way down
        imported = Game({**setup, "position": pos})
        mark_a, mark_b = len(before.state.events), len(imported.state.events)
        # right after the import: the same state, field for field, and the same position again
        assert _state_fields(imported.state) == _state_fields(before.state), f"seed {seed} at {snap}"
        assert export_position(imported) == pos
        assert _dump(imported.view()) == _dump(before.view())
        # then the same decisions give the same game
        _replay(before, final.actions[snap["at"]:])
        _replay(imported, final.actions[snap["at"]:])
        assert imported.over and imported.result == final.result
        for seat in [None, *before.state.players]:
            assert _dump(imported.view(seat)) == _dump(before.view(seat)), f"seed {seed} seat {seat} at {snap}"
        assert ([e.to_dict() for e in imported.state.events[mark_b:]]
                == [e.to_dict() for e in before.state.events[mark_a:]]), f"seed {seed} at {snap}"
        assert export_position(imported) == export_position(before)
    return picked


def test_roundtrip_over_random_games_covers_every_step_kind():
    seen: set[str] = set()
    rare: set[str] = set()
    partial = bank_round = 0
    for seed in range(GAMES):
        for snap in check_roundtrip(seed):
            seen.add(snap["step"])
            partial += snap["partial"]
            bank_round += snap["bank_round"]
            rare.update(snap["rare"])
    assert {BID, REBID, BANK_BID, ORDERS, DRAGON, CONSOLIDATION, OVER} <= seen, seen
    assert partial > 0 and bank_round > 0  # some seats' decisions already in; the Bank's second Dragon round
    assert {"locked_cards", "work_orders", "pirates_due", "times_up"} <= rare, rare


@pytest.mark.slow
def test_roundtrip_over_many_more_random_games():
    for seed in range(GAMES, GAMES + SLOW_GAMES):
        check_roundtrip(seed, cuts=3)
