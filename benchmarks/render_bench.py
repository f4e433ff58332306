"""How long a picture takes: a board after a turn for 5, 7 and 16 seats (Grand, the Island), as SVG and
as PNG, in the GM and channel views, and the whole game as an animated GIF.

    python -m benchmarks.render_bench [--rounds 5]

Each picture is drawn ``rounds`` times from the same game (the replay to "after turn N" included, as
``regent render --turn N`` and ``game.render`` do it); the median wall time and CPU time per picture are
printed, with the machine's load average (other jobs share its cores). The GIF is timed once per
game (a full replay and a frame per turn, then the summary), with its size against Discord's 10 MiB.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import time
from collections.abc import Callable

from PIL import Image

from service.render import render_animation, render_board, render_summary
from service.render.animate import MAX_BYTES
from service.render.examples import lively, longest

BOARDS = (("ring-5", 5, 2, 1), ("ring-7", 7, 2, 2), ("ring-16-grand+island", 16, 5, 4))


def timed(fn: Callable[[], bytes], rounds: int) -> tuple[float, float, int]:
    """Median wall and CPU seconds of ``fn`` over ``rounds`` calls (after one warm-up), and its size."""
    size = len(fn())
    walls, cpus = [], []
    for _ in range(rounds):
        w, c = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return statistics.median(walls), statistics.median(cpus), size


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; median of {args.rounds} rounds")
    print(f"{'picture':44} {'wall ms':>8} {'cpu ms':>8} {'KB':>6}")
    for board, seats, turn, battles in BOARDS:
        game = lively(board, seats, turn=turn, battles=battles)
        for view in ("gm", "channel"):
            for fmt in ("svg", "png"):
                wall, cpu, size = timed(lambda g=game, t=turn, v=view, f=fmt: render_board(g, None, t, f, view=v),
                                        args.rounds)
                name = f"{board} ({seats} seats) {view} {fmt}"
                print(f"{name:44} {wall * 1e3:8.0f} {cpu * 1e3:8.0f} {size / 1024:6.0f}")
        now, _, size = timed(lambda g=game: render_board(g, None, fmt="png"), args.rounds)
        print(f"{f'{board} now (no replay) gm png':44} {now * 1e3:8.0f} {'':>8} {size / 1024:6.0f}")
    for board, seats in (("ring-7", 7), ("ring-16-grand+island", 16)):
        game = longest(board, seats, range(1, 9))
        wall, cpu, size = timed(lambda g=game: render_summary(g, None, fmt="png", view="channel"), 1)
        print(f"{f'{board} summary png ({game.state.turn} turns)':44} {wall * 1e3:8.0f} {cpu * 1e3:8.0f} "
              f"{size / 1024:6.0f}")
        wall, cpu, size = timed(lambda g=game: render_animation(g, view="channel"), 1)
        frames = Image.open(io.BytesIO(render_animation(game, view="channel"))).n_frames
        print(f"{f'{board} GIF, {frames} frames':44} {wall * 1e3:8.0f} {cpu * 1e3:8.0f} {size / 1024:6.0f}"
              f"  ({wall / frames * 1e3:.0f} ms a frame; {size / MAX_BYTES:.1%} of 10 MiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
