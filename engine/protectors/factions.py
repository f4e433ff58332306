"""Factions: which abilities a seat has right now.

# rules: 003 Factions (Cenarion, Kalu'Ak, Hodir, Iron Light, Lannuvár), Island Rules (Wizard Sanctum).
Abilities are flags; the rule modules ask ``has(state, seat, flag)`` where a faction changes a rule.
"""

from __future__ import annotations

from typing import Any

from engine.errors import ValidationError
from engine.protectors.close_names import closest, fold
from engine.protectors.state import BID, GameState, Player

CENARION, KALUAK, HODIR, IRON_LIGHT, LANNUVAR = "Cenarion", "Kalu'Ak", "Hodir", "Iron Light", "Lannuvár"
FACTIONS = (CENARION, KALUAK, HODIR, IRON_LIGHT, LANNUVAR)

# Ability flags of each faction: tier 2 (permanent) and tier 1 (once per game).
FACTION_ABILITIES: dict[str, tuple[str, ...]] = {
    CENARION: ("defenders_of_the_realm", "fight_fire_with_fire"),
    KALUAK: ("weather_forecast", "nothing_to_see_here"),
    HODIR: ("merchants_of_the_gods", "mountain_king"),
    IRON_LIGHT: ("crusade", "faith_alone"),
    LANNUVAR: ("great_game", "bank_of_lannuvar"),
}
ONCE_PER_GAME = frozenset({"fight_fire_with_fire", "nothing_to_see_here", "mountain_king", "faith_alone",
                           "bank_of_lannuvar", "peek_dragon"})


# rules: 003 Factions — "Tier 1 are normally powerful one time use abilities. Tier 2 are maybe weaker,
# but permanent abilities".
TIER = {"defenders_of_the_realm": 2, "fight_fire_with_fire": 1, "weather_forecast": 2,
        "nothing_to_see_here": 1, "merchants_of_the_gods": 2, "mountain_king": 1, "crusade": 2,
        "faith_alone": 1, "great_game": 2, "bank_of_lannuvar": 1}
# The once-per-game use a Sanctum "refresh" of an ability restores (Weather forecast: its Dragon-deck peek).
REFRESH_MARK = {"weather_forecast": "peek_dragon"}
# rules: 003 — the $Realm each ability costs (per Highmagister / per Province where so written)
BANK_COST = 33  # The Bank of Lannuvár
PEEK_DRAGON_COST = 15  # Weather forecast, the There be Dragons? deck
PALANTIR_COST = 15  # Island Rules, Palantír
OFFER_COST = 50  # Hodir, An offer
FAITH_COST = 7  # Iron Light, Faith alone sustains us!


_FACTION_KEYS = {fold(f): f for f in FACTIONS}


def faction_named(text: str) -> str | None:
    """The faction ``text`` names, in the rulebook's spelling, whatever its accents, case and apostrophes
    (``lannuvar``, ``Kalu Ak``, ``iron-light``)."""
    return _FACTION_KEYS.get(fold(text))


def check_faction(v: Any, field: str) -> str:
    """A faction a GM's setup or position names (``players[i].faction``, ``position.factions.<seat>``), in the
    rulebook's spelling; a close miss (``Kalu Ack``, ``Iron-Lite``) is refused naming the faction meant."""
    named = faction_named(v) if isinstance(v, str) else None
    if named is None:
        meant = closest(v, FACTIONS)
        hint = f" (did you mean {meant}?)" if meant else ""
        raise ValidationError(field, f"{v!r} is not one of {', '.join(FACTIONS)}{hint}")
    return named


def chooses_faction(state: GameState, seat: str) -> bool:
    """rules: 003 Factions — "each player selects their faction at the same time as making their secret bids on the
    Protector Ranking on Turn 1", when the players voted for choosing (``faction_choice`` "chosen", not "random":
    "assigned ... by their own choice or by chance"). A faction the game's setup already gives the seat is the GM's
    record of that choice (docs/gm-guide.md), so the turn-1 DM does not choose it again (FACTION_FROM_SETUP)."""
    o = state.options
    return (state.step == BID and o.factions and o.faction_choice == "chosen"
            and state.players[seat].faction is None)


def faction_of(ability: str) -> str:
    return next(f for f, abilities in FACTION_ABILITIES.items() if ability in abilities)


def holds_none(p: Player) -> bool:
    """No faction (none in this game, or not chosen yet) and nothing gained: the common, fast case."""
    return p.faction is None and not p.gained


def ability_flags(state: GameState, seat: str) -> set[str]:
    """All abilities the seat holds now (faction, plus any gained from the Wizard Sanctum)."""
    p = state.players[seat]
    if holds_none(p):
        return set()
    flags = set(FACTION_ABILITIES.get(p.faction or "", ()))
    flags |= set(getattr(p, "gained", ()))
    # rules: 003 Kalu'Ak, Ashes of Power — upgraded while holding a burnt-out Province "(left behind from
    # the Dragon eliminating a player)": Options.ashes_burnt "elimination" counts only those (GameState.ashes),
    # "any" every burnt-out Province.
    if flags & {"weather_forecast", "nothing_to_see_here"} and any(
            state.provinces[q].burnt and (q in state.ashes or state.options.ashes_burnt == "any")
            for q in state.owned(seat)):
        flags.add("ashes_of_power")
    return flags


def has(state: GameState, seat: str, flag: str) -> bool:
    if holds_none(state.players[seat]):
        return False  # asked in every battle and production step: no set built
    return flag in ability_flags(state, seat)


def can_use(state: GameState, seat: str, ability: str) -> bool:
    """Held and, if once per game, not yet spent (Ashes of Power makes Nothing to see here! repeatable)."""
    if holds_none(state.players[seat]):
        return False
    flags = ability_flags(state, seat)
    if ability not in flags:
        return False
    if ability == "nothing_to_see_here" and "ashes_of_power" in flags:
        return True
    return not (ability in ONCE_PER_GAME and ability in state.players[seat].used)


def refreshable(state: GameState, seat: str) -> list[str]:
    """rules: 003 Wizard Sanctum — "Refresh a one-time use ability they have already used"."""
    flags, used = ability_flags(state, seat), state.players[seat].used
    return [a for a in TIER if a in flags and REFRESH_MARK.get(a, a) in used and REFRESH_MARK.get(a, a)
            in ONCE_PER_GAME]


def gainable(state: GameState, seat: str) -> list[str]:
    """rules: 003 Wizard Sanctum — "Gain a Tier 1 or 2 ability from another faction in addition to the
    abilities they already have"."""
    own = state.players[seat].faction
    flags = ability_flags(state, seat)
    return [a for a in TIER if faction_of(a) != own and a not in flags]
