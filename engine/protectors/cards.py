"""The four Reveal decks and the card names.

# rules: 003 Reveal Cards — Event (10 cards), There Be Dragons? (7), Sea (5, from Turn 5),
# The End (3, from Turn 10); "If a deck ever runs out of cards the discard pile is shuffled to
# create a new deck."
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from mypy_extensions import mypyc_attr

from engine.protectors.shuffling import shuffle

# Event deck  # rules: 003 Reveal Cards, Event cards (with the number of duplicates)
BLACK_SWAN = "Black Swan"
CALMS_OF_SUMMER = "Calms of Summer"
DEEP_SNOW = "Deep Snow"
HEAVY_RAINS = "Heavy rains of Autumn"
POWER_OVERWHELMING = "Power Overwhelming"
RESTLESSNESS = "Restlessness of Spring"
WINTER_STORMS = "Winter Storms"
IMARINS_BLESSINGS = "Imarin's Blessings"
FLOOD = "Flood!"
# There Be Dragons? deck  # rules: 003 Reveal Cards, There Be Dragons? cards
THERE_BE_DRAGONS = "There be Dragons!"
MISTY_MOUNTAINS = "The Misty Mountains Cold"
BLOODLUST = "Bloodlust!"
# Sea deck  # rules: 003 Reveal Cards, Sea cards
SEAFARERS = "Seafarers!"
FERRY = "Ferry!"
CRAB_INFESTATION = "Crab Infestation!"
PLAGUE = "Plague!"
PIRATES = "Pirates!"
# The End deck  # rules: 003 Reveal Cards, The End cards
END_IS_NIGH = "The End is Nigh!"
TIMES_UP = "Time's Up!"

EVENT, DRAGON, SEA, END = "event", "dragon", "sea", "end"
# the decks as the rulebook names them, for what players read (a look at the top card, rules: 003 Kalu'Ak
# Weather forecast; Wizard Sanctum, the Palantír)
DECK_NAMES = {EVENT: "Event deck", DRAGON: "There be Dragons? deck", SEA: "Sea deck", END: "The End deck"}
DECK_ORDER = (EVENT, DRAGON, SEA, END)  # rules: 003 The End is Nigh! "Event before There be Dragon..."

DECK_CONTENTS: dict[str, tuple[str, ...]] = {
    EVENT: (
        BLACK_SWAN, CALMS_OF_SUMMER, DEEP_SNOW, HEAVY_RAINS, POWER_OVERWHELMING, POWER_OVERWHELMING,
        RESTLESSNESS, WINTER_STORMS, IMARINS_BLESSINGS, FLOOD,
    ),
    DRAGON: (THERE_BE_DRAGONS, THERE_BE_DRAGONS, MISTY_MOUNTAINS, MISTY_MOUNTAINS, MISTY_MOUNTAINS,
             BLOODLUST, BLOODLUST),
    SEA: (SEAFARERS, FERRY, CRAB_INFESTATION, PLAGUE, PIRATES),
    END: (END_IS_NIGH, END_IS_NIGH, TIMES_UP),
}
CARD_DECK = {card: deck for deck, cards in DECK_CONTENTS.items() for card in cards}

# rules: 003 Reveal Cards — "Starting on Turn 5 Sea Deck is activated... From Turn 10 The End Deck".
DECK_FIRST_TURN = {EVENT: 1, DRAGON: 1, SEA: 5, END: 10}


def decks_drawn(turn: int) -> list[str]:
    """The decks a card is drawn from in ``turn``'s Reveal Cards, in drawing order (rules: 003 2. Reveal Cards:
    Event and There be Dragons? every turn, Sea from turn 5, The End from turn 10)."""
    return [d for d in DECK_ORDER if turn >= DECK_FIRST_TURN[d]]

# rules: 003 Reveal Cards — "The 1st turn ... always start with the two cards Calms of Summer ...
# and The Misty Mountains Cold being drawn and played."
TURN_ONE_CARDS = {EVENT: CALMS_OF_SUMMER, DRAGON: MISTY_MOUNTAINS}


@mypyc_attr(allow_interpreted_subclasses=True)  # Python's __new__ under mypyc: pickles (values.py)
@dataclass
class Deck:
    """A draw pile (index 0 is the top) and its discard pile."""

    name: str
    draw: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)

    @classmethod
    def new(cls, name: str, rng: random.Random) -> Deck:
        cards = list(DECK_CONTENTS[name])
        shuffle(rng, cards)
        return cls(name, cards, [])

    def _refill(self, rng: random.Random) -> None:
        # rules: 003 Reveal Cards — "If a deck ever runs out of cards the discard pile is shuffled".
        self.draw = self.discard
        self.discard = []
        shuffle(rng, self.draw)

    def top(self, rng: random.Random) -> str | None:
        if not self.draw and self.discard:
            self._refill(rng)
        return self.draw[0] if self.draw else None

    def pop(self, rng: random.Random) -> str:
        card = self.top(rng)
        if card is None:
            raise RuntimeError(f"the {self.name} deck has no cards at all")
        self.draw.pop(0)
        return card

    def take(self, card: str) -> str:
        """Remove a named card from the draw pile (turn 1's fixed cards)."""
        self.draw.remove(card)
        return card

    def copy(self) -> Deck:
        return Deck(self.name, list(self.draw), list(self.discard))
