"""agents.steward_search: the steward looking ahead for the table.

It must stay a steward (legal decisions, no march into a Province it never held, no support, min.US met
when it can), value the table and not its own seat, read nothing its seat may not see, be deterministic
for a seed, with one candidate be the steward itself, and say why it chose what it chose."""

from __future__ import annotations

import random

import pytest

from agents.heuristic import HeuristicAgent
from agents.registry import make_agent
from agents.runner import MAX_ADVANCES, finish, play_turn_step
from agents.steward_search import StewardSearchAgent, table_value
from engine.protectors.decisions import DragonDecision, OrdersDecision
from engine.protectors.game import Game
from engine.protectors.orders import March, Support
from engine.protectors.seat import SeatContext
from engine.protectors.state import DRAGON, ORDERS
from envs.opponents import make_setup


def test_the_table_value():
    assert table_value({"how": "dragon", "winner": None}, "Player#1") == -1.0
    assert table_value({"how": "last_man_standing", "winner": "Player#2"}, "Player#1") == 1.0
    assert table_value({"how": "last_man_standing", "winner": "Player#1"}, "Player#1") == 0.0
    assert table_value({"how": "last_man_standing", "winner": "A"}, "Player#1", "A") == 0.0  # its own team
    assert table_value({"how": "times_up", "winner": None}, "Player#1") == 0.0
    assert table_value(None, "Player#1") == 0.0


class _Watched(StewardSearchAgent):
    """steward-search, every decision checked against the state it was made in."""

    def __init__(self, seed, log):
        super().__init__(seed, rollouts=2)
        self.log = log
        self.held: set[str] = set()

    def act(self, ctx: SeatContext):
        st, me = ctx.state, ctx.seat
        self.held |= {p for p, pr in st.provinces.items() if pr.owner == me} | {st.players[me].start}
        decision = super().act(ctx)
        ctx.validate(decision)
        assert self.last_reasons and all(isinstance(r, str) and r for r in self.last_reasons)
        if len(self.last_scores) > 1:
            self.log["searched"] += 1
            self.log["changed"] += decision != self.last_scores[0][0]
            assert any("looked ahead" in r for r in self.last_reasons)
        if ctx.step == ORDERS:
            assert isinstance(decision, OrdersDecision)
            for o in decision.orders:
                assert not isinstance(o, Support)
                assert not isinstance(o, March) or st.provinces[o.dst].owner in (None, me) or o.dst in self.held
        if ctx.step == DRAGON:
            assert isinstance(decision, DragonDecision)
            view = ctx.view
            green = [p for p, pr in view["provinces"].items() if pr["owner"] == me and not pr["burnt"]
                     and p != view.get("island")]
            units = sum(pr["units"] for p, pr in view["provinces"].items() if pr["owner"] == me
                        and pr["holder"] == me and p != view.get("island"))
            assert sum(c.count for c in decision.commits) >= min(len(green), units)
        return decision


@pytest.mark.parametrize("seed, players", [(1, 5), (2, 7), (4, 5)])
def test_it_stays_a_steward_and_says_why(seed, players):
    log = {"searched": 0, "changed": 0}
    game = Game(make_setup(board=None, players=players, seed=seed))
    seats = list(game.state.players)
    agents = {s: make_agent("heuristic", seed * 10 + i) for i, s in enumerate(seats)}
    agents[seats[seed % players]] = _Watched(seed, log)
    finish(game, agents)
    assert game.over and log["searched"] >= 2


def _blind(seed: int) -> StewardSearchAgent:
    """steward-search with every rollout worth the same: each candidate is built, checked and played out,
    and the tie keeps the steward's own choice."""
    agent = StewardSearchAgent(seed, rollouts=1)
    agent.value = lambda result, seat, team=None: 0.0
    act, agent.compared = agent.act, 0

    def counted(ctx):
        decision = act(ctx)
        agent.compared += len(agent.last_scores) > 1
        return decision

    agent.act = counted
    return agent


def test_a_tie_keeps_the_steward():
    for seed in (3, 8):
        results = []
        for filler in (make_agent("steward", seed), _blind(seed)):
            game = Game(make_setup(board=None, players=5, seed=seed))
            seats = list(game.state.players)
            agents = {s: HeuristicAgent(seed * 10 + i) for i, s in enumerate(seats)}
            agents[seats[0]] = filler
            results.append((finish(game, agents).result, game.state.history))
        assert results[0] == results[1]
        assert filler.compared >= 2  # it really compared candidates, and still played the steward's games


def _orders_position(seed: int = 3) -> Game:
    game = Game({"board": "ring-5", "seed": seed})
    agents = {s: HeuristicAgent(seed * 10 + i) for i, s in enumerate(game.state.players)}
    for _ in range(MAX_ADVANCES):
        if game.state.turn >= 2 and game.step == ORDERS:
            return game
        play_turn_step(game, agents)
    raise AssertionError("no turn-2 orders step")


def test_no_leak_and_deterministic():
    game = _orders_position()
    seat = next(s for s in game.state.active()  # a seat with a choice to make (a Fortify! or Work, work!)
                if len(StewardSearchAgent(5)._candidates(SeatContext(game, s),
                                                          make_agent("steward", 5).act(SeatContext(game, s)))) > 1)
    other = next(s for s in game.state.active() if s != seat)
    twin = game.clone()
    st = twin.state
    st.players[other].realm += 41  # what the seat may not see: another's $Realm, the decks, the generator
    for deck in st.decks.values():
        deck.draw.reverse()
    st.rng = random.Random(99)
    assert game.view(seat) == twin.view(seat)
    a, b = StewardSearchAgent(5, rollouts=3), StewardSearchAgent(5, rollouts=3)
    da, db = a.act(SeatContext(game, seat)), b.act(SeatContext(twin, seat))
    assert len(a.last_scores) >= 2
    assert da == db and a.last_scores == b.last_scores
    again = StewardSearchAgent(5, rollouts=3)
    assert again.act(SeatContext(game, seat)) == da and again.last_scores == a.last_scores


def test_it_is_in_the_registry():
    agent = make_agent("steward-search", 1)
    assert isinstance(agent, StewardSearchAgent) and agent.name == "steward-search"
