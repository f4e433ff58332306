"""Read a whole DM line by line: every line is an order, left out (with why), or refused (with why).

``read_dm(text, players=..., step=...)`` gives a ``DmReading``: one ``DmLine`` per line of the DM, in
order, each of kind

* ``order``: the line's orders (``parsed``; ``lines`` without an identical repeat of an earlier line),
  and their canonical text (``canonical``);
* ``nothing``: an explicit choice of nothing -- ``none`` (no orders, no purchases, bid 0) or, in the
  Dragon step, "Turn off the lights" (rules: 003 Resolving a Dragon Attack, option 2: commit 0 Army
  Units) and ``0 from P1``;
* ``ignored``: blank, markup only, a ``//`` comment, a greeting, a sign-off, a header (``dm_lines``);
* ``refused``: not an order, an order of another step, or text that could mean two things (two
  different bids, two orders for one Province, ``none`` beside orders) -- never guessed.

``normalise_dm`` writes an accepted DM in canonical form: one order per line, nothing left out.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from engine.errors import IllegalOrderError, OrderSyntaxError, RegentError
from engine.protectors import dm_email
from engine.protectors.abilities import INSTANT
from engine.protectors.board import ISLAND_NAME
from engine.protectors.decisions import ACCEPTS, DECISION_TYPES, Decision, from_lines
from engine.protectors.dm_lines import (
    BID_WORDS,
    FENCE,
    HEADER,
    MAX_NAME_WORDS,
    TURN_AROUND,
    chat_start,
    chatter,
    unwrap,
    words,
)
from engine.protectors.notation import (
    EXPECTED_BY_STEP,
    FACTIONS,
    JOIN,
    MAX_DM_NUMBER,
    MAX_LINE_ECHO,
    MAX_REASON,
    MAX_TURN_DIGITS,
    NUMBER_WORDS,
    ORDER_WORDS,
    NameList,
    clip,
    echo,
    faction_of,
    format_line,
    head_item,
    holds_all,
    name_list,
    parse_segment,
    remark_alone,
    seat_map,
    split_orders,
    split_remark,
)
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
from engine.protectors.state import CONSOLIDATION, DRAGON, ORDERS, REBID

__all__ = ["MAX_DM_CHARS", "MAX_DM_LINES", "MAX_LINE_CHARS", "DmLine", "DmReading", "normalise_dm", "read_dm"]

# rules: none (input hygiene) -- a DM is a few lines; these bound the work one DM can cause.
MAX_DM_CHARS = 16_000  # characters of a whole DM (eight full Discord messages)
MAX_DM_LINES = 200  # lines with text
MAX_LINE_CHARS = 500  # characters of one line
MAX_REPORTED = 20  # refused lines listed in an error's details

NONE = "none"
LIGHTS_OUT = "Turn off the lights"
_NONE_PHRASES = {("none",), ("nothing",), ("no", "orders"), ("no", "order"), ("pass",), ("none", "this", "turn"),
                 ("nothing", "this", "turn"), ("no", "orders", "this", "turn"),
                 # "I pass" as "pass" (was refused: "unknown order 'I'"; NO_BID)
                 ("i", "pass"), ("ill", "pass"), ("i", "will", "pass"), ("pass", "this", "turn"),
                 ("i", "pass", "this", "turn"),
                 # "nothing from me, sorry" (was refused: "unknown order 'nothing'"; assumption NOTHING_FROM_ME)
                 ("nothing", "from", "me"), ("nothing", "for", "me"), ("no", "orders", "from", "me"),
                 ("nothing", "from", "me", "this", "turn")}
# rules: 003 1. Protector Ranking ("Player#5 bids nothing"): "no bid" bids 0, as "Bid nothing" does, where the step
# takes a bid (the bid steps and the Consolidation; beside a purchase it is the bid, not "none"). Was refused: "unknown
# order 'no'" (assumption NO_BID)
_NO_BID_PHRASES = frozenset({("no", "bid"), ("no", "bids"), ("no", "rebid"), ("no", "bid", "this", "turn"),
                             ("no", "bid", "from", "me"), ("no", "bid", "for", "me")})
_LIGHTS_PHRASES = {("turn", "off", "the", "lights"), ("turn", "the", "lights", "off"), ("lights", "off"),
                   ("turn", "off", "lights"), ("turn", "lights", "off"), ("i", "turn", "off", "the", "lights"),
                   ("commit", "nothing"), ("commit", "none"), ("commit", "0"), ("commit", "0", "units"),
                   ("commit", "no", "units"), ("no", "commitment"), ("commit", "0", "army", "units"),
                   ("lights", "out"), ("turning", "off", "the", "lights"), ("im", "turning", "off", "the", "lights"),
                   # "I commit nothing" (session 27: refused, expected the unit count)
                   *(("i", *said) for said in (("commit", "nothing"), ("commit", "none"), ("commit", "no", "units"),
                                              ("commit", "0"), ("commit", "0", "units")))}
_STEP_NAMES = {"bid": "bid", "rebid": "re-bid", "bank_bid": "Bank of Lannuvár bid", "orders": "orders",
               "dragon": "Dragon", "consolidation": "Consolidation"}
_DIGIT_RUN = re.compile(r"[0-9]+")
_WANTED = {"bid": "bid", "rebid": "re-bid", "bank_bid": "bid", "orders": "orders", "dragon": "commitments",
           "consolidation": "purchases and bid"}
_SINGLE = (Bid, ChooseFaction, Snitch, Capitol)  # one per decision
# 'all' read without a game (normalise_dm, notation.parse_text): the number is the game's to give (assumption DM_ALL)
ALL_UNSETTLED = ("'all' stands for a number only the game gives (your Army Units in the Province, or the $Realm you "
                 "may bid), and this text is read without a game: write the number")
# ... and a number beside a remark saying 'all' ("Bid 20 (all I have)"): is it all? (DmLine.all_said)
ALL_BESIDE_UNSETTLED = ("the number is beside a remark saying 'all', and this text is read without a game to tell "
                        "whether it is all: write the number or 'all', without the other")
_COUNTED = (Buy, Commit)  # said twice on one line ("Buy 1 in P6 then buy 1 in P6"): as one purchase adds up, or once?


@dataclass(frozen=True)
class DmLine:
    """One line of a DM and how it was read."""

    no: int  # 1-based line number in the DM
    text: str  # the line as written (without its line break)
    kind: str  # "order" | "nothing" | "ignored" | "refused"
    parsed: tuple[Line, ...] = ()  # every order on the line
    lines: tuple[Line, ...] = ()  # the orders it adds to the decision (an identical repeat adds none)
    canonical: tuple[str, ...] = ()  # how it reads in canonical text
    why: str = ""  # ignored / refused: why; order: parts of the line left out (``Hi GM, Bid 20``)
    error: str = ""  # refused: "syntax" or CORRECTION (OrderSyntaxError), "illegal" or OTHER_TURN (IllegalOrderError)
    # order: the indexes in ``parsed`` of the counts and bids beside a remark saying 'all' ("Bid 20 (all I have)"):
    # dm_submit.settle refuses the line unless the number is all (assumption DM_ALL)
    all_said: tuple[int, ...] = ()

    def __init__(self, no: int, text: str, kind: str, parsed: tuple[Line, ...] = (), lines: tuple[Line, ...] = (),
                 canonical: tuple[str, ...] = (), why: str = "", error: str = "",
                 all_said: tuple[int, ...] = ()) -> None:
        object.__setattr__(self, "no", no)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "parsed", parsed)
        object.__setattr__(self, "lines", lines)
        object.__setattr__(self, "canonical", canonical)
        object.__setattr__(self, "why", why)
        object.__setattr__(self, "error", error)
        object.__setattr__(self, "all_said", all_said)

    def refuse(self, why: str, error: str = "illegal") -> DmLine:
        return DmLine(self.no, self.text, "refused", self.parsed, (), self.canonical, clip(why, MAX_REASON), error)


class DmReading:
    """Every line of one DM, read (``read_dm``)."""

    def __init__(self, entries: list[DmLine], step: str | None, one_decision: bool = False) -> None:
        self.entries = entries
        self.step = step
        # a DM of greetings, headers or markup only is no decision (a player who wrote "Hi GM" has not
        # chosen to bid 0): its first such line, or None
        self.no_order: DmLine | None = None
        if one_decision and not self.of_kind("order", "nothing", "refused"):
            self.no_order = next((e for e in entries if e.text.strip()), None)

    def of_kind(self, *kinds: str) -> list[DmLine]:
        return [e for e in self.entries if e.kind in kinds]

    def lines(self) -> list[Line]:
        """The decision's lines, in DM order."""
        return [ln for e in self.entries for ln in e.lines]

    def says_none(self) -> bool:
        """The DM chose nothing (``none``): beside abilities that act at once it is still the seat's
        decision (assumption INSTANT_ABILITIES)."""
        return any(e.kind == "nothing" and e.canonical == (NONE,) for e in self.entries)

    def canonical(self) -> list[str]:
        return [c for e in self.entries if e.kind in ("order", "nothing") for c in e.canonical]

    def notes(self) -> list[str]:
        """The DM's notes to the GM (docs/dm-syntax.md): each line starting with ``//`` and each ``// ...`` after an
        order, without the ``//``, cut to ``MAX_NOTE`` characters, at most ``MAX_NOTES`` of them. A game run from
        files shows them in the DMs; the Discord bot, where no person reads the DM, keeps them for the GM."""
        out = []
        for e in self.entries:
            text = e.text.strip()
            if e.kind == "ignored" and text.startswith("//"):
                note = text[2:]
            elif e.kind in ("order", "nothing") and (m := _TRAILING_COMMENT.search(e.text)) is not None:
                note = m.group().strip()[2:]
            else:
                continue
            if note.strip():
                out.append(clip(note.strip(), MAX_NOTE))
        return out[:MAX_NOTES]

    def error(self) -> RegentError | None:
        """The refusal: the first refused line names the error; ``details["rejected"]`` lists them all. A line still
        holding 'all' (``notation.ALL``: only ``dm_submit.settle`` gives its number) or a number beside a remark saying
        'all' (``DmLine.all_said``: only ``dm_submit.settle`` checks it) is refused here."""
        refused = self.of_kind("refused")
        held = [e for e in self.entries if e.kind == "order" and any(holds_all(ln) for ln in e.parsed)]
        beside = [e for e in self.entries if e.kind == "order" and e.all_said and e not in held]
        unsettled = [*(e.refuse(ALL_UNSETTLED, "syntax") for e in held),
                     *(e.refuse(ALL_BESIDE_UNSETTLED, "syntax") for e in beside)]
        if unsettled:
            refused = sorted([*refused, *unsettled], key=lambda e: e.no)
        if not refused and self.no_order is not None:
            e = self.no_order
            nothing = LIGHTS_OUT if self.step == "dragon" else NONE
            what = _WANTED.get(self.step or "", "orders")
            reason = (f"the DM holds no order (line {e.no} is {e.why}); send your {what}, "
                      f"or '{nothing}' to choose nothing")
            return OrderSyntaxError(reason, input=clip(e.text.strip(), MAX_LINE_ECHO),
                                    details={"rejected": [{"line": clip(e.text.strip(), MAX_LINE_ECHO),
                                                           "reason": reason, "line_no": e.no}],
                                             "rejected_count": 1, "line_no": e.no})
        if not refused:
            return None
        first = refused[0]
        reason = first.why
        if len(refused) > 1:
            reason += f" (and {len(refused) - 1} more line{'s' if len(refused) > 2 else ''} refused)"
        details = {"rejected": [{"line": clip(e.text.strip(), MAX_LINE_ECHO), "reason": e.why, "line_no": e.no}
                                for e in refused[:MAX_REPORTED]],
                   "rejected_count": len(refused), "line_no": first.no}
        cls = OrderSyntaxError if first.error in ("syntax", CORRECTION) else IllegalOrderError
        return cls(clip(reason, MAX_REASON + 60), input=clip(first.text.strip(), MAX_LINE_ECHO), details=details)

    def lines_or_raise(self) -> list[Line]:
        err = self.error()
        if err is not None:
            raise err
        return self.lines()

    def decision(self, step: str) -> Decision:
        """The lines grouped into ``step``'s decision (``decisions.from_lines``); raises on a refusal."""
        return from_lines(step, self.lines_or_raise())


