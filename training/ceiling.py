"""How good can a takeover be? A clairvoyant player as a measured ceiling for ``regent eval takeover``.

The takeover target (issue 7) asks that a seat taken over mid-game finish better than the rulebook's
inactive-player default (the caretaker) in 80% of pairs. Whether any player can do that depends on the
positions: a seat whose neighbours' attacks are already on the board, or a game the Dragon ends for
everybody, is lost whatever the seat does. This module measures that with a player who *cheats*:

- it reads the real game, hidden $Realm, unrevealed decks and the engine's random generator included;
- it knows its opponents exactly (the recorder agents are deterministic, and it plays copies of them);
- at every one of its decisions it tries a wide set of legal candidates (every combination of legal
  orders when there are at most ``agents.choices.ORDERS_CAP``, a grid of buys and bids, every split of units for a
  Dragon Attack, plus the continuation agents' own choices), plays each one out exactly to
  the end of the game (its own later decisions by one of the continuation agents, each tried), and
  keeps the best.

Because the continuation is exact and the continuation's own choice is always a candidate, the result
it reaches is at least the best value it saw at its first decision (the rollout algorithm's improvement
property; ``tests/training/test_ceiling.py`` checks it). An honest player (one who sees only its own
view and cannot see the future) has strictly less to go on, so pairs where the clairvoyant player does
not beat the caretaker are, to the extent its candidates cover what matters, pairs nobody can win. Its
search is one decision deep with fixed continuations, not exhaustive, so ``best_found`` also counts the
pairs an honest agent won on the same positions. A pair is *proved* lost (``proved_lost``) only when
every legal order at the takeover had the seat eliminated that same turn. It is an analysis tool,
never an agent: it is not in ``agents.registry`` and the service cannot seat it.
"""

from __future__ import annotations

import copy
import json
import random
import zlib
from collections import Counter
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from tqdm import tqdm

from agents.base import Agent
from agents.choices import Candidates, step_choices
from agents.heuristic import HeuristicAgent
from agents.registry import make_agent
from agents.runner import MAX_ADVANCES, finish
from engine.errors import RegentError, ValidationError
from engine.protectors.decisions import Decision
from engine.protectors.game import Game
from engine.protectors.seat import SeatContext
from engine.protectors.state import ORDERS
from envs.opponents import make_setup
from training.evaluate import field_specs, record_positions, seat_of, seat_outcome, standing_key, why_better
from training.stats import wilson

DEFAULT_CONTINUATIONS = ("heuristic",)
WIDE_CONTINUATIONS = (
    "heuristic", "ppo:hard",
    'heuristic{"margin": 0}', 'heuristic{"margin": 2}', 'heuristic{"all_in": false}',
    'heuristic{"gp_hides": false}', 'heuristic{"keep_one": true}', 'heuristic{"assume_fortify": true}',
)
"""level 1: the seat's later decisions played by each of these in turn (the best counts): the shipped
policy and the heuristic with each of its knobs turned one notch (agents/heuristic.py)"""
LEVELS = (DEFAULT_CONTINUATIONS, WIDE_CONTINUATIONS, WIDE_CONTINUATIONS + tuple(f"random#{i}" for i in range(12)))
"""the continuation sets ``takeover_ceiling`` escalates through: each pair the clairvoyant player does not
win for the seat at one level is played again at the next (the heuristic; then the policy and the
heuristic's knobs; then also 12 random players re-seeded per decision)"""


def candidates(ctx: SeatContext, agents: Sequence[Agent], rng: random.Random,
               others_bids: Iterable[int] = ()) -> Candidates:
    """The decisions the clairvoyant player tries at ``ctx``'s step: the agents' own choices first (so a
    tie keeps them), then the step's enumeration, duplicates dropped. ``others_bids``: the ranking bids
    the other seats have just submitted (the clairvoyant player reads them)."""
    own = [a.act(ctx) for a in agents]
    base = own[0]
    known = [x for b in others_bids for x in (b, b + 1)] + [getattr(d, "bid", 0) for d in own]
    more = step_choices(ctx, base, rng, known)
    out = Candidates(dict.fromkeys((*own, *more)))
    out.exhaustive = more.exhaustive
    out.own = len(dict.fromkeys(own))
    return out


