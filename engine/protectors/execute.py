"""4. Execute Orders: reveal, transfers, Pirates!, March!, battles, Delayed March!, battles.

# rules: 003 4. Execute Orders; Orders (March!, Delayed March!, Support!, Fortify!, Work, work!,
# Golden Orders); How battles start / How to resolve battles; Examples 1-7.
"""

from __future__ import annotations

from typing import cast

from engine.protectors import cards as C
from engine.protectors.decisions import OrdersDecision
from engine.protectors.dragon import active_cards
from engine.protectors.events import emit, listed, money, transfer
from engine.protectors.factions import has
from engine.protectors.orders import Fortify, March, ProvinceOrder, Support, Work, order_kind
from engine.protectors.state import GameState
from engine.protectors.tables import FERRY_COST

PLANK_PAYMENT = 75  # rules: 003 Walk the Plank — "collect a payment of 75 $Realm"
SNITCH_FINE_SILENT, SNITCH_FINE_CROWD = 25, 50  # rules: 003 Snitches table

ByProvince = dict[str, tuple[str, ProvinceOrder]]  # province -> (seat, its order), by number
Forces = dict[str, dict[str, int]]  # province -> seat -> units there


NO_ORDERS = "No orders this turn: every player sent none, so every Army Unit stays where it is."
# the same when some seats' rulebook default was no orders (Restlessness of Spring): they sent nothing, not none
NO_ORDERS_DEFAULTED = "No orders this turn, so every Army Unit stays where it is."
NO_ORDERS_FROM = "Sent none this turn (no orders): {seats}."


def execute_orders(state: GameState) -> None:
    """Run the whole Execute Orders phase on ``state.orders`` (validated decisions per seat)."""
    cards = active_cards(state)
    # in Province-number order, the order March! orders are listed in (_march)
    # (validated orders always name their Province)
    by_province = cast(ByProvince, {o.province: (seat, o) for seat, d in state.orders.items() for o in d.orders})
    by_province = {p: by_province[p] for p in state.board.by_number(by_province)}
    for seat in [s for s in state.players if s in state.orders]:  # seat order (Player#2 before Player#10)
        d = state.orders[seat]
        if d.orders or d.sends:
            lines = list(d.texts)  # the orders' lines come first, in order (OrdersDecision.lines)
            emit(state, "orders", "003 4. Execute Orders", f"{seat}: " + "; ".join(lines), seat=seat, lines=lines,
                 orders=[[lines[i], order_kind(o), o.province] for i, o in enumerate(d.orders)])
    _say_none(state)
    _transfers(state)
    _ferries(state, by_province)
    if C.PIRATES in cards:
        _pirates(state, by_province)
    # units always have a holder (the occupant, else the owner)
    forces = cast(Forces, {p: {pr.occupant or pr.owner: pr.units} for p, pr in state.provinces.items() if pr.units > 0})
    cancelled: set[str] = set()
    for delayed in (False, True):
        golden = _march(state, by_province, forces, delayed)
        battles = state.board.by_number([p for p, f in forces.items() if len(f) >= 2 and _sides_with_units(f) >= 2])
        # rules: 003 Support! — "If a Province that has been given a Support! order is attacked, the
        # Support! order is cancelled"
        cancelled |= set(battles)
        for prov in battles:
            _battle(state, prov, forces, by_province, golden, cancelled, cards)
    for prov, pr in state.provinces.items():
        left, n = None, 0
        for s, k in forces.get(prov, {}).items():  # after the battles at most one side is left
            if k > 0:
                left, n = s, k
                break
        pr.units = n
        pr.occupant = left if left is not None and left != pr.owner else None


