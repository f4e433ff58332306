"""Scripted controllers that play the Non-Player Realms exactly as file 000 chapter 13 prescribes.

Each function takes a :class:`engine.realms.World` and returns a :class:`Decision` with the
decision, a rule-cited :class:`engine.trace.Trace` and the :class:`engine.trace.Dice` it rolled.
"""

from npr_controller.realms.result import Decision

__all__ = ["Decision"]
