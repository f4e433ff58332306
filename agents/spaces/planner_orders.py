"""Orders as masked choices. rules: 003 Negotiation and Orders; Orders; Golden Orders; Sea cards."""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from agents.spaces import layout as L
from agents.spaces.planner_base import Planner, _num
from engine.protectors import cards as C
from engine.protectors import legality
from engine.protectors.decisions import OrdersDecision
from engine.protectors.dragon import active_cards
from engine.protectors.legality import golden_limits, march_targets, orderable
from engine.protectors.orders import Fortify, March, Support, Work
from engine.protectors.state import GameState
from engine.protectors.tables import FERRY_COST

_KI = L.KIND_INDEX


def order_options(state: GameState, seat: str, prov: str) -> dict[int, dict]:
    """The engine's ``legality.order_options`` keyed by KIND index: {target: counts (March!) or
    players (Support!)}, ``{}`` for Fortify! and Work work!."""
    return {_KI[k]: v for k, v in legality.order_options(state, seat, prov).items()}


@mypyc_attr(allow_interpreted_subclasses=True)  # Python's __new__ under mypyc: pickles (values.py)
class OrdersPlanner(Planner):
    """rules: 003 Negotiation and Orders; Orders; Golden Orders; Sea cards (Ferry!, Pirates!)."""

    kind = "orders"

    def __init__(self, state: GameState, seat: str):
        super().__init__(state, seat)
        self.queue = orderable(state, seat)
        self.queue.sort(key=_num)
        self.limits = self.golden_left = golden_limits(state, seat)  # one dict: golden_left is its typed name
        cards = active_cards(state)
        self.ferry_card = C.FERRY in cards and C.SEAFARERS not in cards
        self.pirates = C.PIRATES in cards
        self.orders: list = []
        self.ferries: list[str] = []
        self.snitch: str | None = None
        self.options: dict[int, dict] = {}
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
        out = order_options(self.state, self.seat, prov)
        if self.ferry_card and self.budget >= FERRY_COST:  # rules: 003 Ferry! — any Province, 25 each
            units = self.state.provinces[prov].units
            for golden in ((False, True) if self.golden_left["march"] else (False,)):
                for delayed in (False, True):
                    out.setdefault(L.KIND_INDEX[("march", golden, delayed)], {})
            self._ferry_units = units
        return out

    def _legal(self) -> list[int]:
        st = self.stage
        if st == "ability":
            return self._ability_legal()
        if st == "kind":
            out = [L.DONE]
            lim = self.golden_left
            for k in self.options:
                kind, golden, _ = L.KINDS[k]
                if not golden or lim[kind] > 0:
                    out.append(L.KIND0 + k)
            return out
        if st == "ferry":
            return [L.YES, L.DONE] if self.options[self.picked_kind] else [L.YES]
        if st == "target":
            return [L.PROV0 + _num(t) for t in self._targets()]
        if st == "count":
            return [L.COUNT0 + n - 1 for n in self._counts() if n <= L.MAX_COUNT]
        if st == "player":
            return [L.PLAYER0 + self.player_slot(s) for s in self.options[self.picked_kind][self.target]]
        if st == "snitch":
            out = [L.DONE]
            self._active_slots(out, exclude_self=True)
            return out
        return []

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
        kind, golden, delayed = L.KINDS[self.picked_kind]
        p = self.province
        if kind == "march":
            self.orders.append(March(count, p, self.target, golden, delayed))  # type: ignore[arg-type]
            if self.use_ferry:
                self.ferries.append(p)  # type: ignore[arg-type]
                self.budget -= FERRY_COST
        elif kind == "support":
            self.orders.append(Support(player, self.target, p, golden))  # type: ignore[arg-type]
        elif kind == "fortify":
            self.orders.append(Fortify(p, golden))  # type: ignore[arg-type]
        else:
            self.orders.append(Work(p, golden))
        if golden:
            self.golden_left[kind] -= 1
        self._next_province()

    def decision(self):
        return OrdersDecision(tuple(self.orders), snitch=self.snitch, ferries=tuple(self.ferries),
                              abilities=tuple(self.abilities))
