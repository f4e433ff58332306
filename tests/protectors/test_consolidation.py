"""rules: 003 5. Consolidation — supply, eliminations and loot, production, buying, upgrades, team
pooling; Pirates! Snitches table; the inactive player's defaults."""

from __future__ import annotations

import pytest

from engine.errors import IllegalOrderError
from engine.protectors.defaults import default_orders
from tests.protectors.helpers import play_orders, position

P = [f"Player#{i}" for i in range(1, 8)]


def five(units=None, realm=None, **kw):
    units = units or {}
    return position("ring-5", 5, {f"P{i}": (f"Player#{i}", units.get(i, 1)) for i in range(1, 6)},
                    ranking=P[:5], realm=realm or dict.fromkeys(P[:5], 0), **kw)


def produced(events, seat):
    return next(e.data["amount"] for e in events if e.kind == "production" and e.data["seat"] == seat)


class TestBuying:
    def consolidation(self, realm, *provs):
        g = position("ring-10", 2, {"P5": ("Player#1", 0), "P6": ("Player#1", 0), "P1": ("Player#2", 1)},
                     realm={"Player#1": realm, "Player#2": 0}, phase="consolidation")
        g.submit("Player#1", "Buy 2 in P6. 1 in P5.")
        g.advance(force=True)
        return g.state.provinces["P6"].units, g.state.provinces["P5"].units

    @pytest.mark.parametrize(("realm", "p6", "p5"), [(225, 2, 1), (150, 1, 1), (75, 1, 0), (74, 0, 0)])
    def test_buy_example_with_short_funds(self, realm, p6, p5):
        assert self.consolidation(realm) == (p6, p5)

    def test_the_full_instructions_example_buys_and_bids(self):
        """rules: 003 5. Consolidation — "the full instructions the player would need to send ... Buy 2 in P6. 1 in
        P5. / Bid 17": three units bought for 225, then 17 set aside and revealed as the next turn's bid."""
        g = position("ring-10", 2, {"P5": ("Player#1", 0), "P6": ("Player#1", 0), "P1": ("Player#2", 1)},
                     realm={"Player#1": 250, "Player#2": 0}, phase="consolidation")
        assert g.submit_dm("Player#1", "Buy 2 in P6. 1 in P5.\nBid 17").lines == ["Buy 2 in P6. 1 in P5.", "Bid 17"]
        ev = g.advance(force=True)
        assert (g.state.provinces["P6"].units, g.state.provinces["P5"].units) == (2, 1)
        assert next(e for e in ev if e.kind == "bids").data["bids"] == {"Player#1": 17, "Player#2": 0}
        assert g.state.players["Player#1"].realm == 250 - 3 * 75 - 17

    def test_cannot_exceed_supply_limit_by_buying(self):
        g = position("ring-10", 2, {"P5": ("Player#1", 2), "P1": ("Player#2", 1)},
                     realm={"Player#1": 500, "Player#2": 0}, phase="consolidation")
        g.submit("Player#1", "Buy 3 in P5")
        g.advance(force=True)
        assert g.state.provinces["P5"].units == 3 and g.state.players["Player#1"].realm == 425

    def test_default_buy_fills_evenly_from_the_lowest_number(self):
        g = position("ring-10", 2, {"P2": ("Player#1", 2), "P4": ("Player#1", 0), "P7": ("Player#1", 1),
                                    "P9": ("Player#2", 1)}, realm={"Player#1": 300, "Player#2": 0},
                     phase="consolidation")
        ev = g.advance(force=True)
        # 4 units, one at a time to the fewest (ties: lowest number): P4 0->1, P4 1->2, P7 1->2, P2 2->3
        assert [g.state.provinces[p].units for p in ("P2", "P4", "P7")] == [3, 2, 2]
        assert g.state.players["Player#1"].realm == 0
        assert next(e for e in ev if e.kind == "bids").data["bids"]["Player#1"] == 0


class TestTeamPooling:
    """Team Games example: 65 / 225 / 50 $Realm; Buy 2, Bid 25 (110 from Player#2); Buy 1, Bid 0;
    Buy 1, Bid 5 (30 from Player#2) -> 0 / 10 / 0, 330 spent of a 340 pool."""

    def test_pooling_example(self):
        provs = {"P1": ("Player#1", 1), "P2": ("Player#2", 1), "P3": ("Player#3", 1),
                 "P4": ("Player#4", 1), "P5": ("Player#5", 1), "P6": ("Player#6", 1)}
        g = position("ring-6", 6, provs, phase="consolidation", options={"teams": True},
                     realm={"Player#1": 65, "Player#2": 225, "Player#3": 50, "Player#4": 0, "Player#5": 0,
                            "Player#6": 0}, teams=["A", "A", "A", "B", "B", "B"])
        g.submit("Player#1", "Buy 2, Bid: 25 (110 from Player#2)")
        g.submit("Player#2", "Buy: 1, Bid: 0")
        g.submit("Player#3", "Buy: 1, Bid: 5 (30 from Player#2)")
        g.advance(force=True)
        realm = [g.state.players[f"Player#{i}"].realm for i in (1, 2, 3)]
        assert realm == [0, 10, 0]
        assert [g.state.provinces[f"P{i}"].units for i in (1, 2, 3)] == [3, 2, 2]

    def test_funding_needs_a_team_mate(self):
        g = five(phase="consolidation", realm=dict.fromkeys(P[:5], 100))
        with pytest.raises(IllegalOrderError, match="team-mate"):
            g.submit("Player#1", "Bid 5 (10 from Player#2)")


