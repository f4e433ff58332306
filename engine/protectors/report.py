"""Reports a GM posts: the public report of what happened, and each seat's private DM summary.

The events themselves (engine/protectors/*.py, each naming its rule) decide what is public: an
event with ``visible_to`` set is that seat's alone (rules: 003 Each Turn — orders and choices are
secret until "revealed to all players at the same time as they are executed"). This module only
selects and words them:

- :func:`public_report` — the events a seat (or, for ``seat=None``, every player) may see, for one
  turn or from an event index on (``since``: only what is new since the last post), with display
  names in place of ``Player#N`` (rules: 003 Setup — players are named by colour or Discord name).
- :func:`private_summary` — one seat's DM: balance, units, Provinces, its $Realm changes this turn,
  what happened to each of its orders and why, and what it must send next.
"""

from __future__ import annotations

import re
from typing import Any

from engine.protectors import mountain_king
from engine.protectors.events import Event, listed
from engine.protectors.state import BANK_BID, DRAGON, GameState
from engine.protectors.tables import MAX_LEVEL, min_us
from engine.protectors.victory import victory_points

SEAT_ID = re.compile(r"Player#\d+")
BANK_RULE = "003 The Bank of Lannuvár"  # the rule of the others' bids revealed to a Bank seat
HIDDEN_KINDS = ("phase",)  # step markers: the report's turn headers already say where we are


def display_names(state: GameState) -> dict[str, str]:
    """Seat -> the name reports use: the setup's display name, else the seat (``Player#3``)."""
    return {s: (p.name or s) for s, p in state.players.items()}


def named(text: str, names: dict[str, str]) -> str:
    """``text`` with every seat id replaced by its display name (``Player#1`` never matches inside
    ``Player#12``: the pattern takes all the digits)."""
    return SEAT_ID.sub(lambda m: names.get(m.group(0), m.group(0)), text)


def _shown(e: Event, seat: str | None) -> bool:
    """The GM's public report (``seat`` None) leaves private events out; a seat's has its own."""
    return e.kind not in HIDDEN_KINDS and (e.visible_to is None or (seat is not None and seat in e.visible_to))


def public_report(state: GameState, turn: int | None = None, seat: str | None = None,
                  since: int | None = None) -> str:
    """The report text: ``== Turn N ==`` headers and one ``- line`` per event.

    ``since`` None: the events of ``turn`` (default: the current turn), always with its header.
    ``since`` an event index: only the events from that index on (of ``turn`` too, if given), one
    header per turn they span; the empty string when there is nothing new. The index counts the
    events ``seat`` may see (``Game.events(seat)``; for the GM, ``seat`` None, every event), so a
    seat's index says nothing about how many events were hidden from it.
    """
    names = display_names(state)
    if since is None:
        t = state.turn if turn is None else turn
        lines = [f"== Turn {t} =="]
        lines += [f"- {named(e.text, names)}" for e in state.events if e.turn == t and _shown(e, seat)]
        return "\n".join(lines)
    if isinstance(since, bool) or not isinstance(since, int) or since < 0:
        from engine.errors import ValidationError

        raise ValidationError("since", f"an event index >= 0, not {since!r}")
    lines = []
    current = None
    for e in [e for e in state.events if e.visible(seat)][since:]:
        if (turn is not None and e.turn != turn) or not _shown(e, seat):
            continue
        if e.turn != current:
            current = e.turn
            lines.append(f"== Turn {current} ==")
        lines.append(f"- {named(e.text, names)}")
    return "\n".join(lines)


