"""rules: 003 Island Rules — reaching the Island, supply 1, control, March! only, no Dragon commitment,
3 VPs; Wizard Sanctum — the choice (refresh or gain; random; lost with control), Palantír, Enchanted
weapons."""

from __future__ import annotations

import pytest

from engine.errors import IllegalOrderError
from engine.protectors import cards as C
from engine.protectors.abilities import hide_cost
from engine.protectors.factions import CENARION, IRON_LIGHT, KALUAK, LANNUVAR, ability_flags
from engine.protectors.legality import golden_limits
from engine.protectors.orders import March
from engine.protectors.victory import victory_points
from tests.protectors.helpers import dragon_attack, event, fight, play_orders, position
from tests.protectors.test_factions import P1, P2, P3, make, names, next_orders, orders

ISLAND = "P0"


def island_game(cards=(C.SEAFARERS,), factions=None, island=None, realm=None, **kw):
    provs = {"P1": (P1, 2), "P2": (P2, 2), "P3": (P3, 1)}
    if island:
        provs[ISLAND] = (island, 1)
    return make("ring-3+island", provs, cards=cards, factions=factions or {P1: IRON_LIGHT, P2: CENARION},
                realm=realm or {P1: 100, P2: 100, P3: 100}, **kw)


def capture(g, seat=P1, src="P1"):
    orders(g, {seat: f"March! 1 from {src} to {ISLAND}"})
    assert g.state.provinces[ISLAND].owner == seat and g.step == "consolidation"
    return g


class TestIsland:
    def test_reachable_only_when_all_provinces_are_neighbours(self):
        g = island_game(cards=())
        assert not any(isinstance(o, March) and o.dst == ISLAND for o in g.legal_orders(P1, "P1"))
        with pytest.raises(IllegalOrderError, match=r"not adjacent to P1: the Island is reached \(and left\) only "
                                                     r"while a card makes every Province a neighbour"):
            g.submit(P1, f"March! 1 from P1 to {ISLAND}")
        g = island_game()
        assert any(isinstance(o, March) and o.dst == ISLAND for o in g.legal_orders(P1, "P1"))

    def test_the_island_by_its_rulebook_names(self):
        # dogfood-rules #7: "March! 1 from P7 to Island" was "'Island' is not a province like P3"
        for name in ("Island", "the Island", "Wizard Sanctum", "the wizard sanctum"):
            g = island_game()
            assert g.submit(P1, f"March! 1 from P1 to {name}") == [f"March! 1 from P1 to {ISLAND}"]
        g = island_game(island=P1)
        assert g.submit(P1, "March! 1 from the Island to P2") == [f"March! 1 from {ISLAND} to P2"]
        g = make("ring-3", {"P1": (P1, 2), "P2": (P2, 2), "P3": (P3, 1)})  # a board without the Island
        with pytest.raises(IllegalOrderError, match=r"this board has no Island \(P0\)"):
            g.submit(P1, "March! 1 from P1 to the Island")

    def test_only_march_orders_on_the_island_and_only_with_seafarers_off_it(self):
        g = island_game(island=P1)
        assert g.legal_orders(P1, ISLAND) and all(isinstance(o, March) for o in g.legal_orders(P1, ISLAND))
        with pytest.raises(IllegalOrderError, match="only receive a March"):
            g.submit(P1, f"Fortify! {ISLAND}")
        assert island_game(cards=(), island=P1).legal_orders(P1, ISLAND) == []

    def test_supply_limit_one(self):
        g = island_game()
        orders(g, {P1: f"March! 2 from P1 to {ISLAND}"})
        assert g.state.provinces[ISLAND].units == 1

    def test_control_three_vps_and_lost_the_moment_the_units_leave(self):
        g = island_game()
        before = victory_points(g.state, P1)
        capture(g)
        assert victory_points(g.state, P1) == before + 3 and g.view(P2)["sanctum_holder"] == P1
        next_orders(g)
        g.state.cards_this_turn = [(C.SEA, C.SEAFARERS)]
        g.submit(P1, f"March! 1 from {ISLAND} to P1")
        g.advance(force=True)
        assert g.state.provinces[ISLAND].owner is None and victory_points(g.state, P1) == before
        assert g.view(P2)["sanctum_holder"] is None

    def test_holder_defends_the_island(self):
        g = island_game(island=P1)
        ev = orders(g, {P2: f"March! 1 from P2 to {ISLAND}"})
        assert event(ev, "battle").data["roles"] == {P2: "attacker", P1: "defender"}

    def test_no_production_from_the_island(self):
        g = island_game(island=P1, cards=())
        orders(g, {})
        assert g.state.players[P1].realm == 100 + 50


