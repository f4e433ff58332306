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