class TestEliminationAndLoot:
    def test_loot_split_rounded_down(self):
        g = position("ring-7", 3, {"P1": ("Player#1", 2), "P2": ("Player#2", 1), "P3": ("Player#2", 1),
                                   "P4": ("Player#3", 2)}, realm={"Player#1": 0, "Player#2": 101, "Player#3": 0})
        play_orders(g, {"Player#1": "March! 2 from P1 to P2", "Player#3": "March! 2 from P4 to P3"})
        st = g.state
        assert st.players["Player#2"].eliminated and st.players["Player#2"].realm == 0
        # 50% of 101 = 50, split equally: 25 each; then each produces from 2 Provinces (one empty, held)
        assert st.ledger.count((2, "Player#1", 25, "003 Eliminated by players, 50% loot")) == 1
        assert st.ledger.count((2, "Player#3", 25, "003 Eliminated by players, 50% loot")) == 1
        assert not st.owned("Player#2") and st.units_of("Player#2") == 0

    def test_the_loot_amount_is_told_to_the_looters_and_the_looted_alone(self):
        """A balance is never public: the report says who looted whom, the amount (half the eliminated
        player's $Realm) goes to the looters and the looted (LOOT_AMOUNT_PRIVATE)."""
        g = position("ring-8", 4, {"P1": ("Player#1", 2), "P2": ("Player#2", 1), "P3": ("Player#2", 1),
                                   "P4": ("Player#3", 2), "P5": ("Player#4", 1)},
                     realm={"Player#1": 0, "Player#2": 101, "Player#3": 0, "Player#4": 0})
        play_orders(g, {"Player#1": "March! 2 from P1 to P2", "Player#3": "March! 2 from P4 to P3"})
        public = g.report(turn=2)
        assert "- Player#1 and Player#3 loot Player#2's $Realm, split equally." in public
        assert "25 $Realm" not in public
        told = "- Player#1 and Player#3 loot 25 $Realm each from Player#2."
        for seat in ("Player#1", "Player#2", "Player#3"):
            assert told in g.report(turn=2, seat=seat)
        assert "25 $Realm" not in g.report(turn=2, seat="Player#4")
        loot = next(e for e in g.events() if e.kind == "loot")
        assert loot.visible_to is None and "share" not in loot.data

    def test_one_looter_is_told_in_the_singular(self):
        g = position("ring-7", 3, {"P1": ("Player#1", 2), "P2": ("Player#2", 1), "P4": ("Player#3", 1)},
                     realm={"Player#1": 0, "Player#2": 140, "Player#3": 0})
        play_orders(g, {"Player#1": "March! 2 from P1 to P2"})
        assert "- Player#1 loots Player#2's $Realm." in g.report(turn=2)
        assert "- Player#1 loots 70 $Realm from Player#2." in g.report(turn=2, seat="Player#1")
        assert "70 $Realm" not in g.report(turn=2, seat="Player#3")

    def test_supply_limit_starves_excess(self):
        g = position("ring-10", 2, {"P1": ("Player#1", 3), "P2": ("Player#1", 2), "P5": ("Player#2", 1)})
        ev = play_orders(g, {"Player#1": "March! 2 from P2 to P1"})
        assert g.state.provinces["P1"].units == 3  # 3 + 2 marched in = 5; 2 starve
        starved = next(e for e in ev if e.kind == "starved")
        assert starved.data == {"province": "P1", "lost": 2} and starved.text == "2 units of Player#1 starve in P1."

    def test_one_unit_starves_in_the_singular(self):
        g = position("ring-10", 2, {"P1": ("Player#1", 3), "P2": ("Player#1", 1), "P5": ("Player#2", 1)})
        ev = play_orders(g, {"Player#1": "March! 1 from P2 to P1"})
        assert next(e for e in ev if e.kind == "starved").text == "1 unit of Player#1 starves in P1."


