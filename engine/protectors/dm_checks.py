"""The checks over a whole DM, after each line is read: a line correcting another (``correction``), a header or bid
naming another turn (``other_turn``), what an email reply adds (``own_lines``), a stray list number where a bid is
asked (``stray_numbers``), ``Faction:`` over the faction on the next line (``faction_on_next_line``), and across lines
what could mean two things (``cross_check``: ``none`` beside orders, ``no purchases`` beside a Buy, two values for one
choice)."""

from __future__ import annotations

import re

from engine.protectors import dm_email
from engine.protectors.abilities import INSTANT
from engine.protectors.dm_entry import CORRECTION, LIGHTS_OUT, NONE, OTHER_TURN, TRAILING_COMMENT, WANTED, DmLine
from engine.protectors.dm_lines import BID_WORDS, HEADER, unwrap, words
from engine.protectors.dm_phrases import BID_STEPS, NO_BUYS, NO_SNITCH
from engine.protectors.notation import MAX_REASON, MAX_TURN_DIGITS, clip, echo, format_line, holds_all
from engine.protectors.orders import (
    Ability,
    Bid,
    Burn,
    Buy,
    Capitol,
    ChooseFaction,
    Commit,
    Fortify,
    Line,
    March,
    Send,
    Snitch,
    Support,
    Work,
)
from engine.protectors.state import CONSOLIDATION, ORDERS, REBID

_SINGLE = (Bid, ChooseFaction, Snitch, Capitol)  # one per decision
_COUNTED = (Buy, Commit)  # said twice on one line ("Buy 1 in P6 then buy 1 in P6"): as one purchase adds up, or once?


# rules: 003 Each Turn -- "Once a DM is sent to the GM, your orders/choices are final and can not be changed": a line
# correcting another of the DM ("actually make that 12", "edit: 12", "wait no", "bid 2, ignore the 8") leaves two
# choices, and which one counts is the player's to say. Never read as "the later line replaces the earlier" (which
# line does "make that 12" correct? a bid, a count?): refused, saying it reads as a correction and to send the DM again
# with only the final orders (it was "unknown order 'actually'"). Assumption CORRECTIONS_REFUSED
CORRECTIONS_REFUSED = True
_CORRECTION_WORDS = frozenset({"actually", "edit", "edited", "correction", "corrected", "wait", "ignore", "disregard",
                               "scratch", "nvm", "nevermind", "oops", "whoops", "typo", "meant", "instead", "cancel",
                               "update", "updated", "change", "changed", "changes", "revised", "amended"})
_CORRECTION_PHRASES = (("make", "that"), ("never", "mind"), ("change", "that"), ("changed", "my", "mind"))
_UNEXPECTED = re.compile(r"unexpected (.*) at the end of the order")
# "Edit: Work P27", "Actually: ...", "Correction: ..." after the orders: refused as no header, so lenient mode dropped
# the line and stored the orders it corrects (dm_line refuses "<words>: <order>" whose words are no header)
_NOT_A_HEADER = re.compile(r"(.*) before the order is not a header like")


def correction(e: DmLine) -> DmLine:
    """``e``, refused as no order or with words after its order, refused instead as a correction when it reads as one
    (CORRECTIONS_REFUSED); else ``e``."""
    if not CORRECTIONS_REFUSED or e.kind != "refused" or e.error != "syntax":
        return e
    trailing = _UNEXPECTED.search(e.why) or _NOT_A_HEADER.match(e.why)
    if trailing is None and not (e.why.startswith(("unknown order", "not an order"))):
        return e
    part = trailing.group(1) if trailing is not None else echo(e.text.strip())
    w = words(part)
    said = next((x for x in w if x in _CORRECTION_WORDS), None)
    if said is None:
        said = next((" ".join(p) for p in _CORRECTION_PHRASES
                     if any(w[k : k + len(p)] == p for k in range(len(w)))), None)
    if said is None:
        return e
    return e.refuse(f"{part} reads as a correction, or as taking an order back ('{said}'): a DM's orders are final "
                    "once sent (rules 003 Each Turn), so Regent never picks which of two lines counts: send the DM "
                    "again with only your final orders", CORRECTION)


