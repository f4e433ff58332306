"""A seat's whole decision for one waiting step, built from parsed DM lines or given directly.

Each kind of step takes one decision type. ``from_lines`` groups a DM's lines into it and
``lines()`` gives them back, so structured and text submissions are the same thing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.errors import IllegalOrderError
from engine.protectors.orders import (
    Ability,
    Bid,
    Burn,
    Buy,
    Capitol,
    ChooseFaction,
    Commit,
    Ferry,
    Fortify,
    Funding,
    Line,
    March,
    ProvinceOrder,
    Send,
    Snitch,
    Support,
    Upgrade,
    Work,
)
from engine.protectors.state import BANK_BID, BID, CONSOLIDATION, DRAGON, ORDERS, REBID
from engine.protectors.values import Shared


class _Lines(Shared):
    """The decision's DM lines as text, formatted once (the game reports them at submit and again
    when the orders are revealed)."""

    _texts: tuple[str, ...] | None = None  # the cache (not a dataclass field: no effect on ==/repr)

    def lines(self) -> list[Line]:
        raise NotImplementedError

    @property
    def texts(self) -> tuple[str, ...]:
        # cached by hand: functools.cached_property does not cache on a mypyc-compiled class
        t = self._texts
        if t is None:
            t = tuple(ln.text() for ln in self.lines())
            object.__setattr__(self, "_texts", t)
        return t


@dataclass(frozen=True)
class BidDecision(_Lines):
    """Turn-1 bid (with the faction), a re-bid, or the Bank of Lannuvár's late bid."""

    bid: int = 0
    faction: str | None = None
    funding: tuple[Funding, ...] = ()

    def __init__(self, bid: int = 0, faction: str | None = None, funding: tuple[Funding, ...] = ()) -> None:
        object.__setattr__(self, "bid", bid)
        object.__setattr__(self, "faction", faction)
        object.__setattr__(self, "funding", funding)

    def lines(self) -> list[Line]:
        out = [Line(Bid(self.bid), self.funding)]
        if self.faction:
            out.append(Line(ChooseFaction(self.faction)))
        return out


@dataclass(frozen=True)
class OrdersDecision(_Lines):
    """rules: 003 Negotiation and Orders — one order per Province, plus transfers and choices."""

    orders: tuple[ProvinceOrder, ...] = ()
    sends: tuple[Send, ...] = ()
    snitch: str | None = None
    ferries: tuple[str, ...] = ()
    abilities: tuple[Ability, ...] = ()

    def __init__(self, orders: tuple[ProvinceOrder, ...] = (), sends: tuple[Send, ...] = (), snitch: str | None = None,
                 ferries: tuple[str, ...] = (), abilities: tuple[Ability, ...] = ()) -> None:
        object.__setattr__(self, "orders", orders)
        object.__setattr__(self, "sends", sends)
        object.__setattr__(self, "snitch", snitch)
        object.__setattr__(self, "ferries", ferries)
        object.__setattr__(self, "abilities", abilities)

    def lines(self) -> list[Line]:
        out = [Line(o) for o in self.orders] + [Line(s) for s in self.sends]
        out += [Line(Ferry(p)) for p in self.ferries]
        if self.snitch:
            out.append(Line(Snitch(self.snitch)))
        out += [Line(a) for a in self.abilities]
        return out


@dataclass(frozen=True)
class DragonDecision(_Lines):
    """rules: 003 Determine Protector US step — commitments, burn choices, abilities."""

    commits: tuple[Commit, ...] = ()
    burns: tuple[str, ...] = ()
    abilities: tuple[Ability, ...] = ()

    def __init__(self, commits: tuple[Commit, ...] = (), burns: tuple[str, ...] = (), abilities: tuple[Ability,
                 ...] = ()) -> None:
        object.__setattr__(self, "commits", commits)
        object.__setattr__(self, "burns", burns)
        object.__setattr__(self, "abilities", abilities)

    def lines(self) -> list[Line]:
        return ([Line(c) for c in self.commits] + [Line(Burn(p)) for p in self.burns]
                + [Line(a) for a in self.abilities])


