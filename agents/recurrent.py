"""``recurrent:<file.pt>``: a seat filler with memory (session 32, an experiment; no level plays it).

The network is the v7 MLP actor-critic (``mlp_extractor.policy_net`` / ``value_net``, ``action_net``,
``value_net``: an SB3 ``MlpPolicy``'s names) plus an LSTM cell over the actor's latent whose output enters
both heads through projections that start at zero, so a net warm-started from an SB3 checkpoint
(:func:`warm_start`) computes exactly that checkpoint's logits and values until it is trained
(``training/recurrent.py``). The memory runs one step per masked choice, as the env's steps are, and is
emptied when a game starts (``reset``): a takeover starts with no memory, in training and in the benchmark.

torch is imported when a network is built or loaded, never when this module is imported.
"""

from __future__ import annotations

import functools
import pickle
import random
from pathlib import Path
from typing import Any

import numpy as np

from agents.policy import split_spec
from agents.spaces.encoding import BOARD_SIZE, OBS_SIZE, encode_board, encode_choice
from agents.spaces.planner import make_planner
from agents.teams import spare_team_mates
from engine.errors import ValidationError
from engine.protectors.decisions import Decision
from engine.protectors.seat import SeatContext

MASKED = -1e8  # an illegal choice's logit (sb3-contrib's value)


def build(obs_size: int, n_actions: int, hidden: tuple[int, ...] = (256, 256), memory: int = 128):
    """The actor-critic with memory as a ``torch.nn.ModuleDict`` (projections at zero: memory adds nothing yet)."""
    from torch import nn

    def mlp() -> nn.Sequential:
        layers: list[nn.Module] = []
        for i, width in enumerate(hidden):
            layers += [nn.Linear(hidden[i - 1] if i else obs_size, width), nn.Tanh()]
        return nn.Sequential(*layers)

    net = nn.ModuleDict(
        {
            "mlp_extractor": nn.ModuleDict({"policy_net": mlp(), "value_net": mlp()}),
            "action_net": nn.Linear(hidden[-1], n_actions),
            "value_net": nn.Linear(hidden[-1], 1),
            "lstm": nn.LSTMCell(hidden[-1], memory),
            "pi_proj": nn.Linear(memory, hidden[-1]),
            "vf_proj": nn.Linear(memory, hidden[-1]),
        }
    )
    for proj in (net["pi_proj"], net["vf_proj"]):
        nn.init.zeros_(proj.weight)
        nn.init.zeros_(proj.bias)
    net.meta = {
        "obs_size": int(obs_size),
        "n_actions": int(n_actions),
        "hidden": [int(w) for w in hidden],
        "memory": int(memory),
    }
    return net


def warm_start(net, sb3_state: dict[str, Any]) -> None:
    """Copy an SB3 ``MlpPolicy``'s MLPs and heads (``policy.state_dict()``) into ``net``; the memory is untouched."""
    import torch

    own = net.state_dict()
    shared = {k: v for k, v in sb3_state.items() if k in own}
    missing = [k for k in own if k.startswith(("mlp_extractor.", "action_net.", "value_net.")) and k not in shared]
    if missing:
        raise ValidationError("checkpoint", f"the SB3 policy lacks {', '.join(missing)}")
    with torch.no_grad():
        for k, v in shared.items():
            own[k].copy_(torch.as_tensor(v))


def zero_state(net, batch: int):
    import torch

    size = net.meta["memory"]
    return torch.zeros(batch, size), torch.zeros(batch, size)