def read_dm(text: str, *, players: Mapping[str, str] | None = None, step: str | None = None,
            one_decision: bool = True, turn: int | None = None, listed: Collection[str] | None = None,
            island: str = ISLAND_NAME) -> DmReading:
    """Read every line of a DM (``players``: display name or colour -> seat; ``step``: the waiting step,
    so errors list only what it takes and orders of other steps are refused; ``turn``: the game's turn, so
    a header naming another turn refuses the DM; ``listed``: the names, as written, that a refusal of an
    unknown player lists -- the game gives the display names of the seats still in the game; default: every
    name in ``players``; ``island``: the Province "the Island" names on the game's board).
    ``one_decision=False`` reads lines only (no check across lines: the lines of several
    seats may be read together)."""
    seats = seat_map(players)
    names = set(seats) | {" ".join(words(s)) for s in set(seats.values())}
    if len(text) > MAX_DM_CHARS:
        reason = f"a DM holds at most {MAX_DM_CHARS} characters; this one has {len(text)}"
        return DmReading([DmLine(1, text[:MAX_LINE_ECHO].split("\n")[0], "refused", why=reason, error="syntax")], step)
    raw_lines = text.splitlines()
    busy = sum(1 for ln in raw_lines if ln.strip())
    if busy > MAX_DM_LINES:
        reason = f"a DM holds at most {MAX_DM_LINES} lines with text; this one has {busy}"
        return DmReading([DmLine(1, raw_lines[0] if raw_lines else "", "refused", why=reason, error="syntax")], step)
    shown = name_list(players, listed, island)
    entries = [_correction(_read_line(n, raw, seats, names, step, shown))
               for n, raw in enumerate(raw_lines, start=1)]
    if not one_decision:
        return DmReading(entries, step, one_decision)
    choosing = step == "bid" and (turn is None or turn == 1)  # rules: 003 Factions, chosen with the turn-1 bid
    entries = _faction_on_next_line(_stray_numbers(_own_lines(entries, raw_lines), step), choosing)
    if turn is not None:
        entries = [_other_turn(e, turn, step) for e in entries]
    return DmReading(_cross_check(entries, step), step, one_decision)


# rules: 003 Each Turn -- "Once a DM is sent to the GM, your orders/choices are final and can not be changed": a line
# correcting another of the DM ("actually make that 12", "edit: 12", "wait no", "bid 2, ignore the 8") leaves two
# choices, and which one counts is the player's to say. Never read as "the later line replaces the earlier" (which
# line does "make that 12" correct? a bid, a count?): refused, saying it reads as a correction and to send the DM again
# with only the final orders (it was "unknown order 'actually'"). Assumption CORRECTIONS_REFUSED
CORRECTIONS_REFUSED = True
_CORRECTION_WORDS = frozenset({"actually", "edit", "edited", "correction", "corrected", "wait", "ignore", "disregard",
                               "scratch", "nvm", "nevermind", "oops", "whoops", "typo", "meant", "instead", "cancel"})
