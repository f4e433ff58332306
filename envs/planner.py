"""Autoregressive decision building: one engine decision as a sequence of small masked choices.

A ``Planner`` is made for one seat when the engine waits for that seat. It offers a mask over the
actions of ``envs.layout``, takes one action at a time, and once ``finished`` gives the whole engine
``Decision``. Masks come from the engine's legal enumeration (``legality.legal_orders``,
``golden_limits``, ``orderable``, ``march_targets``) plus the decision-wide limits the planner
tracks (one order per Province, one golden order per type, the $Realm still free), so every
finished decision passes ``Game.submit``. A mask is never empty: when nothing else is legal,
DONE is.

Orders (rules: 003 Negotiation and Orders): Provinces are taken lowest number first; for each:
KIND (or DONE: no order there) -> [Ferry! YES/DONE] -> target PROV -> COUNT (March!) or PLAYER
(Support!). Then, on a Pirates! turn, PLAYER to snitch on or DONE. $Realm transfers are left out
(the issue allows it).
Abilities (orders, Dragon, Consolidation) come first: each one the engine lists as usable now
(``abilities.legal_abilities``) is offered YES/DONE (Fight fire with fire!: COUNT Highmagisters).
Bids: [FACTION] -> AMOUNT. Dragon: abilities -> COUNT per Province (DONE = none) -> PROV to burn
per missing min.US point (DONE = rulebook default). Consolidation: abilities -> upgrade YES/DONE per
eligible Province -> COUNT to buy per Province (DONE = none) -> [Capitol PROV] -> AMOUNT bid of what
is left (none with The Bank of Lannuvár).
"""

from __future__ import annotations

import numpy as np

from engine.protectors import cards as C
from engine.protectors.consolidation import supply_limit
from engine.protectors.decisions import BidDecision, ConsolidationDecision, DragonDecision, OrdersDecision
from engine.protectors.dragon import active_cards, contribution
from engine.protectors.factions import FACTIONS
from engine.protectors.legality import golden_limits, legal_orders, march_targets, orderable
from engine.protectors.orders import Ability, Commit, March, Support, order_kind
from engine.protectors.state import BANK_BID, BID, CONSOLIDATION, DRAGON, ORDERS, REBID, GameState
from engine.protectors.tables import FERRY_COST, MAX_LEVEL, UNIT_COST, UPGRADE_COST, min_us
from envs import layout as L

STAGES = ("faction", "bid", "kind", "ferry", "target", "count", "player", "snitch", "ability",
          "commit", "burn", "upgrade", "buy", "capitol")
# Abilities given "instead of" everything else in a Dragon Attack (rules: 003 Nothing to see here!,
# The Bank of Lannuvár): choosing one ends the decision.
ALONE_IN_DRAGON = frozenset({"nothing_to_see_here", "bank_of_lannuvar"})
STAGE_INDEX = {s: i for i, s in enumerate(STAGES)}


def _num(p: str) -> int:
    return int(p[1:])


