"""``steward``: a seat filler that plays for the table, not for itself.

A vacant seat changes the game for everyone still in it. The rulebook's inactive default (caretaker)
hands the Dragon most games; a strong policy takes the humans' wins. The steward keeps the table
alive and out of the way:

- it never conquers another seat: it marches only to retake a Province it owned (its start, or one
  it held earlier in this game), never from a team-mate, and never walks into a Province another seat owns;
- it defends: Fortify! where a neighbour's stack threatens, Work, work! where safe;
- against the Dragon it always meets its min.US when it has the units (so the Wrath burns nothing of
  its own and cannot eliminate it: rules: 003 The Dragon's Wrath!, Fire and blood!), and commits
  everything it has when the Protectors can win the fight with it (rules: 003 Dragon Attack, outcomes
  table: a won fight costs only min.US units, so the rest is free to add);
- it buys units (each is Protector US at the next attack) and bids only what it would otherwise hoard
  (rules: 003 Hoarding $Realm: hoarded $Realm grows the DPL), so it never outbids the humans for rank.

Each decision keeps its reasons in ``last_reasons`` (``agents.base.reasons_of``), in words a GM can
post. Measured in docs/table-health.md (``regent eval table``).
"""

from __future__ import annotations

from agents.heuristic import HeuristicAgent, _mates, board_of
from engine.protectors.decisions import BidDecision, ConsolidationDecision, DragonDecision, OrdersDecision
from engine.protectors.orders import Commit, Fortify, March, Work
from engine.protectors.seat import SeatContext
from engine.protectors.state import BID
from engine.protectors.tables import HOARD_BANDS, UPGRADE_COST

# The steward commits everything to a Dragon fight unless the DPL beats its own units plus this many
# times the other seats' units (a fight nobody can win: then it keeps its units and meets min.US).
# Measured on regent eval table seeds 0-299 (ring-5 and ring-7 among heuristics): 0.6, 1.0 and 3.0 gave
# the table 57.7/62.7/65.0% wins in ring-5 and 42.9/45.2/48.6% in ring-7 (docs/table-health.md).
OTHERS_COMMIT = 3.0
FIRST_BID = 5  # turn 1: a token bid (the humans fight for the top brackets, not the steward)


