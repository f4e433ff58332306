"""002 Attitude table: the reconstructed chart, the 2d6 roll and each modifier."""

from __future__ import annotations

import pytest

from engine.trace import Trace
from npr_controller.newworld.attitude import (
    ATTITUDE_CHART,
    Attitude,
    ShipRule,
    attitude_for,
    chart_row,
    modifiers,
    roll_attitude,
)
from npr_controller.newworld.plan import plan_nation
from tests.newworld.helpers import GRID, ScriptedDice, hold, world


def _mods(w, nation, turn):
    return {m.name: m.value for m in modifiers(w, nation, turn)}


class TestChart:
    @pytest.mark.parametrize(
        ("total", "attitude"),
        [(-4, Attitude.STATUS_QUO), (4, Attitude.STATUS_QUO), (5, Attitude.EXPANSION),
         (7, Attitude.EXPANSION),
         (8, Attitude.EXPLORATION), (9, Attitude.PIRACY), (10, Attitude.OPPORTUNITY),
         (11, Attitude.BALANCING), (16, Attitude.BALANCING)],
    )
    def test_dice_roll_column(self, total, attitude):
        """ "4 or less Status Quo ... 5-7 Expansion ... 8 ... 9 ... 10 ... 11 or more Balancing" """
        assert attitude_for(total) is attitude

    def test_every_total_has_exactly_one_line(self):
        for total in range(-10, 20):
            assert sum(row.covers(total) for row in ATTITUDE_CHART) == 1

    @pytest.mark.parametrize(
        ("attitude", "colonists", "soldiers", "ships", "count"),
        [
            # "take four colonists ... maintain its current fleet size ... purchase 2 soldiers"
            (Attitude.STATUS_QUO, 4, 2, ShipRule.MAINTAIN, 0),
            # "take four colonists, purchase four soldiers, and maintain/build just enough ships"
            (Attitude.EXPANSION, 4, 4, ShipRule.ENOUGH, 0),
            # "take four colonists, purchase six soldiers and maintain/build five ships"
            (Attitude.EXPLORATION, 4, 6, ShipRule.FLEET, 5),
            # "maintain its current fleet, build three ships ... Colonists, determined by die roll"
            (Attitude.PIRACY, None, 0, ShipRule.MORE, 3),
            # "purchase eight soldiers ... enough ships ... colonists ... die roll (rule 5.1)"
            (Attitude.OPPORTUNITY, None, 8, ShipRule.ENOUGH, 0),
            # "dice for its colonists and then ... the maximum amount of ships and soldiers"
            (Attitude.BALANCING, None, None, ShipRule.ENOUGH, 0),
        ],
    )
    def test_reconstructed_columns_follow_the_paragraphs(self, attitude, colonists, soldiers, ships, count):
        row = chart_row(attitude)
        assert (row.colonists, row.soldiers, row.ships, row.ship_count) == (colonists, soldiers, ships, count)


