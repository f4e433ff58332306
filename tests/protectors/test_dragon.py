"""rules: 003 Dragon Attack — triggers, commitments, outcomes, Wrath, Worldeater, No Quarter!."""

from __future__ import annotations

import pytest

from engine.errors import IllegalOrderError
from engine.protectors import cards as C
from engine.protectors.reveal import _play
from engine.protectors.victory import power_threshold
from tests.protectors.helpers import dragon_attack, event, fight, play_orders, position

P = [f"Player#{i}" for i in range(1, 8)]


def seven(units=None, **kw):
    units = units or {}
    return position("ring-7", 7, {f"P{i}": (f"Player#{i}", units.get(i, 1)) for i in range(1, 8)},
                    ranking=P, realm=dict.fromkeys(P, 0), **kw)


class TestThresholdExample:
    """Work, work! scenario 2: 7 Provinces, DPL 13; an elimination lowers the threshold to 12 and the
    Dragon attacks at once; 3 working units give 0/1/2 US for 1/2/3 committed."""

    def game(self):
        g = seven({1: 3, 2: 3, 7: 1}, dpl=13)
        play_orders(g, {"Player#1": "March! 3 from P1 to P7", "Player#2": "Work, work! P2"})
        return g

    def test_elimination_triggers_an_attack(self):
        g = self.game()
        assert g.state.players["Player#7"].eliminated
        assert power_threshold(g.state) == 12
        assert g.step == "dragon" and g.state.attack.source == "elimination" and g.state.attack.dpl == 13

    @pytest.mark.parametrize(("committed", "us"), [(1, 0), (2, 1), (3, 2)])
    def test_working_units_fight_at_minus_one(self, committed, us):
        g = self.game()
        ev = fight(g, {"Player#2": f"{committed} from P2"})
        assert event(ev, "dragon_battle").data["contributions"]["Player#2"]["us"] == us

    def test_the_revealed_commitment_says_why_a_working_unit_adds_no_us(self):
        g = self.game()
        ev = fight(g, {"Player#2": "1 from P2", "Player#1": "3 from P7"})
        said = {e.data["seat"]: e.text for e in ev if e.kind == "commitment"}
        assert said["Player#2"] == "Player#2 commits 1 from P2: US 0 (Work, work! in P2: -1 each) of min.US 1."
        assert said["Player#1"] == "Player#1 commits 3 from P7: US 3 of min.US 2."

    def test_a_seat_that_turns_off_the_lights_and_names_provinces_to_burn_is_told_so(self):
        # dogfood: "Zoë commits Burn P1; Burn P30: US 0 of min.US 2" read as a commitment named Burn
        g = self.game()
        ev = fight(g, {"Player#2": "Turn off the lights\nBurn P2", "Player#1": "1 from P7\nBurn P7"})
        said = {e.data["seat"]: e.text for e in ev if e.kind == "commitment"}
        lights_out = "Player#2 commits nothing (turns off the lights); names P2 to burn: US 0 of min.US 1."
        assert said["Player#2"] == lights_out
        assert said["Player#1"].startswith("Player#1 commits 1 from P7; names P7 to burn: US 1")

    def test_committing_every_working_unit_discards_the_work_income(self):
        incomes = {}
        for committed in (2, 3):
            g = self.game()
            # everyone else meets min.US, so nobody burns and the game goes on to production
            others = {"Player#1": "3 from P7", **{f"Player#{i}": f"1 from P{i}" for i in range(3, 7)}}
            ev = fight(g, {"Player#2": f"{committed} from P2", **others})
            incomes[committed] = next(e.data["amount"] for e in ev if e.kind == "production"
                                      and e.data["seat"] == "Player#2")
        assert incomes == {2: 100, 3: 50}

    def test_dragon_victory_halves_the_dpl_rounding_up(self):
        g = self.game()
        fight(g, {})
        assert g.state.dpl == 7


