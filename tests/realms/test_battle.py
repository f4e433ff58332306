"""NPR behaviour in battle (000 §13.4) and the battle resolver (rules-gaps.md Battles)."""

import pytest

from engine.errors import ValidationError
from engine.realms import RealmRules
from engine.realms.options import BattleDie
from engine.trace import Dice, Roll, Trace
from npr_controller.realms.battle import (
    MilitaryCard,
    draw_leader,
    npr_roller,
    parse_deck,
    resolve_battle,
    retreat,
)
from tests.realms.helpers import prov, town, world

REALMS = {"Gran": {"kind": "npr", "capital": "cap"}, "Cast": "pr"}


class ScriptedDice(Dice):
    """Dice whose faces are given in advance, to check the resolver's arithmetic exactly."""

    def __init__(self, faces):
        super().__init__(0)
        self._faces = list(faces)

    def roll(self, n, sides=6, purpose=""):
        r = Roll(purpose, sides, tuple(self._faces.pop(0) for _ in range(n)))
        self.rolls.append(r)
        return r


def _w(**kw):
    land = {"Cap": ["B"], "B": ["C"], "C": []}
    provs = {"cap": prov("Cap", "Gran"), "b": prov("B", "Gran"), "c": prov("C", "Gran"), "t": town("C", "Cast")}
    return world(land, provs, REALMS, seas={"S": ["Cap"], "T": ["C"]}, wars=[["Cast", "Gran"]], **kw)


def _retreat(w, **battle):
    return retreat(w, {"npr": "Gran", **battle}).to_dict()["retreat"]


def test_leader_draw_only_with_three_or_more_npr_units():
    """000 §13.4: only NPR defenders with a total of 3+ Units draw from the Military Deck."""
    deck = [MilitaryCard("Cid", "leader", 2)]
    trace = Trace()
    assert draw_leader(2, True, deck, Dice(0), trace) is None
    assert draw_leader(5, False, deck, Dice(0), trace) is None  # alongside Rebels: not only NPR defenders
    assert draw_leader(3, True, deck, Dice(0), trace).dice == 2 and deck == []  # drawn, discarded after


def test_each_battle_draws_the_next_card_of_the_given_deck():
    """000 §13.4: "discard the card at the end of the Battle": a second Battle draws the next card, and a
    used-up deck is said so (drawn at random from then on)."""
    deck = [MilitaryCard("Chancellor", "advisor"), MilitaryCard("Cid", "leader", 2)]
    trace = Trace()
    assert draw_leader(4, True, deck, Dice(0), trace) is None  # the Advisor: no Leader
    assert draw_leader(4, True, deck, Dice(0), trace).name == "Cid"
    draw_leader(4, True, deck, Dice(0), trace)
    assert any("the given deck is used up, drew at random" in t.because for t in trace.steps)


def test_advisor_card_means_no_leader():
    """000 §13.4: if the card has an Advisor on it, that NPR force has no Leader."""
    deck = list(parse_deck([{"name": "Chancellor", "kind": "advisor"}, {"name": "Cid", "kind": "leader", "dice": 2}]))
    assert draw_leader(4, True, deck, Dice(0), Trace()) is None
    with pytest.raises(ValidationError, match=r"deck\[0\].kind"):
        parse_deck([{"name": "x", "kind": "queen"}])


def test_player_to_the_right_of_the_active_player_rolls():
    """000 §13.4: the player to the right of the Active Player rolls the NPR's dice (seats clockwise)."""
    assert npr_roller(["Ann", "Bob", "Cy"], "Bob", Trace()) == "Ann"
    assert npr_roller(["Ann", "Bob", "Cy"], "Ann", Trace()) == "Cy"


def test_retreat_when_outnumbered_after_a_round():
    """000 §13.4 Beyond the first Round: NPRs always Retreat with fewer Units than their Enemy."""
    w = _w()
    assert _retreat(w, area="B", npr_units=2, enemy_units=3) is True
    assert _retreat(w, area="B", npr_units=3, enemy_units=3) is False
    d = retreat(w, {"npr": "Gran", "area": "B", "npr_units": 1, "enemy_units": 2}).to_dict()
    assert d["rule"] == "000 §13.4 Beyond the first Round of Battle"


def test_fight_to_the_last_in_capital_area():
    """000 §13.4: no Retreat in the Capital Area."""
    assert _retreat(_w(), area="Cap", npr_units=1, enemy_units=9) is False


def test_fight_to_the_last_in_the_last_area():
    """000 §13.4: no Retreat in the last Area where the NPR still controls Provinces."""
    w = world(
        {"Cap": ["B"], "B": []},
        {"cap": prov("Cap", "Gran", occupied_by="Cast"), "b": prov("B", "Gran")},
        REALMS,
        wars=[["Cast", "Gran"]],
    )
    assert _retreat(w, area="B", npr_units=1, enemy_units=9) is False


def test_fight_to_the_last_alongside_rebels():
    """000 §13.4: alongside Rebel Units they always fight to the last Unit."""
    assert _retreat(_w(), area="B", npr_units=1, enemy_units=9, with_rebels=True) is False


