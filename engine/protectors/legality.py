"""What a seat may submit now: validation with reasons, and enumeration of legal choices.

Validation returns the decision normalised (omitted ``from`` Provinces filled in) or raises
``IllegalOrderError`` whose ``details["rejected"]`` lists every bad line with its reason.
"""

from __future__ import annotations

from dataclasses import replace

from engine.errors import IllegalOrderError
from engine.protectors import cards as C
from engine.protectors.abilities import check_all, legal_abilities
from engine.protectors.abilities import cost as ability_cost
from engine.protectors.board import ISLAND_NAME
from engine.protectors.decisions import (
    BidDecision,
    ConsolidationDecision,
    Decision,
    DragonDecision,
    OrdersDecision,
)
from engine.protectors.dragon import active_cards
from engine.protectors.factions import FACTIONS, has
from engine.protectors.orders import Ability, Fortify, March, ProvinceOrder, Support, Work, order_kind
from engine.protectors.ranking import brackets, golden_allowed
from engine.protectors.state import BANK_BID, BID, CONSOLIDATION, DRAGON, ORDERS, REBID, GameState
from engine.protectors.tables import MAX_LEVEL


class _Rejections:
    def __init__(self) -> None:
        self.items: list[dict[str, str]] = []

    def add(self, line: str, reason: str) -> None:
        self.items.append({"line": line, "reason": reason})

    def raise_if_any(self) -> None:
        if self.items:
            msg = "; ".join(f"'{r['line']}': {r['reason']}" for r in self.items)
            raise IllegalOrderError(msg, details={"rejected": self.items})


# rules: 003 Nothing to see here! / The Bank of Lannuvár — given "instead of choosing the number of Army Units they
# want to commit": in a Dragon attack either is the seat's whole decision (no commitment, no burn, no other ability,
# Fight fire with fire's Highmagisters included)
ALONE_IN_DRAGON = ("nothing_to_see_here", "bank_of_lannuvar")  # a tuple: rejections in a fixed order


# -- orders phase ------------------------------------------------------------------------------

def orderable(state: GameState, seat: str) -> list[str]:
    """rules: 003 — "Each Province a player controls containing at least one of their Army Units can
    receive one order each turn."."""
    return [p for p in state.owned(seat) if state.provinces[p].units > 0 and state.holder(p) == seat]


def all_neighbours(state: GameState, seat: str, ferries: tuple[str, ...], src: str) -> bool:
    """rules: 003 Seafarers! / Ferry! — all Provinces count as neighbouring for March! orders."""
    cards = active_cards(state)
    return C.SEAFARERS in cards or (C.FERRY in cards and src in ferries)


def march_targets(state: GameState, seat: str, src: str, ferries: tuple[str, ...] = ()) -> list[str]:
    """Where a March! from ``src`` may go. # rules: 003 March!, Flood!, Island Rules."""
    if all_neighbours(state, seat, ferries, src):
        return [p for p in state.board.all_provinces if p != src]
    if C.FLOOD in active_cards(state) or src == state.board.island:
        return []
    return state.board.by_number(state.board.neighbours[src])


def golden_limits(state: GameState, seat: str) -> dict[str, int]:
    """How many golden orders of each type the seat may play this turn.

    # rules: 003 Golden Orders — "only one (1) Golden order from each type"; brackets; Iron Light
    # Crusade! — a free golden March!/Delayed March! outside the limit.
    """
    allowed = golden_allowed(brackets(state.active()).get(seat, 4))
    limits = {k: (1 if k in allowed else 0) for k in ("march", "support", "fortify", "work")}
    if has(state, seat, "crusade"):
        limits["march"] += 1
    return limits


def not_another_player(state: GameState, seat: str, who: str) -> str:
    """Why a Send or a Snitch cannot name ``who``: ``seat`` itself, an eliminated seat or none of the game, said with
    the player's name as the DM's writer knows them."""
    p = state.players.get(who)
    if p is None:
        return f"{who} is no player of this game"
    label = who if p.name == who else f"{who} ({p.name})"
    if who == seat:
        return f"{label} is you: name another player"
    return f"{label} was eliminated" if p.eliminated else f"{label} is not another active player"


