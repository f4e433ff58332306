"""The fast path of :func:`engine.realms.loader.world_from_dict`, for plainly well-formed documents.

Every check the full validator in :mod:`engine.realms.loader` makes is made here too, as plain
tests on exact types (what the JSON, TOML and msgpack decoders produce), with no per-field helper
objects and no error messages. At the first thing that is not plainly right -- a bad value, a
missing required key, an unknown key, a ``bool`` where an ``int`` belongs, a ``str`` subclass,
anything -- it gives up with :class:`NotFast` and the caller runs the full validator, which finds
the problem and names it. So errors are always the full validator's, word for word, and whatever
this accepts the full validator accepts too and builds into the same World
(``tests/realms/test_fastload.py`` checks both on the sample world and thousands of mutations).

Why: loading and validating the sample world was half the cost of an ``npr.invasions`` call
(issue 8, target p99 <= 2 ms over RPC); the full validator spends it on a ``Fields`` object, a
method call and a path string per field.
"""

from __future__ import annotations

import dataclasses
from dataclasses import replace
from typing import Any

from engine.errors import ValidationError
from engine.name_hints import written_twice
from engine.realms.consistency import check_consistency
from engine.realms.model import (
    MP_TYPES,
    REALM_KINDS,
    RELIGIONS,
    TAX_VALUE,
    TOKENS,
    UNIT_KINDS,
    Advisor,
    Alliance,
    Area,
    Province,
    Realm,
    Relations,
    Ruler,
    Sea,
    ShipStack,
    UnitStack,
    World,
)
from engine.realms.options import MONARCH_POWER_CAP, RealmRules

# The keys each map may hold, in the order the full validator's errors list them (one list for both
# validators: ``loader`` checks against these tuples, the fast path against the sets below).
KEYS: dict[str, tuple[str, ...]] = {
    "world": ("round", "phase", "areas", "seas", "provinces", "realms", "relations", "units", "ships"),
    "area": ("adjacent", "seas", "distant", "core"),
    "sea": ("adjacent",),
    "realm": ("kind", "capital", "overlord", "religion", "base_tax", "income_tile", "stability", "ducats", "loans",
              "prestige", "mercenaries", "monarch_power", "ruler", "advisors", "ideas", "papal_states", "emperor",
              "passed"),
    "ruler": ("name", "adm", "dip", "mil"),
    "advisor": ("name", "kind", "skill", "cost"),
    "province": ("area", "size", "flag", "owner", "token", "dnpr", "occupied_by", "unrest", "port", "port_active",
                 "h", "extra_manpower", "capital"),
    "relations": ("wars", "alliances", "marriages", "truces", "influence"),
    "alliance": ("pr", "npr", "ally", "active"),
    "unit": ("realm", "where", "kind", "count"),
    "ship": ("realm", "sea", "count"),
}
WORLD_KEYS, AREA_KEYS, SEA_KEYS, REALM_KEYS, RULER_KEYS, ADVISOR_KEYS, PROVINCE_KEYS = (
    frozenset(KEYS[k]) for k in ("world", "area", "sea", "realm", "ruler", "advisor", "province"))
RELATION_KEYS, ALLIANCE_KEYS, UNIT_KEYS, SHIP_KEYS = (
    frozenset(KEYS[k]) for k in ("relations", "alliance", "unit", "ship"))
MP_KEYS = frozenset(MP_TYPES)
_EMPTY: dict[str, Any] = {}  # read only


