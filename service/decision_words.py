"""A decision's lines as a GM or a player reads them back: an empty one in the rules' words."""

from __future__ import annotations

from engine.protectors.dm_read import LIGHTS_OUT, NONE

# what an empty decision is, said as the rules say it (docs/dm-syntax.md): `none` in the orders step is no
# orders at all (not the rulebook's Fortify! for a silent seat); in a Dragon Attack it commits nothing
NOTHING = {"orders": "none (no orders: the units stay where they are and do nothing)",
           "dragon": f"{LIGHTS_OUT} (no Army Units committed)"}


def said(lines: list[str], step: str) -> str:
    """A stored decision's lines, an empty one in the rules' words (``none`` orders, no units committed)."""
    return "; ".join(lines) or NOTHING.get(step, NONE)
