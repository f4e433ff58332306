"""Small MaskablePPO models for the training tests (a 3-player seat env, CPU, nothing trained)."""

from __future__ import annotations

from typing import Any


def tiny_model(net: list[int], seed: int) -> Any:
    """An untrained MaskablePPO on the 3-player seat env with ``net`` as both heads' hidden layers."""
    from sb3_contrib import MaskablePPO

    import envs  # noqa: F401
    from envs.seat_env import ProtectorsSeatEnv

    return MaskablePPO("MlpPolicy", ProtectorsSeatEnv(players=3), n_steps=64, batch_size=64, seed=seed,
                       policy_kwargs={"net_arch": {"pi": net, "vf": net}}, device="cpu")
