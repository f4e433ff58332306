"""Which heuristic knobs make a stronger teacher: one seat with changed knobs against default heuristics.

    python -m training.heuristic_sweep --games 600 --seed 50000 --knobs '{"margin": 2, "bid_share": 0.9}'
    python -m training.heuristic_sweep --games 600 --seed 50000 --grid   # the variants tried for v2

Seats rotate (game g puts the tuned seat in seat g mod players); seeds start at ``--seed`` (50000 by
default: never the evaluation seeds of ``training.ship``, which start at 10000). Prints one JSON line per
variant: win rate with its 95% Wilson interval and the mean terminal score.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from tqdm import tqdm

from agents.heuristic import HeuristicAgent
from agents.runner import finish
from engine.protectors.game import Game
from envs.opponents import make_setup
from training.evaluate import seat_outcome
from training.stats import wilson

GRID: list[dict[str, Any]] = [
    {}, {"margin": 0}, {"margin": 2}, {"margin": 3}, {"margin": 4}, {"assume_fortify": True},
    {"others_factor": 0.2}, {"others_factor": 0.6}, {"all_in": False}, {"gp_hides": False}, {"first_bid": 5},
    {"first_bid": 25}, {"bid_share": 0.5}, {"bid_share": 0.9}, {"keep_one": True}, {"attack_from": 2},
    {"min_stack": 2}, {"first_work": True}, {"margin": 2, "bid_share": 0.9}, {"margin": 2, "min_stack": 2},
    {"margin": 2, "assume_fortify": True},
]


def tuned_vs_default(knobs: dict[str, Any], games: int, seed: int = 50_000, players: int = 5,
                     progress: bool = False) -> dict[str, Any]:
    """``HeuristicAgent(**knobs)`` in one rotating seat, default heuristics in the others."""
    wins, scores = 0, []
    for g in tqdm(range(games), desc=json.dumps(knobs), disable=not progress):
        game_seed = seed + g
        game = Game(make_setup(None, players, game_seed))
        seats = list(game.state.players)
        me = seats[g % players]
        agents = {s: HeuristicAgent(**knobs) if s == me else HeuristicAgent() for s in seats}
        for i, a in enumerate(agents.values()):
            a.reset(game_seed * 100 + i)
        finish(game, agents)
        out = seat_outcome(game, me)
        wins += out["win"]
        scores.append(out["score"])
    return {"knobs": knobs, "games": games, "wins": wins, "win_rate": wins / games,
            "win_ci": list(wilson(wins, games)), "score": sum(scores) / games}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--seed", type=int, default=50_000)
    ap.add_argument("--knobs", default="{}", help="JSON object of HeuristicAgent keyword arguments")
    ap.add_argument("--grid", action="store_true", help="run every variant of GRID")
    args = ap.parse_args(argv)
    for knobs in GRID if args.grid else [json.loads(args.knobs)]:
        r = tuned_vs_default(knobs, args.games, args.seed, progress=True)
        print(json.dumps({k: (round(v, 4) if isinstance(v, float) else v) for k, v in r.items()}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