def check_order(state: GameState, seat: str, o: ProvinceOrder, ferries: tuple[str, ...] = ()) -> str | None:
    """The reason ``o`` is illegal for ``seat`` (ignoring the one-per-Province and golden counts)."""
    cards = active_cards(state)
    src = o.province
    if src not in orderable(state, seat):
        return f"you have no Army Units in {src}" if src in state.provinces else _off_board(state, src)
    if src == state.board.island and not isinstance(o, March):
        return "Army Units on the Island can only receive a March! order"  # rules: 003 Island Rules
    if isinstance(o, March):
        if o.count < 1:
            return "a March! moves at least 1 unit"
        if o.dst not in state.provinces:
            return _off_board(state, o.dst)
        if o.dst not in march_targets(state, seat, src, ferries):
            if C.FLOOD in cards and not all_neighbours(state, seat, ferries, src):
                return "Flood!: all Provinces have zero neighbouring Provinces this turn"
            if C.FERRY in cards:
                return f"{o.dst} is not adjacent to {src} (add 'Ferry {src}' to use the Ferry!)"
            if state.board.island in (o.dst, src):  # rules: 003 Island Rules, reaching the Island
                return (f"{o.dst} is not adjacent to {src}: the Island is reached (and left) only while a card "
                        "makes every Province a neighbour (Seafarers!, the Ferry!)")
            return f"{o.dst} is not adjacent to {src}"
    elif isinstance(o, Support):
        if o.player not in state.players or state.players[o.player].eliminated:
            return f"{o.player} is not an active player"
        if o.target not in state.board.provinces:
            return _off_board(state, o.target)
        if C.FLOOD in cards:
            return "Flood!: all Provinces have zero neighbouring Provinces this turn"
        dist = state.board.distance(src, o.target)
        if dist != 1 and not (o.golden and dist == 2):
            return (f"{o.target} is not within 2 Provinces of {src}" if o.golden
                    else f"{o.target} is not adjacent to {src}")
    elif isinstance(o, Fortify) and C.RESTLESSNESS in cards:
        return "Restlessness of Spring: Fortify! orders may not be played this turn"
    if o.golden:
        kind = order_kind(o)
        if golden_limits(state, seat)[kind] == 0:
            b = brackets(state.active()).get(seat, 4)
            name = {"march": "Golden March!", "support": "Golden Support!", "fortify": "Golden Fortify!",
                    "work": "Golden Work, work!"}[kind]
            return f"{name} is not available to bracket {b}"
    return None


def _off_board(state: GameState, province: str | None) -> str:
    """Why ``province`` is not a Province of this game (the Island, written ``the Island``, is P0 on the built-in
    boards; a GM's board may have none, or name it otherwise)."""
    island = state.board.island
    if province == ISLAND_NAME and island is None:
        return f"this board has no Island ({province})"
    if province == ISLAND_NAME and island != ISLAND_NAME:
        return f"{province} is not on this board; its Island is {island}"
    return f"{province} is not on this board"


def _fill_src(state: GameState, seat: str, o: ProvinceOrder, rej: _Rejections) -> ProvinceOrder | None:
    if o.province is not None:
        return o
    mine = orderable(state, seat)
    if len(mine) == 1:
        return replace(o, src=mine[0])
    rej.add(o.text(), f"say which Province gives it: 'from P..' (you hold {', '.join(mine) or 'none'})")
    return None


