"""A position's cards: in play, locked, the draw and discard piles, the reveal still to come (docs/positions.md,
``cards_in_play``, ``locked_cards``, ``decks``, ``reveal_queue``), and the note for a GM who left this turn's cards out.

# rules: 003 2. Reveal Cards (the decks, their first turns, turn 1's two cards, the reshuffle).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import ValidationError
from engine.protectors import cards as C
from engine.protectors.close_names import closest
from engine.protectors.position_reader import AFTER_EXECUTE, REVEAL, Reader, one_of
from engine.protectors.state import CONSOLIDATION, DRAGON, ORDERS, GameState

# how alike a misspelt card's name must be to a card's (close_names.closest): card names are long, and many share words
CARD_CUTOFF = 0.8


def card_hint(v: Any) -> str:
    """The card a name written loosely means (``Ferry`` for ``Ferry!``, ``winter storms``, ``Imarins Blessings``,
    ``Winter Storm``): a position names cards as the rulebook writes them, so it is refused, naming the card."""
    meant = closest(v, list(C.CARD_DECK), CARD_CUTOFF)
    return f' (did you mean "{meant}"? cards are named as the rulebook writes them)' if meant else ""


def _card_list(v: Any, field: str, deck: str | None = None) -> list[tuple[str, str]]:
    if not isinstance(v, list):
        raise ValidationError(field, "must be a list of card names")
    out = []
    for i, c in enumerate(v):
        if not one_of(c, C.CARD_DECK):
            raise ValidationError(f"{field}[{i}]", f"{c!r} is not a card{card_hint(c)}")
        if deck is not None and C.CARD_DECK[c] != deck:
            raise ValidationError(f"{field}[{i}]", f"{c!r} is not a card of the {deck} deck")
        out.append((C.CARD_DECK[c], c))
    return out


def read_cards(r: Reader, step: str) -> None:
    """Cards in play, locked, the reveal queue and every deck's draw and discard piles.

    A deck not given keeps the seed's shuffle less the cards listed elsewhere (in play, locked,
    discarded) and, after turn 1, less the cards its earlier turns drew (``_drawn_before``); a deck given as a
    list is its draw pile (the first version's form)."""
    st, pos = r.state, r.pos
    st.cards_this_turn = _card_list(pos.get("cards_in_play", []), "position.cards_in_play")
    if "cards_in_play" not in pos and st.turn == 1 and _past_reveal(step, pos.get("resume")):
        # rules: 003 Reveal Cards — "The 1st turn ... always start[s] with the two cards Calms of Summer ... and The
        # Misty Mountains Cold being drawn and played": turn 1's cards are known, so a position past its reveal
        # that leaves them out has them in play (TURN_ONE_IN_PLAY), not in the draw piles to come up again
        st.cards_this_turn = [(d, C.TURN_ONE_CARDS[d]) for d in C.decks_drawn(1)]
    st.locked_cards = _card_list(pos.get("locked_cards", []), "position.locked_cards")
    st.end_is_nigh = r.flag(pos.get("end_is_nigh", False), "position.end_is_nigh")
    st.times_up = r.flag(pos.get("times_up", False), "position.times_up")
    decks = r.mapping("decks")
    for d in decks:
        if d not in st.decks:
            raise ValidationError(f"position.decks.{d}", f"decks are {', '.join(C.DECK_ORDER)}")
    elsewhere = st.cards_this_turn + st.locked_cards
    for d in C.DECK_ORDER:
        field = f"position.decks.{d}"
        spec = decks.get(d)
        if isinstance(spec, list):
            spec = {"draw": spec}
        if spec is None:
            spec = {}
        if not isinstance(spec, dict) or set(spec) - {"draw", "discard"}:
            raise ValidationError(field, "must be a list (the draw pile, top first) or a map with 'draw' and 'discard'")
        discard = [c for _, c in _card_list(spec.get("discard", []), f"{field}.discard", d)]
        out = [c for dk, c in elsewhere if dk == d] + discard
        if "draw" in spec:
            draw = [c for _, c in _card_list(spec["draw"], f"{field}.draw", d)]
            draw += _rest_of_deck(d, draw + out, st.decks[d].draw)
        else:
            draw = list(st.decks[d].draw)
            for c in out:
                if c not in draw:
                    raise ValidationError(field, f"more {c} cards than the deck holds")
                draw.remove(c)
            if "discard" not in spec:
                discard = _drawn_before(st, d, draw)
                out += discard
        _check_counts(d, draw + out, field, draw if "draw" in spec else [], out)
        if not draw and not discard and not any(dk == d for dk, _ in st.cards_this_turn):
            raise ValidationError(field, f"no {d} card left to draw (every other one is locked in play)")
        st.decks[d] = C.Deck(d, draw, discard)
    _decks_active(st)
    shown = {d for d, _ in st.cards_this_turn}
    queue = pos.get("reveal_queue")
    if queue is None:
        # "reveal" starts with the decks of this turn whose card is not yet in play; elsewhere none
        queue = [d for d in C.decks_drawn(st.turn) if d not in shown] if step == REVEAL else []
    if not isinstance(queue, list) or not all(one_of(d, C.DECK_ORDER) for d in queue) or len(set(queue)) != len(queue):
        raise ValidationError("position.reveal_queue", f"must be a list of distinct decks ({', '.join(C.DECK_ORDER)})")
    for d in C.DECK_ORDER:  # rules: 003 Reveal Cards — turn 1 always draws Calms of Summer and a Misty Mountains
        if st.turn == 1 and d in C.TURN_ONE_CARDS and d not in shown and C.TURN_ONE_CARDS[d] not in st.decks[d].draw:
            raise ValidationError(f"position.decks.{d}.draw", f"turn 1 still draws {C.TURN_ONE_CARDS[d]}")
    drawn = C.decks_drawn(st.turn)
    for d in queue:
        if d not in drawn:
            raise ValidationError("position.reveal_queue", f"the {C.DECK_NAMES[d].removeprefix('The ')} is "
                                                           f"drawn from turn {C.DECK_FIRST_TURN[d]} on (rules: 003 "
                                                           f"2. Reveal Cards); this is turn {st.turn}")
        if not (st.turn == 1 and d in C.TURN_ONE_CARDS) and not st.decks[d].draw and not st.decks[d].discard:
            raise ValidationError("position.reveal_queue", f"the {d} deck has no card left to draw")
    st.reveal_queue = list(queue)


def _past_reveal(step: str, resume: Any) -> bool:
    """Whether a position at ``step`` stands after every deck of its turn was drawn: the orders, the consolidation,
    or a Dragon Attack resuming after the orders."""
    return step in (ORDERS, CONSOLIDATION) or (step == DRAGON and resume in AFTER_EXECUTE)


def cards_left_out(state: GameState) -> str | None:
    """A note for the GM when an imported position stands after this turn's Reveal Cards but names no card in
    play of a deck drawn this turn, else None.

    rules: 003 2. Reveal Cards — "one card is drawn, revealed and played from both the Event and There be
    Dragons? Decks. Starting on Turn 5 Sea Deck is activated ... From Turn 10 The End Deck": by the orders step
    each of them has a card in play. A position leaving them out is still taken (many a hand-made position plays
    a turn with no card, CARDS_LEFT_OUT), but the turn then runs with no card in play and the cards played lie in
    the draw piles (Weather forecast shows one), so ``regent new`` says so. After the orders (the consolidation
    step, a Dragon Attack resuming after them) every deck of the turn was drawn; in an attack during the Reveal
    Cards, those not in ``reveal_queue``; before it (bid, ranking, bank_bid, reveal) none is asked for."""
    step = state.step
    if _past_reveal(step, state.resume):
        queued: list[str] = []
    elif step == DRAGON and state.resume == REVEAL:
        queued = list(state.reveal_queue)
    else:
        return None
    shown = {d for d, _ in state.cards_this_turn}
    missing = [C.DECK_NAMES[d].removesuffix(" deck") for d in C.decks_drawn(state.turn)
               if d not in shown and d not in queued]
    if not missing:
        return None
    return (f"position.cards_in_play names no card of the {' or '.join(missing)} deck{'s' if len(missing) > 1 else ''}"
            f", drawn this turn before its orders (rules: 003 2. Reveal Cards): turn {state.turn} goes on with no "
            "such card in play and the cards played still in the draw piles; give this turn's cards in "
            "cards_in_play (docs/positions.md)")


def _decks_active(st: GameState) -> None:
    """rules: 003 2. Reveal Cards — "Starting on Turn 5 Sea Deck is activated ... From Turn 10 The End Deck is
    activated as well": before then no card of that deck has been played, so one named in play, locked or
    discarded is a slip (a wrong turn, or a card of another deck), refused naming the field."""
    drawn = C.decks_drawn(st.turn)
    for d in C.DECK_ORDER:
        if d in drawn:
            continue
        first = C.DECK_FIRST_TURN[d]
        for field, cards in (("position.cards_in_play", [c for dk, c in st.cards_this_turn if dk == d]),
                             ("position.locked_cards", [c for dk, c in st.locked_cards if dk == d]),
                             (f"position.decks.{d}.discard", st.decks[d].discard)):
            if cards:
                raise ValidationError(field, f"{cards[0]} is of the {C.DECK_NAMES[d].removeprefix('The ')}, which "
                                             f"is drawn from turn {first} on (rules: 003 2. Reveal Cards); this is "
                                             f"turn {st.turn}")


def _drawn_before(st: GameState, deck: str, draw: list[str]) -> list[str]:
    """A deck the position says nothing of (no draw pile, no discard pile) after turn 1: the cards its earlier
    turns drew are not in its draw pile (DECKS_DRAWN_BEFORE). They are taken off ``draw`` (the seed's shuffle less
    the cards listed elsewhere) and returned as the discard pile: turn 1's own card first, then from the top.

    rules: 003 2. Reveal Cards — one card of the deck each turn from its first (Event and There be Dragons? from
    turn 1, which "always start[s] with" Calms of Summer and The Misty Mountains Cold; Sea from turn 5; The End
    from turn 10); a played card goes to the discard pile unless locked in play (The End is Nigh!, in
    ``locked_cards``), and only an empty draw pile is reshuffled. So until the deck has gone round, its earlier
    turns' cards are the locked ones and as many discards. Once it could have gone round (or a Black Swan
    reshuffled it: not known here) the draw pile is the whole shuffle less the cards listed."""
    before = st.turn - C.DECK_FIRST_TURN[deck]
    locked = [c for dk, c in st.locked_cards if dk == deck]
    now = [c for dk, c in st.cards_this_turn if dk == deck]
    if before <= 0 or before + len(now) > len(C.DECK_CONTENTS[deck]):
        return []
    gone: list[str] = []
    first = C.TURN_ONE_CARDS.get(deck) if C.DECK_FIRST_TURN[deck] == 1 else None
    if first is not None and first not in locked and first in draw:
        draw.remove(first)
        gone.append(first)
    more = max(0, before - len(locked) - len(gone))
    gone += draw[:more]
    del draw[:more]
    return gone


def _rest_of_deck(deck: str, listed: list[str], shuffled: list[str]) -> list[str]:
    """A draw pile given short of the whole deck is its top: the deck's other cards (those listed nowhere:
    not in this pile, the discard, in play or locked) lie under it, in the seed's shuffle (``shuffled``).
    # rules: 003 Reveal Cards — every deck keeps all its cards (10 Event, 7 There be Dragons?, 5 Sea, 3 The
    End); only a reshuffle moves them. Extra There be Dragons! (Ashes of Power) stand for cards they replaced."""
    short = len(C.DECK_CONTENTS[deck]) - len(listed)
    if short <= 0:
        return []
    left = list(listed)
    rest: list[str] = []
    for c in shuffled:
        if c in left:
            left.remove(c)
        else:
            rest.append(c)
    return rest[:short]


def _check_counts(deck: str, cards: list[str], field: str, draw: Sequence[str] = (), out: Sequence[str] = ()) -> None:
    """``cards``: the deck's cards listed anywhere in the position; ``draw`` the draw pile given, ``out`` the cards in
    play, locked or discarded (a GM who started from an export, docs/positions.md, kept its whole draw pile)."""
    full = C.DECK_CONTENTS[deck]
    if len(cards) > len(full):
        extra = sorted({c for c in cards if cards.count(c) > full.count(c)})  # the card(s) listed too often
        said = "; ".join(f"{c} {cards.count(c)} times, the deck has {full.count(c)}" for c in extra)
        hint = (f"; its draw pile still lists cards in play or discarded: take them out of {field}.draw, or leave "
                "draw out (the seed's shuffle deals the rest)") if any(c in draw and c in out for c in extra) else ""
        raise ValidationError(field, f"{len(cards)} cards of the {deck} deck; it has {len(full)}"
                              + (f" ({said})" if said else "") + hint)
    if not cards:
        raise ValidationError(field, f"the {deck} deck has no cards at all")
    for c in set(cards):
        # rules: 003 Kalu'Ak, Ashes of Power — a There be Dragons! may replace a removed Dragon card
        if c != C.THERE_BE_DRAGONS and cards.count(c) > full.count(c):
            raise ValidationError(field, f"{cards.count(c)} x {c}; the deck has {full.count(c)}")
