"""A position's abilities: gained from the Wizard Sanctum, spent, running, hired or used this orders step, each only a
seat's that holds it and only in the turn it can run (docs/positions.md, ``used_abilities``, ``gained_abilities``,
``effects``, ``bank_until``, ``offer_turn``, ``used_this_turn``, ``sanctum``).

# rules: 003 Factions; Island Rules, Wizard Sanctum; 5. Consolidation (what it buys runs next turn).
"""

from __future__ import annotations

from engine.errors import ValidationError
from engine.protectors.factions import ability_flags, faction_of
from engine.protectors.orders import SANCTUM_ABILITIES
from engine.protectors.position_reader import AFTER_EXECUTE, RANKING, Reader
from engine.protectors.state import BANK_BID, CONSOLIDATION, DRAGON, ORDERS, OVER

EFFECTS = ("faith_active", "bank_bid")  # Player.used_turn: effects lasting until the next Consolidation
# The ability each per-seat record is of (``check_held``): a once-per-game use spent (``used_abilities``; Weather
# forecast's look at the There be Dragons? deck is its own mark), an effect running (``effects``), the turn
# the Bank of Lannuvár covers (``bank_until``) or Hodir's offer hired (``offer_turn``).
USED_MARK_ABILITY = {"peek_dragon": "weather_forecast"}
EFFECT_ABILITY = {"faith_active": "faith_alone", "bank_bid": "bank_of_lannuvar"}
# an effect written as its ability (``faith_alone``, ``Faith alone sustains us!``): named with the effect meant
EFFECT_WAYS = {way: e for e, a in EFFECT_ABILITY.items() for way in (a, SANCTUM_ABILITIES[a])}
# abilities whose activation (an effect running, a Bank covering a turn) spent their once-per-game use (Hodir's
# offer may be hired again)
ONCE_SPENT = frozenset({"faith_alone", "bank_of_lannuvar"})
# look-aheads (``used_this_turn``) of Weather forecast upgraded by Ashes of Power (a burnt-out Province held)
ASHES_UPGRADE = frozenset({"discard_event", "replace_dragon"})


def read_gained(r: Reader) -> None:
    """The abilities gained from the Wizard Sanctum, made one with its choice.

    rules: 003 Island Rules, Wizard Sanctum — "Gain a Tier 1 or 2 ability from another faction ... The choice
    made is only valid as long as control is maintained over the Wizard Sanctum": a gained ability is the
    Sanctum holder's, and it is the Sanctum's choice. So ``sanctum: {kind: gain, key}`` gives its holder that
    ability (``gained_abilities`` may leave it out); ``gained_abilities`` of the Island's holder with no
    ``sanctum`` given is that choice, made; anything else (a gained ability of a seat not holding the Sanctum,
    or one the Sanctum's choice does not give) is refused, naming the field: kept, it would never revert."""
    st = r.state
    spec = st.sanctum
    holder = spec["holder"] if spec else None
    for s, p in st.players.items():
        if p.gained and s != holder:
            raise ValidationError(f"position.gained_abilities.{s}",
                                  f"{s} does not hold the Wizard Sanctum: only its holder has an ability gained "
                                  "from it, while controlling the Island (rules: 003 Wizard Sanctum)")
    if spec is None or holder is None:
        return
    p = st.players[holder]
    if spec["kind"] is None and p.gained and "sanctum" not in r.pos and len(p.gained) == 1:
        # the Island's holder with a gained ability: the Sanctum's choice was that gain
        spec.update(kind="gain", key=next(iter(p.gained)), pending=False)
    if spec["kind"] is not None and not st.options.factions:
        raise ValidationError("position.sanctum.kind", "the Sanctum's choice exists only in games with factions "
                                                       "(options.factions; SANCTUM_NEEDS_FACTIONS)")
    if spec["kind"] != "gain":
        if p.gained:
            raise ValidationError(f"position.gained_abilities.{holder}",
                                  "the Sanctum's choice gains no ability here: give position.sanctum "
                                  "{holder, kind: 'gain', key} with the ability gained")
        return
    key = spec["key"]
    if p.faction is not None and faction_of(key) == p.faction:
        raise ValidationError("position.sanctum.key", f"{key} is {holder}'s own faction's ({p.faction}): the "
                                                      "Sanctum gains an ability from another faction")
    if p.gained - {key}:
        raise ValidationError(f"position.gained_abilities.{holder}",
                              f"the Sanctum's choice (position.sanctum.key) gains {key}, not "
                              f"{', '.join(sorted(p.gained - {key}))}")
    p.gained.add(key)