class Reseeded:
    """An agent re-seeded before every decision from (seed, turn, step), so that what it decides is a
    function of the position alone: a play-out with it can be repeated exactly later in the game, which
    the clairvoyant player's improvement property needs from every continuation."""

    def __init__(self, agent: Agent, seed: int):
        self.agent, self.seed = agent, seed
        self.name = f"{agent.name}#{seed}"

    def reset(self, seed: int | None = None) -> None:
        return None

    def act(self, ctx: SeatContext) -> Decision:
        self.agent.reset(zlib.crc32(f"{self.seed}:{ctx.state.turn}:{ctx.step}".encode()))
        return self.agent.act(ctx)


def make_player(spec: str, seed: int) -> Agent:
    """An agent spec (``agents.registry``); ``heuristic{<JSON knobs>}``: the heuristic with changed knobs
    (``HeuristicAgent`` keyword arguments); ``random#<n>``: a random player re-seeded from n at every
    decision (``Reseeded``)."""
    if spec.startswith("random#"):
        try:
            return Reseeded(make_agent("random"), int(spec.split("#", 1)[1]))
        except ValueError:
            raise ValidationError("agent", f"bad random player {spec!r}; use random#<number>") from None
    if spec.startswith("heuristic{"):
        try:
            return HeuristicAgent(seed, **json.loads(spec[len("heuristic"):]))
        except (ValueError, TypeError) as e:
            raise ValidationError("agent", f"bad heuristic knobs in {spec!r}: {e}") from None
    return make_agent(spec, seed)


Value = tuple[float, float]


class Clairvoyant:
    """Plays ``seat`` of a real game to its end, choosing every decision by exact play-outs (see the
    module docstring).

    After ``play``: ``first_best`` is the best value (``training.evaluate.standing_key``: score, then how
    long the seat lasted) seen at the first decision, and ``first`` says of that decision how many
    candidates were tried, whether they were every legal choice (``exhaustive``) and whether every one of
    them had the seat eliminated within the current turn (``all_out_now``: then the seat had no later
    decision in any play-out, so every value was exact and the first decision settled the seat's result).
    """

    def __init__(self, seat: str, continuations: Sequence[str] = DEFAULT_CONTINUATIONS, seed: int = 0):
        """``continuations``: who may play the seat's later decisions in a play-out (each is tried, the
        best counts); their own choices are candidates too."""
        if not continuations:
            raise ValidationError("continuations", "need at least one continuation agent")
        self.seat = seat
        self.continuations = [make_player(s, seed) for s in continuations]
        self.rng = random.Random(seed)
        self.first_best: Value | None = None
        self.first: dict[str, Any] = {}
        self.decisions = 0
        self.playouts = 0

    def _playout(self, game: Game, decision: Decision, others: dict[str, Agent]) -> tuple[Value, bool] | None:
        """The best value of ``decision`` over the continuations, and whether the seat was out within
        this turn in every one of them; None if the decision is not legal here."""
        best, out_now = None, True
        for cont in self.continuations:
            g = game.clone()
            try:
                g.submit(self.seat, decision)
            except RegentError:
                return None
            agents = copy.deepcopy(others)
            agents[self.seat] = cont
            self.playouts += 1
            o = seat_outcome(finish(g, agents), self.seat)
            v = self.value(g, o)
            best = v if best is None or v > best else best
            out_now = out_now and o["eliminated"] and o["eliminated_turn"] == game.state.turn
        return (best, out_now) if best is not None else None

    def value(self, game: Game, outcome: dict[str, Any]) -> Value:
        """What a finished play-out is worth to this player (larger is better): the seat's standing."""
        return standing_key(outcome)

    def allowed(self, ctx: SeatContext, decision: Decision) -> bool:
        """Whether ``decision`` may be tried at all (every legal one here; a subclass may restrict)."""
        return True

    def choose(self, game: Game, others: dict[str, Agent]) -> Decision:
        ctx = SeatContext(game, self.seat)
        bids = [getattr(d, "bid", 0) for s, d in game.state.submissions.items() if s != self.seat]
        found = candidates(ctx, self.continuations, self.rng, bids)
        # the continuations' own choices come first and are always tried
        cands = Candidates(c for i, c in enumerate(found) if i < found.own or self.allowed(ctx, c))
        cands.exhaustive = found.exhaustive and len(cands) == len(found)
        best, best_value, all_out = None, None, True
        for cand in cands:
            r = self._playout(game, cand, others)
            if r is None:
                continue
            all_out = all_out and r[1]
            if best_value is None or r[0] > best_value:
                best, best_value = cand, r[0]
        if best is None:  # nothing legal was found: the rulebook default
            return ctx.default()
        if self.first_best is None:
            self.first_best = best_value
            self.first = {"step": ctx.step, "candidates": len(cands), "exhaustive": cands.exhaustive,
                          "all_out_now": all_out}
        self.decisions += 1
        return best

    def play(self, game: Game, others: dict[str, Agent]) -> Game:
        """``others``: the agents of every other seat (deterministic given their seeds; copied per play-out)."""
        for _ in range(MAX_ADVANCES):
            if game.over:
                return game
            pending = [p for p in game.pending() if not p.submitted]
            for p in pending:  # the others first: what they submit does not depend on this seat's choice
                if p.seat != self.seat and p.seat in others:
                    game.submit(p.seat, others[p.seat].act(SeatContext(game, p.seat)))
            if any(p.seat == self.seat for p in pending):
                game.submit(self.seat, self.choose(game, others))
            game.advance(force=True)
        raise RuntimeError(f"game did not end within {MAX_ADVANCES} steps")