def validate_orders(state: GameState, seat: str, d: OrdersDecision) -> OrdersDecision:
    rej = _Rejections()
    cards = active_cards(state)
    orders: list[ProvinceOrder] = []
    seen: set[str | None] = set()
    used = {"march": 0, "support": 0, "fortify": 0, "work": 0}
    limits = golden_limits(state, seat)
    filled = False  # whether an order got its source Province filled in (then the decision is rebuilt)
    for raw in d.orders:
        o = _fill_src(state, seat, raw, rej)
        if o is None:
            continue
        filled = filled or o is not raw
        why = check_order(state, seat, o, d.ferries)
        if why is None and o.province in seen:
            why = f"{o.province} already has an order this turn"
        if why is None and o.golden:
            used[order_kind(o)] += 1
            if used[order_kind(o)] > limits[order_kind(o)]:
                why = "only one Golden order of each type per turn"
        if why:
            rej.add(o.text(), why)
            continue
        seen.add(o.province)
        orders.append(o)
    total = 0
    for s in d.sends:
        if s.to not in state.players or state.players[s.to].eliminated or s.to == seat:
            rej.add(s.text(), not_another_player(state, seat, s.to))
        elif s.amount < 1:
            rej.add(s.text(), "send at least 1 $Realm")
        total += s.amount
    if total > state.players[seat].realm:
        held = state.players[seat].realm  # rules: 003 Negotiation -- $Realm only promised to you cannot be sent on
        rej.add("; ".join(s.text() for s in d.sends),
                f"{'sending' if len(d.sends) == 1 else 'these send'} {total} $Realm, more than the {held} $Realm "
                "you hold")
    if d.snitch is not None:
        if C.PIRATES not in cards:
            rej.add(f"Snitch {d.snitch}", "snitching is only for Pirates! turns")
        elif d.snitch == seat or d.snitch not in state.players or state.players[d.snitch].eliminated:
            rej.add(f"Snitch {d.snitch}", not_another_player(state, seat, d.snitch))
    for f in d.ferries:
        if C.FERRY not in cards:
            rej.add(f"Ferry {f}", "the Ferry! card is not in play")
        elif f not in orderable(state, seat):
            rej.add(f"Ferry {f}", f"you have no Army Units in {f}")
    _abilities(state, seat, d.abilities, total, rej)
    rej.raise_if_any()
    if not filled and type(d.orders) is tuple:
        return d  # every order as given: the same (frozen) decision, without the cost of a copy
    return replace(d, orders=tuple(orders))


def _abilities(state: GameState, seat: str, abilities, committed: int, rej: _Rejections) -> None:
    """Ability lines: usable now (rules: 003 Factions, Island Rules) and affordable together with the
    ``committed`` $Realm of the same decision."""
    for a, why in check_all(state, seat, abilities):
        rej.add(a.text(), why)
    price = sum(ability_cost(state, seat, a) for a in abilities)
    if price and price + committed > state.players[seat].realm:
        rej.add("; ".join(a.text() for a in abilities),
                f"costs {price} $Realm" + (f" besides the {committed} committed" if committed else "")
                + f"; you hold {state.players[seat].realm}")


# -- Dragon Attack -----------------------------------------------------------------------------
def validate_dragon(state: GameState, seat: str, d: DragonDecision) -> DragonDecision:
    """rules: 003 Determine Protector US step; Island Rules (no Island units); Cenarion; Kalu'Ak."""
    rej = _Rejections()
    seen = set()
    for c in d.commits:
        pr = state.provinces.get(c.src)
        if pr is None or pr.owner != seat or state.holder(c.src) != seat:
            rej.add(c.text(), f"you do not control {c.src}")
        elif c.src == state.board.island:
            rej.add(c.text(), "Army Units on the Island can not fight the Dragon")
        elif c.src in seen:
            rej.add(c.text(), f"{c.src} is committed twice")
        elif not 1 <= c.count <= pr.units:
            rej.add(c.text(), f"you have no units in {c.src}" if pr.units == 0 else
                    f"only {pr.units} {'unit' if pr.units == 1 else 'units'} in {c.src}" if c.count > pr.units else
                    "commit at least 1 unit")
        elif c.sac is not None and not 0 <= c.sac <= c.count:
            rej.add(c.text(), "sac must be between 0 and the units committed")
        seen.add(c.src)
    green = state.green(seat)
    named = set()
    for b in d.burns:
        if b not in green:
            rej.add(f"Burn {b}", f"{b} is not one of your green Provinces")
        elif b in named:  # rules: 003 The Dragon's Wrath! — one Province burns per US short: each is named once
            rej.add(f"Burn {b}", f"{b} is named to burn twice")
        named.add(b)
    _abilities(state, seat, d.abilities, 0, rej)
    names = {a.name for a in d.abilities}
    for alone in ALONE_IN_DRAGON:
        if alone in names and (d.commits or d.burns or len(names) > 1):
            rej.add(next(a.text() for a in d.abilities if a.name == alone),
                    "given instead of committing units: send it alone")
    rej.raise_if_any()
    return d


# -- bids and consolidation --------------------------------------------------------------------
def _funding_ok(state: GameState, seat: str, funding, rej: _Rejections) -> int:
    extra = 0
    team = state.team_of(seat)
    for f in funding:
        mate = state.players.get(f.source)
        if team is None or mate is None or mate.team != team or f.source == seat:
            rej.add(f.text(), "pooled $Realm only comes from a team-mate in a team game")
        elif mate.eliminated:  # public: no secret is told
            rej.add(f.text(), f"{f.source} was eliminated: pooled $Realm comes from a team-mate still in the game")
        else:  # never checked against the team-mate's balance, which the seat does not see (POOL_UNSEEN)
            extra += f.amount
    return extra