def quiet_turn(game: Any, turn: int | None = None) -> str:
    """What to say under the header of ``turn``'s public report (default: the current turn) when no event of it
    is there to show, so it does not read as an empty report ("" when there is something). A game brought in
    from a position on that turn says so (docs/positions.md: the event log before it is not carried)."""
    st: GameState = game.state
    t = st.turn if turn is None else turn
    if any(e.turn == t and _shown(e, None) for e in st.events):
        return ""
    pos = game.setup.get("position") if isinstance(game.setup, dict) else None
    if isinstance(pos, dict) and t == _first_turn(game):
        step = pos.get("step", "orders")
        return (f"Nothing has happened since the game was brought in here from a position, at turn {t}'s {step} "
                "step (what came before is not in its record).")
    return "Nothing has happened yet this turn." if t == st.turn else f"Nothing public happened in turn {t}."


# -- a seat's private summary ------------------------------------------------------------------


def report_since(state: GameState, since: int, seat: str | None = None) -> tuple[str, int]:
    """The report of what is new since event ``since`` (counted as in :func:`public_report`) and the
    index to pass next time."""
    text = public_report(state, None, seat, since)
    return text, sum(1 for e in state.events if e.visible(seat))


# what a finished turn's record holds beside "turn", "provinces" and "vp" (GameState.history)
RECORD_KEYS = ("dragon_vp", "units", "owned", "levels", "burnt")


def turn_record(st: GameState) -> dict[str, Any]:
    """What a past turn's private summary needs, as the turn's Consolidation ends it (``Game`` adds it
    to the turn's ``GameState.history`` entry beside the Provinces and VP it already kept). All of it is
    public (the board and the Dragon's VP): a balance is not, so it is read back from the seat's ledger
    instead (:func:`_realm_at`). Kept small: only seats and Provinces with something to say.

    ``dragon_vp`` seat -> VP earned against the Dragon (not 0); ``units`` seat -> {Province: Army Units
    it holds there}; ``owned`` seat -> its Provinces (board order); ``levels`` Province -> level (owned,
    not 0); ``burnt`` the owned burnt-out Provinces."""
    units: dict[str, dict[str, int]] = {}
    owned: dict[str, list[str]] = {}
    levels: dict[str, int] = {}
    burnt: list[str] = []
    for prov, pr in st.provinces.items():
        holder = pr.occupant or pr.owner
        if holder is not None and pr.units:
            units.setdefault(holder, {})[prov] = pr.units
        if pr.owner is not None:
            owned.setdefault(pr.owner, []).append(prov)
            if pr.level:
                levels[prov] = pr.level
            if pr.burnt:
                burnt.append(prov)
    dragon_vp = {s: p.vp for s, p in st.players.items() if p.vp}
    return {"dragon_vp": dragon_vp, "units": units, "owned": owned, "levels": levels, "burnt": burnt}


def _record_of(st: GameState, turn: int) -> dict[str, Any] | None:
    """The history entry of finished ``turn`` (the last, should a position have listed it twice)."""
    found: dict[str, Any] | None = None
    for h in st.history:
        if h.get("turn") == turn:
            found = h
    return found


def _first_turn(game: Any) -> int:
    """The first turn this game's ledger covers: 1, or the turn a position was imported on."""
    pos = game.setup.get("position") if isinstance(game.setup, dict) else None
    if isinstance(pos, dict):
        turn = pos.get("turn", 1)
        return turn if isinstance(turn, int) else 1
    return 1


def _realm_at(st: GameState, seat: str, turn: int) -> int:
    """``seat``'s $Realm at the end of ``turn``: what it holds now less every change since (every change
    goes through ``events.money`` and its ledger)."""
    later = 0
    for (lt, s, delta, _rule) in st.ledger:
        if s == seat and lt > turn:
            later += delta
    return st.players[seat].realm - later


