"""Which game, chat and step a message is for, as pure functions: the ``game: NAME`` header a DM may start with
(``game_header``, ``names_a_game``), the chat a player's message came in (``channel_of``, as the state file's ``read``
marks name it), the step a game view shows (``step_of``) and the ``game.advance`` guards naming it (``step_guard``)."""

from __future__ import annotations

import re
from typing import Any

from service.discord.chat import DirectMessage

GAME_HEADER = re.compile(r"^\s*game\s*[:=]?\s*(\S+)\s*$", re.IGNORECASE)


def _unformatted(line: str) -> str:
    """A DM's line read through Discord formatting (`**game: main**`, `> game: main`), as its orders are."""
    return re.sub(r"[*`~]", "", line).strip().lstrip(">#").strip()


def game_header(line: str) -> str | None:
    """The game a DM's first line names (`game: main`, `**game: main**`, `> game: main`, `game main`)."""
    m = GAME_HEADER.match(_unformatted(line))
    return m.group(1) if m else None


def names_a_game(line: str) -> bool:
    """Whether the line is a `game: NAME` (or `game = NAME`) header beyond doubt: its colon says so, where
    `Game on` may be chatter."""
    return re.match(r"^game\s*[:=]", _unformatted(line), re.IGNORECASE) is not None


def channel_of(dm: DirectMessage) -> str:
    """The chat a player's message came in, as the state file's ``read`` marks name it."""
    return f"thread:{dm.thread_id}" if dm.thread_id is not None else f"dm:{dm.user_id}"


def step_guard(view: dict[str, Any]) -> dict[str, Any]:
    """``game.advance``'s guards naming the step ``view`` shows: the service resolves that step or none."""
    guard = {"turn": view.get("turn"), "step": view.get("step"), "step_started": view.get("step_started")}
    return {k: v for k, v in guard.items() if v is not None}


def step_of(view: dict[str, Any]) -> tuple[Any, Any, Any]:
    """Which step a view shows: a step resolved and the next one begun (even of the same kind, as a
    second Dragon attack in one turn) is another step."""
    return view.get("turn"), view.get("step"), view.get("step_started")