def other_turn(e: DmLine, turn: int, step: str | None) -> DmLine:
    """A header naming another turn ("My orders for turn 3:" at turn 4, also "Round 3 orders:") refuses the DM: an old
    email sent again must not become this turn's decision; so does a bid naming one ("My bid for turn 3 is 10", also
    after a header: "My orders: Bid 10 for turn 3"). In the Consolidation the bid is for the next turn, so a header may
    name that one too, and a bid (or a header naming only the bid: "Turn 3 bid:") only that one: "My bid for turn 2 is
    10" in turn 2's Consolidation names turn 2's bid, made before, and could be an old DM sent again."""
    allowed = {turn, turn + 1} if step == CONSOLIDATION else {turn}
    head: tuple[str, ...] = ()  # a header's words
    said: tuple[str, ...] = ()  # a bid's words ("My bid for turn 3 is 10")
    noted: tuple[str, ...] = ()  # a note after // on a bid's line: it names the DM's turn, not the bid's
    if e.kind == "ignored" and (e.why == HEADER or f": {HEADER}" in e.why):
        # ... also a header among other pieces left out ("Hi GM, here are my orders for turn 3, sorry for the delay":
        # its turn went unchecked)
        head = words(unwrap(e.text))
    elif e.kind == "order":
        text = unwrap(e.text)
        if HEADER in e.why:  # "My orders for turn 3: Fortify! P1"
            before, colon, text = text.partition(":")
            head, text = words(before), text if colon else ""
        if any(isinstance(ln.item, Bid) for ln in e.parsed):
            note = TRAILING_COMMENT.search(text)
            said = words(text if note is None else text[: note.start()])
            noted = words(note.group()) if note is not None else ()
    bid_head = step == CONSOLIDATION and bool(BID_WORDS & set(head)) and not _HEADER_NOT_BID & set(head)
    later = _turns_named(said, step, True) - {turn + 1} if step == CONSOLIDATION else set()
    if (bid_head and turn in _turns_named(head, step)) or turn in later:  # "Turn 2 bid: 10" at turn 2
        return e.refuse(f"a bid in turn {turn}'s Consolidation is for turn {turn + 1}, so a bid for turn {turn} could "
                        f"be an old one sent again: name turn {turn + 1}, or leave the turn out", OTHER_TURN)
    what = WANTED.get(step or "", "orders")
    wrong = sorted((_turns_named(head, step) | _turns_named(noted, step)) - allowed)
    if wrong:
        return e.refuse(f"this DM is headed for turn {wrong[0]}, but the game is at turn {turn}: send turn {turn}'s "
                        f"{what} (a DM for another turn is not used), or leave the header out if it was a slip",
                        OTHER_TURN)
    wrong = sorted(_turns_named(said, step, True) - allowed)
    if wrong:
        return e.refuse(f"this bid is for turn {wrong[0]}, but the game is at turn {turn}: send turn {turn}'s {what} "
                        "(a bid for another turn is not used), or leave the turn out if it was a slip", OTHER_TURN)
    return e


# a header naming more than the bid ("Turn 2 purchases and bid:", "My orders for turn 2, bid included"): the DM's turn
_HEADER_NOT_BID = frozenset({"orders", "order", "purchases", "purchase", "buys", "buying", "consolidation", "choices",
                             "choice", "dm", "decisions", "decision", "stuff", "moves"})


def _turns_named(w: tuple[str, ...], step: str | None, bid: bool = False) -> set[int]:
    """The turns ``w`` (a line's words) names: ``turn 3``, and ``round 3`` but in the re-bid step, where ``round 2``
    may be the second round of bidding (rules: 003 Each Turn, a tie in the first turn's bid). On a ``bid`` line the
    number after ``this turn`` / ``next turn`` is the amount ("Bid for this turn: 10")."""
    turn_words = ("turn",) if step == REBID else ("turn", "round")
    return {int(w[i + 1]) for i in range(len(w) - 1) if w[i] in turn_words and w[i + 1].isdigit()
            and len(w[i + 1]) <= MAX_TURN_DIGITS and not (bid and i > 0 and w[i - 1] in ("this", "next"))}


