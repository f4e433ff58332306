"""What a seat filler does to the table: ``regent eval table``.

A GM choosing who fills a vacant seat cares about the people still playing: how often the Dragon
wins (rules: 003 Fire and blood! — everyone loses), how often one of *them* wins, and whether the
filler decides which of them it is (kingmaking). So one filler sits in a vacant seat that rotates
over the seats (game g: seat g mod N), the other seats are drawn from a field (the stand-ins for the
humans), and for each game we record who won and how far the winner sat from the filler.

Common random numbers: game g has the same seed, the same vacant seat and the same field agents
(same specs, same agent seeds) whichever filler is measured, so two fillers' tables differ only by
what the filler did. Rates carry 95% Wilson intervals.

Distance is the number of land steps between the seats' starting Provinces on the board (on a ring:
1 = a neighbour). The other seats' wins by distance are per seat-game (wins / seat-games at that
distance), so a distance with two seats is not counted double. ``kingmaking`` is the spread of those
per-seat rates, ``(max - min) / max`` over the distances (0: every distance wins alike); the issue's
bar is 0.25 ("within 25% of each other"). The spread is a noisy statistic that is never below 0, so
it carries a 95% bootstrap interval over the games (``kingmaking_ci``, seeded: the same report gives
the same interval), and the all-heuristic table (a heuristic in the vacant seat) is its noise floor:
every seat plays alike there, so its true spread is 0 and whatever it shows is noise at that size.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

from tqdm import tqdm

from agents.registry import make_agent
from agents.runner import finish
from engine.errors import ValidationError
from engine.protectors.board import Board
from engine.protectors.game import Game
from envs.opponents import make_setup
from training.evaluate import AgentCache, _setup_kwargs, field_specs, play_to_orders, seat_of
from training.stats import wilson

KINGMAKING_BAR = 0.25  # issue 18: the other seats' wins by distance within 25% of each other
KINGMAKING_BOOT = 2000  # bootstrap resamples for the spread's interval
CHECK_GAMES_PER_SEAT = 6  # a card's quick check replays the first 6 x seats games (tests/training)
FILLER_SEED = 99  # the filler's agent seed offset (game_seed * 100 + 99), as in takeovers


def land_distances(board: Board, start: str) -> dict[str, int]:
    """Land steps from ``start`` to every Province (breadth first over the board's neighbours)."""
    dist = {start: 0}
    todo = deque([start])
    while todo:
        p = todo.popleft()
        for q in board.neighbours.get(p, ()):
            if q not in dist:
                dist[q] = dist[p] + 1
                todo.append(q)
    return dist


def _rate(wins: int, n: int) -> dict[str, Any]:
    return {"wins": wins, "games": n, "rate": wins / n if n else 0.0, "ci": list(wilson(wins, n))}


def table_game(game: Game, filler_seat: str) -> dict[str, Any]:
    """One finished game seen from the vacant seat: who won, how, and the winners' distances."""
    st, res = game.state, game.result or {}
    winner = res.get("winner")
    team_of = {s: s if st.team_of(s) is None else st.team_of(s) for s in st.players}
    winners = [s for s in st.players if winner is not None and team_of[s] == winner]
    dist = land_distances(st.board, st.players[filler_seat].start)
    far = max(dist.values()) + 1  # a start the filler cannot reach by land (an island seat)
    others = [s for s in st.players if s != filler_seat and team_of[s] != team_of[filler_seat]]
    return {"filler": filler_seat, "how": res.get("how"), "winner": winner,
            "filler_won": filler_seat in winners, "other_won": any(s in winners for s in others),
            "distance": {s: dist.get(st.players[s].start, far) for s in others},
            "winners": [s for s in winners if s in others]}


def _spread(rates: Sequence[float]) -> float:
    return (max(rates) - min(rates)) / max(rates) if rates and max(rates) > 0 else 0.0


def kingmaking_interval(rows: list[dict[str, Any]], boot: int = KINGMAKING_BOOT, seed: int = 0) -> list[float]:
    """A 95% bootstrap interval of the kingmaking spread: the games are resampled with replacement
    ``boot`` times and the spread recomputed on each resample (percentiles 2.5 and 97.5). The spread is
    never below 0, so the resamples sit above a small spread: the upper end is conservative (it is what
    "no kingmaking" claims use), and the lower end is taken down to the measured spread when the
    resamples leave it out (a spread near 0 measured on a large table)."""
    import numpy as np

    ds = sorted({d for r in rows for d in r["distance"].values()})
    if len(ds) < 2 or not rows:
        return [0.0, 0.0]
    col = {d: i for i, d in enumerate(ds)}
    wins = np.zeros((len(rows), len(ds)))
    seats = np.zeros((len(rows), len(ds)))
    for g, r in enumerate(rows):
        for s, d in r["distance"].items():
            seats[g, col[d]] += 1
            wins[g, col[d]] += s in r["winners"]
    weights = np.random.default_rng(seed).multinomial(len(rows), np.full(len(rows), 1 / len(rows)), size=boot)
    rates = (weights @ wins) / np.maximum(weights @ seats, 1)
    top = rates.max(axis=1)
    spread = np.where(top > 0, (top - rates.min(axis=1)) / np.where(top > 0, top, 1), 0.0)
    point = _spread(list(wins.sum(axis=0) / np.maximum(seats.sum(axis=0), 1)))
    lo, hi = np.percentile(spread, [2.5, 97.5])
    return [float(min(lo, point)), float(max(hi, point))]


def paired_difference(report: dict[str, Any], key: str, a: str, b: str) -> dict[str, Any]:
    """Filler ``a``'s rate minus filler ``b``'s on the same games (common random numbers): ``key`` is
    ``filler``, ``others`` or ``dragon``; a 95% normal interval of the mean per-game difference, far
    narrower than two separate intervals because each game's luck is shared."""
    field = {"filler": "filler_won", "others": "other_won"}.get(key)
    ta, tb = report["tables"][a], report["tables"][b]
    xa, xb = ta["detail"], tb["detail"]
    if (len(xa) != len(xb) or (ta["seed"], ta["setup"], ta["field"], ta.get("from_turn", 1))
            != (tb["seed"], tb["setup"], tb["field"], tb.get("from_turn", 1))
            or any(r["filler"] != q["filler"] for r, q in zip(xa, xb, strict=True))):
        raise ValidationError("report", f"{a} and {b} were not measured on the same games")
    hit = (lambda r: r[field]) if field else (lambda r: r["how"] == "dragon")
    d = [float(hit(r)) - float(hit(q)) for r, q in zip(xa, xb, strict=True)]
    n = len(d)
    mean = sum(d) / n
    sd = (sum((x - mean) ** 2 for x in d) / (n - 1)) ** 0.5 if n > 1 else 0.0
    half = 1.96 * sd / n ** 0.5
    return {"diff": mean, "ci": [mean - half, mean + half], "n": n}


def summarize_table(rows: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(rows)
    by_dist: dict[int, list[int]] = {}
    for r in rows:
        for s, d in r["distance"].items():
            w, k = by_dist.get(d, [0, 0])
            by_dist[d] = [w + (s in r["winners"]), k + 1]
    distances = {d: _rate(w, k) for d, (w, k) in sorted(by_dist.items())}
    spread = _spread([v["rate"] for v in distances.values()])
    return {"games": n,
            "filler": _rate(sum(r["filler_won"] for r in rows), n),
            "others": _rate(sum(r["other_won"] for r in rows), n),
            "dragon": _rate(sum(r["how"] == "dragon" for r in rows), n),
            "ended": {h: sum(r["how"] == h for r in rows) for h in sorted({str(r["how"]) for r in rows})},
            "by_distance": {str(d): v for d, v in distances.items()},
            "kingmaking": spread, "kingmaking_ci": kingmaking_interval(rows),
            "kingmaking_ok": spread <= KINGMAKING_BAR}


def table(filler: str, field: Sequence[str] = ("heuristic",), games: int = 300, players: int = 5, board=None,
          version: str = "normal", island: bool = False, factions: bool = False, teams: int = 0,
          seed: int = 0, progress: bool = True, from_turn: int = 1) -> dict[str, Any]:
    """``filler`` in a rotating vacant seat among ``field`` agents; the table's outcomes (module doc).

    ``from_turn`` > 1: the seat falls vacant mid-game. Until the orders step of that turn every seat, the vacant
    one too, is played by a stand-in drawn from ``field`` (the player who then leaves, as ``regent eval takeover``
    records its positions), then ``filler`` takes a seat still in the game (rotating over those) and the others play
    on. The game up to there is the same for every filler (common random numbers); a game over before it is not
    counted (``skipped``)."""
    if games < 1 or not field:
        raise ValidationError("games", "need at least one game and one field agent")
    if from_turn < 1:
        raise ValidationError("from_turn", f"a seat falls vacant from turn 1 on, not turn {from_turn}")
    kw = _setup_kwargs(players, board, version, island, factions, teams)
    cache, rows, skipped = AgentCache(), [], 0
    when = f" from turn {from_turn}" if from_turn > 1 else ""
    for g in tqdm(range(games), desc=f"table: {filler}{when} among {'/'.join(field)}", disable=not progress):
        game_seed = seed + g
        game = Game(make_setup(seed=game_seed, **kw))
        seats = list(game.state.players)
        if from_turn > 1:  # every seat a stand-in until one falls vacant
            specs = field_specs(seats, "", field, game_seed)
            agents = {s: cache.get(spec, game_seed * 100 + i) for i, (s, spec) in enumerate(specs.items())}
            if not play_to_orders(game, agents, from_turn):
                skipped += 1
                continue
            vacant = seat_of(g, [s for s in seats if not game.state.players[s].eliminated])
        else:
            vacant = seat_of(g, seats)
            specs = field_specs(seats, vacant, field, game_seed)
            agents = {s: cache.get(spec, game_seed * 100 + i) for i, (s, spec) in enumerate(specs.items())}
        agents[vacant] = cache.get(filler, game_seed * 100 + FILLER_SEED)
        finish(game, agents)
        rows.append(table_game(game, vacant))
    if not rows:  # a table of zeros would read as measured
        raise ValidationError("from_turn", f"none of the {games} games reached turn {from_turn}'s orders step (each "
                                           "was over before it): take the seat over earlier, or play more games")
    return {"mode": "table", "filler": filler, "field": list(field), "setup": kw, "seed": seed,
            "from_turn": from_turn, "skipped": skipped, **summarize_table(rows), "detail": rows}


def compare(fillers: Sequence[str], **kw: Any) -> dict[str, Any]:
    """The same games (common random numbers) with each filler in the vacant seat. Every spec is built once
    first, so a misspelt last filler is named before minutes of the others' games, not after."""
    for spec in (*fillers, *kw.get("field", ("heuristic",))):
        make_agent(spec, 0)
    return {"mode": "table_compare", "fillers": list(fillers), "tables": {f: table(f, **kw) for f in fillers}}


def check_counts(report: dict[str, Any], games: int) -> dict[str, list[int]]:
    """Each filler's (own wins, other seats' wins, Dragon wins) over the report's first ``games`` games.
    Game g is the same game however many are played (common random numbers), so a run of ``games``
    games must give exactly these counts: a card's quick check (tests/training/test_card_reproduces.py)."""
    out = {}
    for f, t in report["tables"].items():
        rows = t["detail"][:games]
        out[f] = [sum(r["filler_won"] for r in rows), sum(r["other_won"] for r in rows),
                  sum(r["how"] == "dragon" for r in rows)]
    return out


def card_entry(report: dict[str, Any], command: str, title: str, check_per_seat: int = CHECK_GAMES_PER_SEAT
               ) -> dict[str, Any]:
    """A ``compare`` report as a model card's ``table`` entry: each filler's three rates with their
    intervals (``training.model_card.ci_text`` shape), the other seats' per-seat rates by distance, the
    kingmaking spread with its interval, the command, and the quick check (``check_counts``) over the
    first ``check_per_seat`` x seats games (fewer for a filler that searches: seconds a game)."""
    def m(r: dict[str, Any]) -> dict[str, Any]:
        return {"rate": r["rate"], "ci": r["ci"], "n": r["games"]}

    first = next(iter(report["tables"].values()))
    check = min(first["games"], check_per_seat * first["setup"]["players"])
    return {"title": title, "command": command,
            "fillers": {f: {"filler": m(t["filler"]), "others": m(t["others"]), "dragon": m(t["dragon"]),
                            "by_distance": {d: m(v) for d, v in t["by_distance"].items()},
                            "kingmaking": t["kingmaking"],
                            "kingmaking_ci": t.get("kingmaking_ci") or kingmaking_interval(t["detail"])}
                        for f, t in report["tables"].items()},
            "check": {"games": check, "counts": check_counts(report, check)}}


def add_to_card(card_dir: Any, entries: list[dict[str, Any]]) -> None:
    """Put the ``table`` entries into a checkpoint's card (JSON and Markdown), keeping the rest; an entry
    replaces the card's entry of the same title."""
    import json
    from pathlib import Path

    from training.model_card import CARD_JSON, write_card

    path = Path(card_dir)
    card = json.loads((path / CARD_JSON).read_text())
    titles = {e["title"] for e in entries}
    card["table"] = [e for e in card.get("table", []) if e["title"] not in titles] + entries
    write_card(path, card)


def table_rows(report: dict[str, Any]) -> list[str]:
    """A markdown table of a ``compare`` report, one line per filler."""
    lines = ["| filler | filler wins | the other seats win | Dragon wins (everyone loses) | "
             "other seats' wins per seat by distance | kingmaking spread [95% interval] |",
             "|---|---|---|---|---|---|"]
    for f, t in report["tables"].items():
        pct = lambda r: f"{100 * r['rate']:.1f}% [{100 * r['ci'][0]:.1f}, {100 * r['ci'][1]:.1f}]"  # noqa: E731
        dist = ", ".join(f"{d}: {100 * v['rate']:.1f}%" for d, v in t["by_distance"].items())
        lo, hi = t.get("kingmaking_ci") or (t["kingmaking"], t["kingmaking"])
        lines.append(f"| {f} | {pct(t['filler'])} | {pct(t['others'])} | {pct(t['dragon'])} | {dist} | "
                     f"{t['kingmaking']:.2f} [{lo:.2f}, {hi:.2f}]{'' if t['kingmaking_ok'] else ' (kingmaking)'} |")
    return lines


def save_table_plot(report: dict[str, Any], path: Any) -> Any:
    """"What happens to your table": one stacked bar per filler (filler / other seats / Dragon wins,
    with the rest Time's Up! ties none of them won), and the other seats' per-seat win rate by distance."""
    from pathlib import Path

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    names = list(report["tables"])
    tabs = [report["tables"][n] for n in names]
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(13, 4.8))
    bottom = [0.0] * len(names)
    for key, label, colour in (("others", "a human seat wins", "#228833"), ("filler", "the filler wins", "#4477aa"),
                               ("dragon", "the Dragon wins: everyone loses", "#cc3311")):
        vals = [100 * t[key]["rate"] for t in tabs]
        ax.bar(range(len(names)), vals, bottom=bottom, color=colour, label=label)
        bottom = [b + v for b, v in zip(bottom, vals, strict=True)]
    ax.set_xticks(range(len(names)), names, rotation=20, ha="right")
    ax.set_ylabel("% of games")
    ax.set_ylim(0, 100)
    ax.legend(loc="upper right", fontsize=8)
    ax.set_title("Who wins the table")
    for i, t in enumerate(tabs):
        ds = list(t["by_distance"])
        bx.plot([int(d) for d in ds], [100 * t["by_distance"][d]["rate"] for d in ds], marker="o", label=names[i])
    bx.set_xticks(sorted({int(d) for t in tabs for d in t["by_distance"]}))
    bx.set_xlabel("seats away from the filler")
    bx.set_ylabel("% of games each such seat wins")
    bx.set_title("Does the filler pick the winner? (flat = no)")
    bx.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5))
    setup = tabs[0]["setup"] if tabs else {}
    when = f" from turn {tabs[0]['from_turn']}" if tabs and tabs[0].get("from_turn", 1) > 1 else ""
    fig.suptitle(f"What happens to your table: one seat vacant{when} among "
                 f"{'/'.join(tabs[0]['field']) if tabs else ''}, {setup.get('players')} players, "
                 f"{tabs[0]['games'] if tabs else 0} games each")
    fig.tight_layout()
    fig.savefig(p, dpi=100)
    plt.close(fig)
    return p


