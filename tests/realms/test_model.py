"""The realm model's own mechanics (engine/realms/model.py)."""

from tests.realms.helpers import prov, town, world


def test_evolve_rebuilds_only_the_indexes_of_changed_fields():
    """World.evolve reuses unchanged indexes (speed) and rebuilds the changed ones (correctness)."""
    import dataclasses

    from engine.realms.model import UnitStack

    w = world({"A": ["B"], "B": ["A"]}, {"a1": prov("A", "Gran"), "b1": town("B", "Cast")},
              {"Gran": {"kind": "npr", "capital": "a1"}, "Cast": "pr"})
    moved = w.evolve(units=(UnitStack("Cast", "A", "army", 2),))
    assert moved._ix["by_area"] is w._ix["by_area"]  # provinces unchanged: the index is shared
    assert [u.count for u in moved.units_in("A")] == [2] and not w.units_in("A")
    marked = w.evolve(provinces={**w.provinces, "a1": dataclasses.replace(w.provinces["a1"], unrest=True)})
    assert [p.unrest for p in marked.provinces_in("A")] == [True]
    assert [p.unrest for p in w.provinces_in("A")] == [False]
    assert marked.evolve(round=2).provinces_in("A")[0].unrest  # a chain of evolves keeps every change
