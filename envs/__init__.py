"""Regent: envs — Gymnasium and PettingZoo environments over the Protectors engine.

``regent/Protectors-v0`` is registered with Gymnasium when gymnasium is installed (the ``rl`` extra).
"""

try:
    from gymnasium.envs.registration import register, registry
except ImportError:  # the engine-only install has no gymnasium
    register = None

if register is not None and "regent/Protectors-v0" not in registry:
    # gym.make_vec builds its vector env with envs/vector.py (its info batched as Gymnasium's vector envs can)
    register(id="regent/Protectors-v0", entry_point="envs.seat_env:ProtectorsSeatEnv",
             vector_entry_point="envs.vector:make_vector")
