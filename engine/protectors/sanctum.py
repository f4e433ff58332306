"""The Island (a Wizard Sanctum): who controls it, and the Sanctum's choice of ability.

# rules: 003 Island Rules — "To control the Island: A player needs to have at least 1 Army Unit on it
# during the Consolidation phase. Control will be lost the moment they no longer have any units on the
# Island"; Wizard Sanctum — "Once captured by a player, during the following buying and bidding step
# they will choose ... Refresh a one-time use ability they have already used ... Gain a Tier 1 or 2
# ability from another faction ... only valid as long as control is maintained ... If control is lost
# all their abilities will revert back to as it were before the Sanctum was captured. If a player fails
# to make a choice within the time limit they will gain a random new ability."
"""

from __future__ import annotations

from engine.protectors.events import emit
from engine.protectors.factions import REFRESH_MARK, TIER, gainable
from engine.protectors.orders import SANCTUM_ABILITIES, Ability
from engine.protectors.state import GameState


def sync(state: GameState) -> None:
    """Bring Island control and the Sanctum up to date (call after anything that moves units)."""
    island = state.board.island
    if island is None:
        return
    pr = state.provinces[island]
    if pr.owner is not None and (pr.units <= 0 or state.holder(island) != pr.owner
                                 or state.players[pr.owner].eliminated):
        emit(state, "island", "003 Island Rules", f"{pr.owner} loses control of the Island.", seat=pr.owner)
        pr.owner = None
    holder = state.sanctum["holder"] if state.sanctum else None
    if holder is not None and holder != pr.owner:
        _revert(state, holder)
        state.sanctum = None
    if pr.owner is not None and state.sanctum is None:
        state.sanctum = taken(state, pr.owner)


def taken(state: GameState, holder: str) -> dict:
    """The Wizard Sanctum just captured by ``holder``: nothing chosen yet; the choice (refresh or gain, in
    games with factions) is made in the following buying and bidding step."""
    return {"holder": holder, "kind": None, "key": None, "pending": state.options.factions}


def _revert(state: GameState, seat: str) -> None:
    s = state.sanctum or {}
    p = state.players[seat]
    if s.get("kind") == "refresh":
        p.used.add(REFRESH_MARK.get(s["key"], s["key"]))
    elif s.get("kind") == "gain":
        p.gained.discard(s["key"])
        p.used.discard(REFRESH_MARK.get(s["key"], s["key"]))
    if s.get("kind"):
        emit(state, "sanctum", "003 Wizard Sanctum", f"{seat}'s abilities revert: the Sanctum is lost.",
             private={seat}, seat=seat, choice=s["kind"], key=s["key"])


def choose(state: GameState, seat: str, abilities: tuple[Ability, ...]) -> None:
    """The holder's choice in the buying and bidding step (validated), or a random new ability."""
    s = state.sanctum
    if not s or s["holder"] != seat or not s["pending"]:
        return
    chosen = next((a.arg for a in abilities if a.name == "sanctum" and a.arg), None)
    if chosen is None:
        options = gainable(state, seat)
        if not options:
            s["pending"] = False
            return
        chosen = f"gain {state.rng.choice(options)}"
    kind, _, key = chosen.partition(" ")
    p = state.players[seat]
    if kind == "refresh":
        p.used.discard(REFRESH_MARK.get(key, key))
    else:
        p.gained.add(key)
    s.update(kind=kind, key=key, pending=False)
    emit(state, "sanctum", "003 Wizard Sanctum", f"The Wizard Sanctum: {seat} chooses to {kind} "
         f"{SANCTUM_ABILITIES.get(key, key)} "
         f"(tier {TIER[key]}).", private={seat}, seat=seat, choice=kind, key=key)
