"""``policy``: a trained SB3 / sb3-contrib checkpoint playing a seat through the Agent interface.

It acts exactly as the envs ask a learner to: the seat's decision is built choice by choice by an
``agents.spaces.planner`` planner, each choice taken from the network's logits under the planner's mask, with
the observation of ``agents.spaces.encoding`` (the seat's own view only). torch and SB3 are imported when a
checkpoint is loaded, never at import time, so a GM who only automates NPRs does not need them.

Difficulty: ``temperature`` 0 (or ``deterministic``) takes the most likely legal choice; above 0 it
samples from softmax(logits / temperature) over the legal choices (higher = weaker, more random).

Ensembles: ``policy:a.zip+b.zip`` plays the mean of the checkpoints' log-probabilities (each network's
log-softmax, averaged), which is steadier than any one snapshot of a noisy training run. Every member
must fit the same observation and action layout.
"""

from __future__ import annotations

import copy
import functools
import random
from pathlib import Path
from typing import Any

import numpy as np

from agents.numpy_policy import NumpyPolicy, load_numpy_policy
from agents.spaces.encoding import BOARD_SIZE, OBS_SIZE, encode_board, encode_choice
from agents.spaces.planner import make_planner
from agents.teams import spare_team_mates, spared_note
from engine.errors import ValidationError
from engine.protectors.decisions import Decision
from engine.protectors.seat import SeatContext

BACKENDS = ("numpy", "torch")


def load_model(path: str | Path):
    """A MaskablePPO checkpoint (or a plain SB3 PPO one), on CPU, with torch and SB3.

    Loaded once per file and shared: every seat (and difficulty) playing the same checkpoint uses
    one copy of the weights, read-only at inference.
    """
    p = Path(path)
    if not p.exists() and not p.with_suffix(".zip").exists():
        raise ValidationError("checkpoint", f"no checkpoint at {path}")
    return _load_model(str(p.resolve()), p.stat().st_mtime_ns if p.exists() else 0)


@functools.lru_cache(maxsize=8)
def _load_model(path: str, _mtime: int):
    p = Path(path)
    try:
        from sb3_contrib import MaskablePPO

        return MaskablePPO.load(str(p), device="cpu")
    except (ImportError, ValueError, KeyError, TypeError):
        from stable_baselines3 import PPO

        return PPO.load(str(p), device="cpu")


@functools.lru_cache(maxsize=8)
def _load_numpy(path: str, _mtime: int) -> NumpyPolicy:
    return load_numpy_policy(path)


