"""What users read off the tools: help text, plot labels and axes, report fields (a dogfood's findings)."""

from __future__ import annotations

import contextlib
import io

import pytest


def help_text(*args: str) -> str:
    from service.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        main([*args, "--help"])
    return out.getvalue()


@pytest.mark.parametrize("args", [("eval",), ("eval", "table"), ("eval", "takeovers"), ("eval", "field"),
                                  ("train",)])
def test_help_prints_percent_signs_once(args):
    text = help_text(*args)
    assert "%%" not in text
    if args == ("eval",):
        assert "95% CIs" in " ".join(text.split())


def captured_figure(monkeypatch):
    """The figure a save_* function draws (matplotlib.pyplot.close is where it lets go of it)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figs = []
    real = plt.close
    monkeypatch.setattr(plt, "close", lambda fig=None: figs.append(fig) or real(fig))
    return figs


def inside(fig) -> bool:
    """Every tick label is drawn inside the figure (none cut at its edges)."""
    fig.canvas.draw()
    box = fig.bbox
    for ax in fig.axes:
        for label in ax.get_xticklabels():
            if label.get_text():
                b = label.get_window_extent()
                if b.x0 < box.x0 - 0.5 or b.x1 > box.x1 + 0.5 or b.y0 < box.y0 - 0.5:
                    return False
    return True


def test_eval_plots_shorten_long_policy_paths_and_keep_them_in_the_figure(tmp_path, monkeypatch):
    from training.evaluate import plot_label, save_plot

    long = ["policy:/tmp/somewhere/runs/regent-Protectors-v0__smoke__1__1795739711/checkpoints/step_3072/model.zip",
            "policy:checkpoints/protectors-ppo-v4/model.zip@1", "heuristic"]
    row = {"win_rate": 0.2, "win_ci": [0.1, 0.3], "vp_share": 0.3, "vp_share_ci": [0.2, 0.4], "score": 0.0,
           "score_ci": [-0.1, 0.1]}
    figs = captured_figure(monkeypatch)
    save_plot({"mode": "round_robin", "per_agent": dict.fromkeys(long, row)}, tmp_path / "rr.png")
    ticks = [t.get_text() for t in figs[-1].axes[0].get_xticklabels()]
    assert ticks == ["step_3072/model", "protectors-ppo-v4/\nmodel@1", "heuristic"]
    assert inside(figs[-1])
    assert all(len(line) <= 22 for t in ticks for line in t.splitlines())
    # two specs that shorten alike keep their whole paths
    twins = ["policy:a/run1/step_8/model.zip", "policy:b/run2/step_8/model.zip"]
    save_plot({"mode": "round_robin", "per_agent": dict.fromkeys(twins, row)}, tmp_path / "tw.png")
    ticks = [t.get_text().replace("\n", "") for t in figs[-1].axes[0].get_xticklabels()]
    assert ticks == twins and inside(figs[-1])
    assert plot_label("policy:a.zip+b.zip@2") == "a+b@2"


def test_the_league_plot_axis_reads_on_small_and_large_runs(tmp_path, monkeypatch):
    from training.ship import plot_league, steps_label

    assert [steps_label(x) for x in (0, 256, 1000, 1500, 200_000, 2_500_000)] == \
        ["0", "256", "1k", "1.5k", "200k", "2.5M"]
    figs = captured_figure(monkeypatch)
    for steps in ((128, 256, 384, 512, 640, 768, 896, 1024), (200_000, 400_000, 600_000)):
        history = [{"step": s, "candidate": -0.5, "incumbent": -1.0, "joined": False,
                    "extra": {"win_vs_caretaker": 0.0, "win_vs_heuristic": 0.1}} for s in steps]
        plot_league(history, tmp_path / "league.png", "t")
        fig = figs[-1]
        fig.canvas.draw()
        labels = [t.get_text() for t in fig.axes[0].get_xticklabels() if t.get_text()]
        assert len(labels) == len(set(labels)), labels  # "0k 0k 1k 1k" is gone


def test_the_league_plot_names_the_table_its_checks_played(tmp_path, monkeypatch):
    # the smoke config's checks play 3 seats; the plot said "ring-5" and "vs 4 caretakers" whatever the table
    from training.ship import league_table, plot_league

    assert league_table({"players": 3, "version": "normal"}) == ("ring-3", 2)
    assert league_table({"players": 7, "version": "grand", "island": True}) == ("ring-7-grand+island", 6)
    assert league_table({"board": "my-map", "players": 4}) == ("my-map", 3)
    figs = captured_figure(monkeypatch)
    history = [{"step": 128, "candidate": 0.1, "incumbent": 0.0, "joined": True,
                "extra": {"win_vs_caretaker": 0.5, "win_vs_heuristic": 0.2}}]
    plot_league(history, tmp_path / "league.png", "t", league_table({"players": 3}))
    strength = figs[-1].axes[1]
    assert [t.get_text() for t in strength.get_legend().get_texts()] == ["vs 2 caretakers", "vs 2 heuristics"]
    assert strength.get_ylabel() == "win rate (ring-3, one seat)"


def test_round_robin_reports_say_what_their_two_game_counts_count():
    from training.evaluate import round_robin

    rep = round_robin(["random", "caretaker"], games=2, players=3, progress=False)
    assert sum(a["games"] for a in rep["per_agent"].values()) == 2 * 3  # seat-games
    assert {r["agent"]: r["games"] for r in rep["elo"]} == {"random": 2, "caretaker": 2}  # games
    assert rep["counts"]["per_agent.games"].startswith("seat-games") and rep["counts"]["elo.games"].startswith("games")
