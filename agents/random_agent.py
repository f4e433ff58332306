"""``random``: uniform over legal choices, one Province at a time. A baseline, and a fuzzer.

With factions or the Island it also picks a faction at the turn-1 bid and uses a usable ability now and
then (``ABILITY_RATE``), so random play exercises them too.
"""

from __future__ import annotations

import random

from engine.protectors.decisions import (
    BidDecision,
    ConsolidationDecision,
    Decision,
    DragonDecision,
    OrdersDecision,
)
from engine.protectors.factions import FACTIONS, chooses_faction
from engine.protectors.orders import Commit, order_kind
from engine.protectors.seat import SeatContext
from engine.protectors.state import BANK_BID, BID, CONSOLIDATION, DRAGON, ORDERS, REBID
from engine.protectors.tables import UNIT_COST

ABILITY_RATE = 0.3  # chance of using one usable ability in a step
ALONE = ("nothing_to_see_here", "bank_of_lannuvar")  # Dragon abilities sent instead of commitments


class RandomAgent:
    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def _ability(self, ctx: SeatContext):
        options = ctx.legal_abilities()
        if not options or self.rng.random() >= ABILITY_RATE:
            return None
        return self.rng.choice(options)

    def act(self, ctx: SeatContext) -> Decision:
        r = self.rng
        if ctx.step in (BID, REBID, BANK_BID):
            faction = r.choice(FACTIONS) if chooses_faction(ctx.state, ctx.seat) else None
            return BidDecision(r.randint(0, ctx.realm // 4), faction)
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
            a = self._ability(ctx)
            return OrdersDecision(tuple(orders), abilities=(a,) if a else ())
        if ctx.step == DRAGON:
            a = self._ability(ctx)
            if a is not None and a.name in ALONE:
                return ctx.validate(DragonDecision(abilities=(a,)))
            commits = []
            for prov in ctx.orderable():
                n = r.randint(0, ctx.view["provinces"][prov]["units"])
                if n and prov != ctx.view["island"]:
                    commits.append(Commit(prov, n))
            return ctx.validate(DragonDecision(tuple(commits), abilities=(a,) if a else ()))
        if ctx.step == CONSOLIDATION:
            a = self._ability(ctx)
            sanctum = [x for x in ctx.legal_abilities() if x.name == "sanctum"]
            abilities = tuple(x for x in (a, r.choice(sanctum) if sanctum and r.random() < 0.5 else None)
                              if x is not None)
            if len([x for x in abilities if x.name == "sanctum"]) > 1:
                abilities = abilities[:1]
            price = sum(ctx.ability_cost(x) for x in abilities)
            k = r.randint(0, max(0, ctx.realm - price) // UNIT_COST)
            buys = tuple(ctx.even_placement(k))
            spent = sum(n for _, n in buys) * UNIT_COST
            bank = any(x.name == "bank_of_lannuvar" for x in abilities)
            bid = 0 if bank else r.randint(0, max(0, ctx.realm - spent - price) // 4)
            return ConsolidationDecision(buys=buys, bid=bid, abilities=abilities)
        return ctx.default()
