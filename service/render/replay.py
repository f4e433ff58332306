"""Rebuild a game as it stood at the end of a past turn, by replaying its blob's actions."""

from __future__ import annotations

from typing import Any

import msgpack

from engine.errors import ValidationError


def game_at_turn(game: Any, turn: int) -> Any:
    """The game right after turn ``turn``'s Consolidation was resolved.

    Replays ``game.to_blob()``'s setup and actions on a fresh game and stops at the first
    ``advance`` that moves the game past ``turn`` (or ends it). The engine runs straight on into the
    next turn's ranking and card reveals, which need no decision, so those are part of the picture
    (assumption TURN_PICTURE in docs/parts/render-assumptions.md). The current turn returns a copy
    of the game as it is now.
    """
    from engine.protectors.game import Game

    if isinstance(turn, bool) or not isinstance(turn, int):
        raise ValidationError("turn", f"must be a whole number, not {turn!r}")
    now = game.state.turn
    if not 1 <= turn <= now:
        raise ValidationError("turn", f"must be between 1 and the current turn {now}, not {turn}")
    if turn == now:
        return game.clone()
    data = msgpack.unpackb(game.to_blob(), raw=False, strict_map_key=False)
    actions = data["actions"]
    replay = Game(data["setup"])
    for i, action in enumerate(actions):
        if action[0] == "submit":
            replay.submit(action[1], "\n".join(action[2]))
        elif action[0] == "advance":
            replay.advance(force=bool(action[1]))
            if replay.state.turn > turn or replay.over:
                # This is Game.from_blob of the blob cut after action i, replayed once.
                replay.actions = [list(a) for a in actions[:i + 1]]
                return replay
        else:
            raise ValidationError(f"blob.actions[{i}]", f"unknown action {action[0]!r}")
    return replay