_CORRECTION_PHRASES = (("make", "that"), ("never", "mind"), ("change", "that"), ("changed", "my", "mind"))
_UNEXPECTED = re.compile(r"unexpected (.*) at the end of the order")


def _correction(e: DmLine) -> DmLine:
    """``e``, refused as no order or with words after its order, refused instead as a correction when it reads as one
    (CORRECTIONS_REFUSED); else ``e``."""
    if not CORRECTIONS_REFUSED or e.kind != "refused" or e.error != "syntax":
        return e
    trailing = _UNEXPECTED.search(e.why)
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


# a line refused as a correction (``DmLine.error``, a syntax error): lenient mode refuses the DM whole rather than drop
# it and keep the line it corrects, which would be the guess CORRECTIONS_REFUSED never makes (dm_submit.settle)
CORRECTION = "correction"


# a line refused because it names another turn (``DmLine.error``): the whole DM may be an old one sent again, so
# lenient mode refuses it whole rather than dropping the line (dm_submit.settle)
OTHER_TURN = "turn"


def _other_turn(e: DmLine, turn: int, step: str | None) -> DmLine:
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
            note = _TRAILING_COMMENT.search(text)
            said = words(text if note is None else text[: note.start()])
            noted = words(note.group()) if note is not None else ()
    bid_head = step == CONSOLIDATION and bool(BID_WORDS & set(head)) and not _HEADER_NOT_BID & set(head)
    later = _turns_named(said, step, True) - {turn + 1} if step == CONSOLIDATION else set()
    if (bid_head and turn in _turns_named(head, step)) or turn in later:  # "Turn 2 bid: 10" at turn 2
        return e.refuse(f"a bid in turn {turn}'s Consolidation is for turn {turn + 1}, so a bid for turn {turn} could "
                        f"be an old one sent again: name turn {turn + 1}, or leave the turn out", OTHER_TURN)
    what = _WANTED.get(step or "", "orders")
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


def _own_lines(entries: list[DmLine], raw_lines: list[str]) -> list[DmLine]:
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


def normalise_dm(text: str, *, players: Mapping[str, str] | None = None, step: str | None = None) -> str:
    """The DM in canonical form: one order per line, ``Player#N`` and ``P<n>`` spelled out, no markup,
    greetings or comments. Raises the refusal of a DM that would be refused."""
    reading = read_dm(text, players=players, step=step)
    err = reading.error()
    if err is not None:
        raise err
    return "\n".join(reading.canonical())

MAX_NOTE = 300  # characters of one note to the GM kept (DmReading.notes)
MAX_NOTES = 10  # notes to the GM kept from one DM
# A note to the GM after an order, as at the start of a line (docs/dm-syntax.md, "What is ignored"): '//' after
# a space; "Bid 20//30" is read as written.
_TRAILING_COMMENT = re.compile(r"\s//.*$")


# "no purchases, bid 0": in the Consolidation, saying the DM buys nothing. Left out (and said) beside a bid, or on a
# line of its own; beside a Buy it contradicts it and both are refused (assumption DM_NEVER_GUESSED)
_NO_BUY_PHRASES = {("no", "purchases"), ("no", "purchase"), ("no", "buys"), ("buy", "nothing"), ("buying", "nothing"),
                   ("nothing", "to", "buy"), ("no", "units"), ("no", "new", "units"),
                   ("no", "purchases", "this", "turn"), ("no", "buys", "this", "turn"),
                   ("no", "purchase", "this", "turn")}
NO_BUYS = "no purchases (the DM buys nothing)"
# rules: 003 Pirates! -- "If you wish to snitch on another Protector, simply submit their name": snitching is optional,
# and a DM without a Snitch line snitches on no one. "no snitch", "snitch nobody", "snitch: none" say so: left out (and
# said), in the orders step (were refused: "'nobody' is not a player"); beside a Snitch line, both are refused as a
# contradiction, as "no purchases" beside a Buy is (assumption NO_SNITCH)
NO_SNITCH = "no snitch (the DM snitches on no one)"
_SNITCH_STEPS = frozenset({None, ORDERS})
_NO_SNITCH_PHRASES = frozenset({
    ("no", "snitch"), ("no", "snitching"), ("no", "snitches"), ("no", "snitch", "this", "turn"), ("not", "snitching"),
    ("im", "not", "snitching"), ("i", "dont", "snitch"), ("i", "wont", "snitch"),
    *((*verb, *on, *who) for verb in (("snitch",), ("snitching",), ("i", "snitch"), ("snitch", "on"))
      for on in ((), ("on",)) for who in (("nobody",), ("no", "one"), ("noone",), ("none",), ("nothing",)))
    })
# the steps that take a bid and nothing else (turn 1 with factions also takes one): an amount alone is the bid
_BID_ONLY_STEPS = frozenset({"bid", "rebid", "bank_bid"})
# "20", "$20", "20 realm", and a number in words ("five": docs/dm-syntax.md, up to twelve)
_AMOUNT_ALONE = re.compile(r"(?:\$?[0-9][0-9,]*\$?|(?:" + "|".join(NUMBER_WORDS) + r")\b)(?:\s*(?:\$?realms?|gold))?"
                           r"[.!]?", re.IGNORECASE)  # "10 gold": $Realm (notation_words.REALM_WORDS)
# "All in" alone where only a bid is asked: bid all (the most the seat may bid: notation_grammar._ALL_BIDS, assumption
# DM_ALL)
_ALL_IN = re.compile(r"(?:i'?m\s+|i\s+am\s+)?(all[\s-]+in[.!,;]*)", re.IGNORECASE)  # also "I'm all in"


_BANK_BID = re.compile(r"^((?:my\s+)?)bank\s+(?=bid\b)", re.IGNORECASE)  # "Bank bid: 12", "my bank bid is 12"


# rules: 003 1. Protector Ranking (the bid is "the amount of $Realm they wish to spend"): "I'll go 10" (also "I will go
# 10", "I'm going to go 10", "go with 10", "let's go 10", "... this turn") where only a bid is asked names one amount,
# the bid: read as Bid 10 (was refused: "starts like a greeting but says more"). In the Consolidation, where a number
# may be a count, refused saying to write 'Bid 10' (assumption GO_BID)
GO_BID = True
_GO = re.compile(r"(?:\b(?:ok|okay|so),?\s+)*(?:\b(?:i'?ll|i\s+will|i'?m\s+going\s+to|let'?s)\s+)?"
                 r"\bgo\s+(?:with\s+|for\s+)?"
                 r"(?P<amount>\$?[0-9][0-9,]*\$?|(?:" + "|".join(NUMBER_WORDS) + r")\b)"
                 r"(?:\s*(?:\$?realms?|gold))?(?P<turn>\s+this\s+turn)?", re.IGNORECASE)


def _as_bid(text: str, step: str | None) -> str:
    """``Bid <text>`` for an amount alone (``20``, ``$20``, ``20 realm``) in a step that takes a bid and nothing
    else; in the Bank of Lannuvár's bid step (rules: 003 Lannuvár, The Bank of Lannuvár) ``bank bid`` is its bid;
    else ``text`` as it is."""
    if step == "bank_bid":
        text = _BANK_BID.sub(r"\1", text)
    if step not in _BID_ONLY_STEPS:
        return text
    if _AMOUNT_ALONE.fullmatch(text):
        return f"Bid {text}"
    go = _GO.fullmatch(text.rstrip(".!")) if GO_BID else None
    if go is not None:  # "I'll go 10 this turn"
        return f"Bid {go.group('amount')}{go.group('turn') or ''}"
    all_in = _ALL_IN.fullmatch(text)
    return f"Bid {all_in.group(1)}" if all_in else text


