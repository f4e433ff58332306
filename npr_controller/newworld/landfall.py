"""Exploration landfalls: Landfall Tables #1 and #2 with re-rolls (rules file 002, Exploration)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.newworld import World
from engine.trace import Dice, Trace

LANDFALL_DIE = 6  # rules: 002 Landfall Tables: 1d6


@dataclass(frozen=True, slots=True)
class LandfallRoll:
    """One roll on a landfall table and, if it had to be re-rolled, why."""

    table: int
    face: int
    letter: str
    area: str
    blocked: str | None  # "occupied by Dutch" / "claimed by English as an Exclusive Landfall"

    def to_dict(self) -> dict:
        return {
            "table": self.table,
            "face": self.face,
            "letter": self.letter,
            "area": self.area,
            "blocked": self.blocked,
        }


@dataclass(frozen=True, slots=True)
class Landfall:
    """Where an exploring nation sails, and every roll it took to get there."""

    table: int
    letter: str
    area: str
    rolls: tuple[LandfallRoll, ...]

    def to_dict(self) -> dict:
        return {
            "table": self.table,
            "letter": self.letter,
            "area": self.area,
            "rolls": [r.to_dict() for r in self.rolls],
        }


def _named(letter: str, area: str) -> str:
    return letter if letter == area else f"{letter} ({area})"


def blocked(world: World, nation: str, area: str) -> str | None:
    """Why ``area`` cannot be a landfall: occupied by any nation, or another's Exclusive Landfall."""
    occ = world.occupants(area)
    if occ:
        return "occupied by " + ", ".join(occ)
    claimant = world.claimant(area)
    if claimant is not None and claimant != nation:
        return f"claimed by {claimant} as an Exclusive Landfall"
    return None


def find_landfall(world: World, nation: str, dice: Dice, trace: Trace) -> Landfall | None:
    """rules: 002 Exploration: the landfall, or None when every landfall on the tables is taken."""
    holds = bool(world.nations[nation].areas)
    # rules: 002 Exploration "If no new world holdings ... Table #1 ... If the nation holds ... Table #2"
    tables = (2,) if holds else (1, 2)
    trace.add(
        "002 Exploration",
        f"{nation} {'holds' if holds else 'has no'} New World territory: "
        f"rolls on Landfall Table #{tables[0]}",
    )
    rolls: list[LandfallRoll] = []
    for table in tables:
        letters = world.landfall_tables[table]
        areas = [world.landfall_area(letter) or letter for letter in letters]
        if all(blocked(world, nation, a) for a in areas):
            # rules: 002 Exploration "If all landfalls on Table #1 are occupied, roll on Table #2"
            trace.add(
                f"002 Landfall Table #{table}",
                "every landfall on the table is occupied or claimed: "
                + "; ".join(f"{a} {blocked(world, nation, a)}" for a in dict.fromkeys(areas)),
            )
            continue
        while True:  # terminates: at least one face is free
            face = dice.roll(1, LANDFALL_DIE, f"{nation} landfall table #{table}").faces[0]
            letter, area = letters[face - 1], areas[face - 1]
            why = blocked(world, nation, area)
            rolls.append(LandfallRoll(table, face, letter, area, why))
            if why is None:
                off = " (off the described map: off_map_landfalls)" if letter in world.off_map_landfalls else ""
                trace.add(
                    f"002 Landfall Table #{table}",
                    f"rolled {face}: {_named(letter, area)}{off} is free: {nation} sails there",
                )
                return Landfall(table, letter, area, tuple(rolls))
            # rules: 002 Exploration "if the result obtained is already occupied (or claimed ...), roll again"
            trace.add(
                f"002 Landfall Table #{table}", f"rolled {face}: {_named(letter, area)} is {why}: roll again"
            )
    return None
