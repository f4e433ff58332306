"""rules: 003 — what scales with the number of players and Provinces, checked against the rulebook's own tables
and worked examples at 7-16 seats, Normal and Grand: the brackets table (and its 7-player example), the Hoarding
table's columns on the built-in boards, the Power Threshold and the Normal floor, the After Burner, the min.US
rewards table, and Fire and blood!'s two counts (rounded up)."""

from __future__ import annotations

import pytest

from engine.protectors import cards as C
from engine.protectors.board import Board
from engine.protectors.game import Game
from engine.protectors.legality import golden_limits
from engine.protectors.ranking import brackets
from engine.protectors.reveal import _play
from engine.protectors.tables import BRACKETS, dragon_reward
from engine.protectors.victory import check_end, power_threshold
from tests.protectors.helpers import dragon_attack, fight, position

# rules: 003 Protector Ranking — the brackets table, as printed: active players -> players in brackets 1-4
RULEBOOK_BRACKETS = {
    2: (1, 1, 0, 0),
    3: (1, 1, 1, 0),
    4: (1, 1, 1, 1),
    5: (2, 1, 1, 1),
    6: (2, 2, 1, 1),
    7: (2, 2, 2, 1),
    8: (2, 2, 2, 2),
    9: (3, 2, 2, 2),
    10: (3, 3, 2, 2),
    11: (3, 3, 3, 2),
    12: (3, 3, 3, 3),
    13: (4, 3, 3, 3),
    14: (4, 4, 3, 3),
    15: (4, 4, 4, 3),
    16: (4, 4, 4, 4),
}


def seats(n: int) -> list[str]:
    return [f"Player#{i}" for i in range(1, n + 1)]


class TestSetup:
    """rules: 003 Setup — "Each player starts the game with 1 Province (land area), 1 Army Unit and 50 $Realm at
    their disposal." / "Normal version: The Game Board will have an *equal* number of Provinces as the number of
    starting players." / "Grand version: The number of Provinces is 2x or more the number of starting players."
    At every table size 7-16, Normal and Grand, with the Island and in teams of 2 and 3."""

    @pytest.mark.parametrize(
        ("board", "n", "team_size"),
        [
            *[(f"ring-{n}", n, None) for n in range(7, 17)],
            *[(f"ring-{n}-grand", n, None) for n in (7, 11, 16)],
            ("ring-13-grand+island", 13, None),
            ("ring-8", 8, 2),
            ("ring-9", 9, 3),
            ("ring-12-grand", 12, 3),
            ("ring-14-grand+island", 14, 2),
            ("ring-15", 15, 3),
            ("ring-16-grand", 16, 2),
        ],
    )
    def test_one_province_one_army_unit_and_50_realm_each(self, board, n, team_size):
        roster = [{"seat": s, "team": f"T{i // team_size}" if team_size else None} for i, s in enumerate(seats(n))]
        g = Game({"board": board, "seed": n, "players": roster, "options": {"teams": bool(team_size)}})
        st = g.state
        mainland = st.board.provinces
        for seat in seats(n):
            assert st.owned(seat) == [st.players[seat].start] and st.units_of(seat) == 1
            assert st.players[seat].realm == 50
        held = [p for p in mainland if st.provinces[p].owner is not None]
        if "grand" in board:
            assert g.view()["options"]["version"] == "grand" and len(mainland) >= 2 * n
            assert len(held) == n  # the other Provinces start empty and nobody's
            assert all(st.provinces[p].units == 0 for p in mainland if p not in held)
        else:
            assert g.view()["options"]["version"] == "normal" and len(mainland) == n == len(held)
        if st.board.island:
            assert st.provinces[st.board.island].owner is None and st.provinces[st.board.island].units == 0


