"""A hosted game's stored log of actions: replaying it (``apply_action``, ``engine_game``), finding where a replay
left the stored record (``divergence``), and who decided for each seat in the step now open (``open_step_by``)."""

from __future__ import annotations

import logging
from typing import Any

from engine.errors import RegentError, ValidationError
from engine.protectors.game import Game
from service.errors import INTERNAL, INVALID_PARAMS, RpcError, clip, invalid
from service.gamefile import state_digest as digest  # stored with every action (service/store.py)

log = logging.getLogger("regent.service")


def open_step_by(rows: list, position_ai: dict[str, str] | None = None) -> dict[str, str]:
    """Seat -> who decided for it (a row's ``by``) in the step now open: the rows since the last resolved step,
    the latest for a seat. A Bank of Lannuvár round (the step its ``advance`` row marks ``bank_round``: the
    Dragon attack's second round, the late bid) also keeps the AI decisions of the round it answers, as
    ``HostedGame.advance`` left them (rules: 003 The Bank of Lannuvár: decided once those choices are revealed).
    ``position_ai`` (meta's, from the setup's ``step_ai``): seat -> the agent whose decision the setup's position
    holds, ``position:<agent>`` while that step (the game's first here) is open."""
    by: dict[str, str] = {}
    answered = False  # walking the round a Bank round answers
    for row, _, _ in reversed(rows):
        if row["a"][0] == "advance":
            if answered or not row.get("bank_round"):
                break
            answered = True
        elif not answered or ":" in row["by"]:
            by.setdefault(row["a"][1], row["by"])
    else:  # back at the position the game was made from: its step is still open (or the round it answers)
        for seat, agent in (position_ai or {}).items():
            by.setdefault(seat, f"position:{agent}")
    return by


def divergence(setup: dict[str, Any], rows: list) -> str:
    """Where a replay whose end differs from the stored digest first left the stored record (replayed
    again, a digest after each action: only done for a game that does not match)."""
    game = Game(setup)
    for i, (row, _, dg) in enumerate(rows):
        before = (game.state.turn, game.step)
        apply_action(game, row["a"])
        if digest(game) != dg:
            return (f"replayed under this Regent's rules it leaves the stored record at action {i + 1} of "
                    f"{len(rows)} (turn {before[0]}, {before[1]} step): a rule changed since it was played")
    return "replayed under this Regent's rules it ends in another state than the stored one"


def engine_game(setup: dict[str, Any], field: str) -> Game:
    """``Game(setup)``; a shape the edge checks (service/validate.py) missed is the caller's
    ``invalid_params``, never ``internal``: nothing is stored yet. What the rules refuse in the setup is named
    from the request (``setup.players[2].faction``), as the edge checks name a wrong shape."""
    try:
        return Game(setup)
    except ValidationError as err:  # named from inside the setup: the wire names it from the request
        raise within(field, err) from None
    except RegentError:
        raise
    except (TypeError, KeyError, IndexError, AttributeError, ValueError) as err:
        log.warning("setup shape not caught at the edge (%s): %s", field, err)
        raise invalid(field, f"malformed ({type(err).__name__}: {clip(str(err), 100)})") from None


def within(field: str, err: ValidationError) -> RpcError:
    """``err`` (a field of the setup ``field`` holds) as the request's ``invalid_params``: its path and message
    start with ``field.``, its other details kept."""
    wire = err.to_wire()
    path = f"{field}.{err.field}"
    message = wire["message"]
    named = message.replace(f"{err.field}: ", f"{path}: ", 1) if f"{err.field}: " in message else f"{path}: {message}"
    return RpcError(INVALID_PARAMS, named, {**wire["details"], "field": path})


def apply_action(game: Game, action: list[Any]) -> None:
    if action[0] == "submit":
        game.submit(action[1], "\n".join(action[2]))
    elif action[0] == "advance":
        game.advance(force=bool(action[1]))
    else:
        raise RpcError(INTERNAL, f"unknown stored action {action[0]!r}")
