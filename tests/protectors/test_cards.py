"""rules: 003 2. Reveal Cards — decks, the DPL table, and every card's effect; and Victory."""

from __future__ import annotations

import pytest

from engine.errors import IllegalOrderError
from engine.protectors import cards as C
from engine.protectors.game import Game
from engine.protectors.reveal import _play, begin_reveal, end_turn_cards
from engine.protectors.tables import dpl_increase
from engine.protectors.victory import times_up
from tests.protectors.helpers import play_orders, position, units

P = [f"Player#{i}" for i in range(1, 8)]


def five(units_=None, **kw):
    units_ = units_ or {}
    return position("ring-5", 5, {f"P{i}": (f"Player#{i}", units_.get(i, 1)) for i in range(1, 6)},
                    ranking=P[:5], realm=kw.pop("realm", dict.fromkeys(P[:5], 0)), **kw)


class TestDecks:
    def test_card_counts(self):
        assert {d: len(c) for d, c in C.DECK_CONTENTS.items()} == {"event": 10, "dragon": 7, "sea": 5, "end": 3}
        assert C.DECK_CONTENTS["event"].count(C.POWER_OVERWHELMING) == 2
        assert C.DECK_CONTENTS["dragon"].count(C.THERE_BE_DRAGONS) == 2
        assert C.DECK_CONTENTS["dragon"].count(C.MISTY_MOUNTAINS) == 3
        assert C.DECK_CONTENTS["end"].count(C.END_IS_NIGH) == 2

    def test_turn_one_fixed_cards(self):
        for seed in range(5):
            g = Game({"board": "ring-5", "seed": seed})
            g.advance(force=True)
            assert [e.data["card"] for e in g.state.events if e.kind == "card"] == [C.CALMS_OF_SUMMER,
                                                                                     C.MISTY_MOUNTAINS]

    @pytest.mark.parametrize(("turn", "decks"), [(4, ["event", "dragon"]), (5, ["event", "dragon", "sea"]),
                                                 (10, ["event", "dragon", "sea", "end"])])
    def test_decks_activate_by_turn(self, turn, decks):
        g = five(turn=turn)
        begin_reveal(g.state)
        assert g.state.reveal_queue == decks

    def test_spent_deck_reshuffles_the_discards(self):
        g = five()
        deck = g.state.decks["sea"]
        seen = [deck.pop(g.state.rng) for _ in range(5)]
        deck.discard.extend(seen)
        assert sorted(deck.pop(g.state.rng) for _ in range(5)) == sorted(C.DECK_CONTENTS["sea"])


class TestDPL:
    @pytest.mark.parametrize(("realm", "provinces", "gain"), [
        (249, 13, 1), (250, 13, 2), (350, 13, 3), (0, 14, 2), (300, 26, 4), (400, 27, 9), (349, 52, 8),
        (350, 40, 12)])
    def test_hoarding_table(self, realm, provinces, gain):
        assert dpl_increase(realm, provinces) == gain

    def test_each_card_uses_the_richest_player(self):
        g = five(realm={**dict.fromkeys(P[:5], 10), "Player#3": 260})
        _play(g.state, "event", C.CALMS_OF_SUMMER)
        assert g.state.dpl == 2

    def test_power_overwhelming_adds_provinces(self):
        g = five()
        _play(g.state, "event", C.POWER_OVERWHELMING)
        assert g.state.dpl == 1 + 5

    def test_black_swan_reshuffles_and_plays_another(self):
        g = five()
        g.state.decks["event"].draw = [C.DEEP_SNOW]
        g.state.decks["event"].discard = [C.FLOOD]
        _play(g.state, "event", C.BLACK_SWAN)
        played = [c for _, c in g.state.cards_this_turn]
        assert len(played) == 1 and played[0] in (C.DEEP_SNOW, C.FLOOD, C.BLACK_SWAN)
        assert g.state.dpl >= 2  # both the Black Swan and its replacement were revealed and played


