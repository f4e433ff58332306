"""Session 32's recurrent network (``agents/recurrent.py``) and its trainer (``training/recurrent.py``): it starts as
v7 exactly, its memory is emptied where a game starts, it only takes legal choices, and a short run trains, saves,
loads as an agent and resumes bit for bit."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
import torch

from agents import recurrent as rn
from agents.policy import load_model
from agents.registry import make_agent
from agents.runner import play_game
from engine.errors import ValidationError
from training.recurrent import RecurrentConfig, Trainer, gae, make_envs, masked_dist

V7 = "checkpoints/protectors-ppo-v7-ring5-midgame/model.zip"
CONFIG = "training/configs/recurrent/v7-lstm.toml"


def tiny(tmp_path, **kw) -> RecurrentConfig:
    args = dict(
        n_envs=2,
        n_steps=64,
        seq_len=16,
        batch_seqs=4,
        n_epochs=2,
        total_steps=256,
        checkpoint_every=128,
        learning_rate=1e-3,
    )
    return RecurrentConfig.load(CONFIG, **{**args, **kw})


@pytest.fixture(scope="module")
def observations():
    """A few hundred observations (and masks) of v7's training episodes, played by random legal choices."""
    env = make_envs(RecurrentConfig.load(CONFIG, n_envs=1))[0]
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(0)
    xs, masks = [], []
    while len(xs) < 200:
        xs.append(obs)
        masks.append(env.action_masks())
        obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(masks[-1]))))
        if terminated or truncated:
            obs, _ = env.reset()
    return torch.tensor(np.array(xs)), torch.tensor(np.array(masks))


def warm_net():
    sb3 = load_model(V7).policy
    net = rn.build(1504, 94)
    rn.warm_start(net, sb3.state_dict())
    return net, sb3


def scramble(net, seed: int = 0) -> None:
    """Random memory weights and projections: a net whose memory matters."""
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for k, p in net.named_parameters():
            if k.startswith(("lstm.", "pi_proj.", "vf_proj.")):
                p.copy_(torch.randn(p.shape, generator=g) * 0.3)


def test_the_warm_started_net_computes_v7_exactly(observations):
    x, _ = observations
    net, sb3 = warm_net()
    with torch.no_grad():
        latent_pi, latent_vf = sb3.mlp_extractor(x)
        want_logits, want_values = sb3.action_net(latent_pi), sb3.value_net(latent_vf).squeeze(-1)
        starts = torch.zeros(len(x), 1)
        starts[::7] = 1  # memory in use and emptied now and then: still nothing enters
        logits, values, _ = rn.sequence(net, x[:, None], starts, rn.zero_state(net, 1))
        assert (logits[:, 0] - want_logits).abs().max().item() == 0.0
        assert (values[:, 0] - want_values).abs().max().item() == 0.0
        scramble(net)  # the check can fail: with the projections away from zero the memory changes the logits
        moved, _, _ = rn.sequence(net, x[:, None], starts, rn.zero_state(net, 1))
        assert (moved[:, 0] - want_logits).abs().max().item() > 1e-3


def test_the_memory_is_emptied_where_a_game_starts(observations):
    x, _ = observations
    net, _ = warm_net()
    scramble(net)
    k = 50
    starts = torch.zeros(len(x), 1)
    starts[0] = starts[k] = 1
    with torch.no_grad():
        whole, _, _ = rn.sequence(net, x[:, None], starts, rn.zero_state(net, 1))
        fresh, _, _ = rn.sequence(net, x[k:, None], starts[k:], rn.zero_state(net, 1))
        assert torch.equal(whole[k:], fresh)
        carried, _, _ = rn.sequence(net, x[:, None], torch.zeros(len(x), 1), rn.zero_state(net, 1))
        assert not torch.equal(carried[k:], fresh)  # without the start the memory carries over


def test_the_agent_empties_its_memory_each_game(tmp_path):
    net, _ = warm_net()
    scramble(net)
    path = rn.save(net, tmp_path / "net.pt")
    setup = {"board": "ring-5", "players": 5, "seed": 3}
    agent = make_agent(f"recurrent:{path}", seed=1)
    first = play_game(setup, {"Player#1": agent}).to_blob()
    assert agent.choices > 0 and agent.state[0].abs().sum() > 0
    agent.reset(7)
    assert agent.choices == 0 and agent.state[0].abs().sum() == 0
    again = play_game(setup, {"Player#1": agent}).to_blob()  # play_game resets it: the same game again
    fresh = play_game(setup, {"Player#1": make_agent(f"recurrent:{path}", seed=1)}).to_blob()
    assert first == again == fresh