class TestEnchantedWeapons:
    def test_plus_one_with_a_unit_committed(self):
        g = dragon_attack(island_game(island=P1), 3)
        ev = fight(g, {P1: "1 from P1"})
        assert event(ev, "dragon_battle").data["contributions"][P1]["us"] == 2

    def test_nothing_without_a_unit(self):
        g = dragon_attack(island_game(island=P1), 3)
        ev = fight(g, {P2: "2 from P2"})
        assert event(ev, "dragon_battle").data["contributions"][P1]["us"] == 0

    def test_island_units_cannot_be_committed(self):
        g = dragon_attack(island_game(island=P1), 3)
        with pytest.raises(IllegalOrderError, match="Island"):
            g.submit(P1, f"1 from {ISLAND}")


class TestWizardSanctum:
    def test_gain_another_factions_ability_until_control_is_lost(self):
        g = capture(island_game())
        offered = {a.arg for a in g.legal_abilities(P1) if a.name == "sanctum"}
        assert "gain defenders_of_the_realm" in offered and "gain crusade" not in offered  # own faction
        assert not [a for a in g.legal_abilities(P2) if a.name == "sanctum"]
        g.submit(P1, "Sanctum gain Defenders of the Realm")
        g.advance(force=True)
        assert "defenders_of_the_realm" in ability_flags(g.state, P1)
        told = [e.text for e in g.events(P1) if e.kind == "sanctum"]
        assert told and not [e for e in g.events(P2) if e.kind == "sanctum"]
        assert "chooses to gain Defenders of the Realm (tier 2)" in told[0]  # the rulebook's name, not the key
        while g.step != "orders":
            g.advance(force=True)
        g.state.cards_this_turn = [(C.SEA, C.SEAFARERS)]
        g.submit(P1, f"March! 1 from {ISLAND} to P1")
        g.advance(force=True)
        assert "defenders_of_the_realm" not in ability_flags(g.state, P1)

    def test_refresh_a_used_one_time_ability_reverts_with_control(self):
        g = capture(island_game(used_abilities={P1: ["faith_alone"]}))
        assert "faith_alone" not in names(g, P1)
        assert "refresh faith_alone" in {a.arg for a in g.legal_abilities(P1) if a.name == "sanctum"}
        g.submit(P1, "Sanctum refresh faith_alone")
        g.advance(force=True)
        assert "faith_alone" not in g.state.players[P1].used
        while g.step != "orders":
            g.advance(force=True)
        g.state.cards_this_turn = [(C.SEA, C.SEAFARERS)]
        g.submit(P1, f"March! 1 from {ISLAND} to P1")
        g.advance(force=True)
        assert "faith_alone" in g.state.players[P1].used  # as it was before the capture

    def test_random_new_ability_without_a_choice(self):
        g = capture(island_game())
        g.submit(P1, "Bid 0")
        g.advance(force=True)
        gained = g.state.players[P1].gained
        assert len(gained) == 1 and not gained & {"crusade", "faith_alone"}
        assert g.state.sanctum["kind"] == "gain" and not g.state.sanctum["pending"]

    def test_choice_once_and_only_for_the_holder(self):
        g = capture(island_game())
        with pytest.raises(IllegalOrderError, match="Wizard Sanctum"):
            g.submit(P2, "Sanctum gain crusade")
        with pytest.raises(IllegalOrderError, match="another faction"):
            g.submit(P1, "Sanctum gain crusade")
        with pytest.raises(IllegalOrderError, match="not a one-time ability you have used"):
            g.submit(P1, "Sanctum refresh faith_alone")
        g.submit(P1, "Sanctum gain weather_forecast")
        g.advance(force=True)
        assert "weather_forecast" in ability_flags(g.state, P1)
        assert not [a for a in g.legal_abilities(P1) if a.name == "sanctum"]

    def test_echoes_and_refusals_use_the_rulebook_names(self):
        # dogfood-rules #9: "Sanctum refresh faith_alone", "weather_forecast is not another faction's ability ..."
        g = capture(island_game())
        with pytest.raises(IllegalOrderError) as err:
            g.submit(P1, "Sanctum gain Crusade!")
        assert err.value.details["rejected"][0] == {"line": "Sanctum gain Crusade!", "line_no": 1,
                                                    "reason": "Crusade! is not another faction's ability you lack"}
        with pytest.raises(IllegalOrderError) as err:
            g.submit(P1, "Sanctum refresh faith_alone")
        assert str(err.value).startswith("'Sanctum refresh Faith alone sustains us!': Faith alone sustains us! is not "
                                         "a one-time ability you have used")
        assert "Sanctum gain Weather forecast" in g.submit(P1, "Sanctum gain weather_forecast")
        g = capture(island_game(used_abilities={P1: ["faith_alone"]}))
        assert g.submit_dm(P1, "Sanctum refresh faith alone\nBid 0").read[0][2] == [
            "Sanctum refresh Faith alone sustains us!"]

    def test_a_refresh_acts_after_its_step(self):
        # dogfood-rules #7: "Sanctum refresh ..." and "Faith alone sustains us" in one DM: "already used", unexplained
        g = capture(island_game(used_abilities={P1: ["faith_alone"]}))
        with pytest.raises(IllegalOrderError) as err:
            g.submit(P1, "Sanctum refresh Faith alone sustains us\nFaith alone sustains us")
        reason = err.value.details["rejected"][0]["reason"]
        assert reason.startswith("already used") and "the 'Sanctum refresh' in this DM takes effect only after this " \
            "step" in reason
        with pytest.raises(IllegalOrderError) as err:  # a gain likewise
            g.submit(P1, "Sanctum gain The Bank of Lannuvár\nThe Bank of Lannuvár")
        assert "the 'Sanctum gain' in this DM takes effect only after this step" in str(err.value)
        with pytest.raises(IllegalOrderError) as err:  # without the Sanctum line the reason is as before
            g.submit(P1, "Faith alone sustains us")
        assert "Sanctum" not in str(err.value)

    def test_gained_crusade_adds_a_golden_march(self):
        g = capture(island_game(factions={P1: KALUAK}))
        g.submit(P1, "Sanctum gain crusade")
        g.advance(force=True)
        assert golden_limits(g.state, P1)["march"] >= 1 and "crusade" in ability_flags(g.state, P1)

    def test_no_choice_without_factions(self):
        g = make("ring-3+island", {"P1": (P1, 2), "P2": (P2, 2), "P3": (P3, 1)}, cards=(C.SEAFARERS,),
                 options={"factions": False})
        capture(g)
        with pytest.raises(IllegalOrderError, match="Wizard Sanctum"):
            g.submit(P1, "Sanctum gain crusade")
        g.submit(P1, "Bid 0")
        g.advance(force=True)
        assert not g.state.players[P1].gained