def save_paired_plot(reports: dict[str, dict[str, Any]], path: Any, baseline: str = "caretaker") -> Any:
    """Several settings' ``compare`` reports (label -> report) in one picture: each filler's paired difference
    from ``baseline`` on the same games (``paired_difference``, points with their 95% intervals), the Dragon's wins
    on the left and the other seats' on the right. The question a GM asks when a seat falls vacant: what does each
    filler change for the people still playing, against the rulebook's default?"""
    from pathlib import Path

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = list(reports)
    fillers = [f for f in next(iter(reports.values()))["fillers"] if f != baseline] if reports else []
    if any(baseline not in r["tables"] or [f for f in r["fillers"] if f != baseline] != fillers
           for r in reports.values()):
        raise ValidationError("reports", f"every report needs {baseline} and the same fillers")
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.8), sharey=False)
    width = 0.8 / max(len(fillers), 1)
    for ax, key, title in ((axes[0], "dragon", "Dragon wins (everyone loses)"),
                           (axes[1], "others", "the other seats' wins")):
        for i, f in enumerate(fillers):
            diffs = [paired_difference(reports[lab], key, f, baseline) for lab in labels]
            xs = [k + (i - (len(fillers) - 1) / 2) * width for k in range(len(labels))]
            ys = [100 * d["diff"] for d in diffs]
            err = [[100 * (d["diff"] - d["ci"][0]) for d in diffs], [100 * (d["ci"][1] - d["diff"]) for d in diffs]]
            ax.bar(xs, ys, width, yerr=err, capsize=2, label=f)
        ax.axhline(0, color="black", lw=0.8)
        ax.set_xticks(range(len(labels)), labels, rotation=15, ha="right")
        ax.set_ylabel(f"points, against the {baseline} in the seat")
        ax.set_title(title)
        ax.grid(axis="y", alpha=0.3)
    axes[1].legend(fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5))
    first = next(iter(next(iter(reports.values()))["tables"].values())) if reports else {}
    when = f" at turn {first['from_turn']}" if first.get("from_turn", 1) > 1 else ""
    fig.suptitle(f"A seat falls vacant{when}: what each filler changes for the table, against the {baseline} "
                 "(paired on the same games, 95% intervals)")
    fig.tight_layout()
    fig.savefig(p, dpi=100)
    plt.close(fig)
    return p


