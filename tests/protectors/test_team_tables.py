"""rules: 003 Team Games at 7-16 seats, teams of 2, 3 and 4: teams of one size, team-mates starting as one group of
neighbours, and the game's end when one team is left standing as the Dragon wins (or does not)."""

from __future__ import annotations

import pytest

from engine.errors import ValidationError
from engine.protectors.game import Game
from engine.protectors.victory import check_end, times_up
from tests.protectors.helpers import dragon_attack, fight, position
from tests.protectors.test_factions import make


def roster(sizes: list[int]) -> list[dict]:
    """Seats Player#1.. in teams T0, T1, ... of the given sizes, in seat order."""
    teams = [f"T{t}" for t, size in enumerate(sizes) for _ in range(size)]
    return [{"seat": f"Player#{i}", "team": team} for i, team in enumerate(teams, start=1)]


class TestTeamSizes:
    @pytest.mark.parametrize(
        ("board", "sizes"),
        [("ring-9", [4, 3, 2]), ("ring-8", [3, 3, 2]), ("ring-16-grand", [2] * 7 + [1, 1]), ("ring-7", [7])],
    )
    def test_each_team_must_have_the_same_number_of_players(self, board, sizes):
        """rules: 003 Team Games — "Players form up before the game starts to create teams. Each team must have the
        same number of players." (A game of one team is no team game: Last man standing! would have ended it.)"""
        with pytest.raises(ValidationError, match="teams of the same size"):
            Game({"board": board, "seed": 0, "players": roster(sizes), "options": {"teams": True}})

    @pytest.mark.parametrize(
        ("board", "sizes"), [("ring-9", [3] * 3), ("ring-16-grand", [2] * 8), ("ring-12", [4] * 3)]
    )
    def test_teams_of_one_size_are_accepted(self, board, sizes):
        """rules: 003 Team Games — "Each team must have the same number of players"."""
        g = Game({"board": board, "seed": 0, "players": roster(sizes), "options": {"teams": True}})
        assert sorted({p.team for p in g.state.players.values()}) == [f"T{t}" for t in range(len(sizes))]

    @pytest.mark.parametrize(
        ("team", "why"),
        [
            (["A"], "not list"),
            ({"A": 1}, "not dict"),
            (True, "not bool"),
            (1.5, "not float"),
            ("", "every player needs a team"),
        ],
    )
    def test_a_team_is_a_name_or_a_number(self, team, why):
        """rules: 003 Team Games — "Players form up before the game starts to create teams." A team is named (or
        numbered, as the service's setup check allows): a list or a map crashed the setup, and an empty name read
        as a team of its own for each of its players when the game ended."""
        players = roster([2, 2])
        players[0]["team"] = players[1]["team"] = team
        with pytest.raises(ValidationError, match=f"players\\[0\\].team: .*{why}"):
            Game({"board": "ring-4", "seed": 0, "players": players, "options": {"teams": True}})

    def test_a_number_and_its_text_are_one_team(self):
        """rules: 003 Team Games — "Each team must have the same number of players": the size check read ``1`` and
        ``"1"`` as one team while the game's end (``victory._sides``) and the pooled $Realm told them apart; a team
        is kept as its text, so they are one team everywhere."""
        players = roster([2, 2])
        players[0]["team"], players[1]["team"], players[2]["team"], players[3]["team"] = 1, "1", 2, "2"
        g = Game({"board": "ring-4", "seed": 0, "players": players, "options": {"teams": True}})
        assert [p.team for p in g.state.players.values()] == ["1", "1", "2", "2"]


class TestTeamNumberedZero:
    """A team numbered 0 (the first number a GM writing JSON reaches for) was falsy, so the game's end split it into
    one side per member."""

    def test_last_team_standing_when_the_team_is_numbered_0(self):
        """rules: 003 Team Games — "Last man standing! The game ends immediately, if all but one team are
        eliminated. The team left standing is victorious"."""
        g = make(
            "ring-4",
            {"P1": ("Player#1", 1), "P2": ("Player#2", 1)},
            options={"teams": True, "factions": False},
            teams=[0, 0, 1, 1],
        )  # team 1 holds nothing: eliminated
        assert check_end(g.state) and g.state.result["winner"] == "0"

    def test_times_up_sums_the_vps_of_team_0(self):
        """rules: 003 Team Games — "Add the VPs from each team member together, the total is the number of VPs
        obtained by the team"."""
        seats = ("Player#1", "Player#2", "Player#3", "Player#4")
        g = make(
            "ring-4",
            {"P1": (seats[0], 1, 2), "P2": (seats[1], 1, 2), "P3": (seats[2], 1, 3), "P4": (seats[3], 1)},
            phase="consolidation",
            options={"teams": True, "factions": False},
            teams=[0, 0, 1, 1],
            realm=dict.fromkeys(seats, 0),
        )
        times_up(g.state)  # team 0: 4 + 4 = 8 VPs; team 1: 6 + 2 = 8, tied on units and $Realm; Player#1 ranks first
        assert {r["side"]: r["vp"] for r in g.state.result["table"]} == {"0": 8, "1": 8}
        assert g.state.result["winner"] == "0"


