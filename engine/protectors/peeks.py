"""Looking at the decks during the Negotiation and Orders phase: private information of one seat.

# rules: 003 Kalu'Ak, Weather forecast ("Each turn during the Negotiation and Orders phase a Kalu'Ak
# player may ... look at the top card of the Event deck"; once per game the There be Dragons? deck for
# 15 $Realm), Ashes of Power (discard the Event card to the bottom; replace a Dragon card with There be
# Dragons!), Island Rules, Palantír (15 $Realm: the top card of the Sea or The End deck).

Every look is recorded in ``state.peeks[seat]`` (shown in that seat's view only) and as an event
visible to that seat only (and the GM); never in another seat's view or the public events.
"""

from __future__ import annotations

from engine.protectors import cards as C
from engine.protectors.abilities import PALANTIR_DECKS, cost
from engine.protectors.events import emit, money
from engine.protectors.factions import has
from engine.protectors.orders import Ability
from engine.protectors.state import GameState


def start_orders(state: GameState) -> None:
    """The orders step begins: last turn's looks are forgotten; Weather forecast looks at the Event deck.

    The free look needs no request: it costs nothing and changes nothing, so every holder of Weather
    forecast is shown it (assumption FORECAST_AUTOMATIC)."""
    state.peeks = {}
    state.used_this_turn = {}
    for seat in state.active():
        if has(state, seat, "weather_forecast"):
            _look(state, seat, C.EVENT, "Weather forecast", "003 Kalu'Ak, Weather forecast")


def look_text(look: dict) -> str:
    """A look (``{"deck", "card", "by"}``) as its seat reads it: "Weather forecast: the top card of the Event
    deck is Flood!." (an empty deck: "... is nothing (it is empty).")."""
    deck = C.DECK_NAMES.get(look["deck"], f"{look['deck']} deck")
    card = look["card"] if look["card"] is not None else "nothing (it is empty)"
    the = "" if deck.startswith("The ") else "the "  # "The End deck" brings its own article
    return f"{look['by']}: the top card of {the}{deck} is {card}."


def _look(state: GameState, seat: str, deck: str, by: str, rule: str) -> str | None:
    card = state.decks[deck].top(state.rng)
    state.peeks.setdefault(seat, []).append({"deck": deck, "card": card, "by": by})
    emit(state, "peek", rule, look_text({"deck": deck, "card": card, "by": by}), private={seat},
         seat=seat, deck=deck, card=card)
    return card


def apply_instant(state: GameState, seat: str, abilities: tuple[Ability, ...]) -> None:
    """Use the (validated) orders-phase abilities now, in the order given."""
    used = state.used_this_turn.setdefault(seat, set())
    for a in abilities:
        price = cost(state, seat, a)
        if price:
            money(state, seat, -price, f"003 {a.text()}")
        used.add(a.name)
        if a.name == "peek_dragon":
            state.players[seat].used.add("peek_dragon")
            _look(state, seat, C.DRAGON, "Weather forecast", "003 Kalu'Ak, Weather forecast (There be Dragons?)")
        elif a.name == "palantir":
            _look(state, seat, PALANTIR_DECKS[a.arg or ""], "Palantír", "003 Island Rules, Palantír")
        elif a.name == "discard_event":
            deck = state.decks[C.EVENT]
            card = deck.draw.pop(0)
            deck.draw.append(card)
            emit(state, "peek", "003 Kalu'Ak, Ashes of Power", f"You place {card} at the bottom of the Event deck.",
                 private={seat}, seat=seat, deck=C.EVENT, discarded=card)
        elif a.name == "replace_dragon":
            deck = state.decks[C.DRAGON]
            top = deck.draw[0] if deck.draw else None
            if top is None or top == C.THERE_BE_DRAGONS:
                emit(state, "peek", "003 Kalu'Ak, Ashes of Power", "The top card already is There be Dragons!.",
                     private={seat}, seat=seat, deck=C.DRAGON)
                continue
            deck.draw[0] = C.THERE_BE_DRAGONS
            emit(state, "peek", "003 Kalu'Ak, Ashes of Power",
                 f"{top} is removed from the game; There be Dragons! is placed on top of the deck.",
                 private={seat}, seat=seat, deck=C.DRAGON, removed=top)
