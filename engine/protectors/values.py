"""The base of the engine's immutable values (orders, decisions, pending entries, boards)."""

from __future__ import annotations


class Shared:
    """A frozen value: a copy (copy, deepcopy, GameState.clone) shares it, as nothing in one can change.
    Written out because a mypyc-compiled frozen dataclass cannot be copied field by field
    (tools/build_fast.py); in pure Python it only changes object identity."""

    __slots__ = ()

    def __copy__(self) -> Shared:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Shared:
        return self
