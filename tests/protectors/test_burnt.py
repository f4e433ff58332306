"""rules: 003 The Dragon's Wrath! — a burnt-out Province "will function like a normal lvl.0 Province"
(except that it never produces $Realm). Each test burns a levelled Province through a real Dragon
Attack, lets another seat re-take it, and checks one place that reads Province levels."""

from __future__ import annotations

from engine.protectors.report import private_summary
from tests.protectors.helpers import dragon_attack, fight, play_orders, position


def burn_and_retake(p1_level: int, p7_level: int = 0, p6_level: int = 0, cards=(), p2_orders: str = ""):
    """Player#1's P1 (level ``p1_level``) burns in a lost Dragon Attack; Player#2 then marches from P7
    into it. Returns the game at the start of the Consolidation decision step."""
    g = position("ring-7", 3, {"P1": ("Player#1", 1, p1_level), "P3": ("Player#1", 1),
                               "P7": ("Player#2", 3, p7_level), "P6": ("Player#2", 2, p6_level),
                               "P4": ("Player#3", 1)},
                 ranking=["Player#3", "Player#1", "Player#2"], realm={"Player#1": 0, "Player#2": 100, "Player#3": 0},
                 cards=cards)
    dragon_attack(g, 20)
    fight(g, {"Player#1": "1 from P3\nBurn P1", "Player#2": "1 from P7\n1 from P6"})
    st = g.state
    assert st.provinces["P1"].burnt and st.provinces["P1"].owner is None
    assert st.step == "orders"
    events = play_orders(g, {"Player#2": "March! 2 from P7 to P1" + (f"\n{p2_orders}" if p2_orders else "")})
    assert st.provinces["P1"].owner == "Player#2"
    return g, events


def test_burning_resets_the_level():
    g = position("ring-7", 3, {"P1": ("Player#1", 1, 3), "P3": ("Player#1", 1), "P6": ("Player#2", 1),
                               "P4": ("Player#3", 1)}, ranking=["Player#3", "Player#1", "Player#2"])
    dragon_attack(g, 20)
    fight(g, {"Player#1": "1 from P3\nBurn P1", "Player#2": "1 from P6"})
    assert g.state.provinces["P1"].burnt and g.state.provinces["P1"].level == 0
    assert g.view()["provinces"]["P1"]["level"] == 0


def test_imarins_blessings_pays_a_retaken_burnt_ex_level_2_province_as_level_0():
    """rules: 003 Imarin's Blessings — "Grey burnt-out Provinces act as normal this turn": as the lvl 0
    Province they are, so P1 (lvl 2 before it burnt) adds 50, doubled."""
    _, events = burn_and_retake(2, cards=("Imarin's Blessings",))
    produced = next(e.data["amount"] for e in events if e.kind == "production" and e.data["seat"] == "Player#2")
    assert produced == 2 * (50 + 50 + 50)  # P7, P6 and the burnt P1, each lvl 0, doubled


def test_capitol_rule_ignores_a_burnt_ex_level_3_province():
    """rules: 003 Golden Work, work! — the Capitol rule is about lvl 3 Provinces; a burnt ex-lvl-3
    Province is lvl 0, so a silent seat keeps its real Capitol (P7) at lvl 3."""
    g, _ = burn_and_retake(3, p7_level=3)
    g.advance(force=True)  # Player#2 silent in the Consolidation step
    assert g.state.provinces["P7"].level == 3
    assert g.state.provinces["P1"].level == 0


def test_upgrade_to_level_3_allowed_when_the_other_level_3_is_burnt():
    """rules: 003 Golden Work, work! — "only ever have control over one level 3 Province": the burnt
    ex-lvl-3 P1 is not one, so upgrading P6 from lvl 2 to 3 is legal."""
    g, _ = burn_and_retake(3, p6_level=2, p2_orders="Golden Work, work! P6")
    g.submit("Player#2", "Upgrade P6")
    g.advance(force=True)
    assert g.state.provinces["P6"].level == 3


def _production(events, seat):
    return next(e.data for e in events if e.kind == "production" and e.data["seat"] == seat)


def test_work_in_a_burnt_out_province_produces_nothing():
    """rules: 003 The Dragon's Wrath! — a burnt-out Province "cannot under any circumstances produce
    $Realm income": its Work, work! pays nothing either, except under Imarin's Blessings."""
    provs = {"P1": ("Player#2", 1, 0, True), "P7": ("Player#2", 1), "P4": ("Player#1", 1), "P3": ("Player#3", 1)}
    g = position("ring-7", 3, provs)
    paid = _production(play_orders(g, {"Player#2": "Work, work! P1"}), "Player#2")
    assert paid["amount"] == 50 and paid["work"] == []  # P7 alone
    assert "Work, work! P1: no income: P1 is burnt out" in private_summary(g, "Player#2")
    g = position("ring-7", 3, provs, cards=("Imarin's Blessings",))
    paid = _production(play_orders(g, {"Player#2": "Work, work! P1"}), "Player#2")
    assert paid["amount"] == 2 * (50 + 50 + 50) and paid["work"] == ["P1"]


def test_work_whose_units_the_wrath_vaporised_after_the_supply_step_produces_nothing():
    """rules: 003 Work, work! — "if some of your Army Unit(s) that received this order are still alive":
    an elimination drops the Power Threshold (16 -> 14), the Dragon (DPL 15) attacks at the Eliminate
    Players step, after the Work orders were kept, and burns Player#1's working P1 with its unit."""
    g = position("ring-8", 4, {"P1": ("Player#1", 1), "P3": ("Player#1", 1), "P6": ("Player#2", 2),
                               "P4": ("Player#3", 0), "P5": ("Player#2", 1), "P7": ("Player#4", 1)},
                 ranking=["Player#2", "Player#1", "Player#4", "Player#3"], dpl=15)
    play_orders(g, {"Player#1": "Work, work! P1", "Player#2": "March! 1 from P5 to P4"})
    st = g.state
    assert st.players["Player#3"].eliminated and st.step == "dragon" and st.work_orders == {"P1": ("Player#1", False)}
    # Player#2, the Grand Protector, escapes the Wrath; Player#4 at the bottom meets min.US (no No Quarter!)
    events = fight(g, {"Player#1": "1 from P3\nBurn P1", "Player#2": "1 from P6", "Player#4": "1 from P7"})
    assert st.provinces["P1"].burnt and st.provinces["P1"].owner is None
    paid = _production(events, "Player#1")
    assert paid["work"] == [] and paid["amount"] == 50  # P3 alone; no +50 from the vaporised P1
    assert "Work, work! P1: no income: no unit of yours was left on it" in private_summary(g, "Player#1")
