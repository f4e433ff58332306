"""``heuristic``: a hand-written Protectors player that reads the board the way a careful human does.

It sees only its SeatContext (the public board of its view, ``ctx.board``, + legal enumeration). Its habits:
- bids: outbid the field for the Grand Protector seat when it is cheap (the Grand Protector is spared
  the Dragon's Wrath and wins ties), never spending what it needs for units;
- orders: reads the threat on each Province from adjacent enemy stacks; attacks a weak neighbour
  when its march plus its own supports beat the defender's best case; otherwise Fortify! where
  threatened (golden on the most threatened) and Work, work! where safe (golden work for upgrades);
- Dragon: commits everything when its own US alone beats the DPL (the win pays 3 VP), otherwise
  meets its min.US so the Wrath cannot burn it (casualties by the engine's default order, no `sac`);
- consolidation: upgrades after Golden Work, buys units where threatened first, and keeps $Realm under
  the hoarding bands (250 / 350) by bidding what it cannot use (rules: 003 Hoarding $Realm table).
"""

from __future__ import annotations

from functools import lru_cache

from agents.teams import left_to_a_mate, team_mates
from engine.protectors.board import Board
from engine.protectors.decisions import (
    BidDecision,
    ConsolidationDecision,
    Decision,
    DragonDecision,
    OrdersDecision,
)
from engine.protectors.orders import Commit, Fortify, March, Support, Work
from engine.protectors.seat import SeatContext
from engine.protectors.state import BANK_BID, BID, CONSOLIDATION, DRAGON, ORDERS, REBID
from engine.protectors.tables import HOARD_BANDS, SUPPLY_LIMIT, UNIT_COST, UPGRADE_COST

HOARD_BAND = HOARD_BANDS[0]  # rules: 003 Hoarding $Realm — DPL grows faster from 250 $Realm held
FIRST_BID = 15  # turn 1: a top-bracket bid that still leaves a unit's price after production (measured)
ATTACK_MARGIN = 1  # attack only when our US beats the defender's best case by this much


@lru_cache(maxsize=64)
def _board_from_name(name: str) -> Board:
    return Board.builtin(name)


def board_of(view: dict) -> Board:
    spec = view["board"]
    if isinstance(spec, str):
        return _board_from_name(spec)
    return Board.from_adjacency(spec, spec.get("name", "custom"))


def _mates(ctx: SeatContext) -> frozenset[str]:
    """``team_mates`` of the deciding seat. Outside a team game (the view's options, public) a seat has none, and
    the redacted state it is read from (``ctx.state``: ``views.seat_state``, a copy of the whole state) is not made:
    in a play-out every orders decision of every seat would make one. Without team-mates ``left_to_a_mate`` is
    False too, so the heuristic asks it only when there are some."""
    if not ctx.board["options"]["teams"]:
        return frozenset()
    return team_mates(ctx.state, ctx.seat)


