"""agents.search: decision-time search over the policy's orders on determinised copies of the seat's state.

It must play legal decisions, read nothing the seat may not see (two games differing only in hidden
things give the same decision and the same rollout scores), leave the real game untouched, be
deterministic for a seed, and with one candidate play exactly the base policy's greedy orders."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from agents.heuristic import HeuristicAgent
from agents.registry import make_agent
from agents.runner import MAX_ADVANCES, play_turn_step
from agents.search import (
    CANDIDATE_VARIANTS,
    DEFAULT_CANDIDATES,
    HALVING_FLOOR,
    REALM_ESTIMATE_FACTOR,
    WIDE_EXTRA,
    SearchAgent,
    determinise,
    game_around,
    public_setup,
    search_from_spec,
)
from engine.errors import ValidationError
from engine.protectors.decisions import OrdersDecision
from engine.protectors.game import Game
from engine.protectors.seat import SeatContext
from engine.protectors.state import ORDERS

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")


@pytest.fixture(autouse=True)
def _one_thread():
    torch.set_num_threads(1)  # the suite runs on 2 cores with xdist: no thread oversubscription


def _small(seed: int = 1, k: int = 3, m: int = 2) -> SearchAgent:
    return SearchAgent("ppo:hard", candidates=k, rollouts=m, seed=seed)


def _to_orders(game: Game, agents: dict, turn: int) -> Game:
    """Play ``game`` (heuristics) to the orders step of ``turn``."""
    for _ in range(MAX_ADVANCES):
        if game.over or (game.state.turn >= turn and game.step == ORDERS):
            return game
        play_turn_step(game, agents)
    raise RuntimeError("no orders step reached")


def _position(seed: int = 3, turn: int = 2, **setup) -> Game:
    game = Game({"board": "ring-5", "seed": seed, **setup})
    agents = {s: HeuristicAgent(seed * 10 + i) for i, s in enumerate(game.state.players)}
    game = _to_orders(game, agents, turn)
    assert game.step == ORDERS
    return game


def _digest(game: Game) -> str:
    st = game.state
    blob = json.dumps([game.view(None), [game.view(s) for s in st.players], st.ledger,
                       [tuple(e) for e in st.events], st.history, repr(st.rng.getstate()),
                       {s: [ln.text() for ln in d.lines()] for s, d in st.submissions.items()}],
                      sort_keys=True, default=str)
    return hashlib.sha256(blob.encode() + game.to_blob()).hexdigest()


@pytest.mark.parametrize("setup", [
    {"board": "ring-5", "seed": 4},
    {"board": "ring-6+island", "seed": 11, "options": {"factions": True}},
    {"board": "ring-4", "seed": 8, "players": [{"seat": f"Player#{i}", "team": "AB"[i % 2]} for i in range(1, 5)],
     "options": {"teams": True}},
], ids=["ring-5", "island-factions", "teams"])
def test_every_decision_is_legal(setup):
    game = Game(setup)
    seats = list(game.state.players)
    agents = {s: HeuristicAgent(i) for i, s in enumerate(seats)}
    agents[seats[1]] = searcher = _small(seed=2)
    searched: dict[str, int] = {}
    for _ in range(MAX_ADVANCES):
        if game.over:
            break
        for p in game.pending():
            if not p.submitted:
                ctx = SeatContext(game, p.seat)
                decision = agents[p.seat].act(ctx)
                ctx.validate(decision)  # raises if illegal
                if p.seat == seats[1]:
                    searched[game.step] = searched.get(game.step, 0) + (len(searcher.last_scores) > 1)
                    searcher.last_scores = []
                game.submit(p.seat, decision)
        game.advance(force=True)
    assert game.over
    assert searched.get(ORDERS, 0) >= 1  # at least one orders step really compared candidates
    assert set(searched) - set(searcher.steps)  # and other steps were played too (the base agent's)


def test_no_leak_hidden_things_do_not_change_the_decision():
    game = _position(seed=3)
    seat = game.state.active()[0]
    other = next(s for s in game.state.active() if s != seat)
    twin = game.clone()
    st = twin.state
    # what the seat may not see: another seat's $Realm, the decks' order, the generator, another
    # seat's (secret) orders already sent
    st.players[other].realm += 37
    for deck in st.decks.values():
        deck.draw.reverse()
    st.rng = random.Random(12345)
    third = next(s for s in st.active() if s not in (seat, other))
    game.submit(third, HeuristicAgent(0).act(SeatContext(game, third)))
    twin.submit(third, OrdersDecision())
    assert game.view(seat) == twin.view(seat)  # the seat's view is the same (the test's premise)

    a, b = _small(seed=7, k=4, m=4), _small(seed=7, k=4, m=4)
    da, db = a.act(SeatContext(game, seat)), b.act(SeatContext(twin, seat))
    assert da == db
    # the rollout means are the most sensitive check: a rollout fed by the real decks, generator or
    # $Realm would score differently
    assert [s for _, s in a.last_scores] == [s for _, s in b.last_scores]
    assert len(a.last_scores) >= 2


def test_act_leaves_the_real_game_unchanged():
    game = _position(seed=5)
    seat = game.state.active()[1]
    before = _digest(game)
    untouched = game.clone()
    agent = _small(seed=3, k=4, m=3)
    agent.act(SeatContext(game, seat))
    assert len(agent.last_scores) >= 2
    assert _digest(game) == before
    # and the game plays on exactly as an untouched copy does
    for g in (game, untouched):
        agents = {s: HeuristicAgent(i) for i, s in enumerate(g.state.players)}
        for _ in range(MAX_ADVANCES):
            if g.over:
                break
            play_turn_step(g, agents)
    assert game.result == untouched.result and _digest(game) == _digest(untouched)


def test_deterministic_for_a_seed():
    game = _position(seed=6)
    seat = game.state.active()[2]
    runs = []
    for _ in range(2):
        agent = _small(seed=11, k=4, m=3)
        runs.append((agent.act(SeatContext(game, seat)), [(d, s) for d, s in agent.last_scores]))
    assert runs[0] == runs[1]


def test_one_candidate_plays_the_greedy_policy():
    greedy = make_agent("ppo:hard", 0)
    one = SearchAgent("ppo:hard", candidates=1, rollouts=2, seed=0)
    checked = 0
    for seed in (3, 9):
        game = _position(seed=seed)
        for seat in game.state.active():
            ctx = SeatContext(game, seat)
            assert one.act(ctx) == greedy.act(ctx)
            checked += 1
    assert checked >= 6


def test_the_best_mean_wins_and_the_greedy_one_wins_ties():
    game = _position(seed=3)
    seat = game.state.active()[0]
    agent = _small(seed=7, k=4, m=4)
    d = agent.act(SeatContext(game, seat))
    scores = [s for _, s in agent.last_scores]
    best = max(scores)
    assert d == agent.last_scores[scores.index(best)][0]
    assert agent.last_scores[0][0] == make_agent("ppo:hard", 0).act(SeatContext(game, seat))
    assert len({c for c, _ in agent.last_scores}) == len(agent.last_scores)  # distinct candidates


def test_determinise_resamples_only_the_hidden_parts():
    game = _position(seed=3)
    seat = game.state.active()[0]
    red = SeatContext(game, seat).state
    frozen = _digest(game_around(public_setup(game.view(seat)), red.clone()))
    a, b = determinise(red, seat, 1), determinise(red, seat, 2)
    assert _digest(game_around(public_setup(game.view(seat)), red)) == frozen  # input unchanged
    for s, p in a.players.items():
        if s != seat and not p.eliminated:
            assert p.realm == round(red.players[seat].realm * REALM_ESTIMATE_FACTOR)
    assert a.players[seat].realm == red.players[seat].realm
    for name, deck in a.decks.items():
        assert sorted(deck.draw) == sorted(red.decks[name].draw)
        assert deck.discard == red.decks[name].discard
    assert any(a.decks[n].draw != b.decks[n].draw for n in a.decks if len(a.decks[n].draw) > 1)
    assert a.provinces == red.provinces and a.ranking == red.ranking and a.turn == red.turn
    g = game_around(public_setup(game.view(seat)), a)
    assert g.step == ORDERS and not g.over and g.view(seat)["provinces"] == game.view(seat)["provinces"]


def test_a_look_at_a_deck_stays_on_top():
    game = _position(seed=3)
    seat = game.state.active()[0]
    red = SeatContext(game, seat).state
    deck = next(n for n, d in red.decks.items() if len(d.draw) > 2)
    card = sorted(red.decks[deck].draw)[-1]
    red.peeks = {seat: [{"deck": deck, "card": card, "by": "Palantír"}]}
    for sample in range(5):
        assert determinise(red, seat, sample).decks[deck].draw[0] == card


def test_specs_and_registry():
    a = make_agent("search:2,3", 1)
    assert isinstance(a, SearchAgent) and (a.candidates, a.rollouts, a.base_spec) == (2, 3, "ppo:hard")
    b = search_from_spec("search:4,5,ppo:normal", 1)
    assert (b.candidates, b.rollouts, b.base_spec) == (4, 5, "ppo:normal")
    c = make_agent("search", 0)
    assert isinstance(c, SearchAgent) and c.name == "search"
    h = search_from_spec("search:2,2,heuristic", 0)  # a non-policy base: no samples, still a search
    assert h.samplers == []
    for bad in ("search:x,3", "search:3", "search:0,3", "search:2,0"):
        with pytest.raises(ValidationError):
            make_agent(bad, 0)


def test_search_wide_also_weighs_the_heuristic_variants_and_other_legal_choices():
    """``search`` (``expert``): K of the policy's and the heuristic's choices, then each knob variant's;
    ``search-wide`` then up to WIDE_EXTRA of the step's other legal choices, each once and each legal."""
    default = make_agent("search", 0)
    assert default.extra == 0 and default.halving == 0 and default.variants
    agent = make_agent("search-wide", 0)
    assert len(agent.variants) == len(CANDIDATE_VARIANTS) and agent.candidates == DEFAULT_CANDIDATES
    assert agent.extra == WIDE_EXTRA and agent.halving > 0
    plain = make_agent("search:4,64", 0)  # an explicit K, M: the policy's candidates only, M rollouts each
    assert plain.variants == [] and plain.extra == 0 and plain.halving == 0
    found, drawn = 0, 0
    for seed in (3, 9):
        game = _position(seed=seed)
        for seat in game.state.active():
            ctx = SeatContext(game, seat)
            base = agent.base.act(ctx)
            cands = agent._candidates(ctx, base)
            assert cands[0] == base and len(cands) == len(set(cands))
            assert len(cands) <= DEFAULT_CANDIDATES + len(CANDIDATE_VARIANTS) + WIDE_EXTRA
            for knobs in CANDIDATE_VARIANTS:  # every variant's decision is among them
                assert HeuristicAgent(0, **knobs).act(ctx) in cands
            for d in cands:
                assert ctx.validate(d) == d
            own = [d for d in cands if not agent._origins[d].startswith("another legal choice")]
            found += len(own) > DEFAULT_CANDIDATES
            drawn += len(cands) - len(own)
            assert cands[:len(own)] == own  # the drawn ones come after every agent's own choice
    assert found  # the variants add choices the policy and the plain heuristic did not make
    assert drawn  # and the enumeration adds more


