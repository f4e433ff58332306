"""Agents by name, so a GM (or the CLI) can say ``--seats caretaker,random,heuristic``."""

from __future__ import annotations

from collections.abc import Callable

from agents.base import Agent
from agents.checkpoints import CHECKPOINT_AGENTS
from agents.fair import FairAgent
from agents.heuristic import HeuristicAgent
from agents.random_agent import RandomAgent
from agents.search import search_from_spec
from agents.steward import StewardAgent
from agents.steward_search import StewardSearchAgent
from agents.strong import StrongAgent
from engine.errors import ValidationError
from npr_controller.caretaker import CaretakerAgent

AGENTS: dict[str, Callable[[int | None], Agent]] = {
    "random": lambda seed: RandomAgent(seed),
    "caretaker": lambda seed: CaretakerAgent(),
    "heuristic": lambda seed: HeuristicAgent(seed),
    # plays the vacant seat for the table: defends, helps against the Dragon, conquers no one
    "steward": lambda seed: StewardAgent(seed),
    # the steward, each decision chosen among steward-legal variants by look-ahead valued for the table
    "steward-search": lambda seed: StewardSearchAgent(seed),
    # the shipped policy at a temperature picked by table size, to win about a fair share
    "fair": lambda seed: FairAgent(seed),
    # the shipped policy's most likely choice, opening with no bid at a table of 7 or more (agents/strong.py)
    "strong": lambda seed: StrongAgent(seed),
}
# Shipped policies and their difficulty levels (``ppo``, ``ppo:easy|normal|hard``); torch loads only
# when one of them is made.
AGENTS.update(CHECKPOINT_AGENTS)
# Decision-time search over the shipped policy's orders (agents.search); ``search:<K>,<M>[,<base>]`` too.
AGENTS["search"] = lambda seed: search_from_spec("search", seed)
# the same with more candidates scored by successive halving: measured no better, kept to reproduce it
AGENTS["search-wide"] = lambda seed: search_from_spec("search-wide", seed)


def make_agent(name: str, seed: int | None = None) -> Agent:
    """An agent by name; ``policy:<checkpoint>[@temperature]`` loads a trained policy (torch, lazily);
    ``search:<K>,<M>[,<base>]`` searches over a policy's orders (``agents.search``)."""
    if name.startswith("policy:"):
        from agents.policy import policy_from_spec

        return policy_from_spec(name, seed)
    if name.startswith("search:"):
        return search_from_spec(name, seed)
    if name.startswith("recurrent:"):  # a network with memory (agents.recurrent; an experiment, no level)
        from agents.recurrent import recurrent_from_spec

        return recurrent_from_spec(name, seed)
    try:
        factory = AGENTS[name]
    except KeyError:
        raise ValidationError("agent", f"unknown agent {name!r}; known: {', '.join(sorted(AGENTS))}") from None
    return factory(seed)
