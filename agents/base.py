"""The one small interface every Regent policy implements."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from engine.protectors.decisions import Decision
from engine.protectors.seat import SeatContext


@runtime_checkable
class Agent(Protocol):
    """A policy for one seat: ``act`` returns a legal decision for the step the seat is in."""

    name: str

    def reset(self, seed: int | None = None) -> None:
        """Start a new game (re-seed any randomness)."""

    def act(self, ctx: SeatContext) -> Decision:
        """Decide for ``ctx.seat`` given only what that seat may see."""


def reasons_of(agent: object) -> tuple[str, ...]:
    """Why ``agent`` made its latest decision, one short line per part, if it says (an agent may keep
    ``last_reasons``, a tuple of strings, after each ``act``); empty when it keeps none."""
    reasons = getattr(agent, "last_reasons", ())
    return tuple(str(r) for r in reasons) if isinstance(reasons, tuple | list) else ()