class TestPalantir:
    def test_look_at_the_sea_or_the_end_deck_for_15(self):
        g = island_game(island=P1, cards=())
        assert {a.arg for a in g.legal_abilities(P1) if a.name == "palantir"} == {"sea", "end"}
        assert not [a for a in g.legal_abilities(P2) if a.name == "palantir"]
        top = g.state.decks[C.SEA].draw[0]
        g.submit(P1, "Palantír Sea")
        assert g.state.players[P1].realm == 85
        text = f"Palantír: the top card of the Sea deck is {top}."
        assert {"deck": "sea", "card": top, "by": "Palantír", "text": text} in g.view(P1)["peeks"]
        assert not g.view(P2)["peeks"] and not [e for e in g.events(P2) if e.kind == "peek"]
        assert "Palantír" not in g.report()
        with pytest.raises(IllegalOrderError, match="already used this turn"):
            g.submit(P1, "Palantír The End")

    def test_offered_to_the_island_holder_without_factions_too(self):
        # the Palantír is the Island's, not a faction's: a game without factions still offers it (and
        # only it) to the seat holding the Island, in the seat's view as well
        g = make("ring-3+island", {"P1": (P1, 2), "P2": (P2, 2), "P3": (P3, 1), ISLAND: (P1, 1)}, cards=(),
                 options={"factions": False}, realm={P1: 100, P2: 100, P3: 100})
        assert {(a.name, a.arg) for a in g.legal_abilities(P1)} == {("palantir", "sea"), ("palantir", "end")}
        assert g.legal_abilities(P2) == [] and g.legal_abilities(P3) == []
        assert sorted(g.view(P1)["abilities"]) == ["Palantír end", "Palantír sea"]
        assert g.view(P2)["abilities"] == []

    def test_only_the_holder(self):
        g = island_game(island=P1, cards=())
        with pytest.raises(IllegalOrderError, match="controlling the Wizard Sanctum"):
            g.submit(P2, "Palantír The End")

    def test_must_afford_it(self):
        g = island_game(island=P1, cards=(), realm={P1: 14, P2: 0, P3: 0})
        with pytest.raises(IllegalOrderError, match="costs 15"):
            g.submit(P1, "Palantír Sea")


