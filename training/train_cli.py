"""``regent train``: train a policy from a checked-in TOML config (plugs into the regent CLI)."""

from __future__ import annotations

import argparse
import json
import sys


def register_train(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("train", help="train a seat-filler policy (MaskablePPO) from a TOML config",
                              description="Train a seat-filler policy with MaskablePPO from a TOML config "
                                          "(see training/configs/ and docs/training.md).")
    p.add_argument("--config", required=True, help="TOML config, e.g. training/configs/protectors-ppo-v1.toml")
    p.add_argument("--steps", type=int, default=None, help="override total_timesteps")
    p.add_argument("--seed", type=int, default=None, help="override the seed")
    p.add_argument("--n-envs", type=int, default=None, help="override n_envs")
    p.add_argument("--runs-dir", default=None, help="override runs_dir (default runs/)")
    p.add_argument("--save-dir", default=None, help="also copy the final model.zip and config here")
    p.add_argument("--resume", default=None, help="continue from a checkpoint model.zip (league.json beside it)")
    p.add_argument("--until", type=int, default=None,
                   help="stop at the first rollout boundary at or after this many steps (a resumable checkpoint is "
                        "written there); "
                        "total_timesteps still sets the curriculum, so --resume goes on as one run would")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=run_train)


def run_train(args: argparse.Namespace) -> int:
    from engine.errors import RegentError
    from training.config import load_config

    try:
        cfg = load_config(args.config, total_timesteps=args.steps, seed=args.seed, n_envs=args.n_envs,
                          runs_dir=args.runs_dir, save_dir=args.save_dir,
                          progress=False if args.no_progress else None)
    except RegentError as err:
        print(f"regent train: {err}", file=sys.stderr)
        return 2
    from training.train import main

    try:
        summary = main(cfg, resume=args.resume, until=args.until)
    except RegentError as err:
        print(f"regent train: {err}", file=sys.stderr)
        return 2
    keys = ("run_dir", "model", "steps", "steps_this_run", "wall_seconds", "cpu_seconds", "resumed_exactly")
    print(json.dumps({k: summary[k] for k in keys}, indent=1))
    return 0