class TestCommitmentExample:
    """"2 from P6 (sac 2), 1 from P7": 3 US against a min.US of 2; if the Protectors win, the two
    sacrificed units die in P6, the P7 unit returns, and the reward is 150 $Realm."""

    def test_sac_and_reward(self):
        g = position("ring-7", 3, {"P6": ("Player#1", 2), "P7": ("Player#1", 1), "P1": ("Player#2", 1),
                                   "P3": ("Player#3", 1)}, realm=dict.fromkeys(P[:3], 0))
        dragon_attack(g, 2)
        ev = fight(g, {"Player#1": "2 from P6 (sac 2), 1 from P7"})
        assert event(ev, "dragon_battle").data["won"]
        assert g.state.provinces["P6"].units == 0 and g.state.provinces["P7"].units == 1
        assert g.state.players["Player#1"].realm == 150  # 2 green Provinces; 3 < 2 x min.US: no bonus
        assert g.state.players["Player#1"].vp == 3  # the most US above min.US: Grand Protector
        assert g.state.ranking[0] == "Player#1" and g.state.dpl == 0

    def test_casualties_never_take_units_that_stayed_home(self):
        # sac 0 on both lines (legal in a DM) leaves both casualties to the default order: lowest
        # number first, but only from the units committed there: P6's 1 (of 3), then 1 of P7's 2
        g = position("ring-7", 3, {"P6": ("Player#1", 3), "P7": ("Player#1", 2), "P1": ("Player#2", 1),
                                   "P3": ("Player#3", 1)}, realm=dict.fromkeys(P[:3], 0))
        dragon_attack(g, 2)
        ev = fight(g, {"Player#1": "1 from P6 (sac 0), 2 from P7 (sac 0)"})
        assert event(ev, "dragon_battle").data["won"]
        assert g.state.provinces["P6"].units == 2 and g.state.provinces["P7"].units == 1

    def test_a_sac_says_where_the_min_us_losses_come_from_not_how_many_and_the_answer_says_so(self):
        # dogfood: "3 from P9 (sac 3)" lost 1 unit and "2 from P5 (sac 1)" lost 2, both without a word. rules: 003
        # Resolving a Dragon Attack: the Protector loses units equal to its min.US ("sac 2 on Province#6 ... will lose
        # two Army Units (as given by their min.US contribution) from this Province")
        def attack(units6, units7=1):
            g = position("ring-7", 3, {"P6": ("Player#1", units6), "P7": ("Player#1", units7),
                                       "P1": ("Player#2", 1), "P3": ("Player#3", 1)}, realm=dict.fromkeys(P[:3], 0))
            return dragon_attack(g, 2)

        g = attack(3)  # min.US 2, sac 3 in P6: 2 are lost there, not 3
        answer = g.submit_dm("Player#1", "3 from P6 (sac 3)")
        assert answer.warnings == ["3 from P6 (sac 3): if the Protectors win you lose 2 units (P6 2), as many as your "
                                   "min.US 2 (003 Resolving a Dragon Attack); a sac says which Province they come "
                                   "from first, not how many (if the Dragon wins, every unit you commit is lost)"]
        ev = fight(g, {})
        assert event(ev, "dragon_battle").data["won"] and g.state.provinces["P6"].units == 1
        assert event(ev, "dragon_outcome").data["lost"] == {"P6": 2}

        g = attack(2, 2)  # sac 1 in P6 of a min.US 2: the second from P7
        answer = g.submit_dm("Player#1", "2 from P6 (sac 1), 2 from P7")
        assert "you lose 2 units (P6 1, P7 1)" in answer.warnings[0]
        fight(g, {})
        assert (g.state.provinces["P6"].units, g.state.provinces["P7"].units) == (1, 1)

        g = attack(2)  # the rulebook's own example: it does what it says, so nothing is added
        assert g.submit_dm("Player#1", "2 from P6 (sac 2), 1 from P7").warnings == []

        g = attack(1)  # US 1 of min.US 2: every committed unit is lost, whatever the sac says
        answer = g.submit_dm("Player#1", "1 from P6 (sac 0)")
        assert answer.warnings == ["1 from P6 (sac 0): your US 1 is below your min.US 2, so every unit you commit is "
                                   "lost whoever wins (003 Resolving a Dragon Attack); a sac only says where the "
                                   "units lost come from when the min.US is met"]


