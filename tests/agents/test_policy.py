"""MaskablePPO end to end on the seat env (smoke), and the policy agent playing from its checkpoint."""

from __future__ import annotations

import sys

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

from agents.policy import split_spec
from agents.registry import make_agent
from agents.runner import play_game
from engine.errors import ValidationError
from envs.seat_env import ProtectorsSeatEnv


def _train(tmp_path) -> str:
    import torch
    from stable_baselines3.common.logger import configure

    torch.set_num_threads(1)  # the suite runs on 2 cores with xdist: no thread oversubscription
    env = DummyVecEnv([lambda: ProtectorsSeatEnv(opponents=("random", "caretaker"))])
    model = MaskablePPO("MlpPolicy", env, n_steps=256, batch_size=64, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [32]}, device="cpu")
    model.set_logger(configure(str(tmp_path / "log"), []))  # not SB3's default folder in /tmp, left behind
    model.learn(total_timesteps=2048)
    assert model.num_timesteps >= 2048
    path = tmp_path / "tiny"
    model.save(str(path))
    return str(path) + ".zip"


def test_maskable_ppo_smoke_run_and_the_policy_agent_playing_its_checkpoint(tmp_path):
    checkpoint = _train(tmp_path)
    # the trained model acts only inside the env's masks
    model = MaskablePPO.load(checkpoint, device="cpu")
    env = ProtectorsSeatEnv(opponents=("random",))
    obs, info = env.reset(seed=0)
    for _ in range(50):
        a, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
        assert info["action_mask"][int(a)]
        obs, _, term, trunc, info = env.step(int(a))
        if term or trunc:
            obs, info = env.reset()
    # the policy agent plays whole games, greedy and sampled, always legally (play_game submits)
    for spec in (f"policy:{checkpoint}", f"policy:{checkpoint}@1.5"):
        agents = {"Player#1": make_agent(spec, 1), "Player#2": make_agent("random", 2)}
        game = play_game({"board": "ring-3", "players": 3, "seed": 4}, agents)
        assert game.over
        assert any(a[0] == "submit" and a[1] == "Player#1" for a in game.actions)
    # greedy play is deterministic
    blobs = []
    for _ in range(2):
        agents = {"Player#1": make_agent(f"policy:{checkpoint}", 7), "Player#2": make_agent("random", 3)}
        blobs.append(play_game({"board": "ring-4", "players": 4, "seed": 9}, agents).to_blob())
    assert blobs[0] == blobs[1]


def test_bad_policy_specs_are_clear_errors(tmp_path):
    with pytest.raises(ValidationError, match="no checkpoint"):
        make_agent(f"policy:{tmp_path}/missing.zip")
    with pytest.raises(ValidationError, match="temperature"):
        make_agent(f"policy:{tmp_path}/x.zip@hot")


def test_policy_module_does_not_import_torch_until_used():
    import subprocess

    code = "import agents.registry, agents.policy, sys; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_action_masks_work_under_subproc_vec_env():
    venv = SubprocVecEnv([lambda: ProtectorsSeatEnv(opponents=("random",)) for _ in range(2)], start_method="fork")
    try:
        venv.reset()
        masks = get_action_masks(venv)
        assert masks.shape[0] == 2 and masks.any(axis=1).all()
        assert np.issubdtype(masks.dtype, np.bool_)
    finally:
        venv.close()


def _untrained(tmp_path, seed: int) -> str:
    env = DummyVecEnv([lambda: ProtectorsSeatEnv(opponents=("random",))])
    model = MaskablePPO("MlpPolicy", env, seed=seed, policy_kwargs={"net_arch": [16]}, device="cpu")
    path = tmp_path / f"m{seed}"
    model.save(str(path))
    return str(path) + ".zip"


def test_an_ensemble_plays_the_mean_of_its_members_log_probabilities(tmp_path):
    from agents.policy import PolicyAgent

    a, b = _untrained(tmp_path, 1), _untrained(tmp_path, 2)
    one, two, both = PolicyAgent.load(a), PolicyAgent.load(b), PolicyAgent.load(f"{a}+{b}")
    twice = PolicyAgent.load(f"{a}+{a}")
    env = ProtectorsSeatEnv(opponents=("random",))
    obs, info = env.reset(seed=3)
    for _ in range(40):
        la, lb = one.logits(obs).astype(np.float64), two.logits(obs).astype(np.float64)
        log_softmax = [x - np.log(np.exp(x - x.max()).sum()) - x.max() for x in (la, lb)]
        assert np.allclose(both.logits(obs), (log_softmax[0] + log_softmax[1]) / 2, atol=1e-5)
        mask = info["action_mask"]
        assert twice.choose(obs, mask) == one.choose(obs, mask)  # a one-model ensemble is that model
        action = both.choose(obs, mask)
        assert mask[action]
        obs, _, term, trunc, info = env.step(action)
        if term or trunc:
            obs, info = env.reset()
    assert not np.allclose(one.logits(obs), two.logits(obs))  # the members differ, so the mean is a real mix


def test_bad_ensemble_specs_are_clear_errors(tmp_path):
    a = _untrained(tmp_path, 1)
    with pytest.raises(ValidationError, match="empty checkpoint path"):
        make_agent(f"policy:{a}+")
    with pytest.raises(ValidationError, match="no checkpoint"):
        make_agent(f"policy:{a}+{tmp_path}/missing.zip")


@pytest.mark.parametrize(("spec", "prefix", "want"), [
    ("policy:ckpt/model.zip", "policy", ("ckpt/model.zip", 0.0)),
    ("policy:ckpt/model.zip@0.5", "policy", ("ckpt/model.zip", 0.5)),
    ("recurrent:run/step_8.pt@1", "recurrent", ("run/step_8.pt", 1.0)),
    ("run/step_8.pt", "recurrent", ("run/step_8.pt", 0.0)),
])
def test_an_agent_spec_splits_into_its_path_and_temperature(spec, prefix, want):
    assert split_spec(spec, prefix) == want


def test_a_bad_temperature_is_named_with_the_specs_own_prefix():
    with pytest.raises(ValidationError, match=r"bad temperature in 'recurrent:x.pt@hot'; use recurrent:<path>@"):
        split_spec("recurrent:x.pt@hot", "recurrent")
