"""The Dragon's sacrifice choice: which committed Provinces suffer the casualties should the Protectors win.

rules: 003 Determine Protector US step — "For players committing more Army Units (from several
Provinces) than required based on their min.US contribution, they also need to specify from which
Province they want to suffer casualties ("sac" for sacrifice) should the players be victorious."
Example: "2 from P6 (sac 2), 1 from P7" with a min.US of 2.
"""

from __future__ import annotations

import numpy as np
import pytest

from agents.spaces import encoding as E
from agents.spaces import layout as L
from agents.spaces.planner import STAGE_INDEX, make_planner
from agents.spaces.planner_phases import SAC_STAGE
from engine.protectors.game import Game
from engine.protectors.legality import validate
from engine.protectors.orders import Commit
from envs.opponents import make_setup
from tests.protectors.helpers import dragon_attack, event, position

P1 = "Player#1"


def _example(units: dict[str, int], dpl: int = 2) -> Game:
    """Player#1 holds ``units`` (Province -> units) on ring-7; two rivals hold one unit each."""
    provs = {p: (P1, n) for p, n in units.items()}
    provs |= {"P1": ("Player#2", 1), "P3": ("Player#3", 1)}
    g = position("ring-7", 3, provs, realm={P1: 0, "Player#2": 0, "Player#3": 0})
    dragon_attack(g, dpl)
    return g


def _commit(g: Game, counts: dict[str, int]):
    """A Player#1 planner after COUNT choices (DONE where ``counts`` has no entry)."""
    p = make_planner(g.state, P1)
    while p.stage == "commit":
        n = counts.get(p.province, 0)
        p.apply(L.COUNT0 + n - 1 if n else L.DONE)
    return p


def _provs(p) -> set[str]:
    return {f"P{i - L.PROV0}" for i in p.legal() if L.PROV0 <= i < L.PROV0 + L.N_PROV}


def _resolve(g: Game, d) -> None:
    """Submit Player#1's decision (the rivals commit nothing) and fight: the Protectors must win."""
    g.submit(P1, d)
    ev = g.advance(force=True)
    assert event(ev, "dragon_battle").data["won"]


class TestRulebookExample:
    """2 from P6 and 1 from P7 against a min.US of 2: two casualties to place."""

    def test_sac_2_on_p6_kills_both_there(self):
        g = _example({"P6": 2, "P7": 1})
        p = _commit(g, {"P6": 2, "P7": 1})
        assert p.stage == SAC_STAGE and p.casualties == 2 and p.unassigned() == 2
        assert set(p.legal()) == {L.DONE, L.PROV0 + 6, L.PROV0 + 7}
        p.apply(L.PROV0 + 6)
        assert p.finished
        d = p.decision()
        assert d.commits == (Commit("P6", 2, 2), Commit("P7", 1))
        assert [c.text() for c in d.commits] == ["2 from P6 (sac 2)", "1 from P7"]
        assert validate(g.state, P1, d) == d
        _resolve(g, d)
        assert g.state.provinces["P6"].units == 0 and g.state.provinces["P7"].units == 1

    def test_sac_on_p7_takes_its_one_unit_and_settles_the_rest(self):
        g = _example({"P6": 2, "P7": 1})
        p = _commit(g, {"P6": 2, "P7": 1})
        p.apply(L.PROV0 + 7)
        # one casualty left and one Province left: where it falls is settled, the choice ends
        assert p.finished and p.sacs == {"P7": 1}
        d = p.decision()
        assert d.commits == (Commit("P6", 2), Commit("P7", 1, 1))
        validate(g.state, P1, d)
        _resolve(g, d)
        assert g.state.provinces["P6"].units == 1 and g.state.provinces["P7"].units == 0

    def test_done_leaves_the_lowest_numbered_default(self):
        g = _example({"P6": 2, "P7": 1})
        p = _commit(g, {"P6": 2, "P7": 1})
        p.apply(L.DONE)
        assert p.finished
        d = p.decision()
        assert all(c.sac is None for c in d.commits)
        _resolve(g, d)
        assert g.state.provinces["P6"].units == 0 and g.state.provinces["P7"].units == 1


class TestSeveralPicks:
    def test_picks_assign_until_every_casualty_has_a_province(self):
        # four green Provinces: min.US 4; 2 + 2 + 2 + 1 committed, casualties placed P7, P5, then P2
        g = _example({"P2": 2, "P4": 2, "P5": 2, "P7": 1}, dpl=3)
        p = _commit(g, {"P2": 2, "P4": 2, "P5": 2, "P7": 1})
        assert p.stage == SAC_STAGE and p.casualties == 4
        p.apply(L.PROV0 + 7)
        assert p.stage == SAC_STAGE and p.unassigned() == 3
        assert _provs(p) == {"P2", "P4", "P5"}, "a picked Province is not offered again"
        p.apply(L.PROV0 + 5)
        assert p.stage == SAC_STAGE and p.unassigned() == 1 and _provs(p) == {"P2", "P4"}
        p.apply(L.PROV0 + 4)
        assert p.finished and p.sacs == {"P7": 1, "P5": 2, "P4": 1}
        d = p.decision()
        assert d.commits == (Commit("P2", 2), Commit("P4", 2, 1), Commit("P5", 2, 2), Commit("P7", 1, 1))
        validate(g.state, P1, d)
        _resolve(g, d)
        left = {q: g.state.provinces[q].units for q in ("P2", "P4", "P5", "P7")}
        assert left == {"P2": 2, "P4": 1, "P5": 0, "P7": 0}

    def test_done_after_a_pick_sends_the_rest_to_the_lowest_numbered(self):
        g = _example({"P2": 2, "P4": 2, "P5": 2, "P7": 1}, dpl=3)
        p = _commit(g, {"P2": 2, "P4": 2, "P5": 2, "P7": 1})
        p.apply(L.PROV0 + 5)
        p.apply(L.DONE)
        d = p.decision()
        assert d.commits == (Commit("P2", 2), Commit("P4", 2), Commit("P5", 2, 2), Commit("P7", 1))
        _resolve(g, d)
        left = {q: g.state.provinces[q].units for q in ("P2", "P4", "P5", "P7")}
        assert left == {"P2": 0, "P4": 2, "P5": 0, "P7": 1}

    def test_only_committed_provinces_are_offered(self):
        # P2 holds units but commits none: it can not suffer casualties
        g = _example({"P2": 3, "P4": 2, "P5": 2, "P7": 1}, dpl=3)
        p = _commit(g, {"P4": 2, "P5": 2, "P7": 1})
        assert p.stage == SAC_STAGE and p.casualties == 4
        assert _provs(p) == {"P4", "P5", "P7"}
        m = p.mask()
        assert not m[L.PROV0 + 2] and not m[L.PROV0 + 1] and m[L.DONE]