class TestModifiers:
    @pytest.mark.parametrize(("turn", "value"), [(1, 0), (2, -3), (3, -2), (4, -1), (5, 0), (9, 0)])
    def test_turn(self, turn, value):
        """ "-3 on Turn 2, -2 on Turn 3, -1 on Turn 4" """
        w = world({"Spain": {"holdings": hold("H")}})
        assert _mods(w, "Spain", turn)["turn"] == value

    def test_forces_without_political_control(self):
        """ "-2 if the non-player nation has forces in the new world but no areas under political control" """
        w = world({"Spain": {"holdings": hold("H", "J")}}, natives={"H": 1, "J": 1})
        mods = _mods(w, "Spain", 5)
        assert mods["forces without political control"] == -2
        assert mods["political control over all it occupies"] == 0

    def test_political_control_over_all_it_occupies(self):
        """+1 if the non-player nation has established political control over all the territory it
        occupies."""
        w = world({"Spain": {"holdings": hold("H", "J")}})
        mods = _mods(w, "Spain", 5)
        assert mods["political control over all it occupies"] == 1
        assert mods["forces without political control"] == 0

    def test_partial_control_gives_neither(self):
        w = world({"Spain": {"holdings": hold("H", "J")}}, natives={"J": 2})
        mods = _mods(w, "Spain", 5)
        assert mods["political control over all it occupies"] == 0
        assert mods["forces without political control"] == 0

    def test_every_area_occupied(self):
        """ "+1 if all areas on the board are occupied by European nations" """
        rows = list(GRID)
        full = world({"Spain": {"holdings": hold(*rows[0], *rows[1])},
                      "Dutch": {"holdings": hold(*rows[2], *rows[3])}})
        assert _mods(full, "Spain", 5)["every Area occupied"] == 1
        gap = world({"Spain": {"holdings": hold(*rows[0], *rows[1])},
                     "Dutch": {"holdings": hold(*rows[2], *rows[3][:3])}})
        assert _mods(gap, "Spain", 5)["every Area occupied"] == 0

    def test_spain_dutch_hegemon_example(self):
        """Example: Spain is the hemispheric hegemon with four areas under political control. The
        Dutch are next with three PC areas. Three is subtracted from four and the difference (+1) is
        added to the die roll for each non-player nation."""
        w = world({
            "Spain": {"holdings": hold("H", "J", "N", "O")},
            "Dutch": {"holdings": hold("X", "Y", "E")},
            "French": {"holdings": hold("K")},
            "English": {"player": True, "holdings": hold("D")},
        })
        for nation in ("Spain", "Dutch", "French"):
            assert _mods(w, nation, 5)["hegemon's lead over the next power"] == 1

    def test_lead_counts_per_area(self):
        w = world({"Spain": {"holdings": hold("H", "J", "N", "O")}, "Dutch": {"holdings": hold("X")}})
        assert _mods(w, "Dutch", 5)["hegemon's lead over the next power"] == 3

    def test_tie_for_hegemon_adds_nothing(self):
        w = world({"Spain": {"holdings": hold("H", "J")}, "Dutch": {"holdings": hold("X", "Y")}})
        assert _mods(w, "Spain", 5)["hegemon's lead over the next power"] == 0


class TestRoll:
    def test_roll_adds_every_modifier(self):
        w = world({"Spain": {"holdings": hold("H", "J", "N", "O")},
                   "Dutch": {"holdings": hold("X", "Y", "E")}})
        dice = ScriptedDice([3, 4])
        trace = Trace()
        r = roll_attitude(w, "Spain", 3, dice, trace)
        # 7 natural, -2 turn 3, +1 all PC, +1 hegemon lead = 7 -> Expansion
        assert (r.natural, r.total, r.attitude) == (7, 7, Attitude.EXPANSION)
        assert [m.value for m in r.modifiers if m.applies] == [-2, 1, 1]
        modifier_steps = [s for s in trace if s.rule == "002 Attitude table modifiers"]
        assert len(modifier_steps) == len(r.modifiers) == 5

    def test_no_holdings_is_automatic_exploration_without_a_roll(self):
        """A nation with no holdings in the New World will automatically assume an attitude of
        Exploration."""
        w = world({"Spain": {"treasury": 0}, "Dutch": {"holdings": hold("H")}})
        r = roll_attitude(w, "Spain", 6, ScriptedDice(), Trace())
        assert r.automatic and r.attitude is Attitude.EXPLORATION and r.dice == ()

    @pytest.mark.parametrize(
        ("faces", "attitude"),
        [((1, 1), Attitude.STATUS_QUO), ((3, 3), Attitude.EXPANSION), ((4, 4), Attitude.EXPLORATION),
         ((4, 5), Attitude.PIRACY), ((5, 5), Attitude.OPPORTUNITY), ((6, 6), Attitude.BALANCING)],
    )
    def test_each_attitude_is_planned_when_rolled(self, faces, attitude):
        """Every attitude is reachable and, when it fits, kept (no modifiers apply at turn 5 here)."""
        w = world({
            "Spain": {"treasury": 200, "ships": 2, "holdings": hold("H", "U")},
            "Dutch": {"gold_produced": 3, "holdings": hold("J", "C")},
            "English": {"gold_produced": 1, "holdings": hold("E", "Y")},
        }, natives={"U": 1, "C": 1, "Y": 1})
        # Spain PC H; Dutch PC J; English PC E: no lead, partial PC for everyone -> no modifiers
        assert sum(m.value for m in modifiers(w, "Spain", 5)) == 0
        dice = ScriptedDice([*faces, 3, 3], choices=[0, 0, 0])
        plan = plan_nation(w, "Spain", dice=dice)
        assert plan.attitude is attitude and plan.fallbacks == ()
