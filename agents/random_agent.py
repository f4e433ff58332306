"""``random``: uniform over legal choices, one Province at a time. A baseline, and a fuzzer."""

from __future__ import annotations

import random

from engine.protectors.decisions import (
    BidDecision,
    ConsolidationDecision,
    Decision,
    DragonDecision,
    OrdersDecision,
)
from engine.protectors.orders import Commit, order_kind
from engine.protectors.seat import SeatContext
from engine.protectors.state import BANK_BID, BID, CONSOLIDATION, DRAGON, ORDERS, REBID
from engine.protectors.tables import UNIT_COST


class RandomAgent:
    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, ctx: SeatContext) -> Decision:
        r = self.rng
        if ctx.step in (BID, REBID, BANK_BID):
            return BidDecision(r.randint(0, ctx.realm // 4))
        if ctx.step == ORDERS:
            limits = dict(ctx.golden_limits())
            orders = []
            for prov in ctx.orderable():
                options = [o for o in ctx.legal_orders(prov) if not o.golden or limits[order_kind(o)] > 0]
                if not options:
                    continue
                o = r.choice(options)
                if o.golden:
                    limits[order_kind(o)] -= 1
                orders.append(o)
            return OrdersDecision(tuple(orders))
        if ctx.step == DRAGON:
            commits = []
            for prov in ctx.orderable():
                n = r.randint(0, ctx.view["provinces"][prov]["units"])
                if n and prov != ctx.view["island"]:
                    commits.append(Commit(prov, n))
            return ctx.validate(DragonDecision(tuple(commits)))
        if ctx.step == CONSOLIDATION:
            k = r.randint(0, ctx.realm // UNIT_COST)
            buys = tuple(ctx.even_placement(k))
            spent = sum(n for _, n in buys) * UNIT_COST
            return ConsolidationDecision(buys=buys, bid=r.randint(0, max(0, ctx.realm - spent) // 4))
        return ctx.default()