# a line starting "30." or "30)" (a numbered list's mark, which dm_lines.unwrap takes off) and holding no order
_NUMBERED = re.compile(r"^\s*([0-9]{1,3})[.)]\s")
# the steps whose DM holds a bid: there such a number could be one ("Bid 20" then "30. Thanks!")
_BID_STEPS = _BID_ONLY_STEPS | {CONSOLIDATION}


def _stray_numbers(entries: list[DmLine], step: str | None) -> list[DmLine]:
    """In a step that takes a bid, a line that starts with a number and a '.' or ')' but holds no order ("30. Thanks!"
    after "Bid 20") is refused when no other line of the DM is numbered: its number may be the bid the player meant
    (the list mark it looks like is left out, so "Bid 20" was stored alone). In a numbered list ("1. Bid 20" /
    "2. Thanks!") it is the list's mark. Assumption DM_NEVER_GUESSED."""
    if step not in _BID_STEPS:
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


def _faction_on_next_line(entries: list[DmLine], choosing: bool = False) -> list[DmLine]:
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


_SENTENCE_END = re.compile(r"[.!;,]+\s+")  # "none. Thanks!", "nothing this turn, sorry"


def _nothing_then_chatter(no: int, text: str, names: set[str], step: str | None) -> DmLine | None:
    """``none`` or Turn off the lights as a first sentence, then only words Regent leaves out ("Turn the
    lights off. Sorry team."): the choice is read and the rest left out, said; else None."""
    m = _SENTENCE_END.search(text)
    if m is None:
        return None
    head, tail = text[: m.start()], text[m.end():]
    if words(head) not in _LIGHTS_PHRASES | _NONE_PHRASES:
        return None
    part = chatter(tail, names, _RESERVED) or _restates_nothing(tail, names)
    if part is None:
        return None
    entry = _read_line(no, head, {}, names, step)
    why = f"{echo(tail.strip())}: {part}"
    return DmLine(no, text, entry.kind, entry.parsed, entry.lines, entry.canonical,
                  why if entry.kind == "nothing" else entry.why, entry.error)


# what a player adds after ``none`` to say it again ("none, nothing to order :("): read as none, the rest left out
_NOTHING_AGAIN = _NONE_PHRASES | {("nothing", "to", "order"), ("nothing", "to", "do"), ("nothing", "to", "send"),
                                  ("nothing", "from", "me"), ("no", "orders", "from", "me"), ("nothing", "for", "me"),
                                  ("nothing", "to", "buy"), ("nothing", "to", "commit"), ("no", "orders", "today")}


def _restates_nothing(tail: str, names: set[str]) -> str | None:
    """Why ``tail``, after ``none`` on its line, is left out: it says nothing again ("nothing to order"), maybe then
    only words Regent leaves out ("nothing to order, sorry"); else None."""
    if _again(tail):
        return "says none again"
    m = _SENTENCE_END.search(tail)
    if m is None or not _again(tail[: m.start()]):
        return None
    return "says none again" if chatter(tail[m.end():], names, _RESERVED) is not None else None


def _again(text: str) -> bool:
    w = words(text)
    return (w[:-2] if w[-2:] == ("this", "turn") else w) in _NOTHING_AGAIN


def _none_then_more(text: str) -> str | None:
    """Why a line that starts with ``none`` ("none, blah", "none, march 2 from P1 to P2") and goes on with what is
    neither said again nor left out is refused: ``none`` is a whole decision, so the line is refused as two things,
    never as an unknown order 'none' (which the expected orders list). None when it does not start so."""
    m = _SENTENCE_END.search(text)
    if m is None or words(text[: m.start()]) not in _NONE_PHRASES:
        return None
    head, tail = text[: m.start()].strip(), text[m.end():].strip()
    return (f"{echo(head)} chooses nothing, but {echo(tail)} follows it on its line: send {echo(head)} alone, or "
            "the orders without it; a note to the GM can go on a line starting with //")


_FIRST_JOIN = re.compile(r"[,;.]\s+|" + JOIN, re.IGNORECASE)  # a mark, or a word that joins orders


def _lights_then_burns(no: int, raw: str, text: str, seats: Mapping[str, str], names: set[str], step: str | None,
                       shown: NameList | None) -> DmLine | None:
    """In a Dragon attack, Turn off the lights then its Burn orders on one line ("Turn off the lights, burn P5", "lights
    off and burn P5"): both read (rules: 003 Resolving a Dragon Attack, option 2, and the Provinces left undefended),
    canonical ``Turn off the lights`` then each Burn; beside a commitment on its line, refused; else None."""
    pieces = split_orders(text)
    if len(pieces) < 2:  # "Turn off the lights, 2 from P6": a count after it joins no piece; the first mark splits
        m = _FIRST_JOIN.search(text)
        pieces = [text[: m.start()], text[m.end():]] if m is not None else pieces
    if len(pieces) < 2 or words(pieces[0]) not in _LIGHTS_PHRASES | _NONE_PHRASES or "?" in pieces[0]:
        return None
    rest = _read_line(no, " ".join(pieces[1:]), seats, names, step, shown)  # "burn P5 thanks", "burn P5?"
    if rest.kind == "refused":
        return DmLine(no, raw, "refused", why=rest.why, error=rest.error)
    parsed = rest.parsed
    if rest.kind != "order" or not parsed:
        return None
    if not all(isinstance(ln.item, Burn) for ln in parsed):
        return DmLine(no, raw, "refused", why=clip(f"{echo(pieces[0].rstrip(',;. '))} commits no units, but the line "
                                                   "also commits some; send one or the other", MAX_REASON),
                      error="syntax")
    return DmLine(no, raw, "order", parsed, parsed, (LIGHTS_OUT, *(format_line(ln) for ln in parsed)), rest.why)


