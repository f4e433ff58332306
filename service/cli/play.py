"""``regent play``: play whole Protectors games with agents in the seats."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from tqdm import tqdm

from engine import jsonfile
from engine.errors import ValidationError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help="play whole Protectors of the Realm games with agents in the seats")
    p.add_argument("--board", default="ring-7", help="ring-N, ring-N-grand (+island), or a board JSON file")
    p.add_argument("--seats", default="", help="comma-separated agents per seat (random, caretaker, ...); "
                                               "missing seats play the rulebook defaults")
    p.add_argument("--seed", type=int, default=None,
                   help="first game's seed (default: drawn from secrets and printed; a small seed is guessable)")
    p.add_argument("--games", type=int, default=1, help="play this many games (seeds seed, seed+1, ...)")
    p.add_argument("--factions", action="store_true", help="play with factions")
    p.add_argument("--teams", type=int, default=0, help="team size for a team game (0: no teams)")
    p.add_argument("--quiet", action="store_true", help="no turn reports; a progress bar and the summary")
    p.add_argument("--json", action="store_true", help="print results as JSON lines")
    p.add_argument("--save", type=Path, default=None, metavar="FILE",
                   help="write the (last) game to this game file, AI seats included (regent render/seat)")
    p.set_defaults(func=run)


def _setup(args: argparse.Namespace, seed: int) -> dict:
    from engine.protectors.board import Board

    board = args.board
    if board.endswith(".json"):
        with open(board, encoding="utf-8") as f:
            board = jsonfile.loads(f.read())
    n = len(Board.from_setup(board).provinces)
    count = n // 2 if isinstance(board, str) and "grand" in board else n
    if isinstance(board, dict):
        count = len(args.seats.split(",")) if args.seats else n
    players = [{"seat": f"Player#{i}"} for i in range(1, count + 1)]
    if args.teams:
        if count % args.teams:
            raise ValidationError("--teams", f"{count} players do not split into teams of {args.teams}")
        for i, p in enumerate(players):
            p["team"] = f"Team {i // args.teams + 1}"
    return {"board": board, "seed": seed, "players": players,
            "options": {"factions": args.factions, "teams": bool(args.teams)}}


def run(args: argparse.Namespace) -> int:
    from agents.registry import make_agent
    from agents.runner import play_game

    names = [s.strip() for s in args.seats.split(",") if s.strip()]
    verbose = not args.quiet and not args.json and args.games == 1
    tally: Counter[str] = Counter()
    if args.seed is None:  # issue 23: an unpredictable game unless the GM asks for a known one
        from engine.protectors.setup import fresh_seed

        args.seed = fresh_seed()
    games = range(args.seed, args.seed + args.games)
    for seed in (games if verbose or args.json else tqdm(games, desc="games", unit="game")):
        setup = _setup(args, seed)
        agents = {f"Player#{i + 1}": make_agent(n, seed * 100 + i) for i, n in enumerate(names)
                  if i < len(setup["players"])}
        last_turn = [0]

        def on_step(game, events, last_turn=last_turn):
            turn = game.state.turn
            if verbose and (turn != last_turn[0] or game.over):
                done = turn - 1 if not game.over else turn
                for t in range(max(1, last_turn[0]), done + 1):
                    print(game.report(t) + "\n")
                last_turn[0] = turn

        game = play_game(setup, agents, on_step)
        if args.save is not None:
            from service import gamefile

            gamefile.write(args.save, gamefile.GameFile(
                game, agents={s: a.name for s, a in agents.items()},
                ai_played={s: [a.name] for s, a in agents.items()}), backup=False)
        res = dict(game.result)
        res["seed"] = seed
        res["ai_seats"] = {s: a.name for s, a in agents.items()}
        tally[str(res["winner"] or "Dragon")] += 1
        if args.json:
            print(json.dumps(res))
        elif verbose:
            print(f"Result: {res['how']}, winner {res['winner'] or 'the Dragon'} on turn {res['turn']}; "
                  f"VP {res['vp']}; seed {seed}")
    if not verbose and not args.json:
        for who, n in tally.most_common():
            print(f"{who}: {n}")
    return 0
