"""``regent npn``: plan New World Non-Player Nations (rules file 002).

    regent npn plan world.json --nation Spain --seed 4 [--turn N] [--json]
    cat world.toml | regent npn plan --format toml --nation Spain     (or "-" for standard input)

Prints the plan as text for the GM, or with ``--json`` the same data the ``npn.plan`` RPC method
returns.
"""

from __future__ import annotations

import argparse
import json
import sys

from engine.newworld import load_world, parse_world
from npr_controller.newworld import plan_nation
from service.cli.source import add_format, at_least, read_source


def register(subparsers: argparse._SubParsersAction) -> None:
    npn = subparsers.add_parser("npn", help="New World Non-Player Nations (rules 002)")
    sub = npn.add_subparsers(dest="npn_command", required=True, metavar="SUBCOMMAND")
    plan = sub.add_parser("plan", help="the planning stage of one non-player nation")
    plan.add_argument("world", nargs="?", default=None,
                      help="the New World world file (.json, .toml or .msgpack); - or leave it out to read "
                           "standard input (a pipe)")
    add_format(plan)
    plan.add_argument("--nation", required=True, help="the non-player nation to plan")
    plan.add_argument("--seed", type=int, default=None,
                      help="dice seed: the same world, nation, turn and seed give the same plan. Left out, a "
                           "fresh secret seed is drawn and printed with the dice (pass it back to replay). Each "
                           "nation and turn rolls from its own stream of the seed (docs/npr-rules.md, 'Dice and "
                           "seeds')")
    plan.add_argument("--turn", type=at_least(1), default=None, help="the turn, 1 or more (default: the world's)")
    plan.add_argument("--json", action="store_true", help="print the plan as JSON")
    plan.set_defaults(func=run_plan)


def run_plan(args: argparse.Namespace) -> int:
    data = read_source(args.world, args.format)
    world = parse_world(data) if data is not None else load_world(args.world)
    plan = plan_nation(world, args.nation, seed=args.seed, turn=args.turn)
    if args.json:
        json.dump(plan.to_dict(), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(plan.to_text() + "\n")
    return 0
