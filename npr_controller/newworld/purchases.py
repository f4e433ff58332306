"""Purchases per attitude and the insufficient-funds rule (rules file 002).

Colonists are free (either 4, or 1d6 with a minimum of 3 per rule 5.1); soldiers and ships cost the
world's prices. Every unit bought or taken sails this turn, so nothing is bought that the fleet
cannot carry: "no one stays in the old world".
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.newworld import World
from engine.trace import Dice, Trace
from npr_controller.newworld.attitude import ChartRow, ShipRule

# rules: 002 rule 5.1 (rules-gaps "New World": colonists are 1d6 with a minimum of 3)
COLONIST_DIE = 6
COLONIST_MINIMUM = 3


@dataclass(frozen=True, slots=True)
class Purchase:
    """What a nation takes and buys this turn, and what it costs."""

    colonists: int
    colonists_wanted: int
    colonists_roll: int | None  # the rule 5.1 die, when rolled
    soldiers: int
    soldiers_wanted: int | None  # None = the maximum the treasury allows
    ships_built: int
    fleet_before: int
    ship_price: int
    soldier_price: int
    ship_capacity: int
    treasury: int
    short_of_funds: bool

    @property
    def fleet_after(self) -> int:
        return self.fleet_before + self.ships_built

    @property
    def capacity(self) -> int:
        return self.fleet_after * self.ship_capacity

    @property
    def cost(self) -> int:
        return self.ships_built * self.ship_price + self.soldiers * self.soldier_price

    def to_dict(self) -> dict:
        return {
            "colonists": self.colonists,
            "colonists_wanted": self.colonists_wanted,
            "colonists_roll": self.colonists_roll,
            "soldiers": self.soldiers,
            "soldiers_wanted": self.soldiers_wanted,
            "ships_built": self.ships_built,
            "fleet_before": self.fleet_before,
            "fleet_after": self.fleet_after,
            "capacity": self.capacity,
            "cost": {
                "ships": self.ships_built * self.ship_price,
                "soldiers": self.soldiers * self.soldier_price,
                "total": self.cost,
            },
            "prices": {"ship": self.ship_price, "soldier": self.soldier_price},
            "treasury_before": self.treasury,
            "treasury_after": self.treasury - self.cost,
            "short_of_funds": self.short_of_funds,
        }


def _ships_for(units: int, capacity: int, fleet: int) -> int:
    """New ships needed (beyond ``fleet``) to carry ``units``; a fleet is never burnt."""
    return max(0, -(-units // capacity) - fleet)


def _most_soldiers(colonists: int, limit: int | None, fleet: int, money: int, w: World) -> int:
    """The most soldiers (<= limit) whose price plus the extra ships they need fits in ``money``.

    ``fleet`` already carries the colonists' ships. The cost never falls as soldiers are added, so a
    binary search finds the answer quickly even for a very large treasury.
    """
    o = w.options

    def cost(s: int) -> int:
        return s * o.soldier_price + _ships_for(colonists + s, o.ship_capacity, fleet) * o.ship_price

    lo, hi = 0, money // o.soldier_price if limit is None else limit
    if cost(0) > money:
        return 0
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if cost(mid) <= money:
            lo = mid
        else:
            hi = mid - 1
    return lo


def plan_purchase(row: ChartRow, world: World, nation: str, dice: Dice, trace: Trace) -> Purchase:
    """rules: 002 Attitude Parameters + Guidelines (insufficient funds): the nation's purchases."""
    n = world.nations[nation]
    o = world.options
    fleet, money, cap = n.ships, n.treasury, o.ship_capacity
    att = row.attitude
    roll = None
    if row.colonists is None:
        # rules: 002 rule 5.1
        roll = dice.roll(1, COLONIST_DIE, f"{nation} colonists (rule 5.1)").faces[0]
        wanted_c = max(COLONIST_MINIMUM, roll)
        trace.add(
            "002 rule 5.1", f"{att}: colonists by die roll: {roll}, minimum {COLONIST_MINIMUM} -> {wanted_c}"
        )
    else:
        wanted_c = row.colonists
        trace.add(f"002 {att}", f"{att}: the nation takes {wanted_c} colonists (free), as many as its ships carry")
    wanted_s = row.soldiers if row.soldiers is not None else o.soldier_limit

    if row.ships is ShipRule.MAINTAIN:
        # rules: 002 Status Quo "maintain its current fleet size ... 2 soldiers if ... capacity and funds"
        colonists = min(wanted_c, fleet * cap)
        room = min(wanted_s or 0, fleet * cap - colonists)
        soldiers = min(room, money // o.soldier_price)
        short = soldiers < room
        build = 0
        trace.add(
            "002 Status Quo", f"fleet of {fleet} kept (no builds or burns), carries {fleet * cap} units"
        )
        if soldiers < (wanted_s or 0):
            why = (f"room for {room} after the colonists" if room < (wanted_s or 0)
                   else f"${money} buys {soldiers}")
            trace.add("002 Status Quo", f"buys {soldiers} of its {wanted_s} soldiers \"if there are sufficient "
                                        f"transport capacity and funds\": {why}")
    elif row.ships is ShipRule.MORE:
        # rules: 002 Piracy "maintain its current fleet, build three ships ... Colonists ... may be"
        build = min(row.ship_count, money // o.ship_price)
        short = build < row.ship_count
        colonists = min(wanted_c, (fleet + build) * cap)
        soldiers = 0
        trace.add("002 Piracy", f"fleet of {fleet} kept, {build} ship(s) built of {row.ship_count}")
    else:
        colonists, soldiers, build, short = _transported_force(row, world, nation, wanted_c, wanted_s, trace)
    p = Purchase(
        colonists=colonists,
        colonists_wanted=wanted_c,
        colonists_roll=roll,
        soldiers=soldiers,
        soldiers_wanted=wanted_s,
        ships_built=build,
        fleet_before=fleet,
        ship_price=o.ship_price,
        soldier_price=o.soldier_price,
        ship_capacity=cap,
        treasury=money,
        short_of_funds=short,
    )
    if colonists < wanted_c:
        # rules: 002 Guidelines "No one stays in the old world"
        trace.add(
            "002 Guidelines",
            f"only {colonists} of {wanted_c} colonists can be carried; "
            "no one stays in the old world, so the rest are not taken",
        )
    trace.add(
        f"002 {att}",
        f"buys {build} ship(s) at ${o.ship_price} and {soldiers} soldier(s) at "
        f"${o.soldier_price} = ${p.cost} of ${money}; sails {colonists} colonist(s) and {soldiers} "
        f"soldier(s) on {p.fleet_after} ship(s) (room for {p.capacity})",
    )
    return p


def _transported_force(
    row: ChartRow, world: World, nation: str, wanted_c: int, wanted_s: int | None, trace: Trace
) -> tuple[int, int, int, bool]:
    """Attitudes that build ships for their force: Expansion, Exploration, Opportunity, Balancing."""
    n = world.nations[nation]
    o = world.options
    fleet, money, cap = n.ships, n.treasury, o.ship_capacity
    if wanted_s is None:
        # rules: 002 Balancing "the maximum amount of ... soldiers that its treasury ... will allow"
        colonists, build = _carry_colonists(wanted_c, fleet, money, world)
        soldiers = _most_soldiers(colonists, None, fleet + build, money - build * o.ship_price, world)
        build += _ships_for(colonists + soldiers, cap, fleet + build)
        trace.add(
            "002 Balancing",
            f"the treasury of ${money} buys at most {soldiers} soldier(s) with "
            "enough ships to carry them and the colonists",
        )
        return colonists, soldiers, build, False
    build = _ships_for(wanted_c + wanted_s, cap, fleet)
    if row.ships is ShipRule.FLEET:
        # rules: 002 Exploration "maintain/build five ships" (and never fewer than the force needs)
        build = max(build, row.ship_count - fleet, 0)
    if build * o.ship_price + wanted_s * o.soldier_price <= money:
        return wanted_c, wanted_s, build, False
    # rules: 002 Guidelines (insufficient funds): ships for every colonist, then soldiers with the rest
    colonists, build = _carry_colonists(wanted_c, fleet, money, world)
    left = money - build * o.ship_price
    soldiers = _most_soldiers(colonists, wanted_s, fleet + build, left, world)
    build += _ships_for(colonists + soldiers, cap, fleet + build)
    trace.add(
        "002 Guidelines",
        f"${money} cannot buy the full {row.attitude} force "
        f"({wanted_s} soldiers): ships enough for the {colonists} colonist(s) first, then "
        f"{soldiers} soldier(s) and their ships with the remaining ${left}",
    )
    return colonists, soldiers, build, True


def _carry_colonists(wanted: int, fleet: int, money: int, world: World) -> tuple[int, int]:
    """(colonists carried, ships built for them): as many as the fleet plus affordable ships hold."""
    o = world.options
    build = min(_ships_for(wanted, o.ship_capacity, fleet), money // o.ship_price)
    return min(wanted, (fleet + build) * o.ship_capacity), build
