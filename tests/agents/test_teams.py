"""Team games: Regent's AI seats never march on their own team-mates (agents/teams.py; rules: 003 Team
Games). Before session 16 the heuristic sent 42% of its marches into team-mates' Provinces in 6-seat
teams of 2, and `strong` 38% at 9 seats."""

from __future__ import annotations

import pytest

from agents.registry import make_agent
from agents.runner import play_turn_step
from agents.teams import left_to_a_mate, spare_team_mates, spared_note, team_mates
from engine.protectors.decisions import OrdersDecision
from engine.protectors.game import Game
from engine.protectors.orders import Fortify, March, Support, Work
from engine.protectors.seat import SeatContext
from tests.protectors.helpers import position


def _team_game(cards=()):
    # Player#1 and Player#2 are a team; P2 (Player#2) and P3 (Player#3) both border Player#1's P1
    return position("ring-4", 4, {"P1": ("Player#1", 3), "P2": ("Player#2", 1), "P3": ("Player#3", 1),
                                  "P4": ("Player#4", 1)},
                    teams=["a", "a", "b", "b"], options={"teams": True}, cards=cards)


def test_team_mates_are_the_other_live_seats_of_the_team():
    g = _team_game()
    assert team_mates(g.state, "Player#1") == {"Player#2"} and team_mates(g.state, "Player#3") == {"Player#4"}
    assert team_mates(position("ring-4", 4, {f"P{i}": (f"Player#{i}", 1) for i in range(1, 5)}).state,
                      "Player#1") == frozenset()


def test_a_march_on_a_team_mate_and_its_support_become_fortify():
    g = _team_game()
    ctx = SeatContext(g, "Player#1")
    d = OrdersDecision((March(2, "P1", "P2"),))
    assert spare_team_mates(ctx, d).orders == (Fortify("P1"),)
    enemy = OrdersDecision((March(2, "P1", "P4"),))
    assert spare_team_mates(ctx, enemy) == enemy  # an enemy Province stays a target


def test_when_a_card_forbids_fortify_the_spared_march_works_instead():
    g = _team_game(cards=("Restlessness of Spring",))
    ctx = SeatContext(g, "Player#1")
    assert spare_team_mates(ctx, OrdersDecision((March(2, "P1", "P2"),))).orders == (Work("P1"),)


def test_this_seats_support_of_a_march_on_a_team_mate_is_spared_too():
    provinces = {"P1": ("Player#1", 2), "P3": ("Player#1", 2), "P2": ("Player#2", 1), "P4": ("Player#3", 1),
                 "P5": ("Player#4", 1), "P6": ("Player#5", 1)}
    g = position("ring-6", 6, provinces, teams=["a", "a", "b", "b", "c", "c"], options={"teams": True})
    ctx = SeatContext(g, "Player#1")
    d = OrdersDecision((March(2, "P1", "P2"), Support("Player#1", "P2", "P3")))
    assert spare_team_mates(ctx, d).orders == (Fortify("P1"), Fortify("P3"))
    g_plain = position("ring-6", 6, provinces)
    assert spare_team_mates(SeatContext(g_plain, "Player#1"), d) == d  # no teams: an attack like any other


