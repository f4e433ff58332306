"""Contradictions between the parts of a realm world (hA dogfood defect 5).

Each part of a world can be valid on its own and still contradict another: a PR Allied to a realm it
is at War with, a Province Occupied by its own owner or by a realm at peace with it, a Capital Owned by
another realm, Influence no Area can hold (004 §11.1). Both loaders (:mod:`engine.realms.loader`,
:mod:`engine.realms.fastload`) build the World, then run :func:`check_consistency` on it; it raises a
:class:`ValidationError` naming the field.
"""

from __future__ import annotations

from engine.errors import ValidationError
from engine.realms.model import World
from engine.realms.options import ALLIANCE_LIMIT, CABINET_IDEA, INFLUENCE_AREA_LIMIT


def check_consistency(world: World) -> None:
    """Refuse a world whose parts contradict each other, naming the field (hA dogfood defect 5).

    Both loaders build the World first (each part valid on its own), then this runs on it.
    """
    rel = world.relations
    count: dict[str, int] = {}
    seen: dict[frozenset[str], int] = {}
    for i, a in enumerate(rel.alliances):
        path = f"relations.alliances[{i}]"
        key = "npr" if world.realms[a.ally].is_npr else "ally"
        if a.ally == a.pr:
            raise ValidationError(f"{path}.{key}", f"{a.pr!r} cannot be Allied to itself")
        pair = frozenset((a.pr, a.ally))
        if pair in seen:
            raise ValidationError(path, f"{a.pr} and {a.ally} are already Allied "
                                        f"(relations.alliances[{seen[pair]}])")
        seen[pair] = i
        if pair in rel.wars or world.at_war(a.pr, a.ally):
            # rules: 004 §11.3 -- Allies may not Declare War on each other; Ending an Alliance: a War
            # declared on an Ally (Disputed Succession CB) ends the Alliance
            raise ValidationError(path, f"{a.pr} is Allied to {a.ally} but at War with it (relations.wars): "
                                        "Allies are never at War with each other (004 §11.3); remove one of the two")
        for pr in (a.pr, a.ally) if key == "ally" else (a.pr,):
            # rules: 004 §11.3 -- at most 3 Alliances (the "Cabinet" Idea allows 1 more); every
            # Alliance a PR is party to counts, one between two PRs for both (assumptions.md)
            count[pr] = count.get(pr, 0) + 1
            limit = ALLIANCE_LIMIT + (1 if CABINET_IDEA in world.realms[pr].ideas else 0)
            if count[pr] > limit:
                raise ValidationError(path, f"{pr} would have {count[pr]} Alliances: at most {limit} "
                                            f"(004 §11.3: 3, one more with the {CABINET_IDEA!r} Idea)")
    _check_influence(world)
    for name, p in world.provinces.items():
        occ = p.occupied_by
        if occ is None or occ == "rebels":
            continue
        if occ == p.owner:
            raise ValidationError(f"provinces.{name}.occupied_by",
                                  f"{occ!r} Owns {name}: a realm cannot Occupy its own Province")
        if not world.at_war(occ, p.owner):
            # rules: rules-gaps.md Definitions -- only Rebels or Enemies Occupy a Province
            raise ValidationError(f"provinces.{name}.occupied_by",
                                  f"{occ!r} is not at War with {name}'s owner {p.owner!r}: only an Enemy "
                                  "(or 'rebels') Occupies a Province (relations.wars)")
    for name, r in world.realms.items():
        cap = world.provinces.get(r.capital) if r.capital else None
        if cap is None or cap.owner == name:
            continue
        if r.is_pr:
            raise ValidationError(f"realms.{name}.capital", f"{cap.name} is Owned by {cap.owner}, not {name}: "
                                                            "a Player Realm's Capital is one of its own Provinces")
        if cap.core_of != name:
            # rules: 000 §13 Liberated NPR Provinces -- an NPR's natural Capital may be Owned by another Realm
            raise ValidationError(f"realms.{name}.capital",
                                  f"{cap.name} is Owned by {cap.owner} and is not a {name} Core: a Capital is one "
                                  f"of the realm's own Provinces, or its natural Capital (a Province with its "
                                  f"flag) Owned by another Realm (000 §13 Liberated NPR Provinces)")


def _check_influence(world: World) -> None:
    """Influence a board cannot show: more than 5 in an Area, or any in a Distant Area or one whose
    Provinces are all Owned by PRs (004 §11.1)."""
    for area, per in world.relations.influence.items():
        total = sum(per.values())
        if not total:
            continue
        path = f"relations.influence.{area}"
        if total > INFLUENCE_AREA_LIMIT:
            # rules: 004 §11.1 -- "No Area can hold more than 5 I" (Events, Missions, Peace displace others)
            raise ValidationError(path, f"{area} holds {total} Influence: no Area holds more than "
                                        f"{INFLUENCE_AREA_LIMIT} (004 §11.1; Marriages are not Influence here)")
        if world.areas[area].distant:
            # rules: 004 §11.1 Influence on Distant Continents -- no I can be placed in Distant Areas
            raise ValidationError(path, f"{area} is Distant: no Influence can be there (004 §11.1 Influence on "
                                        "Distant Continents)")
        provinces = world.provinces_in(area)
        if provinces and all(world.realms[p.owner].is_pr for p in provinces):
            # rules: 004 §11.1 Influence and Player Realms -- once all Provinces are Owned by PRs, the I there
            # are removed and returned to their owners
            raise ValidationError(path, f"every Province in {area} is Owned by a Player Realm: its Influence "
                                        "goes back to its owners (004 §11.1 Influence and Player Realms)")
