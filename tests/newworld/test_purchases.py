"""002 Attitude Parameters (purchases), rule 5.1 colonists and the insufficient-funds rule."""

from __future__ import annotations

import pytest

from engine.trace import Trace
from npr_controller.newworld.attitude import Attitude, chart_row
from npr_controller.newworld.purchases import plan_purchase
from tests.newworld.helpers import ScriptedDice, hold, world


def buy(attitude, *, treasury, ships=0, faces=(), **extra):
    w = world({"Spain": {"treasury": treasury, "ships": ships, "holdings": hold("H")},
               "Dutch": {"holdings": hold("K")}}, **extra)
    dice = ScriptedDice(faces)
    p = plan_purchase(chart_row(attitude), w, "Spain", dice, Trace())
    assert dice.exhausted
    return p


def summary(p):
    return p.ships_built, p.soldiers, p.colonists, p.cost


class TestInsufficientFunds:
    def test_the_80_dollar_expansion_example(self):
        """For example, a nation with no New World assets and $80 receives an attitude of Expansion.
        It will purchase four ships and three soldiers for a total of $78. This will allow it to
        transport its four colonists and three soldiers to the new world."""
        w = world({"Spain": {"treasury": 80}, "Dutch": {"holdings": hold("K")}})
        p = plan_purchase(chart_row(Attitude.EXPANSION), w, "Spain", ScriptedDice(), Trace())
        assert summary(p) == (4, 3, 4, 78)
        assert p.short_of_funds and p.colonists + p.soldiers <= p.capacity == 8

    def test_colonists_get_their_ships_before_any_soldier(self):
        # $30: two ships for the four colonists ($24); $6 left buys no soldier
        assert summary(buy(Attitude.EXPANSION, treasury=30)) == (2, 0, 4, 24)

    def test_no_one_stays_in_the_old_world(self):
        """No one stays in the old world: colonists without a ship are not taken."""
        p = buy(Attitude.EXPANSION, treasury=12)
        assert summary(p) == (1, 0, 2, 12) and p.colonists_wanted == 4
        assert summary(buy(Attitude.EXPANSION, treasury=0)) == (0, 0, 0, 0)

    def test_an_existing_fleet_carries_first(self):
        # 2 ships carry the 4 colonists; $35 buys 2 soldiers and the ship they need ($32)
        assert summary(buy(Attitude.EXPANSION, treasury=35, ships=2)) == (1, 2, 4, 32)

    def test_exploration_short_of_funds_builds_only_what_it_can_fill(self):
        assert summary(buy(Attitude.EXPLORATION, treasury=80)) == (4, 3, 4, 78)

    def test_other_prices(self):
        # ship $20, soldier $5: the full Expansion force costs 4*20 + 4*5 = $100 > $90;
        # the colonists' 2 ships cost $40; of the $50 left, 2 soldiers + 1 ship = $30, while
        # 3 soldiers + 2 ships = $55 is too much
        p = buy(Attitude.EXPANSION, treasury=90, prices={"ship": 20, "soldier": 5})
        assert summary(p) == (3, 2, 4, 70)


class TestFullFunds:
    def test_expansion_builds_just_enough_ships(self):
        """take four colonists, purchase four soldiers, and maintain/build just enough ships"""
        assert summary(buy(Attitude.EXPANSION, treasury=200)) == (4, 4, 4, 88)
        assert summary(buy(Attitude.EXPANSION, treasury=200, ships=3)) == (1, 4, 4, 52)
        assert summary(buy(Attitude.EXPANSION, treasury=200, ships=9)) == (0, 4, 4, 40)

    def test_exploration_fleet_of_five(self):
        """take four colonists, purchase six soldiers and maintain/build five ships"""
        assert summary(buy(Attitude.EXPLORATION, treasury=200)) == (5, 6, 4, 120)
        assert summary(buy(Attitude.EXPLORATION, treasury=200, ships=7)) == (0, 6, 4, 60)

    def test_exploration_with_a_larger_capacity_still_keeps_five_ships(self):
        p = buy(Attitude.EXPLORATION, treasury=200, options={"ship_capacity": 3})
        assert summary(p) == (5, 6, 4, 120)

    def test_status_quo_keeps_the_fleet(self):
        """take four colonists, maintain its current fleet size (no builds or burns), and purchase 2
        soldiers if there are sufficient transport capacity and funds"""
        assert summary(buy(Attitude.STATUS_QUO, treasury=100, ships=3)) == (0, 2, 4, 20)
        assert summary(buy(Attitude.STATUS_QUO, treasury=100, ships=2)) == (0, 0, 4, 0)
        assert summary(buy(Attitude.STATUS_QUO, treasury=100, ships=0)) == (0, 0, 0, 0)
        p = buy(Attitude.STATUS_QUO, treasury=15, ships=4)
        assert summary(p) == (0, 1, 4, 10) and p.short_of_funds

    def test_piracy_builds_three_more(self):
        """maintain its current fleet, build three ships ... Colonists, determined by die roll as per
        rule 5.1, may be transported"""
        p = buy(Attitude.PIRACY, treasury=100, ships=1, faces=[5])
        assert summary(p) == (3, 0, 5, 36) and p.fleet_after == 4
        p = buy(Attitude.PIRACY, treasury=25, ships=0, faces=[6])
        assert summary(p) == (2, 0, 4, 24) and p.short_of_funds

    def test_opportunity_eight_soldiers_and_enough_ships(self):
        p = buy(Attitude.OPPORTUNITY, treasury=300, ships=1, faces=[6])
        assert summary(p) == (6, 8, 6, 152)

    def test_balancing_buys_the_most_soldiers_it_can_carry(self):
        """maintain/build the maximum amount of ships and soldiers that its treasury ... will allow"""
        # colonists 4 need 2 ships ($24); $76 left: 4 soldiers + 2 ships = $64, a 5th needs $22 more
        p = buy(Attitude.BALANCING, treasury=100, faces=[4])
        assert summary(p) == (4, 4, 4, 88)

    def test_balancing_respects_a_soldier_limit(self):
        p = buy(Attitude.BALANCING, treasury=1000, faces=[3], options={"soldier_limit": 5})
        assert summary(p) == (4, 5, 3, 98)


