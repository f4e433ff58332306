"""Train a Protectors seat filler with MaskablePPO (sb3-contrib), read top to bottom.

    regent train --config training/configs/protectors-ppo-v1.toml [--steps N] [--resume PATH] [--until N]

or, from Python, ``main(load_config(path))``. A run writes under ``runs/<run name>/`` (git-ignored):
CSV (and TensorBoard, when installed) logs with ``charts/...`` and ``losses/...`` metrics, the
config, ``league.json`` (pool and checks), snapshots, resumable checkpoints and the final
``model.zip``; ``save_dir`` in the config copies the result to e.g. ``checkpoints/<name>/``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import resource
import shutil
import time
import warnings
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from engine.errors import ValidationError
from training.config import TrainConfig, to_dict, to_toml
from training.league import League


def run_name(cfg: TrainConfig) -> str:
    return f"{cfg.env_id.replace('/', '-')}__{cfg.exp_name}__{cfg.seed}__{int(time.time())}"


def _cpu_seconds(vec_env: Any = None) -> float:
    """CPU time of this process, its finished children and the live SubprocVecEnv workers."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime
    for proc in getattr(vec_env, "processes", []):
        try:  # /proc/<pid>/stat fields 14 and 15: utime and stime in clock ticks (Linux)
            fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            continue
    return total


