"""Importing a position (``setup["position"]``, docs/positions.md) into a freshly built game state.

Every key is optional (a GM types what they know; the defaults are the smallest assumption, docs/
assumptions.md POSITION_DEFAULTS); every error names its field path (``position.provinces.P3.level``).
What ``position.export_position`` writes comes back field for field. The reads are ``position_reader``'s; the cards
and decks ``position_cards``', the abilities ``position_abilities``'.
"""

from __future__ import annotations

from typing import Any

from engine.errors import RegentError, ValidationError
from engine.protectors import cards as C
from engine.protectors import consolidation as cons
from engine.protectors import legality, peeks, sanctum
from engine.protectors.abilities import INSTANT
from engine.protectors.close_names import unknown_keys
from engine.protectors.decisions import Decision, OrdersDecision, from_lines
from engine.protectors.dragon import threshold_now, threshold_reached
from engine.protectors.events import Event
from engine.protectors.factions import ONCE_PER_GAME, TIER, check_faction
from engine.protectors.notation import parse_text
from engine.protectors.position import decode_rng
from engine.protectors.position_abilities import EFFECT_WAYS, EFFECTS, check_held, read_gained
from engine.protectors.position_cards import card_hint, read_cards
from engine.protectors.position_reader import RANKING, REVEAL, Reader, abilities_of, ability_key, one_of
from engine.protectors.position_starts import read_starts
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
STEPS = (BID, REBID, BANK_BID, ORDERS, DRAGON, CONSOLIDATION, OVER, RANKING, REVEAL)
# steps between the last Consolidation (or the setup) and this turn's orders: the supply limit holds there
TURN_START_STEPS = (BID, REBID, RANKING, REVEAL, BANK_BID, ORDERS)
# ``phase``: the first version's name for a few of them (kept for old positions).
PHASES = {"ranking": RANKING, "orders": ORDERS, "consolidation": CONSOLIDATION}
# Where the turn goes on after a Dragon Attack (the game's internal steps).
RESUME_STEPS = ("ranking", "reveal", "execute", "consolidate_a", "consolidate_b")
ATTACK_SOURCES = ("card", "threshold", "after_burner", "elimination")
ELIMINATED_BY = ("dragon", "players")

POSITION_KEYS = frozenset({
    "turn", "step", "phase", "ranking", "dpl", "realm", "vp", "ashes", "eliminated", "eliminated_this_turn", "factions",
    "used_abilities", "gained_abilities", "effects", "used_this_turn", "bank_until", "offer_turn", "provinces",
    "bids", "bids_asked", "rebid_groups", "cards_in_play", "locked_cards", "reveal_queue", "end_is_nigh", "times_up",
    "decks", "peeks", "sanctum", "work_orders", "golden_work_done", "pirates_due", "pending_attacks", "attack",
    "resume", "orders", "submissions", "history", "result", "rng",
    "steps_resolved", "starts",
})
PROVINCE_KEYS = frozenset({"owner", "units", "level", "burnt", "occupant"})
ATTACK_KEYS = frozenset({"dpl", "source", "worldeater", "participants", "grand_protector", "ranking_before",
                         "bank_seats", "bank_round", "first"})
RESULT_KEYS = frozenset({"how", "winner", "turn", "vp", "table"})
SANCTUM_KEYS = frozenset({"holder", "kind", "key", "pending"})








def import_position(state: GameState, pos: Any, typed_starts: dict[str, str] | None = None) -> None:
    """Apply ``pos`` (a ``setup["position"]`` map) to a freshly built state. Every key is optional. ``typed_starts``:
    the seats' starts the setup's ``players[i].start`` gave (``position_starts``)."""
    if not isinstance(pos, dict):
        raise ValidationError("position", "must be a map")
    unknown = set(pos) - POSITION_KEYS
    if unknown:
        raise ValidationError("position", unknown_keys(unknown, POSITION_KEYS))
    r = Reader(state, pos)
    if "turn" in pos:
        state.turn = r.count(pos["turn"], "position.turn")
        if state.turn < 1:
            raise ValidationError("position.turn", "turns start at 1")
    step = _step(pos, state.turn)
    _players(r)
    _provinces(r)
    read_starts(r, typed_starts or {})
    _no_occupant(r, step)
    if step in TURN_START_STEPS:
        _after_consolidation(r)
    _ranking(r, step)
    state.dpl = r.count(pos.get("dpl", 0), "position.dpl")
    read_cards(r, step)
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
    if "steps_resolved" in pos:  # read by position.steps_before: the AI seats' dice count on from it
        r.count(pos["steps_resolved"], "position.steps_resolved")
    if "sanctum" not in pos:
        sanctum.sync(state)  # an Island held in the position: its Sanctum choice is still to make
    read_gained(r)
    check_held(r, step)
    if step == ORDERS and "peeks" not in pos:
        peeks.start_orders(state)  # the orders step begins now (Weather forecast looks)
    _submissions(r, step)


