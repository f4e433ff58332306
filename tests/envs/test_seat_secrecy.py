"""The seat env's learner never sees an opponent's hidden choices before the engine reveals them.

``test_secrecy.py`` holds the parallel env to this; here the seat env: two copies of one seeded game, the
learner taking the same actions in both, and one opponent choosing differently in one of them during one
engine step (its bid, orders, Dragon commitments or buys). Until the engine resolves that step, every
observation, mask, info and reward the learner gets must be the same in both copies.
"""

from __future__ import annotations

import hashlib
from collections import Counter

import numpy as np
import pytest

from agents.registry import make_agent
from envs.seat_env import ProtectorsSeatEnv

CONFIGS = [dict(players=5), dict(players=16, teams=4, factions=True),
           dict(players=8, teams=2, factions=True, version="grand", island=True)]
LEARNER = "Player#1"
PHASES = 12  # engine resolutions per game looked at


def _resolved(env: ProtectorsSeatEnv) -> int:
    return sum(1 for action in env.game.actions if action[0] == "advance")


def _pick(mask: np.ndarray, *key) -> int:
    """A legal action drawn from a hash of ``key``: the same key gives the same action in both copies."""
    h = int.from_bytes(hashlib.blake2b(repr(key).encode(), digest_size=8).digest(), "little")
    legal = np.flatnonzero(mask)
    return int(legal[h % len(legal)])


class Swapped:
    """An opponent that asks its own agent every time (its random stream moves as it would) but, during
    engine resolution ``phase``, submits another agent's decision instead."""

    def __init__(self, env: ProtectorsSeatEnv, agent, phase: int, seed: int):
        self.env, self.agent, self.phase, self.other = env, agent, phase, make_agent("random", seed)
        self.name = getattr(agent, "name", "")
        self.differed = False

    def act(self, ctx):
        own = self.agent.act(ctx)
        if _resolved(self.env) != self.phase:
            return own
        other = self.other.act(ctx)
        self.differed |= repr(other) != repr(own)
        return other


def _trace(kw: dict, seed: int, swap: tuple[str, int] | None) -> tuple[list, bool, Counter]:
    """The learner's view, choice by choice, with the resolution count it was taken at; whether the swapped
    opponent chose differently; the engine steps at which the learner chose."""
    env = ProtectorsSeatEnv(opponents=("random",), seat=LEARNER, **kw)
    obs, info = env.reset(seed=seed)
    swapped = None
    if swap is not None:
        seat, phase = swap
        swapped = env.agents[seat] = Swapped(env, env.agents[seat], phase, seed + 1)
    out, steps, reward, t = [], Counter(), 0.0, 0
    while True:
        n = _resolved(env)
        out.append((n, obs.tobytes(), info["action_mask"].tobytes(), repr(sorted(info.items())), reward))
        if info["result"] is not None or n > PHASES:
            break
        steps[n] = info["engine_step"]
        obs, reward, _, _, info = env.step(_pick(info["action_mask"], seed, t))
        t += 1
    return out, bool(swapped and swapped.differed), steps


def _leaks(kw: dict, seeds: range, seat: str) -> tuple[list[str], Counter]:
    leaks, tried = [], Counter()
    for seed in seeds:
        base, _, steps = _trace(kw, seed, None)
        for phase, step in sorted(set(steps.items())):
            other, differed, _ = _trace(kw, seed, (seat, phase))
            tried[step] += differed
            before = [v for v in base if v[0] <= phase]
            if before != [v for v in other if v[0] <= phase]:
                leaks.append(f"the learner saw {seat}'s {step} choices (seed {seed}, resolution {phase})")
    return leaks, tried


@pytest.mark.parametrize("kw", CONFIGS, ids=lambda kw: "-".join(f"{k}={v}" for k, v in kw.items()))
def test_the_learner_sees_no_opponents_choices_before_they_are_revealed(kw):
    leaks, tried = _leaks(kw, range(3), "Player#2")
    assert leaks == []
    # not vacuous: the opponent chose differently in steps where the learner chose too, of every main kind
    assert {step for step, n in tried.items() if n} >= {"bid", "orders", "consolidation"}, tried


def test_the_check_sees_a_learner_reading_an_opponents_choices(monkeypatch):
    """The comparison finds a leak when there is one: opponents who act before the learner is asked, and an
    info that lists what they submitted."""
    real_run, real_info = ProtectorsSeatEnv._run_until_learner, ProtectorsSeatEnv._info

    def early(self):
        if not self.game.over and self._acting:
            self._others_act()
        real_run(self)

    def leaky(self):
        out = real_info(self)
        out["others"] = repr(sorted((s, repr(d)) for s, d in self.game.state.submissions.items() if s != self.seat))
        return out

    monkeypatch.setattr(ProtectorsSeatEnv, "_run_until_learner", early)
    monkeypatch.setattr(ProtectorsSeatEnv, "_info", leaky)
    leaks, _ = _leaks(dict(players=5), range(2), "Player#2")
    assert leaks