@pytest.mark.parametrize("level", ["heuristic", "steward", "strong"])
def test_ai_seats_never_march_on_team_mates_in_play(level):
    marches = 0
    for seed in range(3):
        g = Game({"board": "ring-6", "seed": 500 + seed, "options": {"teams": True},
                  "players": [{"seat": f"Player#{i + 1}", "team": "abc"[i // 2]} for i in range(6)]})
        agents = {s: make_agent(level if i % 2 == 0 else "heuristic", seed=i) for i, s in enumerate(g.state.players)}
        while not g.over:
            if g.step == "orders":
                for s in g.deciding_seats():
                    d = agents[s].act(SeatContext(g, s))
                    for o in d.orders:
                        if isinstance(o, March):
                            marches += 1
                            assert g.state.holder(o.dst) not in team_mates(g.state, s), (level, seed, o)
                    g.submit(s, d)
                g.advance(force=True)
            else:
                play_turn_step(g, agents)
    assert marches > 0  # the seats did attack: only never their own team


def test_the_steward_never_retakes_a_province_from_a_team_mate():
    # found by a GM's 12-seat team game: the steward marched on its team-mate to "retake" its start Province
    # (a typed-in position's start is the setup's placement, never held); it retakes from other seats only
    from agents.steward import StewardAgent

    def retakes(game):
        steward = StewardAgent(seed=0)
        steward.owned.add("P2")  # it held P2 before; Player#2 holds it now
        return {o.dst for o in steward.act(SeatContext(game, "Player#1")).orders if isinstance(o, March)}

    plain = position("ring-4", 4, {"P1": ("Player#1", 3), "P2": ("Player#2", 1), "P3": ("Player#3", 1),
                                   "P4": ("Player#4", 1)})
    assert retakes(plain) == {"P2"}  # Player#2 is no team-mate here: the steward takes its Province back
    assert retakes(_team_game()) == set()  # the same board, Player#2 its team-mate: it is left alone


def _between_mates():
    # ring-6: Player#1 (P1) and Player#2 (P3) are a team, P2 empty between them; Player#3 at P5, P4 and P6 empty
    return position("ring-6", 6, {"P1": ("Player#1", 3), "P3": ("Player#2", 3), "P5": ("Player#3", 3)},
                    teams=["a", "a", "b", "b", "c", "c"], options={"teams": True})


def test_a_province_both_team_mates_can_reach_is_the_earlier_seats_to_take():
    # rules: 003 Team Games (the team agrees its orders): two AI team-mates marched into one empty Province together
    # and fought each other there (18 such battles in 100 all-strong Grand games of teams of 2)
    g = _between_mates()
    assert left_to_a_mate(g.state, "Player#2", "P2") and not left_to_a_mate(g.state, "Player#1", "P2")
    assert not left_to_a_mate(g.state, "Player#2", "P4")  # only Player#2 reaches P4
    late, early = SeatContext(g, "Player#2"), SeatContext(g, "Player#1")
    assert spare_team_mates(late, OrdersDecision((March(2, "P3", "P2"),))).orders == (Fortify("P3"),)
    assert spare_team_mates(early, OrdersDecision((March(2, "P1", "P2"),))).orders == (March(2, "P1", "P2"),)
    assert spare_team_mates(late, OrdersDecision((March(2, "P3", "P4"),))).orders == (March(2, "P3", "P4"),)


def test_an_earlier_team_mate_with_no_units_next_to_it_leaves_the_province_open():
    g = position("ring-6", 6, {"P1": ("Player#1", 0), "P6": ("Player#1", 2), "P3": ("Player#2", 3),
                               "P5": ("Player#3", 3)},
                 teams=["a", "a", "b", "b", "c", "c"], options={"teams": True})
    assert not left_to_a_mate(g.state, "Player#2", "P2")  # Player#1's P1 holds no unit to march with


def test_the_convention_can_be_turned_off(monkeypatch):
    import agents.teams as teams

    monkeypatch.setattr(teams, "TEAM_TARGETS", False)
    assert not left_to_a_mate(_between_mates().state, "Player#2", "P2")


@pytest.mark.parametrize("level", ["heuristic", "strong"])
def test_ai_team_mates_never_fight_each_other_in_play(level):
    battles = 0
    for seed in range(4):
        g = Game({"board": "ring-8-grand", "seed": 700 + seed, "options": {"teams": True, "version": "grand"},
                  "players": [{"seat": f"Player#{i + 1}", "team": "abcd"[i // 2]} for i in range(8)]})
        agents = {s: make_agent(level, seed=i) for i, s in enumerate(g.state.players)}
        while not g.over:
            play_turn_step(g, agents)
        for e in g.state.events:
            if e.kind == "battle":
                battles += 1
                a, b = e.data["us"]
                assert g.state.team_of(a) != g.state.team_of(b), (level, seed, e.text)
    assert battles > 0  # the seats did fight: only never their own team


def test_the_trace_says_which_march_the_team_rule_took_out():
    g = _between_mates()
    late = SeatContext(g, "Player#2")
    wanted = OrdersDecision((March(2, "P3", "P2"),))
    got = spare_team_mates(late, wanted)
    note = spared_note(late, wanted, got)
    assert note == ("its March! into P2 was left to a team-mate whose units stand nearer (TEAM_TARGETS) "
                    "(rules: 003 Team Games)")
    assert spared_note(late, got, got) == ""
    onto = OrdersDecision((March(2, "P1", "P2"),))  # _team_game: P2 is Player#2's, Player#1's team-mate
    ctx = SeatContext(_team_game(), "Player#1")
    assert spared_note(ctx, onto, spare_team_mates(ctx, onto)).startswith(
        "its March! into P2 was not given: P2 is team-mate Player#2's")


def test_a_policy_seats_decision_line_carries_the_team_note():
    from service.explain import reason

    class Spared:
        last_spared = "its March! into P2 was left to a team-mate whose units stand nearer (TEAM_TARGETS)"
        temperature = 0.0
        decided_by = "policy"

    g = _between_mates()
    view = SeatContext(g, "Player#2").view
    line = reason("strong", Spared(), OrdersDecision((Fortify("P3"),)), view)
    assert line == ("fortifies P3 (the trained policy's choice: its most likely move; its March! into P2 was left to a "
                    "team-mate whose units stand nearer (TEAM_TARGETS))")