def load_policy(path: str | Path, backend: str = "numpy"):
    """A checkpoint's actor for inference: a :class:`NumpyPolicy` (no torch) or the SB3 model."""
    if backend not in BACKENDS:
        raise ValidationError("backend", f"unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
    if backend == "torch":
        return load_model(path)
    p = Path(path)
    if not p.exists() and p.with_suffix(".zip").exists():
        p = p.with_suffix(".zip")
    if not p.exists():
        raise ValidationError("checkpoint", f"no checkpoint at {path}")
    return _load_numpy(str(p.resolve()), p.stat().st_mtime_ns)


class PolicyAgent:
    def __init__(self, model, seed: int | None = None, temperature: float = 0.0, name: str = "policy"):
        """``model``: one SB3 model or :class:`NumpyPolicy`, or a list of them (an ensemble: mean
        log-probabilities; all of one kind)."""
        if temperature < 0:
            raise ValidationError("temperature", "must be 0 (greedy) or more")
        self.models = list(model) if isinstance(model, list | tuple) else [model]
        if not self.models:
            raise ValidationError("checkpoint", "an ensemble needs at least one checkpoint")
        self.model = self.models[0]
        self.own = self.models
        """the checkpoint(s) loaded; ``specialists`` may hand a decision to others"""
        self.specialists: list[tuple[Any, list]] = []
        """(``agents.checkpoints.Specialist``, its models): at a table one fits, the decision is its models'"""
        self.last_specialist: Any = None
        """the ``Specialist`` whose network made the latest decision (None: the agent's own checkpoint)"""
        self.temperature = float(temperature)
        self.name = name
        self.rng = random.Random(seed)
        self.last_spared = ""
        """what the team-mate rule changed in the latest decision (``agents.teams.spared_note``); empty if nothing"""

    @classmethod
    def load(cls, path: str | Path, seed: int | None = None, temperature: float = 0.0,
             backend: str = "numpy") -> PolicyAgent:
        """One checkpoint, or several joined by ``+`` (an ensemble); ``backend``: numpy or torch."""
        paths = str(path).split("+")
        if any(not p for p in paths):
            raise ValidationError("checkpoint", f"empty checkpoint path in {str(path)!r}")
        models = [load_policy(p, backend) for p in paths]
        return cls(models if len(models) > 1 else models[0], seed, temperature, name=f"policy:{path}")

    def reset(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def logits(self, obs: np.ndarray) -> np.ndarray:
        if isinstance(self.model, NumpyPolicy):
            if len(self.models) == 1:
                return self.model.log_probs(obs)
            return np.mean([m.log_probs(obs) for m in self.models], axis=0, dtype=np.float32)
        import torch

        with torch.no_grad():
            t, _ = self.model.policy.obs_to_tensor(obs)
            if len(self.models) == 1:
                return self.model.policy.get_distribution(t).distribution.logits[0].cpu().numpy()
            # torch's Categorical keeps logits normalised (log-softmax), so the mean is of log-probabilities
            stacked = torch.stack([m.policy.get_distribution(t).distribution.logits[0] for m in self.models])
            return stacked.mean(dim=0).cpu().numpy()

    def choose(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """One choice among the legal actions (mask) from the network's logits."""
        logits = self.logits(obs).astype(np.float64)
        legal = np.flatnonzero(mask)
        z = logits[legal]
        if self.temperature == 0:
            return int(legal[int(np.argmax(z))])
        z = (z - z.max()) / self.temperature
        p = np.exp(z)
        p /= p.sum()
        return int(legal[self._sample(p)])

    def _sample(self, p: np.ndarray) -> int:
        r, acc = self.rng.random(), 0.0
        for i, x in enumerate(p):
            acc += x
            if r < acc:
                return i
        return len(p) - 1

    def at_temperature(self, temperature: float, seed: int | None = None, name: str = "") -> PolicyAgent:
        """The same networks (specialists too) sampling at ``temperature``."""
        agent = PolicyAgent(self.own, seed, temperature, name=name or f"{self.name}@{temperature}")
        agent.specialists = self.specialists
        return agent

    def __deepcopy__(self, memo: dict) -> PolicyAgent:
        """A copy that plays the same networks (read-only when deciding; copying them would cost megabytes) with
        its own random generator at the same point: what the seat env's ``caretaker_baseline`` replays."""
        agent = copy.copy(self)
        memo[id(self)] = agent
        agent.rng = copy.deepcopy(self.rng, memo)
        return agent

    def use_models_for(self, state: Any) -> None:
        """Decide with the specialist whose table ``state`` is, else with the agent's own checkpoint(s)."""
        self.last_specialist, self.models = next(((sp, models) for sp, models in self.specialists if sp.fits(state)),
                                                 (None, self.own))
        self.model = self.models[0]

    def act(self, ctx: SeatContext) -> Decision:
        state = ctx.state  # the seat's redacted copy: nothing another seat keeps secret
        if self.specialists:
            self.use_models_for(state)
        planner = make_planner(state, ctx.seat)
        obs = np.zeros(OBS_SIZE, dtype=np.float32)
        obs[:BOARD_SIZE] = encode_board(state, ctx.seat)
        planner.skip_forced()
        while not planner.finished:
            encode_choice(planner, obs[BOARD_SIZE:])
            planner.apply(self.choose(obs, planner.mask()))
            planner.skip_forced()
        wanted = planner.decision()
        decision = spare_team_mates(ctx, wanted)
        self.last_spared = spared_note(ctx, wanted, decision)  # the decision's trace says it (service/explain.py)
        return decision


def policy_from_spec(spec: str, seed: int | None = None) -> PolicyAgent:
    """``policy:<checkpoint>`` or ``policy:<checkpoint>@<temperature>``."""
    path, temperature = split_spec(spec, "policy")
    return PolicyAgent.load(path, seed, temperature)


def split_spec(spec: str, prefix: str) -> tuple[str, float]:
    """``(path, temperature)`` of ``<prefix>:<path>[@<temperature>]`` (the prefix may be left out; greedy: 0)."""
    path, _, temp = spec.removeprefix(f"{prefix}:").partition("@")
    try:
        return path, float(temp) if temp else 0.0
    except ValueError:
        raise ValidationError("agent", f"bad temperature in {spec!r}; use {prefix}:<path>@<temperature>") from None
