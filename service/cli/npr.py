"""Play the Non-Player Realms (files 000, 001, 004) from a world file: the ``regent npr`` commands.

Each command prints the decision and its rule-cited trace as readable text, or ``--json`` for
machines (the same data the RPC service sends).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import msgpack

from engine.errors import ValidationError
from engine.name_hints import unknown
from engine.realms import load_world, military_capacity, naval_capacity
from engine.realms.dump import world_to_dict
from engine.realms.loader import read_document
from engine.trace import Dice, Trace
from npr_controller.realms import caretaker
from npr_controller.realms.battle import fight, parse_deck, retreat
from npr_controller.realms.cta import call_to_arms
from npr_controller.realms.defence import defend
from npr_controller.realms.invasions import invasions
from npr_controller.realms.liberation import dnpr_expansion, liberate, released_vassals
from npr_controller.realms.result import Decision
from service.cli.source import add_format, at_least, read_source

DECK_HELP = ("a file holding the Military Deck, top card first: a JSON (or MessagePack) list of {name, kind: "
             "leader|advisor, dice} (docs/world-formats.md, 'Military Deck')")
SEED_HELP = ("dice seed: the same world and seed give the same decision. Left out, a fresh secret seed is "
             "drawn and printed with the dice (pass it back to replay). Each NPR, or each battle, rolls "
             "from its own stream of the seed (docs/npr-rules.md, 'Dice and seeds')")


def _world(args: argparse.Namespace) -> Any:
    """The realm world from its file, or from standard input (``-``) (service/cli/source.py)."""
    data = read_source(args.world, args.format)
    return load_world(data if data is not None else args.world)


def _emit(args: argparse.Namespace, decision: Any) -> int:
    if args.json:
        json.dump(decision.to_dict(), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print(decision)
    return 0


WORLD_OUT_SUFFIXES = {".json": "json", ".msgpack": "msgpack", ".mpk": "msgpack"}


def _world_out(path: str | None) -> Path | None:
    """``--world-out``'s file, checked before anything is decided: JSON or MessagePack by its suffix (Python
    writes no TOML: a TOML world comes back as JSON, which every ``regent npr`` command reads too)."""
    if path is None:
        return None
    out = Path(path)
    if out.suffix.lower() not in WORLD_OUT_SUFFIXES:
        raise ValidationError("--world-out", f"{path}: name the file .json (or .msgpack) to say how to write it; "
                                             "a TOML world comes back as JSON, which regent npr reads too")
    if not out.parent.is_dir():
        raise ValidationError("--world-out", f"{path}: no folder {out.parent}")
    return out


def _write_world(out: Path, world: Any) -> None:
    """The world document written whole or not at all (a temporary file renamed over ``out``)."""
    doc = world_to_dict(world)
    data = (msgpack.packb(doc) if WORLD_OUT_SUFFIXES[out.suffix.lower()] == "msgpack"
            else (json.dumps(doc, indent=1, ensure_ascii=False) + "\n").encode("utf-8"))
    fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, out)
    except BaseException:
        os.unlink(tmp)
        raise


def _invasions(args: argparse.Namespace) -> int:
    out = _world_out(args.world_out)
    deck = parse_deck(read_document(args.deck)) if args.deck else None
    decision = invasions(_world(args), seed=args.seed, deck=deck)
    if out is not None:
        _write_world(out, decision.world)
    code = _emit(args, decision)
    if out is not None and not args.json:
        print(f"World after the Invasions (Unrest, Rebels, the Enemy's losses) written to {out}")
    return code


def _defend(args: argparse.Namespace) -> int:
    return _emit(args, defend(_world(args), read_document(args.attacks), seed=args.seed,
                              supply=args.supply))


def _retreat(args: argparse.Namespace) -> int:
    return _emit(args, retreat(_world(args), read_document(args.battle)))


def _battle(args: argparse.Namespace) -> int:
    deck = parse_deck(read_document(args.deck)) if args.deck else None
    return _emit(args, fight(_world(args), read_document(args.battle), seed=args.seed, deck=deck))


def _cta(args: argparse.Namespace) -> int:
    return _emit(args, call_to_arms(_world(args), {"attacker": args.attacker, "target": args.target}))


def _liberate(args: argparse.Namespace) -> int:
    return _emit(args, liberate(_world(args), list(args.provinces)))


def _release(args: argparse.Namespace) -> int:
    return _emit(args, released_vassals(_world(args)))


def _expand(args: argparse.Namespace) -> int:
    return _emit(args, dnpr_expansion(_world(args), args.dnpr))


def _capacity(args: argparse.Namespace) -> int:
    world = _world(args)
    if args.realm not in world.realms:
        raise ValueError(f"realm: {unknown('realm', args.realm, world.realms)}")
    if args.place in world.seas:
        cap = naval_capacity(world, args.realm, args.place)
    elif args.place in world.areas:
        cap = military_capacity(world, args.realm, args.place)
    else:
        raise ValueError(f"place: {unknown('Area or Sea Zone', args.place, [*world.areas, *world.seas])}")
    trace = Trace()
    trace.add("rules-gaps.md NC" if cap.kind == "NC" else "rules-gaps.md MC", str(cap).splitlines()[0])
    return _emit(args, Decision(f"npr.{cap.kind.lower()}", cap.to_dict(), tuple(str(cap).splitlines()), trace,
                                Dice(None)))


def _caretaker(args: argparse.Namespace) -> int:
    world = _world(args)
    if args.step == "income":
        decision = caretaker.income_and_upkeep(world, args.realm)
    elif args.step == "phase3":
        decision = caretaker.phase3(world, args.realm)
    elif args.step == "actions":
        decision = caretaker.actions(world, args.realm)
    else:
        if not (args.cta_from and args.attacker):
            raise ValueError("--step cta needs --cta-from NPR and --attacker REALM")
        decision = caretaker.answer_cta(world, args.realm, args.cta_from, attacker=args.attacker,
                                        kind="offensive" if args.offensive else "defensive")
    return _emit(args, decision)


def register(subparsers: Any) -> None:
    """Add the ``regent npr`` command group."""
    npr = subparsers.add_parser("npr", help="play the Non-Player Realms (rule-cited decisions)",
                                description=__doc__.splitlines()[0])
    sub = npr.add_subparsers(dest="npr_command", required=True, metavar="DECISION")

    def cmd(name: str, func: Any, help: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help, description=help)
        p.add_argument("world", help="the realm world (JSON, TOML or msgpack); - reads standard input")
        add_format(p)
        p.add_argument("--json", action="store_true", help="print JSON instead of text")
        p.set_defaults(func=func)
        return p

    p = cmd("invasions", _invasions, "Phase 3 step B NPR Invasions, alphabetically (000 §13.5)")
    p.add_argument("--seed", type=int, default=None, help=SEED_HELP)
    p.add_argument("--deck", metavar="FILE", help=DECK_HELP)
    p.add_argument("--world-out", metavar="FILE",
                   help="write the world after the Invasions (Unrest added, Rebels placed, the Enemy's battle "
                        "losses) to FILE (.json or .msgpack), to give the next step instead of typing them in")
    p = cmd("defend", _defend, "how NPRs defend against this turn's attacks (000 §13.4)")
    p.add_argument("attacks", help="attacks file: [{attacker, area|sea, units, trigger?}]")
    p.add_argument("--seed", type=int, default=None, help=SEED_HELP)
    p.add_argument("--supply", type=at_least(0),
                   help="NPR pieces available, 0 or more (000 §13.4 No more NPR Units in Supply)")
    p = cmd("retreat", _retreat, "after a round: does the NPR retreat or fight on (000 §13.4)")
    p.add_argument("battle", help="battle file: {npr, area|sea, npr_units, enemy_units, with_rebels?}")
    p = cmd("battle", _battle, "resolve one NPR battle round by round (000 §13.4, rules-gaps.md Battles)")
    p.add_argument("battle", help="battle file: {npr, area|sea, enemy_units, npr_units?, with_rebels?, ...}")
    p.add_argument("--seed", type=int, default=None, help=SEED_HELP)
    p.add_argument("--deck", metavar="FILE", help=DECK_HELP)
    p = cmd("cta", _cta, "the Defensive CtAs an NPR sends when War is declared on it (004 §11.3)")
    p.add_argument("--attacker", required=True,
                   help="the Player Realm declaring War (not in a Truce with the target, not already at War with it)")
    p.add_argument("--target", required=True, help="the realm War is declared on (a Vassal: declare on its Overlord)")
    p = cmd("liberate", _liberate, "Liberated NPR Provinces and the Capital chosen (000 §13)")
    p.add_argument("provinces", nargs="+")
    cmd("release", _release, "Vassals released as independent NPRs (000 §13.2)")
    p = cmd("dnpr-expand", _expand, "a DNPR's expansion when its Event resolves (000 §13.3)")
    p.add_argument("dnpr")
    p = cmd("capacity", _capacity, "MC of a realm for an Area, or NC for a Sea Zone, with its breakdown")
    p.add_argument("realm")
    p.add_argument("place")
    p = cmd("caretaker", _caretaker, "run a vacant PR seat (001 economy, 004 CtAs)")
    p.add_argument("realm")
    p.add_argument("--step", choices=("income", "phase3", "actions", "cta"), default="income")
    p.add_argument("--cta-from", help="the Ally sending the CtA (with --step cta)")
    p.add_argument("--attacker", help="who declared War (with --step cta)")
    p.add_argument("--offensive", action="store_true", help="the CtA is Offensive (default Defensive)")