def _clairvoyant_row(seat: str, game: Game, others: dict[str, Agent], continuations: Sequence[str],
                     seed: int) -> dict[str, Any]:
    oracle = Clairvoyant(seat, continuations, seed=seed)
    return {"ceiling": seat_outcome(oracle.play(game, others), seat), "first_best": list(oracle.first_best or ()),
            "first": oracle.first, "decisions": oracle.decisions, "playouts": oracle.playouts}


def _takeover_pair(job: tuple) -> dict[str, Any]:
    k, game_seed, pos, baseline, recorder, continuations = job
    seat = seat_of(k, [s for s in pos.state.players if not pos.state.players[s].eliminated])  # as takeover does

    def field() -> dict[str, Agent]:  # the recorder agents with takeover's seeds
        return {s: make_agent(recorder, game_seed * 100 + i) for i, s in enumerate(pos.state.players) if s != seat}

    agents = field()
    agents[seat] = make_agent(baseline, game_seed * 100 + 99)
    row: dict[str, Any] = {"seed": game_seed, "seat": seat, "turn": pos.state.turn,
                           "baseline": seat_outcome(finish(pos.clone(), agents), seat)}
    return row | _clairvoyant_row(seat, pos.clone(), field(), continuations, game_seed)


def _field_game(job: tuple) -> dict[str, Any]:
    g, game_seed, setup, field, continuations = job
    game = Game(setup)
    seats = list(game.state.players)
    me = seat_of(g, seats)  # the seat and field training.evaluate.seat_vs_field uses
    specs = field_specs(seats, me, field, game_seed)
    others = {s: make_agent(specs[s], game_seed * 100 + i) for i, s in enumerate(seats) if s != me}
    return {"seed": game_seed, "seat": me} | _clairvoyant_row(me, game, others, continuations, game_seed)


def _run(fn, jobs: list[tuple], workers: int, desc: str, progress: bool) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    with tqdm(total=len(jobs), desc=desc, disable=not progress) as bar:
        if workers == 1:
            for job in jobs:
                out.append(fn(job))
                bar.update(1)
        else:
            with ProcessPoolExecutor(workers) as pool:
                for row in pool.map(fn, jobs):
                    out.append(row)
                    bar.update(1)
    return out


def _better(row: dict[str, Any]) -> bool:
    return row["ceiling"]["score"] > row["baseline"]["score"]


