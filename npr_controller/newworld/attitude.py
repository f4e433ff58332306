"""The attitude chart (reconstructed) and the 2d6 attitude roll with its modifiers (rules file 002).

The chart in the variant lost its columns in extraction: only "4 or less Status Quo 4 2 Maintain"
and the like survive. Read against the per-attitude paragraphs, the columns are *Dice Roll,
Attitude, Colonists, Soldiers, Ships*:

| roll | attitude | colonists | soldiers | ships |
|---|---|---|---|---|
| 4 or less | Status Quo | 4 | 2 | maintain (no builds or burns) |
| 5-7 | Expansion | 4 | 4 | enough to transport the force |
| 8 | Exploration | 4 | 6 | 5 (maintain/build a fleet of five) |
| 9 | Piracy | ? (rule 5.1 roll) | 0 | 3 more |
| 10 | Opportunity | ? (rule 5.1 roll) | 8 | enough |
| 11 or more | Balancing | ? (rule 5.1 roll) | maximum | enough |
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.newworld import World
from engine.trace import Dice, Trace


class Attitude(StrEnum):
    STATUS_QUO = "Status Quo"
    EXPANSION = "Expansion"
    EXPLORATION = "Exploration"
    PIRACY = "Piracy"
    OPPORTUNITY = "Opportunity"
    BALANCING = "Balancing"


class ShipRule(StrEnum):
    MAINTAIN = "maintain"  # no builds or burns
    ENOUGH = "enough"  # maintain/build just enough to transport the force
    FLEET = "fleet"  # maintain/build a fleet of ``ships`` ships
    MORE = "more"  # maintain the fleet and build ``ships`` more


@dataclass(frozen=True, slots=True)
class ChartRow:
    """One reconstructed line of the attitude chart; ``None`` colonists = rule 5.1 roll,
    ``None`` soldiers = the maximum the treasury allows."""

    attitude: Attitude
    low: int | None  # None = "or less"
    high: int | None  # None = "or more"
    colonists: int | None
    soldiers: int | None
    ships: ShipRule
    ship_count: int = 0

    def covers(self, total: int) -> bool:
        return (self.low is None or total >= self.low) and (self.high is None or total <= self.high)


COLONISTS_TAKEN = 4  # rules: 002 Status Quo / Expansion / Exploration "will take four colonists"
EXPLORATION_FLEET = 5  # rules: 002 Exploration "maintain/build five ships"
PIRACY_NEW_SHIPS = 3  # rules: 002 Piracy "build three ships"

# rules: 002 Attitude table (columns reconstructed from the Attitude Parameters paragraphs)
ATTITUDE_CHART: tuple[ChartRow, ...] = (
    ChartRow(Attitude.STATUS_QUO, None, 4, COLONISTS_TAKEN, 2, ShipRule.MAINTAIN),
    ChartRow(Attitude.EXPANSION, 5, 7, COLONISTS_TAKEN, 4, ShipRule.ENOUGH),
    ChartRow(Attitude.EXPLORATION, 8, 8, COLONISTS_TAKEN, 6, ShipRule.FLEET, EXPLORATION_FLEET),
    ChartRow(Attitude.PIRACY, 9, 9, None, 0, ShipRule.MORE, PIRACY_NEW_SHIPS),
    ChartRow(Attitude.OPPORTUNITY, 10, 10, None, 8, ShipRule.ENOUGH),
    ChartRow(Attitude.BALANCING, 11, None, None, None, ShipRule.ENOUGH),
)
ORDER: tuple[Attitude, ...] = tuple(r.attitude for r in ATTITUDE_CHART)  # the list, top to bottom


def chart_row(attitude: Attitude) -> ChartRow:
    return ATTITUDE_CHART[ORDER.index(attitude)]


def attitude_for(total: int) -> Attitude:
    """rules: 002 Attitude table: the attitude a modified 2d6 total gives."""
    for row in ATTITUDE_CHART:
        if row.covers(total):
            return row.attitude
    raise ValueError(f"no chart line covers {total}")  # unreachable: the chart is open-ended


# rules: 002 Attitude table modifiers
TURN_MODIFIERS = {2: -3, 3: -2, 4: -1}
NO_PC_MODIFIER = -2
ALL_PC_MODIFIER = 1
BOARD_FULL_MODIFIER = 1
ATTITUDE_DICE = 2  # rules: 002 rules-gaps "New World": the attitude roll is 2d6


@dataclass(frozen=True, slots=True)
class Modifier:
    """One modifier of the attitude roll, checked whether or not it applies."""

    name: str
    value: int  # 0 when it does not apply
    applies: bool
    because: str

    def to_dict(self) -> dict:
        return {"name": self.name, "value": self.value, "applies": self.applies, "because": self.because}


@dataclass(frozen=True, slots=True)
class AttitudeRoll:
    """The attitude determination: automatic, or 2d6 + each modifier -> chart line."""

    automatic: bool
    dice: tuple[int, ...]
    modifiers: tuple[Modifier, ...]
    attitude: Attitude

    @property
    def natural(self) -> int:
        return sum(self.dice)

    @property
    def total(self) -> int:
        return self.natural + sum(m.value for m in self.modifiers)

    def to_dict(self) -> dict:
        return {
            "automatic": self.automatic,
            "dice": list(self.dice),
            "natural": self.natural if self.dice else None,
            "modifiers": [m.to_dict() for m in self.modifiers],
            "total": self.total if self.dice else None,
            "attitude": str(self.attitude),
        }


def modifiers(world: World, nation: str, turn: int) -> tuple[Modifier, ...]:
    """rules: 002 Attitude table modifiers, each one checked and explained."""
    n = world.nations[nation]
    occupied = n.areas
    pc = world.pc_areas(nation)
    out = []
    t = TURN_MODIFIERS.get(turn, 0)
    out.append(Modifier("turn", t, t != 0, f"turn {turn}" + ("" if t else ": only turns 2-4 modify")))
    no_pc = bool(occupied) and not pc
    out.append(
        Modifier(
            "forces without political control",
            NO_PC_MODIFIER if no_pc else 0,
            no_pc,
            f"forces in {', '.join(occupied)} and no Area under PC"
            if no_pc
            else ("PC in " + ", ".join(pc) if pc else "no forces in the New World"),
        )
    )
    all_pc = bool(occupied) and len(pc) == len(occupied)
    out.append(
        Modifier(
            "political control over all it occupies",
            ALL_PC_MODIFIER if all_pc else 0,
            all_pc,
            f"PC in every occupied Area ({', '.join(occupied)})"
            if all_pc
            else f"occupies {len(occupied)} Area(s), PC in {len(pc)}",
        )
    )
    # rules: 002 Attitude table "+1 if all areas on the board are occupied by European nations": the
    # landfall letters of a partial map (off_map_landfalls) are Areas of the board nobody occupies
    # (a landfall there is free, landfall.py), so they count as unoccupied.
    empty = [a for a in sorted(world.areas) if not world.is_occupied(a)]
    off_map = sorted(world.off_map_landfalls)
    full = not empty and not off_map
    if full:
        why = "every Area on the board is occupied by European nations"
    else:
        example = empty[0] if empty else f"{off_map[0]} (off the described map: off_map_landfalls)"
        why = f"{len(empty) + len(off_map)} Area(s) unoccupied, e.g. {example}"
    out.append(Modifier("every Area occupied", BOARD_FULL_MODIFIER if full else 0, full, why))
    hegemon, top, nxt = world.hegemon_lead()
    lead = top - nxt
    if hegemon is None:
        why = "no hemispheric hegemon (no PC, or a tie for the most PC Areas)"
    else:
        standings = world.pc_standings()
        why = (
            f"hegemon {hegemon} has {top} PC Area(s), next power "
            f"{standings[1][0] if len(standings) > 1 else '(none)'} has {nxt}: {top} - {nxt} = +{lead}"
        )
    out.append(Modifier("hegemon's lead over the next power", lead, lead > 0, why))
    return tuple(out)


def roll_attitude(world: World, nation: str, turn: int, dice: Dice, trace: Trace) -> AttitudeRoll:
    """rules: 002 Guidelines / Attitude table: automatic Exploration without holdings, else 2d6 + mods."""
    if not world.nations[nation].areas:
        # rules: 002 Guidelines "no holdings in the New World ... automatically ... Exploration"
        trace.add("002 Guidelines", f"{nation} has no holdings in the New World: automatic Exploration")
        return AttitudeRoll(True, (), (), Attitude.EXPLORATION)
    faces = dice.roll(ATTITUDE_DICE, 6, f"{nation} attitude").faces
    trace.add(
        "002 Attitude table", f"{nation} rolls 2d6 for its attitude: {faces[0]} + {faces[1]} = {sum(faces)}"
    )
    mods = modifiers(world, nation, turn)
    for m in mods:
        trace.add("002 Attitude table modifiers", f"{m.name}: {m.value:+d} ({m.because})")
    total = sum(faces) + sum(m.value for m in mods)
    attitude = attitude_for(total)
    trace.add("002 Attitude table", f"modified total {total}: {attitude}")
    return AttitudeRoll(False, faces, mods, attitude)
