"""Load a realm ``world`` (``../shared/design/worlds.md``) from a dict, JSON, TOML or msgpack.

Validation names every bad field by its path (``provinces.Sevilla.size: must be 'small' or
'large'``); unknown keys are errors so typos are never silently ignored. Missing optional keys take
the defaults documented in worlds.md.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import msgpack

from engine import json_mistakes, jsonfile, msgpack_mistakes
from engine.errors import ValidationError
from engine.name_hints import unknown, written_twice
from engine.realms.consistency import check_consistency
from engine.realms.fastload import KEYS, NotFast, fast_world
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
from engine.realms.options import DEFAULT_RULES, MONARCH_POWER_CAP, RealmRules

_MISSING = object()

FIRST_ROUND = 1  # "round": 1 when left out (docs/world-formats.md); the dice streams key on it


class Fields:
    """A dict being read at ``path``: typed getters, and a check that no unknown key is left."""

    def __init__(self, data: Any, path: str):
        if not isinstance(data, dict):
            raise ValidationError(path or "world", _not_of(data, dict))
        self.data, self.path = data, path

    def sub(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def get(self, key: str, types: type | tuple[type, ...], default: Any = _MISSING) -> Any:
        value = self.data.get(key, _MISSING)
        t = type(value)  # fast path: the exact type asked for (bool never passes as int here)
        if t is types or (t is not bool and type(types) is tuple and t in types):
            return value
        if value is _MISSING or value is None:
            if default is _MISSING:
                raise ValidationError(self.sub(key), "is required")
            return default
        ok = isinstance(value, types) and not (isinstance(value, bool) and bool not in _tuple(types))
        if not ok:
            raise ValidationError(self.sub(key), _not_of(value, types))
        return value

    def nonneg(self, key: str, default: Any = _MISSING) -> int:
        v = self.get(key, int, default)
        if v is not None and v < 0:
            raise ValidationError(self.sub(key), f"must be >= 0, not {v}")
        return v

    def names(self, key: str, known: dict[str, Any], what: str) -> frozenset[str]:
        values = self.get(key, list, [])
        for i, v in enumerate(values):
            if not isinstance(v, str) or v not in known:
                raise ValidationError(f"{self.sub(key)}[{i}]", unknown(what, v, known))
        return frozenset(values)

    def check(self, allowed: tuple[str, ...]) -> None:
        for key in self.data:
            if key not in allowed:
                raise ValidationError(self.sub(str(key)), f"unknown key (allowed: {', '.join(allowed)})")


# what a GM calls each kind of value (the document's words, not Python's)
KIND_WORDS = {int: "a whole number", str: "a name in quotes", list: "a list", dict: "a map", bool: "true or false",
              float: "a number with a decimal point", type(None): "null"}


def _not_of(value: Any, types: type | tuple[type, ...]) -> str:
    """``must be a whole number, not the text '5' (write 5 without quotes)``: a value of the wrong kind, in words."""
    wanted = " or ".join(KIND_WORDS.get(t, t.__name__) for t in _tuple(types))
    if isinstance(value, str):
        number = value.strip().lstrip("+-").isdigit()
        fix = f" (write {value.strip()} without quotes)" if int in _tuple(types) and number else ""
        return f"must be {wanted}, not the text {value!r}{fix}"
    if isinstance(value, bool | int | float):
        return f"must be {wanted}, not {json.dumps(value)}"
    return f"must be {wanted}, not {KIND_WORDS.get(type(value), type(value).__name__)}"


def _tuple(types: type | tuple[type, ...]) -> tuple[type, ...]:
    return types if isinstance(types, tuple) else (types,)


def choice(obj: Fields, key: str, choices: tuple[str, ...], default: Any = _MISSING) -> Any:
    v = obj.get(key, str, default)
    if v is not None and v not in choices:
        raise ValidationError(obj.sub(key), "must be " + " or ".join(repr(c) for c in choices))
    return v


def realm_ref(obj: Fields, key: str, realms: dict[str, Any], default: Any = _MISSING) -> Any:
    v = obj.get(key, str, default)
    if v is not None and v not in realms:
        raise ValidationError(obj.sub(key), unknown("realm", v, realms))
    return v


def _areas(w: Fields) -> tuple[dict[str, Area], dict[str, Sea]]:
    raw_areas = Fields(w.get("areas", dict), "areas")
    raw_seas = Fields(w.get("seas", dict, {}), "seas")
    land: dict[str, set[str]] = {a: set() for a in raw_areas.data}
    coast: dict[str, set[str]] = {a: set() for a in raw_areas.data}
    distant: dict[str, bool] = {}
    core: dict[str, str | None] = {}
    for name in raw_areas.data:
        a = Fields(raw_areas.data[name], raw_areas.sub(name))
        a.check(KEYS["area"])
        core[name] = a.get("core", str, None)  # checked against the realms in validated_world
        for n in a.names("adjacent", raw_areas.data, "Area"):
            if n == name:
                raise ValidationError(a.sub("adjacent"), "an Area cannot be adjacent to itself")
            land[name].add(n)
            land[n].add(name)  # adjacency is symmetric
        coast[name] |= a.names("seas", raw_seas.data, "Sea Zone")
        distant[name] = a.get("distant", bool, False)
    sea_adj: dict[str, set[str]] = {s: set() for s in raw_seas.data}
    for name in raw_seas.data:
        if name in raw_areas.data:
            # `npr capacity REALM PLACE` and the traces name a place by its name alone: one name, one place
            raise ValidationError(raw_seas.sub(name), f"{name!r} is also the name of an Area: give the Sea Zone "
                                                      "(or the Area) another name")
        s = Fields(raw_seas.data[name], raw_seas.sub(name))
        s.check(KEYS["sea"])
        for a in s.names("adjacent", raw_areas.data, "Area"):
            sea_adj[name].add(a)
            coast[a].add(name)
    for a, seas in coast.items():
        for s in seas:
            sea_adj[s].add(a)
    areas = {n: Area(n, frozenset(land[n]), frozenset(coast[n]), distant[n], core[n]) for n in raw_areas.data}
    seas = {n: Sea(n, frozenset(sea_adj[n])) for n in raw_seas.data}
    return areas, seas


def _ruler(data: Any, path: str) -> Ruler | None:
    if data is None:
        return None
    r = Fields(data, path)
    r.check(KEYS["ruler"])
    return Ruler(r.get("name", str, "Ruler"), *(r.nonneg(k, 0) for k in MP_TYPES))


def _realm(name: str, obj: Fields, realms: dict[str, Any]) -> Realm:
    obj.check(KEYS["realm"])
    kind = choice(obj, "kind", REALM_KINDS)
    overlord = realm_ref(obj, "overlord", realms, None)
    # rules: 004 §11.4 Vassals — a realm with an Overlord is a Vassal, its own kind (not 'npr'); say so
    if kind == "vassal" and overlord is None:
        raise ValidationError(obj.sub("overlord"), "a Vassal needs its Overlord: write \"overlord\": <realm name> "
                                                   "(required for kind 'vassal')")
    if kind != "vassal" and overlord is not None:
        raise ValidationError(obj.sub("overlord"), f"only a Vassal has an Overlord: a realm with an Overlord is "
                                                   f"written \"kind\": \"vassal\", not {kind!r}")
    if overlord == name:
        raise ValidationError(obj.sub("overlord"), "a realm cannot be its own Overlord")
    stability = obj.get("stability", int, 0)
    if not -3 <= stability <= 3:
        raise ValidationError(obj.sub("stability"), "must be between -3 and +3 (001 §7.3)")
    mp = Fields(obj.get("monarch_power", dict, {}), obj.sub("monarch_power"))
    mp.check(MP_TYPES)
    for k in MP_TYPES:
        if mp.nonneg(k, 0) > MONARCH_POWER_CAP:
            # rules: 001 §7.1 -- at most 10 of each type of Monarch Power
            raise ValidationError(mp.sub(k), f"at most {MONARCH_POWER_CAP} (001 §7.1)")
    advisors = []
    for i, a in enumerate(obj.get("advisors", list, [])):
        ao = Fields(a, f"{obj.sub('advisors')}[{i}]")
        ao.check(KEYS["advisor"])
        adv = Advisor(ao.get("name", str, f"advisor {i + 1}"), choice(ao, "kind", MP_TYPES),
                      ao.nonneg("skill", 1), ao.nonneg("cost", 0))
        if any(x.kind == adv.kind for x in advisors):
            raise ValidationError(ao.sub("kind"), "only 1 Advisor of each type (001 §7.2)")
        advisors.append(adv)
    ideas = obj.get("ideas", list, [])
    if not all(isinstance(i, str) for i in ideas):
        raise ValidationError(obj.sub("ideas"), "must be a list of strings")
    return Realm(
        name=name, kind=kind, capital=obj.get("capital", str, None), overlord=overlord,
        religion=choice(obj, "religion", RELIGIONS, "christian"),
        base_tax=obj.nonneg("base_tax", None), income_tile=obj.get("income_tile", bool, None),
        stability=stability, ducats=obj.get("ducats", int, 0), loans=obj.nonneg("loans", 0),
        prestige=obj.get("prestige", int, 0), mercenaries=obj.nonneg("mercenaries", 0),
        monarch_power=tuple(mp.nonneg(k, 0) for k in MP_TYPES),
        ruler=_ruler(obj.data.get("ruler"), obj.sub("ruler")), advisors=tuple(advisors),
        ideas=frozenset(ideas), papal_states=obj.get("papal_states", bool, False),
        emperor=obj.get("emperor", bool, False), passed=obj.get("passed", bool, False))


def _province(name: str, o: Fields, areas: dict[str, Area], seas: dict[str, Sea],
              realms: dict[str, Realm]) -> Province:
    o.check(KEYS["province"])
    area = o.get("area", str)
    if area not in areas:
        raise ValidationError(o.sub("area"), unknown("Area", area, areas))
    size = choice(o, "size", tuple(TAX_VALUE))
    owner = realm_ref(o, "owner", realms)
    flag = realm_ref(o, "flag", realms, owner)
    token = choice(o, "token", TOKENS, None)
    dnpr = realm_ref(o, "dnpr", realms, None)
    occupied_by = o.get("occupied_by", str, None)
    if occupied_by is not None and occupied_by not in realms and occupied_by != "rebels":
        raise ValidationError(o.sub("occupied_by"),
                              unknown("realm", occupied_by, [*realms, "rebels"]) + " (a realm, or 'rebels')")
    port = o.get("port", str, None)
    if port is not None and port not in seas:
        raise ValidationError(o.sub("port"), unknown("Sea Zone", port, seas))
    if port is not None and port not in areas[area].seas:
        raise ValidationError(o.sub("port"), f"Area {area!r} does not touch Sea Zone {port!r}")
    kind = realms[owner].kind
    if token == "t" and kind != "pr":
        raise ValidationError(o.sub("token"), "'t' needs a PR owner")
    if token == "v" and not (kind == "vassal" and realms[realms[owner].overlord].is_pr):
        raise ValidationError(o.sub("token"), "'v' needs an owner that is a Vassal of a PR")
    if token == "dnpr" and not (kind == "dnpr" and dnpr == owner):
        raise ValidationError(o.sub("token"), "'dnpr' needs a DNPR owner named in 'dnpr'")
    if dnpr is not None and realms[dnpr].kind != "dnpr":
        raise ValidationError(o.sub("dnpr"), f"{dnpr!r} is not a DNPR")
    if kind == "pr" and token != "t":
        raise ValidationError(o.sub("token"), "a PR's Province carries its 't'")
    if dnpr is not None and realms[flag].is_pr:
        # rules: 000 §13.3 -- a DNPR token can never be placed on a PR's Core
        raise ValidationError(o.sub("dnpr"), "a DNPR token can never be on a PR's Core (000 §13.3)")
    if dnpr is not None and areas[area].core is not None:
        # rules: 000 §13.3 / 001 §7.6 -- a Core token makes every Province of its Area the PR's Core (placing it
        # "displaces any æ"), and a DNPR token can never be on a PR's Core
        raise ValidationError(o.sub("dnpr"), f"a DNPR token can never be on a PR's Core: Area {area!r} holds "
                                             f"{areas[area].core}'s Core token (000 §13.3, 001 §7.6)")
    extra = o.nonneg("extra_manpower", 0)
    if extra and token in ("t", "v"):
        # rules: 000 §13.4 Extra Manpower -- removed when Annexed or Vassalized by a PR
        raise ValidationError(o.sub("extra_manpower"), "only NPR Provinces carry +1 Manpower tokens")
    return Province(name=name, area=area, size=size, flag=flag, owner=owner, token=token, dnpr=dnpr,
                    occupied_by=occupied_by, unrest=o.get("unrest", bool, False), port=port,
                    port_active=o.get("port_active", bool, True), h=o.get("h", bool, False),
                    extra_manpower=extra, capital=o.get("capital", bool, False))


def _pairs(obj: Fields, key: str, realms: dict[str, Realm]) -> frozenset[frozenset[str]]:
    out = set()
    for i, pair in enumerate(obj.get(key, list, [])):
        path = f"{obj.sub(key)}[{i}]"
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
            raise ValidationError(path, "must be a pair of realm names")
        for j, x in enumerate(pair):
            if x not in realms:
                raise ValidationError(f"{path}[{j}]", unknown("realm", x, realms))
        if pair[0] == pair[1]:
            raise ValidationError(path, "a realm cannot pair with itself")
        out.add(frozenset(pair))
    return frozenset(out)


def _relations(obj: Fields, realms: dict[str, Realm], areas: dict[str, Area]) -> Relations:
    obj.check(KEYS["relations"])
    alliances, npr_ally = [], {}
    for i, a in enumerate(obj.get("alliances", list, [])):
        ao = Fields(a, f"{obj.sub('alliances')}[{i}]")
        ao.check(KEYS["alliance"])
        pr = realm_ref(ao, "pr", realms)
        if not realms[pr].is_pr:
            raise ValidationError(ao.sub("pr"), f"{pr!r} is not a PR")
        if ("npr" in ao.data) == ("ally" in ao.data):
            raise ValidationError(ao.path, "give exactly one of 'npr' (an NPR ally) or 'ally' (a PR ally)")
        key = "npr" if "npr" in ao.data else "ally"
        ally = realm_ref(ao, key, realms)
        if key == "npr" and not realms[ally].is_npr:
            raise ValidationError(ao.sub(key), f"{ally!r} is not an NPR")
        if key == "ally" and not realms[ally].is_pr:
            raise ValidationError(ao.sub(key), f"{ally!r} is not a PR")
        active = ao.get("active", bool, False)
        if active and key == "ally":
            raise ValidationError(ao.sub("active"), "only an NPR can be an Active Ally")
        if key == "npr":
            # rules: 004 §11.3 -- an NPR can only be Allied to 1 PR
            if ally in npr_ally:
                raise ValidationError(ao.sub("npr"), f"{ally!r} is already Allied to {npr_ally[ally]!r}")
            npr_ally[ally] = pr
        alliances.append(Alliance(pr, ally, active))
    influence: dict[str, dict[str, int]] = {}
    io = Fields(obj.get("influence", dict, {}), obj.sub("influence"))
    for area, per in io.data.items():
        if area not in areas:
            raise ValidationError(io.sub(area), unknown("Area", area, areas))
        po = Fields(per, io.sub(area))
        influence[area] = {}
        for pr in po.data:
            if pr not in realms or not realms[pr].is_pr:
                raise ValidationError(po.sub(pr), "Influence belongs to PRs only")
            influence[area][pr] = po.nonneg(pr)
    wars, truces = _pairs(obj, "wars", realms), _pairs(obj, "truces", realms)
    for i, pair in enumerate(obj.data.get("wars") or []):
        if frozenset(pair) in truces:
            # rules: rules-gaps.md Definitions -- Truce: no war between the parties until Phase 3 A
            raise ValidationError(f"{obj.sub('wars')}[{i}]", f"{pair[0]} and {pair[1]} are in a Truce")
    return Relations(wars=wars, alliances=tuple(alliances), marriages=_pairs(obj, "marriages", realms),
                     truces=truces, influence=influence)


def _stacks(w: Fields, realms: dict[str, Realm], areas: dict[str, Area],
            seas: dict[str, Sea]) -> tuple[tuple[UnitStack, ...], tuple[ShipStack, ...]]:
    units = []
    for i, u in enumerate(w.get("units", list, [])):
        uo = Fields(u, f"units[{i}]")
        uo.check(KEYS["unit"])
        kind = choice(uo, "kind", UNIT_KINDS, "army")
        realm = realm_ref(uo, "realm", realms, None if kind == "rebel" else _MISSING)
        if kind == "army" and not realms[realm].is_pr:
            raise ValidationError(uo.sub("realm"), f"army Units belong to a PR; {realm!r} is not one")
        if kind == "npr" and not realms[realm].is_npr:
            raise ValidationError(uo.sub("realm"), f"npr Units belong to an NPR; {realm!r} is not one")
        where = uo.get("where", str)
        if where not in areas:
            raise ValidationError(uo.sub("where"), unknown("Area", where, areas))
        units.append(UnitStack(realm, where, kind, uo.nonneg("count", 1)))
    ships = []
    for i, s in enumerate(w.get("ships", list, [])):
        so = Fields(s, f"ships[{i}]")
        so.check(KEYS["ship"])
        realm = realm_ref(so, "realm", realms)
        if not realms[realm].is_pr:
            raise ValidationError(so.sub("realm"), f"Ships on the board belong to PRs; {realm!r} is not one")
        sea = so.get("sea", str)
        if sea not in seas:
            raise ValidationError(so.sub("sea"), unknown("Sea Zone", sea, seas))
        ships.append(ShipStack(realm, sea, so.nonneg("count", 1)))
    return tuple(units), tuple(ships)


def world_from_dict(data: Any, rules: RealmRules = DEFAULT_RULES) -> World:
    """Validate a world document and build the :class:`World`.

    A plainly well-formed document takes the fast path (:mod:`engine.realms.fastload`, the same
    checks without the per-field bookkeeping); anything else goes through the full validator below,
    which names the first bad field. Both build the same World.
    """
    try:
        return fast_world(data, rules)
    except NotFast:
        return validated_world(data, rules)


def validated_world(data: Any, rules: RealmRules = DEFAULT_RULES) -> World:
    """The full validator: every check, raising a :class:`ValidationError` naming the bad field."""
    w = Fields(data, "")
    w.check(KEYS["world"])
    areas, seas = _areas(w)
    raw_realms = Fields(w.get("realms", dict), "realms")
    realms = {n: _realm(n, Fields(raw_realms.data[n], raw_realms.sub(n)), raw_realms.data)
              for n in raw_realms.data}
    for n, r in realms.items():
        if r.overlord and realms[r.overlord].kind == "vassal":
            raise ValidationError(f"realms.{n}.overlord", "a Vassal's Overlord cannot be a Vassal")
    for n, a in areas.items():
        if a.core is not None and not (a.core in realms and realms[a.core].is_pr):
            # rules: 001 §7.6 Core tokens -- "To place a F, a PR needs to Own all the Provinces in the target Area"
            what = {"npr": "an NPR", "dnpr": "a DNPR", "vassal": "a Vassal"}[realms[a.core].kind] \
                if a.core in realms else "not a realm of this world"
            raise ValidationError(f"areas.{n}.core", f"{a.core!r} is {what}: a Core token is a Player Realm's")
    raw_prov = Fields(w.get("provinces", dict), "provinces")
    twice = written_twice(raw_prov.data)
    if twice:
        # one Province typed two ways would count its Tax Value twice (MC, invasions, income)
        raise ValidationError(raw_prov.sub(twice[1]), f"{twice[1]!r} and {twice[0]!r} differ only in case, accents, "
                                                      "spaces or punctuation: one Province written two ways? Keep one "
                                                      "(Province names are matched exactly elsewhere)")
    provinces = {n: _province(n, Fields(raw_prov.data[n], raw_prov.sub(n)), areas, seas, realms)
                 for n in raw_prov.data}
    for n, r in realms.items():  # first: a misspelt Capital is named as unknown, not as a second Capital
        if r.capital is not None and r.capital not in provinces:
            raise ValidationError(f"realms.{n}.capital", unknown("Province", r.capital, provinces))
    for n, p in provinces.items():
        if p.capital:
            r = realms[p.owner]
            if r.capital is None:
                realms[p.owner] = replace(r, capital=n)
            elif r.capital != n:
                first = (f"realms.{p.owner}.capital" if raw_realms.data[p.owner].get("capital") == r.capital
                         else f"provinces.{r.capital}.capital")
                raise ValidationError(f"provinces.{n}.capital",
                                      f"{p.owner} already has its Capital {r.capital} ({first}): a realm has one "
                                      "Capital, give it in one place")
    relations = _relations(Fields(w.get("relations", dict, {}), "relations"), realms, areas)
    units, ships = _stacks(w, realms, areas, seas)
    round_ = w.nonneg("round", 1)
    if round_ < FIRST_ROUND:
        raise ValidationError("round", f"must be at least {FIRST_ROUND}: a game's rounds are counted from "
                                       f"{FIRST_ROUND}, not {round_}")
    world = World(areas=areas, seas=seas, provinces=provinces, realms=realms, relations=relations,
                  units=units, ships=ships, round=round_, phase=w.get("phase", str, "3B"),
                  rules=rules)
    check_consistency(world)
    return world


def read_document(source: str | Path | bytes | dict) -> Any:
    """Parse a document from a dict, a path (.json, .toml, .msgpack/.mpk) or msgpack/JSON bytes."""
    if isinstance(source, dict):
        return source
    try:
        if isinstance(source, bytes):
            return jsonfile.loads(source) if source[:1] in (b"{", b"[") else _unpack(source)
        path = Path(source)
        suffix = path.suffix.lower()
        if suffix == ".toml":
            return tomllib.loads(path.read_text(encoding="utf-8"))
        if suffix in (".msgpack", ".mpk"):
            return _unpack(path.read_bytes())
        text = path.read_text(encoding="utf-8")
        try:
            return jsonfile.loads(text)
        except json.JSONDecodeError as err:
            if suffix == ".json" and text.lstrip()[:1] in ("{", "["):  # JSON with a mistake in it, said in words
                raise ValueError(json_mistakes.not_json(err)) from None
            # a file without a suffix (or TOML named .json) is read as JSON: say how to have it read otherwise
            raise ValueError(f"not JSON ({err}); a file not named .toml, .msgpack or .mpk is read as JSON: "
                             "if it is TOML or MessagePack, rename it or (for the world) give --format toml "
                             "or --format msgpack") from None
    except OSError as err:
        raise ValidationError(str(source), f"cannot read: {err.strerror or err}") from err
    except ValueError as err:
        raise ValidationError(str(source) if not isinstance(source, bytes) else "document",
                              f"not a valid document: {err}") from err


def _unpack(raw: bytes) -> Any:
    """A MessagePack document; what is wrong with one that is not, said in words (the decoder can say nothing)."""
    try:
        return msgpack.unpackb(raw)
    except msgpack_mistakes.ERRORS as err:
        raise ValueError(msgpack_mistakes.not_msgpack(err)) from None


def load_world(source: str | Path | bytes | dict, rules: RealmRules = DEFAULT_RULES) -> World:
    """Load and validate a realm world from a dict, a file path or raw bytes."""
    return world_from_dict(read_document(source), rules)