def own_lines(entries: list[DmLine], raw_lines: list[str]) -> list[DmLine]:
    """Left out: what an email reply adds around the player's own lines (``dm_email``): the earlier
    message it quotes, its header, the signature."""
    gone = dm_email.left_out(raw_lines)
    reply = dm_email.is_reply(raw_lines)
    out = []
    for e in entries:
        if e.no - 1 in gone and gone[e.no - 1] == dm_email.BELOW_SIGNATURE and e.kind in ("order", "nothing"):
            # "Fortify! P1 / -- / Work, work! P2": a '--' line between orders in a chat is no email signature; an
            # order below it is never left out unread
            e = e.refuse("this order is below a '--' line, where an email's signature starts, so it would not be "
                         "read; delete the '--' line (a separator) or the lines below it", "syntax")
        elif e.no - 1 in gone:
            e = DmLine(e.no, e.text, "ignored", why=gone[e.no - 1])
        elif dm_email.is_quoted(e.text) and reply:
            e = DmLine(e.no, e.text, "ignored", why=dm_email.QUOTED)
        elif dm_email.is_quoted(e.text) and e.kind == "refused":
            e = DmLine(e.no, e.text, "refused", e.parsed, why=clip(f"{e.why}; {dm_email.NOT_READ_QUOTE}", MAX_REASON),
                       error=e.error)
        out.append(e)
    return out


# a line starting "30.", "30)" or "(30)" (a numbered list's mark, which dm_lines.unwrap takes off) and holding no order
_NUMBERED = re.compile(r"^\s*\(?([0-9]{1,3})[.)]\s")  # also "(30) Thanks!"


def stray_numbers(entries: list[DmLine], step: str | None) -> list[DmLine]:
    """In a step that takes a bid, a line that starts with a number and a '.' or ')' but holds no order ("30. Thanks!"
    after "Bid 20") is refused when no other line of the DM is numbered: its number may be the bid the player meant
    (the list mark it looks like is left out, so "Bid 20" was stored alone). In a numbered list ("1. Bid 20" /
    "2. Thanks!") it is the list's mark. Assumption DM_NEVER_GUESSED."""
    if step not in BID_STEPS:
        return entries
    numbered = [e for e in entries if _NUMBERED.match(e.text)]
    if len(numbered) != 1 or numbered[0].kind != "ignored" or numbered[0].why == HEADER:
        return entries
    stray = numbered[0]
    mark = _NUMBERED.match(stray.text)
    assert mark is not None
    n = mark.group(1)
    return [e.refuse(f"line {e.no} starts with {echo(e.text.strip()[: mark.end() - 1].strip())} but holds no order: "
                     f"is {n} a bid, or a list's number? write 'Bid {n}' if you mean a bid, or leave the number out",
                     "syntax") if e is stray else e for e in entries]


# "Faction:" on a line of its own, the faction's name on the next ("Hodir"): a header, as "My bid:" over "10" is
_FACTION_HEADS = frozenset({("faction",), ("my", "faction"), ("faction", "is"), ("my", "faction", "is")})


def faction_on_next_line(entries: list[DmLine], choosing: bool = False) -> list[DmLine]:
    """``Faction:`` alone on its line (refused: it names no faction) is a header when the next line with text chooses
    a faction (``Hodir``), which is read; else it stays refused, saying to write the faction after it on its line (it
    was "unknown faction ''"). Rules: 003 Factions, each player selects their faction on turn 1. ``choosing`` (turn 1's
    bid): a header naming the faction ("Faction choice:") over no faction in the whole DM is refused too."""
    out = list(entries)
    chosen = any(isinstance(ln.item, ChooseFaction) for x in out if x.kind == "order" for ln in x.parsed)
    for i, e in enumerate(out):
        if choosing and e.kind == "ignored" and e.why == HEADER and not chosen and "faction" in words(unwrap(e.text)):
            # "Faction choice:" left out as a header over no faction: the game would deal one by chance, which the
            # player did not choose (rules: 003 Factions, "by their own choice or by chance")
            out[i] = e.refuse(f"{echo(e.text.strip())} names no faction, and no line of the DM chooses one: write the "
                              "faction after it ('Faction: Hodir') or on the next line alone ('Hodir'); leave the "
                              "line out to have one dealt by chance", "syntax")
            continue
        if e.kind != "refused" or words(unwrap(e.text)) not in _FACTION_HEADS:
            continue
        after = next((x for x in out[i + 1:] if x.text.strip()), None)
        if after is not None and after.kind == "order" and after.parsed \
                and all(isinstance(ln.item, ChooseFaction) for ln in after.parsed):
            out[i] = DmLine(e.no, e.text, "ignored", why="a header (the faction is on the next line)")
        elif e.why.startswith("unknown faction"):
            out[i] = e.refuse(f"{echo(e.text.strip())} names no faction: write the faction after it, on its line "
                              f"('Faction: Hodir') or on the next line alone ('Hodir')", "syntax")
    return out