class TestOutcomes:
    def test_bonus_rewards(self):
        g = position("ring-7", 3, {"P1": ("Player#1", 3), "P2": ("Player#2", 2), "P4": ("Player#3", 1)},
                     realm=dict.fromkeys(P[:3], 0))
        dragon_attack(g, 4)
        fight(g, {"Player#1": "3 from P1", "Player#2": "2 from P2"})
        p1, p2 = g.state.players["Player#1"], g.state.players["Player#2"]
        # Player#1: 3 US >= max(3, 3x1): +2 VP and 30 per US above min.US, plus the 100 reward; GP +3 VP
        assert (p1.realm, p1.vp) == (100 + 60, 2 + 3)
        # Player#2: 2 US >= max(2, 2x1): +1 VP and 15 per US above min.US
        assert (p2.realm, p2.vp) == (100 + 15, 1)
        assert g.state.provinces["P1"].units == 2 and g.state.provinces["P2"].units == 1

    def test_failed_min_us_loses_committed_units_even_in_victory(self):
        g = position("ring-7", 3, {"P1": ("Player#1", 3), "P2": ("Player#1", 1), "P3": ("Player#1", 1),
                                   "P5": ("Player#2", 3), "P6": ("Player#3", 1)}, realm=dict.fromkeys(P[:3], 0))
        dragon_attack(g, 2)
        ev = fight(g, {"Player#1": "2 from P1", "Player#2": "3 from P5"})
        assert event(ev, "dragon_battle").data["won"]
        assert g.state.provinces["P1"].units == 1 and g.state.players["Player#1"].realm == 0

    def test_dragon_wins_wrath_drop_and_grand_protector_loses_realm(self):
        g = position("ring-7", 3, {"P1": ("Player#1", 1), "P2": ("Player#2", 1), "P3": ("Player#2", 1),
                                   "P5": ("Player#3", 1)}, ranking=P[:3], realm={"Player#1": 80, "Player#2": 40,
                                                                                  "Player#3": 10})
        dragon_attack(g, 9)
        ev = fight(g, {"Player#3": "1 from P5"})
        assert not event(ev, "dragon_battle").data["won"]
        st = g.state
        assert st.players["Player#1"].realm == 0 and not st.players["Player#1"].eliminated  # the GP
        assert st.provinces["P2"].burnt and st.provinces["P3"].burnt  # 2 short: lowest-numbered green
        assert st.players["Player#2"].eliminated and st.players["Player#2"].eliminated_by == "dragon"
        assert st.ranking == ["Player#3", "Player#1"]  # P3 met min.US, the GP dropped
        assert st.provinces["P5"].units == 0 and st.dpl == 5

    def test_the_island_is_not_a_green_province(self):
        """rules: 003 min.US = the green Provinces a player controls; 003 Island Rules — its units cannot
        fight the Dragon (assumption GREEN_MAINLAND): it adds no min.US, the Wrath never burns it, and a seat
        whose last green Province burns is eliminated though it holds the Island."""
        g = position("ring-7+island", 3, {"P1": ("Player#1", 1), "P2": ("Player#2", 1), "P0": ("Player#2", 1),
                                          "P5": ("Player#3", 1)}, ranking=P[:3], realm=dict.fromkeys(P[:3], 0))
        assert g.state.board.island == "P0" and g.state.green_counts() == {"Player#1": 1, "Player#2": 1,
                                                                             "Player#3": 1}
        dragon_attack(g, 9)
        ev = fight(g, {"Player#3": "1 from P5"})
        battle = event(ev, "dragon_battle").data
        assert not battle["won"] and battle["contributions"]["Player#2"]["min_us"] == 1  # P2 only, not P0
        st = g.state
        assert st.provinces["P2"].burnt and not st.provinces["P0"].burnt  # 1 short: P2, never the Island
        assert st.players["Player#2"].eliminated and st.players["Player#2"].eliminated_by == "dragon"

    def test_wrath_burns_the_chosen_province(self):
        g = position("ring-7", 3, {"P1": ("Player#1", 1), "P2": ("Player#2", 1), "P3": ("Player#2", 1),
                                   "P5": ("Player#3", 1)}, realm=dict.fromkeys(P[:3], 0))
        dragon_attack(g, 9)
        fight(g, {"Player#2": "1 from P2\nBurn P3"})
        assert g.state.provinces["P3"].burnt and not g.state.provinces["P2"].burnt
        assert g.state.provinces["P3"].owner is None

    def test_a_province_named_to_burn_twice_is_refused_not_burnt_once_for_two_us(self):
        # a structured decision (game.submit's `decision`, an agent's) is not read from text: the Wrath took the
        # chosen Provinces up to the shortfall with the repeat counted, so 2 US short burnt P3 alone
        from engine.protectors.decisions import DragonDecision

        g = position("ring-7", 3, {"P1": ("Player#1", 1), "P2": ("Player#2", 1), "P3": ("Player#2", 1),
                                   "P4": ("Player#2", 1), "P5": ("Player#3", 1)}, realm=dict.fromkeys(P[:3], 0))
        dragon_attack(g, 9)
        with pytest.raises(IllegalOrderError, match="P3 is named to burn twice"):
            g.submit("Player#2", DragonDecision((), ("P3", "P3")))
        assert "Player#2" not in g.state.submissions

    def test_no_quarter_eliminates_the_bottom_player(self):
        g = position("ring-7", 3, {"P1": ("Player#1", 2), "P2": ("Player#2", 2), "P5": ("Player#3", 2),
                                   "P6": ("Player#3", 1)}, ranking=P[:3], realm=dict.fromkeys(P[:3], 0))
        dragon_attack(g, 20)
        fight(g, {"Player#1": "1 from P1", "Player#2": "1 from P2"})
        assert g.state.players["Player#3"].eliminated  # already last, forced to drop
        # "instead" replaces the drop, not the Wrath (outcomes table; reading option no_quarter_wrath): 2 US short,
        # both its Provinces burn; they count as ashes left by the Dragon eliminating a player
        assert g.state.provinces["P5"].burnt and g.state.provinces["P6"].burnt
        assert {"P5", "P6"} <= g.state.ashes
        kinds = [(e.kind, e.data.get("seats", e.data.get("seat"))) for e in g.state.events[-8:]]
        assert ("no_quarter", "Player#3") in kinds and ("wrath", "Player#3") in kinds
        assert not any(k == "rank_drop" for k, _ in kinds)  # nobody else dropped: no empty drop line

    def test_no_quarter_burns_one_province_per_us_short_the_chosen_first(self):
        g = position("ring-7", 3, {"P1": ("Player#1", 2), "P2": ("Player#2", 2), "P4": ("Player#3", 1),
                                   "P5": ("Player#3", 1), "P6": ("Player#3", 1)}, ranking=P[:3],
                     realm=dict.fromkeys(P[:3], 0))
        dragon_attack(g, 20)
        fight(g, {"Player#1": "1 from P1", "Player#2": "1 from P2", "Player#3": "1 from P4\nBurn P6"})
        st = g.state
        assert st.players["Player#3"].eliminated
        assert [q for q in ("P4", "P5", "P6") if st.provinces[q].burnt] == ["P4", "P6"]  # min.US 3, 1 sent
        assert st.provinces["P5"].owner is None and not st.provinces["P5"].burnt  # the rest: green, ownerless
        wrath = [e for e in st.events if e.kind == "wrath"][-1]
        assert wrath.text == "The Dragon burns P6, P4 of Player#3."

    def test_worldeater_doubles_min_us_not_rewards(self):
        g = position("ring-7", 2, {"P1": ("Player#1", 3), "P2": ("Player#1", 3), "P3": ("Player#1", 3),
                                   "P5": ("Player#2", 1)}, realm=dict.fromkeys(P[:2], 0))
        dragon_attack(g, 21)  # >= 3 x 7 Provinces
        assert g.state.attack.worldeater
        ev = fight(g, {"Player#1": "3 from P1\n3 from P2\n3 from P3", "Player#2": "1 from P5"})
        c = event(ev, "dragon_battle").data
        assert c["contributions"]["Player#1"]["min_us"] == 6 and not c["won"]

    def test_worldeater_example_reward_is_not_doubled(self):
        """rules: 003 The Mythical Worldeater — "a player that owns 3 green Provinces will have a min.US
        of 6 when fighting the Worldeater, and earn 200 $Realm if the Protectors are victorious"."""
        g = position("ring-5+island", 2, {"P1": ("Player#1", 3), "P2": ("Player#1", 3), "P3": ("Player#1", 3),
                                          "P4": ("Player#2", 3), "P5": ("Player#2", 3), "P0": ("Player#2", 1)},
                     realm={"Player#1": 0, "Player#2": 0})
        dragon_attack(g, 15)  # >= 3 x 5 Provinces: the Worldeater
        ev = fight(g, {"Player#1": "3 from P1\n3 from P2\n3 from P3", "Player#2": "3 from P4\n3 from P5"})
        battle = event(ev, "dragon_battle").data
        assert battle["won"] and battle["contributions"]["Player#1"]["min_us"] == 6  # 9 + 6 + 1 (Island) > 15
        assert g.state.players["Player#1"].realm == 200  # 3 green Provinces: 200, not doubled
        assert sum(g.state.provinces[p].units for p in ("P1", "P2", "P3")) == 9 - 6  # min.US units vaporised

    def test_minimum_attack_dpl_is_one(self):
        g = position("ring-7", 2, {"P1": ("Player#1", 1), "P5": ("Player#2", 1)}, dpl=0)
        dragon_attack(g, 0)
        assert g.state.attack.dpl == 1

    def test_island_units_cannot_fight_the_dragon(self):
        g = position("ring-7+island", 2, {"P1": ("Player#1", 1), "P0": ("Player#1", 1), "P5": ("Player#2", 1)})
        dragon_attack(g, 3)
        with pytest.raises(IllegalOrderError, match="Island can not fight the Dragon"):
            g.submit("Player#1", "1 from P0")


