"""Reading one line of a DM (``read_line``) into a ``DmLine``: blank, markup, notes after ``//``, struck-out or
tentative numbers, a line wholly in brackets, the choice phrases, ``none`` or Turn off the lights with chatter or Burn
orders beside it, and an order with a header, greeting or thanks around it (``_around_order``); an accepted line is
checked against the waiting step (``_accepted``)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from engine.errors import OrderSyntaxError
from engine.protectors.decisions import ACCEPTS, DECISION_TYPES
from engine.protectors.dm_digits import as_list_number, not_plain
from engine.protectors.dm_entry import LIGHTS_OUT, MAX_LINE_CHARS, NONE, TRAILING_COMMENT, DmLine
from engine.protectors.dm_lines import (
    BID_WORDS,
    FENCE,
    MAX_NAME_WORDS,
    POSTSCRIPT,
    TURN_AROUND,
    chat_start,
    chatter,
    not_meant,
    unwrap,
    words,
)
from engine.protectors.dm_phrases import (
    ALL_IN,
    AMOUNT_ALONE,
    BID_ONLY_STEPS,
    BID_STEPS,
    GO_AMOUNT,
    LIGHTS_PHRASES,
    NO_BANK_BID_PHRASES,
    NO_BID_PHRASES,
    NO_BUY_PHRASES,
    NO_BUYS,
    NO_SNITCH,
    NO_SNITCH_PHRASES,
    NONE_PHRASES,
    SNITCH_STEPS,
    STEP_NAMES,
    as_bid,
    no_snitch_names_player,
)
from engine.protectors.dm_pieces import (
    ALL_REMARK,
    CHAT_WORD,
    MAX_CHAT_WORDS,
    POOLING_STEPS,
    RESERVED,
    THANKS_WORDS,
    TRAILING_TEXT,
    march_word_missing,
    names_player,
    read_orders,
    thanks_ends,
)
from engine.protectors.notation import (
    EXPECTED_BY_STEP,
    JOIN,
    MAX_DM_NUMBER,
    MAX_REASON,
    NUMBER_WORDS,
    NameList,
    clip,
    echo,
    faction_of,
    format_line,
    remark_alone,
    split_orders,
)
from engine.protectors.notation_remarks import ASKS, asks
from engine.protectors.notation_words import DISCORD_MENTION
from engine.protectors.orders import Bid, Burn, ChooseFaction, Commit, Line
from engine.protectors.state import CONSOLIDATION, DRAGON, ORDERS

_DIGIT_RUN = re.compile(r"[0-9]+")


_SENTENCE_END = re.compile(r"[.!;,]+\s+")  # "none. Thanks!", "nothing this turn, sorry"


def _nothing_then_chatter(no: int, text: str, names: set[str], step: str | None) -> DmLine | None:
    """``none`` or Turn off the lights as a first sentence, then only words Regent leaves out ("Turn the
    lights off. Sorry team."): the choice is read and the rest left out, said; else None."""
    m = _SENTENCE_END.search(text)
    if m is None:
        return None
    head, tail = text[: m.start()], text[m.end():]
    if words(head) not in LIGHTS_PHRASES | NONE_PHRASES:
        return None
    part = chatter(tail, names, RESERVED) or _restates_nothing(tail, names)
    if part is None:
        return None
    entry = read_line(no, head, {}, names, step)
    why = f"{echo(tail.strip())}: {part}"
    return DmLine(no, text, entry.kind, entry.parsed, entry.lines, entry.canonical,
                  why if entry.kind == "nothing" else entry.why, entry.error)


# what a player adds after ``none`` to say it again ("none, nothing to order :("): read as none, the rest left out
_NOTHING_AGAIN = NONE_PHRASES | {("nothing", "to", "order"), ("nothing", "to", "do"), ("nothing", "to", "send"),
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
    return "says none again" if chatter(tail[m.end():], names, RESERVED) is not None else None


def _again(text: str) -> bool:
    w = words(text)
    return (w[:-2] if w[-2:] == ("this", "turn") else w) in _NOTHING_AGAIN


def _none_then_more(text: str) -> str | None:
    """Why a line that starts with ``none`` ("none, blah", "none, march 2 from P1 to P2") and goes on with what is
    neither said again nor left out is refused: ``none`` is a whole decision, so the line is refused as two things,
    never as an unknown order 'none' (which the expected orders list). None when it does not start so."""
    m = _SENTENCE_END.search(text)
    if m is None or words(text[: m.start()]) not in NONE_PHRASES:
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
    if len(pieces) < 2 or words(pieces[0]) not in LIGHTS_PHRASES | NONE_PHRASES or "?" in pieces[0]:
        return None
    rest = read_line(no, ", ".join(pieces[1:]), seats, names, step, shown)  # "burn P5 thanks", "burn P5, P7"
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
def read_line(no: int, raw: str, seats: Mapping[str, str], names: set[str], step: str | None,
              shown: NameList | None = None) -> DmLine:
    listed = as_list_number(raw)
    if listed != raw:  # "① Fortify P1", "1️⃣ Work P2": a list's number (dm_digits, assumption PLAIN_DIGITS)
        e = read_line(no, listed, seats, names, step, shown)
        return DmLine(no, raw, e.kind, e.parsed, e.lines, e.canonical, e.why, e.error, e.all_said)
    stripped = raw.strip()
    if not stripped:
        return DmLine(no, raw, "ignored", why="blank line")
    if len(raw) > MAX_LINE_CHARS:
        return DmLine(no, raw, "refused", why=_too_long(raw), error="syntax")
    if stripped.startswith("//") or FENCE.match(stripped):
        return DmLine(no, raw, "ignored", why=chatter(raw) or "")
    note = TRAILING_COMMENT.search(raw)
    if note is not None:  # "Fortify P1 // holding": the note to the GM is left out, and said
        entry = read_line(no, raw[: note.start()], seats, names, step, shown)
        if entry.kind not in ("order", "nothing"):
            return DmLine(no, raw, entry.kind, entry.parsed, entry.lines, entry.canonical, entry.why, entry.error)
        said = "; ".join(w for w in (entry.why, f"{echo(note.group().strip())}: a note after //") if w)
        return DmLine(no, raw, entry.kind, entry.parsed, entry.lines, entry.canonical, said, entry.error,
                      entry.all_said)
    if "~~" in raw:  # Discord strike-through: crossed out, or not? never guessed
        return DmLine(no, raw, "refused", why="struck-out text (~~...~~): delete what you do not mean and send "
                      "the rest plainly", error="syntax")
    digit = not_plain(raw)
    if digit is not None:  # "Bid 5⁰" was stored as Bid 50
        return DmLine(no, raw, "refused", why=digit, error="syntax")
    mark = not_meant(raw)
    if mark is not None:  # "Fortify P1 ❌", "- [ ] Fortify P1": chosen, or not? never guessed
        return DmLine(no, raw, "refused", why=mark, error="syntax")
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
    if "?" in text and (phrase in LIGHTS_PHRASES | NONE_PHRASES | NO_BUY_PHRASES | NO_SNITCH_PHRASES
                        | NO_BID_PHRASES | NO_BANK_BID_PHRASES
                        or (step == "bid" and faction_of(text) is not None)):
        # "none?", "Turn off the lights?", "Hodir?": asks, chooses nothing (rules: 003 Each Turn, final choices)
        return DmLine(no, raw, "refused", why=asks(text, raw).reason, error="syntax")
    if phrase in LIGHTS_PHRASES or (phrase in NONE_PHRASES and step == "dragon"):
        if step not in (None, "dragon"):
            return DmLine(no, raw, "refused", why=f"'{LIGHTS_OUT}' is a choice for a Dragon attack; "
                          f"the {STEP_NAMES.get(step, step)} step takes {EXPECTED_BY_STEP[step]}")
        return DmLine(no, raw, "nothing", canonical=(LIGHTS_OUT,))
    if phrase in NONE_PHRASES:
        return DmLine(no, raw, "nothing", canonical=(NONE,))
    if phrase in NO_BUY_PHRASES and step == "consolidation":  # "No purchases" on its own line
        return DmLine(no, raw, "ignored", why=NO_BUYS)
    if (phrase in NO_BID_PHRASES and step in BID_STEPS) or (phrase in NO_BANK_BID_PHRASES and step == "bank_bid"):
        # "no bid": Bid 0; "no bank bid" where the Bank's bid is asked
        return _accepted(no, raw, (Line(Bid(0)),), "", step)
    if phrase in NO_SNITCH_PHRASES and step in SNITCH_STEPS:  # "no snitch", "snitch: none"
        # "Snitch on Nobody" with a player called Nobody: no Snitch, or a Snitch on Nobody?
        named = no_snitch_names_player(phrase, seats, shown.written if shown else None)
        if named is not None:
            return DmLine(no, raw, "refused", why=named, error="syntax")
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
    bid = as_bid(text, step)
    if bid != text:  # "20" when only a bid is asked for
        bid_all: list[int] = []
        parsed, _, error = read_orders(raw, bid, seats, names, step, shown, bid_all)
        if error is None and parsed:
            return _accepted(no, raw, tuple(parsed), "", step, tuple(bid_all))
        if error is not None and ASKS in error.reason:  # "Bank bid: 7?" asks
            return DmLine(no, raw, "refused", why=error.reason, error="syntax")
    alone = text.rstrip("?").strip()
    if step in BID_ONLY_STEPS and text.endswith("?") and (AMOUNT_ALONE.fullmatch(alone) or ALL_IN.fullmatch(alone)
                                                          or GO_AMOUNT.fullmatch(alone)):
        return DmLine(no, raw, "refused", why=asks(text, raw).reason, error="syntax")  # "20?" asks
    said_all: list[int] = []
    parsed, left_out, first_error = read_orders(raw, text, seats, names, step, shown, said_all)
    if first_error is not None or not parsed:
        part = chatter(raw, names, RESERVED) if not parsed else None  # a line with an order in it is never left out
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
        chat = _chat_reason(raw, text, seats, names, step, shown) if first_error is not None \
            and _not_an_order(first_error) and (not parsed or chat_start(raw) == POSTSCRIPT) else None
        go = GO_AMOUNT.search(text) if not parsed and step == CONSOLIDATION else None
        if go is not None:  # "I'll go 10" in the Consolidation: a bid, or a count? (where only a bid is: as_bid)
            reason = (f"{echo(go.group().strip())} is no order Regent reads here, where a number may be a count or the "
                      f"bid: if {go.group('amount')} is your bid, write 'Bid {go.group('amount')}'")
        elif chat is not None:  # "Hi GM, taking my seat back from the bot!"
            reason = chat
        elif not parsed and first_error is not None and _not_an_order(first_error):
            reason += "; a note to the GM can go on a line starting with //"
        elif first_error is not None and (word := march_word_missing(raw, text, first_error, seats, step, shown)):
            reason = word  # "March 3 from P5 to P4, 1 from P1 to P2": the second March! has no word
        elif first_error is not None and TRAILING_TEXT.match(first_error.reason):
            reason += f"; after an order only {_THANKS_NAMED} may follow on its line, a note to the GM goes after //"
        return DmLine(no, raw, "refused", tuple(parsed), why=clip(reason, MAX_REASON), error="syntax")
    return _accepted(no, raw, tuple(parsed), "; ".join(left_out), step, tuple(said_all))


# rules: 003 Each Turn -- "Once a DM is sent to the GM, your orders/choices are final": "Bid ~7", "~2 from P6", "approx.
# 10", "7ish" give about a number, tentative as "(maybe)" is (notation_remarks.HEDGED_REMARK); refused, never read as
# the number ("Bid ~7" was stored as Bid 7: markup took the '~' away). A '~' after the number says so too ("Bid 4~",
# "Bid 4 ~" at the line's end: were stored as Bid 4), and so does '~ish' ("bid 4 ~ish", "(5 from Bob) ~ish": were
# refused as "unexpected 'ish'"). Assumption TENTATIVE_NUMBER
_ABOUT = re.compile(r"(?:[~≈]\s*|\b(?:approx\.?|approximately|roughly|circa)\s+)(?:\$?[0-9]+|(?:"
                    + "|".join(NUMBER_WORDS) + r")\b)|\b[0-9]+\s*(?:[~≈]\s*)?-?ish\b|[~≈]\s*-?ish\b"
                    r"|\b[0-9]+[~≈](?!~)|\b[0-9]+\s+[~≈]\s*$", re.IGNORECASE)

# rules: none on what a DM may hold beside its orders (003 Each Turn: the choices are given in a DM). A line wholly in
# brackets, "(sorry for the late reply, was at work)", carries no order: it is left out as a remark, as brackets after
# an order are, when nothing in it could be or change an order (notation_remarks.remark_alone); else refused, saying
# why. It was refused as "brackets after an order" though no order was on its line (assumption STANDALONE_REMARK)
STANDALONE_REMARK = True
_WHOLLY_BRACKETED = re.compile(r"\(([^()]*)\)[.!]*")


def _remark_line(no: int, raw: str, inner: str, seats: Mapping[str, str], names: set[str], step: str | None,
                 shown: NameList | None) -> DmLine:
    """A line wholly in brackets (``inner`` inside them): left out as a remark, or refused, saying why."""
    read = read_line(no, inner, seats, names, step, shown)
    if read.kind in ("order", "nothing"):  # "(Fortify P1)", "(none)": meant, or a thought?
        return DmLine(no, raw, "refused", why=clip(f"{echo(raw.strip())} is an order in brackets: send it without "
                                                   "them if you mean it, or put it after // as a note to the GM",
                                                   MAX_REASON), error="syntax")
    because = remark_alone(inner)
    if because is None and step in POOLING_STEPS and names_player(inner, names):  # "(Bob pays)": pooling?
        because = "it names a player"
    said_all = sorted(ALL_REMARK & set(words(inner)))
    if because is None and said_all:  # "Bid 20" then "(all I have)": all, or 20?
        because = f"'{said_all[0]}' could give a number"
    if because is not None:
        return DmLine(no, raw, "refused", why=clip(f"{echo(raw.strip())} on a line of its own is left out only as a "
                                                   f"remark that could not change the orders, and it is none "
                                                   f"({because}); a note to the GM goes on a line starting with //",
                                                   MAX_REASON), error="syntax")
    return DmLine(no, raw, "ignored", why="a remark in brackets")


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
    if mark is not None and chatter(text[: mark.end()], names, RESERVED) is not None:
        _, _, error = read_orders(raw, text[mark.end():], seats, names, step, shown)
        if error is not None and (not _not_an_order(error) or any(hint in error.reason for hint in _HINTS)):
            return error.reason
    return (f"not an order: the line starts like {like} but says more than that, so it is read as orders; send "
            "an order on a line of its own, and a note to the GM on a line starting with //")


# An order joined to what is around it without a ',' (docs/dm-syntax.md, "What is ignored"): a header ending
# in ':' before it ("My orders: Fortify! P1"; after a header naming the bid, the amount alone: "Here is my bid:
# 20"), a greeting ended by '!', ',' or ':' ("Hi Alex! Bid 20", also before a header), and only these words of
# greeting or thanks before or after it ("Hi GM! Bid 20 thanks!", "Thanks! Bid 20"). Anything else beside an
# order stays an error.
_HELLO_WORDS = frozenset({"hi", "hello", "hey", "gm"})
_BEFORE_WORDS = _HELLO_WORDS | THANKS_WORDS  # "Hi GM! Bid 20", "Thanks! Bid 20"
_NOTHING_PHRASES = NONE_PHRASES | LIGHTS_PHRASES  # "My orders: none"
_THANKS_NAMED = "thanks, thank you, thx, ty, cheers, please, pls or gm"  # THANKS_WORDS, as the refusal says them


# words that may turn what follows around: never taken for a greeted name ("Hi, not Bid 20" is no Bid 20)
_NOT_A_NAME = TURN_AROUND | {"i", "we", "will", "want"}


def _could_be_a_name(word: str) -> bool:
    """``word`` (lower case, as written) may be a name after a greeting without a mark ("Hi Alex Bid 20"; a Discord
    mention the bot left, "Hi <@123> Bid 20": dm_lines.greeted_mentions)."""
    if DISCORD_MENTION.fullmatch(word):
        return True
    plain = words(word)
    return len(plain) == 1 and plain[0].isalpha() and plain[0] not in RESERVED | _NOT_A_NAME


_GREETING_MARK = re.compile(r"^[^!,:]{1,60}[!,:]")  # "Hi Alex!": a greeting ends at its first mark


def _around_order(no: int, raw: str, text: str, seats: Mapping[str, str], names: set[str],
                  step: str | None, shown: NameList | None = None) -> DmLine | None:
    """``text`` (not read as orders) as an order with a header, greeting or thanks around it; a refusal when
    that could be read two ways, or when what is before a ':' is no header; ``None`` when there is no order."""
    starts: list[tuple[int, str]] = []  # where the order may start, and what is before it
    mark = _GREETING_MARK.search(text)
    # "Hi Alex!", and an apology for lateness alone before its mark ("Sorry for the delay! Fortify! P2"; chatter
    # never leaves out one with a word that could take the order back: "Sorry, wrong DM")
    opened = chatter(text[: mark.end()], names, RESERVED) if mark is not None else None
    greeted = opened in ("a greeting", "an apology")
    lead = mark.end() if mark is not None and greeted and text[mark.end() - 1] != ":" else 0
    colon = text.find(":", lead)  # "Hello Mr GM, my bid for this turn: 7": the header after the greeting
    before = chatter(text[lead : colon + 1], names, RESERVED) if colon > lead else None
    if before in ("a header", "a greeting", "an aside"):
        starts.append((colon + 1, before))
    tokens = list(CHAT_WORD.finditer(text))
    what, hello, named = "a greeting", False, 0
    for m in tokens[:MAX_CHAT_WORDS]:  # "Hi GM! Bid 20", "Thanks! Bid 20", "Hi Alex Bid 20"
        word = m.group().lower()
        word = "gm" if word == "@gm" else word  # "@GM Fortify P1", as "GM Fortify P1" (was "unknown order '@GM'")
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
    ends = thanks_ends(text)  # where the order may end ("Bid 20 thanks!")
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
                entry = read_line(no, text[start:end], seats, names, step, shown)  # a phrase: read before any order
                if entry.kind == "nothing" and "?" not in text[end:]:
                    readings.setdefault(entry.canonical, ((), "; ".join(around + after), ()))
                elif entry.kind == "nothing" or ASKS in entry.why:
                    asked = entry.why if ASKS in entry.why else asks(text[start:].lstrip("!,:;. "), raw).reason
                continue
            piece = as_bid(text[start:end].strip(), step)  # "20 please" when only a bid is asked
            said_all: list[int] = []
            parsed, left_out, error = read_orders(raw, piece, seats, names, step, shown, said_all)
            if (error is not None or not parsed) and start == colon + 1 and bid_header:  # "Here is my bid: 20"
                said_all = []
                parsed, left_out, error = read_orders(raw, "Bid " + text[start:end], seats, names, step, shown,
                                                      said_all)
                parsed = parsed if parsed and isinstance(parsed[0].item, Bid) else []
            if (error is not None and ASKS in error.reason) or (error is None and parsed and "?" in text[end:]):
                # "Bid 20 please?" asks as "Bid 20?" does; the reading after the greeting says it last
                asked = asks(text[start:].lstrip("!,:;. "), raw).reason
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
        parsed, _, error = read_orders(raw, text[colon + 1 :], seats, names, step, shown)
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
            name = STEP_NAMES.get(step, step)
            # rules: 003 Factions -- chosen with the turn-1 bid: "Hodir pls, fortify P27" names one (the faction, or a
            # player playing it?), said so (it was only "not a choice")
            said = (f" ({echo(ln.item.faction)} names a faction, chosen only with the turn-1 bid)"
                    if isinstance(ln.item, ChooseFaction) else "")
            return entry.refuse(f"not a choice for the {name} step{said}; it takes {EXPECTED_BY_STEP[step]}")
    pooled = next((ln for ln in parsed if ln.funding), None) if step in _UNPOOLED else None
    if pooled is not None:  # "Send 40 to Carol (30 from Bob)": the orders and commitments take no $Realm from a mate
        said = ", ".join(f.text() for f in pooled.funding)
        alone = echo(format_line(Line(pooled.item)))
        return entry.refuse(f"'({said})' pools $Realm, which goes only with a bid or a purchase: send {alone} without "
                            "it, and a note to the GM after //", "syntax")
    return entry
