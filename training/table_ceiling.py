"""How far a filler's Dragon fights can move the table: cheating stewards as measured bounds.

The steward's lever on Dragon wins (rules: 003 Fire and blood!) is the units it brings to Dragon
fights. Each cheat below is the steward plus something no rules-legal filler of the same seat has, so
the Dragon's win rate beside it bounds what that lever can do. They are analysis tools: the registry
does not know them and the service cannot seat them.

- ``full-stack``: at every Dragon decision the engine first fills each Province it holds to the
  supply limit (rules: 003 Consolidation, "Max supply limit for a single Province is 3 Army Units")
  for free, then it commits everything (as the steward, it keeps them and meets its min.US only when
  every unit on the board could not turn the fight). The units are real: they win it the fights' rewards (Grand
  Protector, bonus VPs and $Realm) and, when the fight is won, they stay on the board and defend it.
- ``free-us``: the steward plays as always, and in every Dragon fight while its seat lives the
  Protectors also get the US a full stack would add over what it committed, credited to nobody (the
  DPL the fight must beat is lowered by that much: rules: 003 "Protector US needs to be higher than
  the current DPL"). Its own units, rewards and survival are the steward's: this isolates the units a
  seat could bring to its fights, the most any filler in that seat could bring (a full stack).
- ``free-us-always``: ``free-us``, and a full stack's 3 US in every fight after its seat is gone too:
  more than any one seat can bring.
- ``clairvoyant``: no free units, only foresight. It plays the vacant seat with rules-legal decisions
  that a steward may take (it marches only back into Provinces it has held, supports nobody), choosing
  each one by exact play-outs of the real game to its end (hidden cards, $Realm and the engine's
  random generator read; the field's agents copied), as ``training.ceiling.Clairvoyant`` does for a
  seat's own result, but valuing the *table*: a game another seat wins above one it wins itself or
  nobody wins, and the Dragon's win last. Whatever it cannot do, no steward can do by its decisions
  alone (to the extent its candidates cover what matters): the bound on legal play.

``python -m training.table_ceiling --players 5 --games 2000 --seed 10000`` prints their table beside
the heuristic and the steward on the same games (common random numbers; docs/table-health.md).
"""

from __future__ import annotations

import argparse
import contextlib
import json
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import engine.protectors.dragon as dragon
from agents import registry
from agents.base import Agent
from agents.registry import make_agent
from agents.steward import StewardAgent
from engine.errors import ValidationError
from engine.protectors import build_of
from engine.protectors.decisions import BidDecision, ConsolidationDecision, Decision, DragonDecision, OrdersDecision
from engine.protectors.game import Game
from engine.protectors.orders import March, Support
from engine.protectors.seat import SeatContext
from engine.protectors.state import DRAGON, GameState
from engine.protectors.tables import SUPPLY_LIMIT
from envs.opponents import make_setup
from training.ceiling import Clairvoyant, Value, _run
from training.evaluate import _setup_kwargs, field_specs, seat_of
from training.table import summarize_table, table_game

FULL_STACK = "full-stack"
FREE_US = "free-us"
FREE_US_ALWAYS = "free-us-always"
CLAIRVOYANT = "clairvoyant"
CHEATS = (FULL_STACK, FREE_US, FREE_US_ALWAYS)
CLAIRVOYANT_CONTINUATIONS = ("steward",)
"""who plays the seat's later decisions in the clairvoyant steward's play-outs"""


def _held(st: GameState, seat: str) -> list[str]:
    return [p for p, pr in st.provinces.items()
            if pr.owner == seat and st.holder(p) == seat and not pr.burnt and p != st.board.island]


class FullStackSteward(StewardAgent):
    """The steward, given a full stack in every Province it holds before each Dragon fight (a cheat)."""

    name = FULL_STACK

    def __init__(self, seed: int | None = None):
        super().__init__(seed, others_commit=1e9)  # commits everything whenever any help could turn the fight

    def act(self, ctx: SeatContext) -> Decision:
        if ctx.step == DRAGON:
            st = ctx._game.state  # the real game: this is the cheat
            for p in _held(st, ctx.seat):
                st.provinces[p].units = max(st.provinces[p].units, SUPPLY_LIMIT)
            ctx = SeatContext(ctx._game, ctx.seat)  # a fresh view of the filled board
        return super().act(ctx)