@dataclass(frozen=True)
class ConsolidationDecision(_Lines):
    """rules: 003 Consolidation — buying step and bidding step (and upgrades, Capitol, abilities)."""

    buys: tuple[tuple[str, int], ...] = ()
    upgrades: tuple[str, ...] = ()
    capitol: str | None = None
    bid: int = 0
    abilities: tuple[Ability, ...] = ()
    funding: tuple[Funding, ...] = field(default=())

    def __init__(self, buys: tuple[tuple[str, int], ...] = (), upgrades: tuple[str, ...] = (),
                 capitol: str | None = None, bid: int = 0, abilities: tuple[Ability, ...] = (), funding: tuple[Funding,
                 ...] = ()) -> None:
        object.__setattr__(self, "buys", buys)
        object.__setattr__(self, "upgrades", upgrades)
        object.__setattr__(self, "capitol", capitol)
        object.__setattr__(self, "bid", bid)
        object.__setattr__(self, "abilities", abilities)
        object.__setattr__(self, "funding", funding)

    def lines(self) -> list[Line]:
        out = []
        if self.buys:
            out.append(Line(Buy(self.buys)))
        out += [Line(Upgrade(p)) for p in self.upgrades]
        if self.capitol:
            out.append(Line(Capitol(self.capitol)))
        out.append(Line(Bid(self.bid), self.funding))
        out += [Line(a) for a in self.abilities]
        return out


Decision = BidDecision | OrdersDecision | DragonDecision | ConsolidationDecision
DECISION_TYPES = {BID: BidDecision, REBID: BidDecision, BANK_BID: BidDecision,
                  ORDERS: OrdersDecision, DRAGON: DragonDecision, CONSOLIDATION: ConsolidationDecision}

ACCEPTS = {
    BidDecision: (Bid, ChooseFaction),
    OrdersDecision: (March, Support, Fortify, Work, Send, Snitch, Ferry, Ability),
    DragonDecision: (Commit, Burn, Ability),
    ConsolidationDecision: (Buy, Upgrade, Capitol, Bid, Ability),
}


def from_lines(step: str, lines: list[Line]) -> Decision:
    """Group parsed lines into the decision type of ``step``; a line of another step is an error."""
    kind = DECISION_TYPES[step]
    for line in lines:
        if not isinstance(line.item, ACCEPTS[kind]):
            raise IllegalOrderError(f"not a choice for the {step} step", input=line.text())
    items = [ln.item for ln in lines]
    funding = _pooled(f for ln in lines for f in ln.funding)
    of = lambda t: [i for i in items if isinstance(i, t)]  # noqa: E731
    if kind is BidDecision:
        bids, facs = of(Bid), of(ChooseFaction)
        _at_most_one(bids, "Bid")
        _at_most_one(facs, "Faction")
        return BidDecision(bids[0].amount if bids else 0, facs[0].faction if facs else None, funding)
    if kind is OrdersDecision:
        snitches = of(Snitch)
        _at_most_one(snitches, "Snitch")
        return OrdersDecision(
            tuple(i for i in items if isinstance(i, March | Support | Fortify | Work)),
            tuple(of(Send)), snitches[0].player if snitches else None,
            tuple(f.src for f in of(Ferry)), tuple(of(Ability)))
    if kind is DragonDecision:
        return DragonDecision(tuple(of(Commit)), tuple(b.src for b in of(Burn)), tuple(of(Ability)))
    bids, caps = of(Bid), of(Capitol)
    _at_most_one(bids, "Bid")
    _at_most_one(caps, "Capitol")
    buys = tuple(a for b in of(Buy) for a in b.allocations)
    return ConsolidationDecision(buys, tuple(u.src for u in of(Upgrade)),
                                 caps[0].src if caps else None, bids[0].amount if bids else 0,
                                 tuple(of(Ability)), funding)


def _pooled(funding: Iterable[Funding]) -> tuple[Funding, ...]:
    """One transfer per team-mate, in the order first named: "Buy 1 (20 from Player#2)" and "Bid 5 (10 from
    Player#2)" ask Player#2 for 30 (rules: 003 Team Games, Pooled $Realm; the same money, POOL_FIRST)."""
    total: dict[str, int] = {}
    for f in funding:
        total[f.source] = total.get(f.source, 0) + f.amount
    return tuple(Funding(amount, source) for source, amount in total.items())


def _at_most_one(found: list, name: str) -> None:
    if len(found) > 1:
        raise IllegalOrderError(f"more than one {name} line", input="; ".join(f.text() for f in found))