def _figures(game: Any, seat: str, t: int) -> list[str]:
    """The balance, VP, Army Units and Provinces lines: as they are now for the current turn, as they
    were at the end of ``t`` for a finished one. What the game has no record of (a turn before a position
    was imported, or a record an older version wrote) is given as it is now, and the summary says so."""
    st: GameState = game.state
    p = st.players[seat]
    realm = p.realm
    vp = victory_points(st, seat)
    dragon_vp: int | None = p.vp
    held = {pr: st.provinces[pr].units for pr in st.provinces if st.holder(pr) == seat}
    owned = [_province(st, pr) for pr in st.owned(seat)]
    out: list[str] = []
    if t < st.turn:
        now: list[str] = []
        if t >= _first_turn(game):
            realm = _realm_at(st, seat, t)
        else:
            now.append("Balance")
        rec = _record_of(st, t)
        if rec is None:
            now += ["VP", "Army Units", "Provinces"]
        else:
            vp = int(rec["vp"].get(seat, 0))
            dragon_vp = int(rec["dragon_vp"].get(seat, 0)) if "dragon_vp" in rec else None
            if all(k in rec for k in RECORD_KEYS):
                held = dict(rec["units"].get(seat, {}))
                owned = [_province_as(pr, int(rec["levels"].get(pr, 0)), pr in rec["burnt"])
                         for pr in rec["owned"].get(seat, ())]
            else:
                now += ["Army Units", "Provinces"]
        if now:
            if t < _first_turn(game):
                why = f"the game was imported from a position on turn {_first_turn(game)}"
            elif rec is not None:
                why = "the game's record of that turn was written by an older Regent"
            else:
                why = "the game keeps no record of it"
            out.append(f"Not recorded for the end of turn {t} ({why}): {listed(now)} below "
                       f"{'is' if len(now) == 1 else 'are'} as they are now, on turn {st.turn}.")
    out.append(f"Balance: {realm} $Realm. VP: {vp}"
               + (f" ({dragon_vp} earned against the Dragon)." if dragon_vp is not None else "."))
    total = sum(held.values())
    out.append(f"Army Units: {total}" + (" (" + ", ".join(f"{pr} {n}" for pr, n in held.items() if n) + ")"
                                         if total else "") + ".")
    if owned:
        out.append("Provinces: " + ", ".join(owned) + ".")
    return out


def private_summary(game: Any, seat: str, turn: int | None = None, windows: dict[str, float] | None = None) -> str:
    """``seat``'s DM summary for ``turn`` (default: the current one): what only it (and the GM) may
    know — its balance and $Realm changes — beside the public facts about it. The balance, VP, Army Units
    and Provinces of a finished turn are those at its end (:func:`turn_record`), not today's. ``windows``: the
    game's own decision windows (seconds per step kind), which its ``Now: send your ... DM (within 48h).`` says."""
    from engine.errors import ValidationError

    st: GameState = game.state
    if seat not in st.players:
        raise ValidationError("seat", f"unknown seat {seat!r}")
    t = st.turn if turn is None else turn
    names = display_names(st)
    p = st.players[seat]
    title = seat if names[seat] == seat else f"{names[seat]} ({seat})"
    out = [f"== {title}: your summary, turn {t} =="]
    if p.eliminated and (p.eliminated_turn is None or p.eliminated_turn <= t):
        # a position's `eliminated` given as a list names no turn: said so, not "on turn None"
        when = (f"on turn {p.eliminated_turn}" if p.eliminated_turn is not None
                else f"before turn {_first_turn(game)}, when this game was brought in from a position")
        out.append(f"You were eliminated {when}" + (f" ({p.eliminated_by})." if p.eliminated_by else "."))
    # the VP the view and the scoreboard show, then the part earned against the Dragon (positions.md, one VP meaning)
    out += _figures(game, seat, t)
    changes = [(delta, rule) for (lt, s, delta, rule) in st.ledger if lt == t and s == seat]
    if changes:
        out.append(f"$Realm changes on turn {t}:")
        out += [f"- {delta:+d} ({named(_rule_name(rule), names)})" for delta, rule in changes]
    events = [e for e in st.events if e.turn == t and e.visible(seat)]
    orders = _orders_of(events, seat)
    if orders:
        out.append(f"Your orders on turn {t}:")
        # the order as the public report reveals it, in display names (not the seat ids the DM is stored with)
        out += [f"- {named(text, names)}: {named(_order_outcome(st, events, seat, kind, prov, text), names)}"
                for text, kind, prov in orders]
    elif any(e.kind in ("no_orders", "no_orders_from") and seat in e.data.get("seats", ()) for e in events):
        out.append(f"Your orders on turn {t}: none (you sent none).")  # execute._say_none, said to the seat as its own
    said = ("orders", "no_orders", "no_orders_from")  # said above, as its orders
    mine = [e for e in events if e.kind not in HIDDEN_KINDS and e.kind not in said and _concerns(e, seat)]
    if mine:
        out.append(f"What happened to you on turn {t}:")
        out += [f"- {named(e.text, names)}" for e in mine]
    bid_line = _bid_line(st, seat) if t == st.turn and not game.over else None  # the end left no turn to bid for
    if bid_line is not None:
        out.append(bid_line)
    if t == st.turn and seat in st.submissions:
        lines = named("; ".join(ln.text() for ln in st.submissions[seat].lines()), names)
        out.append(f"Your DM for this step (final): {lines or CHOSE_NOTHING.get(game.step, 'nothing')}.")
    if t == st.turn and not game.over:
        pend = game.pending(seat)
        if pend and pend[0].kind == DRAGON and st.attack is not None:
            out.append(_min_us_line(st, seat))
        if pend:
            hours = game.deadline_hours(windows=windows)
            what, within = NOW_WORDS.get(pend[0].kind, pend[0].kind), f" (within {hours}h)" if hours else ""
            # a DM already in: said so, not "send your DM ... Received." (dogfood 16 seats)
            out.append(f"Now: your {what} DM is in; the step resolves when every seat's is, or at its deadline"
                       f"{within}." if pend[0].submitted else f"Now: send your {what} DM{within}.")
    return "\n".join(out)


