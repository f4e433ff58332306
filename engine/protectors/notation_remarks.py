"""Remarks in brackets: which brackets after an order are a remark left out (``split_remark``), which a line of its
own is (``remark_alone``), and why brackets are none (``no_remark_because``): no word in them could be or change an
order (the words that keep them from being one: ``HEDGED_REMARK`` and the tables here)."""

from __future__ import annotations

import re

from engine.errors import OrderSyntaxError
from engine.protectors.dm_lines import TURN_AROUND
from engine.protectors.factions import FACTIONS, faction_named
from engine.protectors.notation_grammar import ORDER_WORDS
from engine.protectors.notation_split import segments_of
from engine.protectors.notation_words import (
    FILLERS,
    LARGER_NUMBER_WORD,
    MAX_LINE_ECHO,
    MAX_REASON,
    SEAT,
    TRAILING_PAREN,
    WORD_NUMBER,
    clean,
    clip,
    echo,
    norm_words,
)

# words that keep brackets after an order from being a remark ("(just in case)"): an order's, a pooling's, a
# Province's or a player's, and those that may turn the order around ("(not really)", "(cancel)")
_NOT_A_REMARK = frozenset({"from", "sac", "sacrifice", "realm", "realms", "$realm", "p", "province", "player",
                           "island", "none", "nothing", "pass", "move", "attack", "lights", "commit", "faction",
                           "kalu", "ak", *(x for f in FACTIONS for x in norm_words(f))}  # "Bid 20 (Hodir)"
                          | TURN_AROUND)  # "(not really)", "(jk)", "(if allowed)", "(unless Bob attacks)"
# ... and the words that give a number or change one: a number in words ("(minus one)", "(leave one)") and what may
# change a count or an amount ("(keep some)", "(half)", "(save a little)", "(a unit stays)"). "March! all from P1 to
# P7 (leave one)" and "Bid all (save some)" were stored as all the units or $Realm, the remark left out
_COUNT_CHANGING = frozenset({*WORD_NUMBER, "minus", "less", "fewer", "more", "times", "twice", "double", "triple",
                             "half", "third", "quarter", "percent", "each", "per", "leave", "leaving", "keep",
                             "keeping", "save", "saving", "bar", "barring", "most", "least", "max", "maximum", "min",
                             "minimum", "some", "few", "rest", "remaining", "remainder", "dozen", "extra", "unit",
                             "units"})


# ... and the words that hedge an order ("(I think)", "(I guess)", "(prob)"): tentative, as "(maybe)" is (dm_lines.
# TURN_AROUND), never left out as a remark; "Fortify P1 (I think)" was stored as Fortify! P1 (assumption HEDGED_REMARK)
HEDGED_REMARK = frozenset({"think", "thinking", "guess", "guessing", "prob", "probs", "idk", "dunno", "believe",
                           "likely", "unlikely", "presumably", "suppose", "supposedly", "reckon", "tbc", "tba",
                           "approx", "approximately", "roughly", "circa", "ish"})  # "Bid 7 (roughly)": about 7


# rules: 003 Each Turn -- "Once a DM is sent to the GM, your orders/choices are final": a line that asks ("Bid 20?",
# "none?", "Hodir?", "Bid 20 (?)") gives no final choice, so it is refused, never read as the choice without its '?'
ASKS = "has a question mark"


def asks(segment: str, raw: str) -> OrderSyntaxError:
    """The refusal of ``segment`` (a choice written with a '?'), naming ``raw``, the whole line."""
    return OrderSyntaxError(clip(f"{echo(segment.strip())} {ASKS}: a DM gives orders, it does not ask; send the "
                                 "order without the '?' if you mean it, and a question for the GM on a line starting "
                                 "with //", MAX_REASON), input=clip(raw.strip(), MAX_LINE_ECHO))


def split_remark(segment: str) -> tuple[str, str]:
    """``Fortify! P9 (just in case)`` -> (``Fortify! P9``, ``(just in case)``): brackets at the end of an order
    holding words only, none a number (in digits or words) or a word orders, poolings, Provinces or players are made
    of, nor one that may turn the order around or change a count (``(minus one)``, ``(keep some)``); else
    (``segment``, ``""``): the brackets are read as team pooling."""
    m = TRAILING_PAREN.search(segment)
    if m is None or any(c.isdigit() or c == "?" for c in m.group(1)):  # "(right?)" asks: no remark to leave out
        return segment, ""
    w = remark_words(m.group(1))
    if not w or faction_named(" ".join(w)) is not None or any(_no_remark_word(x) for x in w):
        return segment, ""
    return segment[: m.start()].rstrip(), m.group().strip().rstrip(".,;! ")


