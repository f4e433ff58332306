"""5. Consolidation: clean-up, supply limit, seizing and eliminations, production, buying, bids.

# rules: 003 5. Consolidation; Being eliminated from the game by another player; Golden Work, work!
# (upgrades, the Capitol rule); Sea cards (Crab Infestation!, Pirates! collection); Iron Light.
"""

from __future__ import annotations

from typing import Any

from engine.protectors import cards as C
from engine.protectors import sanctum
from engine.protectors.decisions import ConsolidationDecision
from engine.protectors.dragon import active_cards
from engine.protectors.events import EVENT_DATA, EVENT_KIND, EVENT_TURN, emit, listed, money, transfer
from engine.protectors.factions import BANK_COST, FAITH_COST, OFFER_COST, has
from engine.protectors.orders import Funding, Work
from engine.protectors.state import GameState
from engine.protectors.tables import (
    FAITH_SUPPLY_BONUS,
    ISLAND_SUPPLY_LIMIT,
    LEVEL_INCOME,
    MAX_LEVEL,
    SUPPLY_LIMIT,
    UNIT_COST,
    UPGRADE_COST,
    WORK_INCOME,
)
from engine.protectors.victory import eliminate

# the lowest supply limit any Province can have: the Island's, or 3 under Crab Infestation! (Faith
# alone sustains us! only raises it)
LOWEST_SUPPLY_LIMIT = min(ISLAND_SUPPLY_LIMIT, SUPPLY_LIMIT - 1)
HODIR_WORK_BONUS = 0.8  # rules: 003 Hodir, Merchants of the gods — "increased by 80%"


def supply_limit(state: GameState, prov: str, seat: str | None, cards: set[str] | None = None) -> int:
    """rules: 003 — max supply 3; Crab Infestation! -1 this turn; the Island 1 (Crab Infestation! does
    not lower the Island, assumption CRAB_SPARES_ISLAND); Iron Light's Faith alone sustains us +1.
    ``cards``: the cards in play, when the caller already has them."""
    if prov == state.board.island:
        return ISLAND_SUPPLY_LIMIT
    limit = SUPPLY_LIMIT
    if C.CRAB_INFESTATION in (active_cards(state) if cards is None else cards):
        limit -= 1
    if seat is not None and "faith_active" in state.players[seat].used_turn:
        limit += FAITH_SUPPLY_BONUS
    return limit


def cleanup_and_supply(state: GameState) -> None:
    # rules: 003 5. Consolidation — "All effects from orders are removed from the game board, except
    # Work, work! orders that still have any friendly Army Units present in the same Province."
    state.work_orders = {}
    for seat, d in state.orders.items():
        for o in d.orders:
            if not isinstance(o, Work) or o.src is None:
                continue
            if state.holder(o.src) == seat and state.provinces[o.src].units > 0:
                state.work_orders[o.src] = (seat, o.golden)
    # rules: 003 5. Consolidation — "Remove any Army Units in excess of the max supply limit"
    cards = active_cards(state)
    for prov, pr in state.provinces.items():
        if pr.units <= LOWEST_SUPPLY_LIMIT:
            continue  # within every limit there is
        limit = supply_limit(state, prov, state.holder(prov), cards)
        if pr.units > limit:
            emit(state, "starved", "003 5. Consolidation, supply limit",
                 f"{pr.units - limit} unit{'s' if pr.units - limit != 1 else ''} of {state.holder(prov)} "
                 f"starve{'s' if pr.units - limit == 1 else ''} in {prov}.",
                 province=prov, lost=pr.units - limit)
            pr.units = limit


