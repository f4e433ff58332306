"""MaskablePPO training steps per second on ProtectorsSeatEnv vs on a trivial masked env, same run.

Target (issue 6): at least 80% of the trivial env's rate. Both use the same MaskablePPO settings
(MlpPolicy, CPU, one env in a DummyVecEnv); the trivial env is sb3-contrib's
``InvalidActionEnvDiscrete`` with as many actions as ours, so the difference is the env (engine,
planner, encoding) and our wider observation.

    .venv/bin/python benchmarks/ppo_bench.py [--steps N] [--n-envs K]
"""

from __future__ import annotations

import argparse
import time


def rate(make_env, steps: int, n_envs: int, seed: int = 0) -> float:
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    venv = DummyVecEnv([make_env for _ in range(n_envs)])
    model = MaskablePPO("MlpPolicy", venv, n_steps=512, batch_size=128, n_epochs=4, seed=seed, device="cpu",
                        policy_kwargs={"net_arch": [64, 64]}, verbose=0)
    model.learn(total_timesteps=512 * n_envs)  # warm-up (imports, first rollout)
    start = time.perf_counter()
    model.learn(total_timesteps=steps, reset_num_timesteps=False)
    return steps / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=8192)
    parser.add_argument("--n-envs", type=int, default=1)
    args = parser.parse_args(argv)
    import torch

    torch.set_num_threads(1)
    from sb3_contrib.common.envs import InvalidActionEnvDiscrete

    from agents.spaces import layout as L
    from envs.seat_env import ProtectorsSeatEnv

    trivial = rate(lambda: InvalidActionEnvDiscrete(dim=L.ACTION_SIZE, n_invalid_actions=L.ACTION_SIZE // 2),
                   args.steps, args.n_envs)
    ours = rate(lambda: ProtectorsSeatEnv(opponents=("caretaker",)), args.steps, args.n_envs)
    mixed = rate(lambda: ProtectorsSeatEnv(opponents=("caretaker", "random")), args.steps, args.n_envs)
    out = {"trivial_steps_per_s": trivial, "protectors_steps_per_s": ours, "ratio": ours / trivial,
           "protectors_mixed_field_steps_per_s": mixed, "mixed_ratio": mixed / trivial}
    print(f"MaskablePPO on InvalidActionEnvDiscrete:            {trivial:8.0f} steps/s")
    print(f"MaskablePPO on ProtectorsSeatEnv (caretakers):      {ours:8.0f} steps/s  ({out['ratio']:.0%} of trivial)")
    print(f"MaskablePPO on ProtectorsSeatEnv (caretaker/random): {mixed:7.0f} steps/s  "
          f"({out['mixed_ratio']:.0%} of trivial)")
    print("target (>= 80% of trivial): " + ("MET" if out["ratio"] >= 0.8 else "NOT MET"))
    return out


if __name__ == "__main__":
    main()