def takeover_ceiling(positions: int = 200, turn: int = 2, players: int = 5, baseline: str = "caretaker",
                     recorder: str = "heuristic", levels: Sequence[Sequence[str]] = LEVELS,
                     seed: int = 0, workers: int = 1,
                     progress: bool = True, **setup) -> dict[str, Any]:
    """The clairvoyant player on the positions ``training.evaluate.takeover`` uses (same recorder, seed and
    seats), each paired with ``baseline`` from the same position: in how many pairs any player could beat
    it. Pairs it does not win at one of ``levels`` (continuation sets) are played again at the next."""
    if positions < 1 or workers < 1 or not levels:
        raise ValidationError("positions", "need at least one position, one worker and one level")
    recorded = record_positions(positions, turn, players, recorder, seed=seed, progress=progress, **setup)
    if not recorded:
        raise ValidationError("positions", f"no game of {recorder} lasted to turn {turn}")
    rows: dict[int, dict[str, Any]] = {}
    per_level = []
    for lvl, conts in enumerate(levels):
        todo = [k for k in range(len(recorded)) if k not in rows or not _better(rows[k])]
        jobs = [(k, *recorded[k], baseline, recorder, tuple(conts)) for k in todo]
        for k, row in zip(todo, _run(_takeover_pair, jobs, workers, f"clairvoyant takeovers, level {lvl}",
                                     progress), strict=True):
            rows[k] = row | {"level": lvl}
        per_level.append({"continuations": list(conts), "played": len(todo),
                          "better_after": sum(_better(r) for r in rows.values())})
    pairs = [rows[k] for k in range(len(recorded))]
    return summarize_ceiling(pairs, {"turn": turn, "players": players, "baseline": baseline, "recorder": recorder,
                                     "levels": per_level, "seed": seed})


