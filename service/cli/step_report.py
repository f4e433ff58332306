"""What ``regent adjudicate``'s report of a resolved step says beyond the engine's events.

An orders step in which every seat sent ``none`` (docs/dm-syntax.md: no orders at all, the units stay where they
are; not the rulebook's Fortify! for a silent seat) leaves no event to report: the engine executes nothing, and
the production that follows is each seat's secret. The report says so in one line instead of being empty.
"""

from __future__ import annotations

from typing import Any

from engine.protectors.state import ORDERS

NO_ORDERS = "No orders this turn: every player sent none, so every Army Unit stays where it is."


def nobody_orders(game: Any) -> bool:
    """The orders step waits for no one, and every seat it waited for sent ``none``: no line at all (a look at
    a deck sent beside it is no order, and a seat left to the rulebook default gets Fortify!)."""
    st = game.state
    seats = game.deciding_seats()
    return (st.step == ORDERS and bool(seats)
            and all(s in st.submissions and not st.submissions[s].lines() for s in seats))


def with_no_orders(report: str, turn: int) -> str:
    """``report`` (the public report of the orders step just resolved, perhaps empty) with :data:`NO_ORDERS`
    first under turn ``turn``'s header (rules: 003 Each Turn, what was given is revealed as it is executed)."""
    header, line = f"== Turn {turn} ==", f"- {NO_ORDERS}"
    lines = report.split("\n") if report else []
    if lines and lines[0] == header:
        return "\n".join([header, line, *lines[1:]])
    return "\n".join([header, line, *lines])