def _builder(cls: type) -> Any:
    """``cls(*values)`` for a frozen, slotted dataclass whose ``__init__`` only stores its arguments,
    storing them straight through the slot descriptors: the generated ``__init__`` makes one
    ``object.__setattr__`` call per field, which made up over half the cost of a Province. Like
    ``dataclasses`` itself, the function is generated, so each field is one plain call; every value
    must be given, in field order (``tests/realms/test_fastload.py`` compares the result with the full
    validator's, which uses ``__init__``)."""
    if not (dataclasses.is_dataclass(cls) and "__slots__" in cls.__dict__) or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} is not a plain slotted dataclass")
    names = [f.name for f in dataclasses.fields(cls)]
    scope = {"new": object.__new__, "cls": cls, **{f"set_{n}": cls.__dict__[n].__set__ for n in names}}
    stores = "".join(f"    set_{n}(obj, {n})\n" for n in names)
    exec(f"def build({', '.join(names)}):\n    obj = new(cls)\n{stores}    return obj\n", scope)
    return scope["build"]


_new_province, _new_realm = _builder(Province), _builder(Realm)
_new_area, _new_sea = _builder(Area), _builder(Sea)


class NotFast(Exception):
    """Not plainly well-formed: the full validator decides (and names the problem)."""


def _map(value: Any, keys: frozenset[str]) -> dict[str, Any]:
    """``value`` if it is a dict holding only ``keys``."""
    if type(value) is not dict or not value.keys() <= keys:
        raise NotFast
    return value


def _opt(d: dict[str, Any], key: str, kind: type, default: Any) -> Any:
    """``d[key]`` if it has exactly type ``kind``; ``default`` if missing or None (as ``Fields.get``)."""
    v = d.get(key)
    if v is None:
        return default
    if type(v) is not kind:
        raise NotFast
    return v


def _nonneg(d: dict[str, Any], key: str, default: Any) -> Any:
    v = d.get(key)
    if v is None:
        return default
    if type(v) is not int or v < 0:
        raise NotFast
    return v


def _names(d: dict[str, Any], key: str, known: dict[str, Any]) -> list[str] | tuple[()]:
    """A list of names, each a key of ``known`` (``Fields.names``)."""
    v = d.get(key)
    if v is None:
        return ()
    if type(v) is not list:
        raise NotFast
    for x in v:
        if type(x) is not str or x not in known:
            raise NotFast
    return v


def _areas(raw_areas: dict[str, Any], raw_seas: dict[str, Any]) -> tuple[dict[str, Area], dict[str, Sea]]:
    land: dict[str, set[str]] = {a: set() for a in raw_areas}
    coast: dict[str, set[str]] = {a: set() for a in raw_areas}
    distant: dict[str, bool] = {}
    for name, raw in raw_areas.items():
        a = _map(raw, AREA_KEYS)
        if a.get("core") is not None:
            raise NotFast  # a Core token (001 §7.6): rare; the full validator checks and builds it
        adjacent = _names(a, "adjacent", raw_areas)
        if name in adjacent:
            raise NotFast
        land[name].update(adjacent)
        for n in adjacent:
            land[n].add(name)  # adjacency is symmetric
        coast[name].update(_names(a, "seas", raw_seas))
        distant[name] = _opt(a, "distant", bool, False)
    sea_adj: dict[str, set[str]] = {s: set() for s in raw_seas}
    if not raw_areas.keys().isdisjoint(raw_seas):
        raise NotFast  # a Sea Zone named as an Area: the full validator names it
    for name, raw in raw_seas.items():
        for a in _names(_map(raw, SEA_KEYS), "adjacent", raw_areas):
            sea_adj[name].add(a)
            coast[a].add(name)
    for a, seas in coast.items():
        for s in seas:
            sea_adj[s].add(a)
    areas = {n: _new_area(n, frozenset(land[n]), frozenset(coast[n]), distant[n], None) for n in raw_areas}
    seas = {n: _new_sea(n, frozenset(sea_adj[n])) for n in raw_seas}
    return areas, seas


