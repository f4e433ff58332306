"""rules: 003 Team Games — neighbouring starts, pooled $Realm ("N from Player#k"), 48h windows instead of
24h, team victory and its tie-breakers, the Dragon conditions for teams."""

from __future__ import annotations

import pytest

from engine.errors import IllegalOrderError
from engine.protectors.game import Game
from engine.protectors.report import display_names, private_summary, public_report
from engine.protectors.victory import check_end, times_up
from tests.protectors.test_factions import P1, P2, P3, make

P4, P5, P6 = "Player#4", "Player#5", "Player#6"


def team_setup(board, n, size, seed=0, **extra):
    return {"board": board, "seed": seed, "options": {"teams": True, **extra},
            "players": [{"seat": f"Player#{i}", "team": f"T{(i - 1) // size}"} for i in range(1, n + 1)]}


class TestStarts:
    @pytest.mark.parametrize("board,n,size", [("ring-6", 6, 2), ("ring-6", 6, 3), ("ring-8-grand", 8, 2),
                                              ("ring-8-grand", 8, 4), ("ring-16-grand", 16, 4)])
    def test_team_mates_start_as_neighbours(self, board, n, size):
        for seed in range(6):
            g = Game(team_setup(board, n, size, seed))
            st = g.state
            for team in {p.team for p in st.players.values()}:
                starts = [p.start for p in st.players.values() if p.team == team]
                # connected: every team-mate borders another team-mate
                for s in starts:
                    assert any(st.board.is_neighbour(s, t) for t in starts if t != s), (seed, team, starts)

    def test_team_placement_is_random(self):
        firsts = {Game(team_setup("ring-8-grand", 8, 2, seed)).state.players[P1].start for seed in range(12)}
        assert len(firsts) > 1

    def test_chosen_relative_placement_is_kept(self):
        setup = team_setup("ring-6", 6, 3)
        setup["players"][1]["start"] = "P4"
        g = Game(setup)
        starts = {s: p.start for s, p in g.state.players.items()}
        assert starts[P2] == "P4"
        assert {starts[P1], starts[P3]} & {"P3", "P5"}


