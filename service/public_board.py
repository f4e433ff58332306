"""The board picture anyone may see: what a game channel is shown (``game.render`` with
``view="channel"``, or the older ``public=True``).

Kept for callers of ``public_board.scene``/``render``; the picture itself is the channel view of
:mod:`service.render` (built in :mod:`service.render.channel`: only the public keys of the view and the
public events, so no $Realm, bids, orders, decks or peeks).
"""

from __future__ import annotations

from typing import Any


def scene(game: Any, turn: int | None = None) -> Any:
    from service.render import board_scene

    return board_scene(game, None, turn, view="channel")


def render(game: Any, turn: int | None = None, fmt: str = "png") -> bytes:
    from service.render import render_board

    return render_board(game, None, turn, fmt, view="channel")
