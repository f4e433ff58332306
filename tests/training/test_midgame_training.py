"""MaskablePPO trains a few hundred steps on mid-game starts (issue 19 item 2): the episodes it plays
really begin mid-game, and the learner's actions are always inside the mask. No strength asserted."""

from __future__ import annotations

import numpy as np

from envs.seat_env import ProtectorsSeatEnv


class Recording(ProtectorsSeatEnv):
    """The seat env, noting where each episode began and whether any action fell outside the mask."""

    def __init__(self, **kw):
        super().__init__(**kw)
        self.starts: list[int] = []
        self.unmasked = 0

    def reset(self, **kw):
        obs, info = super().reset(**kw)
        self.starts.append(info["start"]["turn"])
        return obs, info

    def step(self, action):
        self.unmasked += not self.action_masks()[int(action)]
        return super().step(action)


def test_maskable_ppo_learns_from_mid_game_starts(tmp_path):
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import configure
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv

    env = Recording(players=4, opponents=("heuristic", "random", "caretaker"), reward_shaping=1.0,
                    midgame={"prob": 0.75, "turns": (2, 6)})
    model = MaskablePPO("MlpPolicy", DummyVecEnv([lambda: Monitor(env)]), n_steps=128, batch_size=64, n_epochs=1,
                        policy_kwargs={"net_arch": [16, 16]}, seed=0, device="cpu")
    before = {k: v.clone() for k, v in model.policy.state_dict().items()}
    model.set_logger(configure(str(tmp_path / "log"), []))  # not SB3's default folder in /tmp, left behind
    model.learn(total_timesteps=384)
    assert model.num_timesteps >= 384
    assert len(env.starts) >= 4 and sum(t >= 2 for t in env.starts) >= 2, env.starts
    assert env.unmasked == 0
    after = model.policy.state_dict()
    assert any(not np.array_equal(before[k].numpy(), after[k].numpy()) for k in before), "the update moved weights"
