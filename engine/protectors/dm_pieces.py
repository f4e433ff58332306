"""The orders on one DM line's text (``read_orders``): each piece from ``notation.split_orders`` read as an order,
or left out (a remark in brackets, chatter, thanks after an order, an apology for a long DM, ``no purchases``, ``no
snitch``), or the line's first refusal; with what decides these (a remark naming a player or saying 'all', a choice
that asks, an order of another step, the words never taken for a greeted name)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from engine.errors import OrderSyntaxError
from engine.protectors.decisions import ACCEPTS, DECISION_TYPES
from engine.protectors.dm_lines import chatter, unwrap, words
from engine.protectors.dm_phrases import (
    BID_ONLY_STEPS,
    LEADING_AMOUNT,
    LIGHTS_PHRASES,
    NO_BUY_PHRASES,
    NO_BUYS,
    NO_SNITCH,
    NO_SNITCH_PHRASES,
    NONE_PHRASES,
    SNITCH_STEPS,
    STEP_NAMES,
    no_snitch_names_player,
)
from engine.protectors.notation import (
    EXPECTED_BY_STEP,
    FACTIONS,
    MAX_LINE_ECHO,
    MAX_REASON,
    ORDER_WORDS,
    NameList,
    clip,
    echo,
    format_line,
    head_item,
    holds_all,
    parse_segment,
    split_orders,
    split_remark,
)
from engine.protectors.notation_remarks import asks
from engine.protectors.orders import Bid, Commit, Line, March
from engine.protectors.state import CONSOLIDATION

MAX_NAME_RUN = 4  # words of a display name looked for in a remark in brackets ("(Bob the Bold)")
# the steps whose decisions a team may pool $Realm for (rules: 003 Team Games, Pooled $Realm: "in the Consolidation
# phase during the buying and bidding step and during the bidding for Protector Ranking at the start of a new game");
# None: a DM read without its step, where brackets naming a player may be pooling too
POOLING_STEPS = frozenset({None, "bid", "rebid", "consolidation"})


def names_player(remark: str, names: set[str]) -> bool:
    """Whether ``remark`` names a player by display name or colour (``(Bob)``, ``(Bob pays)``, ``(Bob's)``): no remark
    then (docs/dm-syntax.md), but team pooling to read, or refuse ("Bid 20 (Bob)": 20 with $Realm from Bob?)."""
    w = words(remark)
    runs = {" ".join(w[i:j]) for i in range(len(w)) for j in range(i + 1, min(len(w), i + MAX_NAME_RUN) + 1)}
    return any(run in names or (run.endswith("s") and run[:-1] in names) for run in runs)


# a remark in brackets saying 'all' beside a number ("Bid 20 (all I have)", "2 from P6 (all of them)"): is the number
# all? dm_submit.settle checks it against the game (assumption DM_ALL)
ALL_REMARK = frozenset({"all", "everything", "whole", "entire"})


def _says_all(remark: str, line: Line, step: str | None) -> bool:
    """Whether ``remark`` says 'all' beside ``line``'s own count or bid where 'all' may be a number (a March! but a
    Delayed one, a commitment, a bid but in the Consolidation: dm_submit._all_of)."""
    item = line.item
    return ((isinstance(item, March) and not item.delayed) or isinstance(item, Commit)
            or (isinstance(item, Bid) and step != CONSOLIDATION)) \
        and not holds_all(line) and bool(ALL_REMARK & set(words(remark)))


def read_orders(raw: str, text: str, seats: Mapping[str, str], names: set[str], step: str | None,
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
        # "Fortify P1, snitch nobody" with a player called Nobody: no Snitch, or a Snitch on Nobody? (it read as the
        # Snitch, and on a line of its own as no Snitch)
        both = no_snitch_names_player(words(segment), seats, shown.written if shown else None) \
            if step in SNITCH_STEPS else None
        if both is not None:
            first_error = first_error or OrderSyntaxError(both, input=clip(raw.strip(), MAX_LINE_ECHO))
            continue
        order, remark = split_remark(segment)  # "Fortify! P9 (just in case)": the remark is left out, and said
        # "Bid 20 (Bob)": pooled from Bob? read as team pooling, where a step pools (rules: 003 Team Games, Pooled
        # $Realm: the turn-1 bids and the Consolidation); "Fortify P1 (sorry Bob)" at the orders is a remark
        if remark and (step not in POOLING_STEPS or not names_player(remark, names)):
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
                raise asks(segment, raw)
            parsed.append(line)
        except OrderSyntaxError as err:
            # "Bid 3 please. Hodir": thanks ending a piece that more of the line follows (the line's own end is
            # dm_line._around_order's, which bounds the words it tries on each side)
            thanked = _thanked(raw, segment, err, seats, step, shown) if i < len(segments) - 1 else None
            if thanked is not None:
                parsed.append(thanked[0])
                left_out.append(f"{echo(thanked[1])}: a sign-off")
                continue
            part = chatter(segment, names, RESERVED) or _sorry_long(segment)
            if part is None and step == "consolidation" and words(segment) in NO_BUY_PHRASES:
                if "?" in segment:  # "Bid 5, no buys?" asks
                    first_error = first_error or asks(segment, raw)
                    continue
                part = NO_BUYS
            if part is None and step in SNITCH_STEPS and words(segment) in NO_SNITCH_PHRASES:
                if "?" in segment:  # "Fortify P1, no snitch?" asks
                    first_error = first_error or asks(segment, raw)
                    continue
                part = NO_SNITCH  # "Fortify P1, no snitch"
            if part is None:
                first_error = first_error or _other_step(err, segment, step)
            elif part == "a signature" and parsed:
                # "Send 10 to Will & March" (a player named March, an order's word, so a piece of its own): part of
                # the order, or a name signed after it? It was left out as a signature and 'Send 10 to Will' stored;
                # refused as "Send 10 to Will, Red" is
                said = echo(segment.strip(" ,;.&+"))
                first_error = first_error or OrderSyntaxError(clip(
                    f"{said} after the order is a player's name: part of the order (to both players?) or a "
                    "signature? name one player in each order, with nothing after it but thanks (a note to the GM "
                    "goes after //)", MAX_REASON), input=clip(raw.strip(), MAX_LINE_ECHO))
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


# rules: none (what a DM says beside its orders). An apology for a long DM ("sorry they're long", "sorry for the wall of
# text"), after a greeting and a header on its line ("Hi GM!!! here are my orders for turn 5 - sorry they're long"),
# says nothing for the game: left out, as an apology for lateness is (dm_lines.chatter), so the line is read as the
# greeting and header it is, and its turn checked (dm_checks.other_turn). It was refused as "starts like a greeting but
# says more". Only these words, none that could take an order back (assumption GREETING_HEADER_APOLOGY)
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


THANKS_WORDS = frozenset({"thanks", "thx", "ty", "cheers", "please", "pls", "gm"})  # and "thank you"


CHAT_WORD = re.compile(r"[^\s!?.,;:]+")
TRAILING_TEXT = re.compile(r"unexpected .* at the end of the order")


def _thanked(raw: str, segment: str, err: OrderSyntaxError, seats: Mapping[str, str], step: str | None,
             shown: NameList | None) -> tuple[Line, str] | None:
    """One piece of a line read as an order with words of thanks after it (``Bid 3 please. Hodir``), and those
    words; ``None`` unless every way of cutting them off reads the same order (a player called ``Bob ty``:
    ``Snitch Bob ty thx`` stays refused), and never for a piece that asks."""
    # "Hodir pls, bid 20": a faction's name with thanks after it is no order word either (was "unknown order 'Hodir'")
    if "?" in segment or not (TRAILING_TEXT.match(err.reason) or err.reason.startswith("unknown order")):
        return None
    readings: dict[str, tuple[Line, str]] = {}
    for end in thanks_ends(segment):
        try:
            line = parse_segment(raw.strip(), segment[:end].rstrip(" ,"), seats, step, shown)
        except OrderSyntaxError:
            continue
        readings.setdefault(format_line(line), (line, segment[end:].strip()))
    return next(iter(readings.values())) if len(readings) == 1 else None


def thanks_ends(text: str) -> list[int]:
    """Where an order in ``text`` may end with words of thanks after it ("Bid 20 thanks!", "Bid 3 thank you"), the
    last words first: at most ``MAX_CHAT_WORDS`` of them are tried."""
    tokens = list(CHAT_WORD.finditer(text))
    ends: list[int] = []
    k = len(tokens)
    while k > 0 and len(ends) < MAX_CHAT_WORDS:
        word = tokens[k - 1].group().lower()
        if word == "you" and k > 1 and tokens[k - 2].group().lower() == "thank":
            k -= 2
        elif word in THANKS_WORDS:
            k -= 1
        else:
            break
        ends.append(tokens[k].start())
    return ends


# words an order is made of: never taken for a name after a greeting ("Hi Alex, Bid 20" greets Alex; "Hi pass" is no
# greeting)
RESERVED = frozenset({*ORDER_WORDS, *(w for phrase in NONE_PHRASES | LIGHTS_PHRASES for w in phrase),
                      *(w for f in FACTIONS for w in words(f)), "p", "province", "player", "units", "unit", "from",
                      "to", "in", "sac", "realm", "realms"})


MAX_CHAT_WORDS = 3
"""greeting or thanks words tried on each side of an order ("Hi GM! Bid 20 thanks!" has two and one): each
start x end is one more reading of the line, so a line of "hi hi hi ..." stays a few readings, not thousands"""


def _other_step(err: OrderSyntaxError, segment: str, step: str | None) -> OrderSyntaxError:
    """A malformed order of another step: say the step does not take it at all (``Bid`` in the Dragon
    step), rather than how to write it."""
    kind = head_item(segment)
    if step is None or step not in DECISION_TYPES or kind is None or issubclass(kind, ACCEPTS[DECISION_TYPES[step]]):
        return err
    first = number_first(segment, step)
    if first is not None:  # "5" in the Consolidation, "12 again" at a re-bid: read as a count, of no order here
        return OrderSyntaxError(clip(first, MAX_REASON), input=err.input)
    name = STEP_NAMES.get(step, step)
    return OrderSyntaxError(f"not a choice for the {name} step; it takes {EXPECTED_BY_STEP[step]}",
                            input=err.input)


def number_first(segment: str, step: str | None) -> str | None:
    """What to write instead of a piece opening with a number that is no order (``LEADING_AMOUNT``): in the
    Consolidation a number alone could be the bid or a count of units (docs/dm-syntax.md, "never a number alone"); in
    a step that takes only a bid, the number is the bid only alone (``as_bid``), so "12 again" is said to be no bid as
    it stands. ``None`` for other pieces and steps. Was "not a choice for the ... step": the number read as a count."""
    m = LEADING_AMOUNT.match(segment.strip())
    if m is None:
        return None
    n = m.group("amount").replace(",", "")
    if head_item(segment[m.end():]) not in (None, Commit):  # "1 Bid 5": a list's number? never the bid
        return (f"{echo(m.group())} before the order is no part of it, nor a list's number Regent reads ('{n}.' or "
                f"'{n})' is one): send the order without it")
    said = echo(segment.strip().rstrip(",;."))
    if step == CONSOLIDATION and set(words(segment[m.end():])) <= _AFTER_AMOUNT:
        return (f"{said} alone could be the bid or a number of units: write 'Bid {n}' for your bid, or 'Buy {n} in "
                "P6' for units")
    if step in BID_ONLY_STEPS:
        return (f"{said}: an amount without 'Bid' is the bid only alone on its line (or with thanks): write 'Bid {n}', "
                "and a note to the GM after //")
    return None


_AFTER_AMOUNT = frozenset({"realm", "realms", "gold", "thank", "you", *THANKS_WORDS})  # "5 realm", "5 thanks"


_LEFT_OVER = re.compile(r"unexpected (['\"])(?P<left>.*)\1 at the end of the order")
_JOINED = re.compile(r"^(?:and|&|\+|then)\s+", re.IGNORECASE)


def march_word_missing(raw: str, text: str, error: OrderSyntaxError, seats: Mapping[str, str], step: str | None,
                       shown: NameList | None) -> str | None:
    """Why a March! with another's count and Provinces after it ("March 3 from P5 to P4, 1 from P1 to P2") is refused,
    saying to give that one its word too; ``None`` unless what is left over reads as a March! with it. Only the
    refusal's wording: the line is refused as before (a second March! after ',' is never guessed, Golden or not)."""
    m = _LEFT_OVER.match(error.reason)
    if m is None or head_item(text) is not March:
        return None
    left = _JOINED.sub("", m.group("left").strip())
    try:
        line = parse_segment(raw.strip(), f"March! {left}", seats, step, shown)
    except OrderSyntaxError:
        return None
    return (f"{echo(left)} after the March! is no order of its own: give each March! its word, like "
            f"{echo(format_line(line))}, on its own line or after a comma")