def check_held(r: Reader, step: str) -> None:
    """rules: 003 Factions; Island Rules, Wizard Sanctum — a seat spends, activates or hires only an ability it
    holds: its faction's, or one gained from the Wizard Sanctum (``_gained`` has made those one with the
    Sanctum). A once-per-game use spent (``used_abilities``) of an ability the seat does not hold is refused,
    naming the field: losing the Sanctum takes a gained ability back with its use (SANCTUM_REVERT), so no seat
    keeps the use of one it lacks. A running effect (``effects``), a Bank covering a turn (``bank_until``) or an
    offer hired (``offer_turn``) of an ability the seat does not hold is refused too, unless a Sanctum gain of
    it may have been lost since the Consolidation that started it: SANCTUM_REVERT lets a running effect finish,
    and control of the Island is lost by units leaving it (Execute Orders) or by elimination
    (ISLAND_CONTROL_LOST), so only in a game with the Island and factions, for an eliminated seat or after this
    turn's orders were executed (the consolidation step, or a Dragon Attack resuming after them)."""
    st = r.state
    after_moves = step == CONSOLIDATION or (step == DRAGON and st.resume in AFTER_EXECUTE)
    for s, p in st.players.items():
        held = ability_flags(st, s)
        for mark in sorted(p.used):
            ability = USED_MARK_ABILITY.get(mark, mark)
            if ability not in held:
                raise ValidationError(f"position.used_abilities.{s}", f"{mark} spent, but {_not_held(r, s, ability)}")
        records = [("effects", f"{e} running", EFFECT_ABILITY[e]) for e in sorted(p.used_turn)]
        if p.bank_until is not None:
            records.append(("bank_until", f"a Bank covering turn {p.bank_until}", "bank_of_lannuvar"))
        if p.offer_turn is not None:
            records.append(("offer_turn", f"an offer hired for turn {p.offer_turn}", "mountain_king"))
        lost = st.board.island is not None and st.options.factions and (p.eliminated or after_moves)
        for key, what, ability in records:
            if ability not in held and not lost:
                raise ValidationError(f"position.{key}.{s}", f"{what}, but {_not_held(r, s, ability)}")
            if ability in held and ability in ONCE_SPENT:
                # rules: 003 Iron Light / The Bank of Lannuvár — activating it spent its once-per-game use, which
                # a position may leave out of used_abilities (the effect says it)
                p.used.add(ability)
        if step == ORDERS:
            _used_now(r, s, held)
    _effects_timing(r, step)


def _used_now(r: Reader, seat: str, held: set[str]) -> None:
    """rules: 003 Kalu'Ak, Weather forecast / Ashes of Power; Island Rules, Palantír — a look-ahead used in this
    orders step (``used_this_turn``) is one the seat could use: it holds the ability (the Palantír: it controls
    the Wizard Sanctum). A look at the There be Dragons? deck spent its once-per-game use too (marked here)."""
    st = r.state
    field = f"position.used_this_turn.{seat}"
    for mark in sorted(st.used_this_turn.get(seat, set())):
        if mark == "palantir":
            island = st.board.island
            if island is None or st.provinces[island].owner != seat:
                raise ValidationError(field, f"palantir used, but {seat} does not control the Wizard Sanctum "
                                             "(rules: 003 Island Rules, Palantír)")
            continue
        if "weather_forecast" not in held:
            raise ValidationError(field, f"{mark} used, but {_not_held(r, seat, 'weather_forecast')}")
        if mark in ASHES_UPGRADE and "ashes_of_power" not in held:
            raise ValidationError(field, f"{mark} used, but {seat}'s Weather forecast is not upgraded by Ashes of "
                                         "Power (it holds no burnt-out Province: rules: 003 Kalu'Ak, Ashes of Power)")
        if mark == "peek_dragon":
            st.players[seat].used.add(mark)  # the look at the There be Dragons? deck is once per game