def _advisors(raw: list[Any]) -> tuple[Advisor, ...]:
    advisors: list[Advisor] = []
    for i, a in enumerate(raw):
        a = _map(a, ADVISOR_KEYS)
        kind = a.get("kind")
        if type(kind) is not str or kind not in MP_TYPES or any(x.kind == kind for x in advisors):
            raise NotFast  # rules: 001 §7.2 -- only 1 Advisor of each type
        advisors.append(Advisor(_opt(a, "name", str, f"advisor {i + 1}"), kind, _nonneg(a, "skill", 1),
                                _nonneg(a, "cost", 0)))
    return tuple(advisors)


# Realm fields: their exact type and the value a missing (or None) field takes (worlds.md).
REALM_TYPES = {"kind": str, "capital": str, "overlord": str, "religion": str, "base_tax": int, "income_tile": bool,
               "stability": int, "ducats": int, "loans": int, "prestige": int, "mercenaries": int,
               "monarch_power": dict, "ruler": dict, "advisors": list, "ideas": list, "papal_states": bool,
               "emperor": bool, "passed": bool}
REALM_DEFAULTS = {"kind": None, "capital": None, "overlord": None, "religion": "christian", "base_tax": None,
                  "income_tile": None, "stability": 0, "ducats": 0, "loans": 0, "prestige": 0, "mercenaries": 0,
                  "monarch_power": _EMPTY, "ruler": None, "advisors": (), "ideas": (), "papal_states": False,
                  "emperor": False, "passed": False}


def _realm(name: str, raw: Any, raw_realms: dict[str, Any]) -> Realm:
    f = dict(REALM_DEFAULTS)
    for k, v in _map(raw, REALM_KEYS).items():
        if v is not None:
            if type(v) is not REALM_TYPES[k]:
                raise NotFast
            f[k] = v
    kind, overlord, stability = f["kind"], f["overlord"], f["stability"]
    base_tax, loans, mercenaries = f["base_tax"], f["loans"], f["mercenaries"]
    if kind not in REALM_KINDS or f["religion"] not in RELIGIONS \
            or (overlord is not None and overlord not in raw_realms) or (kind == "vassal") != (overlord is not None) \
            or overlord == name or not -3 <= stability <= 3 \
            or (base_tax is not None and base_tax < 0) or loans < 0 or mercenaries < 0:
        raise NotFast  # rules: 001 §7.3 -- Stability from -3 to +3
    mp = _map(f["monarch_power"], MP_KEYS)
    monarch_power = (_nonneg(mp, "adm", 0), _nonneg(mp, "dip", 0), _nonneg(mp, "mil", 0))  # MP_TYPES order
    if max(monarch_power) > MONARCH_POWER_CAP:  # rules: 001 §7.1
        raise NotFast
    ideas = f["ideas"]
    for idea in ideas:
        if type(idea) is not str:
            raise NotFast
    ruler = f["ruler"]
    if ruler is not None:
        ruler = _map(ruler, RULER_KEYS)
        ruler = Ruler(_opt(ruler, "name", str, "Ruler"), _nonneg(ruler, "adm", 0), _nonneg(ruler, "dip", 0),
                      _nonneg(ruler, "mil", 0))
    # positional, in Realm's field order (see _builder)
    return _new_realm(name, kind, f["capital"], overlord, f["religion"], base_tax, f["income_tile"], stability,
                      f["ducats"], loans, f["prestige"], mercenaries, monarch_power, ruler, _advisors(f["advisors"]),
                      frozenset(ideas), f["papal_states"], f["emperor"], f["passed"])


# Province fields: their exact type and the value a missing (or None) field takes (worlds.md).
PROVINCE_TYPES = {"area": str, "size": str, "flag": str, "owner": str, "token": str, "dnpr": str,
                  "occupied_by": str, "unrest": bool, "port": str, "port_active": bool, "h": bool,
                  "extra_manpower": int, "capital": bool}
PROVINCE_DEFAULTS = {"area": None, "size": None, "flag": None, "owner": None, "token": None, "dnpr": None,
                     "occupied_by": None, "unrest": False, "port": None, "port_active": True, "h": False,
                     "extra_manpower": 0, "capital": False}


