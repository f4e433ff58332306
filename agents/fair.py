"""``fair``: the shipped policy tuned to win about a fair share, like an average player.

A seat filler that wins far more than its share takes the humans' wins; one that wins far less hands
the game to its neighbours or to the Dragon. ``fair`` plays the shipped policy (``ppo``'s network)
sampling at a temperature picked by the number of seats: the network is strong in the 5-seat games
it was mostly trained on and weaker in bigger ones, so small tables get a flatter (weaker) choice and
big tables its most likely one. The temperatures were tuned on ``regent eval table`` seeds 0-299
among heuristics (ring-5: T=3 won 19.7% for a fair 20%; ring-7: T=1.0, 1.5, 2.0 and 2.5 won 13.0%,
14.0%, 9.7% and 10.0% for a fair 14.3%, so T=1.5) and are measured on seeds from 10000 in
docs/table-health.md.
"""

from __future__ import annotations

from agents.checkpoints import LEVELS
from agents.policy import PolicyAgent
from engine.protectors.seat import SeatContext

# (most seats, temperature): the first row whose seat count covers the game's seats applies.
FAIR_TEMPERATURES: tuple[tuple[int, float], ...] = ((5, 3.0), (7, 1.5), (16, 0.0))


def fair_temperature(seats: int) -> float:
    return next(t for most, t in FAIR_TEMPERATURES if seats <= most)


class FairAgent(PolicyAgent):
    def __init__(self, seed: int | None = None):
        lv = LEVELS["hard"]
        base = PolicyAgent.load(lv.path, seed, 0.0)
        super().__init__(base.models, seed, 0.0, name="fair")

    def act(self, ctx: SeatContext):
        self.temperature = fair_temperature(len(ctx.state.players))
        return super().act(ctx)
