"""Properties over random valid worlds and seeds: money, transport and targets stay within the rules."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.newworld import parse_world
from npr_controller.newworld import Attitude, plan_nation
from tests.newworld.helpers import LETTERS, grid_areas

NAMES = ("Spain", "Dutch", "English", "French", "Portugal")


@st.composite
def world_docs(draw):
    areas = grid_areas({a: draw(st.integers(0, 2)) for a in LETTERS})
    for spec in areas.values():
        spec["coastal"] = draw(st.booleans())
    names = NAMES[: draw(st.integers(2, len(NAMES)))]
    nations = {}
    claimed = set()  # an Area is one nation's Exclusive Landfall at most (engine/newworld/parse.py)
    for i, name in enumerate(names):
        held = draw(st.lists(st.sampled_from(LETTERS), max_size=5, unique=True))
        holdings = {}
        for a in held:
            c, s = draw(st.integers(0, 3)), draw(st.integers(0, 3))
            holdings[a] = {"colonists": c if c + s else 1, "soldiers": s}
        nations[name] = {
            "player": i > 0 and draw(st.booleans()),
            "treasury": draw(st.integers(0, 300)),
            "ships": draw(st.integers(0, 8)),
            "gold_produced": draw(st.integers(0, 5)),
            "holdings": holdings,
            "exclusive_landfall": draw(st.none() | st.sampled_from(sorted(set(LETTERS) - claimed))),
        }
        claimed.add(nations[name]["exclusive_landfall"])
    rivals = {n: draw(st.sampled_from([m for m in names if m != n])) for n in names if draw(st.booleans())}
    return {
        "turn": draw(st.integers(1, 10)),
        "areas": areas,
        "nations": nations,
        "hegemon_tie_rival": rivals,
        "prices": {"ship": draw(st.integers(1, 30)), "soldier": draw(st.integers(1, 30))},
        "options": {"ship_capacity": draw(st.integers(1, 4)),
                    "soldier_limit": draw(st.none() | st.integers(0, 12))},
    }


def _plans(doc, seed):
    w = parse_world(doc)
    for name, nation in w.nations.items():
        if not nation.player:
            yield w, name, plan_nation(w, name, seed=seed)


SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(world_docs(), st.integers(0, 2**32))
def test_never_spends_more_than_the_treasury(doc, seed):
    for w, name, plan in _plans(doc, seed):
        p = plan.purchase
        assert 0 <= p.cost <= w.nations[name].treasury
        assert p.ships_built >= 0 and p.soldiers >= 0
        if plan.attitude is Attitude.STATUS_QUO:
            assert p.ships_built == 0  # "no builds or burns"


@SETTINGS
@given(world_docs(), st.integers(0, 2**32))
def test_every_colonist_and_soldier_has_transport(doc, seed):
    for _, _, plan in _plans(doc, seed):
        p = plan.purchase
        assert p.colonists + p.soldiers <= p.capacity
        if p.colonists < p.colonists_wanted:
            # colonists are left home only when the ships are full of colonists and no more can be had:
            # Status Quo and Piracy have fixed fleets, the others buy ships for colonists first
            assert p.colonists == p.capacity and p.soldiers == 0
            fixed = plan.attitude in (Attitude.STATUS_QUO, Attitude.PIRACY)
            assert fixed or p.treasury - p.cost < p.ship_price


@SETTINGS
@given(world_docs(), st.integers(0, 2**32))
def test_never_targets_what_the_attitude_forbids(doc, seed):
    for w, name, plan in _plans(doc, seed):
        t, att = plan.target, plan.attitude
        if att is Attitude.STATUS_QUO:
            assert t is None and plan.landfall is None
        elif att is Attitude.EXPLORATION:
            lf = plan.landfall
            assert t is None and lf is not None
            assert not w.is_occupied(lf.area) and w.claimant(lf.area) in (None, name)
            assert lf.table == (2 if w.nations[name].areas else lf.table)
        elif att is Attitude.EXPANSION:
            assert t.kind == "area" and t.name in w.adjacent_to(name) and not w.is_occupied(t.name)
        elif att is Attitude.OPPORTUNITY:
            assert t.kind == "area" and set(w.occupants(t.name)) - {name}
            assert t.name in w.nations[name].areas or t.name in w.adjacent_to(name)
        elif att is Attitude.PIRACY:
            gold = {n: x.gold_produced for n, x in w.nations.items() if n != name}
            assert t.kind == "nation" and t.name != name and gold[t.name] == max(gold.values()) > 0
        else:
            assert att is Attitude.BALANCING and t.kind == "area" and w.areas[t.name].coastal
            victim = t.against
            assert victim != name and t.name in w.nations[victim].areas
            pcs = {n: len(w.pc_areas(n)) for n in w.nations if n != name}
            assert pcs[victim] == max(pcs.values()) > 0 or w.chief_rivals.get(name) == victim


@SETTINGS
@given(world_docs(), st.integers(0, 2**32))
def test_same_seed_same_plan_and_each_attitude_tried_once(doc, seed):
    first = [p.to_dict() for _, _, p in _plans(doc, seed)]
    assert first == [p.to_dict() for _, _, p in _plans(doc, seed)]
    for d in first:
        tried = [f["from"] for f in d["fallbacks"]] + [d["attitude"]]
        assert len(tried) == len(set(tried))


@SETTINGS
@given(world_docs(), st.integers(0, 2**32))
def test_balancing_soldiers_are_the_maximum(doc, seed):
    """Balancing buys "the maximum amount of ... soldiers that its treasury ... will allow": one more
    soldier (with the ship it may need) would overspend, unless the soldier limit was reached."""
    for w, _, plan in _plans(doc, seed):
        p = plan.purchase
        if plan.attitude is not Attitude.BALANCING:
            continue
        if w.options.soldier_limit is not None and p.soldiers == w.options.soldier_limit:
            continue
        units = p.colonists + p.soldiers + 1
        extra_ships = max(0, -(-units // p.ship_capacity) - p.fleet_after)
        assert p.cost + p.soldier_price + extra_ships * p.ship_price > p.treasury