def validate_bid(state: GameState, seat: str, d: BidDecision) -> BidDecision:
    rej = _Rejections()
    budget = state.players[seat].realm + _funding_ok(state, seat, d.funding, rej)
    if d.bid < 0 or d.bid > budget:
        rej.add(f"Bid {d.bid}", f"bid between 0 and your {budget} $Realm")
    if d.faction is not None:
        mine = state.players[seat].faction
        if state.step != BID or not state.options.factions:
            rej.add(f"Faction {d.faction}", "factions are chosen with the turn-1 bid, in games with factions")
        elif d.faction not in FACTIONS:
            rej.add(f"Faction {d.faction}", f"choose one of {', '.join(FACTIONS)}")
        elif state.options.faction_choice != "chosen":  # rules: 003 Factions, "assigned ... by chance"
            rej.add(f"Faction {d.faction}", "factions are dealt at random in this game, not chosen")
        elif mine is not None and d.faction != mine:  # FACTION_FROM_SETUP: naming the same one again is no change
            rej.add(f"Faction {d.faction}", f"your faction is {mine}, given in the game's setup; a turn-1 DM "
                                            "chooses only a faction the setup leaves open")
    rej.raise_if_any()
    return d


def validate_consolidation(state: GameState, seat: str, d: ConsolidationDecision) -> ConsolidationDecision:
    rej = _Rejections()
    budget = state.players[seat].realm + _funding_ok(state, seat, d.funding, rej)
    owned = state.owned(seat)
    buys = []
    for prov, n in d.buys:
        if prov == "":  # team form "Buy 2": default placement, lowest-numbered and evenly
            from engine.protectors.defaults import even_placement
            buys.extend(even_placement(state, seat, n))
            continue
        if prov not in owned:
            rej.add(f"Buy {n} in {prov}", f"you do not control {prov}")
        elif n < 1:
            rej.add(f"Buy {n} in {prov}", "buy at least 1 unit")
        else:
            buys.append((prov, n))
    for prov in d.upgrades:
        if state.golden_work_done.get(prov) != seat:
            rej.add(f"Upgrade {prov}", f"no successful Golden Work, work! in {prov} this turn")
        elif state.provinces[prov].level >= MAX_LEVEL:
            rej.add(f"Upgrade {prov}", f"{prov} is already level {MAX_LEVEL}")
        elif state.provinces[prov].level == MAX_LEVEL - 1 and any(
                state.provinces[p].level == MAX_LEVEL for p in owned):
            rej.add(f"Upgrade {prov}", "you may only control one level 3 Province (your Capitol)")
    if d.capitol is not None and (d.capitol not in owned or state.provinces[d.capitol].level != MAX_LEVEL):
        rej.add(f"Capitol {d.capitol}", f"{d.capitol} is not a level 3 Province you control")
    if d.bid < 0 or d.bid > budget:
        rej.add(f"Bid {d.bid}", f"bid between 0 and your {budget} $Realm")
    for a, why in check_all(state, seat, d.abilities):
        rej.add(a.text(), why + _sanctum_later(a, d.abilities))
    price = sum(ability_cost(state, seat, a) for a in d.abilities)
    if price and price + max(0, d.bid) > budget:
        rej.add("; ".join(a.text() for a in d.abilities), f"costs {price} $Realm; with the bid of {d.bid} "
                f"that is more than your {budget} $Realm")
    # rules: 003 The Bank of Lannuvár — "the Lannuvár player will not make any bids ... this turn"
    if d.bid and any(a.name == "bank_of_lannuvar" for a in d.abilities):
        rej.add(f"Bid {d.bid}", "with The Bank of Lannuvár you bid next turn, after the others' bids are revealed")
    rej.raise_if_any()
    placed = tuple(buys)
    if placed == d.buys:
        return d  # every purchase as given (no team-form "Buy n" to place): the same (frozen) decision
    return replace(d, buys=placed)


_SANCTUM_KEY = {"mountain_king_offer": "mountain_king"}  # an ability line -> the ability the Sanctum restores


