"""Hodir: The Mountain King sends His Regards, and the Mountain King's protection offer.

# rules: 003 Hodir, "The Mountain King sends His Regards" (Tier 1, once per game, passive) — "right
# before the Eliminating Player step if a Hodir player ever is about to be eliminated ... In each
# contested Province, one (1) Army Unit will fight any intruders with a Defender Unit Strength (US) as
# given in the table ... the same position on the Protector Ranking as the Hodir player ... If victorious
# the Mountain King's armies will retreat ... and leave one normal Army Unit behind (which is gifted to
# the Hodir player). If the Hodir player ends up being saved, they have to pay a tribute of 50% of their
# current $Realm holdings"; An offer — "for the duration of the next turn their Tier 1 ability will not
# be triggered as normal, instead it will be triggered if another player is about to capture their only
# lvl 3 Province. Note: If the Hodir player captures a new lvl 3 Province at the same time as they lose
# their own lvl 3 Province, this ability will not trigger."
"""

from __future__ import annotations

from engine.protectors import cards as C
from engine.protectors.dragon import active_cards
from engine.protectors.events import emit, money
from engine.protectors.factions import can_use
from engine.protectors.state import GameState
from engine.protectors.tables import MAX_LEVEL, mountain_king_us

SIDE = "mountain_king"  # His Regards' side in a battle event (no seat): reports name it SIDE_NAME
SIDE_NAME = "the Mountain King"

TRIBUTE_SHARE = 2  # "50% of their current $Realm holdings", rounded down (assumption TRIBUTE_ROUNDING)


def _lost(state: GameState, seat: str) -> list[str]:
    """The seat's Provinces another player is about to seize (units of theirs stand in it)."""
    return [p for p in state.owned(seat) if state.provinces[p].occupant not in (None, seat)
            and state.provinces[p].units > 0]


def _contested(state: GameState, seat: str) -> list[str]:
    """Where the Mountain King's army appears for ``seat`` this Consolidation (empty: no trigger)."""
    p = state.players[seat]
    owned, lost = state.owned(seat), _lost(state, seat)
    if p.offer_turn == state.turn:
        level3 = [q for q in owned if state.provinces[q].level == MAX_LEVEL]
        gaining3 = any(state.provinces[q].occupant == seat and state.provinces[q].units > 0
                       and state.provinces[q].level == MAX_LEVEL for q in state.board.all_provinces)
        if len(level3) == 1 and level3[0] in lost and not gaining3:
            return level3
        return []
    gaining = any(state.provinces[q].occupant == seat and state.provinces[q].units > 0
                  for q in state.board.all_provinces)
    if owned and len(lost) == len(owned) and not gaining:
        return lost
    return []


def ambush(state: GameState) -> None:
    """Run the Mountain King's ambushes before the Eliminate Players step."""
    cards = active_cards(state)
    rank = {s: i for i, s in enumerate(state.ranking)}
    for seat in list(state.ranking):
        if state.players[seat].eliminated or not can_use(state, seat, "mountain_king"):
            continue
        provinces = _contested(state, seat)
        if not provinces:
            continue
        state.players[seat].used.add("mountain_king")
        regards = mountain_king_us(state.players[seat].realm)
        emit(state, "mountain_king", "003 Hodir, The Mountain King sends His Regards",
             f"The Mountain King's army rises from the depths to defend {seat} in {', '.join(provinces)} "
             f"(Defender US {regards}).", seat=seat, provinces=provinces, us=regards)
        for prov in provinces:
            _fight(state, seat, prov, regards, rank, cards)
        offer = state.players[seat].offer_turn == state.turn
        lost = _lost(state, seat)
        if (provinces[0] not in lost) if offer else len(lost) < len(state.owned(seat)):
            tribute = state.players[seat].realm // TRIBUTE_SHARE
            money(state, seat, -tribute, "003 Hodir, The Mountain King's tribute")
            # the saving and the words are public ("uttering these words in public"); the tribute, half the
            # seat's balance, is the seat's alone (TRIBUTE_PRIVATE)
            rule = "003 Hodir, The Mountain King sends His Regards"
            emit(state, "mountain_king_tribute", rule, f"{seat} is saved and pays the Mountain King a tribute of half "
                 "its $Realm. Long live the King under the Mountains!", seat=seat)
            emit(state, "tribute_paid", rule, f"{seat} pays the Mountain King a tribute of {tribute} $Realm.",
                 private={seat}, seat=seat, tribute=tribute)


def _fight(state: GameState, seat: str, prov: str, regards: int, rank: dict, cards: set[str]) -> None:
    """One battle, resolved as normal: His Regards (Defender) vs the intruder (Attacker); order effects
    are already removed, Deep Snow still weakens Attackers this turn (assumption MK_BATTLE)."""
    pr = state.provinces[prov]
    intruder, units = pr.occupant, pr.units
    attack = max(0, units - (1 if C.DEEP_SNOW in cards else 0))
    tie = attack == regards
    king_wins = regards > attack or (tie and rank.get(seat, 99) < rank.get(intruder, 99))
    # the words of an ordinary battle (execute._fight): on a tie the winner wins "on the Protector Ranking
    # and loses 1 unit"; then what the loser lost, and what that leaves in the Province
    if king_wins:
        # the intruders are destroyed; on a tie the Mountain King's unit falls too and nothing is
        # gifted (assumption MK_TIE)
        pr.occupant = None
        pr.units = 0 if tie else 1
        outcome = ("the Mountain King wins" + (" on the Protector Ranking and loses His Regards" if tie else "")
                   + f"; {intruder} loses {units}"
                   + (f"; no unit is gifted to {seat}" if tie else f"; 1 unit is gifted to {seat}"))
    else:
        if tie:
            pr.units -= 1
        outcome = (f"{intruder} wins" + (" on the Protector Ranking and loses 1 unit" if tie else "")
                   + "; His Regards falls"
                   # rules: 003 Eliminate Players step — with no unit left the Province is not seized
                   + (f"; no unit of {intruder} is left in {prov} to take it" if pr.units <= 0 else ""))
    emit(state, "battle", "003 Hodir, The Mountain King sends His Regards",
         f"Battle in {prov}: the Mountain King {regards} US vs {intruder} {attack} US; {outcome}.",
         province=prov, us={SIDE: regards, intruder: attack}, winner=seat if king_wins else intruder,
         loser=intruder if king_wins else SIDE, tie=tie, mountain_king=True)
