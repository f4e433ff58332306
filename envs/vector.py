"""Gymnasium's own vector envs over the seat env: ``gym.make_vec("regent/Protectors-v0", num_envs=4)``.

A vector env batches each info key across its envs, and Gymnasium batches a key whose value is sometimes
``None`` and sometimes a map (the seat env's ``result``: ``None`` until the game ends, then the engine's result)
into an array, then fails (``'numpy.ndarray' object has no attribute 'get'``) when one env's game ends while
another's goes on. Gymnasium's way for info only some steps have is to leave the key out and mark it in
``info["_<key>"]``. ``VectorInfo`` does that (a key whose value is ``None`` is left out), so in the batched info
``result`` holds each ended game's result and ``_result`` says which envs those are. The single env keeps its
documented info (``result`` is ``None`` until the end); only the vector envs made here go through the wrapper.

The env id's ``vector_entry_point`` is ``make_vector``, so ``gym.make_vec`` uses it by default. With
``vectorization_mode="sync"`` or ``"async"`` Gymnasium builds the vector env itself: pass
``wrappers=[VectorInfo]`` then.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from engine.errors import ValidationError


class VectorInfo(gym.Wrapper):
    """The seat env, its info without the keys whose value is ``None`` (``result`` before the game ends,
    ``stage`` after it, ``caretaker_score`` without the baseline): what Gymnasium's vector envs can batch."""

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        obs, info = self.env.reset(**kwargs)
        return obs, _present(info)

    def step(self, action: Any) -> tuple[Any, Any, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        return obs, reward, terminated, truncated, _present(info)

    def action_masks(self) -> Any:
        """The wrapped env's mask (MaskablePPO asks the env for it)."""
        return self.env.unwrapped.action_masks()


def _present(info: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in info.items() if v is not None}


def make_vector(num_envs: int = 1, *, asynchronous: bool = False, **kwargs: Any) -> gym.vector.VectorEnv:
    """``num_envs`` seat envs made with ``kwargs`` (``ProtectorsSeatEnv``'s options), each behind ``VectorInfo``,
    stepped in this process (``asynchronous=False``) or one process each. ``reset(seed=s)`` seeds env ``i`` with
    ``s + i``, as Gymnasium's vector envs do."""
    if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
        raise ValidationError("num_envs", f"a whole number of at least 1, not {num_envs!r:.40}")
    from envs.seat_env import ProtectorsSeatEnv

    def one() -> gym.Env:
        return VectorInfo(ProtectorsSeatEnv(**kwargs))

    fns = [one for _ in range(num_envs)]
    return gym.vector.AsyncVectorEnv(fns) if asynchronous else gym.vector.SyncVectorEnv(fns)