def seize_and_eliminate(state: GameState) -> None:
    """rules: 003 Eliminate Players step — seize Provinces, eliminate players with none left, and split
    50% (rounded down) of their $Realm equally between the eliminators; the rest is lost."""
    taken_from: dict[str, list[str]] = {}
    for prov in state.board.all_provinces:
        pr = state.provinces[prov]
        if pr.occupant and pr.units > 0:
            old = pr.owner
            pr.owner, pr.occupant = pr.occupant, None
            if old:
                taken_from.setdefault(old, []).append(pr.owner)
            emit(state, "seize", "003 Eliminate Players step", f"{pr.owner} seizes {prov}"
                 + (f" from {old}." if old else "."), province=prov, seat=pr.owner, previous=old)
        elif pr.occupant:
            pr.occupant = None
    owners = {pr.owner for pr in state.provinces.values()}
    for seat in list(state.ranking):
        if state.players[seat].eliminated or seat in owners:
            continue
        realm = state.players[seat].realm
        eliminators = sorted(set(taken_from.get(seat, [])) - {seat})
        eliminate(state, seat, "players", "003 Eliminate Players step")
        loot = realm // 2
        share = loot // len(eliminators) if eliminators else 0
        for e in eliminators:
            if share:
                transfer(state, seat, e, share, "003 Eliminated by players, 50% loot")
        rest = state.players[seat].realm
        money(state, seat, -rest, "003 Eliminated by players, paid to the inhabitants")
        if eliminators:
            # rules: 003 Being eliminated from the game by another player — who looted whom is public
            # (the seizures are); the amount is half the eliminated player's balance, which no rule
            # reveals, so it goes to the looters and the looted alone (LOOT_AMOUNT_PRIVATE)
            rule = "003 Being eliminated from the game by another player"
            one = len(eliminators) == 1
            emit(state, "loot", rule, f"{listed(eliminators)} loot{'s' if one else ''} {seat}'s $Realm"
                 + ("." if one else ", split equally."), seat=seat, eliminators=eliminators)
            text = (f"{eliminators[0]} loots {share} $Realm from {seat}." if one
                    else f"{listed(eliminators)} loot {share} $Realm each from {seat}.")
            emit(state, "loot_share", rule, text, private=set(eliminators) | {seat}, seat=seat,
                 eliminators=eliminators, share=share)


def _still_working(state: GameState, seat: str, prov: str) -> bool:
    """rules: 003 Work, work! — the order is resolved "if some of your Army Unit(s) that received this
    order are still alive" (a Wrath after the supply step may have vaporised them with the Province)."""
    return state.holder(prov) == seat and state.provinces[prov].units > 0


def production(state: GameState) -> None:
    """rules: 003 $Realm production step; Winter Storms; Imarin's Blessings; burnt Provinces; the
    Capitol rule; Work, work! (+50, Hodir +80%, golden: none but an upgrade); Pirates! collection."""
    cards = active_cards(state)
    island = state.board.island
    owned_by = state.owned_by()
    for seat in state.active():
        capitol_done = False
        income = 0
        # one producing lvl 3 Province is the Capitol, any other produces as lvl 2 (a sum: order is moot)
        for prov in owned_by.get(seat, ()):
            pr = state.provinces[prov]
            if prov == island or (pr.burnt and C.IMARINS_BLESSINGS not in cards):
                continue
            level = pr.level
            if level == 3:
                level = 3 if not capitol_done else 2
                capitol_done = True
            income += LEVEL_INCOME[level]
        work = 0
        worked = []
        for prov, (s, golden) in state.work_orders.items():
            if s != seat or not _still_working(state, seat, prov):
                continue
            if not golden and state.provinces[prov].burnt and C.IMARINS_BLESSINGS not in cards:
                continue  # rules: 003 The Dragon's Wrath! — a burnt-out Province never produces $Realm
            worked.append(prov)
            if golden:
                state.golden_work_done[prov] = seat
            else:
                hodir = has(state, seat, "merchants_of_the_gods")
                work += int(WORK_INCOME * (1 + HODIR_WORK_BONUS)) if hodir else WORK_INCOME
        total = income + work
        if C.WINTER_STORMS in cards:
            total = 0
        elif C.IMARINS_BLESSINGS in cards:
            total *= 2
        money(state, seat, total, "003 $Realm production step")
        emit(state, "production", "003 $Realm production step", f"{seat} produces {total} $Realm.",
             private={seat}, seat=seat, amount=total, work=worked)
    state.work_orders = {}
    # rules: 003 Pirates!, Collecting $Realm — "immediately after the $Realm production step"; as much
    # as they can.
    for seat, due in [(s, state.pirates_due[s]) for s in state.players if s in state.pirates_due]:  # seat order
        if state.players[seat].eliminated:
            continue
        paid = min(due, state.players[seat].realm)
        money(state, seat, -paid, "003 Pirates!, Collecting $Realm")
        # what is due is public (the snitches are, and the table); what was paid, when short, is the balance left
        # after production: the payer's alone (PIRATES_PAID_PRIVATE), the public line the same either way
        rule = "003 Pirates!, Collecting $Realm"
        emit(state, "pirates_paid", rule, f"The Pirates collect the {due} $Realm {seat} owes them (as much as it "
             "holds).", seat=seat, due=due)
        emit(state, "pirates_payment", rule, f"{seat} pays the Pirates {paid} $Realm"
             + (f" of the {due} due (all it held)." if paid < due else "."), private={seat}, seat=seat, amount=paid,
             due=due)
    state.pirates_due = {}


