"""The caretaker for a vacant realm seat: Income & Upkeep, Phase 3, actions and CtAs (001, 004 §11.3)."""

from dataclasses import replace

import pytest

from engine.errors import ValidationError
from engine.realms import RealmRules
from engine.realms.model import Alliance, Realm
from npr_controller.realms.caretaker import actions, answer_cta, income_and_upkeep, phase3
from tests.realms.helpers import prov, town, world


def _w(units=2, ships=0, **cast):
    realm = {
        "kind": "pr",
        "base_tax": 5,
        "ducats": 0,
        "ruler": {"name": "Juan", "adm": 3, "dip": 2, "mil": 1},
        "monarch_power": {"adm": 9, "dip": 0, "mil": 0},
        **cast,
    }
    w = world(
        {"A": []},
        {"c1": town("A", "Cast"), "c2": town("A", "Cast"), "g": prov("A", "Gran")},
        {"Cast": realm, "Gran": "npr"},
        seas={"S": ["A"]},
        units=[("Cast", "A", units)] if units else [],
        ships=[("Cast", "S", ships)] if ships else [],
    )
    return w


def test_pays_everything_when_it_can_and_gains_monarch_power():
    """001 §7.4 / rules-gaps.md Phase 4: income minus costs; 001 §7.1 Ruler + Advisor skill, cap 10."""
    w = _w(advisors=[{"name": "Sage", "kind": "adm", "skill": 2, "cost": 1}])
    d = income_and_upkeep(w, "Cast").to_dict()
    assert d["state"]["ducats"] == 5 - 2 - 1
    assert d["kept"] == {"regular": 2, "mercenary": 0, "ships": 0, "advisors": ["Sage"]}
    assert d["state"]["monarch_power"] == {"adm": 10, "dip": 2, "mil": 1}  # 9 + 3 + 2 capped at 10


def test_unpaid_upkeep_disbands_units_and_advisors_leave():
    """001 §7.4 Unpaid Upkeep: disband unpaid units; unpaid Advisors leave without their bonus."""
    w = _w(units=6, base_tax=3, advisors=[{"name": "Sage", "kind": "dip", "skill": 2, "cost": 2}])
    d = income_and_upkeep(w, "Cast").to_dict()
    assert d["kept"]["regular"] == 3 and d["kept"]["advisors"] == []
    assert d["state"]["monarch_power"]["dip"] == 2  # Ruler only, no Advisor bonus
    assert d["loans_taken"] == 0  # optional costs never force a Loan by default


def test_takes_a_loan_rather_than_go_bankrupt():
    """001 §7.4: Interest not covered: take another Loan if able."""
    d = income_and_upkeep(_w(units=0, base_tax=0, loans=3), "Cast").to_dict()
    assert d["loans_taken"] == 1 and d["state"]["loans"] == 4 and d["state"]["bankrupt"] is False
    assert d["state"]["ducats"] == 2


def test_bankrupt_when_no_loan_is_allowed():
    """001 §7.4 Bankruptcy: 5+ Loans and a mandatory Cost unpaid."""
    d = income_and_upkeep(_w(units=0, base_tax=0, loans=5, stability=0), "Cast").to_dict()
    s = d["state"]
    assert s["bankrupt"] is True and s["loans"] == 2 and s["stability"] == -3 and s["ducats"] == 0


def test_interregnum_council_and_stability_bonus():
    """001 §7.2: Interregnum council Skill 1 each, -1 Stability at Phase 3 F; §7.3 +3 gives 2 of any type."""
    w = _w(units=0, ruler=None, stability=3)
    d = income_and_upkeep(w, "Cast").to_dict()
    assert d["state"]["monarch_power"] == {"adm": 10, "dip": 3, "mil": 1}  # +2 to the scarcest (dip)
    p = phase3(w, "Cast").to_dict()
    assert p["interregnum"] is True and p["state"]["stability"] == 2


