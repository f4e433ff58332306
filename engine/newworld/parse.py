"""Validate a New World ``world`` document (``worlds.md``) into a :class:`World`.

Every problem raises :class:`engine.errors.ValidationError` whose ``field`` is the dotted path of the
bad value (``nations.Spain.holdings.H.colonists``, ``areas.J.adjacent[1]``...). Unknown keys are
errors (a typo must not be silently ignored); missing optional keys take the documented defaults.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from engine.errors import ValidationError
from engine.name_hints import unknown
from engine.newworld.world import (
    DEFAULT_LANDFALL_TABLES,
    LANDFALL_TABLE_SIZE,
    PC_RULES,
    Area,
    Holding,
    Nation,
    Options,
    World,
)

WORLD_KEYS = {"turn", "areas", "nations", "prices", "options", "landfall_tables", "off_map_landfalls",
              "hegemon_tie_rival"}
AREA_KEYS = {"adjacent", "coastal", "climate", "natives", "landfall", "landfall_table"}
NATION_KEYS = {"player", "treasury", "ships", "holdings", "gold_produced", "exclusive_landfall"}
HOLDING_KEYS = {"colonists", "soldiers", "pc"}
PRICE_KEYS = {"ship", "soldier"}
OPTION_KEYS = {"ship_capacity", "pc_rule", "soldier_limit"}


def _mapping(value: Any, path: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ValidationError(path, f"must be a map, not {type(value).__name__}")
    for key in value:
        if not isinstance(key, str):
            raise ValidationError(path, f"keys must be strings, not {key!r}")
    return value


def _known(value: Mapping[str, Any], allowed: set[str], path: str) -> None:
    unknown = sorted(set(value) - allowed)
    if unknown:
        prefix = f"{path}." if path else ""
        raise ValidationError(
            f"{prefix}{unknown[0]}", f"unknown key (expected one of {', '.join(sorted(allowed))})"
        )


def _int(value: Any, path: str, *, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationError(path, f"must be an integer, not {value!r}")
    if value < minimum:
        raise ValidationError(path, f"must be at least {minimum}, not {value}")
    return value


def _bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise ValidationError(path, f"must be true or false, not {value!r}")
    return value


def _name(value: Any, path: str, known: Mapping[str, Any], what: str) -> str:
    if not isinstance(value, str):
        raise ValidationError(path, f"must be a {what} name, not {value!r}")
    if value not in known:
        raise ValidationError(path, unknown(what, value, known))
    return value


def _path(parent: str, key: str) -> str:
    return f"{parent}.{key}" if parent else key


def parse_world(data: Any) -> World:
    """Validate ``data`` (decoded JSON/TOML/msgpack) and build the :class:`World`."""
    doc = _mapping(data, "world")
    _known(doc, WORLD_KEYS, "")
    if "turn" not in doc:
        raise ValidationError("turn", "is required")
    turn = _int(doc["turn"], "turn", minimum=1)
    if "areas" not in doc:
        raise ValidationError("areas", "is required")
    if "nations" not in doc:
        raise ValidationError("nations", "is required")
    areas = _parse_areas(doc["areas"])
    nations = _parse_nations(doc["nations"], areas)
    options = _parse_options(doc.get("prices", {}), doc.get("options", {}))
    off_map = _parse_off_map(doc.get("off_map_landfalls", []), areas)
    tables = _parse_tables(doc.get("landfall_tables"), areas, off_map)
    rivals = _parse_rivals(doc.get("hegemon_tie_rival", {}), nations)
    world = World(turn, areas, nations, options, tables, rivals, off_map)
    _check_declared_pc(world)
    return world


def _parse_areas(value: Any) -> dict[str, Area]:
    raw = _mapping(value, "areas")
    if not raw:
        raise ValidationError("areas", "must name at least one Area")
    links: dict[str, set[str]] = {name: set() for name in raw}
    fields: dict[str, dict[str, Any]] = {}
    for name, spec in raw.items():
        p = f"areas.{name}"
        spec = _mapping(spec, p)
        _known(spec, AREA_KEYS, p)
        adj = spec.get("adjacent", [])
        if not isinstance(adj, list | tuple):
            raise ValidationError(f"{p}.adjacent", f"must be a list of Area names, not {adj!r}")
        for i, other in enumerate(adj):
            other = _name(other, f"{p}.adjacent[{i}]", raw, "Area")
            if other == name:
                raise ValidationError(f"{p}.adjacent[{i}]", "an Area is not adjacent to itself")
            # Adjacency is symmetric: listing it on either side is enough.
            links[name].add(other)
            links[other].add(name)
        climate = spec.get("climate")
        letter = spec.get("landfall")
        if letter is not None and (not isinstance(letter, str) or not letter):
            raise ValidationError(f"{p}.landfall", f"must be a map letter, not {letter!r}")
        table = spec.get("landfall_table")
        if table is not None and table not in DEFAULT_LANDFALL_TABLES:
            raise ValidationError(f"{p}.landfall_table", f"must be 1, 2 or null, not {table!r}")
        fields[name] = {
            "coastal": _bool(spec.get("coastal", False), f"{p}.coastal"),
            "natives": _int(spec.get("natives", 0), f"{p}.natives"),
            "climate": None if climate is None else _int(climate, f"{p}.climate"),
            "landfall": letter,
            "landfall_table": table,
        }
    areas = {n: Area(n, tuple(sorted(links[n])), **fields[n]) for n in raw}
    seen: dict[str, str] = {}
    # report the clash on an Area that set its letter explicitly (checked last)
    for name in sorted(areas, key=lambda n: (areas[n].landfall is not None, n)):
        letter = areas[name].letter
        if letter in seen:
            raise ValidationError(
                f"areas.{name}.landfall", f"letter {letter!r} already names Area {seen[letter]!r}"
            )
        seen[letter] = name
    return areas


def _parse_nations(value: Any, areas: Mapping[str, Area]) -> dict[str, Nation]:
    raw = _mapping(value, "nations")
    if not raw:
        raise ValidationError("nations", "must name at least one nation")
    nations: dict[str, Nation] = {}
    claimed: dict[str, str] = {}  # Area -> the nation claiming it as its Exclusive Landfall
    for name, spec in raw.items():
        p = f"nations.{name}"
        spec = _mapping(spec, p)
        _known(spec, NATION_KEYS, p)
        holdings = []
        for area, h in _mapping(spec.get("holdings", {}), f"{p}.holdings").items():
            holdings.append(_parse_holding(h, f"{p}.holdings.{area}", area, areas))
        claim = spec.get("exclusive_landfall")
        if claim is not None:
            claim = _name(claim, f"{p}.exclusive_landfall", areas, "Area")
            if claim in claimed:
                # rules: 002 Exploration "claimed as an Exclusive Landfall": one nation's claim; with two, the
                # landfall was blocked for whichever came later alphabetically, its own claim ignored
                raise ValidationError(f"{p}.exclusive_landfall", f"{claim!r} is already {claimed[claim]}'s "
                                                                 "Exclusive Landfall: an Area has one claimant")
            claimed[claim] = name
        nations[name] = Nation(
            name=name,
            player=_bool(spec.get("player", False), f"{p}.player"),
            treasury=_int(spec.get("treasury", 0), f"{p}.treasury"),
            ships=_int(spec.get("ships", 0), f"{p}.ships"),
            holdings=tuple(sorted(holdings, key=lambda h: h.area)),
            gold_produced=_int(spec.get("gold_produced", 0), f"{p}.gold_produced"),
            exclusive_landfall=claim,
        )
    return nations


def _parse_holding(value: Any, p: str, area: str, areas: Mapping[str, Area]) -> Holding:
    if area not in areas:
        raise ValidationError(p, unknown("Area", area, areas))
    spec = _mapping(value, p)
    _known(spec, HOLDING_KEYS, p)
    colonists = _int(spec.get("colonists", 0), f"{p}.colonists")
    soldiers = _int(spec.get("soldiers", 0), f"{p}.soldiers")
    if colonists + soldiers == 0:
        raise ValidationError(p, "a holding needs at least one colonist or soldier")
    pc = spec.get("pc")
    return Holding(area, colonists, soldiers, None if pc is None else _bool(pc, f"{p}.pc"))


def _parse_options(prices: Any, options: Any) -> Options:
    prices = _mapping(prices, "prices")
    _known(prices, PRICE_KEYS, "prices")
    options = _mapping(options, "options")
    _known(options, OPTION_KEYS, "options")
    defaults = Options()
    pc_rule = options.get("pc_rule", defaults.pc_rule)
    if pc_rule not in PC_RULES:
        raise ValidationError("options.pc_rule", f"must be one of {', '.join(PC_RULES)}, not {pc_rule!r}")
    limit = options.get("soldier_limit")
    return Options(
        ship_price=_int(prices.get("ship", defaults.ship_price), "prices.ship", minimum=1),
        soldier_price=_int(prices.get("soldier", defaults.soldier_price), "prices.soldier", minimum=1),
        ship_capacity=_int(
            options.get("ship_capacity", defaults.ship_capacity), "options.ship_capacity", minimum=1
        ),
        pc_rule=pc_rule,
        soldier_limit=None if limit is None else _int(limit, "options.soldier_limit"),
    )


def _parse_off_map(value: Any, areas: Mapping[str, Area]) -> frozenset[str]:
    """Landfall letters the GM leaves off the described (partial) map: a landfall there is planned as
    "sail to <letter>", an Area the world does not describe (rules-gaps: letters are map keys)."""
    if not isinstance(value, list | tuple):
        raise ValidationError("off_map_landfalls", f"must be a list of map letters, not {value!r}")
    by_letter = {a.letter: a.name for a in areas.values()}
    for i, letter in enumerate(value):
        if not isinstance(letter, str) or not letter:
            raise ValidationError(f"off_map_landfalls[{i}]", f"must be a map letter, not {letter!r}")
        if letter in by_letter:
            raise ValidationError(f"off_map_landfalls[{i}]",
                                  f"letter {letter!r} names Area {by_letter[letter]!r}, which is on the map")
    return frozenset(value)


def _parse_tables(value: Any, areas: Mapping[str, Area], off_map: frozenset[str] = frozenset()
                  ) -> dict[int, tuple[str, ...]]:
    tables = dict(DEFAULT_LANDFALL_TABLES)
    if value is not None:
        raw = value if isinstance(value, Mapping) else _mapping(value, "landfall_tables")
        for key, letters in raw.items():
            p = f"landfall_tables.{key}"
            number = int(key) if isinstance(key, str) and key.isdigit() else key
            if number not in DEFAULT_LANDFALL_TABLES:
                raise ValidationError(p, "unknown table (expected 1 or 2)")
            if not isinstance(letters, list | tuple) or len(letters) != LANDFALL_TABLE_SIZE:
                raise ValidationError(p, f"must list {LANDFALL_TABLE_SIZE} map letters (faces 1-6)")
            for i, letter in enumerate(letters):
                if not isinstance(letter, str) or not letter:
                    raise ValidationError(f"{p}[{i}]", f"must be a map letter, not {letter!r}")
            tables[number] = tuple(letters)
    by_letter = {a.letter: a for a in areas.values()}
    missing = [(number, i, letter) for number, letters in sorted(tables.items())
               for i, letter in enumerate(letters) if letter not in by_letter and letter not in off_map]
    if missing:
        number, i, letter = missing[0]
        absent = sorted({m[2] for m in missing} | off_map)
        written = value is not None and number in {int(k) if isinstance(k, str) and k.isdigit() else k
                                                   for k in value}
        where = f"landfall_tables.{number}[{i}]" if written else "off_map_landfalls"
        table = "" if written else f" (the default Landfall Table #{number}: {' '.join(tables[number])})"
        raise ValidationError(
            where,
            f"letter {letter!r}{table} names no Area: give an Area that name or a \"landfall\": {letter!r} "
            f"letter, or, if that part of the map is not described, list it as off the map: "
            f"\"off_map_landfalls\": {json.dumps(absent)}",
        )
    unused = sorted(off_map - {letter for letters in tables.values() for letter in letters})
    if unused:
        raise ValidationError("off_map_landfalls", f"letter {unused[0]!r} is on no landfall table")
    for area in sorted(areas.values(), key=lambda a: a.name):
        t = area.landfall_table
        if t is not None and area.letter not in tables[t]:
            raise ValidationError(
                f"areas.{area.name}.landfall_table", f"letter {area.letter!r} is not on Landfall Table #{t}"
            )
    return tables


def _parse_rivals(value: Any, nations: Mapping[str, Nation]) -> dict[str, str]:
    raw = _mapping(value, "hegemon_tie_rival")
    out: dict[str, str] = {}
    for name, rival in raw.items():
        _name(name, f"hegemon_tie_rival.{name}", nations, "nation")
        out[name] = _name(rival, f"hegemon_tie_rival.{name}", nations, "nation")
        if rival == name:
            raise ValidationError(f"hegemon_tie_rival.{name}", "a nation is not its own chief rival")
    return out


def _check_declared_pc(world: World) -> None:
    """With the derived PC rule, a declared ``pc`` flag must agree (else the GM's data disagree)."""
    if world.options.pc_rule != "derive":
        return
    for name in sorted(world.nations):
        for h in world.nations[name].holdings:
            if h.pc is not None and h.pc != world.derived_pc(name, h.area):
                derived = "has" if not h.pc else "lacks"
                raise ValidationError(
                    f"nations.{name}.holdings.{h.area}.pc",
                    f"declared {str(h.pc).lower()} but by the PC rule (sole European presence, natives "
                    f"cleared, a colonist) {name} {derived} PC there; fix it or set options.pc_rule "
                    f"to 'declared'",
                )
