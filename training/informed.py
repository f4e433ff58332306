"""How much of ``expert``'s gap to the clairvoyant ceiling is information? An analysis player, never an agent.

``expert`` (``agents.search``) guesses what its seat cannot see: the others' $Realm, the order of the
decks, the dice. ``InformedSearch`` is the same search with the guessing taken away: the same candidates
(the policy's, the heuristic's and the heuristic variants', ``search.CANDIDATE_VARIANTS``), each scored by
one exact play-out of the *real* game (hidden $Realm, cards and the engine's generator included), the
other seats played by the rollout agent (the heuristic, which is exactly what the takeover's recorder
seats are, so the play-out is the future that would happen) and the seat's own later decisions by it too.
What it reaches on takeover's positions is what ``expert``'s candidates and continuation could reach with
perfect information; the clairvoyant player (``training.ceiling``) adds breadth (every order
combination, bid grids, Dragon splits) and more continuations on top. So the gaps split into
information (expert -> informed) and breadth and depth (informed -> clairvoyant).

It cheats (it reads ``ctx``'s real game), so it is not in ``agents.registry``: ``informed_takeover``
registers it for its own run only. ``regent eval takeover-ceiling --informed`` runs it.
"""

from __future__ import annotations

from typing import Any

from agents.registry import AGENTS
from agents.runner import finish
from agents.search import CANDIDATE_VARIANTS, EXPERT_BASE, WIDE_EXTRA, WIDE_HALVING_BUDGET, SearchAgent, determinise
from engine.errors import RegentError, ValidationError
from engine.protectors.decisions import Decision
from engine.protectors.seat import SeatContext
from engine.protectors.state import GameState
from training.evaluate import takeover

NAME = "informed-search (analysis)"
"""the name it plays under in a report; registered only while ``informed_takeover`` runs"""
PRESENT_NAME = "present-informed-search (analysis)"
"""``PresentInformedSearch``'s name in a report"""


class InformedSearch(SearchAgent):
    """``expert``'s candidates, each scored by one exact play-out of the real game (see the module)."""

    def __init__(self, seed: int | None = None):
        super().__init__(EXPERT_BASE, seed=seed, name=NAME, rollouts=1, variants=CANDIDATE_VARIANTS)

    def _evaluate(self, ctx: SeatContext, cands: list[Decision]) -> tuple[list[float], list[int]]:
        real = ctx._game  # the cheat: the real game, not the seat's redacted state
        seat = ctx.seat
        team = real.state.team_of(seat)
        agents = self._agents_for(list(real.state.players), seat)
        scores = []
        for cand in cands:
            game = real.clone()  # the generator too: the play-out rolls the real dice
            try:
                game.submit(seat, cand)
            except RegentError:  # cannot happen for a legal candidate; never chosen if it did
                scores.append(float("-inf"))
                continue
            for k, s in enumerate(agents):
                agents[s].reset(k)
            scores.append(self.value(finish(game, agents).result, seat, team))
        self.last_rollouts = 1
        return scores, list(range(len(cands)))


class PresentInformedSearch(SearchAgent):
    """A search that knows the present but not the future: every play-out starts from the *real* state (the
    others' hidden $Realm, their spent abilities, who holds what), with the draw piles reshuffled and the
    dice re-rolled as ``expert``'s determinisations do; the others' secret choices of this very step are
    forgotten (no seat can know them) and re-made by the rollout players. ``extra`` and ``halving`` as
    ``search-wide`` (more of the step's legal choices, successive halving). What it reaches bounds what a
    search of ``expert``'s shape could gain from any belief about the present, however good."""

    def __init__(self, seed: int | None = None, extra: int = WIDE_EXTRA, halving: int = WIDE_HALVING_BUDGET):
        super().__init__(EXPERT_BASE, seed=seed, name=PRESENT_NAME, variants=CANDIDATE_VARIANTS, extra=extra,
                         halving=halving)

    def _known_state(self, ctx: SeatContext) -> GameState:
        state = ctx._game.state.clone()  # the cheat: the real state, not the seat's redacted one
        state.submissions = {s: d for s, d in state.submissions.items() if s == ctx.seat}
        return state

    def _sample_world(self, known: GameState, seat: str, sample: int) -> GameState:
        return determinise(known, seat, sample, realm_known=True)


def informed_takeover(positions: int = 200, turn: int = 2, players: int = 5, baseline: str = "caretaker",
                      recorder: str = "heuristic", seed: int = 0, progress: bool = True, present: str | None = None,
                      **setup: Any) -> dict[str, Any]:
    """``training.evaluate.takeover`` with ``InformedSearch`` in the taken-over seat (same positions, seats and
    pairing as every other takeover report of these arguments); ``present`` ``"wide"`` or ``"expert"``:
    ``PresentInformedSearch`` with ``search-wide``'s or ``expert``'s candidates instead."""
    if present not in (None, "wide", "expert"):
        raise ValidationError("present", f"present is 'wide' or 'expert', not {present!r}")
    name = NAME if present is None else f"{PRESENT_NAME}, {present}"
    AGENTS[name] = (InformedSearch if present is None else
                    (lambda seed: PresentInformedSearch(seed)) if present == "wide" else
                    (lambda seed: PresentInformedSearch(seed, extra=0, halving=0)))
    try:
        return takeover(name, baseline, positions, turn, players, recorder, seed=seed, progress=progress, **setup)
    finally:
        del AGENTS[name]

