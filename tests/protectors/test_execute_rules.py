"""rules: 003 Orders and 4. Execute Orders — the sentences the rulebook's Examples 1-7 (test_order_examples.py) do
not show: the March! and Support! order examples, Support! cancelled when its Province is attacked, Golden Support!
(focused and extended), battles of three or more players, and $Realm sent in the Negotiation and Orders phase."""

from __future__ import annotations

import pytest

from engine.errors import IllegalOrderError
from tests.protectors.helpers import play_orders, position, units

A, B, C = "Player#1", "Player#2", "Player#3"


def battles(events):
    return [e for e in events if e.kind == "battle"]


class TestMarchExamples:
    """rules: 003 March! — "March! 1 from P1 to P2": one Army Unit must march, "The other Army unit must stay
    behind in Province#1"; "March! 2 from P1 to P2" sends both."""

    @pytest.mark.parametrize(("count", "left"), [(1, 1), (2, 0)])
    def test_the_specified_number_marches_and_the_rest_stays(self, count, left):
        g = position("ring-10", 2, {"P1": (A, 2), "P2": (A, 0), "P6": (B, 1)})
        play_orders(g, {A: f"March! {count} from P1 to P2"})
        assert g.state.provinces["P1"].units == left and units(g, "P2") == (A, count)


class TestSupportExamples:
    """rules: 003 Support! — "Player#1 (controlling 2 Provinces) is looking to give support from Province#1 to
    Player#3 attacking their common neighbour Player#2 (in Province#2)": Support! Player#3 in P2 from P1."""

    def game(self):
        return position("ring-10", 3, {"P1": (A, 2), "P9": (A, 1), "P2": (B, 2), "P3": (C, 2)}, ranking=[B, A, C])

    def test_support_for_the_attacker_wins_the_battle(self):
        g = self.game()
        ev = play_orders(g, {A: "Support! Player#3 in P2 from P1", C: "March! 2 from P3 to P2"})
        (b,) = battles(ev)
        assert b.data["us"] == {B: 2, C: 2 + 2} and b.data["winner"] == C
        assert g.state.provinces["P2"].owner == C
        assert g.state.provinces["P1"].units == 2  # a supporter risks no unit

    def test_without_the_support_the_higher_ranked_defender_wins_the_tie(self):
        g = self.game()
        ev = play_orders(g, {C: "March! 2 from P3 to P2"})
        (b,) = battles(ev)
        assert b.data["us"] == {B: 2, C: 2} and b.data["winner"] == B

    def test_a_player_with_two_provinces_must_say_where_the_support_comes_from(self):
        g = self.game()
        with pytest.raises(IllegalOrderError, match="say which Province gives it"):
            g.submit(A, "Support! Player#3 in P2")


class TestSupportCancelled:
    """rules: 003 Support! — "If a Province that has been given a Support! order is attacked, the Support! order is
    cancelled" (assumption SUPPORT_CANCELLED_BY_BATTLE: attacked in the same March stage or an earlier one)."""

    def game(self):
        # Player#1 holds P1 (1 unit) and supports itself there from P2 (2 units); Player#2 attacks P1 with 2
        return position("ring-10", 3, {"P1": (A, 1), "P2": (A, 2), "P10": (B, 2), "P3": (C, 1)}, ranking=[B, A, C])

    def test_the_support_counts_when_its_province_is_not_attacked(self):
        g = self.game()
        ev = play_orders(g, {A: "Support! Player#1 in P1 from P2", B: "March! 2 from P10 to P1"})
        (b,) = battles(ev)
        assert b.data["us"] == {A: 1 + 2, B: 2} and b.data["winner"] == A

    def test_an_attack_on_the_supporting_province_cancels_the_support(self):
        g = self.game()
        ev = play_orders(
            g, {A: "Support! Player#1 in P1 from P2", B: "March! 2 from P10 to P1", C: "March! 1 from P3 to P2"}
        )
        in_p1 = next(b for b in battles(ev) if b.data["province"] == "P1")
        assert in_p1.data["us"] == {A: 1, B: 2} and in_p1.data["winner"] == B
        assert units(g, "P2") == (A, 2)  # it won its own battle, 2 vs 1

    def test_an_attack_by_a_later_delayed_march_leaves_the_earlier_battle_supported(self):
        g = self.game()
        ev = play_orders(
            g, {A: "Support! Player#1 in P1 from P2", B: "March! 2 from P10 to P1", C: "Delayed March! 1 from P3 to P2"}
        )
        in_p1 = next(b for b in battles(ev) if b.data["province"] == "P1")
        assert in_p1.data["us"] == {A: 1 + 2, B: 2} and in_p1.data["winner"] == A