class FreeUSSteward(StewardAgent):
    """The steward; each Dragon fight the Protectors also get, credited to nobody, the US a full stack
    would add over its commitment (``always``: and 3 US a fight after its seat is gone). A cheat."""

    def __init__(self, seed: int | None = None, always: bool = False):
        # the cheat replaces an engine function (``cheats``), which the optional compiled engine (make fast)
        # calls natively and would never see
        if build_of(dragon.__name__) != "pure Python":
            raise ValidationError("cheats", f"{FREE_US_ALWAYS if always else FREE_US} patches the engine's fought "
                                            f"DPL, which the compiled engine cannot take: run it on the pure "
                                            f"engine (make fast-clean)")
        super().__init__(seed)
        self.always = always
        self.name = FREE_US_ALWAYS if always else FREE_US

    def act(self, ctx: SeatContext) -> Decision:
        st = ctx._game.state
        st._free_us_seat = (ctx.seat, self.always)  # read by the patched fought_dpl (this game only)
        decision = super().act(ctx)
        if ctx.step == DRAGON:
            us, _ = dragon.contribution(st, ctx.seat, decision)
            st._free_us = max(0, SUPPLY_LIMIT * max(1, len(_held(st, ctx.seat))) - us)
        return decision


def _free_us(state: GameState) -> int:
    """The uncredited US the game's ``free-us`` filler gives this fight (0 in any other game)."""
    seat, always = getattr(state, "_free_us_seat", (None, False))
    if seat is None:
        return 0
    extra = state.__dict__.pop("_free_us", None)
    if extra is None:  # its seat made no decision for this fight: it is gone
        extra = SUPPLY_LIMIT if always and state.players[seat].eliminated else 0
    return extra


@contextlib.contextmanager
def cheats() -> Iterator[None]:
    """The cheats in the registry, and the engine's fought DPL lowered by ``free-us``, for a ``with``
    block only: every other game in the process is untouched."""
    original = dragon.fought_dpl

    def fought(state: GameState, att: Any) -> int:
        return max(0, original(state, att) - _free_us(state))

    registry.AGENTS[FULL_STACK] = lambda seed: FullStackSteward(seed)
    registry.AGENTS[FREE_US] = lambda seed: FreeUSSteward(seed)
    registry.AGENTS[FREE_US_ALWAYS] = lambda seed: FreeUSSteward(seed, always=True)
    dragon.fought_dpl = fought
    try:
        yield
    finally:
        dragon.fought_dpl = original
        for name in CHEATS:
            registry.AGENTS.pop(name, None)


class TableClairvoyant(Clairvoyant):
    """The clairvoyant player for the table (module doc, ``clairvoyant``): steward-legal candidates only,
    play-outs valued by who won the table."""

    def __init__(self, seat: str, continuations: Sequence[str] = CLAIRVOYANT_CONTINUATIONS, seed: int = 0):
        super().__init__(seat, continuations, seed)
        self.held: set[str] = set()
        self.changes: Counter[str] = Counter()

    def choose(self, game: Game, others: dict[str, Agent]) -> Decision:
        st = game.state
        self.held |= {p for p, pr in st.provinces.items() if pr.owner == self.seat}
        self.held.add(st.players[self.seat].start)
        steward = self.continuations[0].act(SeatContext(game, self.seat))
        best = super().choose(game, others)
        if best != steward:  # where foresight departs from the steward: what a better steward would do
            self.changes[_change(st.step, steward, best)] += 1
        return best

    def allowed(self, ctx: SeatContext, decision: Decision) -> bool:
        """A steward's orders: no Support, and March only back into a Province the seat has held."""
        if not isinstance(decision, OrdersDecision):
            return True
        return all(not isinstance(o, Support) and (not isinstance(o, March) or o.dst in self.held)
                   for o in decision.orders)

    def value(self, game: Game, outcome: dict[str, Any]) -> Value:
        """2: another seat won the table; 1: the seat itself won, or nobody did; 0: the Dragon won."""
        res = game.result or {}
        if res.get("how") == "dragon":
            return (0.0, 0.0)
        other = res.get("winner") is not None and not outcome["win"]
        return (2.0 if other else 1.0, 0.0)


def _change(step: str, steward: Decision, best: Decision) -> str:
    """A short name for how ``best`` differs from the steward's choice at ``step``."""
    if isinstance(best, DragonDecision) and isinstance(steward, DragonDecision):
        a, b = sum(c.count for c in steward.commits), sum(c.count for c in best.commits)
        return f"dragon: commits {'more' if b > a else 'fewer' if b < a else 'as many'} units"
    if isinstance(best, ConsolidationDecision) and isinstance(steward, ConsolidationDecision):
        a, b = sum(n for _, n in steward.buys), sum(n for _, n in best.buys)
        parts = [f"buys {'more' if b > a else 'fewer'}" if a != b else "",
                 f"bids {'more' if best.bid > steward.bid else 'less'}" if best.bid != steward.bid else "",
                 "other upgrades" if best.upgrades != steward.upgrades else ""]
        return "consolidation: " + (", ".join(x for x in parts if x) or "other placement")
    if isinstance(best, OrdersDecision) and isinstance(steward, OrdersDecision):
        kinds = lambda d: sorted(type(o).__name__ + ("(golden)" if o.golden else "") for o in d.orders)  # noqa: E731
        return f"orders: {'+'.join(kinds(best)) or 'none'} instead of {'+'.join(kinds(steward)) or 'none'}"
    if isinstance(best, BidDecision) and isinstance(steward, BidDecision):
        return f"bid: {'more' if best.bid > steward.bid else 'less'}"
    return f"{step}: other"


