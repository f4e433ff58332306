"""How long each waiting step gives the seats, in hours (a GM's clock; the engine never waits itself).

# rules: 003 — 24h for the turn-1 bid and faction; 16h for a turn-1 re-bid; 72h for Negotiation and
# Orders; 24h for the Determine Protector US step; 24h for the Consolidation phase; The Bank of
# Lannuvár — "12h to give their highly informed orders, once the other players' choices have been
# revealed"; Team Games — "All 24h time windows are extended to 48h ... Any 72h windows stay the same."
"""

from __future__ import annotations

from engine.protectors.state import BANK_BID, BID, CONSOLIDATION, DRAGON, ORDERS, REBID, GameState

HOURS = {BID: 24, REBID: 16, BANK_BID: 12, ORDERS: 72, DRAGON: 24, CONSOLIDATION: 24}
TEAM_HOURS = {24: 48}  # only the 24h windows change (16h and 12h stay: assumption TEAM_WINDOWS)


def window_step(state: GameState) -> str:
    """The step whose window applies now: a Dragon Attack's Bank of Lannuvár round (its seats decide
    after the reveal) has the Bank's 12h, the ``bank_bid`` window."""
    if state.step == DRAGON and state.attack is not None and state.attack.bank_round:
        return BANK_BID
    return state.step


def deadline_hours(state: GameState, step: str | None = None,
                   windows: dict[str, float] | None = None) -> int | float | None:
    """Hours the seats have for ``step`` (default: the current step); None when nobody decides. ``windows``: the
    game's own windows, seconds per step kind (a GM's ``deadlines``, kept by the service: service/deadlines.py),
    which replace the rulebook's for the steps they name."""
    step = window_step(state) if step is None or step == state.step else step
    hours = HOURS.get(step)
    if hours is None:
        return None
    if windows and step in windows:
        return window_hours(windows[step])
    return TEAM_HOURS.get(hours, hours) if state.options.teams else hours


def window_hours(seconds: float) -> int | float:
    """A window in seconds as hours: whole hours as a whole number (172800: 48), else to 1/100 h (5400: 1.5)."""
    hours = round(seconds / 3600, 2)
    whole = int(hours)
    return whole if hours == whole else hours
