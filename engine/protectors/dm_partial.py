"""A refused DM's readable lines checked against the rules, so its refusal lists every problem at once
(``with_rule_errors``), and which DM lines a rule's rejection names (``culprits``).

rules: 003 Each Turn -- "Once a DM is sent to the GM, your orders/choices are final", so a refused DM is sent again
whole. A DM with a line the reader cannot read ("Fortfy! P17") was refused on that line alone; the rules' errors of
its other lines ("Work P99" where P99 is not the sender's) came only after the player had mended the first. The lines
that read are now checked too, as far as that means something without the unreadable one, and the refusal lists them
all. A check a further line could change is not made: a March! while the Ferry! card is in play (the unread line may
be its 'Ferry P1'), and a bid or an ability's price against $Realm a team-mate may pool (the unread line may pool it).
The checks over the lines read that a further line can only make worse are made (two Golden orders of one type, Sends
beyond the $Realm held, a Province ordered twice). Nothing is stored. Assumption PARTIAL_CHECK.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.errors import IllegalOrderError, OrderSyntaxError, RegentError
from engine.protectors import cards as C
from engine.protectors import legality
from engine.protectors.decisions import BidDecision, ConsolidationDecision, Decision, OrdersDecision, from_lines
from engine.protectors.dm_entry import CORRECTION, MAX_REPORTED, OTHER_SEAT, OTHER_TURN, DmLine, DmReading
from engine.protectors.dm_team import team_mates
from engine.protectors.dragon import active_cards
from engine.protectors.notation import MAX_LINE_ECHO, MAX_REASON, clip
from engine.protectors.orders import Buy, Funding, Line
from engine.protectors.state import GameState

PARTIAL_CHECK = True
# a DM whose reading is in doubt as a whole (another turn's, another player's, one correcting itself): its lines are
# not checked as the sender's orders of this step
_WHOLE = (OTHER_TURN, OTHER_SEAT, CORRECTION)
_UNBOUNDED = 10**9  # $Realm a team-mate may pool on a line not read: no bound (legality never checks a mate's balance)


def keys(line: Line) -> set[str]:
    """The texts ``legality`` may use to name this order in a rejection."""
    item = line.item
    out = {line.text(), item.text()} | {f.text() for f in line.funding}
    if isinstance(item, Buy):
        out |= {f"Buy {n} in {p}" for p, n in item.allocations}
    return out


def culprits(kept: list[DmLine], rejected: list[dict[str, str]]) -> dict[int, list[str]]:
    """DM line number -> the reasons ``legality`` rejected its orders for."""
    out: dict[int, list[str]] = {}
    for r in rejected:
        pieces = set(str(r.get("line", "")).split("; "))
        for e in kept:
            if any(pieces & keys(ln) for ln in e.parsed):
                out.setdefault(e.no, []).append(str(r.get("reason", "")))
    return out


def with_rule_errors(state: GameState, seat: str, reading: DmReading, err: RegentError) -> RegentError:
    """``err`` (the refusal of ``reading``'s unreadable lines) with the rules' rejections of its lines that did read
    added to its ``details["rejected"]``, each with its line number, all in the DM's order; ``err`` itself when there
    are none, or when the DM is refused as a whole (another turn's or player's, or correcting itself)."""
    if not PARTIAL_CHECK or any(e.error in _WHOLE for e in reading.of_kind("refused")):
        return err
    rows = _rule_rows(state, seat, reading.of_kind("order"))
    if not rows:
        return err
    listed = [r for r in err.details.get("rejected") or [] if isinstance(r, dict)]
    if len(listed) != err.details.get("rejected_count", len(listed)) or not all("line_no" in r for r in listed):
        return err  # a refusal cut short or without line numbers: said as it is
    listed = sorted([*listed, *rows], key=lambda r: int(r["line_no"]))
    first = listed[0]
    more = len({r["line_no"] for r in listed}) - 1
    reason = str(first["reason"]) + (f" (and {more} more line{'s' if more > 1 else ''} refused)" if more else "")
    details = {
        **err.details,
        "rejected": listed[:MAX_REPORTED],
        "rejected_count": len(listed),
        "line_no": first["line_no"],
    }
    cls = OrderSyntaxError if isinstance(err, OrderSyntaxError) else IllegalOrderError
    return cls(clip(reason, MAX_REASON + 60), input=err.input, details=details)


def _rule_rows(state: GameState, seat: str, kept: list[DmLine]) -> list[dict[str, Any]]:
    """The rules' rejections of the orders on ``kept`` (the lines read), as refusal rows with line numbers."""
    if not kept:
        return []
    try:
        decision = _open_ended(state, seat, from_lines(state.step, [ln for e in kept for ln in e.lines]))
        legality.validate(state, seat, decision)
    except IllegalOrderError as bad:
        rows = []
        for r in bad.details.get("rejected") or []:
            nos = sorted(culprits(kept, [r]))
            if nos:  # none: a line the check added (_open_ended), never one of the DM's
                rows.append(
                    {
                        "line": clip(str(r.get("line", "")), MAX_LINE_ECHO),
                        "reason": clip(str(r.get("reason", "")), MAX_REASON),
                        "line_no": nos[0],
                    }
                )
        return rows
    return []


def _open_ended(state: GameState, seat: str, decision: Decision) -> Decision:
    """``decision`` with what a line not read could add to it where that would change a check: every Province the
    seat may Ferry from while the Ferry! is in play (rules: 003 Sea cards, Ferry!: "All Provinces count as neighbouring
    Provinces for executing March! orders", for those it is used from), and $Realm pooled from a team-mate without a
    bound (rules: 003 Team Games, Pooled $Realm; legality._funding_ok never checks the mate's balance)."""
    if isinstance(decision, OrdersDecision) and C.FERRY in active_cards(state):
        more = tuple(p for p in legality.orderable(state, seat) if p not in decision.ferries)
        return replace(decision, ferries=decision.ferries + more)
    if isinstance(decision, BidDecision | ConsolidationDecision):
        mate = next(iter(team_mates(state, seat)), None)
        if mate is not None:
            return replace(decision, funding=(*decision.funding, Funding(_UNBOUNDED, mate)))
    return decision
