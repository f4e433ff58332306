"""Cutting one DM line into the text of each order on it (``segments_of``, ``notation.split_orders``): at ``,;.``
where the next piece starts an order, at ``JOIN`` words before an order's word, a commitment's next count or a Send's
next amount, and a Fortify!, Work, work! or Burn over a list of Provinces into one piece per Province."""

from __future__ import annotations

import re

from engine.errors import OrderSyntaxError
from engine.protectors.factions import FACTIONS
from engine.protectors.notation_cursor import WordCursor
from engine.protectors.notation_grammar import ORDER_WORDS, SIMPLE_ORDERS, parse_item
from engine.protectors.notation_words import (
    ALIASES,
    ALL,
    CHOOSE_VERBS,
    COMMIT_WORDS,
    ELLIPSIS,
    FACTION_FIRST_WORDS,
    FILLERS,
    JOIN,
    LIST_SEPARATORS,
    LIST_TOKEN,
    NUMBER,
    REALM_WORDS,
    THEN_MARCH,
    TOKEN,
    TRAILING_PAREN,
    WORD_NUMBER,
    is_count,
    norm_words,
    province_name,
)
from engine.protectors.orders import Burn, Commit, Fortify, Work


def segments_of(text: str) -> list[str]:
    """Split a line into orders at top-level ``,;.`` where the next piece starts a new order; a ``,`` or ``;`` with no
    space after it too ("fortify p27,work p28", as a phone's keyboard leaves it: was "unexpected 'work p28'"), where a
    letter follows (never inside a number: "1,000"); a piece that starts no order is joined back as it was."""
    chunks, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c == "(":
            depth += 1
        elif c == ")":
            depth = max(depth - 1, 0)
        elif depth == 0 and c in ",;." and (i + 1 == len(text) or text[i + 1].isspace()
                                             or (c != "." and text[i + 1].isalpha())):
            chunks.append(text[start : i + 1])
            start = i + 1
    chunks.append(text[start:])
    chunks = [piece for chunk in chunks for piece in _split_at_and(chunk)]
    segments: list[str] = []
    current: tuple[str, ...] = ()  # the words of segments[-1]
    for chunk in chunks:
        words = norm_words(chunk)
        if segments and words and _is_send(current) and _sends_more(words):  # "Send 10 to Carol, 5 to Dan"
            segments.append("Send " + chunk.strip())
            current = ("send", *words)
        elif not segments or (words and _starts_order(words, current)):
            segments.append(chunk)
            current = words
        else:
            segments[-1] += chunk
            current += words
    return [piece for s in segments if TOKEN.search(s) for piece in _each_province(s.strip())]


def _each_province(segment: str) -> list[str]:
    """``Fortify P1, P2 & P3`` -> ``Fortify P1``, ``Fortify P2``, ``Fortify P3``: a Fortify!, Work, work! or Burn over a
    list of Provinces, each joined by ``,`` ``and`` ``&`` or ``+``, as one segment per Province, and so a commitment of
    'all' (``all from P6 and P7``: ``all from P6``, ``all from P7``); else ``[segment]``.
    Brackets after the list go with its last piece (``Fortify P1, P2 (just in case)``), read as after any order."""
    remark = TRAILING_PAREN.search(segment)
    tail = f" {segment[remark.start():].strip()}" if remark is not None else ""
    body = segment[: remark.start()] if remark is not None else segment
    tokens = list(LIST_TOKEN.finditer(body.rstrip(" ,;.!?")))  # "Fortify P1 and P2.", "Fortify P1, P2, Work P3"
    listed: list[tuple[re.Match[str], str]] = []  # from the last Province back
    k = len(tokens) - 1
    while k >= 0:
        name = province_name(tokens[k].group())
        if name is None:
            break
        listed.append((tokens[k], name))
        j = k - 1
        while j >= 0 and tokens[j].group().lower() in LIST_SEPARATORS:
            j -= 1
        if j == k - 1:  # no separator before it: the list starts here ("Fortify P1 P2" is no list)
            break
        k = j
    names = [name for _, name in listed]
    if len(names) < 2 or len(set(names)) < len(names) or ELLIPSIS.search(body):
        return [segment]  # "Work P1 and P1", "Fortify P1, P2, ...": refused, saying so (notation_grammar._not_a_list)
    first = listed[-1][0]
    head = body[: first.start()]
    try:
        item = parse_item(WordCursor(segment, head + first.group(), {}))
    except OrderSyntaxError:
        return [segment]
    # "all from P6 and P7": every unit from each (never a number: "2 from P6 and P7", from each or in all? nor a sac:
    # "all from P6 and P7 (sac 1)", in each or in all?)
    every = isinstance(item, Commit) and item.count == ALL and item.sac is None and not tail
    # rules: 003 Resolving a Dragon Attack, "the Provinces left undefended": "Burn P5, P7" burns each, one Burn a
    # Province (was refused as "unexpected 'P7'")
    if not (isinstance(item, Fortify | Work) and not item.golden) and not every and not isinstance(item, Burn):
        return [segment]  # "Golden Fortify! P1 and P2": refused (notation_grammar._not_a_list)
    pieces = [head + m.group() for m, _ in reversed(listed)]
    return [*pieces[:-1], pieces[-1] + body[listed[0][0].end():].rstrip() + tail]  # "Fortify P1, P2?" asks