def best_found(ceiling: dict[str, Any], takeovers: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The pairs in which the clairvoyant player *or* any agent of ``takeovers`` (``regent eval takeover``
    reports on the same positions) beat the baseline. Every one of those results was played out on the
    same position against the same deterministic opponents, so each is reachable; the clairvoyant
    player's search is not exhaustive, so an agent may find a line it missed."""
    by_seed = {}
    for t in takeovers:
        for r in t["detail"]:
            by_seed.setdefault(r["seed"], []).append((t["agent"], r))
    found, only = 0, Counter()
    for row in ceiling["detail"]:
        others = by_seed.get(row["seed"], [])
        for agent, r in others:
            if r["seat"] != row["seat"] or r["baseline"]["score"] != row["baseline"]["score"]:
                raise ValidationError("compare", f"{agent}'s report is not on the same positions (seed {row['seed']})")
        winners = [agent for agent, r in others if r["agent"]["score"] > r["baseline"]["score"]]
        if _better(row) or winners:
            found += 1
        if winners and not _better(row):
            only.update(winners)
    n = len(ceiling["detail"])
    return {"better": found, "rate": found / n, "ci": list(wilson(found, n)),
            "agents": [t["agent"] for t in takeovers], "missed_by_clairvoyant": dict(only)}


def proved_lost(row: dict[str, Any]) -> bool:
    """A pair no player can win: at the takeover every legal order combination was played out (``first``
    exhaustive) and each had the seat eliminated that same turn, so the seat had no later decision and
    every value was exact; the best of them still did not beat the baseline. (Money sent to other seats
    in that orders step stays the heuristic's: the engine lets a seat send any amount, which is not
    enumerated.)"""
    f = row.get("first", {})
    return bool(f.get("step") == ORDERS and f.get("exhaustive") and f.get("all_out_now")) and not _better(row)


def summarize_ceiling(pairs: list[dict[str, Any]], meta: dict[str, Any]) -> dict[str, Any]:
    n = len(pairs)
    better = [r for r in pairs if _better(r)]
    same = [r for r in pairs if r["ceiling"]["score"] == r["baseline"]["score"]]
    return {"mode": "takeover_ceiling", **meta, "positions": n,
            "better": len(better), "same": len(same), "worse": n - len(better) - len(same),
            "better_rate": len(better) / n, "better_ci": list(wilson(len(better), n)),
            "proved_lost": sum(proved_lost(r) for r in pairs),
            "better_how": dict(Counter(why_better(r["ceiling"], r["baseline"]) for r in better)),
            "same_how": dict(Counter(_tie_kind(r) for r in same)),
            "standing_better": sum(standing_key(r["ceiling"]) > standing_key(r["baseline"]) for r in pairs),
            "ceiling_wins": sum(r["ceiling"]["win"] for r in pairs),
            "playouts": sum(r["playouts"] for r in pairs), "detail": pairs}


def _tie_kind(row: dict[str, Any]) -> str:
    """What a tied pair is: the Dragon won both games, or the seat was eliminated in both (by turn)."""
    c = row["ceiling"]
    if c["how"] == "dragon":
        return "dragon_won_both"
    if c["eliminated"]:
        return f"eliminated_turn_{c['eliminated_turn']}"
    return "standing_same_score"


def field_ceiling(games: int = 200, field: Sequence[str] = ("caretaker",), players: int = 5,
                  continuations: Sequence[str] = DEFAULT_CONTINUATIONS,
                  seed: int = 0, workers: int = 1, progress: bool = True, board=None,
                  **setup) -> dict[str, Any]:
    """The clairvoyant player in one seat (rotating, as ``training.evaluate.seat_vs_field``) against a
    field from the first bid: the most any seat could win there. ``setup``: version, island, factions,
    teams as ``envs.opponents.make_setup`` takes them."""
    if games < 1 or workers < 1 or not field:
        raise ValidationError("games", "need at least one game, one worker and one field agent")
    jobs = [(g, seed + g, make_setup(board, players, seed + g, **setup), tuple(field), tuple(continuations))
            for g in range(games)]
    rows = _run(_field_game, jobs, workers, f"clairvoyant vs {'/'.join(field)}", progress)
    wins = sum(r["ceiling"]["win"] for r in rows)
    return {"mode": "field_ceiling", "field": list(field), "players": players, "seed": seed,
            "continuations": list(continuations), "games": games,
            "wins": wins, "win_rate": wins / games, "win_ci": list(wilson(wins, games)),
            "ended": dict(Counter(r["ceiling"]["how"] for r in rows)),
            "playouts": sum(r["playouts"] for r in rows), "detail": rows}


def save_ceiling_plot(ceiling: dict[str, Any], takeovers: Sequence[dict[str, Any]], path: str | Path) -> Path:
    """A PNG: each takeover report's better / same / worse pairs (``regent eval takeover --out``) beside the
    clairvoyant ceiling on the same positions, with the issue's 80% line."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [(t["agent"], t["better"], t["same"], t["worse"], t["positions"]) for t in takeovers]
    rows.append(("clairvoyant\n(cheats)", ceiling["better"], ceiling["same"], ceiling["worse"], ceiling["positions"]))
    fig, ax = plt.subplots(figsize=(8, 0.7 * len(rows) + 2.2))
    for i, (_, better, same, worse, n) in enumerate(rows):
        ax.barh(i, better / n, color="#009e73", label="better than the caretaker" if i == 0 else None)
        ax.barh(i, same / n, left=better / n, color="#bbbbbb", label="same" if i == 0 else None)
        ax.barh(i, worse / n, left=(better + same) / n, color="#d55e00", label="worse" if i == 0 else None)
        ax.text(better / n - 0.01, i, f"{better / n:.1%}", ha="right", va="center", color="white", fontsize=9)
    proved = ceiling.get("proved_lost", 0) / ceiling["positions"]
    ax.axvline(0.8, color="black", linestyle="--", label="issue 7 target (80%)")
    if takeovers:
        best = best_found(ceiling, takeovers)["rate"]
        ax.axvline(best, color="#009e73", linestyle="-.", label=f"best found by any player ({best:.1%})")
    ax.axvline(1 - proved, color="#0072b2", linestyle=":", label=f"provably lost beyond this ({proved:.0%})")
    ax.set_yticks(range(len(rows)), [r[0] for r in rows])
    ax.set_xlim(0, 1)
    ax.set_xlabel(f"share of {ceiling['positions']} pairs taken over at turn {ceiling['turn']} "
                  f"(seed {ceiling['seed']})")
    ax.set_title("Takeover: the seat's result against the caretaker's from the same position")
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=3)
    fig.tight_layout()
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(p, dpi=110)
    plt.close(fig)
    return p
