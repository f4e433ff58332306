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