# -- one line ----------------------------------------------------------------------------------
def _read_line(no: int, raw: str, seats: Mapping[str, str], names: set[str], step: str | None,
               shown: NameList | None = None) -> DmLine:
    stripped = raw.strip()
    if not stripped:
        return DmLine(no, raw, "ignored", why="blank line")
    if len(raw) > MAX_LINE_CHARS:
        return DmLine(no, raw, "refused", why=_too_long(raw), error="syntax")
    if stripped.startswith("//") or FENCE.match(stripped):
        return DmLine(no, raw, "ignored", why=chatter(raw) or "")
    note = _TRAILING_COMMENT.search(raw)
    if note is not None:  # "Fortify P1 // holding": the note to the GM is left out, and said
        entry = _read_line(no, raw[: note.start()], seats, names, step, shown)
        if entry.kind not in ("order", "nothing"):
            return DmLine(no, raw, entry.kind, entry.parsed, entry.lines, entry.canonical, entry.why, entry.error)
        said = "; ".join(w for w in (entry.why, f"{echo(note.group().strip())}: a note after //") if w)
        return DmLine(no, raw, entry.kind, entry.parsed, entry.lines, entry.canonical, said, entry.error,
                      entry.all_said)
    if "~~" in raw:  # Discord strike-through: crossed out, or not? never guessed
        return DmLine(no, raw, "refused", why="struck-out text (~~...~~): delete what you do not mean and send "
                      "the rest plainly", error="syntax")
    about = _ABOUT.search(raw)
    if about is not None:  # "Bid ~7": about 7 (was read as Bid 7)
        said = echo(about.group().strip())
        return DmLine(no, raw, "refused", why=clip(f"{said} says about a number, which makes the order tentative, "
                                                   "and a DM's orders are final: write the exact number", MAX_REASON),
                      error="syntax")
    text = unwrap(raw)
    if not words(text):
        return DmLine(no, raw, "ignored", why="markdown or punctuation only")
    if STANDALONE_REMARK and (whole := _WHOLLY_BRACKETED.fullmatch(text)) is not None:
        return _remark_line(no, raw, whole.group(1), seats, names, step, shown)
    phrase = words(text)
    if "?" in text and (phrase in _LIGHTS_PHRASES | _NONE_PHRASES | _NO_BUY_PHRASES | _NO_SNITCH_PHRASES
                        | _NO_BID_PHRASES
                        or (step == "bid" and faction_of(text) is not None)):
        # "none?", "Turn off the lights?", "Hodir?": asks, chooses nothing (rules: 003 Each Turn, final choices)
        return DmLine(no, raw, "refused", why=_asks(text, raw).reason, error="syntax")
    if phrase in _LIGHTS_PHRASES or (phrase in _NONE_PHRASES and step == "dragon"):
        if step not in (None, "dragon"):
            return DmLine(no, raw, "refused", why=f"'{LIGHTS_OUT}' is a choice for a Dragon attack; "
                          f"the {_STEP_NAMES.get(step, step)} step takes {EXPECTED_BY_STEP[step]}")
        return DmLine(no, raw, "nothing", canonical=(LIGHTS_OUT,))
    if phrase in _NONE_PHRASES:
        return DmLine(no, raw, "nothing", canonical=(NONE,))
    if phrase in _NO_BUY_PHRASES and step == "consolidation":  # "No purchases" on its own line
        return DmLine(no, raw, "ignored", why=NO_BUYS)
    if phrase in _NO_BID_PHRASES and step in _BID_STEPS:  # "no bid": Bid 0
        return _accepted(no, raw, (Line(Bid(0)),), "", step)
    if phrase in _NO_SNITCH_PHRASES and step in _SNITCH_STEPS:  # "no snitch", "snitch: none"
        return DmLine(no, raw, "ignored", why=NO_SNITCH)
    first = _nothing_then_chatter(no, text, names, step)  # "Turn the lights off. Sorry team."
    if first is not None:
        return DmLine(no, raw, first.kind, first.parsed, first.lines, first.canonical, first.why, first.error)
    burns = _lights_then_burns(no, raw, text, seats, names, step, shown) if step == "dragon" else None
    if burns is not None:  # "Turn off the lights, burn P5"
        return burns
    faction = faction_of(text) if step == "bid" else None
    if faction is not None:  # turn 1: "Hodir" on its own line chooses the faction
        return _accepted(no, raw, (Line(ChooseFaction(faction)),), "", step)
    bid = _as_bid(text, step)
    if bid != text:  # "20" when only a bid is asked for
        bid_all: list[int] = []
        parsed, _, error = _orders(raw, bid, seats, names, step, shown, bid_all)
        if error is None and parsed:
            return _accepted(no, raw, tuple(parsed), "", step, tuple(bid_all))
        if error is not None and _ASKS in error.reason:  # "Bank bid: 7?" asks
            return DmLine(no, raw, "refused", why=error.reason, error="syntax")
    alone = text.rstrip("?").strip()
    if step in _BID_ONLY_STEPS and text.endswith("?") and (_AMOUNT_ALONE.fullmatch(alone) or _ALL_IN.fullmatch(alone)
                                                            or _GO.fullmatch(alone)):
        return DmLine(no, raw, "refused", why=_asks(text, raw).reason, error="syntax")  # "20?" asks
    said_all: list[int] = []
    parsed, left_out, first_error = _orders(raw, text, seats, names, step, shown, said_all)
    if first_error is not None or not parsed:
        part = chatter(raw, names, _RESERVED) if not parsed else None  # a line with an order in it is never left out
        if part is not None:
            return DmLine(no, raw, "ignored", why=part)
        if first_error is None and left_out:  # "Hey, sorry for the delay": every piece is left out, each said why
            return DmLine(no, raw, "ignored", why="; ".join(left_out))
        around = _around_order(no, raw, text, seats, names, step, shown)
        if around is not None:
            return around
        more = _none_then_more(text) if first_error is not None and step != "dragon" else None
        if more is not None:  # "none, blah": not "unknown order 'none,'; expected ..., or none"
            return DmLine(no, raw, "refused", why=clip(more, MAX_REASON), error="syntax")
        reason = first_error.reason if first_error is not None else "expected an order"
        chat = _chat_reason(raw, text, seats, names, step, shown) if not parsed and first_error is not None \
            and _not_an_order(first_error) else None
        go = _GO.search(text) if not parsed and step == CONSOLIDATION else None
        if go is not None:  # "I'll go 10" in the Consolidation: a bid, or a count? (where only a bid is: _as_bid)
            reason = (f"{echo(go.group().strip())} is no order Regent reads here, where a number may be a count or the "
                      f"bid: if {go.group('amount')} is your bid, write 'Bid {go.group('amount')}'")
        elif chat is not None:  # "Hi GM, taking my seat back from the bot!"
            reason = chat
        elif not parsed and first_error is not None and _not_an_order(first_error):
            reason += "; a note to the GM can go on a line starting with //"
        elif first_error is not None and _TRAILING_TEXT.match(first_error.reason):
            reason += f"; after an order only {_THANKS_NAMED} may follow on its line, a note to the GM goes after //"
        return DmLine(no, raw, "refused", tuple(parsed), why=clip(reason, MAX_REASON), error="syntax")
    return _accepted(no, raw, tuple(parsed), "; ".join(left_out), step, tuple(said_all))


# rules: 003 Each Turn -- "Once a DM is sent to the GM, your orders/choices are final": "Bid ~7", "~2 from P6", "approx.
# 10", "7ish" give about a number, tentative as "(maybe)" is (notation.HEDGED_REMARK); refused, never read as the
# number ("Bid ~7" was stored as Bid 7: markup took the '~' away). Assumption TENTATIVE_NUMBER
_ABOUT = re.compile(r"(?:[~≈]\s*|\b(?:approx\.?|approximately|roughly|circa)\s+)(?:\$?[0-9]+|(?:"
                    + "|".join(NUMBER_WORDS) + r")\b)|\b[0-9]+\s*-?ish\b", re.IGNORECASE)

# rules: none on what a DM may hold beside its orders (003 Each Turn: the choices are given in a DM). A line wholly in
# brackets, "(sorry for the late reply, was at work)", carries no order: it is left out as a remark, as brackets after
# an order are, when nothing in it could be or change an order (notation.remark_alone); else refused, saying why. It was
# refused as "brackets after an order" though no order was on its line (assumption STANDALONE_REMARK)
STANDALONE_REMARK = True
_WHOLLY_BRACKETED = re.compile(r"\(([^()]*)\)[.!]*")