class TestTheEnd:
    def test_end_is_nigh_locks_this_turns_cards(self):
        g = five()
        for deck, card in (("event", C.DEEP_SNOW), ("dragon", C.MISTY_MOUNTAINS), ("end", C.END_IS_NIGH)):
            _play(g.state, deck, card)
        end_turn_cards(g.state)
        assert [c for _, c in g.state.locked_cards] == [C.DEEP_SNOW, C.MISTY_MOUNTAINS]
        assert C.DEEP_SNOW in g.cards_in_play()

    def test_times_up_ends_after_consolidation_with_vp(self):
        g = five(phase="consolidation", realm=dict.fromkeys(P[:5], 0))
        g.state.provinces["P2"].level = 2
        g.state.times_up = True
        g.advance(force=True)
        assert g.over and g.result["how"] == "times_up" and g.result["winner"] == "Player#2"
        assert g.result["vp"]["Player#2"] == 4 and g.result["vp"]["Player#1"] == 2

    def test_the_last_turns_bid_is_not_taken_and_its_realm_breaks_the_tie(self):
        # rules: 003 Time's Up! ("the last turn"), Bidding step ("for next turn's Protector Ranking"), the
        # tiebreak "Most Army Units, Most Realm": assumption LAST_TURN_NO_BID. Spent, Player#4's 60 would
        # leave every tiebreak equal and the highest ranked (Player#1) would win.
        g = five(phase="consolidation", realm={**dict.fromkeys(P[:5], 0), "Player#4": 60})
        g.state.times_up = True
        g.submit("Player#4", "Bid 60")
        g.advance(force=True)
        assert g.over and g.result["winner"] == "Player#4" and g.state.players["Player#4"].realm >= 60
        told = [e for e in g.state.events if e.kind == "bid_not_taken"]
        assert [(e.visible_to, e.data["asked"]) for e in told] == [({"Player#4"}, 60)]
        assert "Time's Up!" in told[0].text and all(e.kind != "bid_not_taken" for e in g.events("Player#1"))

    def test_tie_breakers_units_then_realm_then_ranking(self):
        g = five({3: 2})
        times_up(g.state)
        assert g.result["winner"] == "Player#3"  # equal VP, most Army Units
        g = five(realm={**dict.fromkeys(P[:5], 0), "Player#4": 5})
        times_up(g.state)
        assert g.result["winner"] == "Player#4"  # equal VP and units, most $Realm
        g = five()
        times_up(g.state)
        assert g.result["winner"] == "Player#1"  # all equal: highest ranked


class TestVictory:
    def test_last_man_standing(self):
        g = position("ring-4", 2, {"P1": ("Player#1", 2), "P2": ("Player#2", 1)})
        play_orders(g, {"Player#1": "March! 2 from P1 to P2"})
        assert g.over and (g.result["how"], g.result["winner"]) == ("last_man_standing", "Player#1")

    def test_dragon_wins_at_66_percent_burnt(self):
        g = position("ring-10", 2, {"P1": ("Player#1", 1), "P2": ("Player#2", 1),
                                    **{f"P{i}": (None, 0, 0, True) for i in range(3, 9)}})
        g.state.provinces["P9"].burnt = True
        g.advance(force=True)
        assert g.over and g.result["how"] == "dragon"  # 7 of 10 >= ceil(6.6)


