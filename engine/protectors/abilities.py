"""Faction and Island abilities: which may be used now, what they cost, and why one may not.

# rules: 003 Factions (Cenarion, Kalu'Ak, Hodir, Iron Light, Lannuvár), Island Rules (Wizard Sanctum,
# Palantír). The legality module calls ``check_all`` for the ability lines of a decision; agents and
# envs enumerate ``legal_abilities`` (once-per-game abilities disappear after use).
"""

from __future__ import annotations

from engine.protectors import cards as C
from engine.protectors.factions import (
    BANK_COST,
    FAITH_COST,
    OFFER_COST,
    PALANTIR_COST,
    PEEK_DRAGON_COST,
    ability_flags,
    can_use,
    gainable,
    holds_none,
    refreshable,
)
from engine.protectors.orders import SANCTUM_ABILITIES, Ability
from engine.protectors.state import CONSOLIDATION, DRAGON, ORDERS, GameState
from engine.protectors.tables import MAX_LEVEL

HIGHMAGISTER_COST = 35  # rules: 003 Cenarion, Fight fire with fire! — 35 $Realm per Highmagister
HIGHMAGISTER_MAX = 9
HIDE_COST, HIDE_COST_UPGRADED = 25, 45  # rules: 003 Kalu'Ak, Nothing to see here! (and Ashes of Power)
# rules: 003 Kalu'Ak, Ashes of Power — "The option to discard the top card does not apply to the Black
# Swan nor the Power Overwhelming cards."
UNDISCARDABLE = frozenset({C.BLACK_SWAN, C.POWER_OVERWHELMING})
PALANTIR_DECKS = {"sea": C.SEA, "end": C.END}
# Abilities used during the Negotiation and Orders phase; they act when submitted (a seat may send them
# alone, before its orders, and still send its orders afterwards: assumption INSTANT_ABILITIES).
INSTANT = frozenset({"weather_forecast", "peek_dragon", "discard_event", "replace_dragon", "palantir"})


def hide_cost(state: GameState, seat: str) -> int:
    """rules: 003 Nothing to see here! — 25 $Realm per Province controlled (45 with Ashes of Power); the Island is
    none (ISLAND_NOT_COUNTED)."""
    per = HIDE_COST_UPGRADED if "ashes_of_power" in ability_flags(state, seat) else HIDE_COST
    return per * len(state.mainland(seat))


def cost(state: GameState, seat: str, a: Ability) -> int:
    if a.name == "fight_fire_with_fire":
        return HIGHMAGISTER_COST * (a.value or 0)
    if a.name == "nothing_to_see_here":
        return hide_cost(state, seat)
    return {"bank_of_lannuvar": BANK_COST, "faith_alone": FAITH_COST, "mountain_king_offer": OFFER_COST,
            "peek_dragon": PEEK_DRAGON_COST, "palantir": PALANTIR_COST}.get(a.name, 0)


def used_now(state: GameState, seat: str) -> set[str]:
    return state.used_this_turn.get(seat, set())


def _peeked(state: GameState, seat: str, deck: str) -> str | None:
    looks = [p for p in state.peeks.get(seat, []) if p["deck"] == deck]
    return looks[-1]["card"] if looks else None


def check(state: GameState, seat: str, a: Ability, earlier: tuple[Ability, ...] = ()) -> str | None:
    """Why ``a`` cannot be used by ``seat`` in the current step (None: it can). ``earlier``: the lines
    before it in the same decision."""
    names = [e.name for e in earlier]
    if a.name in names:
        return "given twice"
    step = state.step
    if step == ORDERS:
        return _check_orders(state, seat, a, names)
    if step == DRAGON:
        return _check_dragon(state, seat, a)
    if step == CONSOLIDATION:
        return _check_consolidation(state, seat, a)
    return f"no ability can be used in the {step} step"