class TestStarts:
    @pytest.mark.parametrize(
        ("board", "size"),
        [("ring-9", 3), ("ring-10", 2), ("ring-12", 4), ("ring-12-grand", 3), ("ring-15", 3), ("ring-16", 4)],
    )
    def test_each_team_starts_as_one_group_of_neighbours(self, board, size):
        """rules: 003 Team Games — "The players within a given team will begin the game as neighbours on the Game
        Board. For example, a team consisting of 3 players could be given the starting positions 1, 2 and 3."

        Every team's starts are one connected group (each team-mate reached from any other by neighbours among
        them), not only pairs of neighbours, whatever the seed."""
        n = int(board.split("-")[1])
        for seed in range(5):
            st = Game(
                {"board": board, "seed": seed, "players": roster([size] * (n // size)), "options": {"teams": True}}
            )
            st = st.state
            for team in {p.team for p in st.players.values()}:
                starts = [p.start for p in st.players.values() if p.team == team]
                group, edge = {starts[0]}, [starts[0]]
                while edge:
                    here = edge.pop()
                    for other in starts:
                        if other not in group and st.board.is_neighbour(here, other):
                            group.add(other)
                            edge.append(other)
                assert group == set(starts), (seed, team, starts)


P = [f"Player#{i}" for i in range(1, 7)]
T0_MEETS_MIN_US = {P[0]: "2 from P1", P[1]: "2 from P3", P[2]: "2 from P5"}  # T1 commits nothing


class TestTheLastTeamAndTheDragon:
    """rules: 003 Team Games — "4. Last man standing! The game ends immediately, if all but one team are eliminated.
    The team left standing is victorious" and "6. Fire and blood! All players lose the game immediately if the Dragon
    at any point has eliminated half of the starting players (rounded up)"; and, the core rules being the same for
    teams, "The Dragon is victorious if victory conditions 1 and 3 are fulfilled at the same time"."""

    def _attack(self, provinces):
        # 6 seats in teams of 3 on a Grand board: team T0 = Player#1-3, team T1 = Player#4-6
        g = position(
            "ring-6-grand",
            6,
            provinces,
            teams=["T0"] * 3 + ["T1"] * 3,
            options={"teams": True},
            realm=dict.fromkeys([v[0] for v in provinces.values()], 0),
        )
        return dragon_attack(g, 9)

    def test_the_dragon_eliminating_the_other_team_to_half_the_starting_players_wins(self):
        # T1's three seats (3 = half of 6) each hold one green Province and commit nothing: the Dragon wins, the Wrath
        # burns their only Province, and team T0 would be left standing at the same time
        g = self._attack(
            {"P1": (P[0], 2), "P3": (P[1], 2), "P5": (P[2], 2), "P7": (P[3], 1), "P9": (P[4], 1), "P11": (P[5], 1)}
        )
        fight(g, T0_MEETS_MIN_US)  # 6 US against DPL 9: the Dragon wins
        assert all(g.state.players[s].eliminated for s in P[3:]) and g.state.dragon_eliminations == 3
        assert g.over and (g.result["how"], g.result["winner"]) == ("dragon", None)

    def test_fewer_than_half_by_the_dragon_leaves_the_last_team_standing_victorious(self):
        # Player#4 and #5 were eliminated by players earlier; the Dragon eliminates Player#6 alone (1 of 6): team T0,
        # its three seats still in the game, is the team left standing
        g = self._attack({"P1": (P[0], 2), "P3": (P[1], 2), "P5": (P[2], 2), "P11": (P[5], 1)})
        fight(g, T0_MEETS_MIN_US)
        assert g.state.players[P[5]].eliminated and g.state.dragon_eliminations == 1
        assert not any(g.state.players[s].eliminated for s in P[:3])
        assert g.over and (g.result["how"], g.result["winner"]) == ("last_man_standing", "T0")
