"""Hypothesis: for random valid worlds, decisions are deterministic for a seed, never target an
ineligible Area, never use a Province twice, and every trace step names a rule."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.realms import world_from_dict
from npr_controller.realms.defence import defend
from npr_controller.realms.invasions import invasions

PRS = ("Pa", "Pb")
NPRS = ("Na", "Nb", "Nc")


@st.composite
def worlds(draw):
    n = draw(st.integers(2, 7))
    names = [f"A{i}" for i in range(n)]
    edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=2 * n))
    areas = {a: {"adjacent": [], "distant": draw(st.booleans()) and draw(st.booleans())} for a in names}
    for i, j in edges:
        if i != j:
            areas[names[i]]["adjacent"].append(names[j])
    seas = {s: {"adjacent": draw(st.lists(st.sampled_from(names), max_size=3, unique=True))} for s in ("S0", "S1")}
    realms = {p: {"kind": "pr"} for p in PRS}
    realms.update({x: {"kind": "npr"} for x in NPRS})
    realms["Va"] = {"kind": "vassal", "overlord": draw(st.sampled_from(NPRS))}
    provinces = {}
    for a in names:
        coast = [s for s, v in seas.items() if a in v["adjacent"]]
        for k in range(draw(st.integers(1, 3))):
            owner = draw(st.sampled_from((*PRS, *NPRS, "Va")))
            p = {"area": a, "size": draw(st.sampled_from(("small", "large"))), "owner": owner}
            if owner in PRS:
                p["token"] = "t"
                p["flag"] = draw(st.sampled_from((owner, *NPRS)))
            else:
                p["extra_manpower"] = draw(st.integers(0, 1))
                if draw(st.booleans()) and draw(st.booleans()):
                    p["occupied_by"] = draw(st.sampled_from(PRS))
            if coast and draw(st.booleans()):
                p["port"] = draw(st.sampled_from(coast))
                p["port_active"] = draw(st.booleans())
            provinces[f"{a}p{k}"] = p
    for x in NPRS:
        own = sorted(n for n, p in provinces.items() if p["owner"] == x)
        if own:
            realms[x]["capital"] = draw(st.sampled_from(own))
    wars = draw(st.lists(st.tuples(st.sampled_from(PRS), st.sampled_from(NPRS)), min_size=1, max_size=4, unique=True))
    allies = draw(
        st.lists(
            st.tuples(st.sampled_from(PRS), st.sampled_from(NPRS), st.booleans()), max_size=2, unique_by=lambda t: t[1]
        )
    )
    units = draw(st.lists(st.tuples(st.sampled_from(PRS), st.sampled_from(names), st.integers(1, 4)), max_size=4))
    ships = draw(
        st.lists(st.tuples(st.sampled_from(PRS), st.sampled_from(("S0", "S1")), st.integers(1, 2)), max_size=2)
    )
    document = {
        "areas": areas,
        "seas": seas,
        "provinces": provinces,
        "realms": realms,
        "relations": {
            "wars": [list(w) for w in wars],
            # a world never Allies realms at War (engine/realms/consistency.py)
            "alliances": [{"pr": p, "npr": x, "active": act} for p, x, act in allies if (p, x) not in wars],
        },
        "units": [{"realm": r, "where": w, "count": c} for r, w, c in units],
        "ships": [{"realm": r, "sea": s, "count": c} for r, s, c in ships],
    }
    # only an Enemy Occupies a Province: drop the drawn occupations of realms at peace with the owner
    peace = world_from_dict({**document, "provinces": {n: {k: v for k, v in p.items() if k != "occupied_by"}
                                                       for n, p in provinces.items()}})
    for p in provinces.values():
        if "occupied_by" in p and not peace.at_war(p["occupied_by"], p["owner"]):
            del p["occupied_by"]
    return world_from_dict(document)


FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _allowed(world, npr, area):
    """An independent statement of 000 §13.5 criterion 3 for one Area."""
    members = set(world.members(npr))
    held = {p.area for p in world.provinces.values() if p.owner in members and p.occupied_by is None}
    owned = {p.area for p in world.provinces.values() if p.owner in members}
    target = any(
        (p.token == "t" and world.at_war(p.owner, npr))
        or (p.owner in members and p.occupied_by and world.at_war(p.occupied_by, npr))
        for p in world.provinces_in(area)
    )
    neutral = any(
        u.kind == "army" and world.realms[u.realm].is_pr and not world.at_war(u.realm, npr)
        for u in world.units_in(area)
    )
    by_land = area in owned or any(area in world.areas[h].adjacent for h in held)
    by_sea = [s for h in held for s in world.areas[h].seas & world.areas[area].seas]
    reachable = by_land or any(world.hostile_ships(s, npr) == 0 for s in by_sea)
    return target and not neutral and reachable


@FAST
@given(worlds(), st.integers(0, 2**32 - 1))
def test_invasions_deterministic_eligible_and_traced(world, seed):
    a, b = invasions(world, seed=seed), invasions(world, seed=seed)
    assert a.to_dict() == b.to_dict()
    assert all(step.rule.strip() for step in a.trace)
    for entry in a.to_dict()["invasions"]:
        if entry["invades"]:
            assert entry["target"] in entry["eligible_areas"]
            assert world.active_ally_of(entry["npr"]) is None
    first = next((e for e in a.to_dict()["invasions"] if e["invades"]), None)
    if first:  # the first invasion sees the world unchanged
        assert _allowed(world, first["npr"], first["target"])


@FAST
@given(worlds(), st.data())
def test_defence_uses_each_province_once_per_kind(world, data):
    places = [("area", a) for a in world.areas] + [("sea", s) for s in world.seas]
    picks = data.draw(st.lists(st.sampled_from(places), min_size=1, max_size=5))
    attacks = [
        {"attacker": data.draw(st.sampled_from(PRS)), k: v, "units": data.draw(st.integers(1, 6))} for k, v in picks
    ]
    d = defend(world, attacks, seed=1).to_dict()
    assert d == defend(world, attacks, seed=1).to_dict()
    assert all(s["rule"].strip() for s in d["trace"])
    used: dict[tuple[str, str], set[str]] = {}
    for battle in d["battles"]:
        assert battle["defender_units"] == sum(x["value"] for x in battle["defenders"])
        for cap in battle["defenders"]:
            key = (cap["realm"], cap["kind"])
            names = {c["province"] for c in cap["contributions"]}
            assert not names & used.get(key, set())
            used.setdefault(key, set()).update(names)
            assert world.at_war(battle["attacker"], cap["realm"])


@st.composite
def pr_worlds(draw):
    realm = {
        "kind": "pr",
        "base_tax": draw(st.integers(0, 30)),
        "stability": draw(st.integers(-3, 3)),
        "ducats": draw(st.integers(0, 40)),
        "loans": draw(st.integers(0, 7)),
        "mercenaries": draw(st.integers(0, 4)),
        "monarch_power": {k: draw(st.integers(0, 10)) for k in ("adm", "dip", "mil")},
        "ruler": draw(st.none() | st.fixed_dictionaries({"name": st.just("R"), "adm": st.integers(0, 6)})),
        "advisors": draw(
            st.lists(
                st.fixed_dictionaries(
                    {
                        "kind": st.sampled_from(("adm", "dip", "mil")),
                        "skill": st.integers(0, 3),
                        "cost": st.integers(0, 5),
                    }
                ),
                max_size=3,
                unique_by=lambda a: a["kind"],
            )
        ),
    }
    return world_from_dict(
        {
            "areas": {"A": {}},
            "seas": {"S": {"adjacent": ["A"]}},
            "provinces": {"c": {"area": "A", "size": "large", "owner": "Cast", "token": "t"}},
            "realms": {"Cast": realm},
            "units": [{"realm": "Cast", "where": "A", "count": draw(st.integers(0, 8))}],
            "ships": [{"realm": "Cast", "sea": "S", "count": draw(st.integers(0, 5))}],
        }
    )


@FAST
@given(pr_worlds())
def test_caretaker_keeps_the_books_legal(world):
    """001 ch.7: never a negative treasury unless Bankrupt, MP within 0-10, Stability within -3..+3,
    never more than 5 Loans taken by choice."""
    from npr_controller.realms.caretaker import actions, income_and_upkeep

    d = income_and_upkeep(world, "Cast").to_dict()
    s = d["state"]
    assert s["ducats"] >= 0
    assert all(0 <= v <= 10 for v in s["monarch_power"].values())
    assert -3 <= s["stability"] <= 3
    assert s["loans"] <= max(5, world.realms["Cast"].loans)
    if s["bankrupt"]:  # 001 §7.4: only with 5+ Loans, after every allowed Loan was taken
        assert world.realms["Cast"].loans + d["loans_taken"] >= 5
    a = actions(world, "Cast").to_dict()
    assert a["declares_war"] is False and a["state"]["stability"] >= world.realms["Cast"].stability
    assert all(step["rule"].strip() for step in d["trace"] + a["trace"])
