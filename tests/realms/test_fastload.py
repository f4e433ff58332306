"""The loader's fast path (engine/realms/fastload.py) against the full validator (loader.py).

The contract: the fast path either gives up (``NotFast``) or builds exactly the World the full
validator builds; it never accepts a document the full validator rejects. Checked on the sample
world, a small world using every field, and thousands of random mutations of both (deleted keys,
wrong types, None, bools for ints, negative numbers, unknown keys, names swapped for other names).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine.errors import ValidationError
from engine.realms import world_from_dict
from engine.realms.fastload import NotFast, fast_world
from engine.realms.loader import validated_world
from engine.realms.options import DEFAULT_RULES
from tests.realms.test_golden_sample import canonical

SAMPLE = json.loads((Path(__file__).resolve().parents[2] / "examples" / "realms" / "world.json").read_text())

RICH = {
    "round": 2, "phase": "3B",
    "areas": {"A": {"adjacent": ["B"], "seas": ["S"]}, "B": {"adjacent": ["C"], "distant": False},
              "C": {"seas": ["S"], "distant": True}, "D": {}},
    "seas": {"S": {"adjacent": ["B"]}, "T": {}},
    "realms": {
        "Pa": {"kind": "pr", "capital": "a1", "base_tax": 3, "income_tile": True, "stability": -2, "ducats": -1,
               "loans": 1, "prestige": 2, "mercenaries": 1, "monarch_power": {"adm": 10, "mil": 0},
               "ruler": {"name": "R", "adm": 1}, "advisors": [{"kind": "dip"}, {"name": "x", "kind": "adm",
                                                                                 "skill": 2, "cost": 0}],
               "ideas": ["Cabinet"], "papal_states": False, "emperor": True, "passed": None, "religion": "muslim"},
        "Pb": {"kind": "pr", "ruler": None},
        "Na": {"kind": "npr"}, "Nb": {"kind": "npr", "capital": None},
        "Va": {"kind": "vassal", "overlord": "Pa"}, "Vn": {"kind": "vassal", "overlord": "Na"},
        "Dz": {"kind": "dnpr"},
    },
    "provinces": {
        "a1": {"area": "A", "size": "large", "owner": "Pa", "token": "t", "port": "S", "port_active": False},
        "a2": {"area": "A", "size": "small", "owner": "Va", "token": "v", "unrest": True, "h": True},
        "b1": {"area": "B", "size": "small", "owner": "Na", "extra_manpower": 1, "capital": True,
               "occupied_by": "rebels"},
        "b2": {"area": "B", "size": "small", "owner": "Vn", "flag": "Na", "occupied_by": "Pb"},
        "c1": {"area": "C", "size": "large", "owner": "Dz", "token": "dnpr", "dnpr": "Dz", "flag": "Na"},
        "c2": {"area": "C", "size": "small", "owner": "Pb", "token": "t", "flag": None, "dnpr": None},
        "d1": {"area": "D", "size": "small", "owner": "Nb", "port": None, "extra_manpower": 0},
    },
    "relations": {"wars": [["Pa", "Nb"], ["Pb", "Na"]], "truces": [["Pa", "Na"]], "marriages": [["Pa", "Pb"]],
                  "alliances": [{"pr": "Pa", "npr": "Na", "active": True}, {"pr": "Pa", "ally": "Pb"}],
                  "influence": {"A": {"Pa": 2, "Pb": 0}}},
    "units": [{"realm": "Pa", "where": "B", "count": 2}, {"where": "C", "kind": "rebel"},
              {"realm": "Na", "where": "D", "kind": "npr", "count": 0}, {"realm": "Pb", "where": "A", "kind": "rebel"}],
    "ships": [{"realm": "Pb", "sea": "S"}, {"realm": "Pa", "sea": "T", "count": 3}],
}


class Name(str):
    """A str subclass: the full validator takes it, the fast path must hand it over."""


def _shape(world: Any) -> Any:
    """The World as plain data, dict key order included (decisions iterate in that order)."""
    return {"canonical": canonical(world), "order": [list(getattr(world, f)) for f in ("areas", "seas", "provinces",
                                                                                     "realms")]}


def _outcome(fn: Any, doc: Any) -> Any:
    try:
        return ("ok", _shape(fn(doc, DEFAULT_RULES)))
    except ValidationError as err:
        return ("error", str(err))


def _paths(node: Any, path: tuple = ()) -> list[tuple]:
    out = [path]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*path, i))
    return out


def _values(doc: dict[str, Any]) -> list[Any]:
    names = [n for key in ("areas", "seas", "realms", "provinces") for n in doc[key]]
    return [None, True, False, 0, 1, -1, 3, 4, 11, 2.5, "", "x", "t", "v", "dnpr", "small", "large", "pr", "npr",
            "vassal", "army", "rebel", "rebels", "adm", "dip", "mil", "other", [], {}, ["x", "y"], Name("x"),
            *names, *(Name(n) for n in names[:3]), [names[0], names[0]], [names[0], names[-1]]]


KEYS = ["adjacent", "seas", "distant", "kind", "capital", "overlord", "flag", "owner", "token", "dnpr", "port",
        "occupied_by", "extra_manpower", "capital", "stability", "monarch_power", "ruler", "advisors", "realm",
        "where", "count", "sea", "npr", "ally", "active", "wars", "truces", "influence", "zz", None, 7]


def _mutate(doc: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    doc = json.loads(json.dumps(doc))
    values = _values(doc)
    for _ in range(rng.choice((1, 1, 2, 3))):
        path = rng.choice(_paths(doc))
        parent, key = (None, None) if not path else (_get(doc, path[:-1]), path[-1])
        target = _get(doc, path)
        op = rng.random()
        if parent is not None and op < 0.2:
            del parent[key]
        elif isinstance(target, dict) and op < 0.45:
            target[rng.choice(KEYS)] = rng.choice(values)
        elif isinstance(target, list) and op < 0.45:
            target.append(rng.choice(values))
        elif parent is not None:
            parent[key] = rng.choice(values)
    return doc


def _get(doc: Any, path: tuple) -> Any:
    for k in path:
        doc = doc[k]
    return doc


@pytest.mark.parametrize("doc", [SAMPLE, RICH], ids=["sample", "rich"])
def test_well_formed_worlds_take_the_fast_path_and_build_the_same_world(doc):
    fast, full = fast_world(doc, DEFAULT_RULES), validated_world(doc, DEFAULT_RULES)
    assert _shape(fast) == _shape(full)
    assert _shape(world_from_dict(doc)) == _shape(full)
    for kind in ("provinces", "realms", "areas", "seas"):  # the model objects themselves: ==, hash, frozen
        mine, theirs = getattr(fast, kind), getattr(full, kind)
        assert mine == theirs and all(hash(mine[n]) == hash(theirs[n]) for n in theirs)
    with pytest.raises(AttributeError):
        next(iter(fast.provinces.values())).unrest = True  # still frozen


@pytest.mark.parametrize(("doc", "cases"), [(RICH, 2500), (SAMPLE, 300)], ids=["rich", "sample"])
def test_mutated_worlds_fast_path_never_disagrees_with_the_full_validator(doc, cases):
    rng = random.Random(8)
    seen = {"fast": 0, "valid": 0, "invalid": 0}
    for _ in range(cases):
        mutated = _mutate(doc, rng)
        full = _outcome(validated_world, mutated)
        try:
            fast = ("ok", _shape(fast_world(mutated, DEFAULT_RULES)))
            seen["fast"] += 1
        except NotFast:
            fast = None
        if fast is not None:  # accepted by the fast path: the full validator accepts it too, same World
            assert fast == full, mutated
        assert _outcome(lambda d, _r: world_from_dict(d), mutated) == full  # errors word for word
        seen["valid" if full[0] == "ok" else "invalid"] += 1
    # the mutations exercise both sides, and the fast path takes most valid documents
    assert seen["valid"] > cases // 20 and seen["invalid"] > cases // 3, seen
    assert seen["fast"] > seen["valid"] // 2, seen