class TestProduction:
    def test_levels_capitol_rule_and_burnt(self):
        g = position("ring-10", 2, {"P1": ("Player#1", 1, 3), "P2": ("Player#1", 0, 3), "P3": ("Player#1", 0, 1),
                                    "P4": ("Player#1", 0, 0, True), "P6": ("Player#2", 1)})
        ev = play_orders(g, {})
        assert produced(ev, "Player#1") == 150 + 100 + 75 + 0

    @pytest.mark.parametrize(("card", "amount"), [("Winter Storms", 0), ("Imarin's Blessings", 2 * (50 + 50 + 50))])
    def test_winter_storms_and_imarins_blessings(self, card, amount):
        g = position("ring-10", 2, {"P1": ("Player#1", 2), "P2": ("Player#1", 0, 0, True), "P6": ("Player#2", 1)},
                     cards=(card,))
        ev = play_orders(g, {"Player#1": "Work, work! P1"})
        assert produced(ev, "Player#1") == amount

    def test_work_work_scenario_one(self):
        """Player#1 marches 3 into Player#2's working P2: 3 vs 2 (3 units, -1 Work), Player#2 is out."""
        g = five({1: 3, 2: 3})
        ev = play_orders(g, {"Player#1": "March! 3 from P1 to P2", "Player#2": "Work, work! P2"})
        b = next(e for e in ev if e.kind == "battle")
        assert b.data["us"] == {"Player#1": 3, "Player#2": 2}
        assert g.state.players["Player#2"].eliminated

    def test_work_work_scenario_one_with_deep_snow(self):
        g = five({1: 3, 2: 3}, cards=("Deep Snow",))
        ev = play_orders(g, {"Player#1": "March! 3 from P1 to P2", "Player#2": "Work, work! P2"})
        b = next(e for e in ev if e.kind == "battle")
        assert b.data["us"] == {"Player#1": 2, "Player#2": 2} and b.data["winner"] == "Player#1"

    def test_surviving_work_pays_50(self):
        g = five({2: 3})
        ev = play_orders(g, {"Player#2": "Work, work! P2"})
        assert produced(ev, "Player#2") == 100

    def test_golden_work_gives_no_income_but_an_upgrade(self):
        g = five({1: 2}, realm={**dict.fromkeys(P[:5], 0), "Player#1": 0})
        ev = play_orders(g, {"Player#1": "Golden Work, work! P1"})
        assert produced(ev, "Player#1") == 50
        g.submit("Player#1", "Upgrade P1")
        g.advance(force=True)
        assert g.state.provinces["P1"].level == 1 and g.state.players["Player#1"].realm == 25

    def test_upgrade_needs_golden_work(self):
        g = five(phase="consolidation", realm=dict.fromkeys(P[:5], 100))
        with pytest.raises(IllegalOrderError, match="no successful Golden Work"):
            g.submit("Player#1", "Upgrade P1")


class TestSnitches:
    def pirates(self, dms, units=1):
        g = position("ring-4", 4, {f"P{i}": (f"Player#{i}", units) for i in range(1, 5)}, cards=("Pirates!",),
                     realm=dict.fromkeys(P[:4], 0))
        ev = play_orders(g, dms)
        return g, next(e for e in ev if e.kind == "snitches")

    def test_nobody_snitches_everyone_pays_25(self):
        _, e = self.pirates({})
        assert e.data["due"] == dict.fromkeys(P[:4], 25) and e.data["plank"] == []

    def test_one_snitched_walks_the_plank(self):
        g, e = self.pirates({"Player#1": "Snitch Player#2"}, units=2)
        assert e.data["due"] == {"Player#2": 25, "Player#3": 25, "Player#4": 25}
        assert e.data["plank"] == ["Player#2"] and g.state.provinces["P2"].units == 1

    def test_two_snitched_snitchers_pay_50(self):
        _, e = self.pirates({"Player#1": "Snitch Player#2", "Player#3": "Snitch Player#4"})
        assert e.data["due"] == {"Player#1": 50, "Player#3": 50}

    def test_unanimous_snitch_exception(self):
        _, e = self.pirates({"Player#1": "Snitch Player#2", "Player#3": "Snitch Player#2",
                             "Player#4": "Snitch Player#2", "Player#2": "Snitch Player#1"})
        assert e.data["plank"] == ["Player#2"] and e.data["due"] == {}

    def test_collected_after_production_as_much_as_possible(self):
        g, _ = self.pirates({})
        assert all(g.state.players[s].realm == 50 - 25 for s in P[:4])

    def test_a_short_payment_is_told_to_the_payer_alone(self):
        # what is due is public (the snitches and the table); what was paid, when short, is the payer's balance:
        # 'Player#1 pays the Pirates 10 $Realm' told everyone Player#1 held 10 (PIRATES_PAID_PRIVATE)
        g = position("ring-4", 4, {f"P{i}": (f"Player#{i}", 1) for i in range(1, 5)},
                     cards=("Pirates!", "Winter Storms"), realm={"Player#1": 10, "Player#2": 40, "Player#3": 0,
                                                                 "Player#4": 0})
        play_orders(g, {})
        assert [g.state.players[s].realm for s in P[:2]] == [0, 15]  # no production: 10 of 25 paid, and 25 of 40
        public = g.report(turn=2)
        for seat in P[:2]:
            assert f"- The Pirates collect the 25 $Realm {seat} owes them (as much as it holds)." in public
        assert "10 $Realm" not in public and "pays the Pirates" not in public
        assert "- Player#1 pays the Pirates 10 $Realm of the 25 due (all it held)." in g.report(turn=2, seat="Player#1")
        assert "- Player#2 pays the Pirates 25 $Realm." in g.report(turn=2, seat="Player#2")
        assert "10 $Realm" not in g.report(turn=2, seat="Player#2")

    def test_plank_without_units_pays_75(self):
        g = position("ring-4", 4, {"P1": ("Player#1", 1), "P2": ("Player#2", 0), "P3": ("Player#3", 1),
                                   "P4": ("Player#4", 1)}, cards=("Pirates!",), realm=dict.fromkeys(P[:4], 100))
        ev = play_orders(g, {"Player#1": "Snitch Player#2"})
        assert next(e for e in ev if e.kind == "snitches").data["due"]["Player#2"] == 25 + 75

    def test_snitch_only_on_pirates_turns(self):
        g = five()
        with pytest.raises(IllegalOrderError, match="Pirates"):
            g.submit("Player#1", "Snitch Player#2")