class Planner:
    """Base: a stage machine. Subclasses set ``stage`` and implement ``_mask`` / ``_apply``."""

    kind = ""

    def __init__(self, state: GameState, seat: str):
        self.state = state
        self.seat = seat
        self.seats = list(state.players)
        self.me = self.seats.index(seat)
        self.stage: str | None = None
        self.province: str | None = None  # the Province the current choice is about
        self.picked_kind = -1
        self.target: str | None = None
        self.budget = state.players[seat].realm
        self.choices = 0
        self._cached_mask: np.ndarray | None = None
        self.abilities: list[Ability] = []
        self.ability: Ability | None = None  # the candidate the current choice is about
        self._ability_queue: list[Ability] = []

    # -- faction / Island abilities (rules: 003 Factions, Island Rules) ----------------------------
    def _start_abilities(self) -> None:
        """Offer each ability the engine says is usable now (``abilities.legal_abilities``), one at a
        time: YES/DONE, or COUNT for Fight fire with fire! (Highmagisters)."""
        st = self.state
        if not st.options.factions and st.board.island is None:
            legal_abilities = None  # abilities come only from factions and the Island (rules: 003)
        else:
            try:
                from engine.protectors.abilities import legal_abilities
            except ImportError:  # an engine without abilities
                legal_abilities = None
        self._ability_queue = list(legal_abilities(st, self.seat)) if legal_abilities else []
        self._next_ability()

    def _ability_cost(self, a: Ability) -> int:
        from engine.protectors.abilities import cost

        return cost(self.state, self.seat, a)

    def _next_ability(self) -> None:
        taken = {a.name for a in self.abilities}
        while self._ability_queue:
            a = self._ability_queue[0]
            if a.name in taken or self._ability_cost(a) > self.budget:
                self._ability_queue.pop(0)
                continue
            self.ability, self.stage = a, "ability"
            return
        self.ability = None
        self._after_abilities()

    def _ability_mask(self, m: np.ndarray) -> None:
        m[L.DONE] = True
        a = self.ability
        if a.name == "fight_fire_with_fire":
            for c in self._ability_queue:
                if c.name == a.name and c.value and c.value <= L.MAX_COUNT and self._ability_cost(c) <= self.budget:
                    m[L.COUNT0 + c.value - 1] = True
        else:
            m[L.YES] = True

    def _ability_apply(self, a: int) -> None:
        cand = self.ability
        if a == L.DONE:
            if cand.name == "fight_fire_with_fire":
                self._ability_queue = [c for c in self._ability_queue if c.name != cand.name]
            else:
                self._ability_queue.pop(0)
            return self._next_ability()
        if cand.name == "fight_fire_with_fire":
            cand = next(c for c in self._ability_queue if c.name == cand.name and c.value == a - L.COUNT0 + 1)
        self.abilities.append(cand)
        self.budget -= self._ability_cost(cand)
        self._ability_queue = [c for c in self._ability_queue if c.name != cand.name]
        if self.kind == "dragon" and cand.name in ALONE_IN_DRAGON:
            self.ability, self.stage = None, None
            return None
        return self._next_ability()

    def _after_abilities(self) -> None:
        raise NotImplementedError

    # -- public -----------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.stage is None

    def mask(self) -> np.ndarray:
        if self._cached_mask is None:
            m = np.zeros(L.ACTION_SIZE, dtype=bool)
            if self.stage is None:
                m[L.DONE] = True
            else:
                self._mask(m)
                if not m.any():  # never empty: DONE is the safe fallback of every stage
                    m[L.DONE] = True
            self._cached_mask = m
        return self._cached_mask

    def apply(self, action: int) -> None:
        from engine.errors import ValidationError

        if self.stage is None:
            raise ValidationError("action", "this decision is already complete")
        if not (0 <= action < L.ACTION_SIZE) or not self.mask()[action]:
            raise ValidationError("action", f"{L.describe(int(action))} is not legal in the {self.stage} choice")
        self._cached_mask = None
        self.choices += 1
        self._apply(int(action))

    def skip_forced(self) -> int:
        """Apply choices that have exactly one legal action; returns how many were applied."""
        n = 0
        while self.stage is not None:
            m = self.mask()
            idx = np.flatnonzero(m)
            if len(idx) != 1:
                break
            self.apply(int(idx[0]))
            n += 1
        return n

    def player_slot(self, seat: str) -> int:
        return (self.seats.index(seat) - self.me) % len(self.seats)

    def slot_player(self, slot: int) -> str:
        return self.seats[(self.me + slot) % len(self.seats)]

    def _active_slots(self, m: np.ndarray, exclude_self: bool = False) -> None:
        for s in self.state.active():
            slot = self.player_slot(s)
            if not (exclude_self and slot == 0):
                m[L.PLAYER0 + slot] = True

    # subclass hooks
    def _mask(self, m: np.ndarray) -> None:
        raise NotImplementedError

    def _apply(self, a: int) -> None:
        raise NotImplementedError

    def decision(self):
        raise NotImplementedError