class TestPooledRealm:
    def _team(self):
        provs = {"P1": (P1, 1), "P2": (P2, 1), "P3": (P3, 1), "P4": (P4, 1), "P5": (P5, 1), "P6": (P6, 1)}
        return make("ring-6", provs, phase="consolidation", options={"teams": True, "factions": False},
                    teams=["A", "A", "A", "B", "B", "B"],
                    realm={P1: 65, P2: 225, P3: 50, P4: 0, P5: 0, P6: 0})

    def test_the_rulebook_example(self):
        g = self._team()
        assert g.submit(P1, "Buy 2, Bid: 25 (110 from Player#2)") == ["Buy 2 in P1.", "Bid 25 (110 from Player#2)"]
        g.submit(P2, "Buy: 1, Bid: 0")
        g.submit(P3, "Buy: 1, Bid: 5 (30 from Player#2)")
        g.advance(force=True)
        st = g.state
        assert [st.players[s].realm for s in (P1, P2, P3)] == [0, 10, 0]
        assert [st.provinces[p].units for p in ("P1", "P2", "P3")] == [3, 2, 2]
        bids = {s: -d for _, s, d, rule in st.ledger if rule == "003 Bidding step"}
        assert bids == {P1: 25, P3: 5}

    def test_only_from_a_team_mate(self):
        g = self._team()
        with pytest.raises(IllegalOrderError, match="team-mate"):
            g.submit(P1, "Bid 10 (10 from Player#4)")


    def test_a_team_mates_balance_is_never_told_when_the_dm_comes(self):
        # rules: 003 Team Games, Pooled $Realm; POOL_UNSEEN: a seat does not see its team-mate's $Realm, so
        # a refusal naming it (or refusing by it) would tell: the transfer is capped when made, and told then
        g = self._team()
        assert g.submit(P1, "Bid 10 (300 from Player#2)") == ["Bid 10 (300 from Player#2)"]
        assert "225" not in " ".join(map(str, g.view(P1)["players"][P2].values()))
        g.submit(P3, "Bid 0 (1 from Player#1)")  # every transfer is made before any spending (POOL_FIRST)
        g.advance(force=True)
        st = g.state
        assert st.players[P2].realm == 0 and st.players[P1].realm == 65 + 225 - 10 - 1
        short = [e for e in st.events if e.kind == "pool_short"]
        assert [(e.data["source"], e.data["asked"], e.data["paid"], e.visible_to) for e in short] == [
            (P2, 300, 225, frozenset({P1, P2}))]
        names = display_names(st)
        told = f"{names[P2]} could pay only 225 of the 300 $Realm {names[P1]} asked for."
        t = short[0].turn
        assert told in private_summary(g, P1, t) and told in private_summary(g, P2, t)
        assert "could pay only" not in private_summary(g, P3, t) and "could pay only" not in public_report(st, t)
        assert f"-225 (Team Games, pooled $Realm to {names[P1]})" in private_summary(g, P2, t)  # who took it

    def test_nothing_is_pooled_from_an_eliminated_team_mate(self):
        provs = {"P1": (P1, 1), "P2": (P2, 1), "P4": (P4, 1), "P5": (P5, 1), "P6": (P6, 1)}
        g = make("ring-6", provs, phase="consolidation", options={"teams": True, "factions": False},
                 teams=["A", "A", "A", "B", "B", "B"], realm={P1: 65, P2: 225, P4: 0, P5: 0, P6: 0},
                 eliminated=[P3])
        with pytest.raises(IllegalOrderError, match="Player#3 was eliminated: pooled"):
            g.submit(P1, "Bid 10 (10 from Player#3)")

    def test_a_buy_lines_pool_and_the_bid_lines_are_one_transfer_per_team_mate(self):
        g = self._team()
        said = g.submit(P1, "Buy 1 (20 from Player#2)\nBid 5 (10 from Player#2, 5 from Player#3)")
        assert said == ["Buy 1 in P1.", "Bid 5 (30 from Player#2, 5 from Player#3)"]

    def test_the_turn_one_bid_is_pooled(self):
        g = Game(team_setup("ring-4", 4, 2))
        g.submit(P1, "Bid 70 (20 from Player#2)")
        g.advance(force=True)
        st = g.state
        assert st.players[P1].realm == 0 and st.players[P2].realm == 30 and st.ranking[0] == P1


class TestWindows:
    def test_24h_windows_become_48h(self):
        g = Game(team_setup("ring-4", 4, 2))
        solo = Game({"board": "ring-4", "seed": 0, "players": 4})
        assert g.deadline_hours() == 48 and solo.deadline_hours() == 24  # turn-1 bid
        assert g.view(P1)["deadline_hours"] == 48
        for step, team, alone in (("orders", 72, 72), ("rebid", 16, 16), ("bank_bid", 12, 12),
                                  ("dragon", 48, 24), ("consolidation", 48, 24)):
            assert g.deadline_hours(step) == team and solo.deadline_hours(step) == alone
        assert g.deadline_hours("over") is None


