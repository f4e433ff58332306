"""The training env: ``ProtectorsSeatEnv`` games drawn from a curriculum, opponents from the league.

``LeagueSeatEnv`` keeps one ``ProtectorsSeatEnv`` per scenario of the curriculum (observation and
action spaces are the same for every board: the encoding covers 16 players and 33 Provinces), and
per episode draws the scenario from the active stage and the opponents from the league's weights.
The learner process steers every worker through ``VecEnv.env_method``: ``set_stage(i)`` when the
curriculum moves on, ``set_weights(w)`` when a snapshot joins the league. Action masks come from
the seat env (``action_masks()``, MaskablePPO's convention, forwarded through ``Monitor``).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np

from envs.opponents import OpponentPool
from envs.seat_env import ProtectorsSeatEnv
from training.config import Scenario, Stage, TrainConfig


class WeightedPool(OpponentPool):
    """An ``OpponentPool`` whose seats draw specs with weights instead of uniformly."""

    def __init__(self, weights: dict[str, float], silent_turn_prob: float = 0.0, silent_forever_prob: float = 0.0):
        super().__init__(tuple(weights), silent_turn_prob, silent_forever_prob)
        self.weights = [float(weights[s]) for s in self.specs]

    def pick(self, rng: random.Random) -> str:
        return rng.choices(self.specs, weights=self.weights)[0]


class LeagueSeatEnv(gym.Env):
    """One learning seat; a scenario per episode from the active curriculum stage; league opponents."""

    metadata: ClassVar[dict] = {"render_modes": []}

    def __init__(self, stages: list[Stage], weights: dict[str, float], env_options: dict[str, Any] | None = None,
                 seed: int = 0, midgame: dict[str, Any] | None = None):
        self.stages = stages
        self.env_options = dict(env_options or {})
        self.midgame = midgame  # the seat env's mid-game starts (``TakeoverConfig.env_kwargs()``; None: off)
        self.stage = 0
        self._rng = random.Random(seed)
        self._seed = seed
        self._envs: dict[int, ProtectorsSeatEnv] = {}
        self._scenarios: list[Scenario] = [sc for st in stages for sc in st.scenarios]
        self.weights = dict(weights)
        self.current: ProtectorsSeatEnv = self._env(0)
        self.observation_space = self.current.observation_space
        self.action_space = self.current.action_space

    def _env(self, k: int) -> ProtectorsSeatEnv:
        if k not in self._envs:
            opts = dict(self.env_options)
            silent_turn = opts.pop("silent_turn_prob", 0.0)
            silent_forever = opts.pop("silent_forever_prob", 0.0)
            if self.midgame is not None:
                opts["midgame"] = self.midgame
            env = ProtectorsSeatEnv(**self._scenarios[k].env_kwargs(), **opts,
                                    silent_turn_prob=silent_turn, silent_forever_prob=silent_forever)
            env.pool = WeightedPool(self.weights, silent_turn, silent_forever)
            self._envs[k] = env
        return self._envs[k]

    # -- steering from the learner ----------------------------------------------------------------
    def set_stage(self, stage: int) -> None:
        self.stage = int(stage)

    def set_weights(self, weights: dict[str, float]) -> None:
        self.weights = dict(weights)
        for env in self._envs.values():
            env.pool = WeightedPool(self.weights, env.pool.silent_turn_prob, env.pool.silent_forever_prob)

    def relocate(self, specs: list[str]) -> None:
        """Rename the pool's snapshot specs (oldest first, as in ``League.weights``) to ``specs``: the same
        snapshots at the paths a resumed run found them (a moved run folder, another working directory).
        Models already loaded stay loaded; no draw changes. A pool of another length is left alone."""
        old = [k for k in self.weights if k.startswith("policy:")]
        if len(old) != len(specs):
            return
        names = dict(zip(old, specs, strict=True))
        self.weights = {names.get(k, k): v for k, v in self.weights.items()}
        for env in self._envs.values():
            pool = env.pool
            pool.specs = tuple(names.get(k, k) for k in pool.specs)
            pool._cache = {names.get(k, k): v for k, v in pool._cache.items()}

    # -- gymnasium API -------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        stage = self.stages[self.stage]
        offset = sum(len(st.scenarios) for st in self.stages[:self.stage])
        k = offset + self._rng.choices(range(len(stage.scenarios)), weights=[s.weight for s in stage.scenarios])[0]
        self.current = self._env(k)
        return self.current.reset(seed=self._rng.randrange(2**31), options=options)

    def step(self, action):
        return self.current.step(action)

    def action_masks(self) -> np.ndarray:
        return self.current.action_masks()


def make_env(cfg: TrainConfig, weights: dict[str, float], rank: int):
    """A thunk for the VecEnv: worker ``rank`` of ``n_envs``, seeded from the run seed."""

    def thunk():
        from training.resume import ResumableMonitor

        return ResumableMonitor(LeagueSeatEnv(cfg.curriculum, weights, cfg.env_options, seed=cfg.seed * 1000 + rank,
                                              midgame=cfg.takeover.env_kwargs()))

    return thunk


def make_vec_env(cfg: TrainConfig, weights: dict[str, float]):
    """SubprocVecEnv over ``n_envs`` workers (both cores), DummyVecEnv for one env or ``vec_env = "dummy"``."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    thunks = [make_env(cfg, weights, i) for i in range(cfg.n_envs)]
    use_subproc = cfg.vec_env == "subproc" or (cfg.vec_env == "auto" and cfg.n_envs > 1)
    if use_subproc:
        return SubprocVecEnv(thunks, start_method="fork")
    return DummyVecEnv(thunks)


def make_eval_env(cfg: TrainConfig, scenario: Scenario, opponents: tuple[str, ...] = ("caretaker",)):
    """The env MaskableEvalCallback plays: the learner in a random seat vs ``opponents``."""
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv

    opts = {k: v for k, v in cfg.env_options.items() if k not in ("silent_turn_prob", "silent_forever_prob")}
    opts.pop("reward_shaping", None)  # evaluation reports the plain terminal reward: no shaping, and no
    opts.pop("caretaker_baseline", None)  # caretaker's score subtracted (nor its game played at every reset)
    return DummyVecEnv([lambda: Monitor(ProtectorsSeatEnv(**scenario.env_kwargs(), opponents=opponents, **opts))])
