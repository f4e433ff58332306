"""The rulebook's order-interaction examples (rules: 003 "Example of some order interactions",
Examples 1-7), each written so that it fails if the rule it shows were implemented wrong."""

from __future__ import annotations

from engine.protectors.state import CONSOLIDATION
from tests.protectors.helpers import play_orders, position, units

PURPLE, BLACK, WHITE = "Player#1", "Player#2", "Player#3"
# Examples 4-7 need Black and White both in bracket 1 (Golden March!): 5 active players, where the
# 1st bracket holds 2 (rules: 003 brackets table). The others sit far away on a ring-10 board.
FAR = {"P1": (PURPLE, 1), "P2": ("Player#4", 1), "P3": ("Player#5", 1)}
REST = [PURPLE, "Player#4", "Player#5"]


def battles(events):
    return [e for e in events if e.kind == "battle"]


class TestExample1:
    """Purple fortifies P2 and marches 1 unit in from P1: Defender US 4 beats Black's 3."""

    board = "ring-4"

    def game(self):
        return position(self.board, 2, {"P1": (PURPLE, 1), "P2": (PURPLE, 2), "P3": (BLACK, 3), "P4": (BLACK, 1)},
                        ranking=[BLACK, PURPLE])

    def test_fortify_plus_march_in_holds(self):
        g = self.game()
        ev = play_orders(g, {PURPLE: "Fortify! P2\nMarch! 1 from P1 to P2", BLACK: "March! 3 from P3 to P2"})
        (b,) = battles(ev)
        assert b.data["us"] == {PURPLE: 4, BLACK: 3}
        assert units(g, "P2") == (PURPLE, 3)
        assert g.state.provinces["P2"].owner == PURPLE

    def test_fortify_alone_loses_the_tie_to_the_higher_ranked(self):
        g = self.game()
        ev = play_orders(g, {PURPLE: "Fortify! P2", BLACK: "March! 3 from P3 to P2"})
        (b,) = battles(ev)
        assert b.data["us"] == {PURPLE: 3, BLACK: 3} and b.data["tie"] and b.data["winner"] == BLACK
        assert units(g, "P2") == (BLACK, 2)  # the tie winner loses 1 unit
        assert g.state.provinces["P2"].owner == BLACK  # seized in the Eliminate Players step


class TestExample2:
    """All March! orders are simultaneous: only the 3 units in P2 march on to P3; 2 arrive from P1."""

    def test_only_units_present_march(self):
        board = "ring-4"
        g = position(board, 2, {"P1": (PURPLE, 2), "P2": (PURPLE, 3), "P3": (BLACK, 1), "P4": (BLACK, 1)})
        ev = play_orders(g, {PURPLE: "March! 2 from P1 to P2\nMarch! 5 from P2 to P3"})
        assert any(e.kind == "march_trimmed" and e.data["count"] == 3 for e in ev)
        assert units(g, "P2") == (PURPLE, 2)
        assert units(g, "P3") == (PURPLE, 3)


class TestExample3:
    """Supporting a Fortified P2 from P1, with a unit marched into P1 from P7, beats 3 attackers."""

    board = "ring-7"

    def test_march_into_supporting_province_raises_support(self):
        g = position(self.board, 2, {"P1": (PURPLE, 1), "P2": (PURPLE, 1), "P7": (PURPLE, 1), "P3": (BLACK, 3),
                                     "P4": (BLACK, 1)}, ranking=[BLACK, PURPLE])
        ev = play_orders(g, {PURPLE: "Fortify! P2\nSupport! Player#1 in P2 from P1\nMarch! 1 from P7 to P1",
                             BLACK: "March! 3 from P3 to P2"})
        (b,) = battles(ev)
        assert b.data["us"] == {PURPLE: 4, BLACK: 3}  # 1 unit + Fortify! 1 + support of 2 units
        assert units(g, "P2") == (PURPLE, 1)

    def test_without_the_march_the_tie_goes_to_black(self):
        g = position(self.board, 2, {"P1": (PURPLE, 1), "P2": (PURPLE, 1), "P7": (PURPLE, 1), "P3": (BLACK, 3),
                                     "P4": (BLACK, 1)}, ranking=[BLACK, PURPLE])
        ev = play_orders(g, {PURPLE: "Fortify! P2\nSupport! Player#1 in P2 from P1",
                             BLACK: "March! 3 from P3 to P2"})
        (b,) = battles(ev)
        assert b.data["us"] == {PURPLE: 3, BLACK: 3} and b.data["winner"] == BLACK


