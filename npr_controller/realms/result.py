"""The common shape of every NPR decision: the decision, its rule-cited trace, and the dice.

``to_dict()`` gives plain JSON-able data the RPC service sends as-is (``../shared/design/protocol.md``:
every decision result carries ``trace`` and the dice rolled with the seed used); ``str()`` gives the
readable text a GM sees on the command line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.trace import Dice, Trace


@dataclass(frozen=True, eq=False)
class Decision:
    """A decision: a ``kind``, a JSON-able ``body``, a readable ``summary``, its trace and dice; ``world`` the world
    after it, for a decision that changes the board (``regent npr invasions --world-out``), else None."""

    kind: str
    body: dict[str, Any]
    summary: tuple[str, ...]
    trace: Trace
    dice: Dice
    world: Any = None

    def to_dict(self) -> dict[str, Any]:
        return {"decision": self.kind, **self.body, "trace": self.trace.to_list(),
                "dice": self.dice.to_dict()}

    def __str__(self) -> str:
        lines = [f"== {self.kind} ==", *self.summary, "", "Trace:"]
        lines += [f"  {step}" for step in self.trace]
        if self.dice.rolls:
            lines.append(f"Dice (seed {self.dice.seed}):")
            lines += [f"  {r.purpose}: d{r.sides} -> {list(r.faces)}" for r in self.dice.rolls]
        return "\n".join(lines)
