"""The takeover grid (``regent eval takeovers``, issue 19 item 2) on a tiny grid: every cell is the
single-cell takeover on the same positions, counts add up, the table shows each cell, bad input is named."""

from __future__ import annotations

import json

import pytest

from engine.errors import ValidationError
from training.evaluate import takeover
from training.takeover_grid import grid_rows, takeover_grid

AGENTS = ("heuristic", "random")
TINY = {"turns": (2, 3), "sizes": (3, 5), "positions": 3, "seed": 5, "progress": False}


@pytest.fixture(scope="module")
def report():
    return takeover_grid(AGENTS, **TINY)


def test_one_cell_per_agent_size_and_turn_with_consistent_counts(report):
    cells = report["cells"]
    assert [(c["players"], c["turn"], c["agent"]) for c in cells] == [
        (n, t, a) for n in TINY["sizes"] for t in TINY["turns"] for a in AGENTS]
    for c in cells:
        assert 1 <= c["pairs"] <= TINY["positions"]
        assert c["better"] + c["same"] + c["worse"] == c["pairs"]
        lo, hi = c["better_ci"]
        assert c["better_share"] == c["better"] / c["pairs"] and lo - 1e-9 <= c["better_share"] <= hi + 1e-9


def test_a_cell_is_the_single_takeover_on_the_same_positions(report):
    cell = next(c for c in report["cells"] if (c["agent"], c["players"], c["turn"]) == ("heuristic", 5, 3))
    alone = takeover("heuristic", "caretaker", TINY["positions"], 3, 5, "heuristic", seed=TINY["seed"],
                     progress=False)
    assert (cell["better"], cell["same"], cell["worse"]) == (alone["better"], alone["same"], alone["worse"])
    assert cell["diff_score"] == alone["diff_score"]


def test_the_table_has_a_row_per_cell(report):
    rows = grid_rows(report)
    body = [r for r in rows if r.startswith("| ") and not r.startswith("| agent")]
    assert len(body) == len(report["cells"])
    c = report["cells"][0]
    assert body[0].startswith(f"| heuristic | ring-3 | 2 | {c['pairs']} | {c['better']} / {c['same']} / {c['worse']} |")


@pytest.mark.parametrize("kw, what", [
    ({"turns": (1,)}, "turns"),
    ({"sizes": (17,)}, "sizes"),
    ({"positions": 0}, "positions"),
])
def test_bad_grids_are_named(kw, what):
    with pytest.raises(ValidationError, match=what):
        takeover_grid(AGENTS, **{**TINY, **kw})
    with pytest.raises(ValidationError, match="agents"):
        takeover_grid((), **TINY)


@pytest.mark.parametrize("bad", [
    {"agents": ("heuristic", "nosuchagent")},
    {"agents": ("heuristic", "policy:/nonexistent/model.zip")},
    {"baseline": "nosuchbaseline"},
    {"recorder": "nosuchrecorder"},
])
def test_every_name_is_checked_before_any_cell_is_played(bad, monkeypatch):
    import training.takeover_grid as grid

    def no_recording(*a, **k):
        raise AssertionError("a cell was recorded before every name was checked")

    monkeypatch.setattr(grid, "record_positions", no_recording)
    kw = {**TINY, **{k: v for k, v in bad.items() if k != "agents"}}
    with pytest.raises(ValidationError):
        takeover_grid(bad.get("agents", AGENTS), **kw)


def test_the_cli_prints_the_table_and_saves_the_report(tmp_path, capsys):
    from service.cli import main

    out = tmp_path / "grid.json"
    assert main(["eval", "takeovers", "--agents", "heuristic", "--turns", "2", "--sizes", "3", "--positions", "2",
                 "--seed", "1", "--quiet", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "| heuristic | ring-3 | 2 |" in printed
    assert json.loads(out.read_text())["mode"] == "takeover_grid"
    assert main(["eval", "takeovers", "--agents", "heuristic", "--turns", "two", "--quiet"]) == 2
    assert "--turns" in capsys.readouterr().err


def test_the_plot_is_a_png_with_a_panel_per_table(report, tmp_path):
    import matplotlib.image

    from training.takeover_grid import plot_grid

    empty = dict(report, cells=[*report["cells"], {"agent": "random", "players": 5, "turn": 9, "pairs": 0}])
    out = plot_grid(empty, tmp_path / "grid.png")  # a cell no game lasted to is left out, not drawn as 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    height, width = matplotlib.image.imread(out).shape[:2]
    assert width > height  # the two tables side by side


def test_the_cli_saves_the_plot_beside_the_report(tmp_path, capsys):
    from service.cli import main

    out = tmp_path / "grid.json"
    assert main(["eval", "takeovers", "--agents", "heuristic", "--turns", "2", "--sizes", "3", "--positions", "2",
                 "--seed", "5", "--quiet", "--out", str(out)]) == 0
    assert json.loads(out.read_text())["mode"] == "takeover_grid"
    assert out.with_suffix(".png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert str(out.with_suffix(".png")) in capsys.readouterr().out
