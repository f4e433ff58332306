"""GameState.clone copies some fields by their known shape (engine/protectors/state.py): it must give
what copy.deepcopy gives, share no mutable object with the original, and leave the original alone."""

from __future__ import annotations

import copy
import dataclasses

import pytest

from agents.random_agent import RandomAgent
from agents.runner import play_turn_step
from engine.protectors.game import Game
from engine.protectors.state import GameState
from engine.protectors.values import Shared
from envs.opponents import make_setup

IMMUTABLE = (str, int, float, bool, type(None), frozenset, Shared)


def _mutables(obj, seen: set[int], out: dict[int, str], path: str = "state") -> None:
    """Every mutable object reachable from ``obj`` (id -> a path to it)."""
    if isinstance(obj, IMMUTABLE) or id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, tuple):
        for i, x in enumerate(obj):
            _mutables(x, seen, out, f"{path}[{i}]")
        return
    out[id(obj)] = path
    if isinstance(obj, dict):
        for k, v in obj.items():
            _mutables(v, seen, out, f"{path}[{k!r}]")
    elif isinstance(obj, list | set):
        for i, x in enumerate(obj):
            _mutables(x, seen, out, f"{path}[{i}]")
    elif dataclasses.is_dataclass(obj):
        for f in dataclasses.fields(obj):
            _mutables(getattr(obj, f.name), seen, out, f"{path}.{f.name}")


def _positions() -> list[GameState]:
    """States from varied games, several per game (mid-attack and with submissions among them)."""
    out = []
    for seed, kw in ((1, {}), (2, {"factions": True, "island": True, "version": "grand"}), (3, {"teams": 2}),
                     (4, {"factions": True})):
        g = Game(make_setup(board=None, players=6, seed=seed, **kw))
        agents = {s: RandomAgent(seed * 10 + i) for i, s in enumerate(g.state.players)}
        for _ in range(40):
            if g.over:
                break
            pending = [p.seat for p in g.pending() if not p.submitted]
            if pending:  # one submission in: a position with a secret decision waiting
                from engine.protectors.seat import SeatContext

                g.submit(pending[0], agents[pending[0]].act(SeatContext(g, pending[0])))
                out.append(g.state)
                g = Game(g.setup, g)  # a clone to play on, so the recorded state stays as it was
            play_turn_step(g, agents)
            out.append(g.state)
            g = Game(g.setup, g)
    assert any(st.attack is not None for st in out) and any(st.submissions for st in out)
    return out


POSITIONS = _positions()


@pytest.mark.parametrize("k", range(0, len(POSITIONS), max(1, len(POSITIONS) // 40)))
def test_clone_is_deepcopy_and_shares_nothing_mutable(k):
    st = POSITIONS[k]
    c, d = st.clone(), copy.deepcopy(st)
    for f in dataclasses.fields(GameState):
        a, b = getattr(c, f.name), getattr(d, f.name)
        if f.name == "rng":
            assert a.getstate() == b.getstate()
        else:
            assert a == b, f.name
    orig: dict[int, str] = {}
    _mutables(st, set(), orig)
    mine: dict[int, str] = {}
    _mutables(c, set(), mine)
    shared = sorted(orig[i] for i in set(orig) & set(mine))
    assert not shared, f"the clone shares mutable objects with the original: {shared[:5]}"


def test_playing_a_clone_leaves_the_original_alone():
    g = Game(make_setup(board=None, players=5, seed=9, factions=True))
    agents = {s: RandomAgent(i) for i, s in enumerate(g.state.players)}
    for _ in range(6):
        play_turn_step(g, agents)
    before = copy.deepcopy(g.state)
    h = Game(g.setup, g)
    h.state.rng.random()
    while not h.over:
        play_turn_step(h, agents)
    for f in dataclasses.fields(GameState):
        a, b = getattr(g.state, f.name), getattr(before, f.name)
        assert (a.getstate() == b.getstate()) if f.name == "rng" else (a == b), f.name


def _shape(obj, ids: dict[int, int]) -> object:
    """``obj``'s structure with every container replaced by the first-seen index of its identity, so two
    structures compare equal when they hold equal values shared and copied in the same places."""
    tag = ids.setdefault(id(obj), len(ids))
    if isinstance(obj, dict):
        return ("dict", tag, [(_shape(k, ids), _shape(v, ids)) for k, v in obj.items()])
    if isinstance(obj, list | tuple | set | frozenset):
        return (type(obj).__name__, tag, [_shape(x, ids) for x in obj])
    return ("value", obj)


def test_deep_copied_copies_and_shares_as_deepcopy_does():
    """``state.deep_copied`` (the clone's copier): the same values, the same aliasing inside the copy, the same
    immutable objects kept (a tuple of strings is itself), and the same memo: a second call through it finds
    what the first copied, as copy.deepcopy would."""
    from engine.protectors.orders import Fortify
    from engine.protectors.state import deep_copied

    inner = [1, "a"]
    same = ("x", 2, None, 1.5, True)
    data = {"a": inner, "b": [inner, {"c": inner}], "t": (inner, 3), "same": same, "set": {1, 2},
            "fs": frozenset({"p"}), "nested": {"k": [same, same]}, "order": Fortify("P1", True)}
    data["self"] = data["b"]
    for use in (copy.deepcopy, deep_copied):
        memo: dict[int, object] = {}
        out = use(data, memo)
        again = use(inner, memo)
        assert out == data and out is not data
        assert _shape(out, {}) == _shape(copy.deepcopy(data), {})
        assert out["a"] is out["b"][0] is out["b"][1]["c"] is out["t"][0] is again and out["a"] is not inner
        assert out["same"] is same and out["nested"]["k"][0] is same and out["order"] is data["order"]
        assert out["self"] is out["b"] and out["set"] is not data["set"]
    mine: dict[int, str] = {}
    _mutables(deep_copied(data, {}), set(), mine)
    orig: dict[int, str] = {}
    _mutables(data, set(), orig)
    assert not set(orig) & set(mine)
