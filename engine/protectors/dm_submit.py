"""A DM as one seat's decision: what was accepted, what was left out, what lenient mode dropped.

``settle(state, seat, reading, lenient)`` turns a ``dm_read.DmReading`` into a legal decision, or
raises. Strict (the default): any refused line, or any line the rules reject (``legality``), refuses the
whole DM and nothing is stored. Lenient: those lines are dropped, each with why, and the rest stands
(rules: 003 Each Turn -- "Once a DM is sent to the GM, your orders/choices are final", so a GM may keep
what was valid rather than ask again). ``Game.submit_dm`` stores the result and answers a ``DmResult``.

'all' in a DM (``March! all from P1 to P7``, ``all from P6``, ``Bid all``: ``notation.ALL``) is made a number here,
the one place that knows the game's state (``_settle_all``), so the stored decision and the answer carry it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from engine.errors import IllegalOrderError, RegentError
from engine.protectors import legality
from engine.protectors.decisions import Decision, DragonDecision, OrdersDecision, from_lines
from engine.protectors.dm_partial import culprits, with_rule_errors
from engine.protectors.dm_read import CORRECTION, MAX_REPORTED, OTHER_SEAT, OTHER_TURN, DmLine, DmReading
from engine.protectors.dm_team import team_bids, team_mates
from engine.protectors.dragon import contribution, losses
from engine.protectors.notation import ALL, MAX_LINE_ECHO, MAX_REASON, clip, echo, format_line, holds_all
from engine.protectors.orders import Bid, Commit, Line, March
from engine.protectors.state import BANK_BID, BID, REBID, GameState
from engine.protectors.tables import min_us

__all__ = ["DmResult", "settle"]

MAX_ROUNDS = 8  # lenient mode: validate, drop the rejected lines, validate again -- at most this often

Noted = tuple[int, str, str]  # (line number, the line as written, why)


@dataclass(frozen=True)
class DmResult:
    """What ``Game.submit_dm`` stored and left out.

    * ``lines``: the decision as stored, in canonical DM text (what ``Game.submit`` returns);
    * ``ignored``: ``(line_no, text, why)`` for lines (or parts of lines) that are no order: blank,
      markup only, ``//`` comments, greetings, sign-offs, headers;
    * ``dropped``: lenient mode only, ``(line_no, text, why)`` for each invalid line left out;
    * ``read``: ``(line_no, text, canonical)`` for each line that became part of the decision (or is
      an explicit choice of nothing: ``none``, ``Turn off the lights``, ``0 from P1``).
    * ``warnings``: what the stored decision leaves undone that the player may not mean, in words for
      them: an orders DM that gives some Provinces with Army Units no order (``Snitch Player#2`` alone).
    * ``notes``: the DM's notes to the GM (``// ...``), for a GM who does not read the DM itself (the Discord bot).
    """

    lines: list[str]
    ignored: list[Noted]
    dropped: list[Noted]
    read: list[tuple[int, str, list[str]]]
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def __init__(self, lines: list[str], ignored: list[Noted], dropped: list[Noted],
                 read: list[tuple[int, str, list[str]]], warnings: list[str] | None = None,
                 notes: list[str] | None = None) -> None:
        object.__setattr__(self, "lines", lines)
        object.__setattr__(self, "ignored", ignored)
        object.__setattr__(self, "dropped", dropped)
        object.__setattr__(self, "read", read)
        object.__setattr__(self, "warnings", [] if warnings is None else warnings)
        object.__setattr__(self, "notes", [] if notes is None else notes)

    def to_dict(self) -> dict[str, Any]:
        """The wire form: ``{"lines": [...], "ignored": [{"line_no", "text", "why"}], "dropped": [...]}``."""
        def noted(rows: list[Noted]) -> list[dict[str, Any]]:
            return [{"line_no": n, "text": clip(t.strip(), MAX_LINE_ECHO), "why": w} for n, t, w in rows]

        out: dict[str, Any] = {"lines": list(self.lines), "ignored": noted(self.ignored),
                               "dropped": noted(self.dropped)}
        if self.warnings:  # only when there is one: the answer to most DMs is as before
            out["warnings"] = list(self.warnings)
        if self.notes:
            out["notes"] = list(self.notes)
        return out


def settle(state: GameState, seat: str, reading: DmReading, lenient: bool) -> tuple[Decision, DmResult]:
    """The legal decision a DM gives (``DmResult.lines`` still empty: the game fills them in when it
    stores the decision), or raises the refusal (``OrderSyntaxError``/``IllegalOrderError``)."""
    reading = team_bids(state, seat, _settle_all(state, seat, reading))  # "Our bid: 30" in a team game (TEAM_BID)
    err = reading.error()
    # lenient: nothing to drop, nothing stays; and a DM naming another turn is refused whole, not its header dropped
    # (an old DM sent again must not become this turn's decision: dm_checks.other_turn), as is one headed for another
    # player ("Orders from Bob:": dm_whose.other_seat) and a DM correcting an order
    # of its own ("Bid 8" then "actually make that 12": dropping the correction would store the Bid 8 it takes back;
    # "changed my mind:" over the orders of a DM sending them again corrects an earlier DM, and is dropped)
    first_order = min((e.no for e in reading.of_kind("order")), default=None)
    whole = any(e.error in (OTHER_TURN, OTHER_SEAT)
                or (e.error == CORRECTION and first_order is not None and first_order < e.no)
                for e in reading.of_kind("refused"))
    if err is not None and (not lenient or reading.no_order is not None or whole):
        # the rules' errors of the lines that did read are listed with it, so every problem is mended at once
        raise err if reading.no_order is not None else with_rule_errors(state, seat, reading, err)
    dropped: list[Noted] = [(e.no, e.text, e.why) for e in reading.of_kind("refused")]
    kept = reading.of_kind("order")
    for _ in range(MAX_ROUNDS):
        decision = from_lines(state.step, [ln for e in kept for ln in e.lines])
        try:
            decision = legality.validate(state, seat, decision)
        except IllegalOrderError as bad:
            rejected = list(bad.details.get("rejected") or [])
            named = culprits(kept, rejected)
            if not lenient or not named:
                raise _bounded(bad, kept) from None
            for e in kept:
                if e.no in named:
                    dropped.append((e.no, e.text, clip("; ".join(named[e.no]), MAX_REASON)))
            kept = [e for e in kept if e.no not in named]
            continue
        dropped.sort(key=lambda d: d[0])
        if dropped and not kept and not reading.of_kind("nothing"):
            # lenient mode keeps what was valid; a DM none of whose lines was is refused as strict mode refuses it,
            # not stored as a choice of nothing (Bid 0, no orders), final (rules: 003 Each Turn), in place of the
            # DM the player meant (a DM for another step in a DMs file grown as they arrive)
            no, text, why = dropped[0]
            raise IllegalOrderError(
                clip(why, MAX_REASON) + "; lenient mode dropped every order of it, so nothing of it is stored (not "
                "even as a choice of nothing)", input=clip(text.strip(), MAX_LINE_ECHO),
                details={"rejected": [{"line": clip(t.strip(), MAX_LINE_ECHO), "reason": w, "line_no": n}
                                      for n, t, w in dropped[:MAX_REPORTED]],
                         "rejected_count": len(dropped), "line_no": no})
        result = _result(reading, kept, dropped)
        return decision, replace(result, warnings=_unordered(state, seat, decision, reading)
                                 + _more_than_held(state, decision) + _sac_notes(state, seat, decision))
    raise IllegalOrderError("the DM's lines could not be settled; send it again with fewer orders")


# rules: 003 March! ("The specified number of Army Unit(s) ... must march"), Delayed March! ("executed and resolved
# after all normal March! Orders"), Determine Protector US step, Each Turn (the bid). 'all' is the number the state
# gives when the DM is settled, where that is the number meant; else the line is refused, saying what to write
# (assumption DM_ALL):
ALL_DELAYED = ("a Delayed March! moves after the other March! orders, when the Army Units in {src} may have "
               "changed, so 'all' is no fixed number there: write the number, like 'Delayed March! 2 from {src} to "
               "{dst}'")
ALL_POOLED = ("'Bid all' beside pooled $Realm could mean your own $Realm or it and the pooled amount: write the "
              "amount, like 'Bid 25 (30 from Player#2)'")
ALL_TEAM = ("'Bid all' in a team game could mean your own $Realm or your team's, pooled: write the amount, and any "
            "pooled $Realm in brackets, like 'Bid 25 (30 from Player#2)'")
ALL_LATER = ("'Bid all' in the Consolidation could mean your $Realm before or after your purchases: write the amount, "
             "like 'Bid 17'")
ALL_NONE_THERE = ("you have no Army Units in {src} for 'all' to count: write the number, from a Province that "
                  "holds yours")
# "Bid 20 (all I have)" while holding 50, "March! 2 from P1 to P7 (all of them)" with 3 there: the number, or all?
ALL_NOT_THE_NUMBER = ("{line} is beside a remark saying 'all', which is {all} {what} now, not {n}: write the one you "
                      "mean, the number or 'all', without the other")
_BID_STEPS = (BID, REBID, BANK_BID)  # where the most a seat may bid is its $Realm now (legality.validate_bid)


def _settle_all(state: GameState, seat: str, reading: DmReading) -> DmReading:
    """``reading`` with each 'all' made the number the game's state gives now: the seat's Army Units in the Province
    (``March! all from P1 to P7`` -> ``March! 5 from P1 to P7``, ``all from P6``), or the most it may bid (``Bid all``:
    its $Realm); a line where the state does not fix that number is refused, saying what to write."""
    if not any(e.kind == "order" and (e.all_said or any(holds_all(ln) for ln in e.parsed)) for e in reading.entries):
        return reading
    entries = []
    for e in reading.entries:
        settled = [_all_of(state, seat, ln) if e.kind == "order" and holds_all(ln) else ln for ln in e.parsed]
        why = next((x for x in settled if isinstance(x, tuple)), None)
        if why is None and e.kind == "order":
            why = next((x for x in (_all_beside(state, seat, e.parsed[k]) for k in e.all_said) if x is not None), None)
        if why is not None:
            e = e.refuse(*why)
        elif settled != list(e.parsed):
            now = {format_line(ln): x for ln, x in zip(e.parsed, settled, strict=True) if isinstance(x, Line)}
            lines = tuple(now[format_line(ln)] if holds_all(ln) else ln for ln in e.lines)
            parsed = tuple(x for x in settled if isinstance(x, Line))
            canonical = tuple(format_line(now[c]) if c in now else c for c in e.canonical)
            e = DmLine(e.no, e.text, e.kind, parsed, lines, canonical, e.why, e.error)
        elif e.all_said:  # checked: the number is all, or 'all' has no number here
            e = DmLine(e.no, e.text, e.kind, e.parsed, e.lines, e.canonical, e.why, e.error)
        entries.append(e)
    out = DmReading(entries, reading.step)
    out.no_order = reading.no_order
    return out


def _all_beside(state: GameState, seat: str, line: Line) -> tuple[str, str] | None:
    """Why ``line`` (a number beside a remark saying 'all': ``DmLine.all_said``) is refused: the number is not what
    'all' is now; ``None`` when it is, or when the state gives 'all' no number there (the number is what was
    written: "Bid 20 (all I have)" in the Consolidation, "Delayed March! 2 from P1 to P7 (all of them)")."""
    item = line.item
    if isinstance(item, Bid):
        n, what, said = item.amount, "$Realm", _all_of(state, seat, Line(Bid(ALL), line.funding))
    elif isinstance(item, March):
        n, what = item.count, f"Army Units in {item.src}"
        said = _all_of(state, seat, Line(March(ALL, item.src, item.dst, item.golden, item.delayed)))
    elif isinstance(item, Commit):
        n, what, said = item.count, f"Army Units in {item.src}", _all_of(state, seat, Line(Commit(item.src, ALL)))
    else:
        return None
    if not isinstance(said, Line):
        return None
    got = said.item
    every = got.amount if isinstance(got, Bid) else got.count if isinstance(got, March | Commit) else n
    if every == n:
        return None
    return ALL_NOT_THE_NUMBER.format(line=echo(format_line(line)), all=every, what=what, n=n), "illegal"


def _all_of(state: GameState, seat: str, line: Line) -> Line | tuple[str, str]:
    """``line`` (holding 'all') with its number, or why it has none and the kind of refusal (``DmLine.refuse``)."""
    item = line.item
    if isinstance(item, Bid):
        if state.step not in _BID_STEPS:
            return ALL_LATER, "syntax"
        if line.funding:
            return ALL_POOLED, "syntax"
        if team_mates(state, seat):
            return ALL_TEAM, "syntax"  # rules: 003 Team Games, the bid's $Realm is pooled: whose 'all'?
        return Line(Bid(state.players[seat].realm))
    if not isinstance(item, March | Commit):
        raise TypeError(f"no 'all' in {item!r}")  # holds_all is true only of these
    if isinstance(item, March) and item.delayed:
        return ALL_DELAYED.format(src=item.src, dst=item.dst), "syntax"
    units = state.provinces[item.src].units if item.src in legality.orderable(state, seat) else 0
    if units == 0:
        return ALL_NONE_THERE.format(src=item.src), "illegal"
    if isinstance(item, March):
        return Line(March(units, item.src, item.dst, item.golden, item.delayed), line.funding)
    return Line(Commit(item.src, units, item.sac), line.funding)


def _result(reading: DmReading, kept: list[DmLine], dropped: list[Noted]) -> DmResult:
    ignored: list[Noted] = [(e.no, e.text, e.why) for e in reading.of_kind("ignored")]
    # "Hi GM, Bid 20", "nothing this turn, sorry": the words beside an order or a choice of nothing
    ignored += [(e.no, e.text, "left out " + e.why) for e in (*kept, *reading.of_kind("nothing")) if e.why]
    ignored.sort(key=lambda d: d[0])
    kept_nos = {e.no for e in kept}
    read = [(e.no, e.text, list(e.canonical)) for e in reading.entries
            if e.no in kept_nos or e.kind == "nothing"]
    return DmResult([], ignored, dropped, read, notes=reading.notes())


def _unordered(state: GameState, seat: str, decision: Decision, reading: DmReading) -> list[str]:
    """The Provinces with the seat's Army Units that an orders DM gives no order, said (dogfood-discord #6: a DM of
    only ``Snitch Player#2`` is the seat's whole orders, and its units do nothing). Not for ``none`` (chosen,
    and answered so) nor for a DM of only abilities that act at once (the orders are still to come, assumption
    INSTANT_ABILITIES)."""
    if not isinstance(decision, OrdersDecision) or reading.says_none():
        return []
    if decision.abilities and decision == OrdersDecision(abilities=decision.abilities):
        return []
    ordered = {o.province for o in decision.orders}
    left = [p for p in legality.orderable(state, seat) if p not in ordered]
    if not left:
        return []
    which = ", ".join(left)
    return [f"{which} {'has' if len(left) == 1 else 'have'} Army Units but no order in this DM: "
            f"{'its units stay' if len(left) == 1 else 'their units stay'} where they are and do nothing this "
            "turn (your orders are final once stored; put every order in one DM)"]


def _more_than_held(state: GameState, decision: Decision) -> list[str]:
    """A note for each March! of more Army Units than its Province will hold when it executes. It stands
    (rules: 003 Example of some order interactions, Example 2: "only 3 Army Units are present in P2 when all orders
    are executed, thus only 3 Army Units would march"), so it is stored, but said, as it may be a slip: a March!
    moves the units there when every March! executes at once; a Delayed March! may also move those its own March!
    orders bring in (Example 7), no more (assumption MARCH_TRIM)."""
    if not isinstance(decision, OrdersDecision):
        return []
    held = {o.src: state.provinces[o.src].units for o in decision.orders if isinstance(o, March)}
    arriving: dict[str, int] = {}
    for o in decision.orders:
        if isinstance(o, March) and not o.delayed:
            arriving[o.dst] = arriving.get(o.dst, 0) + min(o.count, held[o.src])
    notes = []
    for o in decision.orders:
        if not isinstance(o, March):
            continue
        here = held[o.src]
        most = here + arriving.get(o.src, 0) if o.delayed else here
        if o.count <= most:
            continue
        units = f"{here} of your Army Unit{'' if here == 1 else 's'}"
        if not o.delayed:
            notes.append(f"{o.text()}: {o.src} holds {units}, and every March! executes at once, so at most {here} "
                         f"march (003 March!, Example 2: only the units there when the orders execute march)")
        else:
            notes.append(f"{o.text()}: {o.src} holds {units}"
                         + (f" ({most} with those your March! orders bring in)" if most != here else "")
                         + f", so at most {most} march after the March! orders (003 Example 2: only the units there "
                         "when the order executes march)")
    return notes


def _sac_notes(state: GameState, seat: str, decision: Decision) -> list[str]:
    """What a commitment's ``(sac N)`` will do, when that is not to lose N units there. rules: 003 Resolving a Dragon
    Attack: a Protector who met its min.US loses "Army Units contributing US equal to the min.US" if the Protectors
    win ("sac 2 on Province#6 ... will lose two Army Units (as given by their min.US contribution) from this
    Province"), and one who did not, every unit committed; a sac says which Provinces those come from (first, up to
    its number: assumption SAC_ORDER), never how many. Stored as sent, and said."""
    if not isinstance(decision, DragonDecision) or state.attack is None:
        return []
    sacs = [c for c in decision.commits if c.sac is not None]
    if not sacs:
        return []
    said = ", ".join(c.text() for c in sacs)
    need = min_us(len(state.green(seat)), state.attack.worldeater)
    us, units = contribution(state, seat, decision)
    if us < need:
        return [f"{said}: your US {us} is below your min.US {need}, so every unit you commit is lost whoever wins "
                "(003 Resolving a Dragon Attack); a sac only says where the units lost come from when the min.US "
                "is met"]
    lost = losses(state, decision, min(need, units))
    if lost == {c.src: c.sac for c in sacs if c.sac}:
        return []
    n = sum(lost.values())
    where = f" ({', '.join(f'{p} {k}' for p, k in lost.items())})" if lost else ""
    return [f"{said}: if the Protectors win you lose {n} unit{'' if n == 1 else 's'}{where}, as many as your "
            f"min.US {need} (003 Resolving a Dragon Attack); a sac says which Province they come from first, not "
            "how many (if the Dragon wins, every unit you commit is lost)"]


def _bounded(err: RegentError, kept: list[DmLine]) -> IllegalOrderError:
    """``err`` with its message clipped, its rejections capped and each named by its DM line number."""
    rejected = list(err.details.get("rejected") or [])
    listed = []
    for r in rejected[:MAX_REPORTED]:
        row: dict[str, Any] = {"line": clip(str(r.get("line", "")), MAX_LINE_ECHO),
               "reason": clip(str(r.get("reason", "")), MAX_REASON)}
        nos = sorted(culprits(kept, [r]))
        if nos:
            row["line_no"] = nos[0]
        listed.append(row)
    details = {**err.details, "rejected": listed, "rejected_count": len(rejected)}
    return IllegalOrderError(clip(err.reason, MAX_REASON), input=err.input, details=details)
