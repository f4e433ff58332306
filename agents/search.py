"""``search``: decision-time search over a policy's own orders, on determinised copies of the seat's state.

At the orders step (rules: 003 Negotiation and Orders; by default also the Dragon and Consolidation
steps, ``SEARCHED_STEPS``) the agent builds up to ``candidates`` distinct decisions: the base
policy's greedy choice first, then the heuristic's, then samples from the policy at
``SAMPLE_TEMPERATURES``; the default ``search`` then adds the choices of the heuristic with one knob
turned (``CANDIDATE_VARIANTS``). Each candidate is played out ``rollouts`` times to the end
of the game and the one with the best mean ``agents.reward.terminal_reward`` for the seat is played
(ties: the earlier candidate, so the greedy one wins a tie). Every candidate is scored on the same
``rollouts`` determinisations with the same rollout seeds (common random numbers). Every other step
is the base agent's decision.

Secrecy (rules: 003 Each Turn — orders and choices are secret; a seat sees only what it may see):
the search reads only ``ctx.state`` (``engine.protectors.views.seat_state``: other seats' $Realm
zeroed, their unrevealed submissions and bids gone, draw piles sorted, a fresh generator) and
``ctx.view``. A determinisation is a copy of that redacted state with the hidden parts re-sampled
from a sample seed: every draw pile shuffled (cards this seat has looked at this step stay on top),
a fresh generator, and every other standing seat's $Realm set to ``REALM_ESTIMATE`` (this seat's
own $Realm x ``REALM_ESTIMATE_FACTOR``). Other seats' spent once-per-game abilities are unknown to
the seat and so are not re-created. The determinised state is put into a ``Game`` built from the
public view's setup (board, seats, options), so no engine code changes and the real game is never
touched (every rollout plays a fresh copy).

Rollouts: every seat, this one included after the candidate, is played by ``rollout_agent``
(``heuristic`` by default: fast; ``own_rollout_agent`` may play this seat instead) with
``agents.runner.finish`` (to the end of the game). The rollout model is the heuristic, so what
the search gains against heuristic opponents is an upper bound of what it gains against others.

Registry names (``agents.registry``): ``search`` (the defaults below, with CANDIDATE_VARIANTS, over
EXPERT_BASE; the service's ``expert``), ``search-wide`` (also WIDE_EXTRA of the step's other legal
choices, scored by successive halving; measured no better, WIDE_HALVING_BUDGET), ``search:<K>,<M>``
(candidates, rollouts per candidate; no variants; over DEFAULT_BASE) and ``search:<K>,<M>,<base>``
(any agent spec as the base, e.g. ``search:8,32,ppo:normal``);
``search:1,1`` is the base agent itself, and ``search:8,64`` the default ``search`` before session 11.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from agents.base import Agent
from agents.choices import step_choices
from agents.reward import terminal_reward
from agents.runner import finish
from agents.teams import spare_team_mates
from engine.errors import RegentError, ValidationError
from engine.protectors.decisions import Decision
from engine.protectors.game import Game
from engine.protectors.seat import SeatContext
from engine.protectors.shuffling import shuffle
from engine.protectors.state import CONSOLIDATION, DRAGON, ORDERS, GameState

DEFAULT_BASE = "ppo:hard"
"""the base agent of ``search:<K>,<M>`` (the figures before session 12 were measured with it)"""
EXPERT_BASE = "strong"
"""the base agent of the default ``search`` (``expert``): ``ppo:hard`` with the big-table opening bid
(agents/strong.py). Only turn 1's opening bid differs, and the search does not search it, so every
takeover figure of ``search`` measured with ``ppo:hard`` as the base stands (no takeover reaches turn 1)."""
DEFAULT_CANDIDATES = 4
DEFAULT_ROLLOUTS = 64
"""``search`` (and so ``expert``): K=4 of the base policy's and the heuristic's own choices, plus the
CANDIDATE_VARIANTS' choices, M=64 rollouts each. Earlier takeover pilots (80 positions, seed 10000, v3):
K=8/M=64 49 better; K=8/M=160 49; K=16/M=64 47 -- more rollouts or more of the policy's own samples
bought nothing. What did buy something was other kinds of candidates (CANDIDATE_VARIANTS)."""
CANDIDATE_VARIANTS: tuple[dict[str, Any], ...] = (
    {"margin": 0}, {"margin": 2}, {"all_in": False}, {"gp_hides": False}, {"keep_one": True},
    {"assume_fortify": True},
)
"""The heuristic with one knob turned a notch (``agents.heuristic.HeuristicAgent``; the clairvoyant
ceiling's continuations, ``training.ceiling.WIDE_CONTINUATIONS``): the default ``search`` adds each
one's decision to the candidates. Session 11, v4 as the base, ring-5 takeovers at turn 2 against the
caretaker: on 100 tuning positions (seed 5000) K=8 alone 59 better, K=4 + these 61, K=8 + these 61
(K=4 picked: cheaper, and it won more games, 49 against 43); on the 200 held-out positions (seed
10000) K=4 + these beat the caretaker in 123 pairs against K=8 alone's 113 (docs/evaluation.md)."""
WIDE_EXTRA = 16
"""``search-wide`` also tries up to this many of the step's other legal choices (``agents.choices``:
order combinations, Dragon splits, buys x bids), drawn at random, beside ``search``'s candidates."""
WIDE_HALVING_BUDGET = 640
"""rollouts ``search-wide`` spends on a decision by successive halving (Karnin, Koren and Somekh 2013):
every candidate gets an equal share of one round's budget and the better half go on to the next round
with fresh determinisations, until one is left. 640 is the work of ``search``'s ~10 candidates x 64
rollouts, spread over about 25 candidates. Measured, session 12 (ring-5 takeovers at turn 2 against
the caretaker): 64 better of 100 tuning positions (seed 5000) against ``search``'s 61, also with 32
extra choices, also at 4x the budget (2,560 rollouts, 3.4 s CPU a decision); but 118 of the 200
held-out ones (seed 10000) against ``search``'s 123. Breadth the honest search can afford does not
pay: ``search`` stays the default (``expert``), and ``search-wide`` is kept to reproduce the figures."""
HALVING_FLOOR = 4
"""rollouts every candidate still in play gets in a round, however many there are"""
DEFAULT_ROLLOUT_AGENT = "heuristic"
SEARCHED_STEPS = (ORDERS, DRAGON, CONSOLIDATION)
"""the steps whose decision is searched (every other step is the base agent's): the orders, the
commitments to a Dragon Attack and the Consolidation decision (buys, upgrades and, from turn 1's
Consolidation on, the next turn's ranking bid, which is part of it). What is left out is turn 1's
opening bid and its re-bids. Takeover pilots, 80 positions: orders only 44 better, all three 49;
adding BID and REBID gave the same 49 (positions taken over at turn 2 have no bid step left), and
at turn 1 the opening bid's candidates are few and close (the policy's and the heuristic's)."""
MAX_ROLLOUT_ACTIONS = 30_000
"""the work one decision may do: once the rollouts have played this many engine actions (decisions
submitted and steps advanced, summed over rollouts) and each candidate has MIN_ROLLOUTS of them, the
search stops and scores what it has. A count, not a clock, so a seed still fixes the decision on any
machine. Measured (benchmarks/level_bench.py): 8,400-12,400 actions per CPU second in ring-5 and
ring-7 rollouts, so about 3.5 s at the slowest; the decisions it cuts were the 7-seat turn-2 ones that
took 4-7 s (issue 19: ``expert`` answers within 5 s)."""
MIN_ROLLOUTS = 8
"""rollouts every candidate gets before MAX_ROLLOUT_ACTIONS may stop the search"""
SAMPLE_TEMPERATURES = (1.0, 2.0)
"""the temperatures the base policy samples extra candidates at, in turn: 1 (as trained) first; the
policy is often sure of itself, so if that gives too few distinct orders, 2 (the ``easy`` level)"""
SAMPLE_TRIES = 3
"""policy samples drawn per temperature and per wanted candidate before giving up on K distinct ones"""
TORCH_THREADS = 1
"""the search runs many single-observation forward passes: one torch thread is ~50x faster on this
2-core machine than two threads under load (envs/opponents.py does the same for its workers)"""
REALM_ESTIMATE_FACTOR = 1.0
"""REALM_ESTIMATE: another seat's hidden $Realm is taken to be this seat's own $Realm times this
factor (the seat cannot see it; rules: 003 Each Turn). The smallest reasonable reading: the players
started level and face the same production rules, so the seat assumes the others are as rich as it."""


def estimated_realm(state: GameState, seat: str) -> int:
    """REALM_ESTIMATE: what ``seat`` assumes each other seat holds (see REALM_ESTIMATE_FACTOR)."""
    return round(state.players[seat].realm * REALM_ESTIMATE_FACTOR)


def determinise(state: GameState, seat: str, sample_seed: int, realm_known: bool = False) -> GameState:
    """A copy of the redacted ``state`` with what ``seat`` cannot see re-sampled from ``sample_seed``.

    ``state`` must be the seat's redacted copy (``SeatContext.state``); it is not changed. ``realm_known``
    keeps the others' $Realm as ``state`` has it (an analysis of the real state, training/informed.py)."""
    out = state.clone()
    rng = random.Random(sample_seed)
    for deck in out.decks.values():
        shuffle(rng, deck.draw)
    # rules: 003 Kalu'Ak Weather forecast / Island Rules Palantír — a card this seat looked at this
    # step is known to be on top of its deck (the latest look last, so it ends on top)
    for peek in out.peeks.get(seat, []):
        draw = out.decks[peek["deck"]].draw
        if peek.get("card") in draw:
            draw.remove(peek["card"])
            draw.insert(0, peek["card"])
    out.rng = rng
    if realm_known:
        return out
    estimate = estimated_realm(out, seat)
    for s, p in out.players.items():
        if s != seat and not p.eliminated:
            p.realm = estimate
    return out


def public_setup(view: dict[str, Any]) -> dict[str, Any]:
    """A setup (engine/protectors/setup.py) for the game a seat's view shows: board, seats, options."""
    players = [{"seat": s, "name": p["name"], "faction": p["faction"], "team": p["team"]}
               for s, p in view["players"].items()]
    return {"board": view["board"], "seed": 0, "players": players, "options": dict(view["options"])}


def game_around(setup: dict[str, Any], state: GameState) -> Game:
    """A ``Game`` playing on from ``state`` (the state is used as is, not copied)."""
    g = Game(setup)
    g.state = state
    g.actions = []
    return g


class SearchAgent:
    """The base agent, except that its decisions at the searched steps are chosen by rollouts among a few
    candidates."""

    def __init__(self, base_spec: str = DEFAULT_BASE, candidates: int = DEFAULT_CANDIDATES,
                 rollouts: int = DEFAULT_ROLLOUTS, rollout_agent: str = DEFAULT_ROLLOUT_AGENT,
                 seed: int | None = None, name: str | None = None, steps: tuple[str, ...] = SEARCHED_STEPS,
                 own_rollout_agent: str | None = None, max_work: int = MAX_ROLLOUT_ACTIONS,
                 value: Callable[[dict[str, Any] | None, str, str | None], float] = terminal_reward,
                 variants: tuple[dict[str, Any], ...] = (), extra: int = 0, halving: int = 0):
        """``own_rollout_agent``: who plays this seat in the rollouts after the decision (default:
        ``rollout_agent``, like every other seat); ``steps``: the steps searched; ``max_work``: see
        MAX_ROLLOUT_ACTIONS; ``value``: what a finished rollout is worth, from its result, the seat and
        its team (default: the seat's own ``terminal_reward``); ``variants``: heuristic knob settings
        (CANDIDATE_VARIANTS) whose decisions are candidates too, beside the ``candidates``; ``extra``:
        how many of the step's enumerated choices (WIDE_EXTRA) are candidates too; ``halving``: when
        above 0, the candidates are scored by successive halving within that many rollouts
        (WIDE_HALVING_BUDGET) instead of ``rollouts`` each."""
        from agents.heuristic import HeuristicAgent
        from agents.registry import make_agent

        if candidates < 1 or rollouts < 1 or extra < 0 or halving < 0:
            raise ValidationError("agent", f"search needs candidates >= 1, rollouts >= 1, extra >= 0 and "
                                           f"halving >= 0, not {candidates}, {rollouts}, {extra} and {halving}")
        self.base_spec, self.candidates, self.rollouts = base_spec, int(candidates), int(rollouts)
        self.rollout_spec, self.own_rollout_spec = rollout_agent, own_rollout_agent or rollout_agent
        self.steps = tuple(steps)
        self.max_work = int(max_work)
        self.extra, self.halving = int(extra), int(halving)
        self.value = value
        self.last_rollouts = 0
        """rollouts per candidate in the latest search (fewer than ``rollouts`` when the work cap bound)"""
        self.name = name or f"search:{candidates},{rollouts},{base_spec}"
        self.base: Agent = make_agent(base_spec, seed)
        self.samplers: list[Any] = []
        if hasattr(self.base, "models"):  # a PolicyAgent: sample its own choices for extra candidates
            from agents.policy import NumpyPolicy

            if not isinstance(self.base.models[0], NumpyPolicy):  # an SB3 model runs on torch
                import torch

                torch.set_num_threads(TORCH_THREADS)
            self.samplers = [self.base.at_temperature(t, seed, name=f"{base_spec}@{t}") for t in SAMPLE_TEMPERATURES]
        self.heuristic: Agent = make_agent("heuristic", seed)
        self.variant_knobs = tuple(variants)
        self.variants: list[Agent] = [HeuristicAgent(seed, **knobs) for knobs in variants]
        self._rollout_agents: dict[tuple[str, str], Agent] = {}
        self.last_scores: list[tuple[Decision, float]] = []
        self.last_source = ""
        """which candidate the latest decision was and where it came from, for the decision trace"""
        self._origins: dict[Decision, str] = {}
        """the candidates of the latest search with their mean rollout rewards (for inspection)"""
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.base.reset(seed)
        self.heuristic.reset(seed)
        for sampler in self.samplers:
            sampler.reset(seed)
        for variant in self.variants:
            variant.reset(seed)

    def act(self, ctx: SeatContext) -> Decision:
        decision = self.base.act(ctx)
        self._origins = {}
        if ctx.step not in self.steps or (self.candidates == 1 and not self.variants and not self.extra):
            rule = getattr(self.base, "last_rule", "")  # strong's opening bid at a big table says why
            self.last_source = f"{self.base_spec}'s choice: this step is not searched" + (f"; {rule}" if rule else "")
            return decision
        cands = self._candidates(ctx, decision)
        if len(cands) == 1:
            self.last_scores = [(cands[0], 0.0)]
            self.last_source = "the only candidate"
            return cands[0]
        scores, finalists = self._evaluate(ctx, cands)
        self.last_scores = list(zip(cands, scores, strict=True))
        best = max(finalists, key=lambda i: (scores[i], -i))
        self.last_source = (f"the best of {len(cands)} candidates in simulated play-outs"
                            + (f", {self._origins[cands[best]]}" if cands[best] in self._origins else ""))
        return cands[best]

    # -- candidates ------------------------------------------------------------------------------
    def _candidates(self, ctx: SeatContext, greedy: Decision) -> list[Decision]:
        out: list[Decision] = []

        def add(d: Decision, origin: str) -> None:
            d = spare_team_mates(ctx, d)  # a drawn legal choice may march on a team-mate (agents/teams.py)
            if type(d) is type(greedy) and d not in out:
                out.append(d)
                self._origins[d] = origin  # what the decision trace says (service/explain.py)

        add(greedy, f"{self.base_spec}'s own choice")
        if len(out) < self.candidates:
            add(self.heuristic.act(ctx), "the heuristic's")
        for sampler in self.samplers:
            for _ in range(SAMPLE_TRIES * self.candidates):
                if len(out) >= self.candidates:
                    break
                add(sampler.act(ctx), f"one sampled from {self.base_spec} at temperature {sampler.temperature:g}")
        for variant, knobs in zip(self.variants, self.variant_knobs, strict=True):  # beside the K above
            add(variant.act(ctx), "the heuristic's with " + ", ".join(f"{k} {v}" for k, v in knobs.items()))
        if self.extra:  # beside those too: some of the step's other legal choices, drawn at random
            rng = random.Random(self.rng.randrange(2**62))
            more = [d for d in step_choices(ctx, greedy, rng, [getattr(d, "bid", 0) for d in out]) if d not in out]
            for d in rng.sample(more, min(self.extra, len(more))):
                add(d, "another legal choice, drawn at random")
        return out

    # -- rollouts --------------------------------------------------------------------------------
    def _known_state(self, ctx: SeatContext) -> GameState:
        """What the rollouts start from: the seat's redacted state (training/informed.py knows more)."""
        return ctx.state

    def _sample_world(self, known: GameState, seat: str, sample: int) -> GameState:
        """One world the seat's state could be, played out once for each candidate."""
        return determinise(known, seat, sample)

    def _agents_for(self, seats: list[str], seat: str) -> dict[str, Agent]:
        """The rollout players by seat, made once per (seat, spec) and re-seeded per rollout."""
        from agents.registry import make_agent

        out = {}
        for s in seats:
            key = (s, self.own_rollout_spec if s == seat else self.rollout_spec)
            if key not in self._rollout_agents:
                self._rollout_agents[key] = make_agent(key[1], 0)
            out[s] = self._rollout_agents[key]
        return out

    def _evaluate(self, ctx: SeatContext, cands: list[Decision]) -> tuple[list[float], list[int]]:
        """Each candidate's mean rollout value, and the candidates the best is chosen from: all of them,
        or with ``halving`` those still in play in the last round."""
        rollout = _Rollouts(self, ctx, cands)
        finalists = rollout.halving(self.halving) if self.halving else rollout.uniform(self.rollouts)
        self.last_rollouts = rollout.most
        return [rollout.mean(i) for i in range(len(cands))], finalists


class _Rollouts:
    """The play-outs of one decision: every candidate played out on determinised copies of the seat's
    state, each candidate on the same determinisations with the same rollout seeds (common random
    numbers), until the search's work cap (MAX_ROLLOUT_ACTIONS)."""

    def __init__(self, search: SearchAgent, ctx: SeatContext, cands: list[Decision]):
        self.search, self.cands, self.seat, self.red = search, cands, ctx.seat, search._known_state(ctx)
        self.setup = public_setup(ctx.view)
        self.team = self.red.team_of(self.seat)
        self.agents = search._agents_for(list(self.red.players), self.seat)
        self.totals = [0.0] * len(cands)
        self.counts = [0] * len(cands)
        self.work = 0
        self.most = 0
        """rollouts of the candidate that got the most"""

    def play(self, alive: list[int], sample: int) -> None:
        """One determinisation (from ``sample``) played out once for each candidate in ``alive``."""
        world = self.search._sample_world(self.red, self.seat, sample)
        for i in alive:
            g = game_around(self.setup, world.clone())
            self.counts[i] += 1
            try:
                g.submit(self.seat, self.cands[i])
            except RegentError:  # not legal in this world (cannot happen for a legal decision)
                self.totals[i] = float("-inf")
                continue
            for k, s in enumerate(self.agents):
                self.agents[s].reset(sample + k)  # the same rollout players for every candidate
            before = len(g.actions)
            self.totals[i] += self.search.value(finish(g, self.agents).result, self.seat, self.team)
            self.work += len(g.actions) - before
        self.most = max(self.most, max(self.counts[i] for i in alive))

    def mean(self, i: int) -> float:
        return self.totals[i] / self.counts[i]

    def uniform(self, rollouts: int) -> list[int]:
        """``rollouts`` each (fewer once the work cap binds, never fewer than MIN_ROLLOUTS); all finalists."""
        samples = [self.search.rng.randrange(2**62) for _ in range(rollouts)]
        alive = list(range(len(self.cands)))
        for done, sample in enumerate(samples):
            if done >= MIN_ROLLOUTS and self.work >= self.search.max_work:
                break
            self.play(alive, sample)
        return alive

    def halving(self, budget: int) -> list[int]:
        """Successive halving within ``budget`` rollouts (WIDE_HALVING_BUDGET); a round is cut short
        once the work cap binds and every candidate in play has HALVING_FLOOR rollouts of it. The
        finalists: the candidates in play in the last round played."""
        n = len(self.cands)
        alive = list(range(n))
        rounds = max(1, math.ceil(math.log2(n)))
        while True:
            m = max(HALVING_FLOOR, budget // (rounds * len(alive)))
            samples = [self.search.rng.randrange(2**62) for _ in range(m)]
            for done, sample in enumerate(samples):
                if done >= HALVING_FLOOR and self.work >= self.search.max_work:
                    break
                self.play(alive, sample)
            if len(alive) == 1 or self.work >= self.search.max_work:
                break
            ranked = sorted(alive, key=lambda i: (-self.mean(i), i))  # ties: the earlier candidate
            alive = sorted(ranked[: math.ceil(len(alive) / 2)])
        return alive


def search_from_spec(spec: str, seed: int | None = None) -> SearchAgent:
    """``search`` or ``search:<K>,<M>`` or ``search:<K>,<M>,<base agent spec>``."""
    if spec == "search":
        return SearchAgent(EXPERT_BASE, seed=seed, name="search", variants=CANDIDATE_VARIANTS)
    if spec == "search-wide":
        return SearchAgent(EXPERT_BASE, seed=seed, name="search-wide", variants=CANDIDATE_VARIANTS, extra=WIDE_EXTRA,
                           halving=WIDE_HALVING_BUDGET)
    body = spec.split(":", 1)[1] if spec.startswith("search:") else spec
    parts = body.split(",", 2)
    try:
        k, m = int(parts[0]), int(parts[1])
    except (ValueError, IndexError):
        raise ValidationError("agent", f"bad search spec {spec!r}; use search:<K>,<M>[,<base agent>]") from None
    base = parts[2] if len(parts) > 2 and parts[2] else DEFAULT_BASE
    return SearchAgent(base, k, m, seed=seed, name=spec)