def _clairvoyant_game(job: tuple) -> dict[str, Any]:
    g, game_seed, setup, field, continuations = job
    game = Game(setup)
    seats = list(game.state.players)
    vacant = seat_of(g, seats)  # the seat, field and agent seeds training.table.table uses
    specs = field_specs(seats, vacant, field, game_seed)
    others = {s: make_agent(spec, game_seed * 100 + i) for i, (s, spec) in enumerate(specs.items()) if s != vacant}
    oracle = TableClairvoyant(vacant, continuations, seed=game_seed)
    return table_game(oracle.play(game, others), vacant) | {"playouts": oracle.playouts,
                                                           "changes": dict(oracle.changes)}


def clairvoyant_table(games: int = 200, field: Sequence[str] = ("heuristic",), players: int = 5, seed: int = 0,
                      continuations: Sequence[str] = CLAIRVOYANT_CONTINUATIONS, workers: int = 1,
                      progress: bool = True) -> dict[str, Any]:
    """``training.table.table`` with the clairvoyant steward in the vacant seat: the same games (seeds,
    seats, field agents), so its rows pair with any filler's of the same command."""
    if games < 1 or workers < 1 or not field:
        raise ValidationError("games", "need at least one game, one worker and one field agent")
    kw = _setup_kwargs(players, None, "normal", False, False, 0)
    jobs = [(g, seed + g, make_setup(seed=seed + g, **kw), tuple(field), tuple(continuations))
            for g in range(games)]
    rows = _run(_clairvoyant_game, jobs, workers, "clairvoyant steward", progress)
    return {"mode": "table", "filler": CLAIRVOYANT, "field": list(field), "setup": kw, "seed": seed,
            "continuations": list(continuations), "playouts": sum(r.pop("playouts") for r in rows),
            "changes": dict(sum((Counter(r.pop("changes")) for r in rows), Counter()).most_common()),
            **summarize_table(rows), "detail": rows}


def main(argv: list[str] | None = None) -> int:
    from training.table import compare, paired_difference, table_rows

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=10000)
    ap.add_argument("--fillers", default="heuristic,steward", help="measured beside the cheats")
    ap.add_argument("--cheats", default=",".join(CHEATS), help=f"out of {', '.join((*CHEATS, CLAIRVOYANT))}")
    ap.add_argument("--workers", type=int, default=1, help="processes for the clairvoyant steward")
    ap.add_argument("--out", help="JSON report path")
    args = ap.parse_args(argv)
    chosen = [c for c in args.cheats.split(",") if c]
    unknown = [c for c in chosen if c not in (*CHEATS, CLAIRVOYANT)]
    if unknown:
        ap.error(f"--cheats: unknown {unknown[0]!r}; out of {', '.join((*CHEATS, CLAIRVOYANT))}")
    with cheats():
        report: dict[str, Any] = compare([*args.fillers.split(","), *(c for c in chosen if c != CLAIRVOYANT)],
                                         games=args.games, players=args.players, seed=args.seed, progress=False)
    if CLAIRVOYANT in chosen:
        report["fillers"].append(CLAIRVOYANT)
        report["tables"][CLAIRVOYANT] = clairvoyant_table(args.games, players=args.players, seed=args.seed,
                                                          workers=args.workers)
    print("\n".join(table_rows(report)))
    for f, t in report["tables"].items():
        line = f"{f}: Dragon or the filler wins {100 * (t['dragon']['rate'] + t['filler']['rate']):.1f}%"
        if "heuristic" in report["tables"] and f != "heuristic":
            p = paired_difference(report, "dragon", f, "heuristic")
            line += (f"; Dragon minus the all-heuristic table's, same games: {100 * p['diff']:+.1f} points "
                     f"[{100 * p['ci'][0]:+.1f}, {100 * p['ci'][1]:+.1f}]")
        print(line)
    if CLAIRVOYANT in report["tables"]:
        print("where the clairvoyant steward departs from the steward (decisions):")
        for what, n in report["tables"][CLAIRVOYANT]["changes"].items():
            print(f"  {n:6d}  {what}")
    if args.out:
        Path(args.out).write_text(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
