"""Which picture a token may have drawn by the ``game.render`` RPC (``service/app.py``).

- The GM token: any view: ``gm`` (everything), ``channel`` (what every player may see) or ``seat``
  (the ``seat`` named: what that seat may see, for its DM).
- A seat token: its own ``seat`` view or the ``channel`` view; never the GM's, never another seat's.
- ``public: true`` (older callers) is the channel view.
Without ``view``: the GM gets the GM view, a seat its own.
"""

from __future__ import annotations

from typing import Any

from service.errors import FORBIDDEN, RpcError, invalid

VIEWS = ("gm", "channel", "seat")
KINDS = ("board", "summary", "animation")


def picture_view(who: str | None, view: Any, seat: Any, public: bool) -> tuple[str, str | None]:
    """``(view, seat)`` to draw for a token speaking for ``who`` (``None``: the GM)."""
    if public:
        if view not in (None, "channel"):
            raise invalid("public", f"public: true is the channel view, not the {view!r} view; leave one out")
        view = "channel"
    if view is None:
        view = "gm" if who is None else "seat"
    if view not in VIEWS:
        raise invalid("view", f"must be one of {', '.join(VIEWS)}, not {view!r}")
    if view == "seat":
        target = who if seat is None else seat
        if target is None:
            raise invalid("seat", "the seat view needs a seat, e.g. seat: 'Player#2'")
        if who is not None and target != who:
            raise RpcError(FORBIDDEN, "a seat token may have only its own seat's view or the channel view drawn",
                           {"field": "seat"})
        return "seat", target
    if seat is not None:
        raise invalid("seat", f"a seat is named only for the seat view, not the {view} view")
    if view == "gm" and who is not None:
        raise RpcError(FORBIDDEN, "the gm view shows every seat's secrets: it needs the GM token", {"field": "view"})
    return view, None


def picture_format(kind: str, fmt: Any) -> str:
    """The format for ``kind``: png/svg for a board or summary (default png), gif for an animation."""
    if kind not in KINDS:
        raise invalid("kind", f"must be one of {', '.join(KINDS)}, not {kind!r}")
    allowed = ("gif",) if kind == "animation" else ("png", "svg")
    fmt = allowed[0] if fmt is None else fmt
    if fmt not in allowed:
        raise invalid("format", f"a {kind} is drawn as {' or '.join(allowed)}, not {fmt!r}")
    return fmt


MAX_RADIUS = 4  # a focused picture's radius, borders away (focus.py reads it here: this module needs no matplotlib)


def picture_focus(game: Any, who: str | None, focus: Any, radius: Any, kind: str, view: Any, seat: Any) -> str | None:
    """The seat a focused board picture is drawn around (``focus``: Player#3, a display name or a colour), checked
    with the rest of the call, or ``None``. A focused picture is the channel's (public) information only, so any
    token may have one drawn around any seat; an unknown name is explained with the seats there are to the GM
    only (a seat token is never told which names exist)."""
    if focus is None:
        if radius is not None:
            raise invalid("radius", "only a focused picture has a radius: name the seat in focus")
        return None
    if kind != "board":
        raise invalid("focus", f"a focused picture is of the board, not the {kind}; leave out focus")
    if seat is not None or view not in (None, "channel"):
        raise invalid("focus", "a focused picture shows what every player may see (the channel view); "
                               "leave out seat and view")
    if radius is not None and not 0 <= radius <= MAX_RADIUS:
        raise invalid("radius", f"must be from 0 to {MAX_RADIUS} (borders away from the focused seat's Provinces)")
    from service import seat_names

    named = seat_names.seat_named(game, focus)
    if named is None:  # the GM gets every seat (details.seats); a seat's token learns no other seat's name
        raise (seat_names.unknown_seat_error(game, "focus", focus) if who is None
               else invalid("focus", f"no seat is called {focus[:40]!r}"))
    return named