def _province(name: str, raw: Any, areas: dict[str, Area], seas: dict[str, Sea],
              realms: dict[str, Realm]) -> Province:
    # one pass over the keys present (most Provinces give 3 or 4 of the 13)
    f = dict(PROVINCE_DEFAULTS)
    for k, v in _map(raw, PROVINCE_KEYS).items():
        if v is not None:
            if type(v) is not PROVINCE_TYPES[k]:
                raise NotFast
            f[k] = v
    area, size, owner, token, dnpr = f["area"], f["size"], f["owner"], f["token"], f["dnpr"]
    if area is None or owner is None or area not in areas or size not in TAX_VALUE or owner not in realms:
        raise NotFast  # (area and owner are required: a map may hold a None key)
    flag = owner if f["flag"] is None else f["flag"]
    occupied_by, port, extra = f["occupied_by"], f["port"], f["extra_manpower"]
    kind = realms[owner].kind
    if flag not in realms or (token is not None and token not in TOKENS) or extra < 0 \
            or (dnpr is not None and (dnpr not in realms or realms[dnpr].kind != "dnpr"
                                      or realms[flag].is_pr)) \
            or (occupied_by is not None and occupied_by not in realms and occupied_by != "rebels") \
            or (port is not None and (port not in seas or port not in areas[area].seas)) \
            or (token == "t") != (kind == "pr") \
            or (token == "v" and not (kind == "vassal" and realms[realms[owner].overlord].is_pr)) \
            or (token == "dnpr" and not (kind == "dnpr" and dnpr == owner)) \
            or (extra and token in ("t", "v")):
        # The same rules as loader._province: 't' exactly on PR Provinces, 'v' on a PR's Vassal's,
        # 'dnpr' on the DNPR's own; never a DNPR token on a PR's Core (000 §13.3); +1 Manpower
        # tokens only on NPR Provinces (000 §13.4).
        raise NotFast
    # positional, in Province's field order (see _builder; the hottest constructor of a load)
    return _new_province(name, area, size, flag, owner, token, dnpr, occupied_by, f["unrest"], port,
                         f["port_active"], f["h"], extra, f["capital"])


def _pairs(rel: dict[str, Any], key: str, realms: dict[str, Realm]) -> frozenset[frozenset[str]]:
    out = set()
    for pair in _opt(rel, key, list, ()):
        if type(pair) is not list or len(pair) != 2:
            raise NotFast
        a, b = pair
        if type(a) is not str or type(b) is not str or a not in realms or b not in realms or a == b:
            raise NotFast
        out.add(frozenset(pair))
    return frozenset(out)


def _relations(raw: Any, realms: dict[str, Realm], areas: dict[str, Area]) -> Relations:
    rel = _map(raw, RELATION_KEYS)
    alliances, npr_ally = [], set()
    for a in _opt(rel, "alliances", list, ()):
        a = _map(a, ALLIANCE_KEYS)
        pr, to_npr = a.get("pr"), "npr" in a
        if type(pr) is not str or pr not in realms or not realms[pr].is_pr or to_npr == ("ally" in a):
            raise NotFast
        ally = a["npr" if to_npr else "ally"]
        active = _opt(a, "active", bool, False)
        if type(ally) is not str or ally not in realms \
                or not (realms[ally].is_npr if to_npr else realms[ally].is_pr) \
                or (active and not to_npr) or (to_npr and ally in npr_ally):
            raise NotFast  # rules: 004 §11.3 -- an NPR can only be Allied to 1 PR
        if to_npr:
            npr_ally.add(ally)
        alliances.append(Alliance(pr, ally, active))
    influence: dict[str, dict[str, int]] = {}
    for area, per in _opt(rel, "influence", dict, _EMPTY).items():
        if type(area) is not str or area not in areas or type(per) is not dict:
            raise NotFast
        influence[area] = {}
        for pr, n in per.items():
            if type(pr) is not str or pr not in realms or not realms[pr].is_pr or type(n) is not int or n < 0:
                raise NotFast
            influence[area][pr] = n
    wars, truces = _pairs(rel, "wars", realms), _pairs(rel, "truces", realms)
    if not wars.isdisjoint(truces):  # rules: rules-gaps.md Definitions -- Truce: no war between the parties
        raise NotFast
    return Relations(wars=wars, alliances=tuple(alliances), marriages=_pairs(rel, "marriages", realms),
                     truces=truces, influence=influence)


