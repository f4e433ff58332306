"""How long reading a DM takes: the sample DMs players write, and the worst DMs the caps let through.

    python -m benchmarks.dm_bench [--rounds 200]

A DM is read by ``engine.protectors.dm_read.read_dm`` (markup, greetings, ambiguity checks, step-aware
errors). The worst cases are as large as ``MAX_DM_CHARS`` / ``MAX_DM_LINES`` / ``MAX_LINE_CHARS``
allow: every line full of orders, every line chatter, every line refused. The peer is reading the same
text's lines with ``str.split`` and one regular expression, the least any reader must do.
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from engine.protectors.dm_read import MAX_DM_CHARS, MAX_DM_LINES, MAX_LINE_CHARS, read_dm

ROOT = Path(__file__).resolve().parent.parent
HEADER = re.compile(r"^\s*={2,}\s*(.+?)\s*={2,}\s*$")
WORD = re.compile(r"\w+")
PLAYERS = {"Alice": "Player#1", "Bob": "Player#2", "Carol": "Player#3", "Dan": "Player#4", "Eve": "Player#5"}


def samples() -> list[tuple[str, str]]:
    """(step, DM text) for each DM of examples/dms."""
    steps = {"turn1-bids.txt": "bid", "turn1-orders.txt": "orders", "turn1-consolidation.txt": "consolidation",
             "turn2-dragon.txt": "dragon", "refused-bids.txt": "bid"}
    out = []
    for name, step in steps.items():
        block: list[str] | None = None
        for line in [*(ROOT / "examples" / "dms" / name).read_text(encoding="utf-8").splitlines(), "== end =="]:
            if HEADER.match(line):
                if block is not None:
                    out.append((step, "\n".join(block)))
                block = []
            elif block is not None:
                block.append(line)
    return out


def worst() -> dict[str, tuple[str, str]]:
    def fill(line: str) -> str:
        n = min(MAX_DM_LINES, MAX_DM_CHARS // (len(line) + 1))
        return "\n".join([line] * n)

    orders = ", ".join(f"March! 1 from P{i} to P{i + 1}" for i in range(1, 40))[: MAX_LINE_CHARS - 30]
    orders = orders[: orders.rfind(",")]
    return {
        "orders (every line full)": ("orders", fill(orders)),
        "chatter (every line)": ("bid", fill("Hi GM, thanks, cheers, bye, regards, good luck all")),
        "refused (every line)": ("orders", fill("Marsh! 1 from P1 to P2, move everything east, " * 8)[:MAX_DM_CHARS]),
        "over the caps": ("bid", "Bid 3\n" * (MAX_DM_CHARS // 6 + 1)),
    }


def timed(fn: Callable[[], object], rounds: int) -> float:
    """Median seconds of ``fn`` over ``rounds`` runs (process CPU time)."""
    runs = []
    for _ in range(rounds):
        t = time.process_time()
        fn()
        runs.append(time.process_time() - t)
    return statistics.median(runs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=200)
    args = ap.parse_args()
    dms = samples()
    read = timed(lambda: [read_dm(t, players=PLAYERS, step=s) for s, t in dms], args.rounds) / len(dms)
    peer = timed(lambda: [[WORD.findall(x) for x in t.split("\n")] for _, t in dms], args.rounds) / len(dms)
    print(f"sample DMs ({len(dms)}): {read * 1e6:.0f} us per DM; split+regex peer {peer * 1e6:.1f} us "
          f"({read / peer:.0f}x)")
    for name, (step, text) in worst().items():
        t = timed(lambda text=text, step=step: read_dm(text, players=PLAYERS, step=step), max(3, args.rounds // 20))
        print(f"worst case, {name}: {len(text)} chars, {text.count(chr(10)) + 1} lines: {t * 1000:.1f} ms")


if __name__ == "__main__":
    main()