def test_ships_fight_to_the_last_next_to_capital_area_only():
    """000 §13.4: NPR Ships fight to the last Ship if the Sea Zone is next to their Capital Area."""
    w = _w()
    assert _retreat(w, sea="S", npr_units=1, enemy_units=5) is False
    assert _retreat(w, sea="T", npr_units=1, enemy_units=5) is True


def test_resolver_three_base_dice_hits_capped_by_units():
    """rules-gaps.md Battles: 3 base dice each; hits = min(icons, units); the die is configurable."""
    w = _w()
    trace = Trace()
    # NPR (2 units) rolls three 6s but can only inflict 2; Enemy rolls 1s: no hits
    out = resolve_battle(
        w,
        ["Gran"],
        "Cap",
        naval=False,
        npr_units=2,
        enemy_units=4,
        dice=ScriptedDice([6, 6, 6, 1, 1, 1, 6, 6, 6, 1, 1, 1]),
        trace=trace,
    )
    assert out.rounds[0]["npr_hits"] == 2 and out.rounds[0]["enemy_units"] == 2
    assert out.winner == "npr" and out.enemy_left == 0
    custom = world({"Cap": []}, {"cap": prov("Cap", "Gran")}, REALMS)
    custom = custom.evolve(rules=RealmRules(die=BattleDie(sides=6, hit_faces=(1,))))
    out = resolve_battle(
        custom,
        ["Gran"],
        "Cap",
        naval=False,
        npr_units=1,
        enemy_units=1,
        dice=ScriptedDice([1, 2, 2, 2, 2, 2]),
        trace=Trace(),
    )
    assert out.winner == "npr"


def test_resolver_retreat_costs_one_extra_unit():
    """rules-gaps.md Battles: a side that retreats loses one extra unit; 000 §13.4 NPR Retreats when fewer."""
    w = _w()
    out = resolve_battle(
        w,
        ["Gran"],
        "B",
        naval=False,
        npr_units=3,
        enemy_units=5,
        deck=[MilitaryCard("Clerk", "advisor")],
        dice=ScriptedDice([1, 1, 1, 6, 1, 1]),
        trace=Trace(),
    )
    assert out.rounds[0]["retreat"] == "npr" and out.npr_left == 1 and out.winner == "enemy"


def test_resolver_is_deterministic_for_a_seed_and_uses_the_leader():
    w = _w()
    deck = [MilitaryCard("Cid", "leader", 2)]
    a = resolve_battle(
        w, ["Gran"], "Cap", naval=False, npr_units=4, enemy_units=4, dice=Dice(7), trace=Trace(), deck=list(deck)
    )
    b = resolve_battle(
        w, ["Gran"], "Cap", naval=False, npr_units=4, enemy_units=4, dice=Dice(7), trace=Trace(), deck=list(deck)
    )
    assert a == b and a.leader.name == "Cid"
    assert all(len(r["npr_faces"]) == 5 and len(r["enemy_faces"]) == 3 for r in a.rounds)


def test_fight_computes_defenders_from_mc_and_names_the_roller():
    """npr.battle: defenders = MC when not given (000 §13.4); the player to the right rolls."""
    from npr_controller.realms.battle import fight

    w = _w()
    battle = {"npr": "Gran", "area": "Cap", "enemy_units": 2, "seats": ["A", "B"], "active_player": "B"}
    d = fight(w, battle, seed=5).to_dict()
    assert d["npr_units"] == 2 and d["roller"] == "A"  # cap + b (adjacent)
    assert d == fight(w, battle, seed=5).to_dict()
    assert len(d["dice"]["rolls"]) == 2 * len(d["rounds"])
    left = {"npr": d["npr_units_left"], "enemy": d["enemy_units_left"]}
    assert d["winner"] == ("npr" if left["npr"] else "enemy" if left["enemy"] else "none")


def test_combined_force_fights_on_if_the_exception_holds_for_any_of_them():
    """000 §13.4 Beyond the first Round with 000 §13.4 Fighting Several NPRs in one Area:
    RealmRules.combined_fight_on_if_any (assumptions.md): the combined force fights to the last in
    one NPR's Capital Area; with the option off it needs the exception for every NPR."""
    from engine.realms import world_from_dict
    from tests.realms.helpers import doc

    realms = {**REALMS, "Nav": {"kind": "npr", "capital": "n1"}}
    land = {"Cap": ["B"], "B": [], "N": []}
    provs = {"cap": prov("Cap", "Gran"), "b": prov("B", "Gran"), "n1": prov("N", "Nav"), "n2": prov("Cap", "Nav")}
    d = doc(land, provs, realms, wars=[["Cast", "Gran"], ["Cast", "Nav"]])
    battle = {"npr": ["Gran", "Nav"], "area": "Cap", "npr_units": 1, "enemy_units": 5}
    assert retreat(world_from_dict(d), battle).to_dict()["retreat"] is False
    strict = world_from_dict(d, rules=RealmRules(combined_fight_on_if_any=False))
    assert retreat(strict, battle).to_dict()["retreat"] is True
