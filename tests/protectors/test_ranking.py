"""rules: 003 1. Protector Ranking — bids, the turn-1 re-bid round, brackets and golden orders."""

from __future__ import annotations

import pytest

from engine.errors import IllegalOrderError, PhaseError
from engine.protectors.game import Game
from engine.protectors.ranking import brackets
from engine.protectors.tables import BRACKETS
from tests.protectors.helpers import play_orders, position

P = [f"Player#{i}" for i in range(1, 8)]


def first_turn(seed: int) -> Game:
    """The rulebook's 5-player example: 25, 25, 10, 10, 0; re-bids 5/6 and 0/0."""
    g = Game({"board": "ring-5", "seed": seed})
    for seat, bid in zip(P, (25, 25, 10, 10, 0), strict=False):
        g.submit(seat, f"Bid {bid}")
    g.advance()
    return g


def rebid(seed: int) -> Game:
    """``first_turn`` with its re-bids made: 5 and 6 for the tied 25s, 0 and 0 for the tied 10s."""
    g = first_turn(seed)
    for seat, bid in zip(P[:4], (5, 6, 0, 0), strict=False):
        g.submit(seat, f"Bid {bid}")
    g.advance()
    return g


class TestRankingBidsExample:
    def test_ties_go_to_a_rebid_round_for_the_tied_players_only(self):
        g = first_turn(1)
        assert g.step == "rebid"
        assert [p.seat for p in g.pending()] == P[:4]  # Player#5 is already 5th
        with pytest.raises(PhaseError):
            g.submit("Player#5", "Bid 3")

    def test_rebid_resolution_and_money_spent_stays_spent(self):
        g = rebid(1)
        r = g.state.ranking
        assert r[:2] == ["Player#2", "Player#1"]
        assert set(r[2:4]) == {"Player#3", "Player#4"} and r[4] == "Player#5"
        realm = {s: g.state.players[s].realm for s in P[:5]}
        # spent 31 and 30 in total (then turn 1's cards, no income yet)
        assert realm["Player#2"] == 50 - 31 and realm["Player#1"] == 50 - 30
        assert realm["Player#3"] == realm["Player#4"] == 40 and realm["Player#5"] == 50

    def test_zero_zero_rebid_is_a_coin_flip(self):
        orders = set()
        for seed in range(20):
            g = rebid(seed)
            orders.add(tuple(g.state.ranking[2:4]))
        assert orders == {("Player#3", "Player#4"), ("Player#4", "Player#3")}

    def test_the_ranking_line_says_which_places_were_drawn(self):
        """dogfood s17 rules #5: a random tie-break is announced as random, in the ranking line."""
        g = rebid(1)
        r = g.state.ranking
        line = next(e.text for e in g.state.events if e.kind == "ranking")
        assert line.endswith(f". Placed at random: {r[2]} and {r[3]} (re-bids tied at 0)")

    def test_zero_ties_of_the_first_round_are_announced_as_drawn(self):
        g = Game({"board": "ring-5", "seed": 3})
        g.submit("Player#1", "Bid 5")
        g.advance(force=True)  # the others silent: bid 0
        r = g.state.ranking
        line = next(e.text for e in g.state.events if e.kind == "ranking")
        assert line.endswith(f". Placed at random: {r[1]}, {r[2]}, {r[3]} and {r[4]} (bids tied at 0)")

    def test_zero_ties_drawn_before_a_rebid_round_are_announced_with_the_bids(self):
        """The ranking line comes after the re-bids (a position imported in between no longer knows the
        first round's bids), so the draw among the 0 bids is told in the first round's line."""
        g = Game({"board": "ring-5", "seed": 3})
        for seat, bid in zip(P, (25, 25, 10, 0, 0), strict=False):
            g.submit(seat, f"Bid {bid}")
        g.advance()
        assert g.step == "rebid"
        r = g.state.ranking
        line = next(e.text for e in g.state.events if e.kind == "bids")
        assert line == ("Bids: Player#1 25, Player#2 25, Player#3 10, Player#4 0, Player#5 0. "
                        f"Placed at random: {r[3]} and {r[4]} (bids tied at 0)")
        g.submit("Player#1", "Bid 1")
        g.submit("Player#2", "Bid 2")
        g.advance()
        line = next(e.text for e in g.state.events if e.kind == "ranking")
        assert "Placed at random" not in line

    def test_a_ranking_without_a_draw_says_nothing_of_one(self):
        g = Game({"board": "ring-3", "seed": 3})
        for seat, bid in zip(P[:3], (5, 3, 0), strict=False):
            g.submit(seat, f"Bid {bid}")
        g.advance()
        line = next(e.text for e in g.state.events if e.kind == "ranking")
        assert line == "Protector Ranking: 1. Player#1 (bracket 1), 2. Player#2 (bracket 2), 3. Player#3 (bracket 3)"

    def test_the_rebid_line_names_the_great_game_bonus_as_the_first_round_does(self):
        """dogfood s17 rules #5 (GREAT_GAME_TOLD): a Lannuvár seat's re-bid counts its +15 per Province."""
        g = Game({"board": "ring-3", "seed": 1, "options": {"factions": True}})
        g.submit("Player#1", "Bid 10\nFaction Lannuvár")
        g.submit("Player#2", "Bid 25\nFaction Cenarion")
        g.submit("Player#3", "Bid 0\nFaction Hodir")
        g.advance()
        assert g.step == "rebid"
        g.submit("Player#1", "Bid 0")
        g.submit("Player#2", "Bid 3")
        g.advance()
        rebids = next(e.text for e in g.state.events if e.kind == "rebids")
        assert rebids == "Re-bids: Player#1 0 (+15: The Great Game of politics), Player#2 3"
        assert g.state.ranking[:2] == ["Player#1", "Player#2"]

    def test_only_zero_ties_on_turn_one_are_random_without_rebid(self):
        g = Game({"board": "ring-5", "seed": 3})
        g.advance(force=True)  # everyone silent: bid 0
        assert g.step == "orders" and sorted(g.state.ranking) == P[:5]

    def test_later_ties_use_the_previous_ranking(self):
        g = position("ring-5", 5, {f"P{i}": (f"Player#{i}", 1) for i in range(1, 6)}, phase="ranking",
                     ranking=["Player#3", "Player#1", "Player#2", "Player#5", "Player#4"],
                     bids={"Player#1": 10, "Player#2": 10, "Player#3": 4, "Player#4": 10, "Player#5": 0})
        assert g.state.ranking[:3] == ["Player#1", "Player#2", "Player#4"]
        assert g.state.ranking[3:] == ["Player#3", "Player#5"]

    def test_later_ties_follow_the_previous_ranking_not_the_seat_order(self):
        """rules: 003 Protector Ranking — "these draws will be resolved based on the Protector Ranking as it were at
        the start of the turn": the tied seats here rank in the reverse of their seat order."""
        g = position("ring-5", 5, {f"P{i}": (f"Player#{i}", 1) for i in range(1, 6)}, phase="ranking",
                     ranking=["Player#4", "Player#3", "Player#2", "Player#1", "Player#5"],
                     bids={"Player#1": 10, "Player#2": 10, "Player#3": 4, "Player#4": 10, "Player#5": 0})
        assert g.state.ranking == ["Player#4", "Player#2", "Player#1", "Player#3", "Player#5"]


