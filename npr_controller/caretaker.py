"""``caretaker``: the rulebook's own default for an inactive Protectors player.

# rules: 003 — bid 0 (random faction); Fortify! everywhere with a golden Fortify! in the
# lowest-numbered Province when allowed; commit nothing to the Dragon; burn the lowest-numbered
# green Provinces; buy as many units as affordable spread evenly from the lowest-numbered Province.
The rule itself lives in ``engine.protectors.defaults``; this is the controller a seat is given.
"""

from __future__ import annotations

from engine.protectors.decisions import Decision
from engine.protectors.seat import SeatContext


class CaretakerAgent:
    name = "caretaker"

    def reset(self, seed: int | None = None) -> None:
        """Stateless: the defaults need no memory."""

    def act(self, ctx: SeatContext) -> Decision:
        return ctx.default()