class BidPlanner(Planner):
    """rules: 003 Protector Ranking — a secret bid (and the faction with the turn-1 bid)."""

    kind = "bid"

    def __init__(self, state: GameState, seat: str):
        super().__init__(state, seat)
        self.faction: str | None = None
        self.bid = 0
        o = state.options
        self.stage = "faction" if state.step == BID and o.factions and o.faction_choice == "chosen" else "bid"

    def _mask(self, m):
        if self.stage == "faction":
            m[L.FACTION0:L.FACTION0 + len(FACTIONS)] = True
        else:
            seen = set()
            for i in range(len(L.BID_FRACTIONS)):
                amt = L.bid_amount(i, self.budget)
                if amt not in seen:  # equal amounts are the same choice: keep the first bucket
                    seen.add(amt)
                    m[L.AMOUNT0 + i] = True

    def _apply(self, a):
        if self.stage == "faction":
            self.faction = FACTIONS[a - L.FACTION0]
            self.stage = "bid"
        else:
            self.bid = L.bid_amount(a - L.AMOUNT0, self.budget)
            self.stage = None

    def decision(self):
        return BidDecision(self.bid, self.faction)


class OrdersPlanner(Planner):
    """rules: 003 Negotiation and Orders; Orders; Golden Orders; Sea cards (Ferry!, Pirates!)."""

    kind = "orders"

    def __init__(self, state: GameState, seat: str):
        super().__init__(state, seat)
        self.queue = orderable(state, seat)
        self.queue.sort(key=_num)
        self.limits = golden_limits(state, seat)
        cards = active_cards(state)
        self.ferry_card = C.FERRY in cards and C.SEAFARERS not in cards
        self.pirates = C.PIRATES in cards
        self.orders: list = []
        self.ferries: list[str] = []
        self.snitch: str | None = None
        self.options: dict[int, object] = {}
        self.use_ferry = False
        self._start_abilities()

    def _after_abilities(self) -> None:
        self._next_province()

    def _next_province(self) -> None:
        self.target, self.picked_kind, self.use_ferry = None, -1, False
        if self.queue:
            self.province = self.queue.pop(0)
            self.options = self._kind_options(self.province)
            self.stage = "kind"
        else:
            self.province = None
            self.stage = "snitch" if self.pirates else None

    def _kind_options(self, prov: str) -> dict[int, dict]:
        """KIND index -> {target: counts or players} from the engine's enumeration."""
        out: dict[int, dict] = {}
        for o in legal_orders(self.state, self.seat, prov):
            if isinstance(o, March):
                out.setdefault(L.KIND_INDEX[("march", o.golden, o.delayed)], {}).setdefault(o.dst, set()).add(o.count)
            elif isinstance(o, Support):
                out.setdefault(L.KIND_INDEX[("support", o.golden, False)], {}).setdefault(o.target, set()).add(
                    o.player)
            else:
                out.setdefault(L.KIND_INDEX[(order_kind(o), o.golden, False)], {})
        if self.ferry_card and self.budget >= FERRY_COST:  # rules: 003 Ferry! — any Province, 25 each
            units = self.state.provinces[prov].units
            for golden in ((False, True) if self.limits["march"] else (False,)):
                for delayed in (False, True):
                    out.setdefault(L.KIND_INDEX[("march", golden, delayed)], {})
            self._ferry_units = units
        return out

    def _mask(self, m):
        st = self.stage
        if st == "ability":
            return self._ability_mask(m)
        if st == "kind":
            m[L.DONE] = True
            for k in self.options:
                kind, golden, _ = L.KINDS[k]
                if not golden or self.limits[kind] > 0:
                    m[L.KIND0 + k] = True
        elif st == "ferry":
            m[L.YES] = True
            if self.options[self.picked_kind]:
                m[L.DONE] = True
        elif st == "target":
            for t in self._targets():
                m[L.PROV0 + _num(t)] = True
        elif st == "count":
            for n in self._counts():
                if n <= L.MAX_COUNT:
                    m[L.COUNT0 + n - 1] = True
        elif st == "player":
            for s in self.options[self.picked_kind][self.target]:
                m[L.PLAYER0 + self.player_slot(s)] = True
        elif st == "snitch":
            m[L.DONE] = True
            self._active_slots(m, exclude_self=True)

    def _targets(self):
        if self.use_ferry:
            return march_targets(self.state, self.seat, self.province, (self.province,))
        return self.options[self.picked_kind].keys()

    def _counts(self):
        if self.use_ferry:
            return range(1, self.state.provinces[self.province].units + 1)
        return sorted(self.options[self.picked_kind][self.target])

    def _apply(self, a):
        st = self.stage
        if st == "ability":
            return self._ability_apply(a)
        if st == "kind":
            if a == L.DONE:
                return self._next_province()
            self.picked_kind = a - L.KIND0
            kind = L.KINDS[self.picked_kind][0]
            if kind in ("fortify", "work"):
                return self._finish_order()
            if kind == "march" and self.ferry_card and self.budget >= FERRY_COST:
                self.stage = "ferry"
            else:
                self.stage = "target"
        elif st == "ferry":
            self.use_ferry = a == L.YES
            self.stage = "target"
        elif st == "target":
            self.target = f"P{a - L.PROV0}"
            self.stage = "count" if L.KINDS[self.picked_kind][0] == "march" else "player"
        elif st == "count":
            self._finish_order(count=a - L.COUNT0 + 1)
        elif st == "player":
            self._finish_order(player=self.slot_player(a - L.PLAYER0))
        elif st == "snitch":
            self.snitch = None if a == L.DONE else self.slot_player(a - L.PLAYER0)
            self.stage = None

    def _finish_order(self, count: int = 0, player: str | None = None) -> None:
        from engine.protectors.orders import Fortify, Work

        kind, golden, delayed = L.KINDS[self.picked_kind]
        p = self.province
        if kind == "march":
            self.orders.append(March(count, p, self.target, golden, delayed))
            if self.use_ferry:
                self.ferries.append(p)
                self.budget -= FERRY_COST
        elif kind == "support":
            self.orders.append(Support(player, self.target, p, golden))
        elif kind == "fortify":
            self.orders.append(Fortify(p, golden))
        else:
            self.orders.append(Work(p, golden))
        if golden:
            self.limits[kind] -= 1
        self._next_province()

    def decision(self):
        return OrdersDecision(tuple(self.orders), snitch=self.snitch, ferries=tuple(self.ferries),
                              abilities=tuple(self.abilities))


