"""Shipped checkpoints and their difficulty levels, so a GM can say ``ppo`` or ``ppo:hard``.

Each level is a checkpoint under ``checkpoints/`` plus a sampling temperature (0 = always the most
likely legal choice). Loading needs only ``agents`` + torch + sb3 (``agents.policy``), imported when
an agent is made, never at import time. The measured strength of every level is in the model card
(``checkpoints/<name>/MODEL_CARD.md``).

``agents.registry`` picks these up with ``AGENTS.update(CHECKPOINT_AGENTS)``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.errors import ValidationError

CHECKPOINTS_DIR = Path(__file__).resolve().parents[1] / "checkpoints"
DEFAULT_LEVEL = "normal"


@dataclass(frozen=True)
class Level:
    """One difficulty a GM can pick."""

    checkpoint: str
    """directory under ``checkpoints/`` holding ``model.zip``"""
    temperature: float
    """0: greedy; above 0: sample from softmax(logits / temperature) over the legal choices"""
    model: str = "model.zip"
    """file inside the checkpoint directory (an earlier snapshot for an easier level)"""
    description: str = ""

    @property
    def path(self) -> Path:
        return CHECKPOINTS_DIR / self.checkpoint / self.model


# Session 18: the levels play protectors-ppo-v5 (v4 trained on under the corrected No Quarter! rule, five
# checkpoints' weights averaged; v4 from session 10, v3 before). ``fair`` keeps v4, the network it was tuned on.
LEVELS: dict[str, Level] = {
    "easy": Level("protectors-ppo-v5", 2.0,
                  description="protectors-ppo-v5 sampling at temperature 2 (flattened choices; v5 model card)"),
    "normal": Level("protectors-ppo-v5", 1.0,
                    description="protectors-ppo-v5 sampling as trained (v5 model card)"),
    "hard": Level("protectors-ppo-v5", 0.0,
                  description="protectors-ppo-v5, always its most likely choice (v5 model card)"),
}


@dataclass(frozen=True)
class Specialist:
    """A checkpoint every level plays instead of its own at one kind of table (issue 19: "one network, or a
    small set picked by the game's size and options, behind the same levels"): a table of exactly
    ``players`` seats at the start, of rules ``version``, with the Island, factions and teams as given. The
    level's temperature still applies; ``fair`` (its own network) and ``policy:<checkpoint>`` specs never
    pick one."""

    checkpoint: str
    """directory under ``checkpoints/`` holding ``model.zip`` (its model card says how it was trained)"""
    players: int
    version: str = "normal"
    factions: bool = False
    island: bool = False
    teams: bool = False
    model: str = "model.zip"
    from_turn: int = 1
    """the first turn it plays there: a network trained only on games taken over mid-game leaves turn 1 (the
    opening bid and first orders, which it never saw) to the level's own network"""

    @property
    def path(self) -> Path:
        return CHECKPOINTS_DIR / self.checkpoint / self.model

    @property
    def role(self) -> str:
        """What it is for, as a decision line says it: ``the network for 7-seat tables``."""
        role = f"the network for {self.players}-seat tables"
        return role if self.from_turn <= 1 else f"{role} from turn {self.from_turn}"

    def fits(self, state: Any) -> bool:
        """Whether the game of ``state`` (any seat's view of it: the table, its options and the turn are public)
        is this specialist's kind of table, at a turn it plays."""
        o = state.options
        return (len(state.players) == self.players and o.version == self.version and bool(o.factions) == self.factions
                and bool(o.teams) == self.teams and (state.board.island is not None) == self.island
                and state.turn >= self.from_turn)


# Session 20: at a plain 7-seat Normal table the levels play protectors-ppo-v6-ring7, v5 trained on there under
# strong's opening bid (its model card; docs/training.md, "v6-ring7").
# Session 22: at a plain 5-seat Normal table, from turn 2 on, they play protectors-ppo-v7-ring5-midgame, trained
# only on games taken over at turn 2 and rewarded against the caretaker from the same start (its model card;
# docs/training.md, "v7-ring5-midgame"); turn 1 (the opening bid and first orders) stays v5's. The first that fits
# a table decides.
SPECIALISTS: tuple[Specialist, ...] = (Specialist("protectors-ppo-v6-ring7", players=7),
                                       Specialist("protectors-ppo-v7-ring5-midgame", players=5, from_turn=2))


def level(name: str) -> Level:
    try:
        return LEVELS[name]
    except KeyError:
        raise ValidationError("agent", f"unknown difficulty {name!r}; known: {', '.join(LEVELS)}") from None


def make_ppo_agent(name: str = DEFAULT_LEVEL, seed: int | None = None) -> Any:
    """The shipped policy at difficulty ``name`` (a ``agents.policy.PolicyAgent``)."""
    lv = level(name)
    if not lv.path.exists():
        raise ValidationError("agent", f"checkpoint for ppo:{name} is missing at {lv.path}")
    agent = level_policy(lv.path, seed, lv.temperature)
    agent.name = f"ppo:{name}"
    return agent


def level_policy(path: Path, seed: int | None, temperature: float) -> Any:
    """The network at ``path`` with the SPECIALISTS it hands its tables to (a ``agents.policy.PolicyAgent``)."""
    from agents.policy import PolicyAgent, load_policy

    for sp in SPECIALISTS:
        if not sp.path.exists():
            raise ValidationError("agent", f"specialist checkpoint {sp.checkpoint} is missing at {sp.path}")
    agent = PolicyAgent.load(path, seed, temperature)
    agent.specialists = [(sp, [load_policy(sp.path)]) for sp in SPECIALISTS]
    return agent


def _factory(name: str) -> Callable[[int | None], Any]:
    return lambda seed: make_ppo_agent(name, seed)


CHECKPOINT_AGENTS: dict[str, Callable[[int | None], Any]] = {
    "ppo": _factory(DEFAULT_LEVEL),
    **{f"ppo:{name}": _factory(name) for name in LEVELS},
}