# -- the Island is no Province where a rule counts or ranks a player's Provinces (ISLAND_NOT_COUNTED; found in
# session 30: the three rules below counted it)

def test_the_great_game_counts_mainland_provinces_only():
    # rules: 003 The Great Game of politics — "for each Province controlled by a Lannuvár player, all bids are
    # counted as being 15 $Realm higher". Player#1 holds P1 and the Island: 10 + 15 = 25 < 39, Player#2 first
    # (with the Island counted, 10 + 30 = 40 > 39 put Player#1 first)
    g = make("ring-3+island", {"P1": (P1, 1), "P2": (P2, 1), "P3": (P3, 1), ISLAND: (P1, 1)},
             factions={P1: LANNUVAR}, phase="ranking", bids={P1: 10, P2: 39, P3: 0}, ranking=[P2, P1, P3])
    told = next(e.text for e in g.state.events if e.kind == "bids")
    assert "(+15: The Great Game of politics)" in told, told
    assert g.state.ranking[0] == P2


def test_nothing_to_see_here_costs_25_per_mainland_province():
    # rules: 003 Nothing to see here! — "25 $Realm for each Province they control": P1 and the Island cost 25
    g = make("ring-3+island", {"P1": (P1, 1), "P2": (P2, 1), "P3": (P3, 1), ISLAND: (P1, 1)},
             factions={P1: KALUAK}, realm={P1: 200, P2: 0, P3: 0})
    dragon_attack(g, 2)
    assert hide_cost(g.state, P1) == 25


def _snitched_on_p1(provinces):
    g = position("ring-3+island", 3, provinces, cards=(C.PIRATES,), realm={P1: 100, P2: 100, P3: 100})
    return g, play_orders(g, {P2: f"Snitch {P1}", P3: f"Snitch {P1}"})


def test_the_pirates_never_make_the_islands_unit_walk_the_plank():
    # rules: 003 Walk the Plank — "their least defended Province ... the lowest Province number" on a tie: P1 and
    # the Island hold 1 unit each; the Island (P0 inside the engine, a number the rulebook never prints) is none
    g, ev = _snitched_on_p1({"P1": (P1, 1), ISLAND: (P1, 1), "P2": (P2, 1), "P3": (P3, 1)})
    assert [e.data["province"] for e in ev if e.kind == "walk_the_plank"] == ["P1"]
    assert g.state.provinces[ISLAND].units == 1


def test_a_protector_with_units_only_on_the_island_pays_the_pirates():
    # rules: 003 Walk the Plank — "doesn't control any Provinces containing Army Units": 75 $Realm instead
    g, ev = _snitched_on_p1({"P1": (P1, 0), ISLAND: (P1, 1), "P2": (P2, 1), "P3": (P3, 1)})
    assert not [e for e in ev if e.kind == "walk_the_plank"]
    assert g.state.provinces[ISLAND].units == 1
    assert [(e.data["seat"], e.data["amount"]) for e in ev if e.kind == "pirates_payment"] == [(P1, 75)]
