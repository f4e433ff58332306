"""A speed change's ratio on decision latency: ``benchmarks.level_bench`` run in two source trees (before and after the
change, each built with ``tools/build_fast.py`` in a git worktree of its own) on the same positions, one after the
other, and the before/after ratio of each figure (above 1: faster after).

    git worktree add /tmp/before <commit> && (cd /tmp/before && PYTHONPATH=/tmp/before python tools/build_fast.py)
    .venv/bin/python -m benchmarks.level_ratio /tmp/before /tmp/after [--levels expert] [--sizes 16] [--positions 6]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from typing import Any

FIGURES = ("median_ms", "p90_ms", "max_ms", "cpu_median_ms", "cpu_max_ms")


def run(root: str, bench_args: list[str]) -> list[dict[str, Any]]:
    """level_bench's rows in the tree at ``root`` (a child process importing that tree's code)."""
    script = ("import json, sys; from benchmarks.level_bench import main; "
              "rows = main(sys.argv[1:]); print('ROWS ' + json.dumps(rows))")
    done = subprocess.run([sys.executable, "-c", script, *bench_args], cwd=root, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": root}, check=True)
    line = next(ln for ln in done.stdout.splitlines() if ln.startswith("ROWS "))
    return json.loads(line[5:])


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--levels", default="expert")
    ap.add_argument("--sizes", default="16")
    ap.add_argument("--positions", default="6")
    ap.add_argument("--turns", default="2,4,6")
    args = ap.parse_args(argv)
    bench = ["--levels", args.levels, "--sizes", args.sizes, "--positions", args.positions, "--turns", args.turns]
    before, after = run(args.before, bench), run(args.after, bench)
    out = []
    print(f"ring {args.sizes}, {args.positions} positions per turn ({args.turns}); before / after = ratio")
    for b, a in zip(before, after, strict=True):
        row = {"level": b["level"], **{f: (b[f], a[f], b[f] / a[f]) for f in FIGURES}}
        out.append(row)
        print(f"{b['level']:<8} " + "  ".join(f"{f} {b[f]:.0f}/{a[f]:.0f}={b[f] / a[f]:.2f}x" for f in FIGURES))
    return out


if __name__ == "__main__":
    main()
