"""The board picture anyone may see: what a game channel is shown (``game.render`` with ``public``).

The GM's picture shows every seat's $Realm, and a seat's picture is drawn from that seat's view and
the events it sees (its own secrets included). A picture posted in a channel must hold neither: it is
drawn from the GM's view with every $Realm removed and from the public events only (those visible to
everyone), and says "public view" where the GM's says "GM view".
"""

from __future__ import annotations

from typing import Any


def scene(game: Any, turn: int | None = None) -> Any:
    from service.render import game_at_turn, highlight_turn
    from service.render.scene import build_scene

    shown = game if turn is None else game_at_turn(game, turn)
    view = shown.view(None)
    for player in view["players"].values():
        player.pop("realm", None)
    events = [e for e in shown.events(None) if e.visible_to is None]
    hl = turn if turn is not None else highlight_turn(shown, None, None)
    title = None
    if turn is not None:
        title = f"Protectors of the Realm - after turn {turn}" + (" (game over)" if shown.over else "")
    out = build_scene(view, events, hl, title=title)
    out.gm = False  # no $Realm column
    out.subtitle = out.subtitle.replace("GM view", "public view")
    return out


def render(game: Any, turn: int | None = None, fmt: str = "png") -> bytes:
    from service.render.draw import draw_board, figure_bytes

    fig, _ = draw_board(scene(game, turn))
    return figure_bytes(fig, fmt)