class TestBrackets:
    @pytest.mark.parametrize("n", sorted(RULEBOOK_BRACKETS))
    def test_every_row_of_the_table(self, n):
        assert BRACKETS[n] == RULEBOOK_BRACKETS[n]
        # "filled up with players according to their Protector Ranking, starting with the 1st bracket ... until
        # it's full. Then the 2nd bracket will be filled with lower ranked players and so on"
        ranking = seats(n)[::-1]  # any order: the ranking, not the seat number, decides
        got = brackets(ranking)
        expected = [b for b, size in enumerate(RULEBOOK_BRACKETS[n], start=1) for _ in range(size)]
        assert [got[s] for s in ranking] == expected

    def test_the_seven_player_examples_golden_orders_for_every_seat(self):
        """rules: 003 Protector Ranking, "Example, 7-player game": Player#1 and #4 have every golden order,
        Player#2 and #7 golden Fortify!, Support! and Work, work!, Player#6 and #3 golden Fortify! and Work, work!,
        Player#5 golden Work, work! only."""
        ranking = ["Player#1", "Player#4", "Player#2", "Player#7", "Player#6", "Player#3", "Player#5"]
        g = position("ring-7", 7, {f"P{i}": (f"Player#{i}", 1) for i in range(1, 8)}, ranking=ranking)
        allowed = {s: {k for k, n in golden_limits(g.state, s).items() if n} for s in ranking}
        every = {"march", "support", "fortify", "work"}
        assert allowed == {
            "Player#1": every,
            "Player#4": every,
            "Player#2": {"support", "fortify", "work"},
            "Player#7": {"support", "fortify", "work"},
            "Player#6": {"fortify", "work"},
            "Player#3": {"fortify", "work"},
            "Player#5": {"work"},
        }


class TestHoardingColumns:
    """rules: 003 Hoarding $Realm table — the columns are the number of Provinces on the board (#Provinces < 14,
    14-26, 27-39, 40-52); the Island is not one of them (assumption ISLAND_NOT_COUNTED)."""

    @pytest.mark.parametrize(
        ("board", "players", "step"),
        [
            ("ring-7", 7, 1),
            ("ring-13", 13, 1),
            ("ring-14", 14, 2),
            ("ring-16", 16, 2),
            ("ring-7-grand", 7, 2),
            ("ring-13-grand", 13, 2),
            ("ring-13-grand+island", 13, 2),
            ("ring-14-grand", 14, 3),
            ("ring-16-grand+island", 16, 3),
        ],
    )
    def test_one_card_with_nobody_hoarding(self, board, players, step):
        n = Board.from_setup(board).count
        g = position(board, players, {f"P{i}": (f"Player#{i}", 1) for i in range(1, players + 1)})
        before = g.state.dpl
        _play(g.state, C.EVENT, C.CALMS_OF_SUMMER)
        assert g.state.dpl - before == step, n

    def test_power_overwhelming_adds_the_mainland_provinces(self):
        g = position("ring-8-grand+island", 8, {f"P{i}": (f"Player#{i}", 1) for i in range(1, 9)})
        _play(g.state, C.EVENT, C.POWER_OVERWHELMING)
        assert g.state.dpl == 2 + 16  # the 14-26 column, then "+ the number of Provinces" (not the Island)


class TestPowerThreshold:
    @pytest.mark.parametrize("n", [7, 8, 11, 16])
    def test_normal_floor_reached_once_about_half_are_eliminated(self, n):
        """rules: 003 "Normal version ... lower limit on the Power Threshold which is equal to the number of
        Provinces ... once ~50% of the starting players are eliminated the Power Threshold will reach this lower
        limit and it can't drop any further"; each elimination lowers it by 2 until then."""
        g = position(f"ring-{n}", n, {f"P{i}": (f"Player#{i}", 1) for i in range(1, n + 1)})
        seen = []
        for out in range(n):
            seen.append(power_threshold(g.state))
            g.state.players[f"Player#{n - out}"].eliminated = True
        half = (n + 1) // 2  # eliminations that take 2 x (n - k) to n or below
        assert seen[:half] == [2 * (n - k) for k in range(half)]  # 2 less for each player eliminated
        assert seen[half:] == [n] * (n - half)  # then the floor, n, from about half on

    @pytest.mark.parametrize("n", [7, 12, 16])
    def test_grand_has_no_floor(self, n):
        """rules: 003 "For games playing the Grand version ... there is no lower limit ... the Power Threshold will
        continue to drop as players are eliminated"."""
        g = position(f"ring-{n}-grand", n, {f"P{2 * i - 1}": (f"Player#{i}", 1) for i in range(1, n + 1)})
        for out in range(n - 1):
            assert power_threshold(g.state) == 2 * (2 * n - out)
            g.state.players[f"Player#{n - out}"].eliminated = True