def _units(raw: list[Any], realms: dict[str, Realm], areas: dict[str, Area]) -> tuple[UnitStack, ...]:
    units = []
    for u in raw:
        u = _map(u, UNIT_KEYS)
        kind, realm, where = _opt(u, "kind", str, "army"), u.get("realm"), u.get("where")
        if kind not in UNIT_KINDS or type(where) is not str or where not in areas:
            raise NotFast
        if realm is None:
            if kind != "rebel":
                raise NotFast
        elif type(realm) is not str or realm not in realms or (kind == "army" and not realms[realm].is_pr) \
                or (kind == "npr" and not realms[realm].is_npr):
            raise NotFast
        units.append(UnitStack(realm, where, kind, _nonneg(u, "count", 1)))
    return tuple(units)


def _ships(raw: list[Any], realms: dict[str, Realm], seas: dict[str, Sea]) -> tuple[ShipStack, ...]:
    ships = []
    for s in raw:
        s = _map(s, SHIP_KEYS)
        realm, sea = s.get("realm"), s.get("sea")
        if type(realm) is not str or realm not in realms or not realms[realm].is_pr \
                or type(sea) is not str or sea not in seas:
            raise NotFast
        ships.append(ShipStack(realm, sea, _nonneg(s, "count", 1)))
    return tuple(ships)


def fast_world(data: Any, rules: RealmRules) -> World:
    """The World of a plainly well-formed document, or :class:`NotFast`."""
    w = _map(data, WORLD_KEYS)
    raw_areas, raw_realms, raw_provinces = w.get("areas"), w.get("realms"), w.get("provinces")
    if type(raw_areas) is not dict or type(raw_realms) is not dict or type(raw_provinces) is not dict:
        raise NotFast
    areas, seas = _areas(raw_areas, _opt(w, "seas", dict, _EMPTY))
    realms = {n: _realm(n, r, raw_realms) for n, r in raw_realms.items()}
    for r in realms.values():
        if r.overlord and realms[r.overlord].kind == "vassal":
            raise NotFast
    if written_twice(raw_provinces):  # one Province typed two ways: the full validator names it
        raise NotFast
    provinces = {n: _province(n, p, areas, seas, realms) for n, p in raw_provinces.items()}
    for n, p in provinces.items():
        if p.capital:
            r = realms[p.owner]
            if r.capital is None:
                realms[p.owner] = replace(r, capital=n)
            elif r.capital != n:
                raise NotFast
    for r in realms.values():
        if r.capital is not None and r.capital not in provinces:
            raise NotFast
    world = World(areas=areas, seas=seas, provinces=provinces, realms=realms,
                  relations=_relations(_opt(w, "relations", dict, _EMPTY), realms, areas),
                  units=_units(_opt(w, "units", list, ()), realms, areas),
                  ships=_ships(_opt(w, "ships", list, ()), realms, seas),
                  round=_first_round(w), phase=_opt(w, "phase", str, "3B"), rules=rules)
    try:
        check_consistency(world)  # the same function the full validator ends with
    except ValidationError:
        raise NotFast from None
    return world


def _first_round(w: dict[str, Any]) -> int:
    """The world's round, counted from 1; anything else goes to the full validator, which names it."""
    r = _nonneg(w, "round", 1)
    if r < 1:
        raise NotFast
    return r
