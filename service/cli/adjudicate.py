"""``regent new`` and ``regent adjudicate``: a GM's game file, resolved one phase at a time.

A game file is the engine's replayable blob (msgpack). A DMs file holds each seat's DM under a
header line ``== Player#3 ==`` (text in the rulebook's syntax).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from engine.errors import RegentError, ValidationError

HEADER = re.compile(r"^==\s*(.+?)\s*==\s*$")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("new", help="create a game file from a setup")
    p.add_argument("out", type=Path)
    p.add_argument("--setup", type=Path, help="setup JSON (protocol.md); default: ring-7")
    p.add_argument("--board", default=None)
    p.add_argument("--seed", type=int, default=None)
    p.set_defaults(func=run_new)
    a = sub.add_parser("adjudicate", help="apply seats' DMs to a game file and resolve the phase")
    a.add_argument("game", type=Path, help="game file (from 'regent new')")
    a.add_argument("dms", type=Path, nargs="?", help="DMs file with '== Player#N ==' headers")
    a.add_argument("--force", action="store_true", help="rulebook defaults for seats that sent nothing")
    a.add_argument("--dry-run", action="store_true", help="check the DMs and resolve, but do not save")
    a.set_defaults(func=run_adjudicate)


def parse_dms(text: str) -> dict[str, str]:
    out: dict[str, list[str]] = {}
    seat = None
    for n, line in enumerate(text.splitlines(), start=1):
        m = HEADER.match(line)
        if m:
            seat = m.group(1)
            out.setdefault(seat, [])
        elif line.strip():
            if seat is None:
                raise ValidationError(f"dms line {n}", "text before the first '== Player#N ==' header")
            out[seat].append(line)
    return {s: "\n".join(lines) for s, lines in out.items()}


def run_new(args: argparse.Namespace) -> int:
    from engine.protectors.game import Game

    setup = json.loads(args.setup.read_text(encoding="utf-8")) if args.setup else {"board": "ring-7"}
    if args.board:
        setup["board"] = args.board
    if args.seed is not None:
        setup["seed"] = args.seed
    game = Game(setup)
    args.out.write_bytes(game.to_blob())
    print(f"created {args.out}: {len(game.state.players)} seats, waiting for: "
          + ", ".join(f"{p.seat} ({p.kind})" for p in game.pending()))
    return 0


def run_adjudicate(args: argparse.Namespace) -> int:
    from engine.protectors.game import Game

    game = Game.from_blob(args.game.read_bytes())
    dms = parse_dms(args.dms.read_text(encoding="utf-8")) if args.dms else {}
    failed = False
    for seat, text in dms.items():
        try:
            lines = game.submit(seat, text)
            print(f"{seat}: accepted " + "; ".join(lines))
        except RegentError as err:
            failed = True
            print(f"{seat}: rejected: {err}", file=sys.stderr)
    if failed:
        print("nothing resolved: fix the rejected DMs and run again", file=sys.stderr)
        return 2
    turn = game.state.turn
    game.advance(force=args.force)
    for t in range(turn, game.state.turn + 1):
        print(game.report(t))
    print("waiting for: " + (", ".join(f"{p.seat} ({p.kind})" for p in game.pending()) or "nothing (game over)"))
    if not args.dry_run:
        tmp = args.game.with_suffix(args.game.suffix + ".tmp")
        tmp.write_bytes(game.to_blob())
        tmp.replace(args.game)  # atomic: a crash never leaves half a game file
    return 0
