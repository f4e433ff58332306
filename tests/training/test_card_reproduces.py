"""Every figure a shipped model card reports comes back from its own ``regent eval`` command (issue 7,
evidence 2: "regent eval reproduces the model card's figures within their CIs from a clean checkout").

Each card lists its measurements in ``model_card.json`` with the command that made them; this runs each
command through the ``regent`` CLI, as a user would, and checks the rate it prints against the card's
95% interval. The games are seeded, so on this machine they come back identical; the interval is the
promise across machines (torch's arithmetic may differ in the last bits elsewhere)."""

from __future__ import annotations

import contextlib
import io
import json
import shlex
from pathlib import Path

import pytest

from service.cli import main

ROOT = Path(__file__).parents[2]
CARDS = sorted((ROOT / "checkpoints").glob("*/model_card.json"))


@pytest.fixture(autouse=True)
def _no_plots(monkeypatch):
    """The commands' ``--out`` report is read (it is what a user reads); the PNG a field or takeover report also gets
    (0.2 s a command, ~150 commands) is checked by tests/agents/test_evaluate.py, not here: not drawn."""
    import training.evaluate

    monkeypatch.setattr(training.evaluate, "save_plot", lambda report, path: path)


def _figures(quick: bool = False):
    """Every figure of every card; a card with ``quick_checks`` has its full commands opt-in (slow) and each
    figure's first games checked exactly by default (``quick``: only those figures)."""
    for path in CARDS:
        card = json.loads(path.read_text())
        entries = dict(card["evaluation"])
        for level, d in card.get("levels", {}).items():
            entries.update({f"{level}: {k}": v for k, v in d.items() if isinstance(v, dict) and "command" in v})
        for label, d in card.get("coverage", {}).items():  # the games it handles: the policy and the heuristic
            entries.update({f"{label}: policy": d, f"{label}: heuristic": d["heuristic"]})
        marks = [pytest.mark.slow] if card.get("quick_checks") and not quick else []
        for name, figure in entries.items():
            if not quick or "check" in figure:
                yield pytest.param(figure, id=f"{path.parent.name}: {name}", marks=marks)


def _tables():
    for path in CARDS:
        for entry in json.loads(path.read_text()).get("table", []):
            yield pytest.param(entry, id=f"{path.parent.name}: table {entry['title']}")


def test_the_shipped_cards_have_figures_with_commands():
    assert CARDS, "no model card under checkpoints/"
    assert all(p.values[0]["command"].startswith("regent eval ") for p in _figures())


@pytest.mark.parametrize("figure", list(_figures()))
def test_figure_comes_back_from_its_command(figure, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)  # the commands name checkpoints by repository-relative paths
    out = tmp_path / "report.json"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main([*shlex.split(figure["command"])[1:], "--quiet", "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    if report["mode"] == "takeover":
        n, rate = report["positions"], report["better"] / report["positions"]
    else:
        n, rate = report["games"], report["win_rate"]
    lo, hi = figure["ci"]
    assert n == figure["n"]
    assert lo - 1e-9 <= rate <= hi + 1e-9, f"{figure['command']}: {rate:.3f} outside the card's [{lo:.3f}, {hi:.3f}]"


@pytest.mark.parametrize("figure", list(_figures(quick=True)))
def test_figure_quick_check_comes_back_exactly(figure, tmp_path, monkeypatch):
    """A card measured at size (issue 19's v4) checks each figure by default on its command's first games:
    game g (or position g) is the same in any run, so the count must come back exactly; the whole command is
    the opt-in slow test above."""
    monkeypatch.chdir(ROOT)
    check = figure["check"]
    args = shlex.split(figure["command"])[1:]
    key = "--positions" if args[1] == "takeover" else "--games"
    args[args.index(key) + 1] = str(check["n"])
    out = tmp_path / "report.json"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main([*args, "--quiet", "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    count = report["better"] if report["mode"] == "takeover" else report["wins"]
    assert count == check["count"] and check["count"] <= round(figure["rate"] * figure["n"])


def _run_table(command: str, tmp_path, games: int | None = None) -> dict:
    args = shlex.split(command)[1:]
    if games is not None:
        args[args.index("--games") + 1] = str(games)
    out = tmp_path / "table.json"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main([*args, "--quiet", "--out", str(out)]) == 0
    return json.loads(out.read_text())["tables"]


@pytest.mark.parametrize("entry", list(_tables()))
def test_table_check_comes_back_exactly(entry, tmp_path, monkeypatch):
    """The quick check (issue 18): the card's command cut to its first games gives exactly the counts the
    card recorded from the full run (game g is the same game in any run: common random numbers). Any
    change to how these games play fails here; re-measure the card then (docs/table-health.md)."""
    monkeypatch.chdir(ROOT)
    check = entry["check"]
    tables = _run_table(entry["command"], tmp_path, check["games"])
    got = {f: [t["filler"]["wins"], t["others"]["wins"], t["dragon"]["wins"]] for f, t in tables.items()}
    assert got == check["counts"]


def test_table_checks_agree_with_the_full_figures():
    """The recorded check is a real slice of the card's figures: no more wins than the full run has."""
    for p in _tables():
        entry = p.values[0]
        assert 0 < entry["check"]["games"] <= min(f["filler"]["n"] for f in entry["fillers"].values())
        for f, (own, others, dragon) in entry["check"]["counts"].items():
            want = entry["fillers"][f]
            assert own + others + dragon <= entry["check"]["games"]
            for key, k in (("filler", own), ("others", others), ("dragon", dragon)):
                assert k <= round(want[key]["rate"] * want[key]["n"])


@pytest.mark.slow
@pytest.mark.parametrize("entry", list(_tables()))
def test_table_figures_come_back_from_their_command(entry, tmp_path, monkeypatch):
    """Every filler's own wins, the other seats' wins and the Dragon's wins (issue 18), within the card's CIs:
    the whole command (a few minutes: opt-in, pytest -m slow)."""
    monkeypatch.chdir(ROOT)
    tables = _run_table(entry["command"], tmp_path)
    assert set(tables) == set(entry["fillers"])
    for filler, want in entry["fillers"].items():
        for key in ("filler", "others", "dragon"):
            got, (lo, hi) = tables[filler][key], want[key]["ci"]
            assert got["games"] == want[key]["n"]
            assert lo - 1e-9 <= got["rate"] <= hi + 1e-9, f"{filler} {key}: {got['rate']:.3f} outside [{lo}, {hi}]"
        lo, hi = want["kingmaking_ci"]
        assert lo - 1e-9 <= tables[filler]["kingmaking"] <= hi + 1e-9, f"{filler} kingmaking spread"