class DragonPlanner(Planner):
    """rules: 003 Determine Protector US step; The Dragon's Wrath (burn choices); Cenarion; Kalu'Ak;
    Lannuvár. Abilities first (hiding or the Bank end the decision), then units per Province, then
    which green Provinces burn for each missing min.US point."""

    kind = "dragon"

    def __init__(self, state: GameState, seat: str):
        super().__init__(state, seat)
        isl = state.board.island
        self.queue = sorted((p for p in state.owned(seat) if p != isl and state.holder(p) == seat
                             and state.provinces[p].units > 0), key=_num)
        self.commits: list[Commit] = []
        self.burns: list[str] = []
        self.green = sorted(state.green(seat), key=_num)
        att = state.attack
        self.min_us = min_us(len(self.green), bool(att and att.worldeater))
        self._start_abilities()

    def _after_abilities(self) -> None:
        self._next_commit()

    def _next_commit(self):
        if self.queue:
            self.province = self.queue.pop(0)
            self.stage = "commit"
        else:
            self.province = None
            self.stage = "burn" if self.shortfall() > len(self.burns) else None

    def shortfall(self) -> int:
        us, _ = contribution(self.state, self.seat, DragonDecision(tuple(self.commits), (), tuple(self.abilities)))
        return max(0, self.min_us - us)

    def _mask(self, m):
        st = self.stage
        if st == "ability":
            self._ability_mask(m)
        elif st == "commit":
            m[L.DONE] = True
            for n in range(1, min(self.state.provinces[self.province].units, L.MAX_COUNT) + 1):
                m[L.COUNT0 + n - 1] = True
        elif st == "burn":
            m[L.DONE] = True
            for p in self.green:
                if p not in self.burns:
                    m[L.PROV0 + _num(p)] = True

    def _apply(self, a):
        st = self.stage
        if st == "ability":
            self._ability_apply(a)
        elif st == "commit":
            if a != L.DONE:
                self.commits.append(Commit(self.province, a - L.COUNT0 + 1))
            self._next_commit()
        elif st == "burn":
            if a == L.DONE:
                self.stage = None
            else:
                self.burns.append(f"P{a - L.PROV0}")
                if len(self.burns) >= self.shortfall() or len(self.burns) >= len(self.green):
                    self.stage = None

    def decision(self):
        return DragonDecision(tuple(self.commits), tuple(self.burns), tuple(self.abilities))


