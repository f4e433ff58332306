"""``steward-search``: the steward, looking ahead for the table before each of its decisions.

The steward (``agents.steward``) follows fixed habits. A clairvoyant steward that plays out every
steward-legal choice on the real game (``training.table_ceiling``, ``clairvoyant``) cuts the Dragon's
wins far below the steward's, mostly by choosing its ranking bid, Work, work! or Fortify!, and how
much to commit to a Dragon fight case by case. ``steward-search`` does the same honestly: it sees only
its own seat's view and plays each choice out on sampled copies of it (``agents.search``: the hidden
cards reshuffled, the others' $Realm estimated), with heuristics standing in for the other seats and
the steward playing its own seat's later turns.

- **Candidates** are steward-legal variants of the steward's own decision (it stays the first, so a
  tie keeps it): other ranking bids (``BID_CHOICES``, ``REBID_CHOICES``, ``CONSOLIDATION_BIDS``),
  Work, work! for every Fortify! or the reverse, committing every unit or only the min.US to a Dragon
  fight, one unit fewer bought. Nothing that marches into another seat's Province or supports an
  attack is ever a candidate.
- **Value** is the table's (``table_value``), not the seat's: another seat winning is best, the seat
  itself winning or nobody is next, the Dragon's win (everyone loses) is worst.

What it gains is measured against heuristics, the same model its rollouts use, so it is an upper
bound of what it gains against people (as for ``search``). Each decision keeps its reasons: the
steward's, and what the look-ahead changed.
"""

from __future__ import annotations

from typing import Any

from agents.base import reasons_of
from agents.heuristic import HeuristicAgent
from agents.search import MAX_ROLLOUT_ACTIONS, SearchAgent
from engine.errors import RegentError
from engine.protectors.decisions import BidDecision, ConsolidationDecision, Decision, DragonDecision, OrdersDecision
from engine.protectors.orders import Commit, Fortify, Work
from engine.protectors.seat import SeatContext
from engine.protectors.state import BID, CONSOLIDATION, DRAGON, ORDERS, REBID
from engine.protectors.tables import UNIT_COST

TABLE_CANDIDATES = 6
"""at most this many choices per decision, the steward's own first"""
TABLE_ROLLOUTS = 8
"""sampled futures each choice is played out on"""
SEARCHED = (BID, REBID, ORDERS, DRAGON, CONSOLIDATION)
BID_CHOICES = (0, 15, 16, 20)
"""turn 1's opening bids tried beside the steward's own (the heuristics open with 15)"""
REBID_CHOICES = (0, 1, 5, 9)
CONSOLIDATION_BIDS = (0, 5, 15)
"""next turn's ranking bids tried beside the steward's own at Consolidation"""


def table_value(result: dict[str, Any] | None, seat: str, team: str | None = None) -> float:
    """A finished game as the table sees it: 1 another seat (or team) won; 0 the seat itself won, or
    nobody did; -1 the Dragon won (rules: 003 Fire and blood!: everyone loses)."""
    if not result or result.get("how") == "dragon":
        return -1.0 if result else 0.0
    winner = result.get("winner")
    if winner is None or winner in (seat, team):
        return 0.0
    return 1.0


def _bids(base: BidDecision, choices: tuple[int, ...], realm: int) -> list[Decision]:
    return [BidDecision(min(b, realm), base.faction, base.funding) for b in (base.bid, *choices)]


def _orders(ctx: SeatContext, base: OrdersDecision) -> list[Decision]:
    """The steward's orders with every Fortify! turned into Work, work! where it may, and the reverse."""
    out: list[Decision] = [base]
    for src, dst in ((Fortify, Work), (Work, Fortify)):
        swapped = tuple(dst(o.src, o.golden) if isinstance(o, src) and dst(o.src, o.golden) in ctx.legal_orders(o.src)
                        else o for o in base.orders)
        out.append(OrdersDecision(swapped, base.sends, base.snitch, base.ferries, base.abilities))
    return out


def _dragon(ctx: SeatContext, base: DragonDecision) -> list[Decision]:
    """The steward's commitment, every unit, and only the min.US (rules: 003 Determine Protector US step)."""
    view = ctx.view
    _, provs, green, min_us = HeuristicAgent._fight(view, ctx.seat)
    everything = DragonDecision(tuple(Commit(p, view["provinces"][p]["units"]) for p in provs), (), base.abilities)
    return [base, everything, HeuristicAgent._meet_min_us(view, provs, green, min_us)]


def _consolidation(ctx: SeatContext, base: ConsolidationDecision) -> list[Decision]:
    """The steward's buys with other ranking bids, and one unit fewer bought (its price bid instead)."""
    spare = base.bid  # what the steward's own bid leaves free to bid otherwise
    out: list[Decision] = [base]
    out += [ConsolidationDecision(base.buys, base.upgrades, base.capitol, min(b, spare), base.abilities, base.funding)
            for b in CONSOLIDATION_BIDS]
    if base.buys:
        (p, n), *rest = sorted(base.buys, key=lambda b: b[1])
        fewer = tuple(rest) + (((p, n - 1),) if n > 1 else ())
        out.append(ConsolidationDecision(fewer, base.upgrades, base.capitol, base.bid + UNIT_COST, base.abilities,
                                         base.funding))
    return out


class StewardSearchAgent(SearchAgent):
    """The steward's decisions, each chosen among steward-legal variants by play-outs valued for the table."""

    def __init__(self, seed: int | None = None, candidates: int = TABLE_CANDIDATES, rollouts: int = TABLE_ROLLOUTS,
                 max_work: int = MAX_ROLLOUT_ACTIONS):
        super().__init__("steward", candidates, rollouts, "heuristic", seed, name="steward-search", steps=SEARCHED,
                         own_rollout_agent="steward", max_work=max_work, value=table_value)
        self.last_reasons: tuple[str, ...] = ()

    def _candidates(self, ctx: SeatContext, base: Decision) -> list[Decision]:
        step = ctx.step
        if step == BID:
            found = _bids(base, BID_CHOICES, ctx.realm)
        elif step == REBID:
            found = _bids(base, REBID_CHOICES, ctx.realm)
        elif step == ORDERS:
            found = _orders(ctx, base)
        elif step == DRAGON:
            found = _dragon(ctx, base)
        elif step == CONSOLIDATION:
            found = _consolidation(ctx, base)
        else:
            found = [base]
        out: list[Decision] = []
        for d in found:
            try:
                d = ctx.validate(d)
            except RegentError:
                continue
            if d not in out:
                out.append(d)
        return out[:self.candidates] or [base]

    def act(self, ctx: SeatContext) -> Decision:
        self.last_scores = []
        decision = super().act(ctx)
        own = reasons_of(self.base)
        if len(self.last_scores) < 2:
            self.last_reasons = own
            return decision
        scores = dict(self.last_scores)
        kept, first = self.last_scores[0][0], self.last_scores[0][1]
        tried = (f"looked ahead: {len(scores)} steward-legal choices, each played out on {self.last_rollouts} "
                 f"sampled futures (the hidden cards and $Realm guessed, heuristics in the other seats)")
        if decision == kept:
            self.last_reasons = (*own, f"{tried}; its own choice left the table best off ({first:+.2f})")
        else:
            text = "; ".join(line.text() for line in decision.lines()) or "nothing"
            self.last_reasons = (f"{tried}: {text} left the table better off ({scores[decision]:+.2f}) than the "
                                 f"steward's habit ({first:+.2f}), counting another seat's win +1 and the "
                                 f"Dragon's -1",)
        return decision