def _seat_counts(r: Reader, v: Any, field: str) -> dict[str, int]:
    if not isinstance(v, dict):
        raise ValidationError(field, "must be a map seat -> number")
    return {r.seat(s, field): r.count(n, f"{field}.{s}") for s, n in v.items()}


HISTORY_KEYS = frozenset({"turn", "provinces", "vp"})
# what a past turn's private summary reads (report.turn_record); older records lack it
HISTORY_RECORD_KEYS = frozenset({"dragon_vp", "units", "owned", "levels", "burnt"})


def _history(r: Reader, v: Any) -> list[dict[str, Any]]:
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


def _province_counts(r: Reader, v: Any, field: str) -> dict[str, int]:
    if not isinstance(v, dict):
        raise ValidationError(field, "must be a map Province -> number")
    return {r.province(p, field): r.count(n, f"{field}.{p}") for p, n in v.items()}


def _province_list(r: Reader, v: Any, field: str) -> list[str]:
    if not isinstance(v, list):
        raise ValidationError(field, "must be a list of Provinces")
    return [r.province(p, f"{field}[{i}]") for i, p in enumerate(v)]


def _result(r: Reader, v: Any) -> dict[str, Any]:
    """A finished game's result: ``how``, ``winner`` (a seat, a team or null: the Dragon), ``turn``,
    ``vp``; Time's Up! adds the ``table`` of sides."""
    if not isinstance(v, dict):
        raise ValidationError("position.result", "a finished game needs its result map")
    extra = set(v) - RESULT_KEYS
    if extra:
        raise ValidationError("position.result", unknown_keys(extra, RESULT_KEYS))
    if not one_of(v.get("how"), ("dragon", "last_man_standing", "times_up")):
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
        if not one_of(phase, PHASES):
            raise ValidationError("position.phase", "must be 'ranking', 'orders' or 'consolidation'")
        step = PHASES[phase]
    else:
        given: Any = pos.get("step", ORDERS)  # checked before it is a str (the compiled build checks types)
        if not one_of(given, STEPS):
            raise ValidationError("position.step", f"must be one of {', '.join(STEPS)}, not {given!r}")
        step = given
    if step == RANKING and turn == 1:
        step = BID  # turn 1's ranking is the first bid
    if step in (BID, REBID) and turn != 1:
        raise ValidationError("position.step", f"the {step} step is on turn 1 only (turn 2+ starts at 'ranking')")
    return step


def _players(r: Reader) -> None:
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
            if p.eliminated_turn < 1:
                raise ValidationError(f"{field}.turn", "turns start at 1")
            if p.eliminated_turn > st.turn:
                raise ValidationError(f"{field}.turn", f"{p.eliminated_turn} is after this position's turn {st.turn}")
        by = info.get("by")
        if by is not None and not one_of(by, ELIMINATED_BY):
            raise ValidationError(f"{field}.by", "must be 'dragon' or 'players'")
        p.eliminated_by = by
    # rules: 003 Fire and blood! — the Dragon's count of eliminated players
    st.dragon_eliminations = sum(1 for p in st.players.values() if p.eliminated_by == "dragon")
    this_turn = r.seats(pos.get("eliminated_this_turn", []), "position.eliminated_this_turn")
    for i, s in enumerate(this_turn):
        if not st.players[s].eliminated:
            raise ValidationError(f"position.eliminated_this_turn[{i}]", f"{s} is not eliminated")
    st.eliminated_this_turn = this_turn
    factions = r.per_seat("factions", check_faction)
    if factions and not st.options.factions:
        raise ValidationError("position.factions", "this game is played without factions: add \"options\": "
                                                   "{\"factions\": true} to the setup, or leave position.factions out")
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
    for s, v in r.per_seat("used_abilities", lambda v, f: abilities_of(v, ONCE_PER_GAME, f)).items():
        st.players[s].used = v
    for s, v in r.per_seat("gained_abilities", lambda v, f: abilities_of(v, TIER, f)).items():
        st.players[s].gained = v  # rules: 003 Wizard Sanctum, "Gain"
    for s, v in r.per_seat("effects", lambda v, f: abilities_of(v, EFFECTS, f, EFFECT_WAYS)).items():
        st.players[s].used_turn = v
    st.used_this_turn = r.per_seat("used_this_turn", lambda v, f: abilities_of(v, INSTANT, f))
    for s, v in r.per_seat("bank_until", r.count).items():
        st.players[s].bank_until = v
    for s, v in r.per_seat("offer_turn", r.count).items():
        st.players[s].offer_turn = v