def _min_us_line(st: GameState, seat: str) -> str:
    """rules: 003 Resolving a Dragon Attack, min.US — the seat's green Provinces (doubled by the Worldeater): what its
    commitment is judged by, said to it beside the step's Now: line (public, as the report's min.US line; a game brought
    in at its dragon step has no such line, and at 12 seats it lists ten seats)."""
    att = st.attack
    assert att is not None
    green = len(st.green(seat))
    provinces = f"your {green} green Province{'' if green == 1 else 's'}"
    return (f"The Dragon attacks with DPL {att.dpl}: your min.US is {min_us(green, att.worldeater)} ({provinces}"
            + (", doubled by the Worldeater)." if att.worldeater else ")."))


# a DM choosing nothing (stored as no lines) read back to its seat in the rules' words (docs/dm-syntax.md), as the CLI
# answers the GM (service/decision_words.py): not "nothing", as if the DM were lost
CHOSE_NOTHING = {"orders": "none (no orders: your units stay where they are and do nothing)",
                 "dragon": "Turn off the lights (no Army Units committed)"}

# the steps a seat decides in, as its summary's "Now: send your ... DM" line says them (the others by their own name)
NOW_WORDS = {"rebid": "re-bid", "bank_bid": "Bank of Lannuvár bid", "dragon": "Dragon commitments"}
_RANKING = "ranking"  # game.RANKING (game imports this module): a Dragon Attack before the ranking resumes there


def _bid_line(st: GameState, seat: str) -> str | None:
    """The seat's bid set aside in the last Consolidation (rules: 003 Bidding step): for next turn's Protector Ranking
    while this turn goes on; once the turn it was for has begun, for this turn's: revealed in The Bank of Lannuvár's
    step (rules: 003 The Bank of Lannuvár, "once the other players' choices have been revealed"), still secret in a
    Dragon Attack before the ranking. A Bank seat bids in that step: its own line is the Now: line."""
    if seat not in st.next_bids:
        return None
    bid = st.next_bids[seat]
    if st.step == BANK_BID:
        if "bank_bid" in st.players[seat].used_turn:  # game._start_ranking: it bids now
            return None
        return f"Your bid for this turn's Protector Ranking: {bid} $Realm (revealed)."
    if st.step == DRAGON and st.resume == _RANKING:
        return f"Your bid for this turn's Protector Ranking: {bid} $Realm (secret until then)."
    return f"Your bid for next turn's Protector Ranking: {bid} $Realm (secret until then)."


