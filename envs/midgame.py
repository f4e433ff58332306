"""Mid-game starts: an episode that begins at a recorded position instead of turn 1 (issue 19 item 2).

A GM hands a seat to Regent mid-game, usually after its player has dropped out, so the learner
must also practise taking over. ``MidGameStarts.record`` plays a fresh game with recorder agents
up to the start of the orders step of a random turn in ``turns`` (the last one reached when the
game ends sooner) and returns it with the seat the learner takes (a live one). Recorders: with
probability ``mixed`` every seat draws its own agent from ``recorders`` (weights), otherwise one
draw plays every seat; with probability ``bad_seat`` the learner's seat was played badly before
the takeover (its agent drawn from ``bad_agents``, e.g. random or the caretaker's rulebook
defaults), as when a player stops caring before leaving.

The position is the recorded game itself, continued in place, or a ``Game.clone()`` of its last
orders step when it ended sooner (no export/import: the engine's state, its random generator
included, is exactly the one the recorders left; a clone costs about 1 ms). Every draw (engine
seed, turn, seats, agents and their seeds) comes from the generator passed in, which the seat env
derives from its own seeded stream, so a start is reproducible for an env seed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.errors import ValidationError
from engine.protectors.game import Game
from engine.protectors.state import ORDERS
from envs.opponents import check_probability, make_setup

MAX_TRIES = 4  # recorded games that ended (or lost a fixed seat) before the turn: retry this often, then start fresh
MAX_RECORD_STEPS = 1_000  # engine steps a recording may take (a turn is about six)
DEFAULT_SPECS = ("caretaker",)  # seats played by the rulebook defaults need no agent (advance(force=True))


def _weights(name: str, value: Mapping[str, float] | None) -> dict[str, float]:
    from agents.registry import AGENTS

    if not isinstance(value, Mapping) or not value:
        raise ValidationError(name, f"a table of agent spec -> weight, not {value!r}")
    out = {}
    for spec, w in value.items():
        if not isinstance(spec, str) or (spec.split(":", 1)[0] not in AGENTS and not spec.startswith("policy:")):
            raise ValidationError(name, f"unknown agent {spec!r}; known: {', '.join(sorted(AGENTS))}")
        if isinstance(w, bool) or not isinstance(w, int | float) or w < 0:
            raise ValidationError(name, f"the weight of {spec!r} must be a number >= 0, not {w!r}")
        out[spec] = float(w)
    if sum(out.values()) <= 0:
        raise ValidationError(name, "needs a positive weight")
    return out


@dataclass
class MidGameStarts:
    """How often and from which recorded positions the seat env starts an episode mid-game."""

    prob: float = 0.5
    turns: tuple[int, int] = (2, 8)
    recorders: dict[str, float] = field(default_factory=lambda: {"heuristic": 0.6, "random": 0.2, "caretaker": 0.2})
    mixed: float = 0.3
    bad_seat: float = 0.2
    bad_agents: dict[str, float] = field(default_factory=lambda: {"random": 0.5, "caretaker": 0.5})
    _cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self):
        self.prob = check_probability("midgame.prob", self.prob)
        self.mixed = check_probability("midgame.mixed", self.mixed)
        self.bad_seat = check_probability("midgame.bad_seat", self.bad_seat)
        t = self.turns
        if (not isinstance(t, list | tuple) or len(t) != 2 or any(isinstance(x, bool) or not isinstance(x, int)
                                                                   for x in t) or not 2 <= t[0] <= t[1] <= 12):
            raise ValidationError("midgame.turns", f"[first, last] turn with 2 <= first <= last <= 12, not {t!r}")
        self.turns = (int(t[0]), int(t[1]))
        self.recorders = _weights("midgame.recorders", self.recorders)
        self.bad_agents = _weights("midgame.bad_agents", self.bad_agents)

    @classmethod
    def of(cls, value: MidGameStarts | Mapping[str, Any] | None) -> MidGameStarts | None:
        """The env option: None (off), a ``MidGameStarts`` or its fields as a dict (a TOML table)."""
        if value is None or isinstance(value, MidGameStarts):
            return value
        if not isinstance(value, Mapping):
            raise ValidationError("midgame", f"a table of mid-game start options, not {value!r}")
        known = {"prob", "turns", "recorders", "mixed", "bad_seat", "bad_agents"}
        bad = sorted(set(value) - known)
        if bad:
            raise ValidationError("midgame", f"unknown option(s) {', '.join(bad)}; known: {', '.join(sorted(known))}")
        return cls(**value)

    # -- recording -----------------------------------------------------------------------------------
    def _draw(self, weights: dict[str, float], rng: random.Random) -> str:
        return rng.choices(list(weights), weights=list(weights.values()))[0]

    def specs(self, seats: list[str], bad: str | None, rng: random.Random) -> dict[str, str]:
        """The recorder spec of every seat; ``bad`` (a seat or None) is played by a ``bad_agents`` draw."""
        if rng.random() < self.mixed:
            out = {s: self._draw(self.recorders, rng) for s in seats}
        else:
            one = self._draw(self.recorders, rng)
            out = dict.fromkeys(seats, one)
        if bad is not None:
            out[bad] = self._draw(self.bad_agents, rng)
        return out

    def _agent(self, spec: str, seed: int):
        from agents.registry import make_agent

        if spec in ("random", "heuristic", "steward"):  # cheap to build: a fresh one per seat
            return make_agent(spec, seed)
        if spec not in self._cache:  # checkpoints load once
            self._cache[spec] = make_agent(spec, seed)
        agent = self._cache[spec]
        agent.reset(seed)
        return agent

    def record(self, setup_args: dict[str, Any], rng: random.Random,
               seat: str | None = None) -> tuple[Game, str, dict[str, Any]] | None:
        """A game played by recorders to the orders step of a turn drawn from ``turns`` (or, when the
        game ends before that turn, the last orders step it reached from ``turns[0]`` on: short games
        give early takeovers, as at a real table), the learner's seat (``seat`` if given, else a random
        live one) and what was recorded; None when ``MAX_TRIES`` games all ended before ``turns[0]``."""
        from agents.runner import play_turn_step

        turn = rng.randint(*self.turns)
        for _ in range(MAX_TRIES):
            game = Game(make_setup(seed=rng.randrange(2**31), **setup_args))
            seats = list(game.state.players)
            bad = (seat or rng.choice(seats)) if rng.random() < self.bad_seat else None
            specs = self.specs(seats, bad, rng)
            agents = {s: self._agent(spec, rng.randrange(2**31)) for s, spec in specs.items()
                      if spec not in DEFAULT_SPECS}
            position = None  # the latest orders step reached from the first turn of ``turns`` on
            for _ in range(MAX_RECORD_STEPS):
                if game.over:
                    break
                st = game.state
                seat_in = seat is None or not st.players[seat].eliminated
                if game.step == ORDERS and st.turn >= self.turns[0] and seat_in:
                    if st.turn >= turn:
                        position = game
                        break
                    position = game.clone()  # exact (engine random state included); ~1 ms
                play_turn_step(game, agents)
            if position is None:
                continue  # over before the first turn of ``turns`` (or the fixed seat was out): record another
            st = position.state
            live = [s for s in seats if not st.players[s].eliminated]
            me = seat or (bad if bad in live else rng.choice(live))
            return position, me, {"turn": st.turn, "drawn_turn": turn, "recorders": specs, "bad_seat": me == bad}
        return None
