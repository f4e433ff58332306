"""The expert action: which masked choice of an ``agents.spaces.planner`` planner is consistent with a whole
engine ``Decision`` (for behaviour cloning from the heuristic, ``training.imitation``).

Given the planner's current stage (and the Province / ability it is about) and the target decision,
``expert_action`` names the action that builds the same decision, using only the planner's public
state (``stage``, ``province``, ``ability``, ``budget``, ``burns``, ``mask()``, ``player_slot``).
Where the action space cannot say exactly what the decision says (a bid between two buckets, more
units than the mask offers), the closest legal action of the same section is taken; where the decision
says nothing (the faction when the heuristic leaves it to chance), ``None`` is returned and the
caller picks (``training.imitation`` picks at random and does not learn from that choice).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from agents.spaces import layout as L
from engine.protectors.decisions import BidDecision, ConsolidationDecision, DragonDecision, OrdersDecision
from engine.protectors.factions import FACTIONS
from engine.protectors.orders import March, Support, order_kind


def _num(p: str) -> int:
    return int(p[1:])


def closest(mask: np.ndarray, start: int, size: int, value_of, want: float) -> int | None:
    """The legal action of section [start, start+size) whose value is closest to ``want``."""
    best, best_d = None, None
    for a in range(start, start + size):
        if mask[a]:
            d = abs(value_of(a) - want)
            if best_d is None or d < best_d:
                best, best_d = a, d
    return best


def _count_action(mask: np.ndarray, n: int) -> int:
    """COUNT n, or the closest legal COUNT; DONE for 0 (or when no COUNT is legal)."""
    if n <= 0:
        return L.DONE if mask[L.DONE] else first_legal(mask)
    a = closest(mask, L.COUNT0, L.MAX_COUNT, lambda x: x - L.COUNT0 + 1, n)
    return a if a is not None else (L.DONE if mask[L.DONE] else first_legal(mask))


def _bid_action(planner, mask: np.ndarray, bid: int) -> int:
    a = closest(mask, L.AMOUNT0, len(L.BID_FRACTIONS), lambda x: L.bid_amount(x - L.AMOUNT0, planner.budget), bid)
    return a if a is not None else first_legal(mask)


def first_legal(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def _or_done(mask: np.ndarray, a: int) -> int:
    if 0 <= a < L.ACTION_SIZE and mask[a]:
        return a
    return L.DONE if mask[L.DONE] else first_legal(mask)


def _ability_action(planner, mask: np.ndarray, abilities: Iterable) -> int:
    cand = planner.ability
    for a in abilities:
        if a.name == cand.name:
            if a.name == "fight_fire_with_fire":
                return _count_action(mask, int(a.value or 0))
            return _or_done(mask, L.YES)
    return _or_done(mask, L.DONE)


def _order_for(planner, decision: OrdersDecision):
    for o in decision.orders:
        p = o.province
        if p == planner.province or (p is None and len(decision.orders) == 1):
            return o
    return None


def _orders_action(planner, mask: np.ndarray, d: OrdersDecision) -> int:
    st = planner.stage
    if st == "ability":
        return _ability_action(planner, mask, d.abilities)
    if st == "snitch":
        return _or_done(mask, L.PLAYER0 + planner.player_slot(d.snitch) if d.snitch else L.DONE)
    o = _order_for(planner, d)
    if st == "kind":
        if o is None:
            return _or_done(mask, L.DONE)
        key = (order_kind(o), bool(getattr(o, "golden", False)), bool(getattr(o, "delayed", False)))
        return _or_done(mask, L.KIND0 + L.KIND_INDEX[key])
    if st == "ferry":
        return _or_done(mask, L.YES if planner.province in d.ferries else L.DONE)
    if st == "target":
        dst = o.dst if isinstance(o, March) else o.target if isinstance(o, Support) else None
        a = L.PROV0 + _num(dst) if dst else -1
        return a if 0 <= a < L.ACTION_SIZE and mask[a] else first_legal(mask)
    if st == "count":
        return _count_action(mask, o.count if isinstance(o, March) else 0)
    if st == "player":
        a = L.PLAYER0 + planner.player_slot(o.player) if isinstance(o, Support) else -1
        return a if 0 <= a < L.ACTION_SIZE and mask[a] else first_legal(mask)
    return first_legal(mask)


def _dragon_action(planner, mask: np.ndarray, d: DragonDecision) -> int:
    st = planner.stage
    if st == "ability":
        return _ability_action(planner, mask, d.abilities)
    if st == "commit":
        return _count_action(mask, sum(c.count for c in d.commits if c.src == planner.province))
    if st == "burn":
        for p in d.burns:
            if p not in planner.burns and mask[L.PROV0 + _num(p)]:
                return L.PROV0 + _num(p)
        return _or_done(mask, L.DONE)
    if st == "target":  # the sacrifice choice (agents.spaces.planner_phases.SAC_STAGE): a Province given a sac, or DONE
        done = getattr(planner, "sacs", {})
        for c in d.commits:
            if c.sac and c.src not in done and mask[L.PROV0 + _num(c.src)]:
                return L.PROV0 + _num(c.src)
        return _or_done(mask, L.DONE)
    return first_legal(mask)


def _consolidation_action(planner, mask: np.ndarray, d: ConsolidationDecision) -> int:
    st = planner.stage
    if st == "ability":
        return _ability_action(planner, mask, d.abilities)
    if st == "upgrade":
        return _or_done(mask, L.YES if planner.province in d.upgrades else L.DONE)
    if st == "buy":
        return _count_action(mask, sum(n for p, n in d.buys if p == planner.province))
    if st == "capitol":
        a = L.PROV0 + _num(d.capitol) if d.capitol else -1
        return a if 0 <= a < L.ACTION_SIZE and mask[a] else first_legal(mask)
    if st == "bid":
        return _bid_action(planner, mask, d.bid)
    return first_legal(mask)


def expert_action(planner, decision) -> int | None:
    """The action of ``planner``'s current choice that is consistent with ``decision`` (always legal),
    or None when ``decision`` leaves this choice open (a faction left to chance)."""
    mask = planner.mask()
    st = planner.stage
    if isinstance(decision, BidDecision):
        if st == "faction":
            if decision.faction in FACTIONS:
                return _or_done(mask, L.FACTION0 + FACTIONS.index(decision.faction))
            return None
        return _bid_action(planner, mask, decision.bid)
    if isinstance(decision, OrdersDecision):
        return _orders_action(planner, mask, decision)
    if isinstance(decision, DragonDecision):
        return _dragon_action(planner, mask, decision)
    if isinstance(decision, ConsolidationDecision):
        return _consolidation_action(planner, mask, decision)
    return first_legal(mask)
