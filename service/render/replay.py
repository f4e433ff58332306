"""Rebuild a game as it stood at the end of a past turn, by replaying its blob's actions."""

from __future__ import annotations

from typing import Any

import msgpack

from engine.errors import ValidationError


def game_at_turn(game: Any, turn: int) -> Any:
    """The game right after turn ``turn``'s Consolidation was resolved.

    Finds the first ``advance`` in ``game.to_blob()``'s actions that moves the game past ``turn``
    (or ends it) and rebuilds the game with ``Game.from_blob`` from the blob cut there. The engine
    runs straight on into the next turn's ranking and card reveals, which need no decision, so
    those are part of the picture
    (assumption TURN_PICTURE in docs/assumptions.md). The current turn returns a copy
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
    return Game.from_blob(msgpack.packb({**data, "actions": actions[:_cut(data["setup"], actions, turn)]},
                                        use_bin_type=True))


def _cut(setup: dict[str, Any], actions: list[list[Any]], turn: int) -> int:
    """How many actions bring the game to the end of ``turn``: up to the first ``advance`` after
    which the game is past ``turn`` or over (all of them if it never gets there)."""
    from engine.errors import RegentError
    from engine.protectors.game import Game

    replay = Game(setup)
    for i, action in enumerate(actions):
        try:
            if action[0] == "submit":
                replay.submit(action[1], "\n".join(action[2]))
            elif action[0] == "advance":
                replay.advance(force=bool(action[1]))
                if replay.state.turn > turn or replay.over:
                    return i + 1
            else:
                raise ValidationError(f"blob.actions[{i}]", f"unknown action {action[0]!r}")
        except RegentError as err:
            if isinstance(err, ValidationError) and err.field.startswith("blob."):
                raise
            raise ValidationError(f"blob.actions[{i}]", f"does not replay: {err}") from err
    return len(actions)