class TestAfterBurner:
    """rules: 003 Dragon Attack, the After Burner note — "The Dragon will always attack with a minimum DPL of 1.
    Thus, if defeated in the first battle, the Dragon will attack again with a DPL of 1. If not defeated in the
    first battle, the Dragon will attack again following the normal rules for resetting the DPL"."""

    def _burner(self, units):
        g = position(
            "ring-7",
            7,
            {f"P{i}": (f"Player#{i}", units) for i in range(1, 8)},
            dpl=13,
            realm=dict.fromkeys(seats(7), 0),
        )
        _play(g.state, C.DRAGON, C.THERE_BE_DRAGONS)  # DPL 14 = 2 x 7: the card's attack, then the After Burner
        assert g.state.pending_attacks == ["card", "after_burner"]
        g.state.step = "reveal"
        g._run()
        assert g.state.attack.source == "card" and g.state.attack.dpl == 14
        return g

    def test_defeated_in_the_first_battle_it_attacks_again_with_dpl_1(self):
        g = self._burner(3)
        fight(g, {s: f"3 from P{i}" for i, s in enumerate(seats(7), start=1)})  # 21 US > 14
        assert g.step == "dragon" and g.state.attack.source == "after_burner" and g.state.attack.dpl == 1

    def test_not_defeated_it_attacks_again_with_the_dpl_halved(self):
        g = self._burner(1)
        fight(g, {s: f"1 from P{i}" for i, s in enumerate(seats(7), start=1)})  # 7 US <= 14
        assert g.step == "dragon" and g.state.attack.source == "after_burner" and g.state.attack.dpl == 7


class TestRewards:
    def test_the_min_us_rewards_table(self):
        """rules: 003 "For each increase in the min.US required from a player the rewards gained from defeating the
        Dragon in battle is increased with 50 $Realm": 0 -> 0, 1 -> 100, 2 -> 150, 3 -> 200, etc."""
        assert [dragon_reward(g) for g in range(7)] == [0, 100, 150, 200, 250, 300, 350]

    def test_three_green_provinces_earn_200(self):
        g = position(
            "ring-7",
            2,
            {"P1": ("Player#1", 1), "P2": ("Player#1", 1), "P3": ("Player#1", 1), "P5": ("Player#2", 1)},
            realm={"Player#1": 0, "Player#2": 0},
        )
        dragon_attack(g, 3)
        fight(g, {"Player#1": "1 from P1\n1 from P2\n1 from P3", "Player#2": "1 from P5"})  # 4 US > 3
        assert g.state.players["Player#1"].realm == 200 and g.state.players["Player#2"].realm == 100


class TestFireAndBlood:
    """rules: 003 Fire and blood! — "if the Dragon at any point has eliminated half of the starting players
    (rounded up), or 66% (rounded up) of the Provinces on the game board have been scorched"."""

    @pytest.mark.parametrize(("n", "needed"), [(7, 4), (9, 5), (10, 5), (16, 8)])
    def test_half_the_starting_players_rounded_up(self, n, needed):
        for dragon_kills in (needed - 1, needed):
            g = position(f"ring-{n}", n, {f"P{i}": (f"Player#{i}", 1) for i in range(1, n + 1)})
            for i in range(dragon_kills):
                g.state.players[f"Player#{n - i}"].eliminated = True
            g.state.dragon_eliminations = dragon_kills
            assert check_end(g.state) == (dragon_kills == needed), dragon_kills
        assert g.state.result["how"] == "dragon" and g.state.result["winner"] is None

    @pytest.mark.parametrize(
        ("board", "needed"), [("ring-7-grand", 10), ("ring-10", 7), ("ring-16-grand", 22), ("ring-16-grand+island", 22)]
    )
    def test_66_percent_of_the_provinces_rounded_up(self, board, needed):
        # 14 x 0.66 = 9.24 -> 10; 10 x 0.66 = 6.6 -> 7; 32 x 0.66 = 21.12 -> 22 (the Island is no Province)
        count = Board.from_setup(board).count
        for burnt in (needed - 1, needed):
            provs = {
                "P1": ("Player#1", 1),
                "P2": ("Player#2", 1),
                **{f"P{i}": (None, 0, 0, True) for i in range(count - burnt + 1, count + 1)},
            }
            g = position(board, 2, provs)
            assert check_end(g.state) == (burnt == needed), burnt
        assert g.state.result["how"] == "dragon"
