"""The takeover benchmark over a grid of turns x table sizes (issue 19 item 2).

    regent eval takeovers --agents ppo:hard,heuristic --turns 2,4,6 --sizes 5,7 --positions 100 --seed 10000

Each cell (ring size, turn) records its positions once (``training.evaluate.record_positions``: every
seat played by ``recorder`` to the orders step of that turn) and hands one seat of each, rotating
over the live seats, to every agent and to the baseline from the very same position
(``training.evaluate.takeover``). Per agent and cell: pairs where the agent's result beats the
baseline's (terminal score), ties, pairs where it is worse, and the better share with its 95%
Wilson interval. A cell whose games rarely last to the turn has fewer positions than asked for
(the recorder tries ``20 x positions`` games): the table says how many pairs each cell holds.
``plot_grid`` draws the grid (a panel per table, the turns across, each agent's share with its interval).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tqdm import tqdm

from agents.registry import make_agent
from engine.errors import ValidationError
from envs.opponents import board_name
from training.evaluate import plot_label, record_positions, takeover
from training.stats import wilson


def takeover_grid(agents: Sequence[str], turns: Sequence[int] = (2, 4, 6), sizes: Sequence[int] = (5, 7),
                  positions: int = 50, baseline: str = "caretaker", recorder: str = "heuristic", seed: int = 0,
                  progress: bool = True, **setup) -> dict[str, Any]:
    """Every agent against ``baseline`` on the takeover positions of every (size, turn) cell."""
    if not agents:
        raise ValidationError("agents", "name at least one agent")
    if positions < 1:
        raise ValidationError("positions", f"at least 1 position per cell, not {positions}")
    for t in turns:
        if not 2 <= t <= 12:
            raise ValidationError("turns", f"a takeover turn is 2..12 (turn 1 is a fresh game), not {t}")
    for n in sizes:
        if not 2 <= n <= 16:
            raise ValidationError("sizes", f"a table of 2..16 players, not {n}")
    for name in (*agents, baseline, recorder):
        make_agent(name)  # an unknown name or a missing checkpoint is refused before any cell is played
    cells = []
    grid = [(n, t) for n in sizes for t in turns]
    for players, turn in tqdm(grid, desc="takeover grid", disable=not progress):
        recorded = record_positions(positions, turn, players, recorder, seed=seed, progress=False, **setup)
        for agent in agents:
            cell = {"agent": agent, "players": players, "turn": turn, "pairs": len(recorded)}
            if recorded:
                r = takeover(agent, baseline, positions, turn, players, recorder, seed=seed, progress=False,
                             recorded=recorded, **setup)
                cell.update({k: r[k] for k in ("better", "same", "worse", "better_how", "diff_score",
                                               "diff_score_ci")})
                cell["better_share"] = r["better"] / r["positions"]
                cell["better_ci"] = list(wilson(r["better"], r["positions"]))
            cells.append(cell)
    return {"mode": "takeover_grid", "agents": list(agents), "baseline": baseline, "recorder": recorder,
            "turns": list(turns), "sizes": list(sizes), "positions": positions, "seed": seed, "setup": setup,
            "cells": cells}


def table_name(players: int, setup: dict[str, Any]) -> str:
    """``ring-5``, ``ring-7-grand+island``...: the built-in board a cell was played on."""
    return board_name(players, setup.get("version", "normal"), bool(setup.get("island")))


def grid_rows(report: dict[str, Any]) -> list[str]:
    """The grid as one markdown table: a row per agent, size and turn."""
    setup = report.get("setup", {})
    rows = [f"takeover grid vs {report['baseline']} (positions recorded by {report['recorder']}, seed "
            f"{report['seed']}, up to {report['positions']} per cell)", "",
            "| agent | table | turn | pairs | better / same / worse | better share [95% CI] |",
            "|---|---|---|---|---|---|"]
    for c in report["cells"]:
        name = table_name(c["players"], setup)
        if not c["pairs"]:
            rows.append(f"| {c['agent']} | {name} | {c['turn']} | 0 | no game lasted to this turn | |")
            continue
        lo, hi = c["better_ci"]
        rows.append(f"| {c['agent']} | {name} | {c['turn']} | {c['pairs']} | "
                    f"{c['better']} / {c['same']} / {c['worse']} | "
                    f"{100 * c['better_share']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] |")
    return rows


def plot_grid(report: dict[str, Any], path: str | Path) -> Path:
    """A PNG of the grid: one panel per table size, the takeover turns across, each agent's better share with
    its 95% Wilson interval (a cell no game lasted to is left out)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes, turns, agents = report["sizes"], report["turns"], report["agents"]
    fig, axes = plt.subplots(1, len(sizes), figsize=(4.5 * len(sizes) + 1, 4.2), sharey=True, squeeze=False)
    width = 0.8 / max(1, len(agents))
    for ax, players in zip(axes[0], sizes, strict=True):
        for k, agent in enumerate(agents):
            xs, ys, lo, hi = [], [], [], []
            for i, turn in enumerate(turns):
                c = next((c for c in report["cells"] if c["agent"] == agent and c["players"] == players
                          and c["turn"] == turn and c["pairs"]), None)
                if c is not None:
                    xs.append(i + (k - (len(agents) - 1) / 2) * width)
                    ys.append(100 * c["better_share"])
                    lo.append(max(0.0, 100 * (c["better_share"] - c["better_ci"][0])))  # 0 pairs better: 0 - 1e-17
                    hi.append(max(0.0, 100 * (c["better_ci"][1] - c["better_share"])))
            ax.bar(xs, ys, width, yerr=[lo, hi], capsize=3, label=plot_label(agent, 40) if ax is axes[0][0] else None)
        ax.axhline(50, color="black", lw=0.8, ls="--")
        ax.set_xticks(range(len(turns)), [f"turn {t}" for t in turns])
        ax.set_title(table_name(players, report.get("setup", {})))
        ax.set_ylim(0, 100)
    axes[0][0].set_ylabel(f"% of pairs better than the {report['baseline']} (95% CI)")
    fig.legend(loc="lower center", ncol=min(3, len(agents)), fontsize=8, frameon=False)
    fig.suptitle(f"Takeovers vs {report['baseline']}: positions recorded by {report['recorder']}, "
                 f"seed {report['seed']}, up to {report['positions']} per cell", fontsize=10)
    fig.tight_layout(rect=(0, 0.12, 1, 1))
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out