def apply_decision(state: GameState, seat: str, d: ConsolidationDecision, funded: bool = False) -> None:
    """Buying and bidding step for one seat (decision already validated; ``funded``: its pooled
    $Realm was already moved, as the game does for every seat before anyone buys)."""
    if not funded:
        fund(state, seat, d.funding)
    p = state.players[seat]
    bank = False
    for a in d.abilities:
        if a.name == "faith_alone" and p.realm >= FAITH_COST:
            # rules: 003 Iron Light, Faith alone sustains us! — supply +1 until next turn's Consolidation
            money(state, seat, -FAITH_COST, "003 Iron Light, Faith alone sustains us!")
            p.used.add("faith_alone")
            p.used_turn.add("faith_active")
        elif a.name == "bank_of_lannuvar" and p.realm >= BANK_COST:
            # rules: 003 The Bank of Lannuvár — no bid now; the bid is made after the others' bids are
            # revealed next turn; active until the end of next turn's Consolidation phase
            money(state, seat, -BANK_COST, "003 The Bank of Lannuvár")
            p.used.add("bank_of_lannuvar")
            p.used_turn.add("bank_bid")
            p.bank_until = state.turn + 1
            bank = True
        elif a.name == "mountain_king_offer" and p.realm >= OFFER_COST:
            # rules: 003 Hodir, An offer — 50 $Realm for the Mountain King's protection next turn
            money(state, seat, -OFFER_COST, "003 Hodir, An offer")
            p.offer_turn = state.turn + 1
            emit(state, "mountain_king_offer", "003 Hodir, An offer",
                 f"{seat} hires the Mountain King's protection for next turn.", private={seat}, seat=seat)
    sanctum.choose(state, seat, d.abilities)
    for prov in d.upgrades:  # rules: 003 Golden Work, work! — pay 25 to upgrade one level
        pr = state.provinces[prov]
        if state.players[seat].realm >= UPGRADE_COST and pr.level < MAX_LEVEL:
            money(state, seat, -UPGRADE_COST, "003 Golden Work, work! upgrade")
            pr.level += 1
            emit(state, "upgrade", "003 Golden Work, work!", f"{seat} upgrades {prov} to level {pr.level}.",
                 seat=seat, province=prov, level=pr.level)
        else:  # rules: 003 Each Turn — choices are revealed as they are executed, failed ones too
            emit(state, "upgrade_failed", "003 Golden Work, work!",
                 f"{seat}: Upgrade {prov} fails (" + ("not enough $Realm" if pr.level < MAX_LEVEL
                                                     else f"already level {MAX_LEVEL}") + ").",
                 seat=seat, province=prov)
    level3 = [p for p, pr in state.provinces.items() if pr.owner == seat and pr.level == 3]
    if len(level3) > 1:  # rules: 003 — one Capitol; the other lvl 3 Provinces drop to lvl 2
        keep = d.capitol if d.capitol in level3 else min(level3, key=state.board.number)
        for prov in level3:
            if prov != keep:
                state.provinces[prov].level = 2
    bought, short = _buy(state, seat, d.buys)
    if bought:
        emit(state, "buy", "003 Buying step", f"{seat} buys " + ", ".join([f"{k} in {p}" for p, k in bought]) + ".",
             seat=seat, bought=bought)
    if short:
        # rules: 003 Buying step — "they will simply buy as many as they can in the Provinces specified";
        # the buy order is revealed as it is executed (003 Each Turn), so what it could not buy is public.
        emit(state, "buy_short", "003 Buying step",
             f"{seat}: " + "; ".join(f"Buy {want} in {p}: {got or 'none'} bought ({why})"
                                     for p, want, got, why in short) + ".",
             seat=seat, short=[list(x) for x in short])
    # rules: 003 Bidding step — the bid is set aside now (secret) and revealed next turn; the Team Games
    # example counts it as spent in this step ("Player#1 has 0 Realm").
    if bank:
        return
    if state.times_up:
        # rules: 003 Time's Up! — "This will be the last turn of the game": there is no next turn's Protector
        # Ranking to bid for, so no bid is set aside and the $Realm stays held (it may break a tie).
        # Assumption LAST_TURN_NO_BID.
        if d.bid:
            emit(state, "bid_not_taken", "003 Time's Up!", last_turn_bid_text(d.bid), private={seat}, seat=seat,
                 asked=d.bid)
        return
    state.next_bids[seat] = set_aside_bid(state, seat, d.bid, "003 Bidding step", AFTER_BUYING)


