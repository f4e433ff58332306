"""002 Attitude Parameters: targets for Expansion, Piracy, Opportunity and Balancing."""

from __future__ import annotations

from engine.trace import Trace
from npr_controller.newworld.targets import (
    balancing_target,
    expansion_target,
    opportunity_target,
    piracy_target,
)
from tests.newworld.helpers import ScriptedDice, hold, world


def find(finder, w, choices=(), nation="Spain"):
    dice = ScriptedDice(choices=choices)
    t = finder(w, nation, dice, Trace())
    assert dice.exhausted
    return t


class TestExpansion:
    def test_random_adjacent_area_free_of_europeans(self):
        """randomly choose one adjacent, non-European occupied land area: with one candidate there is
        nothing to choose, and no die is rolled (hA defect 9: it said "chosen at random" with a d1)"""
        # Spain in H: neighbours J and R; the Dutch occupy J
        w = world({"Spain": {"holdings": hold("H")}, "Dutch": {"holdings": hold("J")}})
        trace = Trace()
        dice = ScriptedDice()
        t = expansion_target(w, "Spain", dice, trace)
        assert (t.kind, t.name) == ("area", "R") and not dice.rolls
        assert "the only adjacent Area free of Europeans: R" in trace.steps[-1].because
        assert "random" not in trace.steps[-1].because + t.because

    def test_the_choice_is_random_among_all_candidates(self):
        w = world({"Spain": {"holdings": hold("U")}})
        picked = {find(expansion_target, w, [i]).name for i in range(4)}
        assert picked == {"J", "R", "C", "Y"}

    def test_natives_do_not_make_an_area_european_occupied(self):
        w = world({"Spain": {"holdings": hold("H")}, "Dutch": {"holdings": hold("J")}}, natives={"R": 3})
        assert find(expansion_target, w).name == "R"

    def test_none_when_every_neighbour_is_european_occupied(self):
        w = world({"Spain": {"holdings": hold("H")}, "Dutch": {"holdings": hold("J", "R")}})
        assert find(expansion_target, w) is None


class TestPiracy:
    def test_the_top_gold_producer(self):
        """carry out a piracy campaign against the nation producing the most gold"""
        w = world({"Spain": {"gold_produced": 1, "holdings": hold("H")},
                   "Dutch": {"gold_produced": 5}, "English": {"gold_produced": 3}})
        t = find(piracy_target, w)
        assert (t.kind, t.name) == ("nation", "Dutch")

    def test_ignores_its_own_gold(self):
        """A nation ignores its own economic ... position when determining targets for Piracy"""
        w = world({"Spain": {"gold_produced": 9, "holdings": hold("H")},
                   "Dutch": {"gold_produced": 2}, "English": {"gold_produced": 3}})
        assert find(piracy_target, w).name == "English"

    def test_ties_are_resolved_randomly(self):
        """(tied resolved randomly)"""
        w = world({"Spain": {"holdings": hold("H")}, "Dutch": {"gold_produced": 4},
                   "English": {"gold_produced": 4}, "French": {"gold_produced": 1}})
        assert find(piracy_target, w, [0]).name == "Dutch"
        assert find(piracy_target, w, [1]).name == "English"

    def test_none_when_no_one_else_produces_gold(self):
        w = world({"Spain": {"gold_produced": 4, "holdings": hold("H")}, "Dutch": {}})
        assert find(piracy_target, w) is None


class TestOpportunity:
    def test_weakest_adjacent_european_occupied_area(self):
        """target the weakest, adjacent European-occupied land area"""
        w = world({"Spain": {"holdings": hold("U")},
                   "Dutch": {"holdings": hold("J", colonists=2, soldiers=2)},
                   "English": {"holdings": hold("C", colonists=1, soldiers=1)}})
        t = find(opportunity_target, w)
        assert (t.name, t.held_by) == ("C", ("English",))

    def test_weakest_tie_is_random(self):
        w = world({"Spain": {"holdings": hold("U")}, "Dutch": {"holdings": hold("J")},
                   "English": {"holdings": hold("C")}})
        assert find(opportunity_target, w, [1]).name == "J"

    def test_exception_foreign_forces_in_its_own_areas_come_first(self):
        """EXCEPTION: If there are forces of other power(s) in any area occupied by the non-player
        nation, it will attempt to eliminate them instead."""
        w = world({"Spain": {"holdings": hold("U", "H")},
                   "Dutch": {"holdings": {"J": {"colonists": 1}, "H": {"soldiers": 5}}}})
        trace, dice = Trace(), ScriptedDice()
        t = opportunity_target(w, "Spain", dice, trace)
        assert (t.name, t.held_by, t.rule) == ("H", ("Dutch",), "002 Opportunity (exception)")
        # the trace cites the exception it applied, as the target does (it cited "002 Opportunity")
        assert [s.rule for s in trace.steps] == ["002 Opportunity (exception)"]

    def test_none_without_european_neighbours(self):
        w = world({"Spain": {"holdings": hold("H")}, "Dutch": {"holdings": hold("K")}})
        assert find(opportunity_target, w) is None


class TestBalancing:
    def test_random_coastal_area_of_the_hegemon(self):
        """target a randomly chosen coastal area of the hemispheric hegemon"""
        # Dutch PC in U, C (inland) and M (coastal); English PC in one Area
        w = world({"Spain": {"holdings": hold("H")}, "Dutch": {"holdings": hold("U", "C", "M")},
                   "English": {"holdings": hold("K")}})
        t = find(balancing_target, w)  # M is the Dutch's only coastal Area: no die
        assert (t.name, t.held_by) == ("M", ("Dutch",)) and t.because == "the only coastal Area of Dutch"

    def test_ignores_its_own_political_control(self):
        """A nation ignores its own ... political control position when determining targets for
        ... Balancing."""
        w = world({"Spain": {"holdings": hold("H", "J", "N")}, "Dutch": {"holdings": hold("O", "M")},
                   "English": {"holdings": hold("K")}})
        t = find(balancing_target, w, [1])
        assert t.name == "O" and t.held_by == ("Dutch",)

    def test_tie_targets_the_chief_rival(self):
        """or in the case of a tie, the nation's chief rival"""
        w = world({"Spain": {"holdings": hold("H")}, "Dutch": {"holdings": hold("O")},
                   "English": {"holdings": hold("K")}, "French": {"holdings": hold("D")}},
                  hegemon_tie_rival={"Spain": "French"})
        assert find(balancing_target, w).name == "D"

    def test_tie_without_a_chief_rival_is_random(self):
        w = world({"Spain": {"holdings": hold("H")}, "Dutch": {"holdings": hold("O")},
                   "English": {"holdings": hold("K")}})
        assert find(balancing_target, w, [1]).name == "K"

    def test_none_when_the_hegemon_has_no_coast(self):
        w = world({"Spain": {"holdings": hold("H")}, "Dutch": {"holdings": hold("U", "C")}})
        assert find(balancing_target, w) is None

    def test_none_without_any_other_political_control(self):
        w = world({"Spain": {"holdings": hold("H")}, "Dutch": {"holdings": hold("O")}}, natives={"O": 1})
        assert find(balancing_target, w) is None
