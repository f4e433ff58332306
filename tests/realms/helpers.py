"""Compact builders for the small hand-made maps the realm tests use."""

from __future__ import annotations

import copy
from typing import Any

from engine.realms import World, world_from_dict


def prov(area: str, owner: str, size: str = "small", **kw: Any) -> dict[str, Any]:
    return {"area": area, "owner": owner, "size": size, **kw}


def town(area: str, owner: str, size: str = "small", **kw: Any) -> dict[str, Any]:
    return prov(area, owner, size, token="t", **kw)


def doc(
    land: dict[str, list[str]],
    provinces: dict[str, dict[str, Any]],
    realms: dict[str, Any],
    *,
    seas: dict[str, list[str]] | None = None,
    wars: list[list[str]] = (),
    alliances: list = (),
    units: list = (),
    ships: list = (),
    distant: tuple[str, ...] = (),
    marriages: list = (),
    truces: list = (),
    influence: dict | None = None,
) -> dict[str, Any]:
    """A world document: ``land`` is Area -> land-adjacent Areas, ``seas`` Sea Zone -> Areas."""
    names = set(land) | {a for adj in land.values() for a in adj}
    areas = {a: {"adjacent": list(land.get(a, [])), "distant": a in distant} for a in sorted(names)}
    rl = {n: (r if isinstance(r, dict) else {"kind": r}) for n, r in realms.items()}
    return copy.deepcopy(
        {
            "areas": areas,
            "seas": {s: {"adjacent": list(a)} for s, a in (seas or {}).items()},
            "provinces": provinces,
            "realms": rl,
            "relations": {
                "wars": [list(w) for w in wars],
                "alliances": list(alliances),
                "marriages": [list(m) for m in marriages],
                "truces": [list(t) for t in truces],
                "influence": influence or {},
            },
            "units": [_unit(*u) for u in units],
            "ships": [{"realm": r, "sea": s, "count": c} for r, s, c in ships],
        }
    )


def _unit(realm: str | None, where: str, count: int, kind: str = "army") -> dict[str, Any]:
    return {"realm": realm, "where": where, "count": count, "kind": kind}


def world(*args: Any, **kw: Any) -> World:
    return world_from_dict(doc(*args, **kw))
