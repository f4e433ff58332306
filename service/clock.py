"""The GM's hand on a game's clock: extend the current step's deadline, pause and resume it.

The rules give each step a window (``service.deadlines``); a GM running the game in a chat often
needs more: a player asks for a day, a holiday stops the game. The clock lives in the game's
service metadata (``meta["clock"]``), so it is stored with the game and survives a restart:

- ``extra``: seconds added to the current step's deadline (``game.deadline`` ``extend``);
- ``paused_at``: when the clock was paused (``pause``), or ``None``. While paused, every deadline
  moves forward with the wall clock and no step expires; ``resume`` adds the paused time to
  ``extra``.

A new step starts with ``extra = 0``; a paused game stays paused into its next step.

A game file (``game.export``) carries the clock and whether ``game.undo`` held the step as its
``service.clock`` (``to_file``), for the step it was written in: ``game.import`` brings it back
(``from_file``) only while the file's actions are those it was written after, since a tool that
resolved a step in the file meanwhile started another.
"""

from __future__ import annotations

import math
import time
from typing import Any

from service.errors import CONFLICT, RpcError, invalid

ACTIONS = ("extend", "pause", "resume")
MAX_EXTEND = 365 * 24 * 3600.0  # a year: anything longer is a typo, not a deadline


def state(meta: dict[str, Any]) -> dict[str, Any]:
    return meta.setdefault("clock", {"extra": 0.0, "paused_at": None})


def shift(meta: dict[str, Any], now: float | None = None) -> float:
    """Seconds to add to the rulebook deadline of the current step."""
    clock = meta.get("clock") or {}
    extra = float(clock.get("extra") or 0.0)
    if clock.get("paused_at") is not None:
        extra += max(0.0, (time.time() if now is None else now) - clock["paused_at"])
    return extra


def paused(meta: dict[str, Any]) -> bool:
    return (meta.get("clock") or {}).get("paused_at") is not None


def new_step(meta: dict[str, Any], now: float) -> None:
    """A step was resolved: the next one starts with its full window (still paused if paused)."""
    clock = state(meta)
    clock["extra"] = 0.0
    if clock["paused_at"] is not None:
        clock["paused_at"] = now


def change(meta: dict[str, Any], action: Any, seconds: Any, now: float) -> dict[str, Any]:
    """Apply one GM clock action; raises ``invalid_params`` / ``conflict`` and changes nothing then."""
    if action not in ACTIONS:
        raise invalid("action", f"must be one of {', '.join(ACTIONS)}, not {action!r:.40}")
    clock = dict(state(meta))
    if action == "extend":
        if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not 0 < seconds <= MAX_EXTEND:
            raise invalid("seconds", f"must be a number of seconds in (0, {MAX_EXTEND:.0f}]")
        clock["extra"] = float(clock["extra"]) + float(seconds)
    elif seconds is not None:
        raise invalid("seconds", f"is only for extend, not {action}")
    elif action == "pause":
        if clock["paused_at"] is not None:
            raise RpcError(CONFLICT, "the clock is already paused")
        clock["paused_at"] = now
    else:
        if clock["paused_at"] is None:
            raise RpcError(CONFLICT, "the clock is not paused")
        clock["extra"] = float(clock["extra"]) + max(0.0, now - clock["paused_at"])
        clock["paused_at"] = None
    meta["clock"] = clock
    return clock


def describe(meta: dict[str, Any], now: float | None = None) -> dict[str, Any]:
    """What ``game.view`` shows of the clock."""
    return {"paused": paused(meta), "shift": shift(meta, now), "held": bool(meta.get("held"))}


FILE_KEYS = ("actions", "extra", "paused", "held")


def to_file(meta: dict[str, Any], actions: int) -> dict[str, Any] | None:
    """The clock as a game file's ``service.clock`` carries it after ``actions`` engine actions; None if the GM
    left it alone (no extension, not paused, no step held by ``game.undo``)."""
    clock = meta.get("clock") or {}
    out: dict[str, Any] = {}
    if float(clock.get("extra") or 0.0):
        out["extra"] = float(clock["extra"])
    if clock.get("paused_at") is not None:
        out["paused"] = True
    if meta.get("held"):
        out["held"] = True
    return {"actions": actions, **out} if out else None


def from_file(meta: dict[str, Any], value: Any, actions: int, now: float, field: str = "blob.service.clock") -> None:
    """Bring a game file's ``service.clock`` into ``meta`` for a game brought in at ``now`` (its step starts
    then, still paused if it was): only if the file holds the ``actions`` it was written after."""
    if value is None:
        return
    if not isinstance(value, dict) or set(value) - set(FILE_KEYS):
        raise invalid(
            field, "must be a map {actions, extra: seconds, paused: bool, held: bool} (as game.export writes it)"
        )
    for key in ("paused", "held"):
        if not isinstance(value.get(key, False), bool):
            raise invalid(f"{field}.{key}", "must be true or false")
    extra = value.get("extra", 0.0)
    if isinstance(extra, bool) or not isinstance(extra, int | float) or not math.isfinite(extra) or extra < 0:
        raise invalid(f"{field}.extra", "must be a number of seconds, 0 or more")
    at = value.get("actions")
    if isinstance(at, bool) or not isinstance(at, int) or at < 0:
        raise invalid(f"{field}.actions", "must be the number of actions the file held when it was written")
    if at != actions:
        return  # the file's game went on elsewhere: its open step is another one, on the rulebook's clock
    meta["clock"] = {"extra": float(extra), "paused_at": now if value.get("paused") else None}
    if value.get("held"):
        meta["held"] = True
