"""Every game the rules allow, and what a seat filler must do in each (issue 19's grid).

One seat of each setting is the measured agent (rotating), every other seat a heuristic; the same
games (same seeds) are played again with the heuristic in that seat, so the two rates, and the
two tables' Dragon wins, are paired. Targets, judged on the point estimate:

- ``share`` settings (ring-5, ring-7, ring-10, Grand, factions, the Island): a win rate at least
  ``SHARE_FACTOR`` times a fair share (1 / sides);
- ``heuristic`` settings (2, 3 and 16 players, teams of 2 and 3): at least the heuristic's rate in
  the same seat, with the lower end of its 95% interval above the heuristic's point estimate;
- every setting: the Dragon wins no more of the agent's games than of the all-heuristic ones.

    regent eval settings --agent policy:checkpoints/protectors-ppo-v4/model.zip --games 200 \
        --out runs/settings-v4.json

The heuristic's side is cached in ``settings-heuristic.json`` beside ``--out``: it does not depend on
the agent measured, only on the setting, the games and the seed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.errors import ValidationError
from training.evaluate import seat_vs_field
from training.ship import fair_share
from training.stats import wilson

EVAL_SEED = 10_000  # evaluation seeds start here: training never plays these games
SHARE_FACTOR = 1.5
EPS = 1e-9  # 60 of 200 games is 1.5 x 20%, whatever the floating point says
SHARE, HEURISTIC = "share", "heuristic"

SETTINGS: list[tuple[str, dict[str, Any], str]] = [  # (label, setup, which target)
    ("2 players", {"players": 2}, HEURISTIC),
    ("3 players", {"players": 3}, HEURISTIC),
    ("ring-5", {"players": 5}, SHARE),
    ("ring-7", {"players": 7}, SHARE),
    ("ring-10", {"players": 10}, SHARE),
    ("16 players", {"players": 16}, HEURISTIC),
    ("Grand (ring-5-grand)", {"players": 5, "version": "grand"}, SHARE),
    ("factions (6 players)", {"players": 6, "factions": True}, SHARE),
    ("the Island (5 players)", {"players": 5, "island": True}, SHARE),
    ("teams of 2 (6 players)", {"players": 6, "teams": 2}, HEURISTIC),
    ("teams of 3 (6 players)", {"players": 6, "teams": 3}, HEURISTIC),
]
LABELS = [label for label, _, _ in SETTINGS]


def command(spec: str, setup: dict[str, Any], games: int, seed: int = EVAL_SEED) -> str:
    extra = "".join(f" --{k}" if v is True else f" --{k} {v}" for k, v in setup.items() if k != "players")
    return f"regent eval field --agent {spec} --field heuristic --games {games} --players {setup['players']} " \
           f"--seed {seed}{extra}"


def side(report: dict[str, Any], command_line: str) -> dict[str, Any]:
    """The figures of one side of a setting (``seat_vs_field``'s report, trimmed)."""
    n = report["games"]
    dragon = report["ended"].get("dragon", 0)
    return {"wins": report["wins"], "n": n, "rate": report["win_rate"], "ci": list(report["win_ci"]),
            "dragon": dragon, "dragon_rate": dragon / n, "dragon_ci": list(wilson(dragon, n)),
            "vp_share": report["vp_share"], "ended": report["ended"], "command": command_line,
            "dragon_games": [i for i, d in enumerate(report["detail"]) if d["how"] == "dragon"]}


def paired_dragon(mine: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
    """The agent's tables' Dragon rate minus the all-heuristic ones', paired by game (same seeds), with
    a 95% normal interval of the per-game differences, kept inside [-1, 1] (a difference of two rates cannot
    leave it; with a handful of games the normal interval would)."""
    n = mine["n"]
    a, b = set(mine["dragon_games"]), set(base["dragon_games"])
    diffs = [(i in a) - (i in b) for i in range(n)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    half = 1.96 * (var / n) ** 0.5
    return {"diff": mean, "ci": [max(-1.0, mean - half), min(1.0, mean + half)]}


def judge(kind: str, setup: dict[str, Any], mine: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
    """The setting's targets, met or not, each with what it wanted and what was measured."""
    fair = fair_share(setup)
    if kind == SHARE:
        wanted = SHARE_FACTOR * fair
        win = {"wanted": f">= {SHARE_FACTOR:g}x a fair share ({wanted:.1%})", "met": mine["rate"] >= wanted - EPS,
               "short_by": max(0.0, wanted - mine["rate"])}
    else:
        h = base["rate"]
        win = {"wanted": f">= the heuristic ({h:.1%}), lower CI above it",
               "met": mine["rate"] >= h and mine["ci"][0] > h, "short_by": max(0.0, h - mine["ci"][0])}
    dragon = paired_dragon(mine, base)
    return {"fair_share": fair, "win": win,
            "dragon": {"wanted": f"<= the all-heuristic table's ({base['dragon_rate']:.1%})",
                       "met": mine["dragon_rate"] <= base["dragon_rate"], **dragon}}


def _read_cache(cache: Path | None) -> dict[str, Any]:
    """The heuristic sides measured before (``{label|games|seed: side}``), or a clear error naming the file."""
    if not cache or not cache.exists():
        return {}
    try:
        cached = json.loads(cache.read_text())
    except (OSError, ValueError) as e:
        raise ValidationError("cache", f"cannot read {cache}: {e} (delete it to measure the heuristic again)") from None
    if not isinstance(cached, dict):
        raise ValidationError("cache", f"{cache} is not a settings-heuristic cache (delete it to measure again)")
    return cached


def measure(spec: str, games: int, seed: int = EVAL_SEED, only: list[str] | None = None,
            cache: Path | None = None, progress: bool = True) -> dict[str, Any]:
    """Every setting (or ``only`` those labels): the agent and the heuristic in the same seat of the same
    games, and the targets judged."""
    if games < 1:
        raise ValidationError("games", f"play at least one game per setting, not {games}")
    unknown = [s for s in only or () if s not in LABELS]
    if unknown:
        raise ValidationError("only", f"unknown setting {unknown[0]!r}; the settings are: {'; '.join(LABELS)}")
    cached = _read_cache(cache)
    out: dict[str, Any] = {"agent": spec, "games": games, "seed": seed, "settings": {}}
    for label, setup, kind in SETTINGS:
        if only and label not in only:
            continue
        key = f"{label}|{games}|{seed}"
        if key not in cached:
            r = seat_vs_field("heuristic", ["heuristic"], games, seed=seed, progress=progress, **setup)
            cached[key] = side(r, command("heuristic", setup, games, seed))
            if cache:
                cache.write_text(json.dumps(cached))
        base = cached[key]
        mine = side(seat_vs_field(spec, ["heuristic"], games, seed=seed, progress=progress, **setup),
                    command(spec, setup, games, seed))
        out["settings"][label] = {"setup": setup, "kind": kind, "agent": mine, "heuristic": base,
                                  "targets": judge(kind, setup, mine, base)}
    return out


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def table_rows(report: dict[str, Any]) -> list[str]:
    """A markdown table of the grid: both sides, the targets and whether each was met."""
    rows = ["| setting | agent wins [95% CI] | heuristic in that seat | win target | met | Dragon: agent's tables"
            " vs all-heuristic (paired diff [95% CI]) | met |", "|---|---|---|---|---|---|---|"]
    for label, s in report["settings"].items():
        a, h, t = s["agent"], s["heuristic"], s["targets"]
        d = t["dragon"]
        rows.append(f"| {label} | {a['wins']}/{a['n']}: {pct(a['rate'])} [{pct(a['ci'][0])}, {pct(a['ci'][1])}] | "
                    f"{pct(h['rate'])} | {t['win']['wanted']} | {'yes' if t['win']['met'] else '**no**'} | "
                    f"{pct(a['dragon_rate'])} vs {pct(h['dragon_rate'])} ({100 * d['diff']:+.1f} "
                    f"[{100 * d['ci'][0]:+.1f}, {100 * d['ci'][1]:+.1f}]) | {'yes' if d['met'] else '**no**'} |")
    return rows


def save_settings_plot(report: dict[str, Any], path: Path | str) -> Path:
    """One row per setting: the agent's win rate (95% CI) beside the heuristic's in the same seat, the
    target as a tick; and the two tables' Dragon rates. Met targets in green, missed in red."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    labels = list(report["settings"])
    rows = [report["settings"][k] for k in labels]
    y = list(range(len(labels)))
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(13, 0.5 * len(labels) + 2), sharey=True)
    for i, s in enumerate(rows):
        a, h, t = s["agent"], s["heuristic"], s["targets"]
        colour = "#228833" if t["win"]["met"] else "#cc3311"
        err = [[100 * (a["rate"] - a["ci"][0])], [100 * (a["ci"][1] - a["rate"])]]
        ax.errorbar(100 * a["rate"], i + 0.15, xerr=err, fmt="o", color=colour, capsize=3,
                    label="agent (95% CI)" if i == 0 else None)
        ax.plot(100 * h["rate"], i - 0.15, "s", color="#777777", label="heuristic in that seat" if i == 0 else None)
        goal = SHARE_FACTOR * t["fair_share"] if s["kind"] == SHARE else h["rate"]
        ax.plot([100 * goal] * 2, [i - 0.35, i + 0.35], color="black", lw=1.5, label="target" if i == 0 else None)
        d = t["dragon"]
        bx.barh(i + 0.18, 100 * a["dragon_rate"], height=0.34, color="#228833" if d["met"] else "#cc3311",
                label="agent's tables" if i == 0 else None)
        bx.barh(i - 0.18, 100 * h["dragon_rate"], height=0.34, color="#bbbbbb",
                label="all-heuristic tables" if i == 0 else None)
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.set_xlabel("% of games the seat (or its team) wins")
    ax.set_title("Win rate against heuristics (green: target met)")
    ax.legend(fontsize=8, loc="lower right")
    bx.set_xlabel("% of games the Dragon wins (everyone loses)")
    bx.set_title("Dragon wins: no more than the all-heuristic table")
    bx.legend(fontsize=8, loc="lower right")
    agent = report["agent"]
    if agent.startswith("policy:") and agent.count("/") > 2:  # a run's checkpoint: its last folders are enough
        agent = "policy:.../" + "/".join(agent.split("/")[-3:])
    fig.suptitle(f"{agent}: {len(labels)} settings, {report['games']} games each, "
                 f"seeds from {report['seed']}")
    fig.tight_layout()
    fig.savefig(p, dpi=100)
    plt.close(fig)
    return p
