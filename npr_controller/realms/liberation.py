"""Liberated NPR Provinces, Released Vassals and DNPR expansion (000 intro, §13.2, §13.3; rules-gaps.md)."""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalOrderError, ValidationError
from engine.name_hints import did_you_mean, unknown
from engine.realms.model import World, alphabetical
from engine.trace import Dice, Trace
from npr_controller.realms.result import Decision

R_LIB = "000 §13 Liberated NPR Provinces"
R_REL = "000 §13.2 Released Vassals"
R_DNPR = "000 §13.3 DNPRs"
R_EXPAND = "rules-gaps.md DNPR expansion"


def liberate(world: World, provinces: Any) -> Decision:
    """``npr.liberate``: the realm each Province returns to, and that realm's Capital."""
    if not isinstance(provinces, list) or not provinces:
        raise ValidationError("provinces", "must be a non-empty list of Province names")
    trace = Trace()
    returning: dict[str, list[str]] = {}
    for i, name in enumerate(provinces):
        if name not in world.provinces:
            raise ValidationError(f"provinces[{i}]", unknown("Province", name, world.provinces))
        p = world.provinces[name]
        realm = world.core_of(p)  # rules: 001 §7.6 -- a Core token in its Area, else a DNPR token, else its flag
        token = world.areas[p.area].core is not None
        if p.owner == realm:
            # rules: 001 §7.6 -- a Core Province of its Owner cannot be Liberated
            raise IllegalOrderError(f"{name} is a Core Province of its Owner {p.owner}"
                                    + (" (its Core token is in the Area)" if token else "")
                                    + ": it cannot be Liberated", input=name)
        if not world.realms[realm].is_npr:
            raise IllegalOrderError(f"{name} is a Core of {realm}, not of an NPR"
                                    + (f" ({realm}'s Core token is in {p.area})" if token else " (its flag)"),
                                    input=name)
        why = "its DNPR token" if p.dnpr else "its flag"
        trace.add(R_LIB if not p.dnpr else R_DNPR, f"{name} (Owned by {p.owner}) returns to {realm}, as "
                                                   f"indicated by {why}")
        returning.setdefault(realm, []).append(name)
    results, summary = [], []
    for realm in sorted(returning):
        freed = set(returning[realm])
        # rules: rules-gaps.md Definitions -- "an Occupied Province belongs to neither side": the NPR's
        # Provinces to choose a Capital among are the ones it Owns (controls) and the ones it regains
        held = sorted({p.name for p in world.controlled_by(realm)} | freed, key=alphabetical)
        natural = world.realms[realm].capital
        if natural and (natural in freed or world.provinces[natural].owner == realm):
            capital, rule = natural, "natural Capital"
            trace.add(R_LIB, f"{realm}'s natural Capital {natural} is its own: it stays the Capital")
        else:
            # rules: 000 §13 Liberated NPR Provinces -- alphabetically, Large Provinces first
            large = [n for n in held if world.provinces[n].size == "large"]
            capital = (large or held)[0]
            rule = "alphabetical, Large first"
            owner = world.provinces[natural].owner if natural else None
            trace.add(R_LIB, f"{realm}'s natural Capital {natural or '(none)'} is Owned by {owner or 'nobody'}: "
                             f"Capital chosen alphabetically among {'Large' if large else 'all'} Provinces: {capital}")
        results.append({"realm": realm, "provinces": sorted(freed), "capital": capital, "capital_rule": rule})
        summary.append(f"{realm}: regains {', '.join(sorted(freed))}; Capital {capital} ({rule})")
    return Decision("npr.liberate", {"liberated": results}, tuple(summary), trace, Dice(None))


def released_vassals(world: World) -> Decision:
    """Vassals whose Overlord no longer exists, or whose PR Overlord's ``v`` are gone (000 §13.2)."""
    trace = Trace()
    out = []
    vassals = sorted(n for n, r in world.realms.items() if r.kind == "vassal")
    if not vassals:  # an answer with an empty trace cited nothing for the GM to check
        trace.add(R_REL, "no realm of this world is a Vassal (kind 'vassal'): none to release")
    for name in vassals:
        lord = world.realms[name].overlord
        provinces = world.owned_by(name)
        if not world.owned_by(lord):
            out.append({"realm": name, "former_overlord": lord, "reason": "Overlord does not exist"})
            trace.add(R_REL, f"{name}'s Overlord {lord} owns no Province: {name} is an independent NPR")
        elif world.realms[lord].is_pr and provinces and not any(p.token == "v" for p in provinces):
            out.append({"realm": name, "former_overlord": lord, "reason": "the PR's v were removed"})
            trace.add(R_REL, f"{lord}'s v have been removed from {name}'s Provinces: {name} is an independent NPR")
        else:
            trace.add(R_REL, f"{name} stays a Vassal of {lord}")
    summary = tuple(f"{r['realm']}: released ({r['reason']})" for r in out) or ("no Vassal is released",)
    return Decision("npr.release", {"released": out}, summary, trace, Dice(None))


def dnpr_expansion(world: World, dnpr: str) -> Decision:
    """A DNPR annexes one adjacent NPR Province when its Event resolves (rules-gaps.md DNPR expansion)."""
    if dnpr not in world.realms or world.realms[dnpr].kind != "dnpr":
        raise ValidationError("dnpr", f"{dnpr!r} is not a DNPR"
                                      + did_you_mean(dnpr, [n for n, r in world.realms.items() if r.kind == "dnpr"]))
    trace = Trace()
    own = {p.area for p in world.controlled_by(dnpr)}
    land = set().union(*(world.areas[a].adjacent for a in own)) if own else set()
    near = set().union(*(world.neighbours(a) for a in own)) if own else set()
    tiers = {}
    for p in world.provinces.values():
        r = world.realms[p.owner]
        if r.kind != "npr" or p.occupied_by is not None or world.realms[world.core_of(p)].is_pr:
            continue  # rules: 000 §13.3 -- never on a PR's Core (its flag, or a Core token, 001 §7.6); plain NPR
        tier = 0 if p.area in own else 1 if p.area in land else 2 if p.area in near else None
        if tier is not None:
            tiers.setdefault(tier, []).append(p)
    if not tiers:
        trace.add(R_EXPAND, f"{dnpr} has no adjacent NPR Province: no expansion")
        return Decision("npr.dnpr_expand", {"dnpr": dnpr, "province": None}, (f"{dnpr}: no expansion",),
                        trace, Dice(None))
    tier = min(tiers)
    labels = ("Areas where it already owns Provinces", "Areas adjacent by land", "Areas adjacent by sea")
    trace.add(R_EXPAND, f"prefer {labels[tier]}: candidates " + ", ".join(p.name for p in tiers[tier]))
    tax = {n: world.tax_income(n) for n in {p.owner for p in tiers[tier]}}
    target_npr = min(tax, key=lambda n: (tax[n], alphabetical(n)))
    trace.add(R_EXPAND, "target the NPR with the lowest Tax Income, ties alphabetically: "
                        + ", ".join(f"{n} {t}" for n, t in sorted(tax.items())) + f" -> {target_npr}")
    pick = min((p for p in tiers[tier] if p.owner == target_npr), key=lambda p: alphabetical(p.name))
    trace.add(R_DNPR, f"{dnpr} annexes {pick.name}: mark it with a DNPR token")
    body = {"dnpr": dnpr, "province": pick.name, "from": target_npr, "area": pick.area}
    return Decision("npr.dnpr_expand", body, (f"{dnpr} annexes {pick.name} from {target_npr}",), trace,
                    Dice(None))