class ConsolidationPlanner(Planner):
    """rules: 003 5. Consolidation — buying step, Golden Work upgrades, Capitol, bidding step."""

    kind = "consolidation"

    def __init__(self, state: GameState, seat: str):
        super().__init__(state, seat)
        self.owned = sorted(state.owned(seat), key=_num)
        self.faith = False
        self.upgrades: list[str] = []
        self.buys: list[tuple[str, int]] = []
        self.capitol: str | None = None
        self.bid = 0
        self.up_queue = [p for p in self.owned if state.golden_work_done.get(p) == seat
                         and state.provinces[p].level < MAX_LEVEL]
        self.buy_queue = [p for p in self.owned if state.holder(p) in (seat, None) or state.provinces[p].units == 0]
        self._start_abilities()

    def _after_abilities(self) -> None:
        self.faith = any(a.name == "faith_alone" for a in self.abilities)
        self._next_upgrade()

    def _levels(self) -> dict[str, int]:
        lv = {p: self.state.provinces[p].level for p in self.owned}
        for p in self.upgrades:
            lv[p] += 1
        return lv

    def _next_upgrade(self):
        while self.up_queue:
            p = self.up_queue.pop(0)
            lv = self._levels()
            blocked = lv[p] == MAX_LEVEL - 1 and any(v == MAX_LEVEL for v in lv.values())
            if self.budget >= UPGRADE_COST and not blocked:
                self.province, self.stage = p, "upgrade"
                return
        self._next_buy()

    def _room(self, p: str) -> int:
        extra = 1 if self.faith and p != self.state.board.island else 0
        return supply_limit(self.state, p, self.seat) + extra - self.state.provinces[p].units

    def _next_buy(self):
        while self.buy_queue:
            p = self.buy_queue.pop(0)
            if self._room(p) > 0 and self.budget >= UNIT_COST:
                self.province, self.stage = p, "buy"
                return
        self.province = None
        lv = self._levels()
        self.stage = "capitol" if sum(1 for v in lv.values() if v == MAX_LEVEL) > 1 else self._bid_stage()

    def _bid_stage(self) -> str | None:
        # rules: 003 The Bank of Lannuvár — no bid this turn (the Bank bids after the others)
        return None if any(a.name == "bank_of_lannuvar" for a in self.abilities) else "bid"

    def _mask(self, m):
        st = self.stage
        if st == "ability":
            self._ability_mask(m)
        elif st == "upgrade":
            m[L.YES] = m[L.DONE] = True
        elif st == "buy":
            m[L.DONE] = True
            for n in range(1, min(self._room(self.province), self.budget // UNIT_COST, L.MAX_COUNT) + 1):
                m[L.COUNT0 + n - 1] = True
        elif st == "capitol":
            for p, v in self._levels().items():
                if v == MAX_LEVEL:
                    m[L.PROV0 + _num(p)] = True
        elif st == "bid":
            seen = set()
            for i in range(len(L.BID_FRACTIONS)):
                amt = L.bid_amount(i, self.budget)
                if amt not in seen:
                    seen.add(amt)
                    m[L.AMOUNT0 + i] = True

    def _apply(self, a):
        st = self.stage
        if st == "ability":
            self._ability_apply(a)
        elif st == "upgrade":
            if a == L.YES:
                self.upgrades.append(self.province)
                self.budget -= UPGRADE_COST
            self._next_upgrade()
        elif st == "buy":
            if a != L.DONE:
                n = a - L.COUNT0 + 1
                self.buys.append((self.province, n))
                self.budget -= n * UNIT_COST
            self._next_buy()
        elif st == "capitol":
            self.capitol = f"P{a - L.PROV0}"
            self.stage = self._bid_stage()
        elif st == "bid":
            self.bid = L.bid_amount(a - L.AMOUNT0, self.budget)
            self.stage = None

    def decision(self):
        return ConsolidationDecision(tuple(self.buys), tuple(self.upgrades), self.capitol, self.bid,
                                     tuple(self.abilities))


PLANNERS = {BID: BidPlanner, REBID: BidPlanner, BANK_BID: BidPlanner, ORDERS: OrdersPlanner,
            DRAGON: DragonPlanner, CONSOLIDATION: ConsolidationPlanner}


def make_planner(state: GameState, seat: str) -> Planner:
    """The planner for ``seat``'s decision in the current step."""
    return PLANNERS[state.step](state, seat)
