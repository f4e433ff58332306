"""Bids, Dragon commitments and Consolidation as masked choices (see ``agents.spaces.planner``)."""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from agents.spaces import layout as L
from agents.spaces.planner_base import Planner, _num
from engine.protectors.consolidation import supply_limit
from engine.protectors.decisions import BidDecision, ConsolidationDecision, DragonDecision
from engine.protectors.dragon import contribution
from engine.protectors.factions import FACTIONS, chooses_faction
from engine.protectors.orders import Commit
from engine.protectors.state import GameState
from engine.protectors.tables import MAX_LEVEL, UNIT_COST, UPGRADE_COST, min_us

# The sacrifice choice reuses the "target" stage (the stage one-hot is part of the frozen observation):
# in a Dragon planner it means "which committed Province suffers the casualties" (see DragonPlanner).
SAC_STAGE = "target"

_FACTION_ACTIONS = tuple(range(L.FACTION0, L.FACTION0 + len(FACTIONS)))
# DONE and COUNT 1..n, for n = 0..MAX_COUNT (shared lists: callers never modify them)
_COUNTS_WITH_DONE = [[L.DONE] + [L.COUNT0 + i for i in range(n)] for n in range(L.MAX_COUNT + 1)]
_BID_ACTIONS: dict[int, list[int]] = {}


def bid_actions(budget: int) -> list[int]:
    """AMOUNT buckets for a bid from ``budget``: equal amounts are the same choice, the first bucket
    is kept. Memoised per budget (a pure function of it; do not modify the list)."""
    out = _BID_ACTIONS.get(budget)
    if out is None:
        out, seen = [], set()
        for i in range(len(L.BID_FRACTIONS)):
            amt = L.bid_amount(i, budget)
            if amt not in seen:
                seen.add(amt)
                out.append(L.AMOUNT0 + i)
        if len(_BID_ACTIONS) < 100_000:
            _BID_ACTIONS[budget] = out
    return out


@mypyc_attr(allow_interpreted_subclasses=True)  # Python's __new__ under mypyc: pickles (values.py)
class BidPlanner(Planner):
    """rules: 003 Protector Ranking — a secret bid (and the faction with the turn-1 bid)."""

    kind = "bid"

    def __init__(self, state: GameState, seat: str):
        super().__init__(state, seat)
        self.faction: str | None = None
        self.bid = 0
        self.stage = "faction" if chooses_faction(state, seat) else "bid"

    def _legal(self) -> list[int]:
        if self.stage == "faction":
            return list(_FACTION_ACTIONS)
        return bid_actions(self.budget)

    def _apply(self, a):
        if self.stage == "faction":
            self.faction = FACTIONS[a - L.FACTION0]
            self.stage = "bid"
        else:
            self.bid = L.bid_amount(a - L.AMOUNT0, self.budget)
            self.stage = None

    def decision(self):
        return BidDecision(self.bid, self.faction)


@mypyc_attr(allow_interpreted_subclasses=True)  # Python's __new__ under mypyc: pickles (values.py)
class DragonPlanner(Planner):
    """rules: 003 Determine Protector US step; The Dragon's Wrath (burn choices); Cenarion; Kalu'Ak;
    Lannuvár. Abilities first (hiding or the Bank end the decision), then units per Province, then
    which green Provinces burn for each missing min.US point, or which Provinces suffer the casualties
    (``sac``) should the Protectors win.

    The sacrifice (rules: 003 Determine Protector US step — "For players committing more Army Units
    (from several Provinces) than required based on their min.US contribution, they also need to
    specify from which Province they want to suffer casualties ("sac")"): asked only when the seat
    meets its min.US (otherwise every committed unit dies whoever wins) with units from two or more
    Provinces and more units than its min.US, the only case where the casualties (min.US units,
    ``dragon._vaporise``) can fall in more than one way. It is a PROV choice among the committed
    Provinces not picked yet, in stage ``SAC_STAGE``: each pick gives that Province
    ``sac = min(casualties still unassigned, units committed there)``; it repeats while casualties are
    unassigned and two or more committed Provinces are left (with one left, where the rest fall is
    settled). DONE leaves the rest to the rulebook default (the engine's ``sac`` Provinces first, then
    lowest-numbered)."""

    kind = "dragon"

    def __init__(self, state: GameState, seat: str):
        super().__init__(state, seat)
        isl = state.board.island
        self.queue = sorted((p for p in state.owned(seat) if p != isl and state.holder(p) == seat
                             and state.provinces[p].units > 0), key=_num)
        self.commits: list[Commit] = []
        self.burns: list[str] = []
        self.sacs: dict[str, int] = {}  # Province -> casualties assigned there (in pick order)
        self.casualties = 0  # units the Dragon kills should the Protectors win (the sac stage only)
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
            return
        self.province = None
        missing = self.shortfall()
        if missing > len(self.burns):
            self.stage = "burn"
        elif missing == 0 and len(self.commits) > 1 and sum(c.count for c in self.commits) > self.min_us > 0:
            # rules: 003 Determine Protector US step — "sac"; the Protectors win: min.US units die
            self.casualties = self.min_us
            self.stage = SAC_STAGE
        else:
            self.stage = None

    def unassigned(self) -> int:
        """Casualties not yet given a Province in the sac stage."""
        return self.casualties - sum(self.sacs.values())

    def _sac_open(self) -> list[Commit]:
        return [c for c in self.commits if c.src not in self.sacs]

    def shortfall(self) -> int:
        us, _ = contribution(self.state, self.seat, DragonDecision(tuple(self.commits), (), tuple(self.abilities)))
        return max(0, self.min_us - us)

    def _legal(self) -> list[int]:
        st = self.stage
        if st == "ability":
            return self._ability_legal()
        if st == "commit":
            return _COUNTS_WITH_DONE[max(0, min(self.state.provinces[self.province].units,  # type: ignore[index]
                                                 L.MAX_COUNT))]
        if st == "burn":
            return [L.DONE] + [L.PROV0 + _num(p) for p in self.green if p not in self.burns]
        if st == SAC_STAGE:
            return [L.DONE] + [L.PROV0 + _num(c.src) for c in self._sac_open()]
        return []

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
        elif st == SAC_STAGE:
            if a == L.DONE:
                self.stage = None
                return
            p = f"P{a - L.PROV0}"
            c = next(c for c in self.commits if c.src == p)
            self.sacs[p] = min(self.unassigned(), c.count)
            if self.unassigned() == 0 or len(self._sac_open()) < 2:
                self.stage = None

    def decision(self):
        commits = tuple(Commit(c.src, c.count, self.sacs[c.src]) if c.src in self.sacs else c
                        for c in self.commits)
        return DragonDecision(commits, tuple(self.burns), tuple(self.abilities))


@mypyc_attr(allow_interpreted_subclasses=True)  # Python's __new__ under mypyc: pickles (values.py)
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

    def _legal(self) -> list[int]:
        st = self.stage
        if st == "ability":
            return self._ability_legal()
        if st == "upgrade":
            return [L.YES, L.DONE]
        if st == "buy":
            room = self._room(self.province)  # type: ignore[arg-type]
            return _COUNTS_WITH_DONE[max(0, min(room, self.budget // UNIT_COST, L.MAX_COUNT))]
        if st == "capitol":
            return [L.PROV0 + _num(p) for p, v in self._levels().items() if v == MAX_LEVEL]
        if st == "bid":
            return bid_actions(self.budget)
        return []

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