def _remark_line(no: int, raw: str, inner: str, seats: Mapping[str, str], names: set[str], step: str | None,
                 shown: NameList | None) -> DmLine:
    """A line wholly in brackets (``inner`` inside them): left out as a remark, or refused, saying why."""
    read = _read_line(no, inner, seats, names, step, shown)
    if read.kind in ("order", "nothing"):  # "(Fortify P1)", "(none)": meant, or a thought?
        return DmLine(no, raw, "refused", why=clip(f"{echo(raw.strip())} is an order in brackets: send it without "
                                                   "them if you mean it, or put it after // as a note to the GM",
                                                   MAX_REASON), error="syntax")
    because = remark_alone(inner)
    if because is None and step in POOLING_STEPS and _names_player(inner, names):  # "(Bob pays)": pooling?
        because = "it names a player"
    said_all = sorted(_ALL_REMARK & set(words(inner)))
    if because is None and said_all:  # "Bid 20" then "(all I have)": all, or 20?
        because = f"'{said_all[0]}' could give a number"
    if because is not None:
        return DmLine(no, raw, "refused", why=clip(f"{echo(raw.strip())} on a line of its own is left out only as a "
                                                   f"remark that could not change the orders, and it is none "
                                                   f"({because}); a note to the GM goes on a line starting with //",
                                                   MAX_REASON), error="syntax")
    return DmLine(no, raw, "ignored", why="a remark in brackets")


MAX_NAME_RUN = 4  # words of a display name looked for in a remark in brackets ("(Bob the Bold)")
# the steps whose decisions a team may pool $Realm for (rules: 003 Team Games, Pooled $Realm: "in the Consolidation
# phase during the buying and bidding step and during the bidding for Protector Ranking at the start of a new game");
# None: a DM read without its step, where brackets naming a player may be pooling too
POOLING_STEPS = frozenset({None, "bid", "rebid", "consolidation"})


def _names_player(remark: str, names: set[str]) -> bool:
    """Whether ``remark`` names a player by display name or colour (``(Bob)``, ``(Bob pays)``, ``(Bob's)``): no remark
    then (docs/dm-syntax.md), but team pooling to read, or refuse ("Bid 20 (Bob)": 20 with $Realm from Bob?)."""
    w = words(remark)
    runs = {" ".join(w[i:j]) for i in range(len(w)) for j in range(i + 1, min(len(w), i + MAX_NAME_RUN) + 1)}
    return any(run in names or (run.endswith("s") and run[:-1] in names) for run in runs)


# a remark in brackets saying 'all' beside a number ("Bid 20 (all I have)", "2 from P6 (all of them)"): is the number
# all? dm_submit.settle checks it against the game (assumption DM_ALL)
_ALL_REMARK = frozenset({"all", "everything", "whole", "entire"})


def _says_all(remark: str, line: Line, step: str | None) -> bool:
    """Whether ``remark`` says 'all' beside ``line``'s own count or bid where 'all' may be a number (a March! but a
    Delayed one, a commitment, a bid but in the Consolidation: dm_submit._all_of)."""
    item = line.item
    return ((isinstance(item, March) and not item.delayed) or isinstance(item, Commit)
            or (isinstance(item, Bid) and step != CONSOLIDATION)) \
        and not holds_all(line) and bool(_ALL_REMARK & set(words(remark)))


# an unknown order's refusal that says what the word is ("did you mean Bid?", "Hi GM, Will bid 10" with a player Will,
# "Sorry, I'd bid 20"): said as it is after a greeting, not as "not an order"
_HINTS = ("did you mean", "is a player's name", "is 'I would'")


def _chat_reason(raw: str, text: str, seats: Mapping[str, str], names: set[str], step: str | None,
                 shown: NameList | None) -> str | None:
    """Why a line that starts like a message to the GM ("Hi GM, taking my seat back") and is no order is refused:
    the order after the greeting's mark, when one is there but is wrong ("Hi GM, Marsh! 1 from P1 to P2" is a
    misspelt March!), else that the line is not an order and how to write a note; ``None`` for other lines."""
    like = chat_start(raw)  # as written: "—not final" starts like a signature
    if like is None:
        return None
    mark = _GREETING_MARK.search(text)
    if mark is not None and chatter(text[: mark.end()], names, _RESERVED) is not None:
        _, _, error = _orders(raw, text[mark.end():], seats, names, step, shown)
        if error is not None and (not _not_an_order(error) or any(hint in error.reason for hint in _HINTS)):
            return error.reason
    return (f"not an order: the line starts like {like} but says more than that, so it is read as orders; send "
            "an order on a line of its own, and a note to the GM on a line starting with //")


# rules: 003 Each Turn -- "Once a DM is sent to the GM, your orders/choices are final": a line that asks ("Bid 20?",
# "none?", "Hodir?") gives no final choice, so it is refused, never read as the choice without its '?'
_ASKS = "has a question mark"


def _asks(segment: str, raw: str) -> OrderSyntaxError:
    """The refusal of ``segment`` (a choice written with a '?'), naming ``raw``, the whole line."""
    return OrderSyntaxError(clip(f"{echo(segment.strip())} {_ASKS}: a DM gives orders, it does not ask; send the "
                                 "order without the '?' if you mean it, and a question for the GM on a line starting "
                                 "with //", MAX_REASON), input=clip(raw.strip(), MAX_LINE_ECHO))


def _orders(raw: str, text: str, seats: Mapping[str, str], names: set[str], step: str | None,
            shown: NameList | None = None, said_all: list[int] | None = None,
            ) -> tuple[list[Line], list[str], OrderSyntaxError | None]:
    """The orders of ``text`` (one line, unwrapped), the pieces of it left out (``Hi GM, Bid 20``), and the
    first piece that is neither; ``said_all`` gets the indexes of the orders whose count or bid is beside a remark
    saying 'all' (``Bid 20 (all I have)``: ``DmLine.all_said``)."""
    parsed: list[Line] = []
    left_out: list[str] = []
    first_error: OrderSyntaxError | None = None
    named: str | None = None  # a piece that is a player's name only ("Carol, bid 10"), before any order
    segments = split_orders(text)
    for i, segment in enumerate(segments):
        order, remark = split_remark(segment)  # "Fortify! P9 (just in case)": the remark is left out, and said
        # "Bid 20 (Bob)": pooled from Bob? read as team pooling, where a step pools (rules: 003 Team Games, Pooled
        # $Realm: the turn-1 bids and the Consolidation); "Fortify P1 (sorry Bob)" at the orders is a remark
        if remark and (step not in POOLING_STEPS or not _names_player(remark, names)):
            try:
                parsed.append(parse_segment(raw.strip(), order, seats, step, shown))
                left_out.append(f"{echo(remark)}: a remark in brackets")
                if said_all is not None and _says_all(remark, parsed[-1], step):
                    said_all.append(len(parsed) - 1)
                continue
            except OrderSyntaxError:
                pass  # read as written, with its own reason
        try:
            line = parse_segment(raw.strip(), segment, seats, step, shown)
            if "?" in segment and "?" not in line.text():  # "Bid 20?", "Fortify! P1?": asked, not ordered
                raise _asks(segment, raw)
            parsed.append(line)
        except OrderSyntaxError as err:
            # "Bid 3 please. Hodir": thanks ending a piece that more of the line follows (the line's own end is
            # _around_order's, which bounds the words it tries on each side)
            thanked = _thanked(raw, segment, err, seats, step, shown) if i < len(segments) - 1 else None
            if thanked is not None:
                parsed.append(thanked[0])
                left_out.append(f"{echo(thanked[1])}: a sign-off")
                continue
            part = chatter(segment, names, _RESERVED) or _sorry_long(segment)
            if part is None and step == "consolidation" and words(segment) in _NO_BUY_PHRASES:
                if "?" in segment:  # "Bid 5, no buys?" asks
                    first_error = first_error or _asks(segment, raw)
                    continue
                part = NO_BUYS
            if part is None and step in _SNITCH_STEPS and words(segment) in _NO_SNITCH_PHRASES:
                if "?" in segment:  # "Fortify P1, no snitch?" asks
                    first_error = first_error or _asks(segment, raw)
                    continue
                part = NO_SNITCH  # "Fortify P1, no snitch"
            if part is None:
                first_error = first_error or _other_step(err, segment, step)
            else:
                if part == "a signature" and not parsed:  # "Carol, bid 10": a name only, before the orders
                    named = segment.rstrip(",;. ")
                left_out.append(f"{echo(segment.rstrip(',;. '))}: {part}")
    if named is not None and parsed and first_error is None:
        # "Carol, bid 10": Carol's bid, or a message to Carol? never the sender's order (it was left out as a name)
        first_error = OrderSyntaxError(clip(f"{echo(named)} before the order names a player: a DM gives your own "
                                            "orders, so send them without a name in front (a note to the GM goes on a "
                                            "line starting with //)", MAX_REASON),
                                       input=clip(raw.strip(), MAX_LINE_ECHO))
    return parsed, left_out, first_error


