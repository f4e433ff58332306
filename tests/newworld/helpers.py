"""Shared builders for the New World tests: a 4x4 letter map and scripted dice."""

from __future__ import annotations

import copy
from typing import Any

from engine.newworld import World, parse_world
from engine.trace import Dice, Roll

# The map: every landfall letter of both default tables plus B, D, F, G, K.
GRID = ("HJNO", "RUCM", "XYEB", "DFGK")
LETTERS = "".join(GRID)


def grid_areas(natives: dict[str, int] | None = None) -> dict[str, dict[str, Any]]:
    """4x4 areas, adjacent horizontally and vertically; the outer ring is coastal."""
    natives = natives or {}
    areas = {}
    for r, row in enumerate(GRID):
        for c, name in enumerate(row):
            adj = []
            if c + 1 < len(row):
                adj.append(GRID[r][c + 1])
            if r + 1 < len(GRID):
                adj.append(GRID[r + 1][c])
            areas[name] = {"adjacent": adj, "coastal": r in (0, 3) or c in (0, 3),
                           "natives": natives.get(name, 0)}
    return areas


def doc(nations: dict[str, dict[str, Any]], turn: int = 5, **extra: Any) -> dict[str, Any]:
    """A world document on the grid map with the given nations."""
    d: dict[str, Any] = {"turn": turn, "areas": grid_areas(extra.pop("natives", None)),
                         "nations": copy.deepcopy(nations)}
    d.update(extra)
    return d


def world(nations: dict[str, dict[str, Any]], turn: int = 5, **extra: Any) -> World:
    return parse_world(doc(nations, turn, **extra))


def hold(*areas: str, colonists: int = 1, soldiers: int = 0) -> dict[str, dict[str, int]]:
    """Holdings with the same forces in each of ``areas``."""
    return {a: {"colonists": colonists, "soldiers": soldiers} for a in areas}


class ScriptedDice(Dice):
    """Dice that return the faces and choice indexes (0-based) a test scripts, and record them.

    Running out of script raises IndexError, so a test also fails if the planner rolls more than
    the rule says.
    """

    def __init__(self, faces=(), choices=()):
        super().__init__(0)
        self._faces = list(faces)
        self._choices = list(choices)

    def roll(self, n: int, sides: int = 6, purpose: str = "") -> Roll:
        faces = tuple(self._faces.pop(0) for _ in range(n))
        if any(not 1 <= f <= sides for f in faces):
            raise ValueError(f"scripted faces {faces} do not fit a d{sides}")
        r = Roll(purpose, sides, faces)
        self.rolls.append(r)
        return r

    def choice(self, options, purpose: str = ""):
        options = list(options)
        i = self._choices.pop(0)
        self.rolls.append(Roll(purpose, len(options), (i + 1,)))
        return options[i]

    @property
    def exhausted(self) -> bool:
        return not self._faces and not self._choices
