"""Masked recurrent PPO in plain torch (session 32, an experiment): v7's network with an LSTM beside it.

    python -m training.recurrent --config training/configs/recurrent/v7-lstm.toml --out DIR [--until N] [--resume]

sb3-contrib's RecurrentPPO has no action masks, so this is a small loop of its own in CleanRL's
``ppo_atari_lstm.py`` shape. The network is ``agents.recurrent``'s: warm-started from an SB3 checkpoint with the
memory's projections at zero, so it starts out computing that checkpoint's logits and values exactly. The episodes
are a ``TrainConfig``'s (``base``: the env options, mid-game starts, curriculum and opponent weights of a
``regent train`` config), played by ``n_envs`` envs stepped in lock-step in this one process; the memory is emptied
at every episode start. An update cuts each env's rollout into ``seq_len``-step pieces, each started from the
memory the rollout had there (truncated backprop through time), and runs clipped PPO on batches of pieces, with
SB3's conventions (advantages normalised per batch, plain value loss, ``target_kl`` stopping the update at 1.5
times it). ``DIR`` gets ``progress.csv`` (one row per update), ``step_N.pt`` every ``checkpoint_every`` steps (what
``--agent recurrent:DIR/step_N.pt`` plays) and ``resume.pt`` (envs, generators, memory and Adam state: ``--resume``
goes on exactly).
"""

from __future__ import annotations

import argparse
import csv
import pickle
import random
import resource
import tomllib
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np

from agents import recurrent as rn
from engine.errors import ValidationError
from training.config import load_config


@dataclass
class RecurrentConfig:
    base: str
    """a ``regent train`` config whose episodes this run plays (env options, mid-game starts, curriculum, league)"""
    init_from: str
    """the SB3 checkpoint whose MLPs and heads the network starts from"""
    seed: int = 32
    total_steps: int = 1_000_000
    n_envs: int = 8
    n_steps: int = 512
    """steps per env per rollout"""
    seq_len: int = 16
    """the length of the pieces backprop runs through"""
    batch_seqs: int = 32
    """pieces per batch (``batch_seqs * seq_len`` steps)"""
    n_epochs: int = 4
    learning_rate: float = 5e-5
    memory_lr_scale: float = 10.0
    """the memory's parameters (LSTM and projections, new) learn this many times faster than the warm-started ones"""
    memory: int = 128
    gamma: float = 0.998
    gae_lambda: float = 0.95
    clip_range: float = 0.1
    ent_coef: float = 0.002
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    target_kl: float = 0.01
    checkpoint_every: int = 100_000
    torch_threads: int = 1

    @classmethod
    def load(cls, path: str | Path, **overrides: Any) -> RecurrentConfig:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        data.update({k: v for k, v in overrides.items() if v is not None})
        unknown = sorted(set(data) - {f.name for f in fields(cls)})
        if unknown:
            raise ValidationError("config", f"{path}: unknown key(s) {', '.join(unknown)}")
        cfg = cls(**data)
        if cfg.n_steps % cfg.seq_len or cfg.n_envs * cfg.n_steps // cfg.seq_len < cfg.batch_seqs:
            raise ValidationError("config", "n_steps must be a multiple of seq_len, with at least batch_seqs pieces")
        return cfg


def make_envs(cfg: RecurrentConfig) -> list:
    from training.envs import LeagueSeatEnv
    from training.league import League

    base = load_config(cfg.base)
    weights = League(base.league).weights()
    return [
        LeagueSeatEnv(
            base.curriculum, weights, base.env_options, seed=cfg.seed * 1000 + i, midgame=base.takeover.env_kwargs()
        )
        for i in range(cfg.n_envs)
    ]


def cpu_seconds() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    return me.ru_utime + me.ru_stime