class TestTriggers:
    def test_threshold_with_normal_floor(self):
        g = seven()
        for i in range(2, 7):
            g.state.players[f"Player#{i}"].eliminated = True
        assert power_threshold(g.state) == 7  # 2 x (7 - 5) = 4, floored at #Provinces

    def test_grand_version_has_no_floor(self):
        g = position("ring-14", 7, {f"P{2 * i - 1}": (f"Player#{i}", 1) for i in range(1, 8)})
        for i in range(2, 7):
            g.state.players[f"Player#{i}"].eliminated = True
        assert power_threshold(g.state) == 2 * (14 - 5)

    def test_bloodlust_lowers_by_starting_players(self):
        g = seven()
        g.state.players["Player#7"].eliminated = True
        g.state.eliminated_this_turn = ["Player#7"]
        assert power_threshold(g.state, bloodlust=True) == 2 * 6 - (7 - 2)

    def test_the_view_shows_the_threshold_bloodlust_sets(self):
        # the picture and every view: the threshold that triggers the attack (dogfood: 58 shown, 44 in force)
        from engine.protectors import cards as C

        g = seven()
        g.state.players["Player#7"].eliminated = True
        g.state.eliminated_this_turn = ["Player#7"]
        assert g.view()["power_threshold"] == 2 * 6
        g.state.cards_this_turn.append((C.EVENT, C.BLOODLUST))
        assert g.view()["power_threshold"] == 2 * 6 - (7 - 2) == g.view("Player#1")["power_threshold"]

    def test_card_attack_and_after_burner(self):
        from engine.protectors import cards as C
        from engine.protectors.reveal import _play

        g = seven(dpl=13)
        _play(g.state, C.DRAGON, C.THERE_BE_DRAGONS)
        assert g.state.pending_attacks == ["card", "after_burner"]
        g.state.step = "reveal"
        g._run()
        fight(g, {s: "1 from " + f"P{i}" for i, s in enumerate(P, start=1)})  # 7 US vs 14: Dragon wins
        assert g.step == "dragon" and g.state.attack.source == "after_burner"