def command_of(report: dict[str, Any]) -> str:
    """The ``regent eval table`` command that makes ``report`` (a ``compare`` report)."""
    first = next(iter(report["tables"].values()))
    setup = first["setup"]
    extra = "".join(f" --{k}" for k in ("island", "factions") if setup.get(k))
    extra += f" --teams {setup['teams']}" if setup.get("teams") else ""
    extra += f" --version {setup['version']}" if setup.get("version", "normal") != "normal" else ""
    extra += f" --board {setup['board']}" if setup.get("board") else ""
    extra += f" --from-turn {first['from_turn']}" if first.get("from_turn", 1) > 1 else ""
    games = first["games"] + first.get("skipped", 0)  # the seeds tried: games over before the seat fell vacant too
    return (f"regent eval table --fillers {','.join(report['fillers'])} --field {','.join(first['field'])} "
            f"--games {games} --players {setup['players']} --seed {first['seed']}{extra}")


def main(argv: list[str] | None = None) -> int:
    """``python -m training.table CARD_DIR REPORT.json=TITLE ...``: put saved ``regent eval table``
    reports into a model card (the reproduction test then re-runs each command)."""
    import argparse
    import json
    from pathlib import Path

    ap = argparse.ArgumentParser(description=main.__doc__.splitlines()[0] if main.__doc__ else None)
    ap.add_argument("card_dir")
    ap.add_argument("reports", nargs="+", metavar="REPORT.json=TITLE")
    ap.add_argument("--check-per-seat", type=int, default=CHECK_GAMES_PER_SEAT,
                    help="games per seat the card's quick check replays (fewer for a searching filler)")
    args = ap.parse_args(argv)
    entries = []
    for item in args.reports:
        path, _, title = item.partition("=")
        report = json.loads(Path(path).read_text())
        entries.append(card_entry(report, command_of(report), title or path, args.check_per_seat))
    add_to_card(args.card_dir, entries)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