def main(cfg: TrainConfig, resume: str | None = None, until: int | None = None) -> dict[str, Any]:
    """Run one training; returns a summary (paths, steps, wall and CPU time, league checks).

    ``resume``: a checkpoint ``model.zip``; with the ``resume.pkl`` beside it the run continues exactly
    (``training.resume``). ``until``: stop once this many steps are done (a checkpoint is written
    there), keeping ``total_timesteps`` for the curriculum, so a run can be split across sessions.
    """
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.callbacks import MaskableEvalCallback
    from stable_baselines3.common.logger import configure

    import envs  # noqa: F401  (registers regent/Protectors-v0)
    from training.callbacks import Curriculum, LeagueCheck, ResumableCheckpoint, TqdmProgress
    from training.envs import make_eval_env, make_vec_env

    if until is not None and until < 1:
        raise ValidationError("until", f"a step count >= 1, not {until}")
    if resume and not Path(resume).is_file():
        raise ValidationError("resume", f"no checkpoint at {resume}")
    if cfg.init_from and not resume and not Path(cfg.init_from).is_file():
        # checked here, not when the config loads: a recipe's later step starts from an earlier step's output
        raise ValidationError("config", f"init_from: no model at {cfg.init_from} (if an earlier step of the recipe "
                                        "makes it, run that step first)")
    if resume:
        _check_steps_left(_checkpoint_steps(Path(resume)), cfg.total_timesteps, until, resume)
    wall0, cpu0 = time.time(), _cpu_seconds()
    name = run_name(cfg)
    run_dir = Path(cfg.runs_dir) / name
    fresh_dir = not run_dir.exists()
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "config.toml").write_text(to_toml(cfg), encoding="utf-8")

    # -- seeding: the one place randomness is fixed -------------------------------------------------
    random.seed(cfg.seed)
    np.random.seed(cfg.seed)
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.torch_threads)
    torch.use_deterministic_algorithms(True, warn_only=True)

    # -- league and envs ---------------------------------------------------------------------------
    league = League(cfg.league)
    if resume:
        league_file = Path(resume).with_name("league.json")
        if league_file.exists():
            league = League.load(league_file, cfg.league)
            gone = league.missing_snapshots()
            if gone:
                raise ValidationError("resume", f"{league_file} names snapshots that are not there: "
                                      + ", ".join(f"step {s.step} at {s.spec.split(':', 1)[1]}" for s in gone)
                                      + " (move or copy the run folder whole: its snapshots/ beside checkpoints/)")
        wall0, cpu0 = _resume_clock(Path(resume), wall0, cpu0)
    vec_env = make_vec_env(cfg, league.weights())
    vec_env.seed(cfg.seed)

    # -- model ---------------------------------------------------------------------------------------
    exact, why_not = (None, "")
    if resume:
        from training.resume import load_state

        exact, why_not = load_state(resume, vec_env.num_envs)
        try:
            # exact: keep the checkpoint's last observations (the envs are put back as they were below)
            model = MaskablePPO.load(resume, env=vec_env, device="cpu", force_reset=exact is None)
        except (ValueError, OSError, EOFError, KeyError, AssertionError, zipfile.BadZipFile) as err:  # no SB3 model
            vec_env.close()
            if fresh_dir:
                shutil.rmtree(run_dir, ignore_errors=True)
            raise ValidationError("resume", f"{resume} is not a model.zip SB3 can read ({first_line(err)})") from None
        if exact is None:
            warnings.warn(f"resuming {resume} inexactly: {why_not}", stacklevel=2)
    else:
        model = MaskablePPO(
            "MlpPolicy", vec_env, learning_rate=cfg.learning_rate, n_steps=cfg.n_steps, batch_size=cfg.batch_size,
            n_epochs=cfg.n_epochs, gamma=cfg.gamma, gae_lambda=cfg.gae_lambda, clip_range=cfg.clip_range,
            ent_coef=cfg.ent_coef, vf_coef=cfg.vf_coef, max_grad_norm=cfg.max_grad_norm,
            policy_kwargs={"net_arch": {"pi": list(cfg.net_arch), "vf": list(cfg.net_arch)}},
            target_kl=cfg.target_kl or None, seed=cfg.seed, device="cpu", verbose=0)
    imitation = _earlier_imitation(Path(resume)) if resume else None
    if cfg.init_from and not resume:  # a new run from a trained network: no warm start
        try:
            _init_from(model, cfg.init_from)
        except ValidationError:  # refused before any step: leave no half-made run behind
            vec_env.close()
            if fresh_dir:
                shutil.rmtree(run_dir, ignore_errors=True)
            raise
    elif not resume and cfg.imitation.games > 0:  # behaviour-cloning warm start (training.imitation)
        from training.imitation import warm_start

        imitation = warm_start(model, cfg, run_dir)
    outputs = ["csv"] + (["tensorboard"] if importlib.util.find_spec("tensorboard") else [])
    model.set_logger(configure(str(run_dir), outputs))
    _log_hyperparameters(model, cfg)
    start = model.num_timesteps
    if resume:  # the checkpoint's own count (a checkpoint without state.json is only known now)
        _check_steps_left(start, cfg.total_timesteps, until, resume)
    remaining = max(0, min(cfg.total_timesteps, until or cfg.total_timesteps) - start)

    # -- callbacks -----------------------------------------------------------------------------------
    callbacks = [TqdmProgress(cfg.total_timesteps, start, cfg.progress), Curriculum(cfg)]
    rngs = {}  # callbacks' own generators, saved with each checkpoint for an exact resume
    if cfg.league.enabled and cfg.league.check_every > 0:
        check = LeagueCheck(cfg, league, run_dir, cpu_minutes=lambda: (_cpu_seconds(vec_env) - cpu0) / 60)
        rngs["league_check"] = check.rng
        callbacks.append(check)
    if cfg.eval_freq > 0:  # a DummyVecEnv evaluating a SubprocVecEnv learner is intended
        warnings.filterwarnings("ignore", message="Training and eval env are not of the same type")
        callbacks.append(MaskableEvalCallback(
            make_eval_env(cfg, cfg.eval_scenario, tuple(cfg.eval_opponents)), n_eval_episodes=cfg.eval_episodes,
            eval_freq=max(1, cfg.eval_freq // cfg.n_envs), log_path=str(run_dir / "eval"),
            best_model_save_path=str(run_dir / "best"), deterministic=True, verbose=0))
    if cfg.checkpoint_freq > 0:
        callbacks.append(ResumableCheckpoint(cfg.checkpoint_freq, run_dir, league,
                                             clock=lambda: (time.time() - wall0, _cpu_seconds(vec_env) - cpu0),
                                             rngs=rngs))
    if exact is not None:  # after MaskablePPO.load (which re-seeds the global generators)
        from training.resume import apply_state

        apply_state(exact, vec_env, rngs)
        # the workers name the league's snapshots as the first run did (its folder, its working directory):
        # point them at where this run found them (the same models, so nothing drawn changes)
        vec_env.env_method("relocate", [k for k in league.weights() if k.startswith("policy:")])

    # -- train ---------------------------------------------------------------------------------------
    model.learn(total_timesteps=remaining, callback=callbacks, reset_num_timesteps=not resume, progress_bar=False)
    model.save(run_dir / "model.zip")
    league.save(run_dir / "league.json")
    vec_env.close()

    summary = {
        "run": name, "run_dir": str(run_dir), "model": str(run_dir / "model.zip"),
        "steps": int(model.num_timesteps), "steps_this_run": int(model.num_timesteps - start),
        "wall_seconds": round(time.time() - wall0, 1), "cpu_seconds": round(_cpu_seconds() - cpu0, 1),
        # resumed_exactly: None for a fresh run; for a resumed one, whether its games went on exactly
        "resumed_from": resume, "resumed_exactly": (exact is not None) if resume else None,
        "imitation": imitation, "league": json.loads(league.to_json()), "config": to_dict(cfg),
    }
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    if cfg.save_dir:
        out = Path(cfg.save_dir)
        out.mkdir(parents=True, exist_ok=True)
        shutil.copy(run_dir / "model.zip", out / "model.zip")
        (out / "config.toml").write_text(to_toml(cfg), encoding="utf-8")
        (out / "training_summary.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    return summary


def _init_from(model: Any, path: str) -> None:
    """Load a trained model's network and optimiser state into ``model`` (the same ``net_arch`` and spaces)."""
    try:
        model.set_parameters(path, exact_match=True, device="cpu")
    except (ValueError, OSError, EOFError) as err:  # SB3's "wasn't a zip-file", a truncated file
        raise ValidationError("init_from", f"{path} is not a model.zip SB3 can read ({first_line(err)})") from None
    except (RuntimeError, KeyError) as err:  # parameter shapes or names that do not match this config's net
        raise ValidationError("init_from", f"{path} does not fit this config's network "
                                           f"({_what_differs(model, path) or first_line(err)}); "
                                           "net_arch and the env's spaces must be the model's") from None


def _what_differs(model: Any, path: str) -> str:
    """What of a saved model that does not fit ``model`` differs: its ``net_arch`` or its spaces ('' when
    neither does, or the file's data cannot be read). torch's own error starts 'Error(s) in loading
    state_dict for MaskableActorCriticPolicy:' and names tensors, not the config key to change."""
    from stable_baselines3.common.save_util import load_from_zip_file

    try:
        data, _, _ = load_from_zip_file(path, load_data=True, device="cpu")
    except Exception:  # the refusal then quotes torch's error instead
        return ""
    out = []
    theirs, ours = (data.get("policy_kwargs") or {}).get("net_arch"), model.policy_kwargs.get("net_arch")
    if theirs != ours:
        out.append(f"net_arch: the model's {_arch(theirs)}, this config's {_arch(ours)}")
    for name in ("observation_space", "action_space"):
        if name in data and data[name] != getattr(model, name):
            out.append(f"{name}: the model's {data[name]}, this run's {getattr(model, name)}")
    return "; ".join(out)


def _arch(net_arch: Any) -> str:
    """A net_arch as a config writes it: ``[256, 256]`` when both heads have it."""
    if isinstance(net_arch, dict) and net_arch.get("pi") == net_arch.get("vf"):
        return str(net_arch.get("pi"))
    return str(net_arch)


def first_line(err: Exception) -> str:
    """An exception's first line of text (its type when it has none), for a one-line refusal."""
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__


def _checkpoint_steps(resume: Path) -> int | None:
    """The learner steps a checkpoint was written at (``state.json`` / ``summary.json`` beside it), if known."""
    for name in ("state.json", "summary.json"):
        f = resume.with_name(name)
        if f.exists():
            steps = json.loads(f.read_text(encoding="utf-8")).get("steps")
            return int(steps) if steps is not None else None
    return None


def _check_steps_left(done: int | None, total: int, until: int | None, resume: str) -> None:
    """A resume with nothing left to train (``--steps`` / ``--until`` at or below the checkpoint's step) is an
    error, not a new run directory that trained 0 steps."""
    if done is None:
        return
    if total <= done:
        raise ValidationError("steps", f"{resume} is at step {done:,} and total_timesteps is {total:,}: nothing "
                                       f"to train; give --steps above {done:,}")
    if until is not None and until <= done:
        raise ValidationError("until", f"{resume} is at step {done:,}: --until {until:,} leaves nothing to train; "
                                       f"give --until above {done:,}")


def _earlier_imitation(resume: Path) -> dict[str, Any] | None:
    """The warm-start report of the run a checkpoint comes from (``<run>/imitation/report.json``, the run
    directory being the checkpoint's folder or one of its parents), so a resumed run's summary keeps it."""
    for d in list(resume.parents)[:3]:
        f = d / "imitation" / "report.json"
        if f.exists():
            return json.loads(f.read_text(encoding="utf-8"))
    return None


def _resume_clock(resume: Path, wall0: float, cpu0: float) -> tuple[float, float]:
    """Count the time already spent before the checkpoint (``state.json`` / ``summary.json`` beside it),
    so a resumed run reports wall and CPU time from scratch."""
    for name in ("state.json", "summary.json"):
        f = resume.with_name(name)
        if f.exists():
            data = json.loads(f.read_text(encoding="utf-8"))
            return wall0 - data.get("wall_seconds", 0.0), cpu0 - data.get("cpu_seconds", 0.0)
    return wall0, cpu0


def _log_hyperparameters(model: Any, cfg: TrainConfig) -> None:
    """The config as a text table (CleanRL habit): in TensorBoard when present, always in config.toml."""
    rows = "\n".join(f"|{k}|{v}|" for k, v in to_dict(cfg).items())
    try:
        from stable_baselines3.common.logger import TensorBoardOutputFormat

        for fmt in model.logger.output_formats:
            if isinstance(fmt, TensorBoardOutputFormat):
                fmt.writer.add_text("hyperparameters", f"|param|value|\n|-|-|\n{rows}")
    except ImportError:
        return