class TestBattleAndBonusRules:
    """rules: 003 Resolving a Dragon Attack — the outcomes table's columns, Other events 1 and 2."""

    def test_a_protector_us_equal_to_the_dpl_is_a_dragon_win(self):
        # the table's columns: "Protector US > DPL Protectors win!", "Protector US =< DPL Dragon wins..."
        g = position("ring-7", 2, {"P1": ("Player#1", 2), "P5": ("Player#2", 2)}, realm=dict.fromkeys(P[:2], 0))
        dragon_attack(g, 4)
        ev = fight(g, {"Player#1": "2 from P1", "Player#2": "2 from P5"})
        battle = event(ev, "dragon_battle").data
        assert (battle["protector_us"], battle["dpl"], battle["won"]) == (4, 4, False)
        assert g.state.dpl == 2 and g.state.provinces["P1"].units == 0  # halved; every committed unit lost

    @pytest.mark.parametrize(("committed", "vp", "bonus"), [(1, 0, 0), (2, 1, 2 * 15), (3, 2, 3 * 30)])
    def test_bonus_floors_of_2_and_3_us_with_a_min_us_of_0(self, committed, vp, bonus):
        # Other events 2: "total US contribution is >= 2US or 2 x min.US (whichever is higher)" (a), ">= 3US or
        # 3 x min.US" (b); "15/30 $Realm extra for each US they contributed above min.US". Player#1 holds only a
        # burnt-out Province: min.US 0, no reward; 1 US above it is no bonus
        g = position("ring-7", 2, {"P1": ("Player#1", 3, 0, True), "P4": ("Player#2", 1)}, ranking=P[:2],
                     realm=dict.fromkeys(P[:2], 0))
        dragon_attack(g, 1)
        ev = fight(g, {"Player#1": f"{committed} from P1", "Player#2": "1 from P4"})
        assert event(ev, "dragon_battle").data["won"]
        p1 = g.state.players["Player#1"]
        assert (p1.vp, p1.realm) == (3 + vp, bonus)  # +3: the most US above min.US, Grand Protector
        assert g.state.provinces["P1"].units == 3  # min.US 0: no unit is lost

    @pytest.mark.parametrize(("committed", "vp", "bonus"), [(3, 0, 0), (4, 1, 2 * 15), (5, 1, 3 * 15),
                                                            (6, 2, 4 * 30)])
    def test_bonus_thresholds_are_2x_and_3x_the_min_us_when_higher(self, committed, vp, bonus):
        # two green Provinces: min.US 2, reward 150; 3 US is above min.US but below 2 x 2
        g = position("ring-7", 2, {"P1": ("Player#1", 3), "P2": ("Player#1", 3), "P5": ("Player#2", 1)},
                     ranking=P[:2], realm=dict.fromkeys(P[:2], 0))
        dragon_attack(g, 1)
        first = min(committed, 3)
        dm = f"{first} from P1" + (f"\n{committed - first} from P2" if committed > first else "")
        fight(g, {"Player#1": dm, "Player#2": "1 from P5"})
        p1 = g.state.players["Player#1"]
        assert (p1.vp, p1.realm) == (3 + vp, 150 + bonus)


