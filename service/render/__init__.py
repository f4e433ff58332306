"""Pictures a GM can post: the board after a turn, the Dragon's state, and game summaries.

    png = render_board(game, None)                          # GM view, now
    png = render_board(game, None, turn=3, view="channel")  # what everyone may see, after turn 3
    svg = render_board(game, "Player#2", turn=3, fmt="svg") # Player#2's own view (for their DM)
    png = render_board(game, None, focus="Player#2")        # Player#2's area, public, legible on a phone
    png = render_summary(game, ai_seats={"Player#4": "caretaker"})
    gif = render_animation(game, view="channel")            # the whole game, one frame per turn

matplotlib is imported only inside these functions, so the service starts without it.
"""

from __future__ import annotations

from typing import Any

from engine.errors import ValidationError
from service.render.replay import check_turn, game_at_turn, turn_ends

FORMATS = ("png", "svg")
VIEWS = ("gm", "channel", "seat")
# A "now" picture tells the current turn's story once its orders have run; before that it shows
# the board with no moves (last turn's moves belong to the "after turn N-1" picture).
ORDERS_DONE_STEPS = ("consolidation", "over")

__all__ = ["FORMATS", "VIEWS", "board_scene", "focus_picture", "game_at_turn", "highlight_turn", "render_animation",
           "render_board", "render_summary", "turn_ends"]


def _check(fmt: str) -> None:
    if fmt not in FORMATS:
        raise ValidationError("format", f"must be 'png' or 'svg', not {fmt!r}")


def resolve_view(seat: str | None, view: str | None) -> str:
    """The kind of picture: ``gm`` (seat None), ``seat`` (a seat given) or ``channel``."""
    if view is None:
        return "gm" if seat is None else "seat"
    if view not in VIEWS:
        raise ValidationError("view", f"must be one of {', '.join(VIEWS)}, not {view!r}")
    if view == "seat" and seat is None:
        raise ValidationError("seat", "the seat view needs a seat, e.g. Player#2")
    if view != "seat" and seat is not None:
        raise ValidationError("seat", f"a seat is given only for the seat view, not the {view} view")
    return view


def _view_and_events(game: Any, seat: str | None, view: str) -> tuple[dict[str, Any], list[Any]]:
    if view == "channel":
        from service.render.channel import public_events, public_view

        return public_view(game), public_events(game)
    return game.view(seat), game.events(seat)


def orders_done(game: Any, seat: str | None = None, public: bool = False) -> bool:
    """Whether the current turn's orders have been carried out (as far as ``seat`` can tell; with
    ``public``, as far as every player can tell: from the public events only)."""
    t = game.state.turn
    if public:
        from service.render.channel import public_events

        events = public_events(game)
    else:
        events = game.events(seat)
    return game.step in ORDERS_DONE_STEPS or any(e.turn == t and e.kind in ("march", "battle", "seize")
                                                 for e in events)


def highlight_turn(game: Any, turn: int | None, seat: str | None = None, public: bool = False) -> int | None:
    """Which turn's marches and battles a picture shows: ``turn`` if given; else the current turn
    once its orders have been carried out, or none (a mid-turn picture shows no old moves)."""
    if turn is not None:
        return turn
    return game.state.turn if orders_done(game, seat, public) else None


def board_scene(game: Any, seat: str | None, turn: int | None = None, view: str | None = None):
    """The scene (plain data) a board picture is drawn from; see :mod:`service.render.scene`."""
    kind = resolve_view(seat, view)
    game.view(seat)  # raises ValidationError for an unknown seat
    if turn is not None:
        check_turn(game, turn)
    if turn is None or (turn == game.state.turn and not game.over and not orders_done(game, seat, kind == "channel")):
        return _scene_now(game, seat, kind)
    shown = game_at_turn(game, turn)
    return scene_after_turn(shown, turn, seat, kind)


