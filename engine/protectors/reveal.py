"""2. Reveal Cards: drawing, DPL growth, card effects, The End is Nigh! and Black Swan.

# rules: 003 2. Reveal Cards (every card), Hoarding $Realm table, Dragon Attack triggers.
"""

from __future__ import annotations

from engine.protectors import cards as C
from engine.protectors.dragon import threshold_reached
from engine.protectors.events import emit
from engine.protectors.shuffling import shuffle
from engine.protectors.state import GameState
from engine.protectors.tables import dpl_increase

MAX_BLACK_SWANS = 32  # guard: Black Swan redrawing itself forever is impossible in practice
# rules: 003 Hoarding $Realm table — the DPL step (in multiples of the board's base step) a hoard causes
HOARD_NOTES = {2: " (a Protector hoards 250+ $Realm)", 3: " (a Protector hoards 350+ $Realm)"}


def begin_reveal(state: GameState) -> None:
    # rules: 003 2. Reveal Cards — Event and Dragon every turn, Sea from Turn 5, The End from Turn 10.
    state.cards_this_turn = []
    state.reveal_queue = C.decks_drawn(state.turn)


def reveal_next(state: GameState) -> None:
    """Draw and play the next deck's card, then re-resolve that deck's locked cards."""
    deck = state.reveal_queue.pop(0)
    if state.turn == 1 and deck in C.TURN_ONE_CARDS:
        card = state.decks[deck].take(C.TURN_ONE_CARDS[deck])
    else:
        card = state.decks[deck].pop(state.rng)
    _play(state, deck, card)
    # rules: 003 The End is Nigh! — "cards drawn and played on a given turn are resolved first, before
    # cards that already were in play are resolved in the order they were played" (no new DPL). An attack the
    # new card triggered starts after them (assumption LOCKED_CARDS_BEFORE_ATTACK).
    for d, locked in list(state.locked_cards):
        if d == deck:
            _effect(state, d, locked, again=True)


def _play(state: GameState, deck: str, card: str, swans: int = 0) -> None:
    most = 0  # the most $Realm any active player holds ($Realm is never negative)
    for p in state.players.values():
        if not p.eliminated and p.realm > most:
            most = p.realm
    gain = dpl_increase(most, state.board.count)
    state.dpl += gain  # rules: 003 — each card revealed and played increases the DPL
    # rules: 003 Hoarding $Realm table — a bigger step than the board's base says someone hoards
    # (public: every Protector senses the DPL); who, and how much, stays hidden.
    hoard = HOARD_NOTES.get(gain // dpl_increase(0, state.board.count), "")
    emit(state, "card", f"003 Reveal Cards, {card}", f"{card} is revealed (DPL +{gain} -> {state.dpl}){hoard}.",
         deck=deck, card=card, dpl=state.dpl, gain=gain)
    if card == C.BLACK_SWAN and swans < MAX_BLACK_SWANS:
        # rules: 003 Black Swan — "Reshuffle ALL Event Cards (including this one), draw a new one and
        # play it"; locked cards stay in play.
        d = state.decks[deck]
        d.draw = d.draw + d.discard + [card]
        d.discard = []
        shuffle(state.rng, d.draw)
        _play(state, deck, d.pop(state.rng), swans + 1)
        return
    state.cards_this_turn.append((deck, card))
    _effect(state, deck, card, again=False)
    if threshold_reached(state) and "threshold" not in state.pending_attacks:
        if state.pending_attacks and state.pending_attacks[-1] == "card":
            state.pending_attacks.append("after_burner")  # rules: 003 Dragon Attack, "After Burner"
        else:
            state.pending_attacks.append("threshold")


def _effect(state: GameState, deck: str, card: str, again: bool) -> None:
    """One-shot effects; the others are read from the cards in play by the rules that use them."""
    if card == C.POWER_OVERWHELMING:
        state.dpl += state.board.count  # rules: 003 Power Overwhelming — "+ the number of Provinces"
        emit(state, "dpl", "003 Power Overwhelming", f"Power Overwhelming: DPL +{state.board.count} -> {state.dpl}"
             + (" (locked in play by The End is Nigh!)." if again else "."), dpl=state.dpl, card=card)
        if again and threshold_reached(state) and "threshold" not in state.pending_attacks:
            state.pending_attacks.append("threshold")
    elif card == C.THERE_BE_DRAGONS:
        state.pending_attacks.append("card")  # rules: 003 There be Dragons! — "attacks ... at this moment"
    elif card == C.TIMES_UP:
        state.times_up = True  # rules: 003 Time's Up! — "This will be the last turn of the game."
    elif card == C.END_IS_NIGH:
        state.end_is_nigh = True
    elif card == C.PLAGUE:
        _plague(state)


def _plague(state: GameState) -> None:
    """rules: 003 Plague! — a Province with a unit and a friendly neighbouring Province with a unit loses
    1; resolved from the lowest Province number to the highest. Flood! leaves no neighbours."""
    if C.FLOOD in {c for _, c in state.cards_this_turn} | {c for _, c in state.locked_cards}:
        return
    for prov in state.board.provinces:
        pr = state.provinces[prov]
        if pr.units <= 0:
            continue
        if any(state.provinces[n].units > 0 and state.holder(n) == state.holder(prov)
               for n in state.board.neighbours[prov]):
            pr.units -= 1
            emit(state, "plague", "003 Plague!", f"{state.holder(prov)} loses 1 unit in {prov} to the Plague.",
                 province=prov)


def end_turn_cards(state: GameState) -> None:
    """Discard this turn's cards, or lock them in play after The End is Nigh!."""
    for deck, card in state.cards_this_turn:
        if state.end_is_nigh and card != C.END_IS_NIGH:
            state.locked_cards.append((deck, card))  # rules: 003 The End is Nigh!
        else:
            state.decks[deck].discard.append(card)
    state.cards_this_turn = []
    state.end_is_nigh = False