def test_the_work_cap_stops_the_rollouts_after_the_minimum_and_stays_deterministic():
    from agents.search import MIN_ROLLOUTS

    game = _position(seed=5)
    seat = game.state.active()[0]
    uncapped = SearchAgent("ppo:hard", candidates=3, rollouts=MIN_ROLLOUTS + 4, seed=2)
    uncapped.act(SeatContext(game, seat))
    assert len(uncapped.last_scores) >= 2 and uncapped.last_rollouts == MIN_ROLLOUTS + 4
    runs = []
    for _ in range(2):  # a cap of one action binds at once: every candidate still gets MIN_ROLLOUTS
        capped = SearchAgent("ppo:hard", candidates=3, rollouts=MIN_ROLLOUTS + 4, seed=2, max_work=1)
        decision = capped.act(SeatContext(game, seat))
        assert capped.last_rollouts == MIN_ROLLOUTS
        runs.append((decision, [s for _, s in capped.last_scores]))
    assert runs[0] == runs[1]
    # scores are means over the rollouts played, so they stay within the reward's range
    assert all(-1.0 <= s <= 1.0 for s in runs[0][1])


def _halving_search(seed: int = 2, **kw) -> SearchAgent:
    return SearchAgent("ppo:hard", candidates=2, rollouts=1, seed=seed, extra=6, halving=24, **kw)