class TestOnlyARealChoice:
    @pytest.mark.parametrize("units, counts", [
        ({"P6": 3, "P7": 1}, {"P6": 3}),  # one Province: every casualty falls there
        ({"P6": 1, "P7": 1}, {"P6": 1, "P7": 1}),  # exactly min.US: every committed unit dies
        ({"P6": 2, "P7": 1}, {}),  # nothing committed
    ], ids=["one_province", "exactly_min_us", "none"])
    def test_no_sac_stage(self, units, counts):
        g = _example(units)
        p = _commit(g, counts)
        assert p.stage in (None, "burn") and p.stage != SAC_STAGE
        assert p.casualties == 0

    def test_not_meeting_min_us_asks_for_burns_not_sacrifices(self):
        # Work, work! costs 1 US per working Province: 3 units from two working Provinces give 1 US
        # against a min.US of 2, so every committed unit dies whoever wins (rules: 003 outcomes table)
        g = _example({"P6": 2, "P7": 1})
        g.state.work_orders = {"P6": (P1, False), "P7": (P1, False)}
        p = _commit(g, {"P6": 2, "P7": 1})
        assert p.stage == "burn" and p.shortfall() == 1
        p.apply(L.PROV0 + 6)
        assert p.finished and all(c.sac is None for c in p.decision().commits)

    def test_skip_forced_never_answers_the_sac_choice(self):
        g = _example({"P6": 2, "P7": 1})
        p = make_planner(g.state, P1)
        p.apply(L.COUNT0 + 1)
        p.apply(L.COUNT0)
        assert p.skip_forced() == 0 and p.stage == SAC_STAGE and len(p.legal()) == 3


def test_the_sac_choice_is_encoded_in_the_existing_choice_block():
    g = _example({"P2": 2, "P4": 2, "P5": 2, "P7": 1}, dpl=3)
    p = _commit(g, {"P2": 2, "P4": 2, "P5": 2, "P7": 1})
    p.apply(L.PROV0 + 5)
    out = np.zeros(E.C_SIZE, dtype=np.float32)
    E.encode_choice(p, out)
    assert (E.OBS_SIZE, L.ACTION_SIZE) == (1504, 94), "the observation and action sizes are frozen"
    kind0, stage0 = 0, len(E.PLANNER_KINDS)
    assert np.flatnonzero(out[kind0:stage0]).tolist() == [E.PLANNER_KINDS.index("dragon")]
    assert np.flatnonzero(out[stage0:E._C_PROV0]).tolist() == [STAGE_INDEX["target"]]
    assert not out[E._C_PROV0:E._C_KIND0].any(), "no current Province"
    assert np.flatnonzero(out[E._C_TARGET0:E._C_BUDGET]).tolist() == [5], "Provinces given a sac"
    assert out[E._C_BUDGET + 2] == pytest.approx(2 / 16), "casualties still unassigned"
    assert out[E._C_BUDGET + 1] == pytest.approx(4 / 16), "min.US"
    assert np.flatnonzero(out[E._C_DECIDED0:E._C_CHOICES]).tolist() == [2, 4, 5, 7], "committed from"


def test_random_play_reaches_the_sac_choice_and_every_decision_is_legal():
    """Random masked choices for every seat (committing everything from a Province half the time, so
    that Dragon decisions with several Provinces are common): the sac choice comes up, its decisions
    validate, each sac is at most what the Province committed and together they are at most the
    casualties."""
    seen = 0
    for seed in range(120):
        game = Game(make_setup(board=None, seed=seed, players=2 + seed % 5, island=seed % 3 == 0,
                               factions=seed % 2 == 0))
        rng = np.random.default_rng(seed)
        for _ in range(300):
            if game.over:
                break
            for seat in game.deciding_seats():
                p = make_planner(game.state, seat)
                sac_asked = False
                while not p.finished:
                    if p.stage == SAC_STAGE and p.kind == "dragon":
                        sac_asked = True
                        offered = _provs(p)
                        assert offered and offered <= {c.src for c in p.commits} - set(p.sacs)
                    lg = p.legal()
                    p.apply(max(lg) if p.stage == "commit" and rng.random() < 0.5 else int(rng.choice(lg)))
                d = p.decision()
                if sac_asked:
                    seen += 1
                    sacs = [c.sac for c in d.commits if c.sac is not None]
                    assert sum(sacs) <= p.casualties == p.min_us
                    assert all(1 <= c.sac <= c.count for c in d.commits if c.sac is not None)
                game.submit(seat, d)
            game.advance(force=True)
    assert seen >= 10, seen
