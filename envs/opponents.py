"""Opponent pools and game setups shared by the envs.

An opponent spec is an agent name from ``agents.registry`` ("caretaker", "random", "heuristic",
"policy:<checkpoint>" ...). A pool is a list of specs; each game draws one per opponent seat.
Silent opponents model play-by-mail reality: a silent seat submits nothing and the engine applies the
rulebook defaults (``advance(force=True)``; rules: 003 inactive players), for one turn or for good.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.errors import ValidationError
from engine.protectors.board import ring_name


def board_name(players: int, version: str = "normal", island: bool = False) -> str:
    """The built-in board of a table: ``ring-5``, ``ring-7-grand+island`` (grand: twice the Provinces)."""
    return ring_name(players, version == "grand", island)


def make_setup(board: str | dict | None, players: int, seed: int, version: str = "normal", factions: bool = False,
               island: bool = False, teams: int = 0) -> dict[str, Any]:
    """A protocol.md setup. ``board`` None: the built-in ring for ``players`` (grand: 2x, +island)."""
    if not 2 <= players <= 16:
        raise ValidationError("players", f"{players} players; the game is for 2 to 16")
    if board is None:
        board = board_name(players, version, island)
    spec: Any = players
    if teams:
        if teams < 2 or players % teams or players // teams < 2:
            raise ValidationError("teams", f"team size {teams} must split {players} players into 2+ teams")
        spec = [{"seat": f"Player#{i + 1}", "team": f"T{i // teams + 1}"} for i in range(players)]
    return {"board": board, "seed": int(seed), "players": spec,
            "options": {"version": version, "factions": bool(factions), "teams": bool(teams)}}


VERSIONS = ("normal", "grand")


def check_flag(name: str, flag: Any) -> None:
    """An on/off option must be a bool: "false" or "no" from a config is a string, and truthy."""
    if not isinstance(flag, bool | np.bool_):
        raise ValidationError(name, f"true or false, not {flag!r}")


def check_number(name: str, value: Any) -> float:
    """A numeric option as a float: "0.5" from a config, None or True is refused naming the option."""
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise ValidationError(name, f"a number, not {value!r}")
    return float(value)


def check_probability(name: str, value: Any) -> float:
    """A probability option (``check_number``) in [0, 1], as a float."""
    v = check_number(name, value)
    if not 0.0 <= v <= 1.0:
        raise ValidationError(name, f"a probability in [0, 1], not {value!r}")
    return v


class RenderModeError(ValidationError, TypeError):
    """A ``render_mode`` the env does not have. Also a ``TypeError``, what a constructor raises for an argument
    it does not take: SB3's ``make_vec_env("regent/Protectors-v0")`` asks for ``render_mode="rgb_array"``
    unless ``env_kwargs`` names one, and makes the env again without it on a ``TypeError`` only."""


def check_render_mode(mode: Any, modes: list[str]) -> None:
    """``render_mode`` is None or one of the env's ``metadata["render_modes"]`` (Gymnasium's rule)."""
    if mode is not None and mode not in modes:
        raise RenderModeError("render_mode", f"None or one of {', '.join(map(repr, modes))}, not {mode!r}")


def probe_game(board: str | dict | None, players: int, version: str = "normal", factions: bool = False,
               island: bool = False, teams: int = 0) -> Any:
    """A game of these env options (seed 0), built when the env is made so a bad combination is refused
    there, in the env's own terms, not at ``reset()``. Raises ``ValidationError`` naming the option."""
    from agents.spaces.encoding import BoardCache
    from engine.protectors.board import Board
    from engine.protectors.game import Game

    for name, n in (("players", players), ("teams", teams)):  # "5" or 5.0 failed later, naming something else
        if isinstance(n, bool) or not isinstance(n, int | np.integer):
            raise ValidationError(name, f"a whole number, not {n!r}")
    if version not in VERSIONS:
        raise ValidationError("version", f"one of {VERSIONS}, not {version!r}")
    for name, flag in (("factions", factions), ("island", island)):
        check_flag(name, flag)
    if board is not None and not isinstance(board, (str, dict)):
        raise ValidationError("board", f"a built-in board name (ring-N, ring-N-grand, with +island), a board map "
                                       f"(docs/protocol.md, Boards) or None, not {type(board).__name__}")
    setup = make_setup(board, players, 0, version, factions, island, teams)
    if board is not None:
        b = Board.from_setup(board)
        if island and b.island is None:
            fix = f"'{board}+island'" if isinstance(board, str) else 'an "island" (such as "P0")'
            raise ValidationError("island", f"island=True, but board {b.name!r} has no Island: give the board one "
                                            f"({fix}), or leave board out (a given board decides the Island)")
        n = len(b.provinces)
        if version == "normal" and n != players:
            hint = f"; a board of {2 * players}+ Provinces needs version='grand'" if n >= 2 * players else ""
            raise ValidationError("board", f"{b.name!r} has {n} Provinces for players={players}: version='normal' "
                                           f"needs one per player (such as 'ring-{players}'){hint}")
        if version == "grand" and n < 2 * players:
            raise ValidationError("board", f"{b.name!r} has {n} Provinces for players={players}: version='grand' "
                                           f"needs at least two per player (such as 'ring-{players}-grand')")
    game = Game(setup)
    BoardCache(game.state)  # the encoder's limits (Provinces up to P32), checked now rather than at reset()
    return game


@dataclass
class OpponentPool:
    specs: tuple[str, ...] = ("caretaker",)
    silent_turn_prob: float = 0.0
    silent_forever_prob: float = 0.0
    _cache: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        from agents.registry import AGENTS

        if isinstance(self.specs, str):  # tuple("heuristic") would be a pool of the letters 'h', 'e', ...
            raise ValidationError("opponents", f"a list of agent specs, such as ({self.specs!r},), not the string "
                                               f"{self.specs!r}")
        if not self.specs:
            raise ValidationError("opponents", "the opponent pool is empty")
        for s in self.specs:  # a name as make_agent reads it ("heuristic:x" is no agent); checkpoints load at reset()
            if s not in AGENTS and not s.startswith(("policy:", "search:")):
                raise ValidationError("opponents", f"unknown agent {s!r}; known: {', '.join(sorted(AGENTS))}, "
                                                   f"policy:<checkpoint>[@temperature]")
        for name in ("silent_turn_prob", "silent_forever_prob"):
            setattr(self, name, check_probability(name, getattr(self, name)))

    def pick(self, rng: random.Random) -> str:
        """One opponent spec for one seat (uniform here; weighted pools override this)."""
        return rng.choice(self.specs)

    def draw(self, seats: list[str], rng: random.Random) -> tuple[dict[str, Any], set[str]]:
        """Agents for ``seats`` and the set of seats silent for good this game."""
        from agents.registry import make_agent

        agents = {}
        for s in seats:
            spec = self.pick(rng)
            seed = rng.randrange(2**31)  # drawn for every seat, loaded or not: a seed gives the same game
            if spec.startswith("policy:"):  # frozen checkpoints are loaded once per pool
                if spec not in self._cache:
                    import torch

                    torch.set_num_threads(1)  # one core per env worker: no oversubscription on small machines
                    self._cache[spec] = make_agent(spec, seed)
                agents[s] = self._cache[spec]
            else:
                agents[s] = make_agent(spec, seed)
        silent = {s for s in seats if rng.random() < self.silent_forever_prob}
        return agents, silent