# rules: none (what a DM says beside its orders). An apology for a long DM ("sorry they're long", "sorry for the wall
# of text"), after a greeting and a header on its line ("Hi GM!!! here are my orders for turn 5 - sorry they're long"),
# says nothing for the game: left out, as an apology for lateness is (dm_lines.chatter), so the line is read as the
# greeting and header it is, and its turn checked (_other_turn). It was refused as "starts like a greeting but says
# more". Only these words, none that could take an order back (assumption GREETING_HEADER_APOLOGY)
_SORRY = frozenset({"sorry", "apologies"})
_SORRY_LONG = frozenset({"theyre", "they", "are", "its", "it", "is", "this", "these", "so", "a", "bit", "too", "very",
                         "long", "lengthy", "wordy", "for", "the", "wall", "of", "text", "message", "dm", "essay",
                         "one", "my", "orders", "in", "advance", "length"})
_SORRY_LONG_SAID = frozenset({"long", "lengthy", "wordy", "wall", "essay", "length"})  # what it is sorry for
MAX_SORRY_WORDS = 8


def _sorry_long(segment: str) -> str | None:
    """"an apology" for a piece of a line that apologises for the DM's length ("sorry they're long"); else None."""
    w = words(unwrap(segment))
    if (1 < len(w) <= MAX_SORRY_WORDS and w[0] in _SORRY and all(x in _SORRY_LONG for x in w[1:])
            and _SORRY_LONG_SAID & set(w)):
        return "an apology"
    return None


# An order joined to what is around it without a ',' (docs/dm-syntax.md, "What is ignored"): a header ending
# in ':' before it ("My orders: Fortify! P1"; after a header naming the bid, the amount alone: "Here is my bid:
# 20"), a greeting ended by '!', ',' or ':' ("Hi Alex! Bid 20", also before a header), and only these words of
# greeting or thanks before or after it ("Hi GM! Bid 20 thanks!", "Thanks! Bid 20"). Anything else beside an
# order stays an error.
_HELLO_WORDS = frozenset({"hi", "hello", "hey", "gm"})
_THANKS_WORDS = frozenset({"thanks", "thx", "ty", "cheers", "please", "pls", "gm"})  # and "thank you"
_BEFORE_WORDS = _HELLO_WORDS | _THANKS_WORDS  # "Hi GM! Bid 20", "Thanks! Bid 20"
_NOTHING_PHRASES = _NONE_PHRASES | _LIGHTS_PHRASES  # "My orders: none"
_THANKS_NAMED = "thanks, thank you, thx, ty, cheers, please, pls or gm"  # _THANKS_WORDS, as the refusal says them
_CHAT_WORD = re.compile(r"[^\s!?.,;:]+")
_TRAILING_TEXT = re.compile(r"unexpected .* at the end of the order")


def _thanked(raw: str, segment: str, err: OrderSyntaxError, seats: Mapping[str, str], step: str | None,
             shown: NameList | None) -> tuple[Line, str] | None:
    """One piece of a line read as an order with words of thanks after it (``Bid 3 please. Hodir``), and those
    words; ``None`` unless every way of cutting them off reads the same order (a player called ``Bob ty``:
    ``Snitch Bob ty thx`` stays refused), and never for a piece that asks."""
    if "?" in segment or not _TRAILING_TEXT.match(err.reason):
        return None
    readings: dict[str, tuple[Line, str]] = {}
    for end in _thanks_ends(segment):
        try:
            line = parse_segment(raw.strip(), segment[:end].rstrip(" ,"), seats, step, shown)
        except OrderSyntaxError:
            continue
        readings.setdefault(format_line(line), (line, segment[end:].strip()))
    return next(iter(readings.values())) if len(readings) == 1 else None


def _thanks_ends(text: str) -> list[int]:
    """Where an order in ``text`` may end with words of thanks after it ("Bid 20 thanks!", "Bid 3 thank you"), the
    last words first: at most ``MAX_CHAT_WORDS`` of them are tried."""
    tokens = list(_CHAT_WORD.finditer(text))
    ends: list[int] = []
    k = len(tokens)
    while k > 0 and len(ends) < MAX_CHAT_WORDS:
        word = tokens[k - 1].group().lower()
        if word == "you" and k > 1 and tokens[k - 2].group().lower() == "thank":
            k -= 2
        elif word in _THANKS_WORDS:
            k -= 1
        else:
            break
        ends.append(tokens[k].start())
    return ends


# words an order is made of: never taken for a name after a greeting ("Hi Alex, Bid 20" greets Alex; "Hi pass" is no
# greeting)
_RESERVED = frozenset({*ORDER_WORDS, *(w for phrase in _NONE_PHRASES | _LIGHTS_PHRASES for w in phrase),
                       *(w for f in FACTIONS for w in words(f)), "p", "province", "player", "units", "unit", "from",
                       "to", "in", "sac", "realm", "realms"})
# words that may turn what follows around: never taken for a greeted name ("Hi, not Bid 20" is no Bid 20)
_NOT_A_NAME = TURN_AROUND | {"i", "we", "will", "want"}


def _could_be_a_name(word: str) -> bool:
    """``word`` (lower case, as written) may be a name after a greeting without a mark ("Hi Alex Bid 20")."""
    plain = words(word)
    return len(plain) == 1 and plain[0].isalpha() and plain[0] not in _RESERVED | _NOT_A_NAME


_GREETING_MARK = re.compile(r"^[^!,:]{1,60}[!,:]")  # "Hi Alex!": a greeting ends at its first mark
MAX_CHAT_WORDS = 3
"""greeting or thanks words tried on each side of an order ("Hi GM! Bid 20 thanks!" has two and one): each
start x end is one more reading of the line, so a line of "hi hi hi ..." stays a few readings, not thousands"""


