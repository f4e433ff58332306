"""``envs.pacing``: each engine step of the parallel env lasts a number of env steps worked out from public
facts, at least the choices any deciding seat's planner can ask for; and the env keeps to it."""

from __future__ import annotations

import random

import numpy as np
import pytest

from agents.heuristic import HeuristicAgent
from agents.spaces import layout as L
from agents.spaces.planner import make_planner
from engine.protectors.game import Game
from engine.protectors.seat import SeatContext
from engine.protectors.views import seat_state
from envs.opponents import make_setup
from envs.pacing import choice_bound, step_turns
from envs.parallel_env import ProtectorsParallelEnv

CONFIGS = [
    dict(players=5),
    dict(players=6, factions=True, island=True),
    dict(players=5, version="grand", island=True, factions=True),
    dict(players=6, teams=2, factions=True),
]


def _positions(kw: dict, seed: int, turns: int = 8):
    """Every step with deciding seats of a game played by heuristic agents (``turns`` turns at most)."""
    g = Game(make_setup(seed=seed, **{"board": None, **kw}))
    agents = {s: HeuristicAgent(seed * 31 + i) for i, s in enumerate(g.state.players)}
    while not g.over and g.state.turn <= turns:
        if g.deciding_seats():
            yield g
        for s in g.deciding_seats():
            if s not in g.state.submissions:
                g.submit(s, agents[s].act(SeatContext(g, s)))
        g.advance(force=True)


def _longest(state, seat: str, rng: random.Random, tries: int = 6) -> int:
    """The most choices seen over ``tries`` walks of ``seat``'s planner (forced ones counted), each walk
    preferring actions other than DONE, which ask for more choices."""
    most = 0
    for _ in range(tries):
        p = make_planner(state, seat)
        while not p.finished:
            legal = p.legal()
            more = [a for a in legal if a != L.DONE]
            p.apply(rng.choice(more) if more and rng.random() < 0.85 else rng.choice(legal))
        most = max(most, p.choices)
    return most


@pytest.mark.parametrize("kw", CONFIGS, ids=lambda kw: "-".join(f"{k}={v}" for k, v in kw.items()))
def test_the_bound_covers_every_planner_and_reads_only_public_facts(kw):
    rng, kinds, tight = random.Random(1), set(), 0
    for seed in range(2):
        for g in _positions(kw, seed):
            st = g.state
            deciding = [s for s in g.deciding_seats() if s not in st.submissions]
            for s in deciding:
                used, bound = _longest(st, s, rng), choice_bound(st, s)
                assert used <= bound, f"{s} {st.step} turn {st.turn}: {used} choices, bound {bound}"
                tight += used == bound
                kinds.add(st.step)
            # what every seat sees gives the same number: no $Realm, stored decision or deck order in it
            for viewer in st.players:
                red = seat_state(st, viewer)
                assert [choice_bound(red, s) for s in deciding] == [choice_bound(st, s) for s in deciding]
                assert step_turns(red, deciding) == step_turns(st, deciding)
    assert kinds >= {"bid", "orders", "consolidation", "dragon"}, kinds
    assert tight  # the walks reach the bound now and then: it is not padded far beyond the planners


def test_the_bound_moves_with_what_it_reads():
    """Not a constant: more orderable Provinces, more choices allowed in the orders step."""
    g = Game(make_setup(seed=0, board=None, players=5))
    g.advance(force=True)  # the bid, with the rulebook defaults
    st = g.state
    assert st.step == "orders"
    seat = st.active()[0]
    before = choice_bound(st, seat)
    mine = st.owned(seat)[0]
    spare = st.owned(st.active()[1])[0]  # another seat's Province, with units, becomes this seat's
    st.provinces[spare].owner, st.provinces[spare].occupant = seat, None
    st.provinces[spare].units = st.provinces[mine].units
    assert choice_bound(st, seat) == before + 3


def _resolutions(env) -> int:
    return sum(1 for a in env.game.actions if a[0] == "advance")


@pytest.mark.parametrize("kw", [dict(players=4), dict(players=6, version="grand", island=True, factions=True)])
def test_every_engine_step_lasts_its_step_turns_and_padded_steps_ignore_actions(kw):
    env = ProtectorsParallelEnv(**kw)
    rng = np.random.default_rng(0)
    obs, infos = env.reset(seed=2)
    padded = 0
    while env.agents:
        k, done_at = env.steps_left, _resolutions(env)
        assert k == step_turns(
            env.game.state, [s for s in env.game.deciding_seats() if s not in env.game.state.submissions]
        )
        for i in range(k):
            assert {infos[a]["steps_left"] for a in env.agents} == {k - i}
            acts = {}
            for a in env.agents:
                if env.open_planner(a) is None:  # padded: DONE only, no stage; any action is ignored, unpaid
                    assert obs[a]["action_mask"].tolist() == [int(j == L.DONE) for j in range(L.ACTION_SIZE)]
                    assert infos[a]["stage"] is None
                    acts[a] = int(rng.integers(L.ACTION_SIZE))
                    padded += 1
                else:
                    acts[a] = int(rng.choice(np.flatnonzero(obs[a]["action_mask"])))
            before = {a: env.planners.get(a) for a in env.agents}
            obs, rewards, terms, _, infos = env.step(acts)
            if any(terms.values()):
                break
            if i < k - 1:
                assert _resolutions(env) == done_at  # not before its k env steps
                for a, p in before.items():
                    if p is not None and p.finished:
                        assert rewards[a] == 0.0
        else:
            assert _resolutions(env) > done_at  # resolved after exactly k env steps
            continue
        break
    assert padded


def test_a_seat_that_does_not_finish_in_time_is_left_to_the_rulebook_default():
    """Missing (or unmasked) actions cannot hold the step: after its env steps it resolves, the unfinished
    seat defaulted as an inactive player would be."""
    env = ProtectorsParallelEnv(players=3)
    obs, _ = env.reset(seed=1)
    k, silent = env.steps_left, env.possible_agents[0]
    assert env.open_planner(silent) is not None
    for _ in range(k):
        obs, *_ = env.step({a: int(np.flatnonzero(obs[a]["action_mask"])[-1]) for a in env.agents if a != silent})
    assert any(a[0] == "advance" for a in env.game.actions)
    assert env.game.state.turn == 1 and env.game.step != "bid"


def test_a_wrong_bound_is_an_error_not_a_silent_default(monkeypatch):
    import envs.parallel_env as pe

    monkeypatch.setattr(pe, "step_turns", lambda state, seats: 1 if seats else 0)
    env = ProtectorsParallelEnv(players=4, factions=True)  # the turn-1 bid asks faction, then amount
    obs, _ = env.reset(seed=0)
    with pytest.raises(RuntimeError, match="choice_bound"):
        env.step({a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in env.agents})