class TestGrandProtectorAfterAVictory:
    """rules: 003 Other events 1 — "The player adding the most Unit Strength (US) above their required min.US to
    the Protector US gains the title of Grand Protector ... and gains 3 VPs. Note: Any ties are resolved by the
    Protector Ranking as it were before the Dragon attacked." (assumption GRAND_PROTECTOR_NEEDS_SURPLUS)"""

    def game(self):
        return position("ring-7", 3, {"P1": ("Player#1", 3), "P2": ("Player#2", 3), "P3": ("Player#2", 3),
                                      "P5": ("Player#3", 3)}, ranking=P[:3], realm=dict.fromkeys(P[:3], 0))

    def test_the_most_us_above_min_us_not_the_most_us(self):
        # Player#3 holds only a burnt-out Province: min.US 0
        g = position("ring-7", 3, {"P1": ("Player#1", 3), "P2": ("Player#2", 3), "P3": ("Player#2", 3),
                                   "P5": ("Player#3", 3, 0, True)}, ranking=P[:3], realm=dict.fromkeys(P[:3], 0))
        dragon_attack(g, 1)
        # Player#2: the most US, 4, but 2 above its min.US 2; Player#3: 3 US, 3 above 0; Player#1: 2 US, 1 above 1
        fight(g, {"Player#1": "2 from P1", "Player#2": "2 from P2\n2 from P3", "Player#3": "3 from P5"})
        assert g.state.ranking == ["Player#3", "Player#1", "Player#2"]
        assert [g.state.players[s].vp for s in P[:3]] == [1, 1, 3 + 2]  # the bonus VPs, and +3 to Player#3

    def test_a_tie_above_min_us_goes_to_the_higher_ranked_before_the_attack(self):
        g = dragon_attack(self.game(), 1)
        fight(g, {"Player#1": "1 from P1", "Player#2": "2 from P2\n1 from P3", "Player#3": "2 from P5"})
        # Player#2 (3 of 2) and Player#3 (2 of 1) are both 1 above: Player#2 was ranked higher
        assert g.state.ranking == ["Player#2", "Player#1", "Player#3"] and g.state.players["Player#2"].vp == 3

    def test_nobody_above_min_us_leaves_the_ranking_as_it_was(self):
        g = dragon_attack(self.game(), 1)
        ev = fight(g, {"Player#1": "1 from P1", "Player#2": "1 from P2\n1 from P3", "Player#3": "1 from P5"})
        assert event(ev, "dragon_battle").data["won"]
        assert g.state.ranking == P[:3] and [g.state.players[s].vp for s in P[:3]] == [0, 0, 0]
        assert not [e for e in ev if e.kind == "grand_protector"]


