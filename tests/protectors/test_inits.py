"""The value types whose ``__init__`` is written out (engine/protectors/values.py says why) must take
exactly their dataclass fields, in order, with the same defaults, and set every one of them. (Types
that GameState.clone deep-copies field by field keep the generated one: a compiled class with a
written-out __init__ that has required arguments cannot be made without them, as copying does.)"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil

import pytest

import engine.protectors
from engine.protectors import build_of

# it reads the sources' signatures: a compiled __init__ (make fast) has none to read
pytestmark = pytest.mark.skipif(build_of("engine.protectors.orders") != "pure Python",
                                reason="checks the Python sources, not the optional compiled build")


def _written_out() -> list[type]:
    found = []
    for mod in pkgutil.iter_modules(engine.protectors.__path__):
        m = importlib.import_module(f"engine.protectors.{mod.name}")
        for obj in vars(m).values():
            if (inspect.isclass(obj) and obj.__module__ == m.__name__ and dataclasses.is_dataclass(obj)
                    and "__init__" in vars(obj) and inspect.isfunction(obj.__init__)
                    and obj.__init__.__code__.co_filename != "<string>"):  # not made by dataclasses
                found.append(obj)
    return found


WRITTEN_OUT = _written_out()


def test_the_hot_value_types_are_found():
    names = {c.__name__ for c in WRITTEN_OUT}
    assert {"OrdersDecision", "ConsolidationDecision", "DragonDecision", "BidDecision", "Line", "Fortify",
            "March", "Support", "Work", "Commit", "Bid", "Buy", "Province", "_Side"} <= names


@pytest.mark.parametrize("cls", WRITTEN_OUT, ids=lambda c: c.__name__)
def test_a_written_out_init_matches_the_fields(cls):
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    fields = [f for f in dataclasses.fields(cls) if f.init]
    assert [p.name for p in params] == [f.name for f in fields]
    for p, f in zip(params, fields, strict=True):
        if f.default is not dataclasses.MISSING:
            assert p.default == f.default, f.name
        elif f.default_factory is not dataclasses.MISSING:
            assert p.default is None, f.name  # None stands for a fresh default_factory() value
        else:
            assert p.default is inspect.Parameter.empty, f.name
    # every argument lands in its own field; omitted factory fields get fresh, unshared values
    given = {f.name: object() for f in fields}
    obj = cls(**given)
    assert all(getattr(obj, name) is value for name, value in given.items())
    required = {f.name: object() for f in fields
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}
    a, b = cls(**required), cls(**required)
    for f in fields:
        if f.default_factory is not dataclasses.MISSING:
            assert getattr(a, f.name) == f.default_factory() and getattr(a, f.name) is not getattr(b, f.name)
        elif f.default is not dataclasses.MISSING:
            assert getattr(a, f.name) == f.default
