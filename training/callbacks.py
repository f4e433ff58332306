"""SB3 callbacks of a training run: progress bar, curriculum, league checks, resumable checkpoints."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

from stable_baselines3.common.callbacks import BaseCallback
from tqdm import tqdm

from training.config import TrainConfig
from training.games import SeatGames
from training.league import League


class TqdmProgress(BaseCallback):
    """A tqdm bar over learner steps (SB3's own bar needs ``rich``, which the rl extra does not pull in)."""

    def __init__(self, total: int, start: int = 0, enabled: bool = True):
        super().__init__()
        self.total, self.start, self.enabled = total, start, enabled
        self.bar: tqdm | None = None

    def _on_training_start(self) -> None:
        if self.enabled:
            self.bar = tqdm(total=self.total, initial=self.start, unit="step", desc="train", dynamic_ncols=True)

    def _on_step(self) -> bool:
        if self.bar is not None:
            self.bar.update(self.training_env.num_envs)
        return True

    def _on_training_end(self) -> None:
        if self.bar is not None:
            self.bar.close()


class Curriculum(BaseCallback):
    """Moves every worker to the stage whose ``start`` fraction of ``total_timesteps`` has been reached."""

    def __init__(self, cfg: TrainConfig):
        super().__init__()
        self.cfg = cfg
        self.stage = -1

    def _target(self) -> int:
        done = self.num_timesteps / self.cfg.total_timesteps
        return max(i for i, st in enumerate(self.cfg.curriculum) if st.start <= done)

    def _on_training_start(self) -> None:
        self._update()

    def _on_step(self) -> bool:
        self._update()
        return True

    def _update(self) -> None:
        target = self._target()
        if target != self.stage:
            self.stage = target
            self.training_env.env_method("set_stage", target)
            self.logger.record("charts/curriculum_stage", target)


class LeagueCheck(BaseCallback):
    """Every ``league.check_every`` steps: snapshot the learner, measure it, maybe admit it to the pool.

    Also measures the candidate's win rate vs a field of caretakers and of heuristics on the eval
    scenario (the strength-over-training curve, ``charts/league_*`` in the logs).
    """

    def __init__(self, cfg: TrainConfig, league: League, run_dir: Path, strength_games: int = 20,
                 cpu_minutes: Callable[[], float] | None = None):
        super().__init__()
        self.cpu_minutes = cpu_minutes
        self.cfg, self.league, self.run_dir = cfg, league, run_dir
        self.strength_games = strength_games
        self.games = SeatGames(cfg.eval_scenario, progress=cfg.progress)  # the run's bar waits while a check plays
        self.next_check = cfg.league.check_every
        self.rng = random.Random(cfg.seed + 99)

    def _on_training_start(self) -> None:
        every = self.cfg.league.check_every
        self.next_check = (self.num_timesteps // every + 1) * every

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_check:
            self.next_check += self.cfg.league.check_every
            self.check()
        return True

    def check(self) -> None:
        step = self.num_timesteps
        path = self.run_dir / "snapshots" / f"step_{step}" / "model.zip"
        path.parent.mkdir(parents=True, exist_ok=True)
        self.model.save(path)
        spec = f"policy:{path}"
        base = self.rng.randrange(10**6)
        extra = {"cpu_minutes": round(self.cpu_minutes(), 2)} if self.cpu_minutes else {}
        for opp in ("caretaker", "heuristic"):
            _, wins = self.games.play(spec, base + 10**6, self.strength_games, {opp: 1.0})
            extra[f"win_vs_{opp}"] = sum(wins) / len(wins)
        check = self.league.consider(spec, step, self.games.play, base, self.cfg.league.check_games, extra)
        if check.joined:
            self.training_env.env_method("set_weights", self.league.weights())
        self.league.save(self.run_dir / "league.json")
        self.logger.record("charts/league_candidate_score", check.candidate)
        self.logger.record("charts/league_incumbent_score", check.incumbent)
        self.logger.record("charts/league_joined", int(check.joined))
        self.logger.record("charts/league_size", len(self.league.snapshots))
        for k, v in extra.items():
            self.logger.record(f"charts/league_{k}", v)


class ResumableCheckpoint(BaseCallback):
    """Saves ``model.zip`` + ``league.json`` + ``state.json`` + ``resume.pkl`` under
    ``run_dir/checkpoints/step_N`` (``--resume`` reads them) every ``every`` steps and at the end.

    Written at a rollout boundary (the start of the next rollout, or the end of training: after an
    update, before any step of the next rollout), so a resumed run continues exactly
    (``training.resume``); ``N`` is the step count there (the first multiple of ``n_steps x n_envs``
    at or past each multiple of ``every``).
    """

    def __init__(self, every: int, run_dir: Path, league: League,
                 clock: Callable[[], tuple[float, float]] | None = None,
                 rngs: dict[str, random.Random] | None = None):
        super().__init__()
        self.every, self.run_dir, self.league, self.clock = every, run_dir, league, clock
        self.rngs = rngs or {}
        self.next_save = every
        self.saved_at = -1

    def _on_training_start(self) -> None:
        self.next_save = (self.num_timesteps // self.every + 1) * self.every
        self.saved_at = self.num_timesteps  # a resumed run does not re-save the checkpoint it came from

    def _on_rollout_start(self) -> None:
        if self.num_timesteps >= self.next_save:
            while self.next_save <= self.num_timesteps:
                self.next_save += self.every
            self.save()

    def _on_step(self) -> bool:
        return True

    def _on_training_end(self) -> None:
        if self.num_timesteps != self.saved_at:
            self.save()

    def save(self) -> Path:
        from training.resume import RESUME_FILE, save_state

        out = self.run_dir / "checkpoints" / f"step_{self.num_timesteps}"
        out.mkdir(parents=True, exist_ok=True)
        self.model.save(out / "model.zip")
        self.league.save(out / "league.json")
        save_state(out / RESUME_FILE, self.model, self.rngs)
        if self.clock:  # time spent so far, so a resumed run reports time from scratch
            wall, cpu = self.clock()
            state = {"steps": self.num_timesteps, "wall_seconds": round(wall, 1), "cpu_seconds": round(cpu, 1)}
            (out / "state.json").write_text(json.dumps(state), encoding="utf-8")
        self.saved_at = self.num_timesteps
        return out
