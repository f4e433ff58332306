"""Targets per attitude (rules file 002, Attitude Parameters).

Each finder returns a :class:`Target`, or ``None`` when the nation cannot fit the attitude's
parameters (the planner then applies the fallbacks). Random choices use the recorded dice, and are
made once a candidate is certain to exist (a Balancing hegemon tie without a chief rival is the one
random pick that can still end without a target).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.newworld import World
from engine.trace import Dice, Trace

# rules: 002 Piracy "against the nation producing the most gold": a nation that produced none is no target.
PIRACY_MIN_GOLD = 1


@dataclass(frozen=True, slots=True)
class Target:
    """An Area to take (``kind="area"``) or a nation to raid (``kind="nation"``)."""

    kind: str
    name: str
    held_by: tuple[str, ...]  # nations with forces there (area) / the nation itself (nation)
    rule: str
    because: str
    against: str | None = None  # the nation aimed at (Piracy's victim, Balancing's hegemon or rival)

    def to_dict(self) -> dict:
        return {
            "kind": self.kind,
            "name": self.name,
            "held_by": list(self.held_by),
            "rule": self.rule,
            "because": self.because,
            "against": self.against,
        }


def _others(world: World, nation: str, area: str) -> dict[str, int]:
    return {n: u for n, u in world.occupants(area).items() if n != nation}


def expansion_target(world: World, nation: str, dice: Dice, trace: Trace) -> Target | None:
    """rules: 002 Expansion: a random adjacent, non-European occupied land Area."""
    free = [a for a in world.adjacent_to(nation) if not world.is_occupied(a)]
    if not free:
        trace.add("002 Expansion", f"no Area adjacent to {nation}'s holdings is free of European forces")
        return None
    if len(free) == 1:  # nothing to choose: no die is rolled
        area = free[0]
        trace.add("002 Expansion", f"the only adjacent Area free of Europeans: {area}")
        return Target("area", area, (), "002 Expansion", "the only adjacent Area free of Europeans")
    # rules: 002 Expansion "randomly choose one adjacent, non-European occupied land area"
    area = dice.choice(free, f"{nation} Expansion target")
    trace.add(
        "002 Expansion", f"adjacent Areas free of Europeans: {', '.join(free)}; chosen at random: {area}"
    )
    return Target("area", area, (), "002 Expansion", f"random adjacent Area free of Europeans ({len(free)})")


def piracy_target(world: World, nation: str, dice: Dice, trace: Trace) -> Target | None:
    """rules: 002 Piracy + Guidelines: the top gold producer other than itself, ties random."""
    # rules: 002 Guidelines "ignores its own economic ... position when determining targets for Piracy"
    gold = {n: world.nations[n].gold_produced for n in sorted(world.nations) if n != nation}
    best = max(gold.values(), default=0)
    if best < PIRACY_MIN_GOLD:
        trace.add("002 Piracy", "no other nation produces gold: there is no one to raid")
        return None
    top = [n for n, g in gold.items() if g == best]
    victim = dice.choice(top, f"{nation} Piracy tie") if len(top) > 1 else top[0]
    tie = f" (tie among {', '.join(top)} resolved at random)" if len(top) > 1 else ""
    trace.add("002 Piracy", f"most gold produced (ignoring {nation}): {victim} with {best}{tie}")
    return Target("nation", victim, (victim,), "002 Piracy", f"produces the most gold ({best}){tie}", victim)


def _weakest(world: World, nation: str, areas: list[str], dice: Dice, purpose: str) -> tuple[str, int]:
    strength = {a: sum(_others(world, nation, a).values()) for a in areas}
    low = min(strength.values())
    weakest = [a for a in areas if strength[a] == low]
    return (dice.choice(weakest, purpose) if len(weakest) > 1 else weakest[0]), low


def opportunity_target(world: World, nation: str, dice: Dice, trace: Trace) -> Target | None:
    """rules: 002 Opportunity: foreign forces in its own Areas first, else the weakest adjacent
    European-occupied Area (strength = other nations' colonists + soldiers; ties random)."""
    invaded = [a for a in world.nations[nation].areas if _others(world, nation, a)]
    if invaded:
        # rules: 002 Opportunity "EXCEPTION: ... forces of other power(s) in any area occupied ..."
        area, low = _weakest(world, nation, invaded, dice, f"{nation} Opportunity exception tie")
        held = tuple(_others(world, nation, area))
        trace.add(
            "002 Opportunity (exception)",
            f"other powers' forces in {nation}'s own Areas ({', '.join(invaded)}): "
            f"it attacks them instead, weakest first: {area} ({', '.join(held)}, {low} units)",
        )
        return Target(
            "area", area, held, "002 Opportunity (exception)", f"eliminate {', '.join(held)} in its own Area"
        )
    near = [a for a in world.adjacent_to(nation) if _others(world, nation, a)]
    if not near:
        trace.add("002 Opportunity", f"no European-occupied Area is adjacent to {nation}'s holdings")
        return None
    area, low = _weakest(world, nation, near, dice, f"{nation} Opportunity tie")
    held = tuple(_others(world, nation, area))
    trace.add(
        "002 Opportunity",
        f"adjacent European-occupied Areas: {', '.join(near)}; the weakest is "
        f"{area} ({', '.join(held)}, {low} units; ties at random)",
    )
    return Target(
        "area", area, held, "002 Opportunity", f"weakest adjacent European-occupied Area ({low} units)"
    )


def balancing_victim(world: World, nation: str, dice: Dice, trace: Trace) -> str | None:
    """rules: 002 Balancing: the hegemon (most PC Areas, ignoring itself), or its chief rival on a tie."""
    # rules: 002 Guidelines "ignores its own ... political control position ... for ... Balancing"
    rows = world.pc_standings(exclude=nation)
    if not rows or rows[0][1] == 0:
        trace.add("002 Balancing", f"no nation other than {nation} has an Area under political control")
        return None
    top = [n for n, c in rows if c == rows[0][1]]
    if len(top) == 1:
        trace.add("002 Balancing", f"hemispheric hegemon (ignoring {nation}): {top[0]} with {rows[0][1]} PC")
        return top[0]
    rival = world.chief_rivals.get(nation)
    if rival is not None:
        trace.add("002 Balancing", f"tie for hegemon ({', '.join(top)}): {nation}'s chief rival {rival}")
        return rival
    # rules: 002 introduction "in cases of ambiguity, the GM will determine actions randomly"
    pick = dice.choice(top, f"{nation} Balancing tie (no chief rival given)")
    trace.add(
        "002 Balancing", f"tie for hegemon ({', '.join(top)}) and no chief rival given: {pick} at random"
    )
    return pick


def balancing_target(world: World, nation: str, dice: Dice, trace: Trace) -> Target | None:
    """rules: 002 Balancing: a random coastal Area the hegemon (or chief rival) occupies."""
    victim = balancing_victim(world, nation, dice, trace)
    if victim is None:
        return None
    coastal = [a for a in world.nations[victim].areas if world.areas[a].coastal]
    if not coastal:
        trace.add("002 Balancing", f"{victim} holds no coastal Area to assault")
        return None
    if len(coastal) == 1:  # nothing to choose: no die is rolled
        area = coastal[0]
        trace.add("002 Balancing", f"the only coastal Area of {victim}: {area}; an amphibious assault is launched")
        why = f"the only coastal Area of {victim}"
    else:
        # rules: 002 Balancing "target a randomly chosen coastal area of the hemispheric hegemon"
        area = dice.choice(coastal, f"{nation} Balancing target")
        trace.add(
            "002 Balancing",
            f"coastal Areas of {victim}: {', '.join(coastal)}; chosen at random: {area}; "
            "an amphibious assault is launched",
        )
        why = f"random coastal Area of {victim}"
    held = tuple(_others(world, nation, area))
    return Target("area", area, held, "002 Balancing", why, victim)