def _effects_timing(r: Reader, step: str) -> None:
    """rules: 003 5. Consolidation; Iron Light, Faith alone sustains us!; The Bank of Lannuvár; Hodir, An offer —
    each is bought in a Consolidation for the next turn, so it is running only in the turn after one: a Bank
    covers (``bank_until``) and an offer is hired for (``offer_turn``) this very turn (both end with its
    Consolidation's purchases); Faith's supply bonus ends as this turn's Consolidation begins (so not at the
    consolidation step, nor in a Dragon Attack resuming after that point); the Bank's late bid (``bank_bid``)
    is made at this turn's Protector Ranking (so only at the ranking or bank_bid step, or an attack before the
    ranking), with the Bank covering this turn and no bid set aside in the Consolidation."""
    st = r.state
    if step == OVER:
        return
    for s, p in st.players.items():
        for key, value in (("bank_until", p.bank_until), ("offer_turn", p.offer_turn)):
            if value is not None and (value != st.turn or st.turn == 1):
                raise ValidationError(f"position.{key}.{s}", f"{value}, but on turn {st.turn} it can only be "
                                                             f"{st.turn}: bought in the last Consolidation for this "
                                                             "turn, over at this turn's Consolidation"
                                      if st.turn > 1 else f"{value}, but nothing is bought before turn 1")
        for effect in sorted(p.used_turn):
            field = f"position.effects.{s}"
            if st.turn == 1:
                raise ValidationError(field, f"{effect} running on turn 1: it is bought in a Consolidation")
            consolidating = step == CONSOLIDATION or (step == DRAGON and st.resume == "consolidate_b")
            if effect == "faith_active" and consolidating:
                raise ValidationError(field, "faith_active ended as this turn's Consolidation began (rules: 003 Faith "
                                             "alone sustains us!: until next turn's Consolidation); a Faith bought "
                                             "now runs next turn")
            if effect == "bank_bid":
                if not (step in (RANKING, BANK_BID) or (step == DRAGON and st.resume == RANKING)):
                    raise ValidationError(field, f"bank_bid is the late bid at this turn's Protector Ranking, made "
                                                 f"already at the {step} step (rules: 003 The Bank of Lannuvár)")
                if p.bank_until is None:
                    p.bank_until = st.turn  # the Bank bidding late this turn covers it (left out of the position)
                elif p.bank_until != st.turn:
                    raise ValidationError(f"position.bank_until.{s}", f"must be {st.turn}: {s}'s Bank bids late this "
                                                                      "turn (effects bank_bid) and covers it")
                if s in st.next_bids:
                    raise ValidationError(f"position.bids.{s}", f"{s} activated the Bank of Lannuvár (effects "
                                                                "bank_bid): it set no bid aside in the Consolidation, "
                                                                "it bids after the others' bids are revealed")


def _not_held(r: Reader, seat: str, ability: str) -> str:
    """Why ``seat`` does not hold ``ability``: whose faction's it is, and that it was not gained."""
    st = r.state
    p = st.players[seat]
    name = f"{SANCTUM_ABILITIES[ability]} ({faction_of(ability)}'s)"
    if not st.options.factions:
        return f"this game is played without factions: no seat holds {name} (rules: 003 Factions)"
    side = f"{seat} ({p.faction})" if p.faction else f"{seat} (no faction)"
    return (f"{side} does not hold {name} and did not gain it from the Wizard Sanctum (position.sanctum; "
            "rules: 003 Factions, Wizard Sanctum)")
