"""The legal choices of one step, enumerated: the candidates a search tries beside an agent's own choice.

Used by ``agents.search`` (the default ``search``, ``expert``, adds some of them, drawn at random) and by
the clairvoyant analysis player (``training.ceiling``, which tries them all). Each enumeration keeps
the parts of a decision it does not vary from a ``base`` decision (an agent's own choice):

- orders (rules: 003 Negotiation and Orders): one legal order per orderable Province, within the golden
  limits (rules: 003 Golden Orders); sends, snitch, ferries and abilities are the base's;
- a Dragon Attack's commitments (rules: 003 Determine Protector US step): every split of the seat's
  units over its Provinces; burns are the base's;
- Consolidation (rules: 003 Consolidation): buys of 0..all affordable units placed evenly, with and
  without the base's upgrades, times a grid of ranking bids for what is left (rules: 003 1. Protector Ranking).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from engine.protectors.decisions import BidDecision, ConsolidationDecision, Decision, DragonDecision, OrdersDecision
from engine.protectors.orders import Commit, order_kind
from engine.protectors.seat import SeatContext
from engine.protectors.state import BANK_BID, BID, CONSOLIDATION, DRAGON, ORDERS, REBID
from engine.protectors.tables import UNIT_COST, UPGRADE_COST

ORDERS_CAP = 400
"""at most this many order combinations are tried per orders step: every combination when there are no
more (a one- or two-Province seat), else this many drawn uniformly (seeded), plus the agents' choices"""
DRAGON_CAP = 200
"""the same for the splits of units committed to a Dragon Attack"""
BID_GRID = (0, 1, 2, 3, 5, 8, 10, 15, 20, 25, 30, 40, 50, 60, 75, 100, 125, 150, 200)
"""ranking bids tried at a bid or Consolidation step (with the agents' own bids and all-in): the ranking
depends only on the order of the bids, so a grid of small steps covers the orders that matter"""


class Candidates(list):
    """The decisions tried at one step; ``exhaustive``: every legal choice of the step's main part is
    among them (the order combinations or the Dragon splits; never true for bids, which are a grid)."""

    exhaustive: bool = False
    own: int = 0
    """how many of the first candidates are the agents' own choices"""


def combinations(options: Sequence[Sequence[Any]], cap: int, rng: random.Random, make) -> Candidates:
    """``make(combo)`` for every combination of one item from each of ``options`` when there are at most
    ``cap`` (then ``exhaustive``), else for ``cap`` of them drawn at random; ``make`` may return None (skip)."""
    total = 1
    for opts in options:
        total *= len(opts)
    exhaustive = total <= cap
    combos = (itertools.product(*options) if exhaustive
              else (tuple(rng.choice(opts) for opts in options) for _ in range(cap)))
    out = Candidates(d for d in map(make, combos) if d is not None)
    out.exhaustive = exhaustive
    return out


def orders_choices(ctx: SeatContext, base: OrdersDecision, rng: random.Random) -> Candidates:
    """Every combination of one legal order per orderable Province within the golden limits (rules: 003
    Golden Orders: one golden order of each kind a turn, as the bracket allows), or ``ORDERS_CAP`` of
    them drawn at random; sends, snitch, ferries and abilities are the base decision's."""
    limits = ctx.golden_limits()
    per_prov = [opts for opts in (ctx.legal_orders(p) for p in ctx.orderable()) if opts]

    def make(combo) -> OrdersDecision | None:
        used = Counter(order_kind(o) for o in combo if o.golden)
        if any(n > limits.get(k, 0) for k, n in used.items()):
            return None
        return OrdersDecision(tuple(combo), base.sends, base.snitch, base.ferries, base.abilities)

    return combinations(per_prov, ORDERS_CAP, rng, make)


def dragon_choices(ctx: SeatContext, base: DragonDecision, rng: random.Random) -> Candidates:
    """Every split of the seat's units over its Provinces committed to the fight (0..units each; rules:
    003 Determine Protector US step), casualties by the engine's default order, burns the base's."""
    view = ctx.view
    provs = [p for p in ctx.orderable() if p != view["island"] and view["provinces"][p]["units"] > 0]
    return combinations(
        [range(view["provinces"][p]["units"] + 1) for p in provs], DRAGON_CAP, rng,
        lambda counts: DragonDecision(tuple(Commit(p, n) for p, n in zip(provs, counts, strict=True) if n),
                                      base.burns))


def bids(realm: int, known: Iterable[int]) -> list[int]:
    """The grid, the ``known`` bids (the agents' own, the others' just submitted and one more than each:
    every place in the ranking), and all-in; those the seat can pay."""
    return sorted({b for b in (*BID_GRID, *known, realm) if 0 <= b <= realm})


def consolidation_choices(ctx: SeatContext, base: ConsolidationDecision, known: Iterable[int]) -> Candidates:
    """Buys of 0..all affordable units (placed evenly, rules: 003 Consolidation), with and without the
    base decision's upgrades, times the bids for what is left."""
    out = Candidates()
    realm, known = ctx.realm, tuple(known)
    most = sum(n for _, n in ctx.even_placement(None))  # all it can afford, within the supply limit
    for upgrades in dict.fromkeys(((), base.upgrades)):
        for k in range(most + 1):
            buys = tuple(ctx.even_placement(k))
            left = realm - UNIT_COST * sum(n for _, n in buys) - UPGRADE_COST * len(upgrades)
            if left >= 0:
                out += [ConsolidationDecision(buys, upgrades, base.capitol, b, base.abilities)
                        for b in bids(left, known)]
    return out


def step_choices(ctx: SeatContext, base: Decision, rng: random.Random, known: Iterable[int] = ()) -> Candidates:
    """The enumeration for ``ctx``'s step around ``base`` (empty at a step with none, or when ``base`` is
    not that step's kind of decision); ``known``: ranking bids to try beside the grid (the agents' own;
    the clairvoyant player also reads the others')."""
    if ctx.step == ORDERS and isinstance(base, OrdersDecision):
        return orders_choices(ctx, base, rng)
    if ctx.step == DRAGON and isinstance(base, DragonDecision):
        return dragon_choices(ctx, base, rng)
    if ctx.step == CONSOLIDATION and isinstance(base, ConsolidationDecision):
        return consolidation_choices(ctx, base, known)
    if ctx.step in (BID, REBID, BANK_BID) and isinstance(base, BidDecision):
        return Candidates(BidDecision(b, base.faction, base.funding) for b in bids(ctx.realm, known))
    return Candidates()