def _province(st: GameState, prov: str) -> str:
    pr = st.provinces[prov]
    return _province_as(prov, pr.level, pr.burnt)


def _province_as(prov: str, level: int, burnt: bool) -> str:
    tags = []
    if level:
        tags.append(f"lvl {level}")
    if burnt:
        tags.append("burnt")
    return prov + (f" ({', '.join(tags)})" if tags else "")


def _rule_name(rule: str) -> str:
    return rule[4:] if rule.startswith("003 ") else rule


def _concerns(e: Event, seat: str) -> bool:
    """An event about ``seat``: it names the seat, or its data does."""
    if e.visible_to is not None:
        return True  # private events shown to this seat are its own
    if e.kind == "bids" and e.rule == BANK_RULE:
        # rules: 003 The Bank of Lannuvár — the others' bids are revealed for the Bank's seats, whom
        # they leave out: what those seats answer (the others are named in it anyway)
        return True
    d = e.data
    if d.get("seat") == seat or seat in (d.get("seats") or ()) or d.get("src") == seat or d.get("dst") == seat:
        return True
    if e.kind == "dragon_battle" and seat in (d.get("contributions") or {}):
        # rules: 003 Resolving a Dragon Attack — the Protector US against the DPL decides the fight of every seat in it:
        # its commitment and its losses read without it say nothing of who won
        return True
    return re.search(re.escape(seat) + r"(?!\d)", e.text) is not None


def _orders_of(events: list[Event], seat: str) -> list[tuple[str, str, str]]:
    """(text, kind, Province) of each order ``seat`` had executed this turn (the revealed orders)."""
    for e in events:
        if e.kind == "orders" and e.data.get("seat") == seat:
            return [(str(o[0]), str(o[1]), str(o[2])) for o in e.data.get("orders", ())]
    return []


def _battles(events: list[Event], prov: str) -> list[Event]:
    return [e for e in events if e.kind == "battle" and e.data.get("province") == prov]


def _battle_line(b: Event, seat: str) -> str:
    us = b.data["us"]
    other = next((s for s in us if s != seat), "?")
    result = "won" if b.data["winner"] == seat else "lost"
    who = mountain_king.SIDE_NAME if other == mountain_king.SIDE else other
    # rules: 003 How to resolve battles — a tie is won on the Protector Ranking, at the cost of 1 unit
    cost = " on the Protector Ranking, losing 1 unit" if b.data.get("tie") and result == "won" else ""
    return (f"{result} the battle in {b.data['province']} ({us.get(seat, 0)} US vs {who} {us.get(other, 0)} US)"
            + cost)