def _say_none(state: GameState) -> None:
    """rules: 003 4. Execute Orders (orders are revealed to all as they are executed): the seats that sent `none`,
    not a line (an order, a Snitch, a Ferry or an ability is one; docs/dm-syntax.md), are named, so the report does
    not leave a reader to infer them from whose orders are missing; when no seat gave a line, nothing is executed and
    that is said once, or the turn's report would be empty. A seat whose DM did not come sent nothing: its rulebook
    default (Fortify!, or no orders under Restlessness of Spring: assumption RESTLESS_DEFAULT) is never called `none`
    (``state.defaulted``; the report names it among the rulebook's defaults instead)."""
    quiet = [seat for seat in state.players if seat in state.orders and not state.orders[seat].texts]
    if not quiet:
        return
    said = [seat for seat in quiet if seat not in state.defaulted]
    if len(quiet) == len(state.orders):
        if len(said) == len(quiet):
            emit(state, "no_orders", "003 4. Execute Orders", NO_ORDERS, seats=said)
            return
        emit(state, "no_orders", "003 4. Execute Orders", NO_ORDERS_DEFAULTED, seats=said)
    if said:
        emit(state, "no_orders_from", "003 4. Execute Orders",
             NO_ORDERS_FROM.format(seats=listed(said)), seats=said)


def _sides_with_units(force: dict[str, int]) -> int:
    n = 0
    for k in force.values():
        if k > 0:
            n += 1
    return n


def _transfers(state: GameState) -> None:
    # rules: 003 3. Negotiation and Orders — transfers revealed and made in the Execute Orders phase;
    # a promised $Realm cannot be forwarded, so each send is capped by the sender's own holdings.
    for seat in list(state.ranking):
        d: OrdersDecision | None = state.orders.get(seat)
        for s in d.sends if d else ():
            amount = min(s.amount, state.players[seat].realm)
            if amount > 0 and not state.players[s.to].eliminated:
                transfer(state, seat, s.to, amount, "003 Negotiation and Orders, $Realm transfer")
                emit(state, "transfer", "003 Negotiation and Orders", f"{seat} sends {amount} $Realm to {s.to}.",
                     src=seat, dst=s.to, amount=amount)