def _check_orders(state: GameState, seat: str, a: Ability, names: list[str]) -> str | None:
    flags = ability_flags(state, seat)
    deck = state.decks[C.EVENT]
    if a.name == "weather_forecast":
        # the free look at the Event deck is shown each orders step (assumption FORECAST_AUTOMATIC); asking
        # for it is accepted and changes nothing
        return None if "weather_forecast" in flags else "only a player with Weather forecast (Kalu'Ak) may"
    if a.name == "peek_dragon":
        # rules: 003 Kalu'Ak, Weather forecast — "Once per game ... the There be Dragons? deck too ...
        # a 15 $Realm donation"
        if "weather_forecast" not in flags:
            return "only a player with Weather forecast (Kalu'Ak) may"
        if "peek_dragon" in state.players[seat].used:
            return "the There be Dragons? deck may be looked at once per game"
        return None
    if a.name == "discard_event":
        # rules: 003 Ashes of Power, upgraded Tier 2 — discard the looked-at top Event card to the bottom
        if not {"weather_forecast", "ashes_of_power"} <= flags:
            return "only with Weather forecast upgraded by Ashes of Power (holding a burnt-out Province)"
        if "discard_event" in used_now(state, seat):
            return "the top Event card was already discarded this turn"
        seen = _peeked(state, seat, C.EVENT)
        if seen is None or not deck.draw or deck.draw[0] != seen:
            return "the top Event card is not the one you looked at"
        if seen in UNDISCARDABLE:
            return f"{seen} may not be discarded"
        return None
    if a.name == "replace_dragon":
        # rules: 003 Ashes of Power — "if the card is not a There be Dragons! card you can choose to
        # remove it from the game and replace it with a There be Dragons! card ... placed on top"
        if not {"weather_forecast", "ashes_of_power"} <= flags:
            return "only with Weather forecast upgraded by Ashes of Power (holding a burnt-out Province)"
        if "replace_dragon" in used_now(state, seat):
            return "already replaced this turn"
        if "peek_dragon" in names:
            return None  # looked at in this same message: replaced if it is not There be Dragons!
        seen = _peeked(state, seat, C.DRAGON)
        top = state.decks[C.DRAGON].draw[0] if state.decks[C.DRAGON].draw else None
        if seen is None or top != seen:
            return "look at the top There be Dragons? card first (Weather forecast: There be Dragons?)"
        if seen == C.THERE_BE_DRAGONS:
            return "the top card already is There be Dragons!"
        return None
    if a.name == "palantir":
        # rules: 003 Island Rules, Palantír — the Wizard Sanctum's controller, 15 $Realm, Sea or The End
        if state.board.island is None or state.provinces[state.board.island].owner != seat:
            return "only the player controlling the Wizard Sanctum may use the Palantír"
        if a.arg not in PALANTIR_DECKS:
            return "look at 'Sea' or 'The End'"
        if "palantir" in used_now(state, seat):
            return "the Palantír was already used this turn"
        return None
    return "not an ability usable in the Negotiation and Orders phase"


def _not_now(state: GameState, seat: str, name: str, who: str) -> str:
    """Why a once-per-game ability is refused: spent already, or not the seat's (its faction's, or gained)."""
    if name in state.players[seat].used:
        return f"already used: {who} may use it once per game"
    return f"only {who} may, once per game"


def _check_dragon(state: GameState, seat: str, a: Ability) -> str | None:
    att = state.attack
    if a.name == "fight_fire_with_fire":
        if not can_use(state, seat, a.name):
            return _not_now(state, seat, a.name, "a Cenarion player")
        if not a.value or not 1 <= a.value <= HIGHMAGISTER_MAX:
            return f"summon 1 to {HIGHMAGISTER_MAX} Highmagisters"
        return None
    if a.name == "nothing_to_see_here":
        if not can_use(state, seat, a.name):
            if a.name in state.players[seat].used:
                return "already used: a Kalu'Ak player may hide once per game (more often with Ashes of Power)"
            return "only a Kalu'Ak player may (once per game unless Ashes of Power)"
        return None
    if a.name == "bank_of_lannuvar":
        if not can_use(state, seat, a.name):
            return _not_now(state, seat, a.name, "a Lannuvár player")
        if att is not None and (att.bank_round or seat in att.bank_seats):
            return "The Bank of Lannuvár is already active for this attack"
        return None
    return "not an ability for a Dragon Attack"