class TestVictory:
    def _end(self, provinces, realm, ranking, **kw):
        g = make("ring-4", provinces, phase="consolidation", options={"teams": True, "factions": False},
                 teams=["A", "A", "B", "B"], realm=realm, ranking=ranking, **kw)
        times_up(g.state)
        return g.state.result

    def test_last_team_standing(self):
        g = make("ring-4", {"P1": (P1, 1), "P2": (P1, 1), "P3": (P3, 1), "P4": (P3, 1)},
                 options={"teams": True, "factions": False}, teams=["A", "A", "B", "B"])
        assert not check_end(g.state)  # one player of each team left
        g.state.players[P3].eliminated = True
        for p in ("P3", "P4"):
            g.state.provinces[p].owner = None
        assert check_end(g.state) and g.state.result["winner"] == "A"

    def test_most_vps_summed_over_the_team(self):
        # A: 2 + 2 = 4 VPs; B: one lvl 2 Province (4) + one lvl 0 (2) = 6
        res = self._end({"P1": (P1, 1), "P2": (P2, 1), "P3": (P3, 1, 2), "P4": (P4, 1)},
                        dict.fromkeys((P1, P2, P3, P4), 0), [P1, P2, P3, P4])
        assert res["how"] == "times_up" and res["winner"] == "B"
        assert {r["side"]: r["vp"] for r in res["table"]} == {"A": 4, "B": 6}

    def test_tie_breakers_units_then_realm_then_highest_ranked_member(self):
        same = {"P1": (P1, 1), "P2": (P2, 1), "P3": (P3, 1), "P4": (P4, 1)}
        more_units = {**same, "P4": (P4, 2)}
        assert self._end(more_units, dict.fromkeys((P1, P2, P3, P4), 0), [P1, P2, P3, P4])["winner"] == "B"
        richer = {P1: 0, P2: 10, P3: 5, P4: 4}
        assert self._end(same, richer, [P3, P1, P2, P4])["winner"] == "A"
        even = dict.fromkeys((P1, P2, P3, P4), 0)
        assert self._end(same, even, [P4, P1, P2, P3])["winner"] == "B"  # Player#4 ranked first

    def test_the_end_is_told_with_every_teams_vps_and_what_broke_a_tie(self):
        g = make("ring-4", {"P1": (P1, 1), "P2": (P2, 1), "P3": (P3, 1, 2), "P4": (P4, 1)}, phase="consolidation",
                 options={"teams": True, "factions": False}, teams=["A", "A", "B", "B"],
                 realm=dict.fromkeys((P1, P2, P3, P4), 0), ranking=[P1, P2, P3, P4])
        times_up(g.state)
        assert g.state.events[-1].text == "Game over (Time's Up!): team B wins. VPs: team B 6, team A 4."
        same = {"P1": (P1, 1), "P2": (P2, 1), "P3": (P3, 1), "P4": (P4, 1)}
        g = make("ring-4", same, phase="consolidation", options={"teams": True, "factions": False},
                 teams=["A", "A", "B", "B"], realm={P1: 0, P2: 10, P3: 5, P4: 4}, ranking=[P3, P1, P2, P4])
        times_up(g.state)
        assert g.state.events[-1].text.endswith(
            "VPs: team A 4, team B 4; tied on VPs and Army Units, team A has more $Realm (10 to 9).")

    def test_a_team_called_team_something_is_not_told_as_team_team(self):
        g = make("ring-4", {"P1": (P1, 1), "P2": (P2, 1), "P3": (P3, 1, 2), "P4": (P4, 1)}, phase="consolidation",
                 options={"teams": True, "factions": False}, teams=["Team North", "Team North", "south", "south"],
                 realm=dict.fromkeys((P1, P2, P3, P4), 0), ranking=[P1, P2, P3, P4])
        times_up(g.state)
        assert g.state.events[-1].text == ("Game over (Time's Up!): team south wins. VPs: team south 6, "
                                           "Team North 4.")

    def test_dragon_conditions_count_starting_players_not_teams(self):
        g = make("ring-4", {"P1": (P1, 1), "P2": (P2, 1), "P3": (P3, 1), "P4": (P4, 1)},
                 options={"teams": True, "factions": False}, teams=["A", "A", "B", "B"])
        for seat in (P1, P3):  # half the starting players (2 of 4), one of each team
            g.state.players[seat].eliminated = True
        g.state.dragon_eliminations = 2
        assert check_end(g.state) and g.state.result["how"] == "dragon" and g.state.result["winner"] is None
