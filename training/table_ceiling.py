"""How far a filler's Dragon fights can move the table: a cheating steward as a measured bound.

The steward's main lever on Dragon wins (rules: 003 Fire and blood!) is its units in Dragon fights. The
``full-stack`` steward cheats: at every Dragon decision the engine first fills each Province it holds
to the supply limit (rules: 003 Consolidation, "Max supply limit for a single Province is 3 Army
Units") for free, then it commits everything. No rules-legal filler of the same seat can bring more
units to a fight, so the Dragon's win rate beside it bounds what that lever can do; ``regent eval table``
with ``--fillers steward`` beside ``python -m training.table_ceiling`` shows the gap (docs/table-health.md).
It is an analysis tool: the registry does not know it and the service cannot seat it.
"""

from __future__ import annotations

import argparse
from typing import Any

from agents import registry
from agents.steward import StewardAgent
from engine.protectors.decisions import Decision
from engine.protectors.seat import SeatContext
from engine.protectors.state import DRAGON
from engine.protectors.tables import SUPPLY_LIMIT

FULL_STACK = "full-stack"


class FullStackSteward(StewardAgent):
    """The steward, given a full stack in every Province it holds before each Dragon fight (a cheat)."""

    name = FULL_STACK

    def __init__(self, seed: int | None = None):
        super().__init__(seed, others_commit=1e9)  # and it always commits everything

    def act(self, ctx: SeatContext) -> Decision:
        if ctx.step == DRAGON:
            st = ctx._game.state  # the real game: this is the cheat
            for p, pr in st.provinces.items():
                if pr.owner == ctx.seat and st.holder(p) == ctx.seat and not pr.burnt and p != st.board.island:
                    pr.units = max(pr.units, SUPPLY_LIMIT)
            ctx = SeatContext(ctx._game, ctx.seat)  # a fresh view of the filled board
        return super().act(ctx)


def main(argv: list[str] | None = None) -> int:
    from training.table import compare, table_rows

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=10000)
    ap.add_argument("--fillers", default="heuristic,steward", help="measured beside the full-stack steward")
    args = ap.parse_args(argv)
    registry.AGENTS[FULL_STACK] = lambda seed: FullStackSteward(seed)
    try:
        report: dict[str, Any] = compare([*args.fillers.split(","), FULL_STACK], games=args.games,
                                         players=args.players, seed=args.seed, progress=True)
    finally:
        del registry.AGENTS[FULL_STACK]
    print("\n".join(table_rows(report)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