def test_masked_choices_are_legal(observations):
    x, masks = observations
    net, _ = warm_net()
    scramble(net)
    with torch.no_grad():
        logits, _, _ = rn.sequence(net, x[:, None], torch.zeros(len(x), 1), rn.zero_state(net, 1))
    dist = masked_dist(logits[:, 0], masks)
    for _ in range(20):
        a = dist.sample()
        assert masks[torch.arange(len(a)), a].all()
    assert torch.isfinite(dist.entropy()).all()


def test_gae_stops_at_an_episode_start():
    rewards = np.array([[0.0], [1.0], [0.0]], np.float32)
    values = np.array([[0.5], [0.5], [0.5]], np.float32)
    starts = np.array([[1.0], [0.0], [1.0]], np.float32)  # step 1 ended an episode: step 2 began another
    adv = gae(rewards, values, starts, np.array([9.0], np.float32), np.array([0.0], np.float32), 1.0, 1.0)
    assert adv[1, 0] == pytest.approx(0.5)  # 1 - 0.5, nothing after the episode's end
    assert adv[0, 0] == pytest.approx(0.5)  # (0 + 0.5 - 0.5) + step 1's 0.5: the same episode
    assert adv[2, 0] == pytest.approx(8.5)  # 0 + 9 - 0.5: the rollout's last step bootstraps


def test_a_short_run_trains_saves_loads_and_resumes_exactly(tmp_path):
    cfg = tiny(tmp_path)
    whole = Trainer(cfg, tmp_path / "whole")
    start = {k: v.clone() for k, v in whole.net.state_dict().items()}
    whole.train(progress=False)
    assert whole.steps == 256
    assert not torch.equal(whole.net["pi_proj"].weight, start["pi_proj.weight"])  # the memory now matters
    assert not torch.equal(whole.net["action_net"].weight, start["action_net.weight"])
    # the saved weights are what the agent plays
    agent = make_agent(f"recurrent:{tmp_path / 'whole' / 'step_256.pt'}")
    for k, v in whole.net.state_dict().items():
        assert torch.equal(agent.net.state_dict()[k], v), k
    # the same run in two pieces: stopped at 128, resumed from resume.pt
    first = Trainer(cfg, tmp_path / "pieces")
    first.train(until=128, progress=False)
    assert first.steps == 128 and (tmp_path / "pieces" / "step_128.pt").exists()
    second = Trainer(cfg, tmp_path / "pieces")
    second.restore()
    second.train(progress=False)
    for k, v in whole.net.state_dict().items():
        assert torch.equal(second.net.state_dict()[k], v), k


def test_bad_configs_and_specs_are_refused(tmp_path):
    (tmp_path / "x.toml").write_text('base = "a"\ninit_from = "b"\nlr = 1\n')
    with pytest.raises(ValidationError, match="unknown key"):
        RecurrentConfig.load(tmp_path / "x.toml")
    with pytest.raises(ValidationError, match="multiple of seq_len"):
        RecurrentConfig.load(CONFIG, n_steps=100)
    with pytest.raises(ValidationError, match="no recurrent checkpoint"):
        make_agent(f"recurrent:{tmp_path}/missing.pt")
    (tmp_path / "bad.pt").write_bytes(b"not a checkpoint")
    with pytest.raises(ValidationError, match="not a recurrent checkpoint"):
        make_agent(f"recurrent:{tmp_path}/bad.pt")


def test_the_agent_module_does_not_import_torch_until_used():
    code = "import agents.registry, agents.recurrent, sys; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.training
def test_the_committed_config_trains_a_rollout(tmp_path):
    """One rollout of the committed config (4,096 steps): the run starts as v7, whose episodes score about +0.4."""
    cfg = RecurrentConfig.load(CONFIG, total_steps=4096)
    row = Trainer(cfg, tmp_path).train(progress=False)
    assert row["steps"] == 4096 and row["episodes"] > 100
    assert 0.2 < row["mean_return"] < 0.6
