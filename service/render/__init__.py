"""Pictures a GM can post: the board after a turn, the Dragon's state, and game summaries.

    png = render_board(game, None)                    # GM view, now
    svg = render_board(game, "Player#2", turn=3, fmt="svg")
    png = render_summary(game, ai_seats={"Player#4": "caretaker"})

matplotlib is imported only inside these functions, so the service starts without it.
"""

from __future__ import annotations

from typing import Any

from engine.errors import ValidationError
from service.render.replay import game_at_turn

FORMATS = ("png", "svg")
# A "now" picture tells the current turn's story once its orders have run, else the last turn's.
ORDERS_DONE_STEPS = ("consolidation", "over")

__all__ = ["FORMATS", "game_at_turn", "highlight_turn", "render_board", "render_summary"]


def _check(fmt: str) -> None:
    if fmt not in FORMATS:
        raise ValidationError("format", f"must be 'png' or 'svg', not {fmt!r}")


def highlight_turn(game: Any, turn: int | None, seat: str | None = None) -> int | None:
    """Which turn's marches and battles a picture shows: ``turn`` if given; else the current turn
    once its orders have been carried out (as far as ``seat`` can tell), or the previous turn."""
    if turn is not None:
        return turn
    t = game.view(seat)["turn"]
    done = game.step in ORDERS_DONE_STEPS or any(
        e.turn == t and e.kind in ("march", "battle", "seize") for e in game.events(seat))
    if done:
        return t
    return t - 1 if t > 1 else None


def board_scene(game: Any, seat: str | None, turn: int | None = None):
    """The scene (plain data) a board picture is drawn from; see :mod:`service.render.scene`."""
    from service.render.scene import build_scene

    view = game.view(seat)  # raises ValidationError for an unknown seat
    shown = game if turn is None else game_at_turn(game, turn)
    if shown is not game:
        view = shown.view(seat)
    hl = highlight_turn(shown, turn, seat)
    title = None
    if turn is not None:
        title = f"Protectors of the Realm - after turn {turn}" + (" (game over)" if shown.over else "")
    return build_scene(view, shown.events(seat), hl, title=title)


def render_board(game: Any, seat: str | None, turn: int | None = None, fmt: str = "png") -> bytes:
    """The board as ``seat`` sees it (``None``: the GM), now or at the end of ``turn``, as PNG/SVG."""
    _check(fmt)
    scene = board_scene(game, seat, turn)
    from service.render.draw import draw_board, figure_bytes

    fig, _ = draw_board(scene)
    return figure_bytes(fig, fmt)


def render_summary(game: Any, seat: str | None = None, ai_seats: dict[str, str] | None = None,
                   fmt: str = "png") -> bytes:
    """The game summary: VP table, which seats an AI played, provinces held per turn."""
    _check(fmt)
    from service.render.draw import figure_bytes
    from service.render.summary import draw_summary, summary_data

    fig = draw_summary(summary_data(game, seat, ai_seats or {}))
    return figure_bytes(fig, fmt)