class TestExample4:
    """Two players capture an empty Province: Golden March! enters first, Delayed Golden March! fights."""

    board = "ring-10"

    def game(self):
        return position(self.board, 5, {"P5": (BLACK, 1), "P7": (WHITE, 1), "P6": (None, 0), **FAR},
                        ranking=[BLACK, WHITE, *REST])

    def test_delayed_golden_march_wins_2_vs_1(self):
        g = self.game()
        ev = play_orders(g, {BLACK: "Golden March! 1 from P5 to P6", WHITE: "Delayed Golden March! 1 from P7 to P6"})
        (b,) = battles(ev)
        assert b.data["us"] == {BLACK: 1, WHITE: 2}
        assert units(g, "P6") == (WHITE, 1)

    def test_same_type_golden_marches_kill_both(self):
        g = self.game()
        ev = play_orders(g, {BLACK: "Golden March! 1 from P5 to P6", WHITE: "Golden March! 1 from P7 to P6"})
        (b,) = battles(ev)
        assert b.data["us"] == {BLACK: 2, WHITE: 2} and b.data["tie"]
        assert units(g, "P6") == (None, 0)
        assert g.state.provinces["P6"].owner is None


class TestExample5:
    """Golden March! attacks P7 before White's Delayed Golden March! executes: 2 vs 1, Black captures."""

    board = "ring-10"

    def test_golden_beats_delayed_golden(self):
        g = position(self.board, 5, {"P6": (BLACK, 1), "P7": (WHITE, 1), "P9": (BLACK, 1), "P8": (WHITE, 1), **FAR},
                     ranking=[BLACK, WHITE, *REST])
        ev = play_orders(g, {BLACK: "Golden March! 1 from P6 to P7", WHITE: "Delayed Golden March! 1 from P7 to P6"})
        (b,) = battles(ev)
        assert b.data["us"] == {BLACK: 2, WHITE: 1}
        assert units(g, "P7") == (BLACK, 1)
        assert any(e.kind == "march_void" for e in ev)  # White's delayed march is removed from play
        assert g.state.provinces["P6"].owner == BLACK and g.state.provinces["P6"].units == 0

    def test_same_type_marches_switch_provinces(self):
        g = position(self.board, 5, {"P6": (BLACK, 1), "P7": (WHITE, 1), "P9": (BLACK, 1), "P8": (WHITE, 1), **FAR})
        ev = play_orders(g, {BLACK: "March! 1 from P6 to P7", WHITE: "March! 1 from P7 to P6"})
        assert not battles(ev)
        assert units(g, "P7") == (BLACK, 1) and units(g, "P6") == (WHITE, 1)


class TestExample6:
    """As Example 5, but White supports P7 from P8 with 2 units: White wins 3 vs 2 and then takes P6."""

    def test_support_defeats_golden_march_then_delayed_march_captures(self):
        board = "ring-10"
        g = position(board, 5, {"P6": (BLACK, 1), "P7": (WHITE, 1), "P8": (WHITE, 2), "P5": (BLACK, 1), **FAR},
                     ranking=[BLACK, WHITE, *REST])
        ev = play_orders(g, {BLACK: "Golden March! 1 from P6 to P7",
                             WHITE: "Delayed Golden March! 1 from P7 to P6\nSupport! Player#3 in P7 from P8"})
        (b,) = battles(ev)
        assert b.data["us"] == {BLACK: 2, WHITE: 3}
        assert units(g, "P6") == (WHITE, 1)
        assert g.state.provinces["P6"].owner == WHITE


class TestExample7:
    """White moves 1 unit P8->P7, then a Delayed Golden March! of 4 from P7 ties Black's Golden
    Fortify! 5 vs 5 and wins on the ranking, capturing P6 with 3 units."""

    def test_internal_movement_before_attack(self):
        board = "ring-10"
        g = position(board, 5, {"P6": (BLACK, 3), "P7": (WHITE, 3), "P8": (WHITE, 1), "P5": (BLACK, 1), **FAR},
                     ranking=[WHITE, BLACK, *REST])
        ev = play_orders(g, {BLACK: "Golden Fortify! P6",
                             WHITE: "March! 1 from P8 to P7\nDelayed Golden March! 4 from P7 to P6"})
        (b,) = battles(ev)
        assert b.data["us"] == {BLACK: 5, WHITE: 5} and b.data["winner"] == WHITE and b.data["tie"]
        assert units(g, "P6") == (WHITE, 3)
        assert g.step == CONSOLIDATION and g.state.provinces["P6"].owner == WHITE