class TestCardEffects:
    def test_flood_blocks_marches_and_support(self):
        g = five({1: 2}, cards=(C.FLOOD,))
        with pytest.raises(IllegalOrderError, match="Flood!"):
            g.submit("Player#1", "March! 1 from P1 to P2")
        with pytest.raises(IllegalOrderError, match="Flood!"):
            g.submit("Player#1", "Support! Player#2 in P2 from P1")

    def test_seafarers_lets_marches_reach_any_province(self):
        g = five({1: 2}, cards=(C.SEAFARERS,))
        play_orders(g, {"Player#1": "March! 2 from P1 to P3"})
        assert units(g, "P3") == ("Player#1", 2)

    def test_seafarers_support_still_needs_a_land_border(self):
        g = five({1: 2}, cards=(C.SEAFARERS,))
        with pytest.raises(IllegalOrderError, match="not adjacent"):
            g.submit("Player#1", "Support! Player#1 in P3 from P1")

    def test_ferry_costs_25_per_province_and_unpaid_ferries_drop_from_the_highest(self):
        g = position("ring-10", 2, {"P1": ("Player#1", 1), "P2": ("Player#1", 1), "P6": ("Player#2", 0)},
                     cards=(C.FERRY,), realm={"Player#1": 30, "Player#2": 0})
        with pytest.raises(IllegalOrderError, match="Ferry P1"):
            g.submit("Player#1", "March! 1 from P1 to P6")
        ev = play_orders(g, {"Player#1": "Ferry P1\nFerry P2\nMarch! 1 from P1 to P6\nMarch! 1 from P2 to P7"})
        assert units(g, "P6") == ("Player#1", 1) and units(g, "P2") == ("Player#1", 1)
        assert any(e.kind == "invalid_order" for e in ev)

    def test_restlessness_forbids_fortify(self):
        g = five(cards=(C.RESTLESSNESS,))
        with pytest.raises(IllegalOrderError, match="Restlessness"):
            g.submit("Player#1", "Fortify! P1")

    def test_heavy_rains_weaken_each_support(self):
        g = five({1: 2, 2: 1, 3: 2}, cards=(C.HEAVY_RAINS,))
        ev = play_orders(g, {"Player#3": "March! 2 from P3 to P2", "Player#1": "Support! Player#2 in P2 from P1"})
        b = next(e for e in ev if e.kind == "battle")
        assert b.data["us"] == {"Player#2": 1 + (2 - 1), "Player#3": 2}

    def test_crab_infestation_lowers_supply(self):
        g = five({1: 3}, cards=(C.CRAB_INFESTATION,))
        play_orders(g, {})
        assert g.state.provinces["P1"].units == 2

    def test_plague_resolves_from_the_lowest_province(self):
        g = position("ring-10", 2, {"P1": ("Player#1", 1), "P2": ("Player#1", 1), "P3": ("Player#1", 2),
                                    "P6": ("Player#2", 1)})
        _play(g.state, "sea", C.PLAGUE)
        # P1 loses its unit (P2 friendly); P2 then loses (P3 friendly); P3 keeps both (no friendly units left)
        assert [g.state.provinces[p].units for p in ("P1", "P2", "P3")] == [0, 0, 2]


class TestCardTiming:
    """rules: 003 2. Reveal Cards — each card's timing: when it acts and how long it stays in play."""

    def test_black_swan_reshuffles_every_event_card_including_itself_into_the_deck(self):
        # "Reshuffle ALL Event Cards (including this one), draw a new one and play it"
        g = five()
        deck = g.state.decks["event"]
        deck.draw, deck.discard = [C.DEEP_SNOW], [C.FLOOD, C.WINTER_STORMS]
        _play(g.state, "event", C.BLACK_SWAN)
        played = [c for _, c in g.state.cards_this_turn]
        assert deck.discard == [] and len(played) == 1
        assert sorted(deck.draw + played) == sorted([C.DEEP_SNOW, C.FLOOD, C.WINTER_STORMS, C.BLACK_SWAN])

    def test_a_spent_deck_is_rebuilt_from_its_discard_pile_only(self):
        # "If a deck ever runs out of cards the discard pile is shuffled to create a new deck" (cards kept in play
        # by The End is Nigh! are in neither pile)
        g = five()
        deck = g.state.decks["dragon"]
        deck.draw, deck.discard = [], [C.BLOODLUST, C.MISTY_MOUNTAINS]
        assert sorted(deck.pop(g.state.rng) for _ in range(2)) == sorted([C.BLOODLUST, C.MISTY_MOUNTAINS])
        assert deck.draw == [] and deck.discard == []

    def test_times_up_makes_this_the_last_turn(self):
        g = five(turn=10)
        assert not g.state.times_up
        _play(g.state, "end", C.TIMES_UP)
        assert g.state.times_up  # "This will be the last turn of the game." (ends after Consolidation)

    def test_only_the_turn_of_the_end_is_nigh_locks_its_cards(self):
        g = five(turn=10)
        for deck, card in (("event", C.DEEP_SNOW), ("end", C.END_IS_NIGH)):
            _play(g.state, deck, card)
        end_turn_cards(g.state)
        _play(g.state, "event", C.FLOOD)  # a later turn, without The End is Nigh!
        end_turn_cards(g.state)
        assert g.state.locked_cards == [("event", C.DEEP_SNOW)] and C.FLOOD in g.state.decks["event"].discard

    @staticmethod
    def reveal(g, deck, locked, top, dpl=0):
        """Turn 11's Reveal Cards of ``deck`` alone, ``locked`` kept in play by an earlier The End is Nigh!."""
        st = g.state
        st.locked_cards = [(deck, locked)]
        st.decks[deck].draw.insert(0, top)
        st.dpl = dpl
        st.step, st.reveal_queue = "reveal", [deck]
        g._run()
        return st

    def test_a_locked_card_is_resolved_again_after_the_new_card_of_its_deck_adding_no_dpl(self):
        # The End is Nigh!: "cards drawn and played on a given turn are resolved first, before cards that already
        # were in play" (assumption END_IS_NIGH_RESOLUTION): Power Overwhelming adds the 5 Provinces again
        st = self.reveal(five(turn=11), "event", C.POWER_OVERWHELMING, C.CALMS_OF_SUMMER)
        assert st.dpl == 1 + 5 and st.step == "orders" and st.attack is None

    def test_a_locked_power_overwhelming_reaching_the_threshold_makes_the_dragon_attack(self):
        # 4 + 1 (Calms of Summer) + 5 = 10 = 2 x 5 Provinces
        st = self.reveal(five(turn=11), "event", C.POWER_OVERWHELMING, C.CALMS_OF_SUMMER, dpl=4)
        assert st.step == "dragon" and (st.attack.source, st.attack.dpl) == ("threshold", 10)

    def test_a_locked_there_be_dragons_attacks_again(self):
        st = self.reveal(five(turn=11), "dragon", C.THERE_BE_DRAGONS, C.MISTY_MOUNTAINS)
        assert st.step == "dragon" and (st.attack.source, st.attack.dpl) == ("card", 1)