def sequence(net, obs, starts, state):
    """Logits and values over ``obs`` [T, B, obs_size]; ``starts`` [T, B] (1 where a game starts: the memory is
    emptied before that step); ``state`` (h, c) [B, memory] before the first step. Returns (logits [T, B, A],
    values [T, B], the state after the last step)."""
    import torch

    lp = net["mlp_extractor"]["policy_net"](obs)
    lv = net["mlp_extractor"]["value_net"](obs)
    h, c = state
    outs = []
    for t in range(obs.shape[0]):
        keep = (1.0 - starts[t]).unsqueeze(-1)
        h, c = net["lstm"](lp[t], (h * keep, c * keep))
        outs.append(h)
    mem = torch.stack(outs)
    logits = net["action_net"](lp + net["pi_proj"](mem))
    values = net["value_net"](lv + net["vf_proj"](mem)).squeeze(-1)
    return logits, values, (h, c)


def save(net, path: str | Path, info: dict[str, Any] | None = None) -> Path:
    """The weights and sizes (``torch.save``; read back with :func:`load`, ``weights_only``)."""
    import torch

    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"meta": dict(net.meta), "info": dict(info or {}), "state_dict": net.state_dict()}, p)
    return p


def load(path: str | Path):
    p = Path(path)
    if not p.is_file():
        raise ValidationError("checkpoint", f"no recurrent checkpoint at {path}")
    return _load(str(p.resolve()), p.stat().st_mtime_ns)


@functools.lru_cache(maxsize=4)
def _load(path: str, _mtime: int):
    import torch

    try:
        blob = torch.load(path, map_location="cpu", weights_only=True)
        meta = blob["meta"]
        net = build(meta["obs_size"], meta["n_actions"], tuple(meta["hidden"]), meta["memory"])
        net.load_state_dict(blob["state_dict"])
    except (RuntimeError, KeyError, TypeError, ValueError, EOFError, OSError, pickle.UnpicklingError) as err:
        raise ValidationError("checkpoint", f"{path} is not a recurrent checkpoint ({err})") from None
    net.eval()
    return net


class RecurrentPolicyAgent:
    """Plays a seat with :func:`build`'s network, its memory carried over the seat's choices in one game."""

    def __init__(self, net, seed: int | None = None, temperature: float = 0.0, name: str = "recurrent"):
        if temperature < 0:
            raise ValidationError("temperature", "must be 0 (greedy) or more")
        self.net, self.temperature, self.name = net, float(temperature), name
        self.rng = random.Random(seed)
        self.state = zero_state(net, 1)
        self.choices = 0
        """choices made since the last ``reset`` (the memory's steps)"""

    def reset(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.state = zero_state(self.net, 1)
        self.choices = 0

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """One memory step: the choice's logits (the memory moves on)."""
        import torch

        with torch.no_grad():
            x = torch.as_tensor(obs, dtype=torch.float32).view(1, 1, -1)
            logits, _, self.state = sequence(self.net, x, torch.zeros(1, 1), self.state)
        self.choices += 1
        return logits[0, 0].numpy()

    def choose(self, obs: np.ndarray, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        z = self.logits(obs).astype(np.float64)[legal]
        if self.temperature == 0:
            return int(legal[int(np.argmax(z))])
        p = np.exp((z - z.max()) / self.temperature)
        return int(self.rng.choices(legal.tolist(), weights=(p / p.sum()).tolist())[0])

    def act(self, ctx: SeatContext) -> Decision:
        planner = make_planner(ctx.state, ctx.seat)
        obs = np.zeros(OBS_SIZE, dtype=np.float32)
        obs[:BOARD_SIZE] = encode_board(ctx.state, ctx.seat)
        planner.skip_forced()
        while not planner.finished:
            encode_choice(planner, obs[BOARD_SIZE:])
            planner.apply(self.choose(obs, planner.mask()))
            planner.skip_forced()
        return spare_team_mates(ctx, planner.decision())


def recurrent_from_spec(spec: str, seed: int | None = None) -> RecurrentPolicyAgent:
    """``recurrent:<file.pt>`` or ``recurrent:<file.pt>@<temperature>``."""
    path, temperature = split_spec(spec, "recurrent")
    return RecurrentPolicyAgent(load(path), seed, temperature, name=f"recurrent:{spec.removeprefix('recurrent:')}")
