"""The base of the engine's immutable values (orders, decisions, pending entries, boards).

The value types made many times a turn (decisions, the common orders, ``Line``, ``Province``,
``dragon._Side``) write their ``__init__`` out instead of taking the one ``dataclasses`` generates:
under the optional mypyc build (tools/build_fast.py) the generated one runs as interpreted Python,
about 10x slower than a compiled one. ``tests/protectors/test_inits.py`` checks that each takes exactly
its fields, in order, with the same defaults.

Pickling (training/resume.py pickles every env worker with its games in progress, so a run split
across sessions resumes exactly): mypyc makes a compiled class by calling its ``__init__``, so pickle's
``cls.__new__(cls)`` would fail on a class whose ``__init__`` takes arguments. The engine's mutable
classes (``Game``, ``GameState``, ``Player``, ``Province``, ``Options``, ``Attack``, ``Deck``, ``SeatContext``
and the envs' planners and encoder caches) are marked ``@mypyc_attr(allow_interpreted_subclasses=True)``,
which gives them Python's ``__new__``; the frozen values below pickle as their constructor call
(``Shared.__reduce__``). ``tests/protectors/test_pickle.py`` checks both builds.
"""

from __future__ import annotations

from typing import Any


class Shared:
    """A frozen value: a copy (copy, deepcopy, GameState.clone) shares it, as nothing in one can change.
    Written out because a mypyc-compiled frozen dataclass cannot be copied field by field
    (tools/build_fast.py); in pure Python it only changes object identity."""

    __slots__ = ()

    def __copy__(self) -> Shared:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Shared:
        return self

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as its constructor call (every subclass is a frozen dataclass, wholly given by its
        init fields): under mypyc a class is made by calling its ``__init__``, and a frozen one could
        not take its fields back one by one (training/resume.py pickles games in progress)."""
        cls = type(self)
        fields = getattr(cls, "__match_args__")  # noqa: B009 (set by @dataclass on each subclass; not typed on the base)
        return cls, tuple(getattr(self, name) for name in fields)