class TestGoldenSupport:
    """rules: 003 Golden Orders — Golden Support! "Focused: It functions like a normal Support! order, however, it
    provides an additional +1 US"; "Extended: It does not provide an additional +1 US ... it extends the support
    range from 1 to 2"."""

    def test_focused_adds_one(self):
        # Player#1 is 2nd of 3: bracket 2 has Golden Support!; without the +1 the tie would go to Player#2
        g = position("ring-10", 3, {"P1": (A, 1), "P2": (A, 2), "P10": (B, 3), "P5": (C, 1)}, ranking=[B, A, C])
        ev = play_orders(g, {A: "Golden Support! Player#1 in P1 from P2", B: "March! 3 from P10 to P1"})
        (b,) = battles(ev)
        assert b.data["us"] == {A: 1 + 2 + 1, B: 3} and b.data["winner"] == A

    def test_extended_reaches_two_provinces_away_without_the_bonus(self):
        g = position("ring-10", 3, {"P1": (A, 1), "P3": (A, 2), "P10": (B, 2), "P6": (C, 1)}, ranking=[B, A, C])
        ev = play_orders(g, {A: "Golden Support! Player#1 in P1 from P3", B: "March! 2 from P10 to P1"})
        (b,) = battles(ev)
        assert b.data["us"] == {A: 1 + 2, B: 2} and b.data["winner"] == A

    def test_a_plain_support_reaches_only_a_neighbour(self):
        g = position("ring-10", 3, {"P1": (A, 1), "P3": (A, 2), "P10": (B, 2), "P6": (C, 1)}, ranking=[B, A, C])
        with pytest.raises(IllegalOrderError, match="not adjacent"):
            g.submit(A, "Support! Player#1 in P1 from P3")


class TestThreeOrMorePlayers:
    """rules: 003 How battles start — "If three or more players are present in a single Province. They will fight
    in multiple 1vs1 battles, starting with the lowest ranked player on the Protector Ranking fighting the second
    lowest player and so on" (assumption MULTI_BATTLE_CHAIN: the survivor fights the next)."""

    def test_the_two_lowest_ranked_fight_first(self):
        # ranking: Player#2, Player#3, Player#1. Player#1 (lowest) holds P5 with 2; the others march in with 2 each.
        # Lowest first: Player#1 vs Player#3, 2 vs 2, Player#3 wins on the ranking and keeps 1; then Player#3 (1)
        # loses to Player#2 (2). Highest first would have left Player#1 holding P5.
        g = position("ring-10", 3, {"P5": (A, 2), "P4": (B, 2), "P6": (C, 2)}, ranking=[B, C, A])
        ev = play_orders(g, {B: "March! 2 from P4 to P5", C: "March! 2 from P6 to P5"})
        first, second = battles(ev)
        assert set(first.data["us"]) == {A, C} and first.data["winner"] == C and first.data["tie"]
        assert first.data["roles"] == {A: "defender", C: "attacker"}
        assert second.data["us"] == {C: 1, B: 2} and second.data["winner"] == B
        assert units(g, "P5") == (B, 2) and g.state.players[A].eliminated


class TestSend:
    """rules: 003 3. Negotiation and Orders — "players may also send $Realm to another player ... Any $Realm
    transactions occurring between players will be revealed to all players in the Execute Orders phase"; promised
    $Realm "can not send ... to a third player" (assumption TRANSFERS)."""

    def test_the_realm_moves_and_is_revealed_to_all(self):
        g = position("ring-10", 3, {"P1": (A, 1), "P4": (B, 1), "P7": (C, 1)}, realm={A: 100, B: 0, C: 0})
        ev = play_orders(g, {A: "Send 30 to Player#2"})
        sent = [e for e in ev if e.kind == "transfer"]
        assert [(e.data["src"], e.data["dst"], e.data["amount"]) for e in sent] == [(A, B, 30)]
        assert sent[0].visible_to is None and "Player#1 sends 30 $Realm to Player#2." in g.report(turn=2)
        # then each produces 50 from its Province
        assert [g.state.players[s].realm for s in (A, B, C)] == [100 - 30 + 50, 30 + 50, 50]

    def test_realm_only_promised_cannot_be_sent_on(self):
        g = position("ring-10", 3, {"P1": (A, 1), "P4": (B, 1), "P7": (C, 1)}, realm={A: 100, B: 0, C: 0})
        g.submit(A, "Send 30 to Player#2")
        with pytest.raises(IllegalOrderError, match="more than the 0 \\$Realm you hold"):
            g.submit(B, "Send 30 to Player#3")
