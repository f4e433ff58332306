"""A model soup: one network whose weights are the mean of several checkpoints' weights.

    python -m training.soup OUT.zip IN1.zip IN2.zip ... [--keep-optimizer]

Checkpoints fine-tuned from one network (v5's runs all start from v4, ``init_from``) stay in one basin of
the loss, so the mean of their weights plays at least as well as each and usually better (Wortsman et
al. 2022, "Model soups"), at the cost of one network: the same size, the same speed, and the same
``policy:OUT.zip`` spec as any checkpoint. ``agents.policy``'s ensembles (``policy:a.zip+b.zip``) average
the networks' outputs instead, at one inference per member. Every input must have the same parameter
names and shapes (the same ``net_arch`` and spaces); one that does not is refused by name. The soup is
written with the first input's settings (hyperparameters, spaces) and, unless ``--keep-optimizer``,
without the Adam state, which the mean of weights does not match.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from engine.errors import ValidationError


def soup(out: str | Path, inputs: list[str | Path], keep_optimizer: bool = False) -> dict[str, Any]:
    """Write the parameter mean of ``inputs`` to ``out``; returns what was done (members, parameter count)."""
    if len(inputs) < 2:
        raise ValidationError("soup", f"a soup needs at least two checkpoints, got {len(inputs)}")
    for p in inputs:
        if not Path(p).is_file():
            raise ValidationError("soup", f"no checkpoint at {p}")
    first = load_checkpoint(inputs[0])
    base = first.policy.state_dict()
    shapes = {k: v.shape for k, v in base.items()}
    total = {k: v.detach().double().clone() for k, v in base.items()}
    for p in inputs[1:]:
        sd = load_checkpoint(p).policy.state_dict()
        theirs = {k: v.shape for k, v in sd.items()}
        if theirs != shapes:
            odd = sorted(set(theirs.items()) ^ set(shapes.items()))[:1]
            raise ValidationError("soup", f"{p} does not fit {inputs[0]}'s network (first difference: {odd}); "
                                          "every member needs the same net_arch and spaces")
        for k, v in sd.items():
            total[k] += v.detach().double()
    mean = {k: (v / len(inputs)).to(base[k].dtype) for k, v in total.items()}
    first.policy.load_state_dict(mean)
    try:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        first.save(str(out))
        if not keep_optimizer:
            from training.ship import slim_checkpoint

            slim_checkpoint(Path(out))
    except OSError as err:
        raise ValidationError("soup", f"{out}: cannot write ({err.strerror or err})") from None
    return {"out": str(out), "members": [str(p) for p in inputs],
            "parameters": int(sum(v.numel() for v in mean.values()))}


def load_checkpoint(path: str | Path, what: str = "soup") -> Any:
    """A checkpoint as MaskablePPO, or a refusal naming the file SB3 cannot read."""
    from sb3_contrib import MaskablePPO

    from training.train import first_line

    try:
        return MaskablePPO.load(str(path), device="cpu")
    except (ValueError, KeyError, OSError, EOFError, RuntimeError) as err:
        why = first_line(err)
        raise ValidationError(what, f"{path} is not a MaskablePPO checkpoint SB3 can read ({why})") from None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", help="the soup's model.zip")
    ap.add_argument("inputs", nargs="+", help="two or more checkpoints (model.zip) of one network shape")
    ap.add_argument("--keep-optimizer", action="store_true", help="keep the first input's Adam state")
    args = ap.parse_args(argv)
    try:
        print(json.dumps(soup(args.out, args.inputs, args.keep_optimizer), indent=1))
    except ValidationError as err:
        print(f"training.soup: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