def _split_at_and(chunk: str) -> list[str]:
    said = norm_words(chunk)
    commitment, send = _is_commitment(said), _is_send(said)
    pieces, start = [], 0
    for m in sorted((*_AND_ORDER.finditer(chunk), *(_AND_COMMIT.finditer(chunk) if commitment else ()),
                     *(_AND_SEND.finditer(chunk) if send else ())), key=lambda m: m.start()):
        if (chunk.count("(", 0, m.start()) == chunk.count(")", 0, m.start())  # not inside brackets
                and not THEN_MARCH.match(chunk, m.start() + len(m.group()) - len(m.group().lstrip()))):
            pieces.append(chunk[start : m.start()])
            start = m.end()
    return [*pieces, chunk[start:]]


# rules: 003 3. Negotiation and Orders -- "state to the GM the amount and to whom you want to send $Realm": "Send 10 to
# Carol, 5 to Dan" (also "and", "&", "+" before the next "N to <player>") gives two amounts to two players, read as two
# Sends, as "Buy 2 in P6, 1 in P5" is one purchase in two Provinces. Two of them to one player are refused across the
# DM (dm_checks.SENDS_TO_ONE); "Send 10 to Carol and Dan" (10 each, or in all?) is refused (assumption SEND_LIST)
SEND_LIST = True
_SEND_WORDS = ("send", "sending", "sends")


def _is_send(words: tuple[str, ...]) -> bool:
    """Whether ``words`` start a Send (``Send 10 to Bob``, ``I'm sending 10 to Bob``)."""
    i = next((k for k, x in enumerate(words) if x not in FILLERS), None)
    return SEND_LIST and i is not None and words[i] in _SEND_WORDS


def _sends_more(words: tuple[str, ...]) -> bool:
    """Whether ``words`` are a Send's next amount and player without its word (``5 to Dan``, ``5 $Realm to Dan``)."""
    if not words or not (NUMBER.fullmatch(words[0]) or words[0] in WORD_NUMBER):
        return False
    k = 2 if words[1:2] and words[1] in REALM_WORDS else 1
    return words[k : k + 1] == ("to",) and len(words) > k + 1


def _starts_order(words: tuple[str, ...], current: tuple[str, ...]) -> bool:
    if words[0] == "work":  # "Work, work!" is one order
        return current not in (("work",), ("golden", "work"))
    if current == ("faction",):  # "Faction - Iron Light" is one
        return False
    if is_count(words, 0):
        return _is_commitment(current)  # "2 from P6, 1 from P7" is two; "Buy 2 in P6, 1 in P5" is one
    return words[0] in _SEGMENT_STARTS


def _is_commitment(words: tuple[str, ...]) -> bool:
    """Whether ``words`` start a commitment (``2 from P6``, ``commit 2 from P6``, ``I commit 2 ...``)."""
    i = next((k for k, x in enumerate(words) if x not in FILLERS), None)
    if i is None:
        return False
    return words[i] in COMMIT_WORDS or is_count(words, i)


# where a line is cut at a JOIN word (notation_words.JOIN): before an order's own word, and before a faction's name, the
# turn-1 choice beside the bid ("Bid 10 and Hodir", as "Bid 10, Hodir")
# (each name as players type it: any case, an apostrophe or none, any accent: "Kalu'ak", "kaluak", "Lannuvar")
_FACTION_AHEAD = "|".join(re.sub(r"[^a-z]", lambda m: {"'": r"\W?", " ": r"\s+"}.get(m.group(), r"\w"), f.lower())
                          for f in FACTIONS)
# ... and before a faction chosen in a player's words ("Bid 6 and I pick Hodir", "bid 6 & I'll take Kalu'ak": rules: 003
# Factions, chosen on turn 1 with the bid; was refused: "unexpected 'and I pick Hodir'")
_CHOOSING = r"(?:(?:i|i'?ll|i'?d|i\s+will)\s+)?(?:take|choose|pick|want|like|prefer|play)"
_AND_ORDER = re.compile(JOIN + r"(?=(?:golden\s+|delayed\s+)?(?:" + "|".join(sorted({*SIMPLE_ORDERS, *ALIASES}))
                        + "|" + _FACTION_AHEAD + "|" + _CHOOSING + r")\b)", re.IGNORECASE)


# ... and, in a commitment, before the next "N from P" ("I commit 2 from P2 and 1 from P3", "2 from P6 + 1 from P7")
_AND_COMMIT = re.compile(JOIN + r"(?=(?:[0-9]+|" + "|".join(WORD_NUMBER) + r"|(?:all|everything)(?:\s+my)?)"
                         r"\s+(?:army\s+)?(?:units?\s+)?from\b)",
                         re.IGNORECASE)
# ... and, in a Send, before the next "N to <player>" ("Send 40 to Bob and 10 to Carol": SEND_LIST)
_AND_SEND = re.compile(JOIN + r"(?=\$?(?:[0-9][0-9,]*|" + "|".join(WORD_NUMBER) + r")\$?\s+"
                       r"(?:(?:\$?realms?|gold|\$)\s+)?to\b)", re.IGNORECASE)


# words after ",;." that start a new piece of the line: an order, or what dm_lines.chatter may leave out
# ("Hi GM, I bid 20, thanks"); not the fillers a remark may hold ("Fortify! P1. (just in case)")
_SEGMENT_STARTS = ORDER_WORDS | set(FILLERS) - {"a", "will", "gonna", "just", "new"} | CHOOSE_VERBS \
    | FACTION_FIRST_WORDS | {
    "hi", "hello", "hey", "thanks", "thank", "thx", "ty", "cheers", "regards", "bye", "gl", "glhf", "good", "sorry",
    "apologies", "no"}  # "... Good luck all!", "Rebid: 0, sorry", "Bid 5, no buys"
