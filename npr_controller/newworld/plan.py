"""The planning stage of one New World Non-Player Nation (rules file 002, "The Planning Stage").

:func:`plan_nation` determines the attitude (automatic or rolled, every modifier shown), applies the
fallbacks until the nation fits an attitude's parameters, finds the landfall or target, buys the
forces and lists the standing guidelines. The result serialises with ``to_dict()`` (plain JSON-able
data: the ``npn.plan`` RPC result) and reads as text with ``to_text()``.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import ValidationError
from engine.newworld import World, parse_world
from engine.trace import Dice, Trace
from npr_controller.dice import SeededDice, check_seed
from npr_controller.newworld.attitude import ORDER, Attitude, AttitudeRoll, chart_row, roll_attitude
from npr_controller.newworld.guidelines import Note, notes_for
from npr_controller.newworld.landfall import Landfall, find_landfall
from npr_controller.newworld.purchases import Purchase, plan_purchase
from npr_controller.newworld.targets import (
    Target,
    balancing_target,
    expansion_target,
    opportunity_target,
    piracy_target,
)

# rules: 002 Guidelines: where a failing attitude goes instead of "the result right above it".
SPECIAL_FALLBACK: dict[Attitude, tuple[Attitude, str]] = {
    Attitude.EXPANSION: (Attitude.OPPORTUNITY, "002 Guidelines (Expansion exception)"),
    Attitude.EXPLORATION: (Attitude.BALANCING, "002 Exploration"),
}
FALLBACK_RULE = "002 Guidelines (cannot fit: the result above)"
FAILURE: dict[Attitude, str] = {
    Attitude.EXPANSION: "no adjacent Area free of European forces",
    Attitude.EXPLORATION: "every landfall on the tables is occupied or claimed",
    Attitude.PIRACY: "no other nation produces gold",
    Attitude.OPPORTUNITY: "no adjacent European-occupied Area and no foreign forces in its own Areas",
    Attitude.BALANCING: "no hegemon with a coastal Area to assault",
}


@dataclass(frozen=True, slots=True)
class Fallback:
    """An attitude the nation could not carry out, and the one it took instead."""

    source: Attitude
    result: Attitude
    rule: str
    because: str

    def to_dict(self) -> dict[str, str]:
        return {"from": str(self.source), "to": str(self.result), "rule": self.rule, "because": self.because}


@dataclass(frozen=True)
class NationPlan:
    """The GM's planning-stage result for one non-player nation."""

    nation: str
    turn: int
    roll: AttitudeRoll
    attitude: Attitude
    fallbacks: tuple[Fallback, ...]
    purchase: Purchase
    landfall: Landfall | None
    target: Target | None
    notes: tuple[Note, ...]
    trace: Trace
    dice: Dice

    def to_dict(self) -> dict[str, Any]:
        return {
            "nation": self.nation,
            "turn": self.turn,
            "seed": self.dice.seed,
            "attitude": str(self.attitude),
            "roll": self.roll.to_dict(),
            "fallbacks": [f.to_dict() for f in self.fallbacks],
            "purchases": self.purchase.to_dict(),
            "landfall": None if self.landfall is None else self.landfall.to_dict(),
            "target": None if self.target is None else self.target.to_dict(),
            "notes": [n.to_dict() for n in self.notes],
            "trace": self.trace.to_list(),
            "dice": self.dice.to_dict(),
        }

    def to_text(self) -> str:
        r, p = self.roll, self.purchase
        lines = [f"{self.nation}, turn {self.turn}: {self.attitude}"]
        if r.automatic:
            lines.append("  attitude: automatic Exploration (no New World holdings)")
        else:
            lines.append(f"  roll: 2d6 = {' + '.join(map(str, r.dice))} = {r.natural}")
            lines += [f"    {m.value:+d} {m.name} ({m.because})" for m in r.modifiers]
            lines.append(f"  modified total: {r.total} -> {r.attitude}")
        lines += [f"  fallback: {f.source} -> {f.result} ({f.because}) [{f.rule}]" for f in self.fallbacks]
        roll = f" (rule 5.1 die {p.colonists_roll})" if p.colonists_roll is not None else ""
        left = (f" (of {p.colonists_wanted}: no room for more on the ships)"
                if p.colonists < p.colonists_wanted else "")
        lines.append(
            f"  purchases: {p.ships_built} ship(s), {p.soldiers} soldier(s), "
            f"{p.colonists} colonist(s){roll}{left}: ${p.cost} of ${p.treasury}"
            + (" (short of funds)" if p.short_of_funds else "")
        )
        lines.append(f"  fleet: {p.fleet_before} -> {p.fleet_after} ship(s), room for {p.capacity} units")
        if self.landfall is not None:
            tries = ", ".join(
                f"#{x.table}:{x.face}={x.letter}" + (f" ({x.blocked})" if x.blocked else "")
                for x in self.landfall.rolls
            )
            lines.append(
                f"  landfall: {self.landfall.area} (Table #{self.landfall.table}, "
                f"letter {self.landfall.letter}; rolls {tries})"
            )
        if self.target is not None:
            lines.append(
                f"  target: {self.target.kind} {self.target.name}: {self.target.because} [{self.target.rule}]"
            )
        lines.append("  notes:")
        lines += [f"    - {n.text} [{n.rule}]" for n in self.notes]
        lines.append("  trace:")
        lines += [f"    {s}" for s in self.trace]
        lines.append(
            f"  dice: seed {self.dice.seed}, "
            + "; ".join(f"{x.purpose} d{x.sides}={list(x.faces)}" for x in self.dice.rolls)
        )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_text()