def test_phase3_unrest_from_stability():
    """001 §7.3: +2 removes Unrest from 1 Province; -2 adds Unrest to 1 (alphabetically first)."""
    w = world(
        {"A": []},
        {"b": town("A", "Cast", unrest=True), "a": town("A", "Cast")},
        {"Cast": {"kind": "pr", "stability": 2, "ruler": {"name": "R"}}},
    )
    assert phase3(w, "Cast").to_dict()["unrest"] == {"remove_unrest": "b"}
    w = world(
        {"A": []},
        {"b": town("A", "Cast", unrest=True), "a": town("A", "Cast")},
        {"Cast": {"kind": "pr", "stability": -2, "ruler": {"name": "R"}}},
    )
    assert phase3(w, "Cast").to_dict()["unrest"] == {"add_unrest": "a"}


@pytest.mark.parametrize(("stability", "unrest"), [(2, {"remove_unrest": "b"}), (-2, {"add_unrest": "b"})])
def test_phase3_unrest_only_on_provinces_it_controls(stability, unrest):
    """001 §7.3: +2 "remove u from 1 of your Provinces", -2 "Add u to 1 of your Provinces"; rules-gaps
    Definitions: "an Occupied Province belongs to neither side". The caretaker took the alphabetically first
    Province it owned, "a", which Gran Occupies."""
    w = world(
        {"A": []},
        {
            "a": town("A", "Cast", unrest=stability > 0, occupied_by="Gran"),
            "b": town("A", "Cast", unrest=stability > 0),
        },
        {"Cast": {"kind": "pr", "stability": stability, "ruler": {"name": "R"}}, "Gran": "npr"},
        wars=[["Cast", "Gran"]],
    )
    assert phase3(w, "Cast").to_dict()["unrest"] == unrest


def test_actions_keep_stability_and_never_declare_war():
    """001 §7.3 Increase Stability costs 5 + current; the caretaker never declares War."""
    d = actions(_w(stability=-2, monarch_power={"adm": 9}), "Cast").to_dict()
    assert [a["cost_adm"] for a in d["actions"]] == [3, 4]
    assert d["state"]["stability"] == 0 and d["state"]["monarch_power"]["adm"] == 2
    assert d["declares_war"] is False


def test_repays_loans_only_with_costs_still_covered():
    """001 §7.4: repaying a Loan costs 6 Ducats."""
    d = actions(_w(units=2, ducats=15, loans=2), "Cast").to_dict()
    assert [a["action"] for a in d["actions"]] == ["repay_loan"]
    assert d["state"]["loans"] == 1 and d["state"]["ducats"] == 9


def _allied(gran_active=False):
    """Cast (the vacant seat) Allied to the NPR Gran and to the PR Leon; Arag, a PR, may attack Gran."""
    return world(
        {"A": ["B"]},
        {"c1": town("A", "Cast"), "g": prov("A", "Gran"), "l": town("B", "Leon"), "a": town("B", "Arag")},
        {"Cast": {"kind": "pr", "ruler": {"name": "Juan", "adm": 3, "dip": 2, "mil": 1}},
         "Gran": "npr", "Leon": "pr", "Arag": "pr"},
        alliances=[{"pr": "Cast", "npr": "Gran", "active": gran_active}, {"pr": "Cast", "ally": "Leon"}],
    )


def test_accepts_defensive_refuses_offensive_cta():
    """004 §11.3: a Defensive CtA can always be accepted; the caretaker never starts a War."""
    w = _allied()
    assert answer_cta(w, "Cast", "Gran", attacker="Arag").to_dict()["accept"] is True
    assert answer_cta(w, "Cast", "Leon", attacker="Arag", kind="offensive").to_dict()["accept"] is False
    active = w.evolve(rules=RealmRules(caretaker_activates_allies=True))
    assert answer_cta(active, "Cast", "Gran", attacker="Arag").to_dict()["activate"] is True


@pytest.mark.parametrize(
    ("sender", "attacker", "kind", "field"),
    [
        ("Arag", "Leon", "defensive", "cta_from"),  # Arag is no Ally of Cast
        ("Gran", "Gran", "defensive", "attacker"),  # Gran did not declare War on itself
        ("Gran", "Cast", "defensive", "attacker"),  # nor did the caretaker's own realm
        ("Gran", "Arag", "offensive", "cta_from"),  # an NPR never Declares War
    ],
)
def test_a_cta_that_cannot_have_been_sent_is_refused(sender, attacker, kind, field):
    """004 §11.3: "You may receive a CtA when someone Declares War on your Ally, or your Ally Declares
    War on another Realm" -- only an Ally sends one, and a Defensive CtA answers another realm's
    Declaration. The caretaker used to accept any of these and trace the consequences."""
    with pytest.raises(ValidationError) as err:
        answer_cta(_allied(), "Cast", sender, attacker=attacker, kind=kind)
    assert err.value.field == field