class TestBrackets:
    def test_full_table(self):
        assert BRACKETS[5] == (2, 1, 1, 1) and BRACKETS[16] == (4, 4, 4, 4) and BRACKETS[9] == (3, 2, 2, 2)
        for n in range(2, 17):
            assert sum(BRACKETS[n]) == n

    def test_seven_player_example(self):
        ranking = ["Player#1", "Player#4", "Player#2", "Player#7", "Player#6", "Player#3", "Player#5"]
        assert brackets(ranking) == {"Player#1": 1, "Player#4": 1, "Player#2": 2, "Player#7": 2,
                                     "Player#6": 3, "Player#3": 3, "Player#5": 4}

    def test_golden_orders_by_bracket(self):
        ranking = ["Player#1", "Player#4", "Player#2", "Player#7", "Player#6", "Player#3", "Player#5"]
        g = position("ring-7", 7, {f"P{i}": (f"Player#{i}", 2) for i in range(1, 8)}, ranking=ranking)
        g.submit("Player#1", "Golden March! 1 from P1 to P2")
        with pytest.raises(IllegalOrderError, match="Golden March! is not available to bracket 2"):
            g.submit("Player#2", "Golden March! 1 from P2 to P3")
        g.submit("Player#2", "Golden Support! Player#1 in P3 from P2")
        with pytest.raises(IllegalOrderError, match="Golden Support! is not available to bracket 3"):
            g.submit("Player#6", "Golden Support! Player#6 in P7 from P6")
        g.submit("Player#6", "Golden Fortify! P6")
        with pytest.raises(IllegalOrderError, match="Golden Fortify! is not available to bracket 4"):
            g.submit("Player#5", "Golden Fortify! P5")
        g.submit("Player#5", "Golden Work, work! P5")

    def test_one_golden_order_per_type(self):
        g = position("ring-10", 5, {"P1": ("Player#1", 2), "P2": ("Player#1", 2), "P5": ("Player#2", 1),
                                    "P6": ("Player#3", 1), "P7": ("Player#4", 1), "P8": ("Player#5", 1)})
        with pytest.raises(IllegalOrderError, match="only one Golden order of each type"):
            g.submit("Player#1", "Golden Fortify! P1\nGolden Fortify! P2")
        with pytest.raises(IllegalOrderError, match="only one Golden order of each type"):
            g.submit("Player#1", "Golden March! 1 from P1 to P10\nDelayed Golden March! 1 from P2 to P3")

    def test_brackets_are_the_callers_own_dict(self):
        # brackets() remembers rankings it has seen; changing one answer must not change the next
        first = brackets(P[:5])
        first["Player#1"] = 4
        del first["Player#5"]
        assert brackets(P[:5]) == {"Player#1": 1, "Player#2": 1, "Player#3": 2, "Player#4": 3, "Player#5": 4}

    def test_brackets_follow_eliminations(self):
        g = position("ring-5", 5, {"P1": ("Player#1", 3), "P2": ("Player#2", 1), "P3": ("Player#3", 1),
                                   "P4": ("Player#4", 1), "P5": ("Player#5", 1)}, ranking=P[:5])
        play_orders(g, {"Player#1": "March! 3 from P1 to P2"})
        assert g.state.players["Player#2"].eliminated
        assert brackets(g.state.active()) == {"Player#1": 1, "Player#3": 2, "Player#4": 3, "Player#5": 4}