Finder = Callable[[World, str, Dice, Trace], Any]
FINDERS: dict[Attitude, Finder] = {
    Attitude.EXPANSION: expansion_target,
    Attitude.EXPLORATION: find_landfall,
    Attitude.PIRACY: piracy_target,
    Attitude.OPPORTUNITY: opportunity_target,
    Attitude.BALANCING: balancing_target,
}


def _next(current: Attitude, tried: list[Attitude]) -> tuple[Attitude, str]:
    """rules: 002 Guidelines: the special fallback if untried, else the nearest untried result above."""
    special = SPECIAL_FALLBACK.get(current)
    if special is not None and special[0] not in tried:
        return special
    for att in reversed(ORDER[: ORDER.index(current)]):
        if att not in tried:
            return att, FALLBACK_RULE
    return Attitude.STATUS_QUO, FALLBACK_RULE  # Status Quo always fits, so never reached


def resolve(
    world: World, nation: str, start: Attitude, dice: Dice, trace: Trace
) -> tuple[Attitude, tuple[Fallback, ...], Landfall | None, Target | None]:
    """Apply the fallbacks from ``start``: (attitude, fallbacks, landfall, target)."""
    current, tried, fallbacks = start, [], []
    while True:
        tried.append(current)
        finder = FINDERS.get(current)
        found = None if finder is None else finder(world, nation, dice, trace)
        if finder is None or found is not None:
            landfall = found if isinstance(found, Landfall) else None
            target = found if isinstance(found, Target) else None
            return current, tuple(fallbacks), landfall, target
        nxt, rule = _next(current, tried)
        fallbacks.append(Fallback(current, nxt, rule, FAILURE[current]))
        trace.add(rule, f"{nation} cannot fit {current} ({FAILURE[current]}): it becomes {nxt}")
        current = nxt


def _meant(name: Any, nations: Mapping[str, Any]) -> str:
    """``; did you mean Spain?`` for a misspelt or miscased nation (``--nation Spian``), as ``regent seat`` says it
    for an agent; ``""`` when none is close."""
    if not isinstance(name, str) or len(name) > 64:
        return ""
    folded = {n.casefold(): n for n in nations}
    close = difflib.get_close_matches(name.strip().casefold(), list(folded), n=1)
    return f"; did you mean {folded[close[0]]}?" if close else ""


def plan_nation(
    world: World, nation: str, *, seed: int | None = None, turn: int | None = None, dice: Dice | None = None
) -> NationPlan:
    """Plan ``nation``'s turn. ``turn`` defaults to the world's; ``dice`` (if given) replaces ``seed``.

    ``seed`` None draws a fresh secret seed (recorded in ``dice.seed``). The nation rolls from the
    stream of (seed, "npn.plan", nation, turn) (npr_controller/dice.py): two nations, or two turns,
    planned with one seed never share dice.
    """
    if not isinstance(nation, str) or nation not in world.nations:
        raise ValidationError(
            "nation", f"unknown nation {nation!r}{_meant(nation, world.nations)} (known: "
                      f"{', '.join(sorted(world.nations))})"
        )
    if world.nations[nation].player:
        raise ValidationError("nation", f"{nation} is played by a player, not a non-player nation")
    turn = world.turn if turn is None else turn
    if isinstance(turn, bool) or not isinstance(turn, int) or turn < 1:
        raise ValidationError("turn", f"must be a positive integer, not {turn!r}")
    if dice is None:
        dice = SeededDice(check_seed(seed))
        rolls = dice.stream("npn.plan", nation, turn)
    else:
        rolls = dice
    trace = Trace()
    # rules: 002 The Planning Stage
    trace.add("002 The Planning Stage", f"turn {turn}: the GM determines {nation}'s attitude, then plans")
    roll = roll_attitude(world, nation, turn, rolls, trace)
    attitude, fallbacks, landfall, target = resolve(world, nation, roll.attitude, rolls, trace)
    purchase = plan_purchase(chart_row(attitude), world, nation, rolls, trace)
    return NationPlan(
        nation,
        turn,
        roll,
        attitude,
        fallbacks,
        purchase,
        landfall,
        target,
        notes_for(attitude, initial=turn == 1 and roll.automatic),
        trace,
        dice,
    )


PARAM_KEYS = {"world", "nation", "turn", "seed"}


def npn_plan(params: Any) -> dict[str, Any]:
    """The ``npn.plan`` method (protocol.md): ``{"world", "nation", "turn"?, "seed"?}`` -> plan data.

    Unknown or missing fields raise :class:`ValidationError` naming them; errors inside ``world``
    name the path within the world document (``nations.Spain.treasury``).
    """
    if not isinstance(params, Mapping):
        raise ValidationError("params", f"must be a map, not {type(params).__name__}")
    unknown = sorted(str(k) for k in params if k not in PARAM_KEYS)
    if unknown:
        raise ValidationError(unknown[0], f"unknown field (expected {', '.join(sorted(PARAM_KEYS))})")
    for key in ("world", "nation"):
        if key not in params:
            raise ValidationError(key, "is required")
    world = parse_world(params["world"])
    # a missing or null seed: a fresh secret one, reported in ``seed`` and ``dice.seed``
    return plan_nation(world, params["nation"], seed=params.get("seed"), turn=params.get("turn")).to_dict()
