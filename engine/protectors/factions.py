"""Factions: which abilities a seat has right now.

# rules: 003 Factions (Cenarion, Kalu'Ak, Hodir, Iron Light, Lannuvár), Island Rules (Wizard Sanctum).
Abilities are flags; the rule modules ask ``has(state, seat, flag)`` where a faction changes a rule.
"""

from __future__ import annotations

from engine.protectors.state import GameState

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


def ability_flags(state: GameState, seat: str) -> set[str]:
    """All abilities the seat holds now (faction, plus any gained from the Wizard Sanctum)."""
    p = state.players[seat]
    flags = set(FACTION_ABILITIES.get(p.faction or "", ()))
    flags |= set(getattr(p, "gained", ()))
    # rules: 003 Kalu'Ak, Ashes of Power — upgraded while holding a burnt-out Province.
    if flags & {"weather_forecast", "nothing_to_see_here"} and any(
            state.provinces[q].burnt for q in state.owned(seat)):
        flags.add("ashes_of_power")
    return flags


def has(state: GameState, seat: str, flag: str) -> bool:
    return flag in ability_flags(state, seat)


def can_use(state: GameState, seat: str, ability: str) -> bool:
    """Held and, if once per game, not yet spent (Ashes of Power makes Nothing to see here! repeatable)."""
    flags = ability_flags(state, seat)
    if ability not in flags:
        return False
    if ability == "nothing_to_see_here" and "ashes_of_power" in flags:
        return True
    return not (ability in ONCE_PER_GAME and ability in state.players[seat].used)