def _provinces(r: Reader) -> None:
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
                raise ValidationError(field, unknown_keys(extra, PROVINCE_KEYS))
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
                    key = "owner" if s == pr.owner else "occupant"
                    raise ValidationError(f"position.provinces.{prov}.{key}",
                                          f"{s} is eliminated (position.eliminated): take it out of position."
                                          f"eliminated, or give {prov} its {key} now")
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


def _no_occupant(r: Reader, step: str) -> None:
    """rules: 003 Eliminate Players step — a seat's units standing in another's Province after a March! (``occupant``)
    seize it in that step, before the Consolidation: at a turn's start or at the Consolidation none stands so (taken,
    it seized the Province at the next Eliminate Players step, with no battle nor order)."""
    if step not in TURN_START_STEPS and step != CONSOLIDATION:
        return
    for prov, pr in r.state.provinces.items():
        if pr.occupant is not None:
            raise ValidationError(f"position.provinces.{prov}.occupant",
                                  f"at the {step} step no seat's units stand in another's Province: the last "
                                  "Eliminate Players step gave such a Province to its occupant (rules: 003 Eliminate "
                                  f"Players step); give {pr.occupant} as its owner, or leave occupant out")


def _after_consolidation(r: Reader) -> None:
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


def _ranking(r: Reader, step: str) -> None:
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


















def _lines(r: Reader, v: Any, field: str, step: str) -> Decision:
    """A decision from its DM lines (what export_position writes: the canonical text)."""
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise ValidationError(field, "must be a list of DM lines")
    names = {p.name.lower(): s for s, p in r.state.players.items()}
    try:
        return from_lines(step, parse_text("\n".join(v), players=names))
    except RegentError as err:
        raise ValidationError(field, str(err)) from err


def _below_threshold(r: Reader, step: str) -> None:
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


def _dragon(r: Reader, step: str) -> None:
    st, pos = r.state, r.pos
    pending = pos.get("pending_attacks", [])
    if not isinstance(pending, list) or not all(one_of(a, ATTACK_SOURCES) for a in pending):
        raise ValidationError("position.pending_attacks", f"must be a list of {', '.join(ATTACK_SOURCES)}")
    st.pending_attacks = list(pending)
    resume = pos.get("resume")
    if resume is not None and not one_of(resume, RESUME_STEPS):
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
        raise ValidationError("position.attack", unknown_keys(extra, ATTACK_KEYS))
    active = st.active()
    dpl = r.count(spec.get("dpl", max(1, st.dpl)), "position.attack.dpl")
    if dpl < 1:
        raise ValidationError("position.attack.dpl", "the Dragon always attacks with a DPL of at least 1")
    source = spec.get("source", "card")
    if not one_of(source, ATTACK_SOURCES):
        raise ValidationError("position.attack.source", f"must be one of {', '.join(ATTACK_SOURCES)}")
    # rules: 003 The Mythical Worldeater — DPL >= 3 x #Provinces
    worldeater = r.flag(spec.get("worldeater", dpl >= 3 * st.board.count), "position.attack.worldeater")
    participants = r.seats(spec.get("participants", active), "position.attack.participants")
    # rules: 003 Dragon Attack — every Protector still in the game answers it (the game's attacks take the active seats
    # as it begins, the Grand Protector the first of the ranking): a seat left out would never commit, an eliminated
    # one would commit and could be rewarded
    gone = [s for s in participants if st.players[s].eliminated]
    if gone:
        raise ValidationError("position.attack.participants", f"{', '.join(gone)} {'is' if len(gone) == 1 else 'are'} "
                                                              "eliminated")
    missing = [s for s in active if s not in participants]
    if missing:
        raise ValidationError("position.attack.participants", "must list every seat in the game: missing "
                                                              + ", ".join(missing))
    gp = spec.get("grand_protector", active[0] if active else None)
    if gp is not None and r.seat(gp, "position.attack.grand_protector") not in participants:
        raise ValidationError("position.attack.grand_protector", f"{gp} is not one of the attack's participants")
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


