"""AI seat controllers: agent names, difficulties, and one decision for one seat.

Agents come from ``agents.registry`` (the only place that knows how to build them), so a policy
that needs torch is imported only when a seat is actually given that agent.
"""

from __future__ import annotations

import contextlib
import hashlib
from typing import Any

from service.errors import invalid

# Difficulty names a GM may use instead of an agent: the first agent present in the registry wins.
# What each does to the rest of the table (who wins, how often the Dragon does) is measured in
# docs/table-health.md: ``steward`` keeps the table alive and wins little itself (the steward's habits
# with a look-ahead for the table, agents/steward_search.py; no torch), ``fair`` wins about a fair share,
# ``strong`` and ``expert`` play to win (and take wins from the humans).
DIFFICULTIES = {
    "steward": ("steward-search", "steward", "caretaker"),
    "fair": ("fair", "heuristic", "caretaker"),
    "strong": ("strong", "ppo:hard", "ppo", "heuristic", "caretaker"),
    "easy": ("ppo:easy", "random"),
    "normal": ("heuristic", "caretaker"),
    "hard": ("strong", "ppo:hard", "ppo", "heuristic", "caretaker"),
    # decision-time search over strong's choices (agents.search): the strongest, seconds a decision
    "expert": ("search", "strong", "ppo:hard", "ppo", "heuristic", "caretaker"),
}
# ``policy:<checkpoint>[@temperature]``: a trained policy by checkpoint (``agents.registry.make_agent``).
POLICY_PREFIX = "policy:"
# The default "fill" for a seat whose deadline passed: the rulebook defaults (rules: 003, inactive players).
RULEBOOK_DEFAULT = "default"
# torch threads for policy inference in the server: the nets are small MLPs, one decision is a few
# matrix-vector products, and extra threads only contend with each other (and with other seats' calls
# running in the pool) on a busy machine: p99 1 ms with one thread against 50+ ms with two under load.
TORCH_THREADS = 1


def _limit_torch_threads() -> None:
    """Once torch is in the process (a policy seat was built), give inference TORCH_THREADS."""
    import sys

    torch = sys.modules.get("torch")
    if torch is not None and torch.get_num_threads() != TORCH_THREADS:
        torch.set_num_threads(TORCH_THREADS)


def registry() -> dict[str, Any]:
    from agents.registry import AGENTS

    return AGENTS


def agent_names() -> list[str]:
    return sorted(registry())


def resolve(name: Any, field: str = "agent") -> str | None:
    """An agent name (or difficulty) as the registry knows it; ``None`` stays a human seat."""
    if name is None:
        return None
    if not isinstance(name, str):
        raise invalid(field, "must be an agent name, a difficulty, or nil for a human seat")
    known = registry()
    if name in DIFFICULTIES:  # a level first: the ``steward`` level is the steward agent with its look-ahead
        for candidate in DIFFICULTIES[name]:
            if candidate in known:
                return candidate
    if name in known:
        return name
    if name.startswith(POLICY_PREFIX):
        return name  # checked by building it (see ``check``), which loads torch only for this seat
    raise invalid(field, f"unknown agent {name!r}; known agents: {', '.join(sorted(known))}; "
                         f"difficulties: {', '.join(DIFFICULTIES)}")


def check(name: str | None, field: str = "agent") -> Any:
    """Build the agent once so a bad checkpoint is refused when assigned, not when it must act."""
    if name is None or not name.startswith(POLICY_PREFIX):
        return None
    from agents.registry import make_agent

    try:
        agent = make_agent(name, 0)
    except Exception as err:  # a missing checkpoint, a bad temperature, torch absent
        raise invalid(field, f"cannot load {name!r}: {err}") from None
    _limit_torch_threads()
    return agent


def decision_seed(game_seed: Any, seat: str, step_index: int) -> int:
    """A seed for one AI decision, so the same game asks the same question with the same dice."""
    text = f"{game_seed!r}|{seat}|{step_index}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:4], "big")


def decide(game: Any, seat: str, agent_name: str, cache: dict[str, Any], seed: int) -> Any:
    """The agent's decision for ``seat`` now (the agent sees only the seat's own context)."""
    from agents.registry import make_agent
    from engine.protectors.seat import SeatContext

    agent = cache.get(seat)
    if agent is None or getattr(agent, "_regent_name", None) != agent_name:
        agent = make_agent(agent_name, seed)
        _limit_torch_threads()
        with contextlib.suppress(AttributeError):  # a slotted agent: rebuilt each time
            agent._regent_name = agent_name
        cache[seat] = agent
    agent.reset(seed)
    return agent.act(SeatContext(game, seat))