def _ferries(state: GameState, by_province: ByProvince) -> None:
    # rules: 003 Sea cards, Ferry! — 25 $Realm per Province used; "Any orders that become invalid
    # will start from the highest Province number and continue stepwise to the lowest".
    for seat, d in state.orders.items():
        if not d.ferries:
            continue
        wanted = state.board.by_number(d.ferries)
        affordable = min(len(wanted), state.players[seat].realm // FERRY_COST)
        if affordable:
            money(state, seat, -FERRY_COST * affordable, "003 Sea cards, Ferry! cost")
        for p in wanted[affordable:]:
            o = by_province.get(p)
            if o and isinstance(o[1], March) and not state.board.is_neighbour(p, o[1].dst):
                del by_province[p]
                emit(state, "invalid_order", "003 Negotiation and Orders, invalid orders",
                     f"{seat}: {o[1].text()} is invalid (Ferry! from {p} not paid).", seat=seat, province=p)


def _pirates(state: GameState, by_province: ByProvince) -> None:
    """rules: 003 Sea cards, Pirates! — the Snitches table, the unanimous exception, Walk the Plank."""
    active = state.active()
    snitch = {s: d.snitch for s, d in state.orders.items()
              if d.snitch and s in active and d.snitch in active and d.snitch != s}
    named = set(snitch.values())
    plank: set[str] = set()
    fines: dict[str, int] = {}
    unanimous = [x for x in named if len(active) > 2
                 and all(snitch.get(s) == x for s in active if s != x)]
    if unanimous:
        plank = {unanimous[0]}
    else:
        for s in active:
            if s in snitch:
                if len(named) >= 2:
                    fines[s] = SNITCH_FINE_CROWD
            elif len(named) <= 1:
                fines[s] = SNITCH_FINE_SILENT
        if len(named) == 1:
            plank = set(named)
    kills: list[tuple[str, str]] = []
    for s in [s for s in state.players if s in plank]:  # in seat order; each loses its own unit
        prov = _least_defended(state, s, by_province)  # its own Provinces: another seat's kill changes none of them
        if prov is None:
            fines[s] = fines.get(s, 0) + PLANK_PAYMENT
        else:
            kills.append((s, prov))
    for s, n in fines.items():
        state.pirates_due[s] = state.pirates_due.get(s, 0) + n
    # the snitches first, then what they cost: the report reads "Pirates! snitches: ..." before the kill it leads to
    emit(state, "snitches", "003 Snitches", "Pirates! snitches: " + (", ".join(
        f"{s} -> {snitch[s]}" for s in state.players if s in snitch) or "nobody snitched"), snitches=snitch,
        plank=[s for s in state.players if s in plank], due=fines)
    for s, prov in kills:
        state.provinces[prov].units -= 1
        emit(state, "walk_the_plank", "003 Walk the Plank", f"The Pirates kill 1 Army Unit of {s} in {prov}.",
             seat=s, province=prov)


def _least_defended(state: GameState, seat: str, by_province: ByProvince) -> str | None:
    """rules: 003 Walk the Plank — the Province with the lowest Defender US holding a unit, ties to
    the lowest number. Defender US here is the units plus the seat's own Fortify!/Work, work!
    modifiers (assumption PLANK_DEFENDER_US). The Island is no Province (ISLAND_NOT_COUNTED): its unit is never
    the one the Pirates kill, and a seat with units only there pays the 75 $Realm."""
    best = None
    for prov in state.mainland(seat):
        pr = state.provinces[prov]
        if pr.units <= 0:
            continue
        us = pr.units + _order_modifier(state, seat, prov, by_province, defender=True,
                                        cards=active_cards(state))
        key = (us, state.board.number(prov))
        if best is None or key < best[0]:
            best = (key, prov)
    return best[1] if best else None


def _order_modifier(state: GameState, seat: str, prov: str, by_province: ByProvince, *, defender: bool,
                    cards: set[str]) -> int:
    o = by_province.get(prov)
    if not o or o[0] != seat:
        return 0
    order = o[1]
    if isinstance(order, Fortify) and defender and C.RESTLESSNESS not in cards:
        # rules: 003 Fortify! (+1), Golden (+1 more), Cenarion Defenders of the Realm (+2 instead of +1)
        return (2 if has(state, seat, "defenders_of_the_realm") else 1) + (1 if order.golden else 0)
    if isinstance(order, Work):
        return -1  # rules: 003 Work, work! — "-1 modifier to their total Unit Strength"
    return 0


def _march(state: GameState, by_province: ByProvince, forces: Forces, delayed: bool) -> set[tuple[str, str]]:
    """All (Delayed) March! orders at once; returns (province, seat) pairs with a Golden bonus.

    # rules: 003 March! — "The specified number of Army Unit(s) ... must march"; Example 2: only the
    # units present when the orders execute can march.
    """
    moves = []
    for prov, (seat, o) in by_province.items():  # in Province-number order
        if not isinstance(o, March) or o.delayed != delayed:
            continue
        n = min(o.count, forces.get(prov, {}).get(seat, 0))
        if n <= 0:
            emit(state, "march_void", "003 Delayed March!" if delayed else "003 March!",
                 f"{seat}: {o.text()} is not executed (no units left in {prov}).", seat=seat, province=prov)
            continue
        if n < o.count:
            emit(state, "march_trimmed", "003 Example 2", f"{seat}: only {n} units in {prov}: marching {n}.",
                 seat=seat, province=prov, count=n)
        moves.append((seat, o, n))
    golden = set()
    for seat, o, n in moves:
        forces[o.src][seat] -= n
    for seat, o, n in moves:
        forces.setdefault(o.dst, {})
        forces[o.dst][seat] = forces[o.dst].get(seat, 0) + n
        if o.golden:
            golden.add((o.dst, seat))
        emit(state, "march", "003 Delayed March!" if delayed else "003 March!",
             f"{seat} marches {n} from {o.src} to {o.dst}" + _march_marks(o.golden, delayed) + ".",
             seat=seat, src=o.src, dst=o.dst, count=n, golden=o.golden, delayed=delayed)
    return golden


def _march_marks(golden: bool, delayed: bool) -> str:
    """What a march line says of its order: "(golden)", "(delayed)" (a Delayed March!, which moves after the
    March! orders and their battles), or both."""
    marks = [m for m, on in (("golden", golden), ("delayed", delayed)) if on]
    return f" ({', '.join(marks)})" if marks else ""


def _battle(state: GameState, prov: str, forces: Forces, by_province: ByProvince, golden: set[tuple[str, str]],
            cancelled: set[str], cards: set[str]) -> None:
    """rules: 003 How battles start — 3+ players fight 1vs1, lowest ranked first."""
    rank = {s: i for i, s in enumerate(state.ranking)}
    seats = sorted((s for s, n in forces[prov].items() if n > 0), key=lambda s: -rank.get(s, 99))
    current = seats[0]
    for other in seats[1:]:
        if forces[prov].get(current, 0) <= 0:
            current = other
            continue
        current = _fight(state, prov, current, other, forces, by_province, golden, cancelled, cards, rank)


def _fight(state: GameState, prov: str, a: str, b: str, forces: Forces, by_province: ByProvince,
           golden: set[tuple[str, str]], cancelled: set[str], cards: set[str], rank: dict[str, int]) -> str:
    us = {s: _side_us(state, prov, s, forces, by_province, golden, cancelled, cards) for s in (a, b)}
    if us[a] != us[b]:
        winner, loser = (a, b) if us[a] > us[b] else (b, a)
        tie = False
    else:  # rules: 003 — a tie is won by the higher ranked player, who also loses 1 Army Unit
        winner, loser = (a, b) if rank.get(a, 99) < rank.get(b, 99) else (b, a)
        tie = True
    lost = forces[prov][loser]
    forces[prov][loser] = 0
    if tie:
        forces[prov][winner] -= 1
    owner = state.provinces[prov].owner
    emit(state, "battle", "003 How to resolve battles",
         f"Battle in {prov}: {a} {us[a]} US vs {b} {us[b]} US; {winner} wins"
         + (" on the Protector Ranking and loses 1 unit" if tie else "") + f"; {loser} loses {lost}.",
         province=prov, us=us, winner=winner, loser=loser, tie=tie,
         roles={s: ("defender" if s == owner else "attacker") for s in (a, b)})
    return winner


def _side_us(state: GameState, prov: str, seat: str, forces: Forces, by_province: ByProvince,
             golden: set[tuple[str, str]], cancelled: set[str], cards: set[str]) -> int:
    """Attacker/Defender US: units + order and card modifiers + valid Support!.

    # rules: 003 How to resolve battles, the summary table.
    """
    defender = state.provinces[prov].owner == seat
    own = forces[prov][seat] + _order_modifier(state, seat, prov, by_province, defender=defender, cards=cards)
    if (prov, seat) in golden:
        own += 1  # rules: 003 Golden Orders — Golden March! "+1 US in battle"
    if not defender and C.DEEP_SNOW in cards:
        own -= 1  # rules: 003 Deep Snow — "All Attackers suffer -1 to their total Unit Strength"
    return max(0, own) + _support(state, prov, seat, forces, by_province, cancelled, cards)


def _support(state: GameState, prov: str, seat: str, forces: Forces, by_province: ByProvince,
             cancelled: set[str], cards: set[str]) -> int:
    """rules: 003 Support! (neighbouring Province, cancelled when attacked); Golden Support! focused
    (+1) or extended (range 2); Heavy rains of Autumn (-1 per Support!); Flood! (no neighbours)."""
    if C.FLOOD in cards:
        return 0
    total = 0
    for src, (supporter, o) in by_province.items():
        if not isinstance(o, Support) or o.player != seat or o.target != prov or src in cancelled:
            continue
        dist = state.board.distance(src, prov)
        if dist == 1:
            bonus = 1 if o.golden else 0
        elif dist == 2 and o.golden:
            bonus = 0
        else:
            continue
        units = forces.get(src, {}).get(supporter, 0)
        if units <= 0:
            continue
        total += max(0, units + bonus - (1 if C.HEAVY_RAINS in cards else 0))
    return total
