"""A DM's reading as the reader gives it: ``DmLine`` (one line and how it was read) and ``DmReading`` (every line
of one DM, its refusal, its decision and its notes to the GM), with the constants these use: the limits on a DM's
size, ``NONE`` and ``LIGHTS_OUT``, the ``DmLine.error`` kinds ``CORRECTION`` and ``OTHER_TURN``, what a refusal of
'all' read without a game says, and the notes after ``//``."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.errors import IllegalOrderError, OrderSyntaxError, RegentError
from engine.protectors.decisions import Decision, from_lines
from engine.protectors.notation import MAX_LINE_ECHO, MAX_REASON, clip, holds_all
from engine.protectors.orders import Line

# rules: none (input hygiene) -- a DM is a few lines; these bound the work one DM can cause.
MAX_DM_CHARS = 16_000  # characters of a whole DM (eight full Discord messages)
MAX_DM_LINES = 200  # lines with text
MAX_LINE_CHARS = 500  # characters of one line
MAX_REPORTED = 20  # refused lines listed in an error's details


NONE = "none"
LIGHTS_OUT = "Turn off the lights"


WANTED = {"bid": "bid", "rebid": "re-bid", "bank_bid": "bid", "orders": "orders", "dragon": "commitments",
          "consolidation": "purchases and bid"}


# 'all' read without a game (normalise_dm, notation.parse_text): the number is the game's to give (assumption DM_ALL)
ALL_UNSETTLED = ("'all' stands for a number only the game gives (your Army Units in the Province, or the $Realm you "
                 "may bid), and this text is read without a game: write the number")
# ... and a number beside a remark saying 'all' ("Bid 20 (all I have)"): is it all? (DmLine.all_said)
ALL_BESIDE_UNSETTLED = ("the number is beside a remark saying 'all', and this text is read without a game to tell "
                        "whether it is all: write the number or 'all', without the other")


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
    # refused: "syntax", CORRECTION or OTHER_SEAT (OrderSyntaxError), "illegal" or OTHER_TURN (IllegalOrderError)
    error: str = ""
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
            elif e.kind in ("order", "nothing") and (m := TRAILING_COMMENT.search(e.text)) is not None:
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
            what = WANTED.get(self.step or "", "orders")
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
        cls = OrderSyntaxError if first.error in ("syntax", CORRECTION, OTHER_SEAT) else IllegalOrderError
        return cls(clip(reason, MAX_REASON + 60), input=clip(first.text.strip(), MAX_LINE_ECHO), details=details)

    def lines_or_raise(self) -> list[Line]:
        err = self.error()
        if err is not None:
            raise err
        return self.lines()

    def decision(self, step: str) -> Decision:
        """The lines grouped into ``step``'s decision (``decisions.from_lines``); raises on a refusal."""
        return from_lines(step, self.lines_or_raise())


# a line refused as a correction (``DmLine.error``, a syntax error): lenient mode refuses the DM whole rather than drop
# it and keep the line it corrects, which would be the guess dm_checks.CORRECTIONS_REFUSED never makes
# (dm_submit.settle)
CORRECTION = "correction"


# a line refused because it names another turn (``DmLine.error``): the whole DM may be an old one sent again, so
# lenient mode refuses it whole rather than dropping the line (dm_submit.settle)
OTHER_TURN = "turn"


# a line refused because it heads the orders of another player ("Orders from Bob:", ``DmLine.error``, a syntax error):
# the whole DM may be theirs, so lenient mode refuses it whole rather than dropping the header (dm_whose.other_seat)
OTHER_SEAT = "seat"


MAX_NOTE = 300  # characters of one note to the GM kept (DmReading.notes)
MAX_NOTES = 10  # notes to the GM kept from one DM
# A note to the GM after an order, as at the start of a line (docs/dm-syntax.md, "What is ignored"): '//' after
# a space; "Bid 20//30" is read as written.
TRAILING_COMMENT = re.compile(r"\s//.*$")