def test_minus_three_stability_gives_one_monarch_power_fewer():
    """001 §7.3 "-3s: Receive 1d fewer (of your choice) in Phase 4, Step D" (the caretaker gives up
    the most plentiful type, assumptions.md)."""
    # Ruler 3/2/1 on 0/5/0: dip is the most plentiful (7 before the loss): 5 + 2 - 1
    d = income_and_upkeep(_w(units=0, stability=-3, monarch_power={"adm": 0, "dip": 5}), "Cast").to_dict()
    assert d["state"]["monarch_power"] == {"adm": 3, "dip": 6, "mil": 1}
    calm = income_and_upkeep(_w(units=0, stability=-2, monarch_power={"adm": 0, "dip": 5}), "Cast").to_dict()
    assert calm["state"]["monarch_power"] == {"adm": 3, "dip": 7, "mil": 1}


def test_a_player_realm_allys_defensive_cta_has_no_active_ally_choice():
    """004 §11.3 Accepting a CtA: "2. If accepting a Defensive CtA from an NPR Ally, you may send
    Defensive CtAs to your other NPR Allies" and "4. If accepting a CtA from an NPR, decide whether you
    wish to make them an Active Ally". Accepting a PR Ally's CtA offered both, with Allied Units and
    "keeps its full MC" for a Player Realm."""
    d = answer_cta(_allied(), "Cast", "Leon", attacker="Arag").to_dict()
    said = " ".join(step["because"] for step in d["trace"])
    assert d["accept"] is True and d["activate"] is False
    assert "Active Ally" not in said and "other NPR Allies" not in said and "MC" not in said
    from_npr = answer_cta(_allied(), "Cast", "Gran", attacker="Arag").to_dict()["trace"]
    npr = " ".join(step["because"] for step in from_npr)
    assert "decide whether Gran becomes an Active Ally" in npr and "you have no other NPR Ally" in npr


def test_the_other_npr_allies_a_defensive_cta_may_be_passed_on_to_are_named():
    """004 §11.3 Accepting a CtA step 2: "If accepting a Defensive CtA from an NPR Ally, you may send Defensive
    CtAs to your other NPR Allies": the answer said so to a realm with no other NPR Ally too; it now names
    them, or says there is none."""
    w = _allied()
    more = w.evolve(relations=replace(w.relations, alliances=(*w.relations.alliances, Alliance("Cast", "Nav"))),
                    realms={**w.realms, "Nav": Realm("Nav", "npr")})
    said = " ".join(s["because"] for s in answer_cta(more, "Cast", "Gran", attacker="Arag").to_dict()["trace"])
    assert "you may send Defensive CtAs to your other NPR Allies (Nav)" in said


@pytest.mark.parametrize("activates", [False, True])
def test_an_ally_that_is_already_active_stays_active_without_new_allied_units(activates):
    """004 §11.3 Accepting a CtA step 4: "If accepting a CtA from an NPR, decide whether you wish to make
    them an Active Ally" -- an Ally that is Active already has nothing to decide; Active Allies "defend
    their own Areas with only half MC". The caretaker said such an Ally "is not Activated and keeps its
    full MC", or (caretaker_activates_allies) Activated it again with a second helping of Allied Units."""
    active = _allied(gran_active=True).evolve(rules=RealmRules(caretaker_activates_allies=activates))
    d = answer_cta(active, "Cast", "Gran", attacker="Arag").to_dict()
    said = [step["because"] for step in d["trace"] if step["rule"] == "004 §11.3 Active Allies"]
    assert d["accept"] is True and d["activate"] is False
    assert said == [
        "Gran is already Cast's Active Ally: it stays Active (no new Allied Units) and defends with half MC"
    ]
