"""A realm :class:`World` written back as a world document (docs/world-formats.md), the inverse of
:func:`engine.realms.loader.world_from_dict`: ``world_from_dict(world_to_dict(w))`` is ``w`` again.

A decision that changes the board (``regent npr invasions --world-out``: Unrest, Rebels, the Enemy's
losses) writes the world after it this way, so the GM feeds it to the next step instead of typing the
changes in. Keys at their default are left out, as a GM would write them; names and numbers are kept.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from engine.realms.model import MP_TYPES, Area, Province, Realm, World


def _not_default(obj: Any, keys: tuple[str, ...]) -> dict[str, Any]:
    """``obj``'s values of ``keys`` (model fields written as they are) that are not their field's default: the
    loader reads a key left out as the model's default."""
    defaults = {f.name: f.default for f in fields(obj)}
    return {k: v for k in keys if (v := getattr(obj, k)) != defaults[k]}


def _area(a: Area) -> dict[str, Any]:
    out: dict[str, Any] = {"adjacent": sorted(a.adjacent)}
    if a.seas:
        out["seas"] = sorted(a.seas)
    out.update(_not_default(a, ("distant", "core")))
    return out


def _province(p: Province) -> dict[str, Any]:
    out: dict[str, Any] = {"area": p.area, "size": p.size, "owner": p.owner}
    if p.flag != p.owner:
        out["flag"] = p.flag
    out.update(_not_default(p, ("token", "dnpr", "occupied_by", "unrest", "port", "port_active", "h",
                                "extra_manpower", "capital")))
    return out


def _realm(r: Realm) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": r.kind}
    out.update(_not_default(r, ("capital", "overlord", "religion", "base_tax", "income_tile", "stability", "ducats",
                                "loans", "prestige", "mercenaries", "papal_states", "emperor", "passed")))
    if any(r.monarch_power):
        out["monarch_power"] = dict(zip(MP_TYPES, r.monarch_power, strict=True))
    if r.ruler is not None:
        out["ruler"] = {"name": r.ruler.name, "adm": r.ruler.adm, "dip": r.ruler.dip, "mil": r.ruler.mil}
    if r.advisors:
        out["advisors"] = [{"name": a.name, "kind": a.kind, "skill": a.skill, "cost": a.cost} for a in r.advisors]
    if r.ideas:
        out["ideas"] = sorted(r.ideas)
    return out


def _pairs(pairs: frozenset[frozenset[str]]) -> list[list[str]]:
    return sorted(sorted(p) for p in pairs)


def world_to_dict(world: World) -> dict[str, Any]:
    """The world document of ``world`` (its ``rules`` are options given beside a world, not in it)."""
    rel = world.relations
    relations: dict[str, Any] = {
        "wars": _pairs(rel.wars),
        "marriages": _pairs(rel.marriages),
        "truces": _pairs(rel.truces),
    }
    relations["alliances"] = [
        {
            "pr": a.pr,
            ("npr" if world.realms[a.ally].is_npr else "ally"): a.ally,
            **({"active": True} if a.active else {}),
        }
        for a in rel.alliances
    ]
    relations["influence"] = {area: dict(per) for area, per in rel.influence.items()}
    units = []
    for u in world.units:
        unit: dict[str, Any] = {"where": u.where, "kind": u.kind, "count": u.count}
        if u.realm is not None:
            unit["realm"] = u.realm
        units.append(unit)
    return {
        "round": world.round,
        "phase": world.phase,
        "areas": {n: _area(a) for n, a in world.areas.items()},
        "seas": {n: {"adjacent": sorted(s.adjacent)} for n, s in world.seas.items()},
        "provinces": {n: _province(p) for n, p in world.provinces.items()},
        "realms": {n: _realm(r) for n, r in world.realms.items()},
        "relations": {k: v for k, v in relations.items() if v},
        "units": units,
        "ships": [{"realm": s.realm, "sea": s.sea, "count": s.count} for s in world.ships],
    }
