"""Decision windows: how long the rules give a seat for each kind of decision.

The service stores when each waiting step started; a pending decision's deadline is that time plus
the window below. Every window can be overridden per game with ``setup["deadlines"]`` (seconds).
"""

from __future__ import annotations

import math
from typing import Any

from service.errors import invalid

HOUR = 3600
DEFAULT_WINDOWS = {
    # rules: 003 Protector Ranking — "24h is given ... for the Protector Rank bidding / selecting a faction"
    "bid": 24 * HOUR,
    # rules: 003 Protector Ranking — ties on the first turn: "16h will be given to the tied players"
    "rebid": 16 * HOUR,
    # rules: 003 Lannuvár, The Bank of Lannuvár — "will have 12h to give their highly informed orders"
    "bank_bid": 12 * HOUR,
    # rules: 003 3. Negotiation and Orders — "72h is given to the players"
    "orders": 72 * HOUR,
    # rules: 003 Dragon Attack — "within the time limit (24h)"
    "dragon": 24 * HOUR,
    # rules: 003 5. Consolidation — "24h is given to the players for this phase"
    "consolidation": 24 * HOUR,
}
# The longest window a game may set (hB item 6: NaN, inf and 1e300 were stored, and a NaN window
# resolved its step at once and broke exported files): a year, the same bound as
# ``game.deadline extend`` (service/clock.py MAX_EXTEND).
MAX_WINDOW = 365 * 24 * HOUR


def window_problem(value: Any) -> str | None:
    """Why ``value`` is not a decision window in seconds, or None if it is one."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return f"must be a number of seconds from 0 to {MAX_WINDOW}, not {type(value).__name__}"
    if isinstance(value, float) and not math.isfinite(value):
        return f"must be a finite number of seconds from 0 to {MAX_WINDOW}, not {value}"
    if not 0 <= value <= MAX_WINDOW:
        return f"must be a number of seconds from 0 to {MAX_WINDOW} (a year), not {value:.6g}"
    return None


# rules: 003 Team Games — "All 24h time windows are extended to 48h ... Any 72h windows stay the same."
TEAM_EXTENDED = {24 * HOUR: 48 * HOUR}


def windows(setup: dict[str, Any], overrides: Any) -> dict[str, float]:
    """The windows (seconds) for one game: rulebook defaults, team extension, then overrides."""
    teams = bool((setup.get("options") or {}).get("teams"))
    out: dict[str, float] = {k: (TEAM_EXTENDED.get(v, v) if teams else v) for k, v in DEFAULT_WINDOWS.items()}
    if overrides is None:
        return out
    if not isinstance(overrides, dict):
        raise invalid("deadlines", "must be a map of step -> seconds")
    for k, v in overrides.items():
        if k not in DEFAULT_WINDOWS:
            raise invalid(f"deadlines.{k}", f"unknown step; expected one of {', '.join(DEFAULT_WINDOWS)}")
        problem = window_problem(v)
        if problem:
            raise invalid(f"deadlines.{k}", problem)
        out[k] = float(v)
    return out