def scene_after_turn(shown: Any, turn: int, seat: str | None, kind: str):
    """The picture of ``shown`` (the game at the end of ``turn``, see :func:`game_at_turn`)."""
    from service.render.scene import build_scene

    v, events = _view_and_events(shown, seat, kind)
    over = shown.over
    title = f"Protectors of the Realm - after turn {turn}" + (" (game over)" if over else "")
    # the moment is the end of the turn: the cards that were in play during it (the engine has
    # already put them away), and any Dragon Attack already queued for the next turn
    # (a game that ended in the Consolidation stays on its last turn, its cards put away all the same)
    cards = [e.data["card"] for e in events if e.turn == turn and e.kind == "card"] \
        if shown.state.turn > turn or over else None
    coming = list(shown.state.pending_attacks) if shown.state.turn > turn and not over else []
    return build_scene(v, events, turn, title=title, mode=kind, cards=cards, coming=coming,
                       colour_names=shown.colours())


def _scene_now(game: Any, seat: str | None, kind: str):
    from service.render.scene import build_scene

    v, events = _view_and_events(game, seat, kind)
    hl = highlight_turn(game, None, seat, kind == "channel")
    t = game.state.turn  # the note is read in Discord, the CLI and the service alike: no one tool's flag
    note = None if hl is not None or game.over else f"no moves yet in turn {t}" + (
        f"; turn {t - 1}'s are in the picture after turn {t - 1}" if t > 1 else "")
    return build_scene(v, events, hl, mode=kind, note=note, colour_names=game.colours())


def render_board(game: Any, seat: str | None, turn: int | None = None, fmt: str = "png",
                 view: str | None = None, focus: str | None = None, radius: int | None = None) -> bytes:
    """The board as ``view`` shows it (``gm``: everything; ``channel``: what every player may see;
    ``seat``: what ``seat`` may see; default: ``gm`` for seat None, else ``seat``), now or at the end
    of ``turn``, as PNG/SVG. With ``focus`` (a seat, ``Player#3``): only that seat's Provinces and those up to
    ``radius`` borders away (default 1), drawn large for a phone, public information only
    (:mod:`service.render.focus`)."""
    _check(fmt)
    from service.render.draw import draw_board, draw_focus, figure_bytes

    if focus is not None or radius is not None:
        fig, _ = draw_focus(focus_picture(game, focus, turn, radius, seat=seat, view=view))
        return figure_bytes(fig, fmt)
    scene = board_scene(game, seat, turn, view)
    fig, _ = draw_board(scene)
    return figure_bytes(fig, fmt)


def focus_picture(game: Any, focus: str | None, turn: int | None = None, radius: int | None = None,
                  seat: str | None = None, view: str | None = None):
    """The focused picture's model (:class:`service.render.focus.FocusPicture`) around seat ``focus``: built
    from the channel's scene alone, so it is the same whoever asks and whatever any seat keeps secret."""
    from service.render.focus import DEFAULT_RADIUS, build_focus, check_radius

    if focus is None:
        raise ValidationError("focus" if radius is None else "radius", "a focused picture needs the seat to focus on"
                              + ("" if radius is None else ": only a focused picture has a radius"))
    if seat is not None or view not in (None, "channel"):
        raise ValidationError("focus", "a focused picture shows what every player may see (the channel view); "
                                       "leave out the seat and the view")
    if not isinstance(focus, str) or focus not in game.state.players:
        raise ValidationError("focus", f"no seat {focus!r} in this game (name a seat like Player#2)")
    radius = check_radius(DEFAULT_RADIUS if radius is None else radius)
    return build_focus(board_scene(game, None, turn, "channel"), focus, radius)


def render_animation(game: Any, seat: str | None = None, view: str | None = "channel", **kwargs: Any) -> bytes:
    """The whole game as an animated GIF, one frame per turn (see :mod:`service.render.animate`)."""
    from service.render.animate import animate

    return animate(game, seat, resolve_view(seat, view), **kwargs)


def render_summary(game: Any, seat: str | None = None, ai_seats: dict[str, str] | None = None,
                   fmt: str = "png", view: str | None = None) -> bytes:
    """The game summary: VP table, which seats an AI played, Provinces held and VPs per turn, the
    Dragon's DPL after each turn; as ``view`` sees it (as for :func:`render_board`)."""
    _check(fmt)
    kind = resolve_view(seat, view)
    from service.render.draw import figure_bytes
    from service.render.summary import draw_summary, summary_data

    fig = draw_summary(summary_data(game, seat, ai_seats or {}, public=kind == "channel"))
    return figure_bytes(fig, fmt)