class StewardAgent(HeuristicAgent):
    name = "steward"

    def __init__(self, seed: int | None = None, others_commit: float = OTHERS_COMMIT, first_bid: int = FIRST_BID,
                 work: bool = True, bid_share: float = 0.0):
        """``others_commit``: see OTHERS_COMMIT; ``work``: Work,
        work! where safe (else Fortify! everywhere); ``bid_share``: of the $Realm left after buying,
        the share bid for rank (0: only what would be hoarded)."""
        super().__init__(seed, others_factor=others_commit, first_bid=first_bid, gp_hides=False, bid_share=bid_share)
        self.work = work
        self.owned: set[str] = set()
        self.last_reasons: tuple[str, ...] = ()

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.owned = set()
        self.last_reasons = ()

    def act(self, ctx: SeatContext):
        view = ctx.view
        me = ctx.seat
        self.owned |= {p for p, pr in view["provinces"].items() if pr["owner"] == me}
        self.owned.add(ctx.state.players[me].start)
        self.last_reasons = ()
        return super().act(ctx)

    # -- bids ----------------------------------------------------------------------------------
    def _bid(self, ctx: SeatContext) -> BidDecision:
        bid = min(ctx.realm, self.first_bid) if ctx.step == BID else 0
        self.last_reasons = (f"bids {bid}: a steward leaves the top of the ranking to the players",)
        return BidDecision(bid)

    # -- orders --------------------------------------------------------------------------------
    def _orders(self, ctx: SeatContext) -> OrdersDecision:
        view, me = ctx.view, ctx.seat
        board = board_of(view)
        limits = dict(ctx.golden_limits())
        mine = ctx.orderable()
        legal = {p: ctx.legal_orders(p) for p in mine}
        orders: dict[str, object] = {}
        reasons: list[str] = []
        mates = _mates(ctx)  # never a target, not even to retake (agents/teams.py; rules: 003 Team Games)
        # retake a Province of our own that another seat holds, when our stack beats its defence
        for p in sorted(mine, key=lambda q: -view["provinces"][q]["units"]):
            units = view["provinces"][p]["units"]
            for m in legal[p]:
                if not isinstance(m, March) or m.delayed or m.dst not in self.owned or m.count != units:
                    continue
                holder = self._holder(view, m.dst)
                if holder in (None, me) or holder in mates or (m.golden and limits["march"] <= 0):
                    continue
                if units + (1 if m.golden else 0) >= self._defence(view, board, m.dst) + self.margin:
                    orders[p] = m
                    limits["march"] -= 1 if m.golden else 0
                    reasons.append(f"{p}: marches to retake {m.dst}, which it held before")
                    break
        for p in mine:
            if p in orders or p == view.get("island"):
                continue
            kinds = {type(o).__name__ for o in legal[p]}
            threat = self._threat(view, board, p)
            if threat and "Fortify" in kinds:
                golden = limits["fortify"] > 0
                limits["fortify"] -= 1 if golden else 0
                orders[p] = Fortify(p, golden)
                reasons.append(f"{p}: fortifies against a neighbour's stack of {threat - 1}")
            elif "Work" in kinds and self.work:
                golden = limits["work"] > 0 and view["provinces"][p]["level"] < 3 and ctx.realm >= UPGRADE_COST
                limits["work"] -= 1 if golden else 0
                orders[p] = Work(p, golden)
                reasons.append(f"{p}: works (no threat next to it)")
            elif "Fortify" in kinds:
                orders[p] = Fortify(p, False)
                reasons.append(f"{p}: fortifies")
        self.last_reasons = tuple(reasons) or ("no Province to order",)
        return ctx.validate(OrdersDecision(tuple(orders.values())))

    # -- Dragon --------------------------------------------------------------------------------
    def _dragon(self, ctx: SeatContext) -> DragonDecision:
        view, me = ctx.view, ctx.seat
        att, provs, green, min_us = self._fight(view, me)
        total = sum(view["provinces"][p]["units"] for p in provs)
        others = sum(pl["units"] for s, pl in view["players"].items() if s != me and not pl["eliminated"])
        if total + self.others_factor * others > att["dpl"]:
            self.last_reasons = (f"commits all {total} units against DPL {att['dpl']}: a won fight costs only "
                                 f"min.US units, and every unit can turn it",)
            return ctx.validate(DragonDecision(tuple(Commit(p, view["provinces"][p]["units"]) for p in provs)))
        decision = self._meet_min_us(view, provs, green, min_us)
        grand = (view.get("ranking") or [None])[0] == me
        self.last_reasons = (self._min_us_reason(decision, min_us, total, att["dpl"], grand),)
        return ctx.validate(decision)

    @staticmethod
    def _min_us_reason(decision: DragonDecision, min_us: int, total: int, dpl: int, grand: bool) -> str:
        """Why the steward commits only its min.US, saying what it does: meets it, or falls short and names
        the Provinces the Dragon's Wrath burns should the Dragon win (rules: 003 The Dragon's Wrath!; the
        Grand Protector faces no Wrath but loses all its $Realm)."""
        committed = sum(c.count for c in decision.commits)
        hopeless = f"DPL {dpl} is beyond every unit on the board"
        if committed >= min_us:
            return (f"meets its min.US of {min_us} with {committed} of its {total} units, so the Wrath spares its "
                    f"Provinces ({hopeless})")
        what = (f"commits all its {committed} units, {min_us - committed} short of its min.US of {min_us}" if committed
                else f"has no units to commit against its min.US of {min_us}")
        if grand:
            return (f"{what} ({hopeless}); should the Dragon win, as Grand Protector it faces no Wrath but loses "
                    f"all its $Realm")
        burns = ", ".join(decision.burns)
        return (f"{what} ({hopeless}); should the Dragon win, the Wrath burns "
                + (f"{burns}, its least valuable green Province{'s' if len(decision.burns) > 1 else ''}"
                   if burns else "one green Province per US short"))

    # -- consolidation -------------------------------------------------------------------------
    def _consolidation(self, ctx: SeatContext) -> ConsolidationDecision:
        view, me = ctx.view, ctx.seat
        board = board_of(view)
        realm = ctx.realm
        upgrades = [p for p, pr in view["provinces"].items()
                    if pr["owner"] == me and pr["level"] < 2 and self._golden_worked(ctx, p)][:realm // UPGRADE_COST]
        realm -= UPGRADE_COST * len(upgrades)
        isl = view.get("island")
        mine = [p for p, pr in view["provinces"].items() if pr["owner"] == me and p != isl
                and pr["holder"] in (me, None)]
        buys, realm = self._buy_units(view, board, mine, realm, spread=False)
        income = 50 * max(1, len(mine))
        hoard = max(0, realm - max(0, HOARD_BANDS[0] - income - 1))  # what would be hoarded
        bid = max(hoard, int(realm * self.bid_share))
        bought = sum(buys.values())
        self.last_reasons = ((f"upgrades {', '.join(upgrades)} (more income, more units)",) if upgrades else ()) + (
            f"buys {bought} unit{'s' if bought != 1 else ''} for the next Dragon fight"
            + f", bids {bid}",)
        return ctx.validate(ConsolidationDecision(tuple(buys.items()), tuple(upgrades), None, bid))
