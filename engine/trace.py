"""Rule-cited traces and recorded dice, shared by every controller.

A decision result carries ``trace``: a list of ``{"rule": "000 §13.5 1.2", "because": str}`` steps a
GM can read to audit it, plus the dice rolled with the seed used (``../shared/design/protocol.md``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class TraceStep:
    """One audited step: which rule applied and why."""

    rule: str
    because: str

    def to_dict(self) -> dict[str, str]:
        return {"rule": self.rule, "because": self.because}

    def __str__(self) -> str:
        return f"[{self.rule}] {self.because}"


@dataclass(slots=True)
class Trace:
    """An ordered list of :class:`TraceStep`; every step must name a rule."""

    steps: list[TraceStep] = field(default_factory=list)

    def add(self, rule: str, because: str) -> None:
        if not rule or not rule.strip():
            raise ValueError("a trace step must name the rule it applied")
        self.steps.append(TraceStep(rule, because))

    def extend(self, other: Trace) -> None:
        self.steps.extend(other.steps)

    def to_list(self) -> list[dict[str, str]]:
        return [s.to_dict() for s in self.steps]

    def __iter__(self):
        return iter(self.steps)

    def __len__(self) -> int:
        return len(self.steps)

    def __str__(self) -> str:
        return "\n".join(str(s) for s in self.steps)


@dataclass(frozen=True, slots=True)
class Roll:
    """One recorded roll: what it was for, the die, and the faces that came up."""

    purpose: str
    sides: int
    faces: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.faces)

    def to_dict(self) -> dict[str, Any]:
        return {"purpose": self.purpose, "sides": self.sides, "faces": list(self.faces)}


class Dice:
    """A seeded source of randomness that records every roll and choice it makes.

    Same seed, same calls -> same results, so a GM can replay any decision.
    """

    def __init__(self, seed: int | None = 0):
        if seed is not None and not isinstance(seed, int):
            raise TypeError(f"seed must be an int, not {type(seed).__name__}")
        self.seed = seed
        self._rng = random.Random(seed)
        self.rolls: list[Roll] = []

    def roll(self, n: int, sides: int = 6, purpose: str = "") -> Roll:
        faces = tuple(self._rng.randint(1, sides) for _ in range(n))
        r = Roll(purpose, sides, faces)
        self.rolls.append(r)
        return r

    def choice(self, options, purpose: str = ""):
        """Pick one of ``options`` uniformly (recorded as a roll of a len(options)-sided die)."""
        options = list(options)
        if not options:
            raise ValueError(f"nothing to choose from for {purpose or 'a random choice'}")
        i = self._rng.randrange(len(options))
        self.rolls.append(Roll(purpose, len(options), (i + 1,)))
        return options[i]

    def to_dict(self) -> dict[str, Any]:
        return {"seed": self.seed, "rolls": [r.to_dict() for r in self.rolls]}