# rules: none (input hygiene). 'and' may add to an order or take it back ("(and P2)", "(and not P1)"), so it keeps
# brackets from being a remark; but one joining the sender to someone ("(Bruno and I agreed)", "(Red and me discussed
# it)", "(me and Red)") adds nothing: it was refused as "'and' could take the order back" where no order was on the
# line. The other words of such brackets are checked as any remark's. Assumption SPEAKER_AND
SPEAKER_AND = True
_SPEAKER = frozenset({"i", "me"})
_ADDING = frozenset({"and", "also", "plus", "then"})  # TURN_AROUND's words that may add an order: "(and P2)"


def remark_words(inner: str) -> tuple[str, ...]:
    """The words of brackets holding ``inner`` that may keep them from being a remark: ``norm_words``, without an
    'and' joining the sender to someone (``SPEAKER_AND``)."""
    w = tuple(norm_words(inner))
    if not SPEAKER_AND or "and" not in w:
        return w
    return tuple(
        x
        for i, x in enumerate(w)
        if x != "and" or not ((i + 1 < len(w) and w[i + 1] in _SPEAKER) or (i > 0 and w[i - 1] == "me"))
    )


def _no_remark_word(x: str) -> bool:
    """Whether the word ``x`` keeps brackets from being a remark (``split_remark``)."""
    # "the" starts The Bank of Lannuvár, which is also read without it: "(the Bank ...)" has "bank"
    return (x in _NOT_A_REMARK or x in _COUNT_CHANGING or x in HEDGED_REMARK or LARGER_NUMBER_WORD.fullmatch(x)
            is not None or (x in ORDER_WORDS and x != "the") or SEAT.fullmatch(x) is not None)


def remark_alone(inner: str) -> str | None:
    """Why brackets holding ``inner`` on a line of their own ("(sorry for the late reply, was at work)") are no remark
    to leave out, in words for the player; ``None`` when they are one (assumption STANDALONE_REMARK). As after an order
    (``split_remark``), but a word orders are made of may stand inside the remark ("was at work") unless it could start
    an order there ("(fortify everything)"); the reader has already refused brackets that read as an order."""
    if "?" in inner or any(c.isdigit() for c in inner):
        return no_remark_because(inner)
    for piece in segments_of(clean(inner)):  # "(sorry, work was busy)": 'work' could start an order there
        w = norm_words(piece)
        first = next((x for x in w if x not in FILLERS), None)
        if first is not None and first in ORDER_WORDS and first != "the":
            return f"{echo(first)} could start an order"
    w = remark_words(inner)
    kept = " ".join(x for x in w if x not in ORDER_WORDS or x in _NOT_A_REMARK)
    if faction_named(" ".join(w)) is not None or any(_no_remark_word(x) for x in norm_words(kept)):
        return no_remark_because(kept)
    return None


def no_remark_because(inner: str) -> str:
    """Why brackets holding ``inner`` are no remark ``split_remark`` leaves out, in words for the player: the first
    word that could change the order (``(if taken then Cenarion)``: 'if'), or what else keeps it."""
    if "?" in inner:
        return "it asks ('?')"
    w = remark_words(inner)
    if faction_named(" ".join(w)) is not None:
        return "it names a faction"
    for x in w:
        if x in _ADDING:  # "(and P2)": said as what it may do (it was "could take the order back")
            return f"{echo(x)} could add to the orders"
        if x in TURN_AROUND:
            return f"{echo(x)} could take the order back or make it depend on something"
        if x in HEDGED_REMARK:
            return f"{echo(x)} makes the order tentative, and a DM's orders are final"
    for x in w:
        if SEAT.fullmatch(x) or x == "player":
            return f"{echo(x)} names a player"
        if x in ("p", "province", "island") or re.fullmatch(r"p[0-9]+", x):
            return f"{echo(x)} names a Province"
        if x in _COUNT_CHANGING or LARGER_NUMBER_WORD.fullmatch(x) or any(c.isdigit() for c in x):
            return f"{echo(x)} could give or change a number"
        if x in _NOT_A_REMARK or (x in ORDER_WORDS and x != "the"):  # as split_remark: "the" starts no order
            return f"{echo(x)} is a word orders are made of"
    return "it could change the order"
