"""The base of the engine's immutable values (orders, decisions, pending entries, boards).

The value types made many times a turn (decisions, the common orders, ``Line``, ``Province``,
``dragon._Side``) write their ``__init__`` out instead of taking the one ``dataclasses`` generates:
under the optional mypyc build (tools/build_fast.py) the generated one runs as interpreted Python,
about 10x slower than a compiled one. ``tests/protectors/test_inits.py`` checks that each takes exactly
its fields, in order, with the same defaults.
"""

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