def _order_outcome(st: GameState, events: list[Event], seat: str, kind: str, prov: str, text: str) -> str:
    """What happened to one executed order, and why. # rules: 003 Orders, 4. Execute Orders."""
    for e in events:
        if e.data.get("seat") == seat and e.data.get("province") == prov:
            if e.kind == "invalid_order":
                return "invalid: Ferry! not paid (003 Sea cards, Ferry!)"
            if e.kind == "march_void":
                return "not executed: no units of yours were left in " + prov + " (003 March!, Example 2)"
    if kind == "march":
        moved = [e for e in events if e.kind == "march" and e.data.get("seat") == seat and e.data.get("src") == prov]
        if not moved:
            return "not executed"
        m = moved[0].data
        parts = [f"marched {m['count']} to {m['dst']}"]
        trimmed = [e for e in events if e.kind == "march_trimmed" and e.data.get("seat") == seat
                   and e.data.get("province") == prov]
        if trimmed:
            parts.append(f"only {m['count']} were there when the orders executed (003 Example 2)")
        fought = [b for b in _battles(events, m["dst"]) if seat in b.data["us"]]
        parts += [_battle_line(b, seat) for b in fought]
        if not fought:
            parts.append("no battle")
        return "; ".join(parts)
    if kind == "support":
        order = _support_target(text)
        if order is None:
            return "executed"
        player, target = order
        # rules: 003 Support! — cancelled once its Province is attacked: for the battles of that March stage and
        # the later one (assumption SUPPORT_CANCELLED_BY_BATTLE), so a battle of the March! stage it helped in
        # before a Delayed March! attacked it counted
        stage = _march_stages(events)
        attacked = [stage[id(b)] for b in _battles(events, prov) if id(b) in stage]
        helped = [b for b in _battles(events, target) if player in b.data["us"] and id(b) in stage
                  and (not attacked or stage[id(b)] < min(attacked))]
        if helped:
            won = "won" if helped[0].data["winner"] == player else "lost"
            return (f"counted for {player} in the battle in {target} ({won})"
                    + (f"; {prov} was attacked only after it, by a Delayed March!" if attacked else ""))
        if attacked:
            return f"cancelled: {prov} was attacked (003 Support!)"
        return f"no battle involving {player} in {target}: nothing to support"
    if kind == "fortify":
        fought = [b for b in _battles(events, prov) if seat in b.data["us"]]
        return "; ".join(_battle_line(b, seat) for b in fought) if fought else f"no battle in {prov}"
    if kind == "work":
        fought = [b for b in _battles(events, prov) if seat in b.data["us"]]
        parts = [_battle_line(b, seat) for b in fought]
        produced = [e for e in events if e.kind == "production" and e.data.get("seat") == seat]
        if not produced:
            parts.append("income is paid in the Consolidation phase")
        elif prov in produced[0].data.get("work", ()) and not produced[0].data.get("amount"):
            parts.append("succeeded, but no $Realm was produced this turn (003 Winter Storms)")
        elif prov in produced[0].data.get("work", ()):
            golden = text.startswith("Golden")
            if golden and st.provinces[prov].level >= MAX_LEVEL:  # rules: 003 Golden Work, work!; levels end at 3
                parts.append(f"succeeded, but {prov} is at level {MAX_LEVEL} already: no Upgrade (and, being "
                             "Golden, no extra $Realm)")
            else:
                parts.append(f"succeeded: you may Upgrade {prov} for 25 $Realm" if golden
                             else "succeeded: extra $Realm in the production step")
        elif st.provinces[prov].burnt and st.holder(prov) == seat:
            parts.append(f"no income: {prov} is burnt out (003 The Dragon's Wrath!)")
        else:
            parts.append("no income: no unit of yours was left on it, or all were sent to the Dragon")
        return "; ".join(parts)
    return "executed"


_SUPPORT = re.compile(r"Support! (\S+) in (\S+)")
BATTLE_RULE = "003 How to resolve battles"  # the battles of the Execute Orders phase (execute._fight)


def _march_stages(events: list[Event]) -> dict[int, int]:
    """The Execute Orders battles among ``events`` (by ``id``) -> 0 when fought after the March! orders, 1 after the
    Delayed March! orders. rules: 003 4. Execute Orders: each stage's battles follow its marches, and the second stage
    fights only where a Delayed March! moved units, so a battle after the first delayed march is the second stage's."""
    out: dict[int, int] = {}
    stage = 0
    for e in events:
        if e.kind == "march" and e.data.get("delayed"):
            stage = 1
        elif e.kind == "battle" and e.rule == BATTLE_RULE:
            out[id(e)] = stage
    return out


def _support_target(text: str) -> tuple[str, str] | None:
    m = _SUPPORT.search(text)
    return (m.group(1), m.group(2)) if m else None