class Trainer:
    """One run: the network, Adam, the envs and where each env's episode stands."""

    def __init__(self, cfg: RecurrentConfig, out: str | Path):
        import torch

        self.cfg, self.out = cfg, Path(out)
        random.seed(cfg.seed)
        np.random.seed(cfg.seed)
        torch.manual_seed(cfg.seed)
        torch.set_num_threads(cfg.torch_threads)
        self.envs = make_envs(cfg)
        space = self.envs[0].observation_space.shape[0], self.envs[0].action_space.n
        self.net = rn.build(*space, memory=cfg.memory)
        from agents.policy import load_model

        rn.warm_start(self.net, load_model(cfg.init_from).policy.state_dict())
        memory = [p for k, p in self.net.named_parameters() if k.startswith(("lstm.", "pi_proj.", "vf_proj."))]
        rest = [p for k, p in self.net.named_parameters() if not k.startswith(("lstm.", "pi_proj.", "vf_proj."))]
        self.opt = torch.optim.Adam(
            [
                {"params": rest, "lr": cfg.learning_rate},
                {"params": memory, "lr": cfg.learning_rate * cfg.memory_lr_scale},
            ],
            eps=1e-5,
        )
        self.obs = np.stack([env.reset(seed=cfg.seed * 1000 + i)[0] for i, env in enumerate(self.envs)])
        self.starts = np.ones(cfg.n_envs, dtype=np.float32)
        self.state = rn.zero_state(self.net, cfg.n_envs)
        self.steps, self.cpu_before = 0, 0.0

    # -- resume ----------------------------------------------------------------------------------
    def save(self) -> None:
        import torch

        self.out.mkdir(parents=True, exist_ok=True)
        rn.save(self.net, self.out / f"step_{self.steps}.pt", {"steps": self.steps, "config": asdict(self.cfg)})
        blob = {
            "net": self.net.state_dict(),
            "opt": self.opt.state_dict(),
            "steps": self.steps,
            "envs": pickle.dumps(self.envs),
            "obs": self.obs,
            "starts": self.starts,
            "state": self.state,
            "rng": (random.getstate(), np.random.get_state(), torch.get_rng_state()),
            "cpu_seconds": self.cpu_before + cpu_seconds() - self.cpu0,
        }
        tmp = self.out / "resume.pt.tmp"
        torch.save(blob, tmp)
        tmp.replace(self.out / "resume.pt")

    def restore(self) -> None:
        import torch

        blob = torch.load(self.out / "resume.pt", map_location="cpu", weights_only=False)  # our own file
        self.net.load_state_dict(blob["net"])
        self.opt.load_state_dict(blob["opt"])
        self.envs = pickle.loads(blob["envs"])
        self.steps, self.obs, self.starts, self.state = blob["steps"], blob["obs"], blob["starts"], blob["state"]
        self.cpu_before = blob["cpu_seconds"]
        py, npy, tr = blob["rng"]
        random.setstate(py)
        np.random.set_state(npy)
        torch.set_rng_state(tr)

    # -- rollout -----------------------------------------------------------------------------------
    def rollout(self) -> dict[str, Any]:
        import torch

        cfg, T, B = self.cfg, self.cfg.n_steps, self.cfg.n_envs
        buf = {
            "obs": np.zeros((T, B, self.obs.shape[1]), np.float32),
            "mask": np.zeros((T, B, self.envs[0].action_space.n), bool),
            "starts": np.zeros((T, B), np.float32),
            "actions": np.zeros((T, B), np.int64),
            "logp": np.zeros((T, B), np.float32),
            "values": np.zeros((T, B), np.float32),
            "rewards": np.zeros((T, B), np.float32),
            "h": np.zeros((T, B, cfg.memory), np.float32),
            "c": np.zeros((T, B, cfg.memory), np.float32),
        }
        returns = []
        for t in range(T):
            masks = np.stack([env.action_masks() for env in self.envs])
            buf["obs"][t], buf["mask"][t], buf["starts"][t] = self.obs, masks, self.starts
            buf["h"][t], buf["c"][t] = self.state[0].numpy(), self.state[1].numpy()
            with torch.no_grad():
                logits, values, self.state = rn.sequence(
                    self.net, torch.from_numpy(self.obs)[None], torch.from_numpy(self.starts)[None], self.state
                )
                dist = masked_dist(logits[0], torch.from_numpy(masks))
                actions = dist.sample()
                buf["logp"][t] = dist.log_prob(actions).numpy()
            buf["actions"][t], buf["values"][t] = actions.numpy(), values[0].numpy()
            for b, env in enumerate(self.envs):
                obs, reward, terminated, truncated, _ = env.step(int(actions[b]))
                buf["rewards"][t, b] = reward
                self.starts[b] = float(terminated or truncated)
                if terminated or truncated:
                    returns.append(reward)
                    obs, _ = env.reset()
                self.obs[b] = obs
        with torch.no_grad():
            _, last, _ = rn.sequence(
                self.net, torch.from_numpy(self.obs)[None], torch.from_numpy(self.starts)[None], self.state
            )
        buf["adv"] = gae(
            buf["rewards"], buf["values"], buf["starts"], last[0].numpy(), self.starts, cfg.gamma, cfg.gae_lambda
        )
        self.steps += T * B
        return {"buf": buf, "returns": returns}

    # -- update --------------------------------------------------------------------------------------
    def update(self, buf: dict[str, np.ndarray]) -> dict[str, float]:
        import torch

        cfg, L = self.cfg, self.cfg.seq_len
        pieces = [(b, k * L) for b in range(cfg.n_envs) for k in range(cfg.n_steps // L)]
        ret = buf["adv"] + buf["values"]
        stats: dict[str, list[float]] = {"kl": [], "clip": [], "entropy": [], "pg": [], "v": []}
        for _ in range(cfg.n_epochs):
            order = np.random.permutation(len(pieces))
            for i in range(0, len(order) - cfg.batch_seqs + 1, cfg.batch_seqs):
                bs = np.array([pieces[j][0] for j in order[i : i + cfg.batch_seqs]])
                ts = np.array([pieces[j][1] for j in order[i : i + cfg.batch_seqs]])
                rows = ts[None, :] + np.arange(L)[:, None]  # [L, M]
                take = {
                    k: torch.from_numpy(buf[k][rows, bs[None, :]])
                    for k in ("obs", "mask", "starts", "actions", "logp", "adv")
                }
                state = (torch.from_numpy(buf["h"][ts, bs]), torch.from_numpy(buf["c"][ts, bs]))
                logits, values, _ = rn.sequence(self.net, take["obs"], take["starts"], state)
                dist = masked_dist(logits, take["mask"])
                logp = dist.log_prob(take["actions"])
                log_ratio = logp - take["logp"]
                ratio = log_ratio.exp()
                adv = take["adv"]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                pg = -torch.min(adv * ratio, adv * ratio.clamp(1 - cfg.clip_range, 1 + cfg.clip_range)).mean()
                v = ((values - torch.from_numpy(ret[rows, bs[None, :]])) ** 2).mean()
                entropy = dist.entropy().mean()
                with torch.no_grad():
                    kl = float(((ratio - 1) - log_ratio).mean())
                    stats["clip"].append(float(((ratio - 1).abs() > cfg.clip_range).float().mean()))
                if cfg.target_kl and kl > 1.5 * cfg.target_kl:
                    stats["kl"].append(kl)
                    return summarize(stats, stopped=True)
                loss = pg + cfg.vf_coef * v - cfg.ent_coef * entropy
                self.opt.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.net.parameters(), cfg.max_grad_norm)
                self.opt.step()
                for k, x in (("kl", kl), ("entropy", entropy.item()), ("pg", pg.item()), ("v", v.item())):
                    stats[k].append(x)
        return summarize(stats, stopped=False)

    # -- the run -------------------------------------------------------------------------------------
    def train(self, until: int | None = None, progress: bool = True) -> dict[str, Any]:
        from tqdm import tqdm

        self.cpu0 = cpu_seconds()
        end = min(self.cfg.total_steps, until or self.cfg.total_steps)
        log = self.out / "progress.csv"
        self.out.mkdir(parents=True, exist_ok=True)
        bar = tqdm(total=self.cfg.total_steps, initial=self.steps, unit="step", desc="recurrent", disable=not progress)
        row: dict[str, Any] = {}
        while self.steps < end:
            before = self.steps
            got = self.rollout()
            row = {
                "steps": self.steps,
                "episodes": len(got["returns"]),
                "mean_return": float(np.mean(got["returns"])) if got["returns"] else float("nan"),
                **self.update(got["buf"]),
                "memory_weight": self.net["pi_proj"].weight.norm().item(),
                "cpu_minutes": (self.cpu_before + cpu_seconds() - self.cpu0) / 60,
            }
            new = not log.exists()
            with log.open("a", newline="") as f:
                w = csv.DictWriter(f, fieldnames=list(row))
                if new:
                    w.writeheader()
                w.writerow(row)
            bar.update(self.steps - before)
            bar.set_postfix(ret=f"{row['mean_return']:.3f}", kl=f"{row['kl']:.4f}", cpu=f"{row['cpu_minutes']:.1f}m")
            if self.steps // self.cfg.checkpoint_every > before // self.cfg.checkpoint_every or self.steps >= end:
                self.save()
        bar.close()
        return row


def masked_dist(logits, mask):
    import torch

    return torch.distributions.Categorical(logits=logits.masked_fill(~mask, rn.MASKED))


def gae(rewards, values, starts, last_value, last_starts, gamma: float, lam: float) -> np.ndarray:
    """GAE advantages [T, B]; ``starts[t]`` 1 when step t began an episode (so step t - 1 ended one)."""
    T = rewards.shape[0]
    adv = np.zeros_like(rewards)
    running = np.zeros(rewards.shape[1], np.float32)
    for t in reversed(range(T)):
        nxt_value, nxt_start = (last_value, last_starts) if t == T - 1 else (values[t + 1], starts[t + 1])
        go_on = 1.0 - nxt_start
        delta = rewards[t] + gamma * nxt_value * go_on - values[t]
        running = delta + gamma * lam * go_on * running
        adv[t] = running
    return adv


def summarize(stats: dict[str, list[float]], stopped: bool) -> dict[str, float]:
    return {
        **{k: float(np.mean(v)) if v else float("nan") for k, v in stats.items()},
        "kl_stop": int(stopped),
        "batches": len(stats["pg"]),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(prog="python -m training.recurrent", description=__doc__.split("\n")[0])
    ap.add_argument("--config", required=True)
    ap.add_argument("--out", required=True, help="the run's folder (progress.csv, step_N.pt, resume.pt)")
    ap.add_argument("--until", type=int, help="stop at the first update at or after this many steps")
    ap.add_argument("--resume", action="store_true", help="go on from OUT/resume.pt")
    ap.add_argument("--steps", type=int, help="total_steps override")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    cfg = RecurrentConfig.load(args.config, total_steps=args.steps)
    trainer = Trainer(cfg, args.out)
    if args.resume:
        trainer.restore()
    elif (Path(args.out) / "resume.pt").exists():
        raise ValidationError("out", f"{args.out} holds a run already: give --resume, or another folder")
    return trainer.train(args.until, progress=not args.quiet)


if __name__ == "__main__":
    main()
