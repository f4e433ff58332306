"""The optional mypyc build (tools/build_fast.py) plays exactly like the pure-Python engine.

When the engine is compiled, random games (factions, teams of boards, the Island, clones, seat views,
redacted seat states and blobs) are played here and again in a child process that is made to import
every engine.protectors module from its ``.py`` source; the two digests must be equal. Without the
build the comparison is skipped; the pure-source import it relies on is checked either way.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

import engine.protectors as pkg
from engine.protectors import orders
from engine.protectors.board import Board
from engine.protectors.decisions import OrdersDecision
from engine.protectors.game import Pending
from tests.compiled_support import loaded_compiled, run_from_source

PACKAGE_DIR = Path(pkg.__path__[0]).resolve()

# Run in the child before anything imports the engine: engine/protectors/* from source only.
_PLAY = """
import hashlib, json
from agents.random_agent import RandomAgent
from agents.runner import play_turn_step
from engine.protectors.game import Game
from engine.protectors.views import seat_state

def plain(o):  # a set (an event seen by several seats) in a fixed order: str() follows the process's string hashes
    return sorted(o) if isinstance(o, (set, frozenset)) else str(o)

def digest(n_games):
    h = hashlib.sha256()
    for seed in range(n_games):
        players = 2 + seed % 7
        board = f"ring-{players}" + ("-grand" if seed % 3 == 0 else "") + ("+island" if seed % 4 == 0 else "")
        g = Game({"board": board, "seed": seed, "players": players, "options": {"factions": seed % 2 == 0}})
        agents = {s: RandomAgent(seed * 7 + i) for i, s in enumerate(g.state.players)}
        for a in agents.values():
            a.reset(seed)
        while not g.over:
            if g.state.turn == 3 and g.step == "orders":
                c = g.clone()  # a clone plays on exactly like the game it came from
                play_turn_step(c, {s: RandomAgent(1) for s in c.state.players})
                h.update(json.dumps(c.view(None), sort_keys=True, default=plain).encode())
                for s in g.state.players:
                    h.update(json.dumps(g.view(s) == g.clone().view(s)).encode())
                    h.update(repr(sorted(seat_state(g.state, s).players[s].used)).encode())
            play_turn_step(g, agents)
        replay = Game.from_blob(g.to_blob())
        h.update(json.dumps([g.result, replay.result, g.state.ledger, [tuple(e) for e in g.state.events],
                             g.state.history, g.view(None), [g.view(s) for s in g.state.players]],
                            sort_keys=True, default=plain).encode())
    return h.hexdigest()
"""

N_GAMES = 12


def compiled_modules() -> list[str]:
    """engine.protectors modules loaded from a C extension in this process."""
    return loaded_compiled("engine.protectors", [p.stem for p in sorted(PACKAGE_DIR.glob("*.py"))])


def _child(code: str) -> str:
    return run_from_source([PACKAGE_DIR], code)


def test_the_child_imports_the_engine_from_source():
    report = _child(
        "import importlib, json, pathlib\n"
        f"names = sorted(p.stem for p in pathlib.Path({str(PACKAGE_DIR)!r}).glob('*.py'))\n"
        "print(json.dumps([importlib.import_module('engine.protectors.' + n).__file__ for n in names]))\n"
    )
    files = json.loads(report)
    assert files and all(f.endswith(".py") for f in files)


@pytest.mark.skipif(not compiled_modules(), reason="engine not compiled (python tools/build_fast.py)")
def test_compiled_engine_plays_exactly_like_the_source():
    assert {"game", "execute", "consolidation", "dragon", "state"} <= set(compiled_modules())
    ns: dict = {}
    exec(_PLAY, ns)
    here = ns["digest"](N_GAMES)
    pure = _child(_PLAY + f"print(digest({N_GAMES}))\n")
    assert here == pure


def test_frozen_values_are_shared_by_copies():
    """Copies share the frozen value types (nothing in one can change); a compiled frozen dataclass
    could not be rebuilt field by field, so this is spelled out for both builds."""
    march = orders.March(2, "P1", "P2")
    decision = OrdersDecision(orders=(march,))
    pending = Pending("Player#1", "orders")
    board = Board.builtin("ring-5")
    for value in (march, decision, pending, orders.Line(orders.Bid(3)), board):
        assert copy.copy(value) is value
        assert copy.deepcopy(value) is value
    state = {"orders": [decision], "n": [1]}
    clone = copy.deepcopy(state)
    assert clone["orders"][0] is decision and clone["n"] is not state["n"]


def test_a_compiled_module_older_than_its_source_is_named(tmp_path):
    import os

    from engine.protectors import stale_compiled_modules

    for name, age in (("game.py", 10), ("game.cpython-311-x86_64-linux-gnu.so", 20),  # source newer
                      ("dragon.py", 30), ("dragon.cpython-311-x86_64-linux-gnu.so", 20),  # build newer
                      ("views.py", 10)):  # no compiled module beside it
        f = tmp_path / name
        f.write_text("")
        os.utime(f, (1_000_000 - age, 1_000_000 - age))
    assert stale_compiled_modules(str(tmp_path)) == ["game"]


def test_the_benchmarks_name_the_build_they_measured():
    from engine.protectors import build_of

    expected = "compiled (mypyc)" if "game" in compiled_modules() else "pure Python"
    assert build_of("engine.protectors.game") == expected
    assert build_of("engine.protectors") == "pure Python"  # __init__ is never compiled