class TestSeaCardDetails:
    def test_plague_spares_units_without_a_friendly_neighbour(self):
        # "with a friendly neighbouring Province": an enemy's units next door are no cause
        g = five({1: 2, 2: 2, 3: 2})
        _play(g.state, "sea", C.PLAGUE)
        assert [g.state.provinces[f"P{i}"].units for i in range(1, 4)] == [2, 2, 2]

    def test_plague_under_flood_finds_no_neighbours(self):
        # Flood!: "All Provinces are counted as having zero neighbouring Provinces this turn" (PLAGUE_UNDER_FLOOD)
        g = position("ring-10", 2, {"P1": ("Player#1", 2), "P2": ("Player#1", 2), "P6": ("Player#2", 1)},
                     cards=(C.FLOOD,))
        _play(g.state, "sea", C.PLAGUE)
        assert (g.state.provinces["P1"].units, g.state.provinces["P2"].units) == (2, 2)

    @pytest.mark.parametrize("sea", [C.SEAFARERS, C.FERRY])
    def test_seafarers_and_the_ferry_let_marches_through_a_flood(self, sea):
        # Flood! note: "Both Seafarers! and Ferry! does allow for March! orders to be played even if this card is
        # active."
        g = five({1: 2}, cards=(C.FLOOD, sea), realm=dict.fromkeys(P[:5], 25))
        dm = "March! 2 from P1 to P3" if sea == C.SEAFARERS else "Ferry P1\nMarch! 2 from P1 to P3"
        play_orders(g, {"Player#1": dm})
        assert units(g, "P3") == ("Player#1", 2)


