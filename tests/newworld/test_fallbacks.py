"""002 Guidelines: "A nation which cannot fit the parameters of a specific attitude will implement the
result right above it on the list (lower die roll)", with the Expansion and Exploration exceptions."""

from __future__ import annotations

from engine.newworld import parse_world
from npr_controller.newworld import Attitude, plan_nation
from tests.newworld.helpers import ScriptedDice, doc, hold, world

# natives left in U keep Spain's PC partial, so neither PC modifier applies
NATIVES = {"U": 1}


def chain(plan):
    return [(str(f.source), str(f.result)) for f in plan.fallbacks]


def run(w, rolled, faces, choices=(), nation="Spain"):
    """Plan with scripted dice; ``rolled`` is the attitude the 2d6 + modifiers must give."""
    dice = ScriptedDice(faces, choices)
    plan = plan_nation(w, nation, dice=dice)
    assert dice.exhausted, "the planner rolled less than scripted"
    assert plan.roll.attitude is rolled
    return plan


def test_expansion_without_free_neighbours_becomes_opportunity():
    """EXCEPTION: An attitude of Expansion which does not have any non-European occupied land areas
    adjacent to it will become an attitude of Opportunity."""
    w = world({"Spain": {"treasury": 200, "holdings": hold("H", "U")},
               "Dutch": {"holdings": hold("J", "R", "C", "Y")}}, natives=NATIVES)
    # 2d6 = 3, +3 Dutch lead (4 PC against 1) = 6: Expansion; Opportunity: the Dutch Areas C, J, R, Y
    # tie at 1 unit -> random choice; then the rule 5.1 die
    plan = run(w, Attitude.EXPANSION, [1, 2, 5], [2])
    assert chain(plan) == [("Expansion", "Opportunity")]
    assert plan.attitude is Attitude.OPPORTUNITY and plan.target.name == "R"
    assert any(s.rule == "002 Guidelines (Expansion exception)" for s in plan.trace)


def test_opportunity_without_targets_takes_piracy_above_it():
    w = world({"Spain": {"treasury": 200, "holdings": hold("H", "U")},
               "Dutch": {"gold_produced": 2, "holdings": hold("K")}}, natives=NATIVES)
    plan = run(w, Attitude.OPPORTUNITY, [5, 5, 2])  # 10; then Piracy rolls its colonists (rule 5.1)
    assert chain(plan) == [("Opportunity", "Piracy")]
    assert plan.target.name == "Dutch" and plan.purchase.ships_built == 3


def test_piracy_without_gold_takes_exploration_above_it():
    w = world({"Spain": {"treasury": 200, "holdings": hold("H", "U")},
               "Dutch": {"holdings": hold("K")}}, natives=NATIVES)
    plan = run(w, Attitude.PIRACY, [4, 5, 3])  # 9 -> Exploration: Table #2 face 3 = X
    assert chain(plan) == [("Piracy", "Exploration")]
    assert plan.landfall.area == "X" and plan.landfall.table == 2


def test_balancing_without_a_hegemon_takes_opportunity_above_it():
    w = world({"Spain": {"treasury": 200, "holdings": hold("H", "U")},
               "Dutch": {"holdings": hold("J")}}, natives={"U": 1, "J": 1})
    # 12 +1 -> Balancing: nobody else has PC -> Opportunity (attack J)
    plan = run(w, Attitude.BALANCING, [6, 6, 4])
    assert chain(plan) == [("Balancing", "Opportunity")]
    assert plan.target.name == "J"


def test_exploration_with_every_landfall_taken_becomes_balancing():
    """If these are also occupied, treat this result as an attitude of Balancing."""
    w = world({"Spain": {"treasury": 200, "holdings": hold("H", "U")},
               "Dutch": {"holdings": hold(*"JNORCMXYE")}, "English": {"holdings": hold("K")}},
              natives={"U": 1, **{a: 1 for a in "JNORCMXYE"}})
    # 8 (Spain and English tie at 1 PC: no lead) -> Exploration; Table #2 full -> Balancing on the
    # hegemon English (the Dutch hold much but control nothing)
    plan = run(w, Attitude.EXPLORATION, [4, 4, 6])
    assert chain(plan) == [("Exploration", "Balancing")]
    assert plan.attitude is Attitude.BALANCING and plan.target.held_by == ("English",)


def test_nothing_fits_ends_in_status_quo():
    """Every attitude fails in turn; each is tried once and the chain ends at the top of the list."""
    d = doc({"Spain": {"treasury": 200, "ships": 3, "holdings": hold("Z1", "Z2")},
             "Dutch": {"holdings": hold(*"CMXYE")},
             "English": {"player": True, "holdings": hold("U")}},
            natives={"Z2": 1, **{a: 1 for a in "CMXYE"}})
    # Spain sits on an island of two Areas: no neighbours to expand into or attack
    d["areas"]["Z1"] = {"adjacent": ["Z2"], "coastal": True}
    d["areas"]["Z2"] = {"coastal": True, "natives": 1}
    w = parse_world(d)
    plan = run(w, Attitude.EXPANSION, [3, 3])  # 6 -> Expansion; Status Quo rolls nothing more
    assert chain(plan) == [
        ("Expansion", "Opportunity"),  # the Expansion exception
        ("Opportunity", "Piracy"),  # the result above: no European neighbour
        ("Piracy", "Exploration"),  # no other nation produces gold
        ("Exploration", "Balancing"),  # Table #2 all occupied
        ("Balancing", "Status Quo"),  # English, the hegemon, has no coast; all between already tried
    ]
    assert plan.attitude is Attitude.STATUS_QUO and plan.target is None and plan.landfall is None
    assert (plan.purchase.colonists, plan.purchase.soldiers, plan.purchase.ships_built) == (4, 2, 0)