class HeuristicAgent:
    name = "heuristic"

    def __init__(self, seed: int | None = None, all_in: bool = True, margin: int = ATTACK_MARGIN,
                 assume_fortify: bool = False, first_work: bool = False, keep_one: bool = False,
                 min_stack: int = 1, first_bid: int = FIRST_BID, others_factor: float = 0.4,
                 gp_hides: bool = True, bid_share: float = 0.75, bid_reserve: int = 0, attack_from: int = 1):
        """The knobs were measured against random players (docs/assumptions.md); the
        defaults are the best found."""
        self.seed = seed
        self.all_in = all_in  # commit everything when the Dragon looks beatable with the others' help
        self.margin = margin  # attack when our US beats the defender's estimate by this much
        self.assume_fortify = assume_fortify  # count a Fortify! (+ golden) in the defender's estimate
        self.first_work = first_work  # turn 1: bid 0 and Work, work! instead of bidding for bracket 1
        self.keep_one = keep_one  # leave one unit home when attacking an enemy stack
        self.min_stack = min_stack  # smallest stack that attacks
        self.first_bid = first_bid
        self.others_factor = others_factor  # share of the other seats' units we expect them to commit
        self.gp_hides = gp_hides  # as Grand Protector, commit nothing to a hopeless attack (no Wrath)
        self.bid_share = bid_share  # of the $Realm left after buying, bid for next turn's ranking
        self.bid_reserve = bid_reserve  # $Realm set aside for the bid before buying units
        self.attack_from = attack_from  # first turn on which to attack

    def reset(self, seed: int | None = None) -> None:
        self.seed = seed

    def act(self, ctx: SeatContext) -> Decision:
        step = ctx.step
        if step in (BID, REBID, BANK_BID):
            return self._bid(ctx)
        if step == ORDERS:
            return self._orders(ctx)
        if step == DRAGON:
            return self._dragon(ctx)
        if step == CONSOLIDATION:
            return self._consolidation(ctx)
        return ctx.default()

    # -- reading the board -------------------------------------------------------------------
    def _holder(self, view, p):
        return view["provinces"][p]["holder"]

    def _threat(self, view, board, p) -> int:
        """The largest enemy stack that could march into ``p`` (plus one golden point)."""
        me = view["you"]
        best = 0
        for q in board.neighbours.get(p, ()):
            h = self._holder(view, q)
            if h and h != me:
                best = max(best, view["provinces"][q]["units"])
        return best + (1 if best else 0)

    def _defence(self, view, board, p) -> int:
        """A neighbour's best-case defence: units + Fortify! + golden + one unit of outside support."""
        pr = view["provinces"][p]
        owner = pr["holder"]
        bracket = view["players"][owner]["bracket"] if owner else None
        golden = 1 if bracket is not None and bracket <= 3 else 0
        support = 0
        for q in board.neighbours.get(p, ()):
            if self._holder(view, q) == owner and q != p:
                support += view["provinces"][q]["units"]
        return pr["units"] + (1 + golden if self.assume_fortify else 0) + support

    # -- bids ----------------------------------------------------------------------------------
    def _bid(self, ctx: SeatContext) -> BidDecision:
        realm = ctx.realm
        faction = None
        if ctx.step == BID and ctx.board.get("options", {}).get("factions"):
            faction = None  # random faction is the rulebook default; the heuristic has no preference
        if ctx.step == BID:
            return BidDecision(0 if self.first_work else min(realm, self.first_bid), faction)
        return BidDecision(min(realm, max(1, realm // 4)))

    # -- orders --------------------------------------------------------------------------------
    def _orders(self, ctx: SeatContext) -> OrdersDecision:
        view, me = ctx.board, ctx.seat
        board = board_of(view)
        limits = dict(ctx.golden_limits())
        mine = ctx.orderable()
        legal = {p: ctx.legal_orders(p) for p in mine}
        orders: dict[str, object] = {}
        mates = _mates(ctx)  # never a target (agents/teams.py)
        # 1) attacks: the weakest adjacent enemy Province our stack (+ supports) beats
        for p in sorted(mine, key=lambda q: -view["provinces"][q]["units"]) if view["turn"] >= self.attack_from else ():
            units = view["provinces"][p]["units"]
            if p in orders or units < self.min_stack:
                continue
            move = units - 1 if self.keep_one and units > 1 else units
            home_threat = self._threat(view, board, p) > 1
            best = None
            for m in legal[p]:
                if not isinstance(m, March) or m.delayed:
                    continue
                h = self._holder(view, m.dst)
                # an enemy stack gets everything; an empty Province gets all but one (home stays held)
                if m.count != (move if h is not None else units - 1):
                    continue
                if h == me or h in mates or m.dst == view.get("island") or (
                        mates and left_to_a_mate(ctx.state, me, m.dst)):
                    continue  # a team-mate's, or a nearer team-mate's to take (agents/teams.py TEAM_TARGETS)
                if home_threat and h is None:
                    continue  # leave a threatened home only to strike an enemy stack, not to walk in
                if m.golden and limits["march"] <= 0:
                    continue
                helpers = [q for q in mine if q != p and q not in orders
                           and Support(me, m.dst, q, False) in legal[q]]
                support = sum(view["provinces"][q]["units"] for q in helpers)
                att = move + (1 if m.golden else 0) + support
                need = self._defence(view, board, m.dst) if h else 0
                rank = (h is not None, m.golden, -need)  # enemy Provinces first: conquest eliminates
                if att >= need + self.margin and (best is None or rank > best[1]):
                    best = (m, rank, helpers)
            if best:
                m, _, helpers = best
                orders[p] = m
                if m.golden:
                    limits["march"] -= 1
                for q in helpers:
                    orders[q] = Support(me, m.dst, q, False)
        # 2) defence and work
        rest = [p for p in mine if p not in orders]
        threats = {p: self._threat(view, board, p) for p in rest}
        for p in sorted(rest, key=lambda q: -threats[q]):
            kinds = {type(o).__name__ for o in legal[p]}
            if p == view.get("island"):
                continue
            work_now = self.first_work and view["turn"] == 1
            if threats[p] > 0 and "Fortify" in kinds and not work_now:
                golden = limits["fortify"] > 0
                if golden:
                    limits["fortify"] -= 1
                orders[p] = Fortify(p, golden)
            elif "Work" in kinds:
                golden = limits["work"] > 0 and view["provinces"][p]["level"] < 3 and ctx.realm >= UPGRADE_COST
                if golden:
                    limits["work"] -= 1
                orders[p] = Work(p, golden)
            elif "Fortify" in kinds:
                orders[p] = Fortify(p, False)
        return ctx.validate(OrdersDecision(tuple(orders.values())))

    # -- Dragon --------------------------------------------------------------------------------
    def _dragon(self, ctx: SeatContext) -> DragonDecision:
        view, me = ctx.board, ctx.seat
        att, provs, green, min_us = self._fight(view, me)
        total = sum(view["provinces"][p]["units"] for p in provs)
        others = sum(pl["units"] for s, pl in view["players"].items() if s != me and not pl["eliminated"])
        hopeful = total + self.others_factor * others > att["dpl"]
        if total > att["dpl"] or (self.all_in and hopeful):  # commit everything
            commits = [Commit(p, view["provinces"][p]["units"]) for p in provs]
            return ctx.validate(DragonDecision(tuple(commits)))
        ranking = view.get("ranking") or []
        if self.gp_hides and ranking and ranking[0] == me:
            # rules: 003 — the Grand Protector is spared the Wrath; failing min.US costs its $Realm only
            return ctx.validate(DragonDecision())
        return ctx.validate(self._meet_min_us(view, provs, green, min_us))

    @staticmethod
    def _fight(view: dict, me: str) -> tuple[dict, list[str], list[str], int]:
        """The attack, our Provinces with units to commit, our green Provinces and our min.US
        (rules: 003 Dragon Attack, min.US: one per green Province, doubled by the Worldeater)."""
        att = view.get("attack") or {"dpl": view["dpl"], "worldeater": False}
        isl = view.get("island")
        provs = [p for p, pr in view["provinces"].items()
                 if pr["owner"] == me and pr["holder"] == me and pr["units"] > 0 and p != isl]
        green = [p for p, pr in view["provinces"].items() if pr["owner"] == me and not pr["burnt"] and p != isl]
        return att, provs, green, len(green) * (2 if att.get("worldeater") else 1)

    @staticmethod
    def _meet_min_us(view: dict, provs: list[str], green: list[str], min_us: int) -> DragonDecision:
        """Commit min.US, taking units from the best-defended Provinces first; name the cheapest green
        Provinces for each US short (rules: 003 The Dragon's Wrath!)."""
        commits, need = [], min_us
        for p in sorted(provs, key=lambda q: -view["provinces"][q]["units"]):
            if need <= 0:
                break
            n = min(need, view["provinces"][p]["units"])
            commits.append(Commit(p, n))
            need -= n
        worth = lambda q: (view["provinces"][q]["level"], view["provinces"][q]["units"])  # noqa: E731
        burns = sorted(green, key=worth)[:max(0, need)]
        return DragonDecision(tuple(commits), tuple(burns))

    # -- consolidation -------------------------------------------------------------------------
    def _consolidation(self, ctx: SeatContext) -> ConsolidationDecision:
        view, me = ctx.board, ctx.seat
        board = board_of(view)
        realm = ctx.realm
        upgrades = []
        for p, pr in view["provinces"].items():
            if pr["owner"] == me and realm >= UPGRADE_COST and pr["level"] < 2:
                upgrades.append(p)
        upgrades = [p for p in upgrades if self._golden_worked(ctx, p)]
        realm -= UPGRADE_COST * len(upgrades)
        isl = view.get("island")
        mine = [p for p, pr in view["provinces"].items() if pr["owner"] == me and p != isl
                and pr["holder"] in (me, None)]
        reserve = min(realm, self.bid_reserve)  # the ranking first: a high rank is spared the Wrath
        realm -= reserve
        buys, realm = self._buy_units(view, board, mine, realm, spread=True)
        # bid what we cannot use; stay under the hoarding band after next turn's income
        income = 50 * max(1, len(mine))
        keep = max(0, min(realm, HOARD_BAND - income - 1))
        bid = reserve + max(realm - keep, int(realm * self.bid_share))
        return ctx.validate(ConsolidationDecision(tuple(buys.items()), tuple(upgrades), None, bid))

    def _buy_units(self, view: dict, board: Board, mine: list[str], realm: int,
                   spread: bool) -> tuple[dict[str, int], int]:
        """Units bought with ``realm`` (rules: 003 Consolidation, Buying step: 75 $Realm each, at most 3
        in a Province), the most threatened Provinces first; ``spread``: after each unit, the least
        stocked of the equally threatened next. Returns the buys and the $Realm left."""
        room = {p: SUPPLY_LIMIT - view["provinces"][p]["units"] for p in mine}
        buys: dict[str, int] = {}
        order = sorted(mine, key=lambda q: (-self._threat(view, board, q), view["provinces"][q]["units"]))
        while realm >= UNIT_COST:
            spot = next((p for p in order if room[p] > 0), None)
            if spot is None:
                break
            buys[spot] = buys.get(spot, 0) + 1
            room[spot] -= 1
            realm -= UNIT_COST
            if spread:
                order.sort(key=lambda q: (room[q] <= 0, -self._threat(view, board, q), SUPPLY_LIMIT - room[q]))
        return buys, realm

    def _golden_worked(self, ctx: SeatContext, p: str) -> bool:
        try:
            ctx.validate(ConsolidationDecision((), (p,), None, 0))
        except Exception:  # the engine says no: not upgradable now
            return False
        return True
