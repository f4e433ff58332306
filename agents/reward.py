"""A seat's reward for a finished game: the one scoring shared by the envs' reward, the search agent's
rollouts and the evaluation harness (docs/envs.md, assumption REWARD_TERMINAL)."""

from __future__ import annotations

from typing import Any


def terminal_reward(result: dict[str, Any] | None, seat: str, team: str | None = None) -> float:
    """rules: 003 the three ways to end. Win (or your team wins) 1.0; the Dragon wins -1.0 (everyone
    loses); another Protector wins: 0.5 x your share of the VPs of those still standing (0 if you
    were eliminated). Documented in docs/envs.md (assumption REWARD_TERMINAL)."""
    if not result:
        return 0.0
    if result.get("winner") is None:
        return -1.0
    if result["winner"] in (seat, team):
        return 1.0
    vps = result.get("vp", {})
    total = sum(vps.values())
    return 0.5 * vps.get(seat, 0) / total if total else 0.0
