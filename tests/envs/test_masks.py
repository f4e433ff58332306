"""Masks: never empty, and an illegal action is impossible under them (every engine submit succeeds)."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from agents.spaces import layout as L
from agents.spaces.planner import make_planner
from engine.errors import ValidationError
from engine.protectors.game import Game
from envs.opponents import make_setup
from tests.protectors.helpers import position

CONFIGS = st.fixed_dictionaries({
    "players": st.integers(2, 9),
    "version": st.sampled_from(["normal", "grand"]),
    "island": st.booleans(),
    "factions": st.booleans(),
})


def drive(game: Game, rng: np.random.Generator, max_decisions: int = 400) -> set[str]:
    """Every seat plays random masked choices through its planner; returns the planner stages seen."""
    stages: set[str] = set()
    for _ in range(max_decisions):
        if game.over:
            break
        for seat in game.deciding_seats():
            p = make_planner(game.state, seat)
            while not p.finished:
                m = p.mask()
                assert m.any(), f"empty mask in {p.stage}"
                stages.add(p.stage)
                illegal = np.flatnonzero(~m)
                if len(illegal):  # anything outside the mask is refused
                    bad = int(rng.choice(illegal))
                    try:
                        p.apply(bad)
                        raise AssertionError(f"{L.describe(bad)} accepted outside the mask")
                    except ValidationError:
                        pass
                p.apply(int(rng.choice(np.flatnonzero(m))))
            game.submit(seat, p.decision())  # raises if the mask let an illegal decision through
        game.advance(force=True)
    return stages


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cfg=CONFIGS, seed=st.integers(0, 2**31 - 1))
# found by a fresh-clone run (session 26): a Kalu'Ak seat holding Fight fire with fire (from the Wizard Sanctum) took
# Highmagisters, then was still offered Nothing to see here!, which the rules give only alone (legality.ALONE_IN_DRAGON)
@example(cfg={"players": 8, "version": "normal", "island": True, "factions": True}, seed=551904670)
def test_random_masked_play_always_submits_legal_decisions(cfg, seed):
    game = Game(make_setup(board=None, seed=seed, **cfg))
    drive(game, np.random.default_rng(seed))


def test_many_games_reach_every_kind_of_choice():
    stages: set[str] = set()
    for seed in range(60):
        cfg = {"players": 2 + seed % 7, "version": "grand" if seed % 2 else "normal", "island": seed % 3 == 0,
               "factions": seed % 4 < 2}
        stages |= drive(Game(make_setup(board=None, seed=seed, **cfg)), np.random.default_rng(seed))
    assert {"bid", "kind", "target", "count", "player", "commit", "buy"} <= stages


def _orders_planner(cards, realm=100):
    game = position("ring-4", 2, {"P1": ("Player#1", 2), "P2": ("Player#2", 1), "P3": ("Player#2", 1)},
                    cards=cards, turn=5, realm={"Player#1": realm, "Player#2": realm})
    return game, make_planner(game.state, "Player#1")


def test_flood_leaves_no_march_targets_and_the_ferry_reaches_everywhere():
    game, p = _orders_planner(["Flood!"])
    m = p.mask()
    assert not m[L.KIND0 + L.KIND_INDEX[("march", False, False)]]  # rules: 003 Flood! — no neighbours
    assert not m[L.KIND0 + L.KIND_INDEX[("support", False, False)]]
    game, p = _orders_planner(["Flood!", "Ferry!"])
    p.apply(L.KIND0 + L.KIND_INDEX[("march", False, False)])
    assert p.stage == "ferry" and p.mask()[L.YES] and not p.mask()[L.DONE]  # only the Ferry! can move them
    p.apply(L.YES)
    assert {i - L.PROV0 for i in np.flatnonzero(p.mask())} == {2, 3, 4}
    p.apply(L.PROV0 + 3)
    p.apply(L.COUNT0 + 1)
    d = p.decision()
    assert d.ferries == ("P1",) and d.orders[0].dst == "P3" and d.orders[0].count == 2
    game.submit("Player#1", d)


def test_ferry_needs_25_realm():
    _, p = _orders_planner(["Flood!", "Ferry!"], realm=10)
    assert not p.mask()[L.KIND0 + L.KIND_INDEX[("march", False, False)]]


def test_pirates_ask_whom_to_snitch_on_never_yourself():
    game, p = _orders_planner(["Pirates!"])
    p.apply(L.KIND0 + L.KIND_INDEX[("fortify", False, False)])
    assert p.stage == "snitch"
    m = p.mask()
    assert m[L.DONE] and m[L.PLAYER0 + 1] and not m[L.PLAYER0]
    p.apply(L.PLAYER0 + 1)
    assert p.decision().snitch == "Player#2"
    game.submit("Player#1", p.decision())


def test_one_golden_order_of_each_type():
    game = position("ring-4", 2, {"P1": ("Player#1", 1), "P2": ("Player#1", 1), "P3": ("Player#2", 1)},
                    ranking=["Player#1", "Player#2"])
    p = make_planner(game.state, "Player#1")
    gf = L.KIND0 + L.KIND_INDEX[("fortify", True, False)]
    assert p.mask()[gf]
    p.apply(gf)
    assert p.province == "P2" and not p.mask()[gf] and p.mask()[L.KIND0 + L.KIND_INDEX[("fortify", False, False)]]


def test_dragon_burn_choices_follow_the_missing_min_us():
    from tests.protectors.helpers import dragon_attack

    game = position("ring-4", 2, {"P1": ("Player#1", 1), "P2": ("Player#1", 1), "P3": ("Player#2", 1)},
                    phase="orders")
    dragon_attack(game, 5)
    p = make_planner(game.state, "Player#1")
    assert p.stage == "commit" and p.min_us == 2
    p.apply(L.COUNT0)  # 1 from P1
    p.apply(L.DONE)  # nothing from P2: one point missing
    assert p.stage == "burn" and p.shortfall() == 1
    p.apply(L.PROV0 + 2)
    assert p.finished and p.decision().burns == ("P2",)
    game.submit("Player#1", p.decision())


def test_two_level_3_provinces_ask_which_is_the_capitol():
    game = position("ring-4", 2, {"P1": ("Player#1", 3, 3), "P2": ("Player#1", 3, 3), "P3": ("Player#2", 1)},
                    phase="consolidation", realm={"Player#1": 0, "Player#2": 0})
    p = make_planner(game.state, "Player#1")
    p.skip_forced()
    assert p.stage == "capitol"  # rules: 003 Golden Work, work! — one Capitol, the others drop to lvl 2
    assert {i - L.PROV0 for i in np.flatnonzero(p.mask())} == {1, 2}
    p.apply(L.PROV0 + 2)
    p.skip_forced()
    assert p.finished and p.decision().capitol == "P2"
    game.submit("Player#1", p.decision())


def test_upgrade_is_offered_only_after_a_golden_work_and_costs_25():
    game = position("ring-4", 2, {"P1": ("Player#1", 1), "P3": ("Player#2", 1)}, phase="consolidation",
                    realm={"Player#1": 30, "Player#2": 0})
    assert make_planner(game.state, "Player#1").stage != "upgrade"
    game.state.golden_work_done = {"P1": "Player#1"}
    p = make_planner(game.state, "Player#1")
    assert p.stage == "upgrade" and p.mask()[L.YES]
    p.apply(L.YES)
    assert p.budget == 5 and p.stage == "bid"
    p.apply(L.AMOUNT0 + len(L.BID_FRACTIONS) - 1)  # everything left
    d = p.decision()
    assert d.upgrades == ("P1",) and d.bid == 5
    game.submit("Player#1", d)