def last_turn_bid_text(asked: int) -> str:
    return (f"Your bid of {asked} is not taken: Time's Up! makes this the last turn, with no next Protector "
            f"Ranking to bid for; the {asked} $Realm stay yours.")


AFTER_BUYING = " after buying"


def set_aside_bid(state: GameState, seat: str, bid: int, rule: str, when: str = "") -> int:
    """Pay ``bid``, at most what the seat holds; returns what was paid. A reduction is told to the seat
    alone (assumption BID_REDUCED_PRIVATE: the ranking reveals the bid it became, never the balance)."""
    paid = min(bid, state.players[seat].realm)
    money(state, seat, -paid, rule)
    if paid < bid:
        emit(state, "bid_reduced", rule, bid_reduced_text(bid, paid, when), private={seat}, seat=seat, asked=bid,
             bid=paid)
    return paid


def bid_reduced_text(asked: int, bid: int, when: str = "") -> str:
    return f"Your bid of {asked} is reduced to {bid}, all the $Realm you hold{when}."


def reduced_bids(state: GameState) -> dict[str, int]:
    """Seats whose bid set aside in the last Consolidation was reduced to what they held: seat -> the
    bid they asked for (read back from that step's private ``bid_reduced`` events)."""
    out: dict[str, int] = {}
    events = state.events
    last = state.turn - 1
    i = len(events) - 1
    while i >= 0:  # newest first (an index walk: mypyc cannot compile reversed() over this list)
        e = events[i]
        turn: int = e[EVENT_TURN]  # by index (events.EVENT_TURN): a typed local, direct code compiled
        if turn < last:
            break
        kind: str = e[EVENT_KIND]
        if turn == last and kind == "bid_reduced":
            data: dict[str, Any] = e[EVENT_DATA]
            out[data["seat"]] = data["asked"]
        i -= 1
    return out


def fund(state: GameState, seat: str, funding: tuple[Funding, ...]) -> None:
    """rules: 003 Team Games, Pooled $Realm — "(110 from Player#2)": the team-mate pays that much, or what
    it holds (POOL_FIRST). A seat does not see its team-mate's balance (POOL_UNSEEN), so a transfer asked
    beyond it is told to the two of them here, not refused when the DM came."""
    for f in funding:
        paid = min(f.amount, state.players[f.source].realm)
        if paid > 0:
            money(state, f.source, -paid, f"003 Team Games, pooled $Realm to {seat}")
            money(state, seat, paid, f"003 Team Games, pooled $Realm from {f.source}")
        if paid < f.amount:
            emit(state, "pool_short", "003 Team Games, Pooled $Realm",
                 f"{f.source} could pay only {paid} of the {f.amount} $Realm {seat} asked for.",
                 private={seat, f.source}, seat=seat, source=f.source, asked=f.amount, paid=paid)


def _buy(state: GameState, seat: str, buys: tuple[tuple[str, int], ...]
         ) -> tuple[list[tuple[str, int]], list[tuple[str, int, int, str]]]:
    """rules: 003 Buying step — "If a player tries to buy more units than they can afford, they will
    simply buy as many as they can in the Provinces specified": with 150 $Realm, "Buy 2 in P6. 1 in
    P5." buys 1 in each, so units are bought one at a time, round the listed Provinces in order.

    Returns what was bought (Province, units) and what was not: (Province, wanted, bought, why)."""
    want: dict[str, int] = {}
    order: list[str] = []
    for prov, n in buys:
        if state.provinces[prov].owner == seat:
            if prov not in want:
                order.append(prov)
            want[prov] = want.get(prov, 0) + n
    got = dict.fromkeys(order, 0)
    cards = active_cards(state)
    limit = {prov: supply_limit(state, prov, seat, cards) for prov in order}  # fixed during the step
    progress = True
    while progress and state.players[seat].realm >= UNIT_COST:
        progress = False
        for prov in order:
            pr = state.provinces[prov]
            if got[prov] < want[prov] and pr.units < limit[prov] and state.players[seat].realm >= UNIT_COST:
                money(state, seat, -UNIT_COST, "003 Buying step")
                pr.units += 1
                got[prov] += 1
                progress = True
    short = [(p, want[p], n, "supply limit" if state.provinces[p].units >= limit[p] else "not enough $Realm")
             for p, n in got.items() if n < want[p]]
    return [(p, n) for p, n in got.items() if n], short
