"""Notes for the GM on a game brought in from a position: what the position left to a default that is almost
surely a slip, said once as the game comes in (``regent new`` prints them as warnings; ``game.create`` and
``game.import`` answer them as ``notes``). The position is taken as given: a note never refuses anything."""

from __future__ import annotations

from typing import Any

from engine.protectors.position_cards import cards_left_out
from engine.protectors.state import BID
from engine.protectors.tables import min_us
from service import seat_names

DEFAULTED = (("realm", "$Realm", "it starts with 50, a new game's"), ("vp", "VP", "it has only its Provinces' VP"))
"""a position's per-seat maps whose default (docs/positions.md) for a seat the map leaves out is almost surely
a slip after turn 1 (a map left out whole is the GM's choice of the defaults)"""


def position_notes(game: Any, position: Any) -> list[str]:
    """For ``game`` (a Protectors ``Game`` just made from a setup holding ``position``): a note for each of
    ``DEFAULTED`` that is given but leaves out a seat still in a game brought in after turn 1 (the default is
    applied: a partial map is allowed), and one when the position stands past this turn's Reveal Cards but names
    none of its cards (``position_cards.cards_left_out``). Seats are named as the reports name them."""
    if not isinstance(position, dict):
        return []
    cards = cards_left_out(game.state)
    notes = [cards] if cards else []
    faceless = factions_left_out(game.state)
    if faceless:
        seats = ", ".join(seat_names.display(game, s) for s in faceless)
        notes.append(f"position.factions gives no faction for {seats}: in a game with factions every seat has one "
                     "from turn 1's bids (rules: 003 Factions), and these play on with none, no faction's abilities; "
                     "give each in position.factions (docs/positions.md)")
    if not isinstance(position.get("turn"), int) or position["turn"] < 2:
        return notes
    for key, what, default in DEFAULTED:
        given = position.get(key)
        if not isinstance(given, dict) or not given:
            continue
        named = {seat_names.seat_named(game, str(k)) for k in given}
        left = [s for s, p in game.state.players.items() if not p.eliminated and s not in named]
        if left:
            notes.append(f"position.{key} gives no {what} for {', '.join(seat_names.display(game, s) for s in left)}: "
                         f"{default} (docs/positions.md)")
    return notes


def factions_left_out(state: Any) -> list[str]:
    """The seats still in a game with factions (``options.factions``) that have none, past turn 1's bids, where each
    chose or was dealt one (rules: 003 Factions, "each player selects their faction at the same time as making their
    secret bids on the Protector Ranking on Turn 1"): none is given them later, so they play on with no abilities."""
    if not state.options.factions or (state.turn == 1 and state.step == BID):
        return []
    return [s for s, p in state.players.items() if not p.eliminated and p.faction is None]


def attack_check(game: Any) -> str | None:
    """For a game brought in at its ``dragon`` step: the attack as the game holds it, its DPL, Grand Protector and every
    participant's min.US (rules: 003 Resolving a Dragon Attack, min.US: the seat's green Provinces, doubled by the
    Worldeater), which the commitments will be judged by. A game that reached the step itself announced them in its
    report (``dragon.start_attack``); one brought in did not, so the GM checks them against what they posted. None for
    any other game."""
    st = game.state
    attack = st.attack
    if game.step != "dragon" or attack is None or any(e.kind == "min_us" for e in st.events):
        return None
    greens = st.green_counts()
    names = {s: p.name or s for s, p in st.players.items()}  # as the reports name seats (the min.US line's form)
    need = ", ".join(f"{names[s]} {min_us(greens[s], attack.worldeater)}" for s in attack.participants)
    name = "the Worldeater, min.US doubled" if attack.worldeater else attack.source.replace("_", " ")
    gp = f"; Grand Protector {names[attack.grand_protector]}" if attack.grand_protector else ""
    return (f"Dragon Attack waiting for commitments, as this game holds it (check it against what you posted): "
            f"DPL {attack.dpl} ({name}){gp}; min.US: {need}.")