def _sanctum_later(a: Ability, abilities: tuple[Ability, ...]) -> str:
    """Why an ability refreshed or gained in the same DM is still refused: the Sanctum's choice takes effect as
    this step resolves (rules: 003 Wizard Sanctum, "during the following buying and bidding step they will
    choose"; sanctum.choose), so the ability is there from the next step on, not in this one."""
    key = _SANCTUM_KEY.get(a.name, a.name)
    for other in abilities:
        mode, _, chosen = (other.arg or "").partition(" ")
        if other.name == "sanctum" and chosen == key:
            return (f"; the 'Sanctum {mode}' in this DM takes effect only after this step, so the ability is yours "
                    "to use from the next step on, not in this one")
    return ""


def validate(state: GameState, seat: str, d: Decision) -> Decision:
    """Check a decision for the current step; returns it normalised."""
    if state.step in (BID, REBID, BANK_BID) and isinstance(d, BidDecision):
        return validate_bid(state, seat, d)
    if state.step == ORDERS and isinstance(d, OrdersDecision):
        return validate_orders(state, seat, d)
    if state.step == DRAGON and isinstance(d, DragonDecision):
        return validate_dragon(state, seat, d)
    if state.step == CONSOLIDATION and isinstance(d, ConsolidationDecision):
        return validate_consolidation(state, seat, d)
    raise IllegalOrderError(f"a {type(d).__name__} is not what the {state.step} step takes")


# -- enumeration (the envs build their action masks from these) --------------------------------
OrderKey = tuple[str, bool, bool]  # (kind, golden, delayed)


def order_options(state: GameState, seat: str, prov: str) -> dict[OrderKey, dict[str, tuple]]:
    """The orders the seat may give in ``prov``, by (kind, golden, delayed): {target: counts} for
    March!, {target: players} for Support!, {} for Fortify! and Work, work!. ``legal_orders`` lists
    the same orders one by one; planners read this form without building an object per order.
    A March!'s counts stop at the units in ``prov`` now: a Delayed March! of more, the units the
    seat's own March! orders bring in (rules: 003 Example 7, "with a Delayed Golden March! White
    attacks P6 with 4 Army Units from P7", which held 3), is legal (``validate``) but not listed.

    # rules: 003 Orders; Golden Orders; March!; Support! (neighbouring Province, golden: range 2);
    # Flood! (no Support!); Restlessness of Spring (no Fortify!); Island Rules (March! only).
    """
    if prov not in orderable(state, seat):
        return {}
    limits = golden_limits(state, seat)
    goldens = lambda kind: (False, True) if limits[kind] else (False,)  # noqa: E731
    units = state.provinces[prov].units
    out: dict[OrderKey, dict[str, tuple]] = {}
    targets = march_targets(state, seat, prov)
    if targets and units >= 1:
        counts = tuple(range(1, units + 1))
        for g in goldens("march"):
            for delayed in (False, True):
                out[("march", g, delayed)] = dict.fromkeys(targets, counts)
    board = state.board
    if prov == board.island:
        return out
    cards = active_cards(state)
    if C.FLOOD not in cards:
        active = tuple(state.active())
        for target in board.provinces if active else ():
            dist = board.distance(prov, target)
            for g in goldens("support"):
                if dist == 1 or (g and dist == 2):
                    out.setdefault(("support", g, False), {})[target] = active
    if C.RESTLESSNESS not in cards:
        for g in goldens("fortify"):
            out[("fortify", g, False)] = {}
    for g in goldens("work"):
        out[("work", g, False)] = {}
    return out


def legal_orders(state: GameState, seat: str, prov: str) -> list[ProvinceOrder]:
    """The single orders the seat may give in ``prov`` (golden forms included when available):
    ``order_options`` spelled out, Marches by target then count, then Supports by target (a Delayed
    March! of more units than ``prov`` holds now is legal but not listed: ``order_options``)."""
    opts = order_options(state, seat, prov)
    out: list[ProvinceOrder] = []
    marches = [k for k in opts if k[0] == "march"]
    for dst, counts in opts[marches[0]].items() if marches else ():
        for n in counts:
            out += [March(n, prov, dst, g, d) for _, g, d in marches]
    for target in state.board.provinces:
        for g in (False, True):
            out += [Support(s, target, prov, g) for s in opts.get(("support", g, False), {}).get(target, ())]
    out += [Fortify(prov, g) for kind, g, _ in opts if kind == "fortify"]
    out += [Work(prov, g) for kind, g, _ in opts if kind == "work"]
    return out


__all__ = ["legal_abilities", "legal_orders", "order_options", "orderable", "validate"]
