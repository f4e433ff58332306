"""Rebuild a game as it stood at the end of a past turn, by replaying its blob's actions.

"After turn T" is one moment: turn T's Consolidation has been resolved and nothing of turn T+1
has happened yet (no ranking, no card reveal, no Dragon Attack started by a card). The engine runs
straight on from the Consolidation into the next turn's ranking and reveals, since they need no
decision; the replay stops it there (assumption TURN_PICTURE in docs/assumptions.md). A Dragon
Attack already queued at that moment (one triggered by an elimination) is known and shown as coming.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgpack

from engine.errors import ValidationError
from engine.protectors.position import before_position

CONSOLIDATION = "consolidation"


def check_turn(game: Any, turn: Any) -> int:
    if isinstance(turn, bool) or not isinstance(turn, int):
        raise ValidationError("turn", f"must be a whole number, not {turn!r}")
    now = game.state.turn
    if not 1 <= turn <= now:
        raise ValidationError("turn", f"must be between 1 and the current turn {now}, not {turn}")
    return turn


def game_at_turn(game: Any, turn: int) -> Any:
    """The game at the end of turn ``turn`` (its Consolidation resolved, turn+1 not begun).

    The current turn returns a copy of the game as it is now.
    """
    check_turn(game, turn)
    if turn == game.state.turn:
        return game.clone()
    why = before_position(game.setup, turn, "no board before that is carried")
    if why:
        raise ValidationError("turn", why)
    for t, snapshot in turn_ends(game):
        if t == turn:
            return snapshot
    raise ValidationError("turn", f"turn {turn} never reached its Consolidation in this game")


def turn_ends(game: Any) -> Iterator[tuple[int, Any]]:
    """``(turn, game at the end of that turn)`` for every turn whose Consolidation was resolved,
    in one replay of ``game``'s actions. A game that ended at a turn's end yields its final state."""
    from engine.errors import RegentError
    from engine.protectors.game import Game

    data = msgpack.unpackb(game.to_blob(), raw=False, strict_map_key=False)
    replay = Game(data["setup"])
    for i, action in enumerate(data["actions"]):
        try:
            if action[0] == "submit":
                replay.submit(action[1], "\n".join(action[2]))
            elif action[0] == "advance":
                if replay.step != CONSOLIDATION:
                    replay.advance(force=bool(action[1]))
                    continue
                turn = replay.state.turn
                held = _advance_held(replay, bool(action[1]))
                snapshot = replay.clone()
                if held:
                    replay._run()  # the rest of the engine's own advance: the next turn begins
                    if replay.over and replay.state.turn == snapshot.state.turn:
                        snapshot = replay.clone()  # the game ended right there: show its end
                yield turn, snapshot
            else:
                raise ValidationError(f"blob.actions[{i}]", f"unknown action {action[0]!r}")
        except RegentError as err:
            if isinstance(err, ValidationError) and err.field.startswith("blob."):
                raise
            raise ValidationError(f"blob.actions[{i}]", f"does not replay: {err}") from err


def _nothing() -> None:
    return None


def _advance_held(replay: Any, force: bool) -> bool:
    """``replay.advance(force)`` stopped right after the Consolidation is resolved, before the engine
    runs on into the next turn. Returns False when the engine cannot be held there (a compiled build
    whose methods cannot be shadowed): the advance then runs in full, as the GM saw it."""
    try:
        replay._run = _nothing  # shadows the method on this instance only
    except (AttributeError, TypeError):
        replay.advance(force=force)
        return False
    try:
        replay.advance(force=force)
    finally:
        del replay._run
    return True