class TestRule51:
    @pytest.mark.parametrize(("face", "colonists"), [(1, 3), (2, 3), (3, 3), (4, 4), (5, 5), (6, 6)])
    def test_colonists_are_1d6_with_a_minimum_of_three(self, face, colonists):
        p = buy(Attitude.OPPORTUNITY, treasury=500, faces=[face])
        assert (p.colonists_roll, p.colonists) == (face, colonists)

    def test_fixed_four_for_the_first_three_attitudes(self):
        for att in (Attitude.STATUS_QUO, Attitude.EXPANSION, Attitude.EXPLORATION):
            p = buy(att, treasury=500, ships=5)
            assert (p.colonists_roll, p.colonists_wanted) == (None, 4)


def test_a_huge_treasury_is_planned_at_once():
    p = buy(Attitude.BALANCING, treasury=10**12, faces=[6], prices={"ship": 1, "soldier": 1})
    # 6 colonists + s soldiers on ceil((6 + s) / 2) ships: s + ceil((6 + s) / 2) <= 10**12
    assert p.cost <= 10**12 < p.cost + 2 and p.colonists + p.soldiers <= p.capacity


def test_status_quo_says_why_it_sails_fewer_colonists_and_no_soldiers():
    """hA defect 9: Status Quo "takes 4 colonists" but sailed 2 without saying why."""
    from npr_controller.newworld import plan_nation
    from tests.newworld.helpers import ScriptedDice, hold, world

    w = world({"Portugal": {"treasury": 90, "ships": 1, "holdings": hold("H")}})
    plan = plan_nation(w, "Portugal", dice=ScriptedDice(faces=[1, 1]))
    assert str(plan.attitude) == "Status Quo"
    assert (plan.purchase.colonists, plan.purchase.soldiers) == (2, 0)
    text = plan.to_text()
    assert "2 colonist(s) (of 4: no room for more on the ships)" in text
    assert 'buys 0 of its 2 soldiers "if there are sufficient transport capacity and funds": room for 0' in text


@pytest.mark.parametrize(
    ("attitude", "ships", "full", "full_buy", "short_buy"),
    [
        # 4 ships + 4 soldiers = $88; a dollar less: ships for the colonists first, then 3 soldiers ($78)
        (Attitude.EXPANSION, 0, 88, (4, 4, 4, 88), (4, 3, 4, 78)),
        # a fleet of five + 6 soldiers = $120; $119: the colonists' ships, then 5 soldiers and their ships
        (Attitude.EXPLORATION, 0, 120, (5, 6, 4, 120), (5, 5, 4, 110)),
        # 2 soldiers on a kept fleet of 3 = $20; $19 buys one
        (Attitude.STATUS_QUO, 3, 20, (0, 2, 4, 20), (0, 1, 4, 10)),
    ],
)
def test_exactly_enough_and_a_dollar_short(attitude, ships, full, full_buy, short_buy):
    """002 Guidelines: "When sufficient funds are not available to complete a purchase, a nation will
    build forces evenly in such a manner that there will be enough to transport all of the colonists,
    and then build and carry the soldiers with the remaining money." The whole force at exactly its
    price; a dollar less and the insufficient-funds order applies."""
    p = buy(attitude, treasury=full, ships=ships)
    assert summary(p) == full_buy and not p.short_of_funds
    p = buy(attitude, treasury=full - 1, ships=ships)
    assert summary(p) == short_buy and p.short_of_funds
