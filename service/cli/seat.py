"""``regent seat``: put an AI in a seat of a game file, or give the seat back to its player.

    regent seat game.bin                          # who plays each seat
    regent seat game.bin Player#5 ppo:normal      # an agent (agents/registry.py) or a difficulty
    regent seat game.bin Alice hard               # a display name works too
    regent seat game.bin Player#5 human           # back to the player

The AI decides at the next ``regent adjudicate`` whenever its seat's step is waiting.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from engine.errors import ValidationError
from service import ai, gamefile
from service.cli import failure


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("seat", help="put an AI in a seat of a game file (or 'human' to give it back)")
    p.add_argument("game", type=Path, help="game file (from 'regent new' or game.export)")
    p.add_argument("seat", nargs="?", help="Player#N or the seat's display name; leave out to list the seats")
    p.add_argument("agent", nargs="?", help="an agent (heuristic, caretaker, ppo:hard, policy:PATH...), a "
                                            "difficulty (easy, normal, hard, expert) or 'human'")
    p.set_defaults(func=run_seat)


def run_seat(args: argparse.Namespace) -> int:
    with gamefile.locked(args.game):
        return _seat(args)


def _seat(args: argparse.Namespace) -> int:
    gf = gamefile.read(args.game, warn=failure.warn)
    if args.seat is None:
        for s, p in gf.game.state.players.items():
            who = f"AI {gf.label(s)}" if s in gf.agents else "human"
            out = " (eliminated)" if p.eliminated else ""
            print(f"{gf.display(s)}: {who}{out}")
        return 0
    seat = gf.seat_named(args.seat)
    if seat is None:
        raise ValidationError(str(args.game), gf.unknown_seat(args.seat))
    if args.agent is None:
        raise ValidationError("agent", "say who plays the seat: an agent, a difficulty, or 'human'")
    if gf.game.state.players[seat].eliminated:  # as the Discord bridge's /regent seat refuses it
        raise ValidationError(str(args.game), f"{gf.display(seat)} was eliminated: it has no decisions left for an "
                                              "AI or a player to make")
    if ai.is_human(args.agent):
        was = gf.label(seat) if seat in gf.agents else None
        gf.agents.pop(seat, None)
        # an AI decision already stored in this step stands (DMs are final), so step_ai keeps it: the step's
        # report still says the AI played the seat, and a DM from the player is answered "already in by its AI"
        gamefile.write(args.game, gf)
        # said, so the GM does not ask the player for a DM the step no longer takes ("already in by its AI")
        stands = (f"; its AI's decision for the {gf.game.step} step stands (DMs are final): the player decides from "
                  "the next step" if seat in gf.step_ai and _in_step(gf, seat) else "")
        print(f"{gf.display(seat)}: human" + (f" (was AI {was})" if was else " (already)") + stands)
        return 0
    name = agent_name(args.agent)
    gf.agents[seat] = name
    gamefile.note_level(gf.ai_levels, seat, name, args.agent)  # reports name it as given: "steward -> steward-search"
    gamefile.write(args.game, gf)
    shown = gf.label(seat)
    pending = any(p.seat == seat and not p.submitted for p in gf.game.pending())
    # the player's DM already stored for this step stands (DMs are final): the AI takes over from the next step
    sent = (f"; the player's own DM for the {gf.game.step} step stands (DMs are final): the AI decides from the "
            "next step"
            if not pending and seat not in gf.step_ai and _in_step(gf, seat) else "")
    print(f"{gf.display(seat)}: AI {shown}"
          + ("; it decides at the next 'regent adjudicate'" if pending else sent))
    return 0


def _in_step(gf: gamefile.GameFile, seat: str) -> bool:
    """``seat``'s decision for the open step is stored."""
    return any(p.seat == seat and p.submitted for p in gf.game.pending())


def agent_name(text: str) -> str:
    """The registry's name for an agent or difficulty, after building it once (a missing checkpoint or
    optional package is an error now, not when the seat must act)."""
    from agents.registry import make_agent
    from service import ai
    from service.errors import RpcError
    from service.extras import install_hint

    try:
        name = ai.resolve(text.strip(), "agent")
    except RpcError as err:
        raise ValidationError("agent", err.message.split(": ", 1)[-1]) from None
    try:
        make_agent(name, 0)
    except ModuleNotFoundError as err:
        raise ValidationError("agent", install_hint(err, f"the agent {name!r}")) from None
    except ValidationError:
        raise
    except Exception as err:  # a missing or unreadable checkpoint
        raise ValidationError("agent", f"cannot load {name!r}: {err}") from None
    return str(name)