def _around_order(no: int, raw: str, text: str, seats: Mapping[str, str], names: set[str],
                  step: str | None, shown: NameList | None = None) -> DmLine | None:
    """``text`` (not read as orders) as an order with a header, greeting or thanks around it; a refusal when
    that could be read two ways, or when what is before a ':' is no header; ``None`` when there is no order."""
    starts: list[tuple[int, str]] = []  # where the order may start, and what is before it
    mark = _GREETING_MARK.search(text)
    # "Hi Alex!", and an apology for lateness alone before its mark ("Sorry for the delay! Fortify! P2"; chatter
    # never leaves out one with a word that could take the order back: "Sorry, wrong DM")
    opened = chatter(text[: mark.end()], names, _RESERVED) if mark is not None else None
    greeted = opened in ("a greeting", "an apology")
    lead = mark.end() if mark is not None and greeted and text[mark.end() - 1] != ":" else 0
    colon = text.find(":", lead)  # "Hello Mr GM, my bid for this turn: 7": the header after the greeting
    before = chatter(text[lead : colon + 1], names, _RESERVED) if colon > lead else None
    if before in ("a header", "a greeting", "an aside"):
        starts.append((colon + 1, before))
    tokens = list(_CHAT_WORD.finditer(text))
    what, hello, named = "a greeting", False, 0
    for m in tokens[:MAX_CHAT_WORDS]:  # "Hi GM! Bid 20", "Thanks! Bid 20", "Hi Alex Bid 20"
        word = m.group().lower()
        if word in _BEFORE_WORDS:
            what = what if word in _HELLO_WORDS else "a thank-you"
            hello = hello or word in _HELLO_WORDS
        elif (what == "a greeting" and hello and named < MAX_NAME_WORDS and _could_be_a_name(word)
              and text[m.end():m.end() + 1] not in ("!", ",", ":")):  # ended by a mark: the reading below
            named += 1  # the greeted one's name without a mark
        else:
            break
        starts.append((m.end(), what))
    if mark is not None and greeted:  # "Hi Alex! Bid 20", "Sorry for the delay! Bid 20"
        starts.append((mark.end(), str(opened)))
    ends = _thanks_ends(text)  # where the order may end ("Bid 20 thanks!")
    bid_header = before == "a header" and bool(BID_WORDS & set(words(text[lead:colon])))
    readings: dict[tuple[str, ...], tuple[tuple[Line, ...], str, tuple[int, ...]]] = {}
    asked: str | None = None  # "My orders: none?", "Here is my bid: 20?", "Bid 20 please?": the reading asks
    for start, what in [(0, ""), *starts]:
        for end in [len(text), *ends]:
            if (start, end) == (0, len(text)) or start >= end:
                continue
            around = ([f"{echo(text[:start].strip())}: {what}"] if start else [])
            after = [f"{echo(text[end:].strip())}: a sign-off"] if end < len(text) else []
            if words(text[start:end]) in _NOTHING_PHRASES:  # "My orders: none"
                entry = _read_line(no, text[start:end], seats, names, step, shown)  # a phrase: read before any order
                if entry.kind == "nothing" and "?" not in text[end:]:
                    readings.setdefault(entry.canonical, ((), "; ".join(around + after), ()))
                elif entry.kind == "nothing" or _ASKS in entry.why:
                    asked = entry.why if _ASKS in entry.why else _asks(text[start:].lstrip("!,:;. "), raw).reason
                continue
            piece = _as_bid(text[start:end].strip(), step)  # "20 please" when only a bid is asked
            said_all: list[int] = []
            parsed, left_out, error = _orders(raw, piece, seats, names, step, shown, said_all)
            if (error is not None or not parsed) and start == colon + 1 and bid_header:  # "Here is my bid: 20"
                said_all = []
                parsed, left_out, error = _orders(raw, "Bid " + text[start:end], seats, names, step, shown, said_all)
                parsed = parsed if parsed and isinstance(parsed[0].item, Bid) else []
            if (error is not None and _ASKS in error.reason) or (error is None and parsed and "?" in text[end:]):
                # "Bid 20 please?" asks as "Bid 20?" does; the reading after the greeting says it last
                asked = _asks(text[start:].lstrip("!,:;. "), raw).reason
                continue
            if error is not None or not parsed:
                continue
            key = tuple(format_line(ln) for ln in parsed)
            readings.setdefault(key, (tuple(parsed), "; ".join(around + left_out + after), tuple(said_all)))
    if len(readings) > 1:
        ways = " or ".join(echo("; ".join(key)) for key in readings)
        return DmLine(no, raw, "refused", why=clip(f"the line could be read as {ways}; which one is meant is not "
                                                   "clear, send the order alone", MAX_REASON), error="syntax")
    if not readings and asked is not None:
        return DmLine(no, raw, "refused", why=asked, error="syntax")
    if readings:
        key, (parsed_lines, what_left, all_said) = next(iter(readings.items()))
        if not parsed_lines:  # "none" or "Turn off the lights" with a header or thanks around it
            return DmLine(no, raw, "nothing", canonical=key, why=what_left)
        return _accepted(no, raw, parsed_lines, what_left, step, all_said)
    if colon > lead and before is None:
        parsed, _, error = _orders(raw, text[colon + 1 :], seats, names, step, shown)
        if error is None and parsed:  # "My plan: Fortify! P1"
            return DmLine(no, raw, "refused", why=clip(f"{echo(text[: colon + 1].strip())} before the order is not "
                                                       "a header like 'My orders:'; send the order alone, or a "
                                                       "note to the GM on a line starting with //", MAX_REASON),
                          error="syntax")
    return None


def _too_long(raw: str) -> str:
    longest = max((len(m) for m in _DIGIT_RUN.findall(raw)), default=0)
    if longest > len(str(MAX_DM_NUMBER)):
        return f"the line holds a {longest}-digit number; a number in a DM is at most {MAX_DM_NUMBER}"
    return f"the line is {len(raw)} characters long; at most {MAX_LINE_CHARS}"


def _other_step(err: OrderSyntaxError, segment: str, step: str | None) -> OrderSyntaxError:
    """A malformed order of another step: say the step does not take it at all (``Bid`` in the Dragon
    step), rather than how to write it."""
    kind = head_item(segment)
    if step is None or step not in DECISION_TYPES or kind is None or issubclass(kind, ACCEPTS[DECISION_TYPES[step]]):
        return err
    name = _STEP_NAMES.get(step, step)
    return OrderSyntaxError(f"not a choice for the {name} step; it takes {EXPECTED_BY_STEP[step]}",
                            input=err.input)


def _not_an_order(err: OrderSyntaxError) -> bool:
    return err.reason.startswith("unknown order")


# rules: 003 Team Games, Pooled $Realm -- pooled "in the Consolidation phase during the buying and bidding step and
# during the bidding for Protector Ranking": brackets of pooling on an order or a commitment were dropped unsaid
_UNPOOLED = frozenset({ORDERS, DRAGON})


def _accepted(no: int, raw: str, parsed: tuple[Line, ...], left_out: str, step: str | None,
              all_said: tuple[int, ...] = ()) -> DmLine:
    canonical = tuple(format_line(ln) for ln in parsed)
    entry = DmLine(no, raw, "order", parsed, parsed, canonical, left_out, all_said=all_said)
    zero = [ln for ln in parsed if isinstance(ln.item, Commit) and ln.item.count == 0]
    if zero:  # "0 from P1": commits nothing from P1 (the Dragon step's turn-off-the-lights, for one Province)
        kept = tuple(ln for ln in parsed if ln not in zero)
        entry = DmLine(no, raw, "order" if kept else "nothing", parsed, kept, canonical, left_out, all_said=all_said)
    if step is None or step not in DECISION_TYPES:
        return entry
    accepts = ACCEPTS[DECISION_TYPES[step]]
    for ln in parsed:
        if not isinstance(ln.item, accepts):
            name = _STEP_NAMES.get(step, step)
            return entry.refuse(f"not a choice for the {name} step; it takes {EXPECTED_BY_STEP[step]}")
    pooled = next((ln for ln in parsed if ln.funding), None) if step in _UNPOOLED else None
    if pooled is not None:  # "Send 40 to Carol (30 from Bob)": the orders and commitments take no $Realm from a mate
        said = ", ".join(f.text() for f in pooled.funding)
        alone = echo(format_line(Line(pooled.item)))
        return entry.refuse(f"'({said})' pools $Realm, which goes only with a bid or a purchase: send {alone} without "
                            "it, and a note to the GM after //", "syntax")
    return entry


# -- across lines: what could mean two things ----------------------------------------------------
def _cross_check(entries: list[DmLine], step: str | None) -> list[DmLine]:
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
