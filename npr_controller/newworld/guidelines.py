"""The standing guidelines, given to the GM as plan notes (rules file 002, Guidelines and Parameters)."""

from __future__ import annotations

from dataclasses import dataclass

from npr_controller.newworld.attitude import Attitude


@dataclass(frozen=True, slots=True)
class Note:
    """A standing instruction for the GM carrying out the plan, with its rule."""

    rule: str
    text: str

    def to_dict(self) -> dict[str, str]:
        return {"rule": self.rule, "text": self.text}


# rules: 002 Attitude Parameters: which combat against Europeans each attitude allows.
COMBAT: dict[Attitude, str] = {
    Attitude.STATUS_QUO: "No offensive combat against other European nations; forces move to establish and "
    "secure as much political control as possible within the current empire.",
    Attitude.EXPANSION: "Conquest and colonization of the target Area only; no other offensive combat "
    "against European nations.",
    Attitude.EXPLORATION: "Sail to the landfall; no offensive combat against European nations.",
    Attitude.PIRACY: "Naval and port combat is allowed (piracy campaign against the target nation).",
    Attitude.OPPORTUNITY: "Land combat against any nation is allowed.",
    Attitude.BALANCING: "Amphibious assault on the target; land combat is allowed against the target only.",
}

# rules: 002 Guidelines (apply in every attitude)
STANDING: tuple[tuple[str, str], ...] = (
    (
        "002 Guidelines",
        "Redistribute forces among the holdings and the Area acted upon to maximize and secure "
        "political control; a holding force keeps enough colonists/miners and soldiers/prospectors to keep "
        "PC barring a catastrophic survival roll.",
    ),
    ("002 Guidelines", "Native combat, prospecting, mining and looting take place in every attitude."),
    (
        "002 Guidelines",
        "Defend itself within the bounds of its attitude if attacked; resolve attacks against "
        "multiple foes proportionally.",
    ),
    ("002 Guidelines", "Colonists usually attempt to retreat before risking loss."),
    ("002 Guidelines", "Gold is transported home as average cargo as soon as possible."),
)


# rules: 002 introduction "Non-player nations do not participate in the initial bidding, therefore they
# determine their initial landfalls after all player nations."
INITIAL_LANDFALL = (
    "Initial landfall: non-player nations do not bid; plan this after every player nation's landfall "
    "and Exclusive Landfall claim is in the world."
)


def notes_for(attitude: Attitude, *, initial: bool = False) -> tuple[Note, ...]:
    """The combat note of ``attitude`` first, then (turn 1) the initial-landfall note, then the
    standing guidelines."""
    first = [Note(f"002 {attitude}", COMBAT[attitude])]
    if initial:
        first.append(Note("002 introduction", INITIAL_LANDFALL))
    return (*first, *(Note(r, t) for r, t in STANDING))