def _consolidation_state(r: Reader) -> None:
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
    for prov, seat in st.golden_work_done.items():
        # rules: 003 Golden Orders, Golden Work, work! — played in the seat's own Province, which it may then upgrade
        owner = st.provinces[prov].owner
        if owner is not None and owner != seat:
            raise ValidationError(f"position.golden_work_done.{prov}", f"{seat} does not own {prov} ({owner} does)")
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
            if (not isinstance(x, dict) or set(x) != {"deck", "card", "by"} or not one_of(x["deck"], C.DECK_ORDER)
                    or not isinstance(x["by"], str)
                    or (x["card"] is not None and not (one_of(x["card"], C.CARD_DECK)
                                                       and C.CARD_DECK[x["card"]] == x["deck"]))):
                card = x.get("card") if isinstance(x, dict) else None
                hint = "" if one_of(card, C.CARD_DECK) else card_hint(card)  # a card misspelt, named
                raise ValidationError(f"{field}[{i}]", f"must be {{deck, card, by}} with the card from that deck{hint}")
            looks.append(dict(x))
        st.peeks[s] = looks
    spec = r.pos.get("sanctum")
    if spec is None:
        st.sanctum = None
        return
    if not isinstance(spec, dict) or "holder" not in spec:
        raise ValidationError("position.sanctum", "must be a map with holder (and optionally kind, key, pending)")
    if set(spec) - SANCTUM_KEYS:
        raise ValidationError("position.sanctum", f"{unknown_keys(set(spec) - SANCTUM_KEYS, SANCTUM_KEYS)}; "
                                                  f"expected {', '.join(sorted(SANCTUM_KEYS))}")
    # what is left out is what a capture leaves; a choice given is made, not still to come
    spec = {**sanctum.taken(st, spec["holder"]), **({"pending": False} if "kind" in spec else {}), **spec}
    island = st.board.island
    holder = r.seat(spec["holder"], "position.sanctum.holder")
    if island is None:
        raise ValidationError("position.sanctum",
                              f"this board has no Island, so no Wizard Sanctum{st.board.island_hint()}")
    owner = st.provinces[island].owner
    if owner != holder:
        # rules: 003 Island Rules — the Wizard Sanctum is the Island's; said with who holds the Island, so the GM sees
        # which of the two (sanctum, or the Island in provinces) is the slip
        held = f"{owner}'s" if owner else "no one's"
        raise ValidationError("position.sanctum.holder", f"{holder}, but the Sanctum's holder controls the Island, "
                                                         f"and {island} is {held} in position.provinces")
    if spec["kind"] not in (None, "refresh", "gain"):
        raise ValidationError("position.sanctum.kind", "must be null, 'refresh' or 'gain' with an ability as key")
    if spec["kind"] is not None:
        ability_key(spec["key"], TIER, "position.sanctum.key")  # a misspelt one named with the key meant
    st.sanctum = {"holder": holder, "kind": spec["kind"], "key": spec["key"],
                  "pending": r.flag(spec["pending"], "position.sanctum.pending")}












def _bidding(r: Reader, step: str) -> None:
    st, pos = r.state, r.pos
    after_ranking = step in (ORDERS, CONSOLIDATION, REVEAL) or (step == DRAGON and st.resume != RANKING)
    if after_ranking and (pos.get("bids") or pos.get("bids_asked")):
        # rules: 003 Protector Ranking — bids made in the Consolidation are "revealed in next turn's Protector Ranking
        # phase", before its cards and orders; none is set aside again until the Consolidation's Bidding step resolves
        # (a bid given here would be shown to its seat as next turn's, then replaced by the Consolidation's)
        key = "bids" if pos.get("bids") else "bids_asked"
        hint = {CONSOLIDATION: " (bids already sent in this Consolidation are DMs: give them in submissions, "
                               "'Bid 10')",
                DRAGON: " (an attack before this turn's ranking goes on to it: resume 'ranking')"}.get(step, "")
        raise ValidationError(f"position.{key}", f"at the {step} step this turn's bids were revealed at its ranking "
                                                 "already, and none is set aside until the Consolidation: leave "
                                                 f"{key} out{hint}")
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


def _submissions(r: Reader, step: str) -> None:
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
