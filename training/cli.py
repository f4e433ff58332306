"""``regent eval``: tournaments and takeovers from the command line (``training.evaluate``).

    regent eval field --agent heuristic --field caretaker --games 200 --out runs/h_vs_c.json
    regent eval round-robin --agents heuristic,random,caretaker --games 60
    regent eval takeover --agent heuristic --baseline caretaker --positions 50 --turn 2
    regent eval takeovers --agents ppo:hard,heuristic --turns 2,4,6 --sizes 5,7 --positions 50
    regent eval takeover-ceiling --positions 200 --turn 2 --seed 10000 --workers 2
    regent eval field-ceiling --field caretaker --games 200 --seed 10000 --level 2 --workers 2
    regent eval table --fillers caretaker,heuristic,steward --field heuristic --games 300 --out runs/table.json
    regent eval settings --agent ppo:hard --games 200 --out runs/settings-hard.json

``regent train`` lives in ``training.train_cli`` (issue 7); ``register_train`` here only forwards to it.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from engine.errors import ValidationError


def _common(p: argparse.ArgumentParser, board: bool = True,
            out: str = "JSON report path (a PNG plot is written beside it)") -> None:
    """The scenario and report options of every eval command; ``board``: one board (--players,
    --board), not several sizes."""
    if board:
        p.add_argument("--players", type=int, default=5)
        p.add_argument("--board", default=None, help="built-in board name (default: the ring for --players)")
    p.add_argument("--version", choices=("normal", "grand"), default="normal")
    p.add_argument("--island", action="store_true")
    p.add_argument("--factions", action="store_true")
    p.add_argument("--teams", type=int, default=0, help="team size (0: no teams)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=None, help=out)
    p.add_argument("--quiet", action="store_true", help="no progress bars")


def _setup(args) -> dict:
    return {"players": args.players, "board": args.board, "version": args.version, "island": args.island,
            "factions": args.factions, "teams": args.teams}


def _emit(report: dict, args, plot: bool = True) -> int:
    from training.evaluate import save_json, save_plot

    short = {k: v for k, v in report.items() if k != "detail"}
    print(json.dumps(short, indent=2, default=str))
    if args.out:
        path = save_json(report, args.out)
        if plot:
            print(f"saved {path} and {save_plot(report, path.with_suffix('.png'))}")
        else:
            print(f"saved {path}")
    return 0


def _field(args) -> int:
    from training.evaluate import seat_vs_field

    field = [s for s in args.field.split(",") if s]
    return _emit(seat_vs_field(args.agent, field, args.games, seed=args.seed, progress=not args.quiet,
                               **_setup(args)), args)


def _round_robin(args) -> int:
    from training.evaluate import round_robin

    agents = [s for s in args.agents.split(",") if s]
    return _emit(round_robin(agents, args.games, seed=args.seed, progress=not args.quiet, **_setup(args)), args)


def _takeover(args) -> int:
    from training.evaluate import takeover

    kw = _setup(args)
    players = kw.pop("players")
    return _emit(takeover(args.agent, args.baseline, args.positions, args.turn, players, args.recorder,
                          seed=args.seed, progress=not args.quiet, **kw), args)


def _ints(text: str, what: str) -> list[int]:
    try:
        out = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ValidationError(what, f"comma-separated whole numbers, not {text!r}") from None
    if not out:
        raise ValidationError(what, "name at least one")
    return out


def _takeovers(args) -> int:
    from training.evaluate import save_json
    from training.takeover_grid import grid_rows, plot_grid, takeover_grid

    agents = [s for s in args.agents.split(",") if s]
    setup = {"board": None, "version": args.version, "island": args.island, "factions": args.factions,
             "teams": args.teams}
    report = takeover_grid(agents, _ints(args.turns, "--turns"), _ints(args.sizes, "--sizes"), args.positions,
                           args.baseline, args.recorder, seed=args.seed, progress=not args.quiet, **setup)
    print("\n".join(grid_rows(report)))
    if args.out:
        print(f"saved {save_json(report, args.out)} and {plot_grid(report, Path(args.out).with_suffix('.png'))}")
    return 0


def _levels(n: int) -> tuple:
    from training.ceiling import LEVELS

    if not 0 <= n < len(LEVELS):
        raise ValidationError("level", f"--level must be 0..{len(LEVELS) - 1}, not {n}")
    return LEVELS[: n + 1]


def _report(path: str, mode: str) -> dict:
    """A saved ``regent eval`` report of ``mode``, or a clear error naming the file."""
    try:
        report = json.loads(Path(path).read_text())
    except (OSError, ValueError) as e:
        raise ValidationError("compare", f"cannot read the report {path}: {e}") from None
    if not isinstance(report, dict) or report.get("mode") != mode or "detail" not in report:
        raise ValidationError("compare", f"{path} is not a `regent eval {mode} --out` report")
    return report


def _takeover_ceiling(args) -> int:
    from training.ceiling import takeover_ceiling

    kw = _setup(args)
    players = kw.pop("players")
    if args.informed or args.present:  # expert's kind of search knowing more (training/informed.py)
        from training.informed import informed_takeover

        if args.compare or args.workers != 1:
            raise ValidationError("informed", "--informed and --present play in one process and draw no "
                                  "comparison: leave out --compare and --workers")
        if args.informed and args.present:
            raise ValidationError("present", "--informed and --present are two different players: give one")
        _emit(informed_takeover(args.positions, args.turn, players, args.baseline, args.recorder, seed=args.seed,
                                progress=not args.quiet, present=args.present, **kw), args, plot=False)
        return 0
    files = [f for f in args.compare.split(",") if f]
    compare = [_report(f, "takeover") for f in files]
    for f, r in zip(files, compare, strict=True):
        wanted = {"seed": args.seed, "turn": args.turn, "positions": args.positions, "baseline": args.baseline,
                  "recorder": args.recorder, "players": players}
        if any(r.get(k) != v for k, v in wanted.items()):  # checked before the long run, not after it
            raise ValidationError("compare", f"{f} is not on these positions: it has "
                                  + ", ".join(f"{k} {r.get(k)}" for k in wanted) + "; this run "
                                  + ", ".join(f"{k} {v}" for k, v in wanted.items()))
    report = takeover_ceiling(args.positions, args.turn, players, args.baseline, args.recorder, _levels(args.level),
                              seed=args.seed, workers=args.workers, progress=not args.quiet, **kw)
    if compare:
        from training.ceiling import best_found

        report["best_found"] = best_found(report, compare)
    _emit(report, args, plot=False)
    if args.out:
        from training.ceiling import save_ceiling_plot

        print(f"saved {save_ceiling_plot(report, compare, Path(args.out).with_suffix('.png'))}")
    return 0


def _field_ceiling(args) -> int:
    from training.ceiling import field_ceiling

    kw = _setup(args)
    players, board = kw.pop("players"), kw.pop("board")
    field = [s for s in args.field.split(",") if s]
    return _emit(field_ceiling(args.games, field, players, _levels(args.level)[-1], seed=args.seed,
                               workers=args.workers, progress=not args.quiet, board=board, **kw), args, plot=False)


def _ceiling_common(p: argparse.ArgumentParser, level: int) -> None:
    p.add_argument("--level", type=int, default=level,
                   help="continuation agents: 0 the heuristic; 1 also the policy and the heuristic's knobs; 2 also "
                        "12 random players (training.ceiling.LEVELS; takeover-ceiling escalates up to it)")
    p.add_argument("--workers", type=int, default=1, help="processes (one game each at a time)")
    _common(p)


def _table(args) -> int:
    from training.evaluate import save_json
    from training.table import compare, save_table_plot, table_rows

    fillers = [s for s in args.fillers.split(",") if s]
    field = [s for s in args.field.split(",") if s]
    if not fillers:
        raise ValidationError("--fillers", "name at least one filler")
    report = compare(fillers, field=field, games=args.games, seed=args.seed, progress=not args.quiet,
                     from_turn=args.from_turn, **_setup(args))
    print("\n".join(table_rows(report)))
    first = next(iter(report["tables"].values()))
    if first["skipped"]:  # the rates above are of the games that reached the turn the seat fell vacant
        print(f"{first['games']} of {args.games} games counted: {first['skipped']} were over before turn "
              f"{args.from_turn}'s orders step")
    if args.out:
        path = save_json(report, args.out)
        print(f"saved {path} and {save_table_plot(report, path.with_suffix('.png'))}")
    return 0


def _settings(args) -> int:
    from training.settings import measure, save_settings_plot, table_rows

    only = [x.strip() for x in args.only.split(",") if x.strip()]
    out = Path(args.out) if args.out else None
    cache = out.parent / "settings-heuristic.json" if out else None
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
    report = measure(args.agent, args.games, args.seed, only or None, cache, progress=not args.quiet)
    rows = "\n".join(table_rows(report))
    print(rows)
    if out:
        out.write_text(json.dumps(report, indent=1))
        out.with_suffix(".md").write_text(rows + "\n")
        print(f"saved {out}, {out.with_suffix('.md')} and {save_settings_plot(report, out.with_suffix('.png'))}")
    return 0


def register_eval(subparsers) -> None:
    """Adds ``regent eval`` (field / round-robin / table / settings / takeover / takeovers / takeover-ceiling /
    field-ceiling)."""
    ev = subparsers.add_parser("eval", help="evaluate agents: tournaments with CIs, Elo, mid-game takeovers",
                               description="Evaluate agents: seat-vs-field and round-robin tournaments "
                               "(win rate and VP share with 95% CIs, an Elo ladder) and mid-game takeovers; "
                               "reports as JSON plus a PNG plot.")
    sub = ev.add_subparsers(dest="eval_mode", required=True, metavar="MODE")
    f = sub.add_parser("field", help="one agent (rotating seats) against a field of agents")
    f.add_argument("--agent", required=True, help="agent spec: heuristic, random, caretaker, policy:<path>[@T]")
    f.add_argument("--field", default="caretaker", help="comma-separated agent specs for the other seats")
    f.add_argument("--games", type=int, default=100)
    _common(f)
    f.set_defaults(func=_field)
    r = sub.add_parser("round-robin", help="agents seated in rotation; per-agent stats and an Elo ladder")
    r.add_argument("--agents", required=True, help="comma-separated agent specs")
    r.add_argument("--games", type=int, default=60)
    _common(r)
    r.set_defaults(func=_round_robin)
    tb = sub.add_parser("table", help="what a filler does to the table: one vacant seat (rotating) among a field; "
                        "filler wins, the other seats' wins (by distance), Dragon wins, with 95%% CIs")
    tb.add_argument("--fillers", required=True, help="comma-separated agent specs, each measured on the same games")
    tb.add_argument("--field", default="heuristic", help="comma-separated agent specs standing in for the humans")
    tb.add_argument("--games", type=int, default=300)
    tb.add_argument("--from-turn", type=int, default=1, help="the seat falls vacant at the orders step of this turn "
                    "(a stand-in from --field plays it until then; games over before are not counted)")
    _common(tb)
    tb.set_defaults(func=_table)
    t = sub.add_parser("takeover", help="hand one seat of recorded positions to an agent and to a baseline")
    t.add_argument("--agent", required=True)
    t.add_argument("--baseline", default="caretaker")
    t.add_argument("--recorder", default="heuristic", help="who plays every seat until the takeover")
    t.add_argument("--positions", type=int, default=30)
    t.add_argument("--turn", type=int, default=2, help="take over at the orders step of this turn")
    _common(t)
    t.set_defaults(func=_takeover)
    st = sub.add_parser("settings", help="issue 19's grid: one agent (rotating seat) among heuristics in every "
                        "setting the rules allow, beside the heuristic in the same seat of the same games; targets "
                        "judged (training/settings.py)")
    st.add_argument("--agent", required=True, help="agent spec, e.g. ppo:hard or policy:<model.zip>[@T]")
    st.add_argument("--games", type=int, default=200, help="games per setting")
    st.add_argument("--seed", type=int, default=10_000, help="first game seed (10000+: never trained on)")
    st.add_argument("--only", default="", help="comma-separated setting labels (default: all; see "
                    "training/settings.py)")
    st.add_argument("--out", default=None, help="JSON report path (a markdown table and a PNG beside it; the "
                    "heuristic's side is cached in settings-heuristic.json there)")
    st.add_argument("--quiet", action="store_true", help="no progress bars")
    st.set_defaults(func=_settings)
    tg = sub.add_parser("takeovers", help="the takeover benchmark over a grid of turns x table sizes: per agent "
                        "and cell, pairs better / same / worse than the baseline, the better share with its 95%% CI")
    tg.add_argument("--agents", required=True, help="comma-separated agent specs, each on the same positions")
    tg.add_argument("--baseline", default="caretaker")
    tg.add_argument("--recorder", default="heuristic", help="who plays every seat until the takeover")
    tg.add_argument("--turns", default="2,4,6", help="comma-separated takeover turns (orders step)")
    tg.add_argument("--sizes", default="5,7", help="comma-separated player counts (the built-in ring of each)")
    tg.add_argument("--positions", type=int, default=50, help="positions per cell (fewer when games end sooner)")
    _common(tg, board=False, out="JSON report path")
    tg.set_defaults(func=_takeovers)
    tc = sub.add_parser("takeover-ceiling", help="a clairvoyant player (sees hidden cards and money, knows the "
                        "opponents' moves) on takeover's positions: how many pairs any player could win")
    tc.add_argument("--baseline", default="caretaker")
    tc.add_argument("--recorder", default="heuristic")
    tc.add_argument("--positions", type=int, default=30)
    tc.add_argument("--turn", type=int, default=2)
    tc.add_argument("--compare", default="", help="comma-separated `regent eval takeover --out` reports (same "
                    "positions) drawn beside the ceiling in the PNG written next to --out")
    tc.add_argument("--informed", action="store_true",
                    help="instead: the expert's own candidates, each scored on the real future (hidden money, cards "
                         "and dice known): what perfect information alone adds (--level does not apply)")
    tc.add_argument("--present", nargs="?", const="wide", choices=("wide", "expert"), default=None,
                    help="instead: search-wide's candidates (or with 'expert', expert's) played out from the real "
                         "state (hidden money and abilities known) on reshuffled decks and fresh dice: what "
                         "knowing the present adds")
    _ceiling_common(tc, 2)
    tc.set_defaults(func=_takeover_ceiling)
    fc = sub.add_parser("field-ceiling", help="a clairvoyant player in one seat against a field from the "
                        "first bid: the most any seat could win there")
    fc.add_argument("--field", default="caretaker")
    fc.add_argument("--games", type=int, default=50)
    _ceiling_common(fc, 0)
    fc.set_defaults(func=_field_ceiling)


def register_train(subparsers) -> None:
    """``regent train`` is registered by ``training.train_cli`` (issue 7); kept for old entry points."""
    try:
        from training.train_cli import register_train as real
    except ImportError:
        return None
    return real(subparsers)