class TestDragonVictoryRules:
    def test_several_players_dropping_keep_their_order_from_before_the_attack(self):
        """rules: 003 Dragon victory 1 — "the Protector Ranking as it were before the Dragon Attack will be used to
        determine their placements (the highest ranked player will be given the highest ranking among the affected
        players)"."""
        provs = {"P1": ("Player#1", 1), "P2": ("Player#2", 2), "P3": ("Player#2", 1), "P4": ("Player#3", 1),
                 "P5": ("Player#3", 1), "P6": ("Player#4", 1), "P7": ("Player#5", 1)}
        g = position("ring-10", 5, provs, ranking=P[:5], realm=dict.fromkeys(P[:5], 0))
        dragon_attack(g, 20)
        # Player#2 and Player#3 send 1 of their min.US 2: each loses one Province to the Wrath and drops
        ev = fight(g, {"Player#1": "1 from P1", "Player#2": "1 from P3", "Player#3": "1 from P5",
                       "Player#4": "1 from P6", "Player#5": "1 from P7"})
        assert g.state.ranking == ["Player#1", "Player#4", "Player#5", "Player#2", "Player#3"]
        # the Wrath's default: the lowest-numbered green Province, "together with any units on it"
        assert g.state.provinces["P2"].burnt and g.state.provinces["P4"].burnt and g.state.provinces["P2"].units == 0
        wrath = {e.data["seat"]: (e.data["burnt"], e.data["units_lost"]) for e in ev if e.kind == "wrath"}
        assert wrath == {"Player#2": (["P2"], 2), "Player#3": (["P4"], 1)}

    def test_a_dragon_win_that_leaves_the_dpl_at_the_threshold_attacks_again(self):
        """rules: 003 — "If the DPL at any time equals or exceeds the Power Threshold the Dragon will immediately
        launch a powerful attack" (assumption THRESHOLD_CHAIN): 2 of 7 players out, the threshold is 2 x (7 - 2) =
        10; halved from 20 to 10, the Dragon attacks again; halved again to 5, it stops. (20 < 3 x 7: no Worldeater)"""
        g = position("ring-7", 7, {f"P{i}": (f"Player#{i}", 3) for i in range(1, 6)}, ranking=P[:5],
                     realm=dict.fromkeys(P[:5], 0))
        assert power_threshold(g.state) == 10
        dragon_attack(g, 20, "threshold")
        everyone = {s: f"1 from P{i}" for i, s in enumerate(P[:5], start=1)}
        fight(g, everyone)  # 5 US <= 20
        assert g.step == "dragon" and (g.state.attack.source, g.state.attack.dpl) == ("threshold", 10)
        fight(g, everyone)  # 5 US <= 10
        assert g.state.dpl == 5 and g.step == "orders"

    def test_the_worldeater_min_us_is_announced_doubled(self):
        g = position("ring-7", 2, {"P1": ("Player#1", 3), "P2": ("Player#1", 3), "P5": ("Player#2", 1)},
                     realm=dict.fromkeys(P[:2], 0))
        dragon_attack(g, 21)
        told = [e for e in g.state.events if e.kind == "min_us"][-1]
        assert told.data["min_us"] == {"Player#1": 4, "Player#2": 2} and "(doubled: the Worldeater)" in told.text


class TestWorkSentOffToTheDragon:
    """rules: 003 Work, work! — "if some of your Army Unit(s) that received this order are still alive or were not
    all interrupted by being sent off to fight against any Dragon Attacks, they would grant you an extra income";
    the worked example: "if all 3 Army Units are committed ... the Work, work! order played in the Province will be
    discarded during the $Realm Production step" — even when the Protectors win and units come back."""

    @pytest.mark.parametrize(("committed", "income"), [(2, 100), (3, 50)])
    def test_all_units_sent_off_discards_the_work_even_when_they_come_back(self, committed, income):
        g = seven({i: 3 for i in range(1, 7)} | {7: 1}, dpl=13)
        play_orders(g, {"Player#1": "March! 3 from P1 to P7", "Player#2": "Work, work! P2"})
        assert g.state.attack.source == "elimination"
        others = {"Player#1": "3 from P7", **{f"Player#{i}": f"3 from P{i}" for i in range(3, 7)}}
        ev = fight(g, {"Player#2": f"{committed} from P2", **others})  # 3 + 12 + 1 or 2 > 13
        assert event(ev, "dragon_battle").data["won"]
        assert g.state.provinces["P2"].units == 3 - 1  # min.US 1 lost, the rest came back
        assert next(e.data["amount"] for e in ev if e.kind == "production" and e.data["seat"] == "Player#2") == income


