"""The planner base: a stage machine over the masked choices of ``agents.spaces.layout`` (see
``agents.spaces.planner``)."""

from __future__ import annotations

from typing import cast

import numpy as np
from mypy_extensions import mypyc_attr

from agents.spaces import layout as L
from engine.errors import ValidationError
from engine.protectors.legality import ALONE_IN_DRAGON  # choosing one ends a Dragon decision
from engine.protectors.orders import Ability
from engine.protectors.state import GameState

STAGES = ("faction", "bid", "kind", "ferry", "target", "count", "player", "snitch", "ability",
          "commit", "burn", "upgrade", "buy", "capitol")
STAGE_INDEX = {s: i for i, s in enumerate(STAGES)}
_DONE_ONLY = [L.DONE]
# Masks by legal action list, shared by every planner (read-only arrays; a handful of distinct lists
# come up again and again: DONE/COUNT ranges, bid buckets, the KIND sets of a board).
_MASKS: dict[tuple[int, ...], np.ndarray] = {}
_MASKS_MAX = 50_000


def _num(p: str) -> int:
    return int(p[1:])


@mypyc_attr(allow_interpreted_subclasses=True)  # Python's __new__ under mypyc: pickles (values.py)
class Planner:
    """Base: a stage machine. Subclasses set ``stage`` and implement ``_legal`` / ``_apply``.

    ``_legal`` lists the legal action indices of the current choice (distinct); the bool mask is
    made from it only when asked for (``mask``), so forced choices are skipped without numpy."""

    kind = ""
    min_us = 0  # the Dragon planner's min.US (encoding reads it from every planner)
    limits: dict[str, int] | None = None  # the orders planner's golden orders left

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
        self._cached_legal: list[int] | None = None
        self.abilities: list[Ability] = []
        self.ability: Ability | None = None  # the candidate the current choice is about
        self._ability_queue: list[Ability] = []

    # -- faction / Island abilities (rules: 003 Factions, Island Rules) ----------------------------
    def _start_abilities(self) -> None:
        """Offer each ability the engine says is usable now (``abilities.legal_abilities``), one at a
        time: YES/DONE, or COUNT for Fight fire with fire! (Highmagisters)."""
        st = self.state
        self._ability_queue = []
        if st.options.factions or st.board.island is not None:  # abilities come only from these (rules: 003)
            try:
                from engine.protectors.abilities import legal_abilities
            except ImportError:  # an engine without abilities
                pass
            else:
                self._ability_queue = list(legal_abilities(st, self.seat))
        self._next_ability()

    def _ability_cost(self, a: Ability) -> int:
        from engine.protectors.abilities import cost

        return cost(self.state, self.seat, a)

    def _next_ability(self) -> None:
        taken = {a.name for a in self.abilities}
        while self._ability_queue:
            a = self._ability_queue[0]
            # an ability given alone in a Dragon attack is no longer on offer once another is taken (legality)
            alone_too_late = self.kind == "dragon" and a.name in ALONE_IN_DRAGON and bool(self.abilities)
            if a.name in taken or self._ability_cost(a) > self.budget or alone_too_late:
                self._ability_queue.pop(0)
                continue
            self.ability, self.stage = a, "ability"
            return
        self.ability = None
        self._after_abilities()

    def _ability_legal(self) -> list[int]:
        a = cast(Ability, self.ability)  # the ability stage: a candidate is on offer
        if a.name == "fight_fire_with_fire":
            out = {L.DONE: None}
            for c in self._ability_queue:
                if c.name == a.name and c.value and c.value <= L.MAX_COUNT and self._ability_cost(c) <= self.budget:
                    out[L.COUNT0 + c.value - 1] = None
            return list(out)
        return [L.DONE, L.YES]

    def _ability_apply(self, a: int) -> None:
        cand = cast(Ability, self.ability)  # the ability stage: a candidate is on offer
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

    def legal(self) -> list[int]:
        """The legal action indices of the current choice (never empty; do not modify)."""
        lg = self._cached_legal
        if lg is None:
            lg = self._legal() if self.stage is not None else _DONE_ONLY
            if not lg:  # never empty: DONE is the safe fallback of every stage
                lg = _DONE_ONLY
            self._cached_legal = lg
        return lg

    def mask(self) -> np.ndarray:
        """The bool mask over ``agents.spaces.layout``'s actions (cached until the next choice; do not modify)."""
        m = self._cached_mask
        if m is None:
            key = tuple(self.legal())
            m = _MASKS.get(key)
            if m is None:
                m = np.zeros(L.ACTION_SIZE, dtype=bool)
                m.put(key, True)
                m.flags.writeable = False
                if len(_MASKS) >= _MASKS_MAX:
                    _MASKS.clear()
                _MASKS[key] = m
            self._cached_mask = m
        return m

    def apply(self, action: int) -> None:
        if self.stage is None:
            raise ValidationError("action", "this decision is already complete")
        if action not in self.legal():
            raise ValidationError("action", f"{L.describe(int(action))} is not legal in the {self.stage} choice")
        self._cached_mask = self._cached_legal = None
        self.choices += 1
        self._apply(int(action))

    def skip_forced(self) -> int:
        """Apply choices that have exactly one legal action; returns how many were applied."""
        n = 0
        while self.stage is not None:
            lg = self.legal()
            if len(lg) != 1:
                break
            self._cached_mask = self._cached_legal = None  # the one legal action: apply it
            self.choices += 1
            self._apply(lg[0])
            n += 1
        return n

    def player_slot(self, seat: str) -> int:
        return (self.seats.index(seat) - self.me) % len(self.seats)

    def slot_player(self, slot: int) -> str:
        return self.seats[(self.me + slot) % len(self.seats)]

    def _active_slots(self, out: list[int], exclude_self: bool = False) -> None:
        for s in self.state.active():
            slot = self.player_slot(s)
            if not (exclude_self and slot == 0):
                out.append(L.PLAYER0 + slot)

    # subclass hooks
    def _legal(self) -> list[int]:
        raise NotImplementedError

    def _apply(self, a: int) -> None:
        raise NotImplementedError

    def decision(self):
        raise NotImplementedError
