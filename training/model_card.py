"""Model cards for shipped checkpoints: ``model_card.json`` (the data) and ``MODEL_CARD.md`` (for people).

A card holds: what the policy is and which games it handles, the training config and cost (steps,
wall and CPU minutes), the opponents it met (league mix and admitted snapshots), every measured
evaluation with its 95% confidence interval and the command that reproduces it, the difficulty
levels with their measured strength, and each target of issue 7 with met / missed-by.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

CARD_JSON = "model_card.json"
CARD_MD = "MODEL_CARD.md"


def pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def ci_text(m: dict[str, Any]) -> str:
    """``62.0% [48.1%, 74.2%] (n=50)`` from a measurement with ``rate``, ``ci`` and ``n``."""
    lo, hi = m.get("ci", (None, None))
    return f"{pct(m.get('rate'))} [{pct(lo)}, {pct(hi)}] (n={m.get('n', '?')})"


def write_card(out_dir: str | Path, card: dict[str, Any]) -> tuple[Path, Path]:
    """Write both files; returns their paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    j = out / CARD_JSON
    j.write_text(json.dumps(card, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    md = out / CARD_MD
    md.write_text(render_markdown(card), encoding="utf-8")
    return j, md


def render_markdown(card: dict[str, Any]) -> str:
    lines = [f"# Model card: {card['name']}", "", card.get("summary", ""), ""]
    from agents.checkpoints import LEVELS

    served = any(lv.checkpoint == card.get("name") for lv in LEVELS.values())
    if served:  # behind the shipped levels
        use = "agent = make_agent(\"ppo\")        # normal; also \"ppo:easy\", \"ppo:hard\""
    else:  # a checkpoint of its own: seated by its spec
        model = card.get("model") or f"checkpoints/{card.get('name')}/model.zip"  # older cards: the shipped place
        use = f"agent = make_agent(\"policy:{model}\")  # greedy; @1 samples"
    lines += ["## Use", "", "```python", "from agents.registry import make_agent", use, "```", ""]
    if card.get("handles"):
        lines += ["## Games it handles", ""]
        lines += [f"- {k}: {v}" for k, v in card["handles"].items()]
        lines.append("")
    tr = card.get("training", {})
    if tr:
        lines += ["## Training", "",
                  f"- steps: {tr.get('steps')}", f"- wall clock: {tr.get('wall_minutes')} min",
                  f"- CPU time (learner + env workers): {tr.get('cpu_minutes')} min on {tr.get('machine', '?')}",
                  f"- config: `{tr.get('config_file')}` (copied as `config.toml` here)",
                  f"- command: `{tr.get('command')}`"]
        lines += [f"- {tr['time_note']}"] if tr.get("time_note") else []
        im = tr.get("imitation")
        if im:
            ok, n = im["decisions_rebuilt_exactly"]
            teacher = f"the heuristic with {im['expert']}" if im.get("expert") else "the heuristic"
            lines += [f"- warm start: behaviour cloning from {teacher} on {im['samples']} recorded choices "
                      f"({im['games']} games + {im['dagger_rounds']} DAgger round(s) of {im['dagger_games']} games, "
                      f"{im['seconds'] / 60:.1f} min); the cloned policy picks the teacher's choice on "
                      f"{pct(im['held_out_accuracy'])} of held-out states; the planner rebuilds {pct(ok / n)} of "
                      f"the teacher's decisions exactly (the rest differ only where the action space cannot say it: "
                      f"bid buckets, units beyond a reduced supply limit, a faction left to chance)"]
        lines += [""]
        if tr.get("opponents"):
            lines += ["Opponent mix at the end of training (probability per opponent seat):", ""]
            lines += [f"- `{k}`: {v:.2f}" for k, v in tr["opponents"].items()]
            lines.append("")
        if tr.get("league"):
            lines += ["League checks (candidate vs incumbent on the same games; score = env terminal reward):", "",
                      "| step | candidate | incumbent | joined | win vs caretakers | win vs heuristics |",
                      "|---|---|---|---|---|---|"]
            for h in tr["league"]:
                ex = h.get("extra", {})
                inc = h["incumbent_spec"]
                inc = f"snapshot {Path(inc.split(':', 1)[1]).parent.name}" if inc.startswith("policy:") else inc
                lines.append(f"| {h['step']} | {h['candidate']:.3f} | {h['incumbent']:.3f} ({inc}) | "
                             f"{'yes' if h['joined'] else 'no'} | {pct(ex.get('win_vs_caretaker'))} | "
                             f"{pct(ex.get('win_vs_heuristic'))} |")
            lines.append("")
    ev = card.get("evaluation", {})
    if ev:
        lines += ["## Evaluation (95% confidence intervals)", "",
                  "| measurement | result | command |", "|---|---|---|"]
        for name, m in ev.items():
            lines.append(f"| {name} | {ci_text(m)} | `{m.get('command', '')}` |")
        lines.append("")
    if card.get("levels"):
        lines += ["## Difficulty levels", ""]
        if not served:
            now = ", ".join(sorted({lv.checkpoint for lv in LEVELS.values()}))
            lines += [f"This checkpoint's own levels (`policy:<its model.zip>@T`); the registry's `ppo:*` levels play "
                      f"{now} (`agents/checkpoints.py`).", ""]
        lines += ["| level | how | win vs 4 caretakers | win vs 4 heuristics | VP share vs 4 heuristics |",
                  "|---|---|---|---|---|"]
        for name, lv in card["levels"].items():
            vh = lv.get("vs_heuristic", {})
            lo, hi = vh.get("vp_share_ci", (None, None))
            lines.append(f"| `{name}` | {lv.get('how', '')} | {ci_text(lv.get('vs_caretaker', {}))} | "
                         f"{ci_text(vh)} | {pct(vh.get('vp_share'))} [{pct(lo)}, {pct(hi)}] |")
        lines.append("")
    for entry in card.get("table", []):
        lines += [f"## What it does to the table: {entry['title']}", "",
                  "One filler in a vacant seat (rotating) among heuristics standing in for the humans; the same "
                  "games for every filler (docs/table-health.md). Rates with 95% intervals.", "",
                  "| filler | filler wins | the other seats win | Dragon wins (everyone loses) | "
                  "other seats' wins per seat by distance | kingmaking spread [95% interval] |",
                  "|---|---|---|---|---|---|"]
        for name, f in entry["fillers"].items():
            dist = " / ".join(f"{d}: {pct(v['rate'])}" for d, v in f.get("by_distance", {}).items())
            klo, khi = f.get("kingmaking_ci", (f["kingmaking"], f["kingmaking"]))
            lines.append(f"| `{name}` | {ci_text(f['filler'])} | {ci_text(f['others'])} | {ci_text(f['dragon'])} | "
                         f"{dist} | {f['kingmaking']:.2f} [{klo:.2f}, {khi:.2f}] |")
        lines += ["", f"Reproduce: `{entry['command']}`", ""]
    if card.get("targets"):
        lines += ["## Targets (issue 7)", "", "| target | wanted | measured | met | gap / next step |",
                  "|---|---|---|---|---|"]
        for t in card["targets"]:
            lines.append(f"| {t['name']} | {t['wanted']} | {t['measured']} | {'yes' if t['met'] else 'no'} | "
                         f"{t.get('note', '')} |")
        lines.append("")
    if card.get("limitations"):
        lines += ["## Limitations", ""]
        lines += [f"- {x}" for x in card["limitations"]]
        lines.append("")
    return "\n".join(lines)
