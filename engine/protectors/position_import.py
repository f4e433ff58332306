"""Importing a position (``setup["position"]``, docs/positions.md) into a freshly built game state.

Every key is optional (a GM types what they know; the defaults are the smallest assumption, docs/
assumptions.md POSITION_DEFAULTS); every error names its field path (``position.provinces.P3.level``).
What ``position.export_position`` writes comes back field for field.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.errors import RegentError, ValidationError
from engine.protectors import cards as C
from engine.protectors import consolidation as cons
from engine.protectors import legality, peeks, sanctum
from engine.protectors.abilities import INSTANT
from engine.protectors.decisions import Decision, OrdersDecision, from_lines
from engine.protectors.dragon import threshold_now, threshold_reached
from engine.protectors.events import Event
from engine.protectors.factions import (
    FACTIONS,
    ONCE_PER_GAME,
    TIER,
    ability_flags,
    faction_named,
    faction_of,
)
from engine.protectors.notation import parse_text
from engine.protectors.orders import SANCTUM_ABILITIES
from engine.protectors.position import decode_rng
from engine.protectors.state import (
    BANK_BID,
    BID,
    CONSOLIDATION,
    DRAGON,
    ORDERS,
    OVER,
    REBID,
    Attack,
    GameState,
    Province,
)
from engine.protectors.tables import FAITH_SUPPLY_BONUS, ISLAND_SUPPLY_LIMIT, MAX_LEVEL, SUPPLY_LIMIT
from engine.protectors.victory import province_vp

# Steps a position may stand in: the waiting steps (the view's ``step``), the game's end, and two
# internal points a GM may start from: "ranking" (turn 2+, the bids set aside in the last
# Consolidation not yet revealed) and "reveal" (the cards in ``reveal_queue`` still to draw).
RANKING, REVEAL = "ranking", "reveal"
STEPS = (BID, REBID, BANK_BID, ORDERS, DRAGON, CONSOLIDATION, OVER, RANKING, REVEAL)
# steps between the last Consolidation (or the setup) and this turn's orders: the supply limit holds there
TURN_START_STEPS = (BID, REBID, RANKING, REVEAL, BANK_BID, ORDERS)
# ``phase``: the first version's name for a few of them (kept for old positions).
PHASES = {"ranking": RANKING, "orders": ORDERS, "consolidation": CONSOLIDATION}
# Where the turn goes on after a Dragon Attack (the game's internal steps).
RESUME_STEPS = ("ranking", "reveal", "execute", "consolidate_a", "consolidate_b")
ATTACK_SOURCES = ("card", "threshold", "after_burner", "elimination")
EFFECTS = ("faith_active", "bank_bid")  # Player.used_turn: effects lasting until the next Consolidation
# The ability each per-seat record is of (``_held``): a once-per-game use spent (``used_abilities``; Weather
# forecast's look at the There be Dragons? deck is its own mark), an effect running (``effects``), the turn
# the Bank of Lannuvár covers (``bank_until``) or Hodir's offer hired (``offer_turn``).
USED_MARK_ABILITY = {"peek_dragon": "weather_forecast"}
EFFECT_ABILITY = {"faith_active": "faith_alone", "bank_bid": "bank_of_lannuvar"}
# abilities whose activation (an effect running, a Bank covering a turn) spent their once-per-game use (Hodir's
# offer may be hired again)
ONCE_SPENT = frozenset({"faith_alone", "bank_of_lannuvar"})
# look-aheads (``used_this_turn``) of Weather forecast upgraded by Ashes of Power (a burnt-out Province held)
ASHES_UPGRADE = frozenset({"discard_event", "replace_dragon"})
# where a Dragon Attack resumes after this turn's Execute Orders phase: units have left Provinces (the Island)
AFTER_EXECUTE = ("execute", "consolidate_a", "consolidate_b")
ELIMINATED_BY = ("dragon", "players")

POSITION_KEYS = frozenset({
    "turn", "step", "phase", "ranking", "dpl", "realm", "vp", "ashes", "eliminated", "eliminated_this_turn", "factions",
    "used_abilities", "gained_abilities", "effects", "used_this_turn", "bank_until", "offer_turn", "provinces",
    "bids", "bids_asked", "rebid_groups", "cards_in_play", "locked_cards", "reveal_queue", "end_is_nigh", "times_up",
    "decks", "peeks", "sanctum", "work_orders", "golden_work_done", "pirates_due", "pending_attacks", "attack",
    "resume", "orders", "submissions", "history", "result", "rng",
})
PROVINCE_KEYS = frozenset({"owner", "units", "level", "burnt", "occupant"})
ATTACK_KEYS = frozenset({"dpl", "source", "worldeater", "participants", "grand_protector", "ranking_before",
                         "bank_seats", "bank_round", "first"})
RESULT_KEYS = frozenset({"how", "winner", "turn", "vp", "table"})
SANCTUM_KEYS = frozenset({"holder", "kind", "key", "pending"})
MAX_NUMBER = 10**9  # any number in a position ($Realm, units, turn, DPL...): far above play, far below overflow


class _Reader:
    """Typed reads of one position map, each error naming its field path."""

    def __init__(self, state: GameState, pos: dict[str, Any]) -> None:
        self.state = state
        self.pos = pos

    def seat(self, v: Any, field: str) -> str:
        if not isinstance(v, str) or v not in self.state.players:
            named = [s for s, p in self.state.players.items()
                     if isinstance(v, str) and p.name.casefold() == v.casefold()]
            hint = f" (did you mean {named[0]}? a position names seats, not players)" if named else ""
            raise ValidationError(field, f"unknown seat {v!r}{hint}")
        return v

    def count(self, v: Any, field: str) -> int:
        if isinstance(v, str) and v.strip().lstrip("$").isdigit():  # "5" or "$85" typed by hand
            raise ValidationError(field, f"must be a whole number >= 0 written without quotes (got the text {v!r})")
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise ValidationError(field, "must be a whole number >= 0")
        if v > MAX_NUMBER:
            raise ValidationError(field, f"must be at most {MAX_NUMBER:,}")
        return v

    def flag(self, v: Any, field: str) -> bool:
        if not isinstance(v, bool):
            raise ValidationError(field, "must be true or false")
        return v

    def province(self, v: Any, field: str) -> str:
        if not isinstance(v, str) or v not in self.state.provinces:
            raise ValidationError(field, f"{v!r} is not a Province of this board{self.province_hint(v)}")
        return v

    def province_hint(self, v: Any) -> str:
        """What a Province written another way than its key means (``p13``, ``13``, ``Province 13``, ``the
        Island``): a position names Provinces by key only, as the error says."""
        words = " ".join(v.casefold().replace("#", " ").split()) if isinstance(v, str) else ""
        island = self.state.board.island
        if island is not None and words.removeprefix("the ") in ("island", "wizard sanctum"):
            return f" (did you mean {island}? a position names the Island by its key)"
        number = words.removeprefix("province").removeprefix("prov").removeprefix("p").strip(" .")
        key = f"P{int(number)}" if number.isdigit() else None
        return f" (did you mean {key}? a position names Provinces P1, P2, ...)" if key in self.state.provinces else ""

    def seats(self, v: Any, field: str) -> list[str]:
        if not isinstance(v, list):
            raise ValidationError(field, "must be a list of seats")
        out = [self.seat(s, f"{field}[{i}]") for i, s in enumerate(v)]
        twice = [s for i, s in enumerate(out) if s in out[:i]]
        if twice:
            raise ValidationError(field, f"lists {twice[0]} twice")
        return out

    def mapping(self, key: str) -> dict[Any, Any]:
        v = self.pos.get(key)
        if v is None:
            return {}
        if not isinstance(v, dict):
            raise ValidationError(f"position.{key}", "must be a map")
        return v

    def per_seat(self, key: str, read: Callable[[Any, str], Any]) -> dict[str, Any]:
        """``{seat: value}`` under ``key``, each value read by ``read(value, field)``."""
        return {self.seat(s, f"position.{key}"): read(v, f"position.{key}.{s}") for s, v in self.mapping(key).items()}


def _known(v: Any, known: Any) -> bool:
    """``v`` is one of ``known`` (names: strings; anything else, hashable or not, is not)."""
    return isinstance(v, str) and v in known


def _abilities(v: Any, known: Any, field: str) -> set[str]:
    if not isinstance(v, list) or not all(_known(a, known) for a in v):
        raise ValidationError(field, f"must be a list of {', '.join(sorted(known))}")
    return set(v)


def import_position(state: GameState, pos: Any) -> None:
    """Apply ``pos`` (a ``setup["position"]`` map) to a freshly built state. Every key is optional."""
    if not isinstance(pos, dict):
        raise ValidationError("position", "must be a map")
    unknown = set(pos) - POSITION_KEYS
    if unknown:
        raise ValidationError("position", f"unknown keys {sorted(unknown)}")
    r = _Reader(state, pos)
    if "turn" in pos:
        state.turn = r.count(pos["turn"], "position.turn")
        if state.turn < 1:
            raise ValidationError("position.turn", "turns start at 1")
    step = _step(pos, state.turn)
    _players(r)
    _provinces(r)
    if step in TURN_START_STEPS:
        _after_consolidation(r)
    _ranking(r, step)
    state.dpl = r.count(pos.get("dpl", 0), "position.dpl")
    _cards(r, step)
    _dragon(r, step)
    _below_threshold(r, step)
    _consolidation_state(r)
    _bidding(r, step)
    if "history" in pos:
        state.history = _history(r, pos["history"])
    state.ledger = [(0, s, p.realm, "position import") for s, p in state.players.items() if p.realm]
    state.step = step
    if step == OVER:
        state.result = _result(r, pos.get("result"))
    elif pos.get("result") is not None:
        raise ValidationError("position.result", "only a finished game (step 'over') has a result")
    if "rng" in pos:
        state.rng.setstate(decode_rng(pos["rng"]))
    if "sanctum" not in pos:
        sanctum.sync(state)  # an Island held in the position: its Sanctum choice is still to make
    _gained(r)
    _held(r, step)
    if step == ORDERS and "peeks" not in pos:
        peeks.start_orders(state)  # the orders step begins now (Weather forecast looks)
    _submissions(r, step)


def _seat_counts(r: _Reader, v: Any, field: str) -> dict[str, int]:
    if not isinstance(v, dict):
        raise ValidationError(field, "must be a map seat -> number")
    return {r.seat(s, field): r.count(n, f"{field}.{s}") for s, n in v.items()}


HISTORY_KEYS = frozenset({"turn", "provinces", "vp"})
# what a past turn's private summary reads (report.turn_record); older records lack it
HISTORY_RECORD_KEYS = frozenset({"dragon_vp", "units", "owned", "levels", "burnt"})


def _history(r: _Reader, v: Any) -> list[dict[str, Any]]:
    """Per finished turn ``{"turn", "provinces", "vp"}`` (seat -> number), as the game records it, and
    what a past turn's private summary reads (report.turn_record): ``dragon_vp`` seat -> number,
    ``units`` seat -> {Province: number}, ``owned`` seat -> [Province], ``levels`` Province -> level,
    ``burnt`` [Province]. A record without those (an older game's) still loads: the summary then gives
    the figures it lacks as they are now, and says so."""
    if not isinstance(v, list):
        raise ValidationError("position.history", "must be a list of maps (one per finished turn)")
    out = []
    for i, h in enumerate(v):
        field = f"position.history[{i}]"
        if not isinstance(h, dict) or not set(h) >= HISTORY_KEYS or not set(h) <= HISTORY_KEYS | HISTORY_RECORD_KEYS:
            raise ValidationError(field, "must be a map with turn, provinces and vp (and, as the game records "
                                         "them, dragon_vp, units, owned, levels and burnt)")
        entry: dict[str, Any] = {"turn": r.count(h["turn"], f"{field}.turn"),
                                 "provinces": _seat_counts(r, h["provinces"], f"{field}.provinces"),
                                 "vp": _seat_counts(r, h["vp"], f"{field}.vp")}
        if "dragon_vp" in h:
            entry["dragon_vp"] = _seat_counts(r, h["dragon_vp"], f"{field}.dragon_vp")
        if "units" in h:
            if not isinstance(h["units"], dict):
                raise ValidationError(f"{field}.units", "must be a map seat -> {Province: number}")
            entry["units"] = {r.seat(s, f"{field}.units"): _province_counts(r, n, f"{field}.units.{s}")
                              for s, n in h["units"].items()}
        if "owned" in h:
            if not isinstance(h["owned"], dict):
                raise ValidationError(f"{field}.owned", "must be a map seat -> [Province]")
            entry["owned"] = {r.seat(s, f"{field}.owned"): _province_list(r, ps, f"{field}.owned.{s}")
                              for s, ps in h["owned"].items()}
        if "levels" in h:
            entry["levels"] = _province_counts(r, h["levels"], f"{field}.levels")
        if "burnt" in h:
            entry["burnt"] = _province_list(r, h["burnt"], f"{field}.burnt")
        out.append(entry)
    return out


def _province_counts(r: _Reader, v: Any, field: str) -> dict[str, int]:
    if not isinstance(v, dict):
        raise ValidationError(field, "must be a map Province -> number")
    return {r.province(p, field): r.count(n, f"{field}.{p}") for p, n in v.items()}


def _province_list(r: _Reader, v: Any, field: str) -> list[str]:
    if not isinstance(v, list):
        raise ValidationError(field, "must be a list of Provinces")
    return [r.province(p, f"{field}[{i}]") for i, p in enumerate(v)]


def _result(r: _Reader, v: Any) -> dict[str, Any]:
    """A finished game's result: ``how``, ``winner`` (a seat, a team or null: the Dragon), ``turn``,
    ``vp``; Time's Up! adds the ``table`` of sides."""
    if not isinstance(v, dict):
        raise ValidationError("position.result", "a finished game needs its result map")
    extra = set(v) - RESULT_KEYS
    if extra:
        raise ValidationError("position.result", f"unknown keys {sorted(extra)}")
    if not _known(v.get("how"), ("dragon", "last_man_standing", "times_up")):
        raise ValidationError("position.result.how", "must be 'dragon', 'last_man_standing' or 'times_up'")
    if v.get("winner") is not None and not isinstance(v["winner"], str):
        raise ValidationError("position.result.winner", "must be a seat, a team or null (the Dragon)")
    out = {"how": v["how"], "winner": v.get("winner"),
           "turn": r.count(v.get("turn", r.state.turn), "position.result.turn"),
           "vp": _seat_counts(r, v.get("vp", {}), "position.result.vp")}
    if "table" in v:
        table = v["table"]
        if not isinstance(table, list) or not all(
                isinstance(t, dict) and set(t) == {"side", "vp", "units", "realm"} and isinstance(t["side"], str)
                and all(isinstance(t[k], int) and not isinstance(t[k], bool) for k in ("vp", "units", "realm"))
                for t in table):
            raise ValidationError("position.result.table", "must be a list of {side, vp, units, realm}")
        out["table"] = [dict(t) for t in table]
    return out


def _step(pos: dict[str, Any], turn: int) -> str:
    if "step" in pos and "phase" in pos:
        raise ValidationError("position.phase", "give 'step' or the older 'phase', not both")
    if "phase" in pos:
        phase: Any = pos["phase"]
        if not _known(phase, PHASES):
            raise ValidationError("position.phase", "must be 'ranking', 'orders' or 'consolidation'")
        step = PHASES[phase]
    else:
        given: Any = pos.get("step", ORDERS)  # checked before it is a str (the compiled build checks types)
        if not _known(given, STEPS):
            raise ValidationError("position.step", f"must be one of {', '.join(STEPS)}, not {given!r}")
        step = given
    if step == RANKING and turn == 1:
        step = BID  # turn 1's ranking is the first bid
    if step in (BID, REBID) and turn != 1:
        raise ValidationError("position.step", f"the {step} step is on turn 1 only (turn 2+ starts at 'ranking')")
    return step


def _players(r: _Reader) -> None:
    st, pos = r.state, r.pos
    elim = pos.get("eliminated", [])
    if isinstance(elim, list):
        elim = {s: {} for s in r.seats(elim, "position.eliminated")}
    if not isinstance(elim, dict):
        raise ValidationError("position.eliminated", "must be a list of seats or a map seat -> {turn, by}")
    for s, info in elim.items():
        p = st.players[r.seat(s, "position.eliminated")]
        field = f"position.eliminated.{s}"
        if not isinstance(info, dict) or set(info) - {"turn", "by"}:
            raise ValidationError(field, "must be a map with 'turn' and 'by' (both optional)")
        p.eliminated = True
        if info.get("turn") is not None:
            p.eliminated_turn = r.count(info["turn"], f"{field}.turn")
        by = info.get("by")
        if by is not None and not _known(by, ELIMINATED_BY):
            raise ValidationError(f"{field}.by", "must be 'dragon' or 'players'")
        p.eliminated_by = by
    # rules: 003 Fire and blood! — the Dragon's count of eliminated players
    st.dragon_eliminations = sum(1 for p in st.players.values() if p.eliminated_by == "dragon")
    this_turn = r.seats(pos.get("eliminated_this_turn", []), "position.eliminated_this_turn")
    for i, s in enumerate(this_turn):
        if not st.players[s].eliminated:
            raise ValidationError(f"position.eliminated_this_turn[{i}]", f"{s} is not eliminated")
    st.eliminated_this_turn = this_turn
    factions = r.per_seat("factions", _faction)
    if factions and not st.options.factions:
        raise ValidationError("position.factions", "this game is played without factions (options.factions)")
    seats = list(st.players)
    for s, f in factions.items():
        chosen = st.players[s].faction  # the setup's players[i].faction: the seat's for the whole game
        if chosen is not None and chosen != f:
            raise ValidationError(f"position.factions.{s}", f"{f}, but players[{seats.index(s)}].faction is "
                                                            f"{chosen}; give the seat one faction")
        st.players[s].faction = f
    given = r.per_seat("realm", r.count)
    for s, v in given.items():
        st.players[s].realm = v
    for s, p in st.players.items():
        if p.eliminated and s not in given:
            p.realm = 0  # not the starting 50: an eliminated seat's $Realm went to its eliminators or was lost
    for s, v in r.per_seat("used_abilities", lambda v, f: _abilities(v, ONCE_PER_GAME, f)).items():
        st.players[s].used = v
    for s, v in r.per_seat("gained_abilities", lambda v, f: _abilities(v, TIER, f)).items():
        st.players[s].gained = v  # rules: 003 Wizard Sanctum, "Gain"
    for s, v in r.per_seat("effects", lambda v, f: _abilities(v, EFFECTS, f)).items():
        st.players[s].used_turn = v
    st.used_this_turn = r.per_seat("used_this_turn", lambda v, f: _abilities(v, INSTANT, f))
    for s, v in r.per_seat("bank_until", r.count).items():
        st.players[s].bank_until = v
    for s, v in r.per_seat("offer_turn", r.count).items():
        st.players[s].offer_turn = v


def _faction(v: Any, field: str) -> str:
    named = faction_named(v) if isinstance(v, str) else None
    if named is None:
        raise ValidationError(field, f"{v!r} is not one of {', '.join(FACTIONS)}")
    return named


def _provinces(r: _Reader) -> None:
    st, pos = r.state, r.pos
    if "provinces" in pos:
        provs = r.mapping("provinces")
        for name in st.board.all_provinces:
            st.provinces[name] = Province()
        # (``prov`` holds the position's keys, of any type until checked: the compiled build checks types)
        for prov, d in provs.items():
            field = f"position.provinces.{prov}"
            if prov not in st.provinces:
                raise ValidationError(field, f"not a Province of this board{r.province_hint(prov)}")
            if not isinstance(d, dict):
                raise ValidationError(field, "must be a map")
            extra = set(d) - PROVINCE_KEYS
            if extra:
                raise ValidationError(field, f"unknown keys {sorted(extra)}")
            owner = d.get("owner")
            if owner is not None:
                r.seat(owner, f"{field}.owner")
            level = r.count(d.get("level", 0), f"{field}.level")
            if level > MAX_LEVEL:
                raise ValidationError(f"{field}.level", f"levels are 0 to {MAX_LEVEL}")
            units = r.count(d.get("units", 0), f"{field}.units")
            occupant = d.get("occupant")
            if occupant is not None:
                r.seat(occupant, f"{field}.occupant")
                if occupant == owner:
                    raise ValidationError(f"{field}.occupant", "the owner does not occupy its own Province")
            if units and owner is None and occupant is None:
                raise ValidationError(f"{field}.units", "units need an owner")
            burnt = r.flag(d.get("burnt", False), f"{field}.burnt")
            st.provinces[prov] = Province(owner=owner, units=units, occupant=occupant, level=level, burnt=burnt)
    for s, p in st.players.items():
        if p.eliminated:
            for prov, pr in st.provinces.items():
                if s in (pr.owner, pr.occupant):
                    raise ValidationError(f"position.provinces.{prov}.owner", f"{s} is eliminated")
    ashes = pos.get("ashes", [])
    if not isinstance(ashes, list):
        raise ValidationError("position.ashes", "must be a list of burnt Provinces")
    for i, prov in enumerate(ashes):
        if not st.provinces[r.province(prov, f"position.ashes[{i}]")].burnt:
            raise ValidationError(f"position.ashes[{i}]", f"{prov} is not burnt")
    st.ashes = set(ashes)  # rules: 003 Kalu'Ak, Ashes of Power — burnt by the Wrath that eliminated its owner
    # rules: 003 Time's Up! — one VP meaning: the view's (Provinces' VP + VP earned against the Dragon)
    for s, v in r.per_seat("vp", r.count).items():
        held = sum(province_vp(st, q) for q in st.owned(s))
        if v < held:
            raise ValidationError(f"position.vp.{s}", f"{v} is less than the {held} VP of {s}'s Provinces "
                                                      "(vp is the total the view shows)")
        st.players[s].vp = v - held


def _after_consolidation(r: _Reader) -> None:
    """At the start of a turn (the bids, the orders step) the last Consolidation has removed units over the
    supply limit and eliminated every seat left without a Province (rules: 003 5. Consolidation; Eliminate
    Players step): a hand-written position that says otherwise holds a mistake, not a game."""
    st = r.state
    for prov, pr in st.provinces.items():
        holder = st.holder(prov)
        faith = holder is not None and "faith_active" in st.players[holder].used_turn
        # rules: 003 5. Consolidation; Faith alone sustains us! (+1 while active: the position's effects)
        limit = ISLAND_SUPPLY_LIMIT if prov == st.board.island else SUPPLY_LIMIT + (FAITH_SUPPLY_BONUS if faith else 0)
        if pr.units > limit:
            faith_note = "" if prov == st.board.island or faith else (
                f"; {SUPPLY_LIMIT + FAITH_SUPPLY_BONUS} while {holder}'s Faith alone is active: effects faith_active")
            raise ValidationError(f"position.provinces.{prov}.units",
                                  f"{pr.units} is over the supply limit of {limit} that the last Consolidation kept "
                                  f"(rules: 003 5. Consolidation{faith_note})")
    owners = {pr.owner for pr in st.provinces.values()}
    for s, p in st.players.items():
        if not p.eliminated and s not in owners:
            raise ValidationError("position.provinces", f"{s} is in the game but owns no Province: give it its "
                                                        "Provinces, or list it under eliminated")


def _ranking(r: _Reader, step: str) -> None:
    st, pos = r.state, r.pos
    if "ranking" in pos:
        rank = r.seats(pos["ranking"], "position.ranking")
        if step != OVER:
            active = {s for s, p in st.players.items() if not p.eliminated}
            if set(rank) != active:  # (a seat twice: refused by r.seats)
                missing = sorted(active - set(rank), key=list(st.players).index)
                out = [s for s in rank if s not in active]
                said = "; ".join(part for part in (
                    f"missing {', '.join(missing)}" if missing else "",
                    f"{', '.join(out)} {'is' if len(out) == 1 else 'are'} eliminated" if out else "") if part)
                raise ValidationError("position.ranking", f"must list every active seat once: {said}")
        st.ranking = rank
    else:
        st.ranking = [s for s in st.ranking if not st.players[s].eliminated]


def _card_list(v: Any, field: str, deck: str | None = None) -> list[tuple[str, str]]:
    if not isinstance(v, list):
        raise ValidationError(field, "must be a list of card names")
    out = []
    for i, c in enumerate(v):
        if not _known(c, C.CARD_DECK):
            raise ValidationError(f"{field}[{i}]", f"{c!r} is not a card")
        if deck is not None and C.CARD_DECK[c] != deck:
            raise ValidationError(f"{field}[{i}]", f"{c!r} is not a card of the {deck} deck")
        out.append((C.CARD_DECK[c], c))
    return out


def _cards(r: _Reader, step: str) -> None:
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
        _check_counts(d, draw + out, field)
        if not draw and not discard and not any(dk == d for dk, _ in st.cards_this_turn):
            raise ValidationError(field, f"no {d} card left to draw (every other one is locked in play)")
        st.decks[d] = C.Deck(d, draw, discard)
    _decks_active(st)
    shown = {d for d, _ in st.cards_this_turn}
    queue = pos.get("reveal_queue")
    if queue is None:
        # "reveal" starts with the decks of this turn whose card is not yet in play; elsewhere none
        queue = [d for d in C.decks_drawn(st.turn) if d not in shown] if step == REVEAL else []
    if not isinstance(queue, list) or not all(_known(d, C.DECK_ORDER) for d in queue) or len(set(queue)) != len(queue):
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


def _check_counts(deck: str, cards: list[str], field: str) -> None:
    full = C.DECK_CONTENTS[deck]
    if len(cards) > len(full):
        extra = sorted({c for c in cards if cards.count(c) > full.count(c)})  # the card(s) listed too often
        said = "; ".join(f"{c} {cards.count(c)} times, the deck has {full.count(c)}" for c in extra)
        raise ValidationError(field, f"{len(cards)} cards of the {deck} deck; it has {len(full)}"
                              + (f" ({said})" if said else ""))
    if not cards:
        raise ValidationError(field, f"the {deck} deck has no cards at all")
    for c in set(cards):
        # rules: 003 Kalu'Ak, Ashes of Power — a There be Dragons! may replace a removed Dragon card
        if c != C.THERE_BE_DRAGONS and cards.count(c) > full.count(c):
            raise ValidationError(field, f"{cards.count(c)} x {c}; the deck has {full.count(c)}")


def _lines(r: _Reader, v: Any, field: str, step: str) -> Decision:
    """A decision from its DM lines (what export_position writes: the canonical text)."""
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise ValidationError(field, "must be a list of DM lines")
    names = {p.name.lower(): s for s, p in r.state.players.items()}
    try:
        return from_lines(step, parse_text("\n".join(v), players=names))
    except RegentError as err:
        raise ValidationError(field, str(err)) from err


def _below_threshold(r: _Reader, step: str) -> None:
    """rules: 003 Dragon's Power Level and the Power Threshold — "If the DPL at any time equals or exceeds the
    Power Threshold the Dragon will immediately launch a powerful attack": a game waiting for DMs outside a
    Dragon Attack has its DPL below the threshold (the Island is no Province of that count, ISLAND_NOT_COUNTED;
    Bloodlust! in play lowers it). Kept, the attack owed would come only at the next card, with another DPL."""
    st = r.state
    if step in (DRAGON, OVER) or st.turn < 1:
        return
    if threshold_reached(st):  # the threshold's rule is victory.power_threshold's; the message names its value
        raise ValidationError("position.dpl", f"{st.dpl} is at or over the Power Threshold {threshold_now(st)} "
                                              "(docs/positions.md; the Island is no Province of its count, and "
                                              "Bloodlust! in play lowers it): the Dragon would be attacking now; "
                                              "give step 'dragon' with the attack, or check dpl")


def _dragon(r: _Reader, step: str) -> None:
    st, pos = r.state, r.pos
    pending = pos.get("pending_attacks", [])
    if not isinstance(pending, list) or not all(_known(a, ATTACK_SOURCES) for a in pending):
        raise ValidationError("position.pending_attacks", f"must be a list of {', '.join(ATTACK_SOURCES)}")
    st.pending_attacks = list(pending)
    resume = pos.get("resume")
    if resume is not None and not _known(resume, RESUME_STEPS):
        raise ValidationError("position.resume", f"must be one of {', '.join(RESUME_STEPS)}")
    spec = pos.get("attack")
    if spec is None:
        if step == DRAGON:
            raise ValidationError("position.attack", "the dragon step needs the attack waiting for commitments")
        if resume is not None:
            raise ValidationError("position.resume", "only a game waiting in a Dragon Attack resumes")
        return
    if step != DRAGON:
        raise ValidationError("position.attack", "an attack waits for commitments only in the dragon step")
    if not isinstance(spec, dict):
        raise ValidationError("position.attack", "must be a map")
    extra = set(spec) - ATTACK_KEYS
    if extra:
        raise ValidationError("position.attack", f"unknown keys {sorted(extra)}")
    active = st.active()
    dpl = r.count(spec.get("dpl", max(1, st.dpl)), "position.attack.dpl")
    if dpl < 1:
        raise ValidationError("position.attack.dpl", "the Dragon always attacks with a DPL of at least 1")
    source = spec.get("source", "card")
    if not _known(source, ATTACK_SOURCES):
        raise ValidationError("position.attack.source", f"must be one of {', '.join(ATTACK_SOURCES)}")
    # rules: 003 The Mythical Worldeater — DPL >= 3 x #Provinces
    worldeater = r.flag(spec.get("worldeater", dpl >= 3 * st.board.count), "position.attack.worldeater")
    participants = r.seats(spec.get("participants", active), "position.attack.participants")
    gp = spec.get("grand_protector", active[0] if active else None)
    if gp is not None:
        r.seat(gp, "position.attack.grand_protector")
    before = r.seats(spec.get("ranking_before", list(participants)), "position.attack.ranking_before")
    if set(participants) - set(before):
        raise ValidationError("position.attack.ranking_before", "must list every participant")
    att = Attack(dpl, source, worldeater, participants, gp, before)
    if "bank_seats" in spec:
        att.bank_seats = r.seats(spec["bank_seats"], "position.attack.bank_seats")
        att.bank_round = r.flag(spec.get("bank_round", False), "position.attack.bank_round")
    else:  # rules: 003 The Bank of Lannuvár — seats whose Bank covers this turn decide after the others
        from engine.protectors import bank

        st.attack = att
        bank.begin(st)
    st.attack = att
    first = spec.get("first") or {}
    if not isinstance(first, dict):
        raise ValidationError("position.attack.first", "must be a map seat -> DM lines")
    if first and not att.bank_round:
        raise ValidationError("position.attack.first", "only the Bank of Lannuvár's round has revealed commitments")
    att.first = {r.seat(s, "position.attack.first"): _lines(r, v, f"position.attack.first.{s}", DRAGON)
                 for s, v in first.items()}
    for s in participants:
        if att.bank_round and s not in att.bank_seats and s not in att.first and not st.players[s].eliminated:
            raise ValidationError("position.attack.first", f"{s}'s revealed commitment is missing")
    st.resume = resume if resume is not None else REVEAL


def _consolidation_state(r: _Reader) -> None:
    """Work orders in force, Golden Work done, Pirates! debts and this turn's revealed orders."""
    st = r.state
    work = {}
    for prov, w in r.mapping("work_orders").items():
        field = f"position.work_orders.{prov}"
        r.province(prov, field)
        if not isinstance(w, dict) or set(w) - {"seat", "golden"}:
            raise ValidationError(field, "must be a map with 'seat' and 'golden'")
        work[prov] = (r.seat(w.get("seat"), f"{field}.seat"), r.flag(w.get("golden", False), f"{field}.golden"))
    st.work_orders = work
    st.golden_work_done = {r.province(p, "position.golden_work_done"): r.seat(s, f"position.golden_work_done.{p}")
                           for p, s in r.mapping("golden_work_done").items()}
    st.pirates_due = r.per_seat("pirates_due", r.count)  # rules: 003 Pirates!, Collecting $Realm
    orders = {}
    for s, v in r.mapping("orders").items():
        d = _lines(r, v, f"position.orders.{r.seat(s, 'position.orders')}", ORDERS)
        assert isinstance(d, OrdersDecision)
        for o in d.orders:
            src = getattr(o, "src", None)
            if src is not None:
                r.province(src, f"position.orders.{s}")
        orders[s] = d
    st.orders = orders
    st.peeks = {}
    for s, v in r.mapping("peeks").items():
        field = f"position.peeks.{r.seat(s, 'position.peeks')}"
        if not isinstance(v, list):
            raise ValidationError(field, "must be a list of {deck, card, by}")
        looks = []
        for i, x in enumerate(v):
            if (not isinstance(x, dict) or set(x) != {"deck", "card", "by"} or not _known(x["deck"], C.DECK_ORDER)
                    or not isinstance(x["by"], str)
                    or (x["card"] is not None and not (_known(x["card"], C.CARD_DECK)
                                                       and C.CARD_DECK[x["card"]] == x["deck"]))):
                raise ValidationError(f"{field}[{i}]", "must be {deck, card, by} with the card from that deck")
            looks.append(dict(x))
        st.peeks[s] = looks
    spec = r.pos.get("sanctum")
    if spec is None:
        st.sanctum = None
        return
    if not isinstance(spec, dict) or "holder" not in spec:
        raise ValidationError("position.sanctum", "must be a map with holder (and optionally kind, key, pending)")
    if set(spec) - SANCTUM_KEYS:
        raise ValidationError("position.sanctum", f"unknown keys {sorted(set(spec) - SANCTUM_KEYS)}; "
                                                  f"expected {', '.join(sorted(SANCTUM_KEYS))}")
    # what is left out is what a capture leaves; a choice given is made, not still to come
    spec = {**sanctum.taken(st, spec["holder"]), **({"pending": False} if "kind" in spec else {}), **spec}
    island = st.board.island
    holder = r.seat(spec["holder"], "position.sanctum.holder")
    if island is None or st.provinces[island].owner != holder:
        raise ValidationError("position.sanctum.holder", "the Sanctum's holder controls the Island")
    if spec["kind"] not in (None, "refresh", "gain") or (spec["kind"] is not None and not _known(spec["key"], TIER)):
        raise ValidationError("position.sanctum.kind", "must be null, 'refresh' or 'gain' with an ability as key")
    st.sanctum = {"holder": holder, "kind": spec["kind"], "key": spec["key"],
                  "pending": r.flag(spec["pending"], "position.sanctum.pending")}


def _gained(r: _Reader) -> None:
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


def _held(r: _Reader, step: str) -> None:
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


def _used_now(r: _Reader, seat: str, held: set[str]) -> None:
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


def _effects_timing(r: _Reader, step: str) -> None:
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


def _not_held(r: _Reader, seat: str, ability: str) -> str:
    """Why ``seat`` does not hold ``ability``: whose faction's it is, and that it was not gained."""
    st = r.state
    p = st.players[seat]
    name = f"{SANCTUM_ABILITIES[ability]} ({faction_of(ability)}'s)"
    if not st.options.factions:
        return f"this game is played without factions: no seat holds {name} (rules: 003 Factions)"
    side = f"{seat} ({p.faction})" if p.faction else f"{seat} (no faction)"
    return (f"{side} does not hold {name} and did not gain it from the Wizard Sanctum (position.sanctum; "
            "rules: 003 Factions, Wizard Sanctum)")


def _bidding(r: _Reader, step: str) -> None:
    st, pos = r.state, r.pos
    if step == ORDERS and (pos.get("bids") or pos.get("bids_asked")):
        # rules: 003 Protector Ranking — bids made in the Consolidation are "revealed in next turn's Protector Ranking
        # phase", before its orders; none is set aside again until the Consolidation (a bid given here would be shown
        # to its seat as next turn's)
        key = "bids" if pos.get("bids") else "bids_asked"
        raise ValidationError(f"position.{key}", "at the orders step this turn's bids were revealed at its ranking "
                                                 "already, and none is set aside until the Consolidation: leave "
                                                 f"{key} out")
    st.next_bids = r.per_seat("bids", r.count)
    for s, asked in r.per_seat("bids_asked", r.count).items():
        # rules: 003 Bidding step — a bid reduced to what the seat held after buying; the ranking names it
        # when the bids are revealed (reports read it from the Consolidation's private event, made here)
        bid = st.next_bids.get(s)
        if bid is None or asked <= bid:
            raise ValidationError(f"position.bids_asked.{s}", "a bid asked for, above the bid in 'bids'")
        st.events.append(Event(st.turn - 1, "bid_reduced", "003 Bidding step",
                               cons.bid_reduced_text(asked, bid, cons.AFTER_BUYING),
                               {"seat": s, "asked": asked, "bid": bid}, frozenset({s})))
    groups = pos.get("rebid_groups", [])
    if not isinstance(groups, list):
        raise ValidationError("position.rebid_groups", "must be a list of lists of seats")
    st.rebid_groups = [r.seats(g, f"position.rebid_groups[{i}]") for i, g in enumerate(groups)]
    grouped: list[str] = []
    for i, g in enumerate(st.rebid_groups):  # rules: 003 Protector Ranking — seats tied on the same bid
        if len(g) < 2 or set(g) - set(st.ranking) or set(g) & set(grouped):
            raise ValidationError(f"position.rebid_groups[{i}]", "a group is 2+ ranked seats, each in one group")
        grouped += g
    if step == REBID and not st.rebid_groups:
        raise ValidationError("position.rebid_groups", "the rebid step needs the groups of tied seats")
    if step == BANK_BID and not any("bank_bid" in st.players[s].used_turn for s in st.active()):
        raise ValidationError("position.effects", "the bank_bid step needs a seat with the 'bank_bid' effect")


def _submissions(r: _Reader, step: str) -> None:
    """Decisions already sent in this step (secret until it resolves), validated as the game would."""
    from engine.protectors.game import deciding_seats  # game imports setup, which imports this module

    subs = r.mapping("submissions")
    if not subs:
        return
    st = r.state
    deciding = set(deciding_seats(st))
    for s, v in subs.items():
        field = f"position.submissions.{r.seat(s, 'position.submissions')}"
        if s not in deciding:
            raise ValidationError(field, f"{s} has no decision to make in the {st.step} step")
        d = _lines(r, v, field, st.step)
        try:
            st.submissions[s] = legality.validate(st, s, d)
        except RegentError as err:
            raise ValidationError(field, str(err)) from err