def test_successive_halving_plays_the_best_finalist_and_gives_the_finalists_more_rollouts():
    game = _position(seed=5)
    seat = game.state.active()[0]
    agent = _halving_search()
    counts = []
    real = agent._evaluate

    def spy(ctx, cands):
        scores, finalists = real(ctx, cands)
        counts.append((cands, scores, finalists))
        return scores, finalists

    agent._evaluate = spy
    decision = agent.act(SeatContext(game, seat))
    (cands, scores, finalists), = counts
    assert len(cands) > 2 and 1 <= len(finalists) < len(cands)
    # the decision is the finalist with the best mean (the earlier one on a tie), not the best mean overall
    best = max(finalists, key=lambda i: (scores[i], -i))
    assert decision == cands[best]
    assert agent.last_rollouts > HALVING_FLOOR  # the finalists played more rounds than the first
    assert all(-1.0 <= s <= 1.0 for s in scores)
    again = _halving_search()
    assert again.act(SeatContext(game, seat)) == decision and again.last_scores == agent.last_scores


def test_a_halving_search_under_the_work_cap_stops_after_one_round_of_the_floor():
    game = _position(seed=5)
    seat = game.state.active()[0]
    capped = _halving_search(max_work=1)
    decision = capped.act(SeatContext(game, seat))
    assert capped.last_rollouts == HALVING_FLOOR
    means = [s for _, s in capped.last_scores]
    assert decision == capped.last_scores[max(range(len(means)), key=lambda i: (means[i], -i))][0]
    with pytest.raises(ValidationError):
        SearchAgent("ppo:hard", 2, 2, seed=0, extra=-1)
    with pytest.raises(ValidationError):
        SearchAgent("ppo:hard", 2, 2, seed=0, halving=-5)