class TestFireAndBloodByTheDragon:
    """rules: 003 Fire and blood! — "All players lose the game immediately if the Dragon at any point has eliminated
    half of the starting players (rounded up)"; "The Dragon is victorious if victory conditions 1 and 3 are
    fulfilled at the same time"."""

    def test_the_dragon_eliminating_half_the_starting_players_wins(self):
        g = position("ring-8", 4, {f"P{i}": (f"Player#{i}", 1) for i in range(1, 5)}, ranking=P[:4],
                     realm=dict.fromkeys(P[:4], 0))
        dragon_attack(g, 9)
        fight(g, {"Player#1": "1 from P1", "Player#2": "1 from P2"})  # Player#3 and #4 lose their only Province
        assert g.state.dragon_eliminations == 2 and g.over
        assert (g.result["how"], g.result["winner"]) == ("dragon", None)

    def test_last_man_standing_at_the_same_time_is_the_dragons_victory(self):
        g = position("ring-7", 3, {f"P{i}": (f"Player#{i}", 1) for i in range(1, 4)}, ranking=P[:3],
                     realm=dict.fromkeys(P[:3], 0))
        dragon_attack(g, 9)
        fight(g, {"Player#1": "1 from P1"})  # 2 of 3 eliminated by the Dragon: one left standing, and ceil(3/2)
        assert [s for s in P[:3] if not g.state.players[s].eliminated] == ["Player#1"]
        assert g.over and (g.result["how"], g.result["winner"]) == ("dragon", None)


# rules: 003 Dragon Attack, After Burner note, and THRESHOLD_CHAIN: after every attack the threshold is checked
# again. Found in session 30 by a rules audit: a threshold attack queued behind the After Burner ran after it
# unchecked, a third attack at a DPL the After Burner had left below the threshold.
SEVEN = [f"Player#{i}" for i in range(1, 8)]


def test_no_third_attack_after_the_after_burner_leaves_the_dpl_below_the_threshold():
    # ring-14 Grand, 7 players on the odd Provinces, 3 units each: threshold 2 x 14 = 28
    g = position("ring-14", 7, {f"P{2 * i - 1}": (SEVEN[i - 1], 3) for i in range(1, 8)}, ranking=SEVEN, turn=11,
                 realm=dict.fromkeys(SEVEN, 0))
    st = g.state
    st.locked_cards = [(C.DRAGON, C.BLOODLUST)]  # kept in play by The End is Nigh! on turn 10
    st.dpl = 27
    assert power_threshold(st, True) == 28
    _play(st, C.DRAGON, C.THERE_BE_DRAGONS)  # +2 (14-26 column, nobody hoards): DPL 29 >= 28
    assert st.pending_attacks == ["card", "after_burner"]
    st.step, st.reveal_queue = "reveal", []
    g._run()
    assert st.attack.source == "card" and st.attack.dpl == 29
    # Player#6 and Player#7 turn off the lights: the Dragon wins (5 US <= 29), Player#7 (last) falls to No
    # Quarter!, Player#6's only Province burns: 2 eliminated by the Dragon (Fire and blood! needs 4)
    fight(g, {s: f"1 from P{2 * i - 1}" for i, s in enumerate(SEVEN[:5], start=1)})
    assert st.players["Player#6"].eliminated and st.players["Player#7"].eliminated and not g.over
    # threshold 2 x (14 - 2) - 2 x (7 - 2) (Bloodlust!) = 14; DPL ceil(29 / 2) = 15 >= 14: the After Burner
    assert power_threshold(st, True) == 14 and st.dpl == 15
    assert st.attack.source == "after_burner" and st.attack.dpl == 15
    fight(g, {s: f"1 from P{2 * i - 1}" for i, s in enumerate(SEVEN[:5], start=1)})  # 5 US <= 15: Dragon wins
    assert st.dpl == 8 and power_threshold(st, True) == 14  # 8 < 14: the Dragon has attacked twice, and stops
    assert g.step == "orders", f"a third attack: {st.attack.source} with DPL {st.attack.dpl}"
