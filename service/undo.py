"""Rolling the last resolved step back (``game.undo``): the GM's way out of a mistake.

A GM who resolved a step too early (a DM came in late but in time, ``--force`` by mistake) takes
the game back to the moment before that step was resolved: the ``advance`` action and everything
stored after it (submissions to the next step, AI decisions) are removed from the store, and the
game is replayed from what remains. The submissions made to the restored step stand (rules: 003
Each Turn — "Once a DM is sent to the GM, your orders/choices are final"), except those the GM
names in ``drop`` (a DM entered for the wrong seat). The restored step starts a fresh window and is
*held*: it is not resolved on its own again (auto-advance or expiry) until the GM advances it, or
the step would at once resolve the same way again.
"""

from __future__ import annotations

import copy
import logging
import time
from typing import Any

from engine.errors import RegentError
from engine.protectors.game import Game
from service import clock
from service.errors import CONFLICT, INTERNAL, RpcError, StoreFailed, invalid
from service.hosted_log import apply_action, digest, open_step_by

log = logging.getLogger("regent.service")


def undo(hosted: Any, drop: list[str] | None = None) -> dict[str, Any]:
    """Undo ``hosted``'s last resolved step; returns what was removed and the step now waiting."""
    drop = list(drop or [])
    for i, seat in enumerate(drop):
        if seat not in hosted.game.state.players:
            raise invalid(f"drop[{i}]", f"unknown seat {seat!r}")
    rows = hosted.rows
    last = max((i for i, (row, _, _) in enumerate(rows) if row["a"][0] == "advance"), default=None)
    if last is None:
        raise RpcError(CONFLICT, "nothing to undo: no step has been resolved yet")
    if rows[last][0].get("by") == "import":
        raise RpcError(CONFLICT, "nothing to undo: the last resolved step came with the imported game")
    keep = list(rows[:last])
    if drop:
        start = max((i for i, (row, _, _) in enumerate(keep) if row["a"][0] == "advance"), default=-1) + 1
        keep = keep[:start] + [r for r in keep[start:] if not (r[0]["a"][0] == "submit" and r[0]["a"][1] in drop)]
    game = Game(hosted.game.setup)
    redigested = []
    try:
        for row, at, _ in keep:
            apply_action(game, row["a"])
            redigested.append((row, at, digest(game)))
    except RegentError as err:  # cannot happen for a log that replayed before: a real bug
        raise RpcError(INTERNAL, f"the game could not be rolled back: {err}") from None
    now = time.time()
    removed = rows[len(keep):] if not drop else [r for r in rows if r not in keep]
    before = (hosted.game, hosted.rows, hosted.step_started, hosted.by, copy.deepcopy(hosted.meta))
    meta = hosted.meta
    meta["step_started"] = now
    meta["held"] = True
    clock.new_step(meta, now)
    hosted.game, hosted.rows, hosted.step_started = game, redigested, now
    # a Bank of Lannuvár round restored keeps the round it answers' AI seats; the step a position was set up at,
    # the AI decisions its setup named (step_ai)
    hosted.by = open_step_by(redigested, hosted.meta.get("position_ai"))
    hosted.flags()  # the store's over/watch columns follow the rolled-back game
    if hosted.store is not None:
        try:
            hosted.store.truncate(hosted.id, redigested, meta)
        except Exception:
            log.exception("undo could not be stored for game %s; nothing changed", hosted.id)
            hosted.game, hosted.rows, hosted.step_started, hosted.by, hosted.meta = before
            raise StoreFailed("the step could not be rolled back in the store; nothing was changed") from None
    hosted.stored(meta)
    log.info("step rolled back", extra={"game_id": hosted.id})
    return {"turn": game.state.turn, "step": game.step, "removed": len(removed),
            "dropped": sorted({r[0]["a"][1] for r in removed if r[0]["a"][0] == "submit" and r[0]["a"][1] in drop}),
            "pending": hosted.pending(None)}
