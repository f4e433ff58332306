"""The Bank of Lannuvár during a Dragon Attack: its seats commit after the others are revealed.

# rules: 003 Lannuvár, The Bank of Lannuvár — "Activated in the Bidding Step of the Consolidation phase
# OR during the Determine Protector US step for an ongoing Dragon Attack ... Any Lannuvár player with The
# Bank of Lannuvár activated will have 12h to give their highly informed orders, once the other players'
# choices have been revealed to everyone. This applies to both bidding on the Protector Ranking and also
# for committing Army Units during the Determine Protector US step ... If two or more Lannuvár players
# have the ability active at the same time, they all will have the same time limit of 12h ... If the
# ability is instead activated in the Determine Protector US step ... the ability only lasts until the
# Dragon Attack is resolved ... pay 33 $Realm".

The attack stays in the ``dragon`` step: a first round for everyone else, then (``attack.bank_round``)
a second round for the Bank's seats (the bidding side lives in ``game``: the ``bank_bid`` step).
"""

from __future__ import annotations

from engine.protectors.decisions import DragonDecision
from engine.protectors.events import emit, money
from engine.protectors.factions import BANK_COST
from engine.protectors.state import GameState


def _live(state: GameState, seats: list[str]) -> list[str]:
    return [s for s in seats if not state.players[s].eliminated]


def begin(state: GameState) -> None:
    """A new attack: seats whose Bank (activated in a Consolidation phase) covers this turn wait."""
    att = state.attack
    if att is None:
        return
    att.bank_seats = [s for s in _live(state, att.participants)
                      if (until := state.players[s].bank_until) is not None and until >= state.turn]
    if att.bank_seats and not [s for s in _live(state, att.participants) if s not in att.bank_seats]:
        att.bank_round = True  # nobody else decides: the Bank's seats decide at once


def dragon_seats(state: GameState) -> list[str]:
    att = state.attack
    if att is None:
        return []
    live = _live(state, att.participants)
    if att.bank_round:
        return [s for s in live if s in att.bank_seats]
    return [s for s in live if s not in att.bank_seats]


def waits_for_reveal(state: GameState, seat: str) -> bool:
    """rules: 003 The Bank of Lannuvár — ``seat``'s Bank is active in this Dragon Attack: it decides only
    once the others' commitments are revealed, not in the first round."""
    att = state.attack
    return att is not None and not att.bank_round and seat in _live(state, att.bank_seats)


def needs_second_round(state: GameState, decisions: dict[str, DragonDecision]) -> bool:
    """After the first round: activate the Bank for seats that asked, reveal, and wait for them."""
    att = state.attack
    if att is None or att.bank_round:
        return False
    for seat, d in decisions.items():
        if any(a.name == "bank_of_lannuvar" for a in d.abilities):
            money(state, seat, -min(BANK_COST, state.players[seat].realm), "003 The Bank of Lannuvár")
            state.players[seat].used.add("bank_of_lannuvar")
            att.bank_seats.append(seat)
    if not _live(state, att.bank_seats):
        return False
    att.first = {s: d for s, d in decisions.items() if s not in att.bank_seats}
    att.bank_round = True
    shown = {s: [ln.text() for ln in d.lines()] or ["nothing"] for s, d in att.first.items()}
    emit(state, "commitments", "003 The Bank of Lannuvár",
         "Commitments revealed: " + "; ".join(f"{s}: {', '.join(v)}" for s, v in shown.items())
         + f". The Bank of Lannuvár decides next: {', '.join(att.bank_seats)} (12h).",
         commitments=shown, bank=list(att.bank_seats))
    return True


def merged(state: GameState, decisions: dict[str, DragonDecision]) -> dict[str, DragonDecision]:
    """The first round's decisions with the Bank's seats' own."""
    att = state.attack
    if att is None or not att.bank_round:
        return decisions
    out = dict(att.first)
    for s in att.bank_seats:
        out[s] = decisions.get(s, DragonDecision())
    return out
