"""The orders planner's options are exactly the structure of the engine's ``legal_orders``.

``agents.spaces.planner_orders.order_options`` is the engine's ``legality.order_options`` (the structured form
``legal_orders`` spells out) keyed by KIND index; these tests hold it to the list of order objects on
positions from random games in several configurations, for every seat and Province (orderable or not,
the Island included) and with each order-changing card in play."""

from __future__ import annotations

import random

import pytest

from agents.spaces import layout as L
from agents.spaces.planner_orders import order_options
from engine.protectors import cards as C
from engine.protectors.game import Game
from engine.protectors.legality import legal_orders
from engine.protectors.orders import March, Support, order_kind
from engine.protectors.seat import SeatContext
from envs.opponents import make_setup

CARD_SETS = ((), (C.FLOOD,), (C.RESTLESSNESS,), (C.SEAFARERS,), (C.FERRY,), (C.FLOOD, C.SEAFARERS),
             (C.FLOOD, C.RESTLESSNESS))


def structure(orders) -> dict[int, dict]:
    """KIND index -> {target: counts or players} read from a list of order objects."""
    out: dict[int, dict] = {}
    for o in orders:
        if isinstance(o, March):
            out.setdefault(L.KIND_INDEX[("march", o.golden, o.delayed)], {}).setdefault(o.dst, set()).add(o.count)
        elif isinstance(o, Support):
            out.setdefault(L.KIND_INDEX[("support", o.golden, False)], {}).setdefault(o.target, set()).add(o.player)
        else:
            out.setdefault(L.KIND_INDEX[(order_kind(o), o.golden, False)], {})
    return out


def as_sets(options: dict[int, dict]) -> dict[int, dict]:
    return {k: {t: set(v) for t, v in targets.items()} for k, targets in options.items()}


def orders_positions(kw: dict, seed: int, limit: int = 6):
    """Orders-step positions of a random game (random agents in every seat)."""
    from agents.random_agent import RandomAgent

    g = Game(make_setup(seed=seed, **{"board": None, "players": 5, **kw}))
    agents = {s: RandomAgent(seed * 7 + i) for i, s in enumerate(g.state.players)}
    found = 0
    while not g.over and found < limit:
        if g.step == "orders":
            found += 1
            yield g
        for s in g.deciding_seats():
            if s not in g.state.submissions:
                g.submit(s, agents[s].act(SeatContext(g, s)))
        g.advance(force=True)


@pytest.mark.parametrize("kw", [
    {},
    {"players": 7, "version": "grand", "island": True, "factions": True},
    {"players": 6, "teams": 2, "island": True},
    {"players": 16},
])
def test_order_options_equal_the_engine_enumeration(kw):
    checked = set()
    rng = random.Random(0)
    for seed in range(6):
        for g in orders_positions(kw, seed):
            st = g.state
            saved = list(st.cards_this_turn)
            for cards in (None, rng.choice(CARD_SETS)):
                if cards is not None:
                    st.cards_this_turn = [(C.CARD_DECK[c], c) for c in cards]
                for seat in st.players:
                    for prov in st.board.all_provinces:
                        want = structure(legal_orders(st, seat, prov))
                        assert as_sets(order_options(st, seat, prov)) == want, (seed, seat, prov, cards)
                        checked.add(bool(want))
            st.cards_this_turn = saved
    assert checked == {True, False}  # both orderable and not orderable Provinces were seen


def test_every_card_set_on_one_position():
    g = next(orders_positions({"players": 6, "version": "grand", "island": True}, 3))
    st = g.state
    for cards in CARD_SETS:
        st.cards_this_turn = [(C.CARD_DECK[c], c) for c in cards]
        kinds = set()
        for seat in st.players:
            for prov in st.board.all_provinces:
                got = order_options(st, seat, prov)
                assert as_sets(got) == structure(legal_orders(st, seat, prov))
                kinds.update(L.KINDS[k][0] for k in got)
        if C.FLOOD in cards:
            assert "support" not in kinds
        if C.RESTLESSNESS in cards:
            assert "fortify" not in kinds