class TestWalkThePlank:
    """rules: 003 Walk the Plank — "the Province belonging to the Protector Walking the Plank that will have the
    lowest Defender US during this phase (but does contain at least 1 Army Unit) will be attacked ... If there are
    more than 1 potential Province eligible for attack, they will attack the one with the lowest Province number"
    (assumption PLANK_DEFENDER_US: units and the Protector's own Fortify!/Work, work!)."""

    def plank(self, provinces, dms):
        g = position("ring-10", 3, provinces, cards=(C.PIRATES,), realm=dict.fromkeys(P[:3], 100))
        ev = play_orders(g, {"Player#1": "Snitch Player#2", **dms})
        return g, next(e for e in ev if e.kind == "walk_the_plank").data["province"]

    def test_a_fortified_province_is_better_defended(self):
        provs = {"P1": ("Player#1", 1), "P3": ("Player#2", 1), "P6": ("Player#2", 1), "P9": ("Player#3", 1)}
        g, hit = self.plank(provs, {"Player#2": "Fortify! P3"})
        assert hit == "P6" and (g.state.provinces["P3"].units, g.state.provinces["P6"].units) == (1, 0)

    def test_a_tie_is_the_lowest_province_number(self):
        provs = {"P1": ("Player#1", 1), "P3": ("Player#2", 2), "P6": ("Player#2", 1), "P8": ("Player#2", 1),
                 "P9": ("Player#3", 1)}
        _, hit = self.plank(provs, {})
        assert hit == "P6"

    def test_the_report_says_who_snitched_before_the_kill_it_leads_to(self):
        # rules: 003 Snitches, then Walk the Plank: the snitching decides who walks the plank, so the report reads
        # "Pirates! snitches: ..." first (it read the kill first, then its cause)
        g = position("ring-10", 3, {"P1": ("Player#1", 1), "P3": ("Player#2", 1), "P9": ("Player#3", 1)},
                     cards=(C.PIRATES,), realm=dict.fromkeys(P[:3], 100))
        ev = play_orders(g, {"Player#1": "Snitch Player#2"})
        kinds = [e.kind for e in ev if e.kind in ("snitches", "walk_the_plank")]
        assert kinds == ["snitches", "walk_the_plank"]
        report = g.report(g.state.turn)
        assert report.index("Pirates! snitches:") < report.index("The Pirates kill 1 Army Unit")

    def test_between_two_protectors_the_snitch_table_holds(self):
        # the unanimous exception needs "more than 2 Protectors in the game": with 2, the table's rows apply
        g = position("ring-4", 2, {"P1": ("Player#1", 1), "P3": ("Player#2", 2)}, cards=(C.PIRATES,))
        ev = play_orders(g, {"Player#1": "Snitch Player#2"})
        e = next(e for e in ev if e.kind == "snitches")
        assert e.data["plank"] == ["Player#2"] and e.data["due"] == {"Player#2": 25}


class TestCardReadings:
    def test_plague_friendly_means_the_same_players_units_not_a_team_mates(self):
        # assumption PLAGUE_FRIENDLY_OWN
        g = position("ring-4", 4, {f"P{i}": (f"Player#{i}", 2) for i in range(1, 5)}, teams=["A", "A", "B", "B"],
                     options={"teams": True})
        _play(g.state, "sea", C.PLAGUE)
        assert [g.state.provinces[f"P{i}"].units for i in range(1, 5)] == [2, 2, 2, 2]

    def test_imarins_blessings_makes_a_burnt_province_produce_not_count_for_min_us(self):
        # assumption IMARINS_PRODUCTION_ONLY: "Grey burnt-out Provinces act as normal this turn" is about production
        from tests.protectors.helpers import dragon_attack

        g = position("ring-7", 2, {"P1": ("Player#1", 1), "P2": ("Player#1", 1, 0, True), "P5": ("Player#2", 1)},
                     cards=(C.IMARINS_BLESSINGS,))
        dragon_attack(g, 1, "elimination")
        told = [e for e in g.state.events if e.kind == "min_us"][-1]
        assert told.data["min_us"] == {"Player#1": 1, "Player#2": 1}


# rules: 003 The End is Nigh! — a deck's cards locked in play resolve after the card drawn this turn, and the attack
# that card triggered starts after them (assumption LOCKED_CARDS_BEFORE_ATTACK; the threshold's "immediately" could
# be read as interrupting the deck, which a position could not hold mid-deck)
def test_a_locked_power_overwhelming_resolves_before_the_attack_the_new_card_triggered():
    five = [f"Player#{i}" for i in range(1, 6)]
    g = position("ring-5", 5, {f"P{i}": (five[i - 1], 1) for i in range(1, 6)}, ranking=five, turn=11,
                 realm=dict.fromkeys(five, 0))
    st = g.state
    st.locked_cards = [(C.EVENT, C.POWER_OVERWHELMING)]
    st.decks[C.EVENT].draw.insert(0, C.CALMS_OF_SUMMER)
    st.dpl = 9  # + 1 for the new card = 10, the threshold (2 x 5): the attack is due
    st.step, st.reveal_queue = "reveal", [C.EVENT]
    g._run()
    assert g.step == "dragon" and st.attack.source == "threshold"
    assert (st.attack.dpl, st.attack.worldeater) == (15, True)  # 10, then the locked card: 3 x 5 Provinces
