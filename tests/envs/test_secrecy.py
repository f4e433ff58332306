"""No seat's observation moves with another seat's hidden choices before the engine reveals them.

``test_encoding.py`` checks the encoder on one 5-seat position. Here the whole parallel env is played
(16 seats with teams and factions; Grand with the Island and teams): two copies of one seeded game take
the same actions except one seat's choices during one engine phase (its bid and faction, orders, Dragon
commitments and burns, buys). Until the engine resolves that phase, every other seat's observation,
mask, info and reward must be the same in both copies.
"""

from __future__ import annotations

import hashlib
import warnings
from collections import Counter

import numpy as np
import pytest

from envs.parallel_env import ProtectorsParallelEnv

CONFIGS = [dict(players=16, teams=4, factions=True),
           dict(players=8, teams=2, factions=True, version="grand", island=True)]
PHASES = 30  # engine resolutions per game looked at


def _pick(mask: np.ndarray, *key) -> int:
    """A legal action drawn from a hash of ``key``: the same key gives the same action in both copies."""
    h = int.from_bytes(hashlib.blake2b(repr(key).encode(), digest_size=8).digest(), "little")
    legal = np.flatnonzero(mask)
    return int(legal[h % len(legal)])


class Copy:
    """One copy of the game; ``resolved`` counts the engine's resolutions (its ``advance`` actions)."""

    def __init__(self, kw: dict, seed: int):
        self.env = ProtectorsParallelEnv(**kw)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.obs, self.infos = self.env.reset(seed=seed)
        self.t = 0
        self.hidden: list[int] = []  # the perturbed seat's actions

    @property
    def resolved(self) -> int:
        """The engine's resolutions so far, read from its action log (a compiled ``Game``'s methods cannot be
        wrapped)."""
        return sum(1 for action in self.env.game.actions if action[0] == "advance")

    def step(self, seed: int, seat: str, salt: str) -> bool:
        acts = {s: _pick(o["action_mask"], seed, s, self.t, salt if s == seat else "") for s, o in self.obs.items()}
        if self.env.open_planner(seat) is not None:
            self.hidden.append(acts[seat])
        self.obs, self.rewards, terms, _, self.infos = self.env.step(acts)
        self.t += 1
        return any(terms.values())


def _phases(kw: dict, seed: int, seat: str) -> list[tuple[int, str]]:
    """The resolutions before which ``seat`` has a choice, with the engine step."""
    c, out = Copy(kw, seed), []
    while c.resolved <= PHASES:
        if c.env.open_planner(seat) is not None and (not out or out[-1][0] != c.resolved):
            out.append((c.resolved, c.env.game.step))
        if c.step(seed, seat, ""):
            break
    return out


def _compare(kw: dict, seed: int, seat: str, phase: int) -> tuple[bool, str | None]:
    """Play both copies to ``phase``, then let ``seat`` choose differently in one of them until the engine
    resolves. Returns (the seat's choices differed before the resolution, the first leak found)."""
    a, b = Copy(kw, seed), Copy(kw, seed)
    while a.resolved < phase:
        if a.step(seed, seat, "") | b.step(seed, seat, ""):
            return False, None
    a.hidden, b.hidden = [], []
    differed = False
    while True:
        over = a.step(seed, seat, "") | b.step(seed, seat, "other")
        if a.resolved != phase and b.resolved != phase:
            return differed, None  # revealed (resolved in both copies): from here the seats may see it
        if a.resolved != b.resolved:  # when the step resolves is itself seen by every seat
            return differed, (f"{seat}'s {a.env.game.step} choices moved when the step resolved (seed {seed}, "
                              f"resolution {phase}, env step {a.t})")
        differed = a.hidden != b.hidden
        for s in a.obs:
            if s == seat:
                continue
            same = (np.array_equal(a.obs[s]["observation"], b.obs[s]["observation"])
                    and np.array_equal(a.obs[s]["action_mask"], b.obs[s]["action_mask"])
                    and a.infos[s] == b.infos[s] and a.rewards[s] == b.rewards[s])
            if not same:
                return differed, f"{s} saw {seat}'s {a.env.game.step} choices (seed {seed}, resolution {phase})"
        if over:
            return differed, None


def _leaks(kw: dict, seeds: range, seats: tuple[str, ...]) -> tuple[list[str], Counter]:
    leaks, tried = [], Counter()
    for seed in seeds:
        for seat in seats:
            for phase, step in _phases(kw, seed, seat):
                differed, leak = _compare(kw, seed, seat, phase)
                tried[step] += differed
                if leak:
                    leaks.append(leak)
    return leaks, tried


@pytest.mark.parametrize("kw", CONFIGS, ids=lambda kw: "-".join(f"{k}={v}" for k, v in kw.items()))
def test_no_seat_sees_another_seats_choices_before_they_are_revealed(kw):
    leaks, tried = _leaks(kw, range(2), ("Player#2", "Player#5"))
    assert leaks == []
    # not vacuous: the hidden seat chose differently while the others were still choosing, in every kind of step
    assert {step for step, n in tried.items() if n} >= {"bid", "orders", "consolidation", "dragon"}, tried


def test_the_check_sees_a_seat_reading_anothers_choices(monkeypatch):
    """The comparison finds a leak when there is one: an info that reads the other seats' planners (the
    choices made so far, which the env keeps to itself until it submits them when the step resolves)."""
    real = ProtectorsParallelEnv._info

    def leaky(self, a):
        out = real(self, a)
        out["others"] = sorted((s, repr(p.decision()) if p.finished else repr((p.stage, p.province, p.choices)))
                               for s, p in self.planners.items() if p is not None and s != a)
        return out

    monkeypatch.setattr(ProtectorsParallelEnv, "_info", leaky)
    leaks, _ = _leaks(dict(players=5), range(1), ("Player#2",))
    assert leaks


def _trace_until_resolved(env: ProtectorsParallelEnv, seat: str, watcher: str, realm: int, steps: int) -> list:
    """``watcher``'s view, env step by env step, of a fresh game in which ``seat``'s hidden $Realm is set to
    ``realm`` (and the watcher's to 0, so its own bid is forced), until the turn-1 bid resolves."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.reset(seed=3)
    st = env.game.state
    st.players[watcher].realm, st.players[seat].realm = 0, realm
    env._run()  # the seats' choices again, from the edited $Realm
    obs, rewards, infos = env._observations(), dict.fromkeys(env.agents, 0.0), {a: env._info(a) for a in env.agents}
    out = []
    for _ in range(steps):
        done = not env.agents or any(a[0] == "advance" for a in env.game.actions)
        o = obs[watcher]
        out.append((o["observation"].tobytes(), o["action_mask"].tobytes(), repr(infos[watcher]), rewards[watcher],
                    done))
        if done:
            break
        obs, rewards, _, _, infos = env.step({a: int(np.flatnonzero(obs[a]["action_mask"])[-1]) for a in env.agents})
    return out


def test_when_a_step_resolves_does_not_tell_another_seats_hidden_realm():
    """A seat with no $Realm has a forced bid (one amount: 0). Whether the other seat has a real choice must
    not show in how many env steps the bid takes: the watcher sees the same steps whatever the other's $Realm."""
    env = ProtectorsParallelEnv(players=2)
    poor = _trace_until_resolved(env, "Player#2", "Player#1", 0, 20)
    rich = _trace_until_resolved(env, "Player#2", "Player#1", 100, 20)
    assert len(rich) > 1  # not vacuous: the rich seat had a choice to make before the bid resolved
    assert poor == rich