def _check_consolidation(state: GameState, seat: str, a: Ability) -> str | None:
    if a.name == "faith_alone":
        return None if can_use(state, seat, a.name) else _not_now(state, seat, a.name, "an Iron Light player")
    if a.name == "bank_of_lannuvar":
        if not can_use(state, seat, a.name):
            return _not_now(state, seat, a.name, "a Lannuvár player")
        until = state.players[seat].bank_until
        if until is not None and until > state.turn:
            return "The Bank of Lannuvár is already active"
        return None
    if a.name == "mountain_king_offer":
        # rules: 003 Hodir, An offer — holding a lvl 3 Province, with the Mountain King ability unspent
        if not can_use(state, seat, "mountain_king"):
            if "mountain_king" in state.players[seat].used:  # as _not_now words a spent once-per-game ability
                return ("already used: 'The Mountain King sends His Regards' is once per game, and hiring the "
                        "Mountain King's protection needs it unspent")
            return "only a player with an unspent 'The Mountain King sends His Regards' may"
        if not any(state.provinces[p].level == MAX_LEVEL for p in state.owned(seat)):
            return "you control no level 3 Province"
        if state.players[seat].offer_turn == state.turn + 1:
            return "already hired for next turn"
        return None
    if a.name == "sanctum":
        sanctum = state.sanctum
        if not state.options.factions or not sanctum or sanctum["holder"] != seat or not sanctum["pending"]:
            return "no Wizard Sanctum choice to make (made once, in the buying step after capturing it)"
        mode, _, key = (a.arg or "").partition(" ")
        named = SANCTUM_ABILITIES.get(key, key)  # the rulebook's name, as the player wrote it
        if mode == "refresh" and key not in refreshable(state, seat):
            return f"{named} is not a one-time ability you have used"
        if mode == "gain" and key not in gainable(state, seat):
            return f"{named} is not another faction's ability you lack"
        if mode not in ("refresh", "gain"):
            return "refresh or gain"
        return None
    return "not an ability for the Consolidation phase"


def check_all(state: GameState, seat: str, abilities: tuple[Ability, ...]) -> list[tuple[Ability, str]]:
    """Every ability line that may not be used, with the reason (costs are checked by the caller)."""
    out = []
    for i, a in enumerate(abilities):
        why = check(state, seat, a, abilities[:i])
        if why:
            out.append((a, why))
    return out


def legal_abilities(state: GameState, seat: str) -> list[Ability]:
    """Every single ability line the seat may add to its decision now (affordable, usable)."""
    if seat not in state.players or state.players[seat].eliminated:
        return []
    if holds_none(state.players[seat]) and state.board.island is None:
        # rules: 003 Factions (each ability is a faction's), Island Rules (Wizard Sanctum: gained ones;
        # Palantír: the Island's). No faction, nothing gained and no Island leave nothing to offer (the
        # common case, asked for every seat view)
        return []
    realm = state.players[seat].realm
    candidates: list[Ability] = []
    if state.step == ORDERS:
        candidates = [Ability("peek_dragon"), Ability("discard_event"), Ability("replace_dragon"),
                      Ability("palantir", arg="sea"), Ability("palantir", arg="end")]
    elif state.step == DRAGON:
        candidates = [Ability("fight_fire_with_fire", n) for n in range(1, HIGHMAGISTER_MAX + 1)]
        candidates += [Ability("nothing_to_see_here"), Ability("bank_of_lannuvar")]
    elif state.step == CONSOLIDATION:
        candidates = [Ability("faith_alone"), Ability("bank_of_lannuvar"), Ability("mountain_king_offer")]
        if state.sanctum and state.sanctum["holder"] == seat:
            candidates += [Ability("sanctum", arg=f"refresh {k}") for k in refreshable(state, seat)]
            candidates += [Ability("sanctum", arg=f"gain {k}") for k in gainable(state, seat)]
    return [a for a in candidates if check(state, seat, a) is None and cost(state, seat, a) <= realm]