# -- across lines: what could mean two things ----------------------------------------------------
def cross_check(entries: list[DmLine], step: str | None) -> list[DmLine]:
    out = list(entries)
    _nothing_beside_orders(out, step)
    _no_buys_beside_buys(out)
    _one_of_each(out)
    return out


def _nothing_beside_orders(out: list[DmLine], step: str | None) -> None:
    """``none`` / Turn off the lights beside orders contradicts them (Burn lines and ``0 from`` may go
    with Turn off the lights: rules: 003 Determine Protector US step, Provinces left undefended)."""
    marks = [i for i, e in enumerate(out) if (e.kind == "nothing" and e.canonical in ((NONE,), (LIGHTS_OUT,)))
             or (e.kind == "order" and e.canonical[:1] == (LIGHTS_OUT,))]  # "Turn off the lights, burn P5"
    if not marks:
        return
    lights = all(out[i].canonical[0] == LIGHTS_OUT for i in marks)
    # a look at the decks acts at once, before the orders (assumption INSTANT_ABILITIES): 'none'
    # beside it is the orders, not a contradiction
    clash = [i for i, e in enumerate(out) if e.kind == "order"
             and any(not (lights and isinstance(ln.item, Burn)) and not _instant(ln, step) for ln in e.lines)]
    if not clash:
        return
    first = out[marks[0]]
    said = first.text.strip()
    # "'My orders: none' (none)", but not "'none' (none)"
    read_as = "" if said.casefold() == first.canonical[0].casefold() else f" ({first.canonical[0]})"
    for i in clash:
        out[i] = out[i].refuse(f"the DM also says {echo(said)}{read_as}; send one or the other")
    for i in marks:
        other = out[clash[0]]
        out[i] = out[i].refuse(f"{echo(out[i].canonical[0])} contradicts the orders also given "
                               f"({echo(other.text.strip())}); send one or the other")


def _no_buys_beside_buys(out: list[DmLine]) -> None:
    """``no purchases`` (left out) beside a ``Buy`` line contradicts it, and ``no snitch`` beside a ``Snitch`` line:
    both are refused, naming each other."""
    for mark, kind, said_no, given in ((NO_BUYS, Buy, "no purchases", "purchase"),
                                       (NO_SNITCH, Snitch, "no snitch", "Snitch")):
        marks = [i for i, e in enumerate(out) if e.kind in ("order", "ignored") and mark in e.why]
        buys = [i for i, e in enumerate(out) if e.kind == "order" and any(isinstance(ln.item, kind) for ln in e.lines)]
        if not marks or not buys:
            continue
        said, bought = out[marks[0]].text.strip(), out[buys[0]].text.strip()
        for i in buys:
            out[i] = out[i].refuse(f"the DM also says {echo(said)}; send one or the other")
        for i in marks:
            if i not in buys:
                out[i] = out[i].refuse(f"'{said_no}' contradicts the {given} also given ({echo(bought)}); "
                                       "send one or the other")


def _instant(line: Line, step: str | None) -> bool:
    return step == ORDERS and isinstance(line.item, Ability) and line.item.name in INSTANT


