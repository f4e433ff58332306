"""``regent eval``: tournaments and takeovers from the command line (``training.evaluate``).

    regent eval field --agent heuristic --field caretaker --games 200 --out runs/h_vs_c.json
    regent eval round-robin --agents heuristic,random,caretaker --games 60
    regent eval takeover --agent heuristic --baseline caretaker --positions 50 --turn 2

``regent train`` lives in ``training.train_cli`` (issue 7); ``register_train`` here only forwards to it.
"""

from __future__ import annotations

import argparse
import json


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, default=5)
    p.add_argument("--board", default=None, help="built-in board name (default: the ring for --players)")
    p.add_argument("--version", choices=("normal", "grand"), default="normal")
    p.add_argument("--island", action="store_true")
    p.add_argument("--factions", action="store_true")
    p.add_argument("--teams", type=int, default=0, help="team size (0: no teams)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=None, help="JSON report path (a PNG plot is written beside it)")
    p.add_argument("--quiet", action="store_true", help="no progress bars")


def _setup(args) -> dict:
    return {"players": args.players, "board": args.board, "version": args.version, "island": args.island,
            "factions": args.factions, "teams": args.teams}


def _emit(report: dict, args) -> int:
    from training.evaluate import save_json, save_plot

    short = {k: v for k, v in report.items() if k != "detail"}
    print(json.dumps(short, indent=2, default=str))
    if args.out:
        path = save_json(report, args.out)
        png = save_plot(report, path.with_suffix(".png"))
        print(f"saved {path} and {png}")
    return 0


def _field(args) -> int:
    from training.evaluate import seat_vs_field

    field = [s for s in args.field.split(",") if s]
    return _emit(seat_vs_field(args.agent, field, args.games, seed=args.seed, progress=not args.quiet,
                               **_setup(args)), args)


def _round_robin(args) -> int:
    from training.evaluate import round_robin

    agents = [s for s in args.agents.split(",") if s]
    return _emit(round_robin(agents, args.games, seed=args.seed, progress=not args.quiet, **_setup(args)), args)


def _takeover(args) -> int:
    from training.evaluate import takeover

    kw = _setup(args)
    players = kw.pop("players")
    return _emit(takeover(args.agent, args.baseline, args.positions, args.turn, players, args.recorder,
                          seed=args.seed, progress=not args.quiet, **kw), args)


def register_eval(subparsers) -> None:
    """Adds ``regent eval`` (field / round-robin / takeover)."""
    ev = subparsers.add_parser("eval", help="evaluate agents: tournaments with CIs, Elo, mid-game takeovers",
                               description="Evaluate agents: seat-vs-field and round-robin tournaments "
                               "(win rate and VP share with 95% CIs, an Elo ladder) and mid-game takeovers; "
                               "reports as JSON plus a PNG plot.")
    sub = ev.add_subparsers(dest="eval_mode", required=True, metavar="MODE")
    f = sub.add_parser("field", help="one agent (rotating seats) against a field of agents")
    f.add_argument("--agent", required=True, help="agent spec: heuristic, random, caretaker, policy:<path>[@T]")
    f.add_argument("--field", default="caretaker", help="comma-separated agent specs for the other seats")
    f.add_argument("--games", type=int, default=100)
    _common(f)
    f.set_defaults(func=_field)
    r = sub.add_parser("round-robin", help="agents seated in rotation; per-agent stats and an Elo ladder")
    r.add_argument("--agents", required=True, help="comma-separated agent specs")
    r.add_argument("--games", type=int, default=60)
    _common(r)
    r.set_defaults(func=_round_robin)
    t = sub.add_parser("takeover", help="hand one seat of recorded positions to an agent and to a baseline")
    t.add_argument("--agent", required=True)
    t.add_argument("--baseline", default="caretaker")
    t.add_argument("--recorder", default="heuristic", help="who plays every seat until the takeover")
    t.add_argument("--positions", type=int, default=30)
    t.add_argument("--turn", type=int, default=2, help="take over at the orders step of this turn")
    _common(t)
    t.set_defaults(func=_takeover)


def register_train(subparsers) -> None:
    """``regent train`` is registered by ``training.train_cli`` (issue 7); kept for old entry points."""
    try:
        from training.train_cli import register_train as real
    except ImportError:
        return None
    return real(subparsers)