class TestInactiveDefaults:
    def test_fortify_everywhere_golden_in_lowest(self):
        g = position("ring-10", 2, {"P3": ("Player#1", 1), "P7": ("Player#1", 2), "P9": ("Player#2", 1)},
                     ranking=["Player#1", "Player#2"])
        d = default_orders(g.state, "Player#1")
        assert [o.text() for o in d.orders] == ["Golden Fortify! P3", "Fortify! P7"]

    def test_no_golden_fortify_in_bracket_four(self):
        g = five()
        assert [o.text() for o in default_orders(g.state, "Player#5").orders] == ["Fortify! P5"]

    def test_consolidation_default_is_buy_and_bid_zero(self):
        g = five(phase="consolidation", realm=dict.fromkeys(P[:5], 160))
        g.advance(force=True)
        assert g.state.provinces["P1"].units == 3 and g.state.players["Player#1"].realm == 10


class TestCapitolAndUpgrades:
    """rules: 003 Golden Work, work! — "If a player ever controls two or more lvl.3 Provinces ... in the following
    buying and bidding step the player must select one level 3 Province they control as their Capitol, any other
    lvl.3 Provinces they control will then be downgraded to lvl.2 Provinces" (a silent player keeps the
    lowest-numbered: assumption CAPITOL_DEFAULT); an upgrade is paid "25 $Realm"."""

    def two_capitols(self, realm=0):
        return position("ring-10", 2, {"P1": ("Player#1", 1, 3), "P2": ("Player#1", 1, 3), "P6": ("Player#2", 1)},
                        realm={"Player#1": realm, "Player#2": 0}, phase="consolidation")

    def test_the_named_capitol_stays_and_the_other_drops_to_level_2(self):
        g = self.two_capitols()
        g.submit("Player#1", "Capitol P2")
        g.advance(force=True)
        assert [g.state.provinces[p].level for p in ("P1", "P2")] == [2, 3]

    def test_a_silent_player_keeps_the_lowest_numbered(self):
        g = self.two_capitols()
        g.advance(force=True)
        assert [g.state.provinces[p].level for p in ("P1", "P2")] == [3, 2]

    def test_an_upgrade_not_paid_for_is_not_made(self):
        g = five(phase="consolidation", realm=dict.fromkeys(P[:5], 24))
        g.state.golden_work_done = {"P1": "Player#1"}
        g.submit("Player#1", "Upgrade P1")
        ev = g.advance(force=True)
        assert g.state.provinces["P1"].level == 0 and g.state.players["Player#1"].realm == 24
        failed = next(e for e in ev if e.kind == "upgrade_failed")
        assert failed.text == "Player#1: Upgrade P1 fails (not enough $Realm)."


def test_an_inactive_players_default_under_restlessness_of_spring_is_no_orders():
    """rules: 003 3. Negotiation and Orders — the silent player's default is Fortify!, which Restlessness of Spring
    forbids ("Fortify! orders may not be played this turn"): no orders (assumption RESTLESS_DEFAULT)."""
    g = five(cards=("Restlessness of Spring",))
    assert default_orders(g.state, "Player#1").orders == ()
    assert [o.text() for o in default_orders(five().state, "Player#1").orders] == ["Golden Fortify! P1"]