def _one_of_each(out: list[DmLine]) -> None:
    """Two different bids, factions, snitches, Capitols, orders for one Province, commitments from one
    Province, or purchases in one Province: refused, naming each line. An identical repeat is read once."""
    seen: dict[tuple[str, str], tuple[int, int, Line]] = {}  # slot -> (entry index, order index, its line)
    for i, e in enumerate(out):
        if e.kind not in ("order", "nothing"):
            continue
        kept: list[Line] = []
        clash: tuple[int, Line, Line, tuple[str, str]] | None = None
        for k, ln in enumerate(e.parsed):
            repeat = False
            for slot in _slots(ln):
                if slot not in seen:
                    seen[slot] = (i, k, ln)
                elif seen[slot][:2] == (i, k):
                    pass  # "Buy 1 in P6. 2 in P6.": one purchase line adds up, as the engine always read it
                elif seen[slot][2] != ln or (seen[slot][0] == i and isinstance(ln.item, _COUNTED)) \
                        or slot[0] == "Send" or holds_all(ln):
                    # "Buy 1 in P6 then buy 1 in P6" (one line: a purchase adds up there) and a Send twice ("Send 40
                    # to Bob" on two lines: Sends add up) could be one or both: never read as either; nor 'all' twice
                    # ("all from P6" on two lines: assumption DM_ALL)
                    clash = clash or (seen[slot][0], seen[slot][2], ln, slot)
                else:
                    repeat = True
            if not repeat and ln in e.lines:
                kept.append(ln)
        if clash is not None:
            j, before, now, slot = clash
            what = _slot_name(now, slot[1])
            said, said_before = format_line(now), format_line(before)
            mine = f"{what}: {echo(said)} and {echo(said_before)}; which one is meant is not clear, send one"
            theirs = f"{what}: {echo(said_before)} and {echo(said)}; which one is meant is not clear, send one"
            if before == now and holds_all(now):  # "all from P6" twice: 'all' is no amount to add up
                mine = theirs = f"{echo(said)} is said twice; send it once"
            elif before == now:  # "Send 40 to Bob" twice: 40 or 80?
                mine = theirs = (f"{echo(said)} twice could add up or be the same one said again; which one is "
                                 "meant is not clear, send it once (with the total if you mean both)")
            elif isinstance(now.item, Send):  # "Send 10 to Bob" then "Send 12 to Bob": 22, or 12 the correction?
                mine = theirs = (f"two Sends to {now.item.to}: {echo(said_before)} and {echo(said)} could add up or "
                                 "one could correct the other; send one Send to each player, with the total if you "
                                 "mean both")
            out[i] = e.refuse(mine)
            if out[j].kind != "refused":
                out[j] = out[j].refuse(theirs)
        elif len(kept) != len(e.lines):
            out[i] = DmLine(e.no, e.text, e.kind, e.parsed, tuple(kept), e.canonical, e.why, all_said=e.all_said)


# rules: 003 3. Negotiation and Orders ("simply state to the GM the amount and to whom you want to send $Realm"): one
# amount for each player sent to. Two Sends to one player (on two lines, or one line) could add up or be a correction
# ("Send 10 to Bob", then "Send 12 to Bob"); the rules are silent, so the DM is refused, never summed (they were stored
# as 22): assumption SENDS_TO_ONE, one Send line per player.
SENDS_TO_ONE = True


def _slots(ln: Line) -> list[tuple[str, str]]:
    item = ln.item
    if isinstance(item, _SINGLE):
        return [(type(item).__name__, "")]
    if isinstance(item, Commit):
        return [("Commit", item.src)]
    if isinstance(item, Burn):  # "Burn P5" twice names P5 once
        return [("Burn", item.src)]
    if isinstance(item, Send):  # a Send said again is refused (it could add up), and so is another to the same player
        return [("Send", item.to if SENDS_TO_ONE else f"{item.to} {item.amount}")]
    if isinstance(item, Buy):
        return [("Buy", p) for p, _ in item.allocations]
    if isinstance(item, March | Support | Fortify | Work) and item.province is not None:
        return [("Order", item.province)]
    return []


def _slot_name(ln: Line, province: str) -> str:
    item = ln.item
    if isinstance(item, Bid):
        return "two bids"
    if isinstance(item, ChooseFaction):
        return "two factions"
    if isinstance(item, Snitch):
        return "two Snitch lines"
    if isinstance(item, Capitol):
        return "two Capitols"
    if isinstance(item, Commit):
        return f"two commitments from {item.src}"
    if isinstance(item, Buy):
        return f"two purchases in {province}"
    return f"{getattr(item, 'province', '?')} already has an order"
