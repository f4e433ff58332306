"""Boards are data: built-in rings around a central sea and validated custom adjacency lists."""

from __future__ import annotations

import pytest

from engine.errors import ValidationError
from engine.protectors.board import Board


class TestBuiltin:
    @pytest.mark.parametrize("n", range(2, 17))
    def test_ring_sizes(self, n):
        normal, grand = Board.builtin(f"ring-{n}"), Board.builtin(f"ring-{n}-grand")
        assert normal.provinces == tuple(f"P{i}" for i in range(1, n + 1))
        assert len(grand.provinces) == 2 * n
        for b in (normal, grand):
            assert all(b.is_neighbour(p, q) == b.is_neighbour(q, p) for p in b.provinces for q in b.provinces)
            assert b.coastal == frozenset(b.provinces)  # every ring Province touches the central sea

    def test_ring_neighbours(self):
        b = Board.builtin("ring-7")
        assert b.neighbours["P1"] == {"P2", "P7"} and b.distance("P1", "P3") == 2

    def test_island(self):
        b = Board.builtin("ring-5+island")
        assert b.island == "P0" and b.count == 5 and b.all_provinces[-1] == "P0"
        assert not b.neighbours.get("P0")

    @pytest.mark.parametrize("name", ["ring-1", "ring-17", "hex-7", "ring-7-huge", ""])
    def test_unknown_builtin(self, name):
        with pytest.raises(ValidationError, match="board"):
            Board.builtin(name)


class TestCustom:
    def spec(self, **over):
        provs = {"P1": {"neighbors": ["P2"]}, "P2": {"neighbors": ["P1", "P3"]}, "P3": {"neighbors": ["P2"]}}
        provs.update(over)
        return {"provinces": provs}

    def test_valid_roundtrip(self):
        b = Board.from_adjacency(self.spec())
        assert b.provinces == ("P1", "P2", "P3") and Board.from_setup(b.to_setup()) == b

    def test_asymmetric(self):
        with pytest.raises(ValidationError, match="P3 lists P1 as a neighbour but P1 does not list P3"):
            Board.from_adjacency(self.spec(P3={"neighbors": ["P2", "P1"]}))

    def test_unknown_name(self):
        with pytest.raises(ValidationError, match="unknown Province 'P9'"):
            Board.from_adjacency(self.spec(P3={"neighbors": ["P2", "P9"]}))

    def test_bad_name(self):
        with pytest.raises(ValidationError, match="'X1' is not a province name"):
            Board.from_adjacency({"provinces": {"X1": ["P2"], "P2": ["X1"]}})

    def test_disconnected(self):
        spec = {"provinces": {"P1": ["P2"], "P2": ["P1"], "P3": ["P4"], "P4": ["P3"]}}
        with pytest.raises(ValidationError, match=r"not connected: \['P3', 'P4'\]"):
            Board.from_adjacency(spec)

    def test_self_border_and_unknown_keys(self):
        with pytest.raises(ValidationError, match="cannot border itself"):
            Board.from_adjacency(self.spec(P3={"neighbors": ["P3"]}))
        with pytest.raises(ValidationError, match="unknown keys"):
            Board.from_adjacency({**self.spec(), "colour": "red"})
