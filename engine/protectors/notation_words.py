"""The words of the GM's DM notation (``notation``): how a line is cut into words and normalised (``norm_words``,
``clean``), numbers (in digits and in words), Provinces and seats, the limits on what an error quotes, ``ALL``, and the
word tables the grammar, the splitting of a line and the remarks share (order words and their aliases, fillers,
$Realm words, ``JOIN``, ``HEAD_ITEMS``)."""

from __future__ import annotations

import re
import unicodedata

from engine.protectors.factions import FACTIONS
from engine.protectors.orders import (
    ABILITY_TEXT,
    SANCTUM_ABILITIES,
    Bid,
    Burn,
    Buy,
    Capitol,
    ChooseFaction,
    Commit,
    Ferry,
    Fortify,
    March,
    Send,
    Snitch,
    Support,
    Upgrade,
    Work,
)

# A Discord mention as Discord writes it in a message's text (a member "<@123>", "<@!123>", a role "<@&123>", a channel
# "<#123>"): the bot makes a seat holder's the seat before the engine reads the DM (service/discord/dms.py), so one left
# here names no seat of this game Regent knows (the GM, the bot, a player of another game), and is never guessed into
# one. The refusal says what it is (it said "unknown order '<@123>'", or "'<@123>' is not a player").
DISCORD_MENTION = re.compile(r"<(?:@[!&]?|#)[0-9]+>")
MENTION = "a Discord mention Regent cannot match to a player of this game"
TOKEN = re.compile(r"\d+(?:[.,]\d+)+|[^\s.,;:!?()\[\]]+")
NUMBER = re.compile(r"\$?-?[0-9]+(?:[.,][0-9]+)*\$?")
# a count spelled out where an order takes a number ("buy two units in P19"); larger ones go in digits
WORD_NUMBER = {w: n for n, w in enumerate(("zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
                                           "nine", "ten", "eleven", "twelve"))}
NUMBER_WORDS = tuple(WORD_NUMBER)  # the numbers a DM may write in words, zero to twelve
# "fifteen", "twenty", "twentyfive", "a hundred": numbers past WORD_NUMBER, said to go in digits
LARGER_NUMBER_WORD = re.compile(r"(?:thir|four|fif|six|seven|eigh|nine)teen"
                                r"|(?:twen|thir|for|fif|six|seven|eigh|nine)ty[a-z]*|hundred|thousand")
# "P3", "P#3", and "#3" where a Province is asked for ("Fortify #3", "2 from #6"): every Province is P<n>
# (board.PROVINCE_RE), and a player is never named so (Player#3); a number alone is never a Province
PROVINCE = re.compile(r"(?:p#?|#)([0-9]+)")
SEAT = re.compile(r"player#([0-9]+)")
DIGITS = re.compile(r"[0-9]+")
# "1,000": a comma between groups of three digits. A ',' between orders is followed by a space
# (notation_split.segments_of), so a grouped number never clashes with one; in funding brackets it does
# (notation_grammar.parse_funding).
GROUPED = re.compile(r"-?[1-9][0-9]{0,2}(?:,[0-9]{3})+")
COMMA_NUMBER = re.compile(r"[0-9],[0-9]{3}")
SEPARATED = re.compile(r"-?[0-9]+(?:[.,][0-9]{3})+")  # "1.000": a thousands separator, not a decimal point
TRAILING_PAREN = re.compile(r"\(([^()]*)\)[\s.,;!]*$")
_PROVINCE_WORD = re.compile(r"\b(?:province|prov\.?)\s*#?\s*(?=\d)", re.IGNORECASE)  # "Province 3", "Prov. 3"
# "Province three", "prov six": a Province's number in words, one to twelve, as a count may be written (assumption
# DM_PLAYERS_WORDS); was refused as "'province' is not a province like P3". Never "P three" nor a number alone.
_PROVINCE_IN_WORDS = re.compile(r"\b(?:province|prov\.?)\s*#?\s*(" + "|".join(NUMBER_WORDS[1:]) + r")\b",
                                re.IGNORECASE)
_PLAYER_WORD = re.compile(r"\bplayer\s*#?\s*(?=\d)", re.IGNORECASE)  # "Player#2", "player # 2", "Player 2"
# "P 33": a lone P, a space and a Province's number, is the Province (rules: 003 "Province#1 (P1)"), written as one word
# so a list of them reads as a list of Provinces ("Fortify P 33 and P 34", "Burn P 30, P 28" were refused as
# "unexpected 'and P 34'"). Never when more digits follow ("P 1 2": P1 or P12? WordCursor.province refuses it)
_SPACED_PROVINCE = re.compile(r"(?<![^\s,&+(])([pP])[ \t]+([0-9]+)(?![0-9]|\s+[0-9])")
# an arrow written against its provinces ("P1->P2", "P1 >P2") is a word of its own, as with spaces
_TIGHT_ARROW = re.compile(r"(?<=\d)\s*(-->|->|=>|>|→|⟶|➡)\s*(?=p\s*#?\s*\d)", re.IGNORECASE)

EXPECTED_ORDERS = (
    "March!, Delayed March!, Support!, Fortify!, Work, work! (each may be Golden), Bid, Buy, Upgrade, "
    "Capitol, Send, Snitch, Ferry, Burn, Faction, a Dragon commitment like '2 from P6 (sac 2)', "
    "or an ability like 'Fight fire with fire: 5'"
)
# What each waiting step takes (an error lists only these; ``None``: no step known, everything).
EXPECTED_BY_STEP: dict[str | None, str] = {
    None: EXPECTED_ORDERS,
    "bid": "Bid 20 (in turn 1 with factions also Faction Hodir), or none",
    "rebid": "Bid 20, or none",
    "bank_bid": "Bid 20, or none",
    "orders": "March! 2 from P1 to P2, Delayed March!, Support! Player#2 in P2, Fortify! P1, Work, work! P1 "
    "(each may be Golden), Send 40 to Player#2, Snitch Player#2, Ferry P1, an ability, or none",
    "dragon": "a commitment like '2 from P6 (sac 2)' or 'commit 2 from P6', Turn off the lights, Burn P3, "
    "or an ability like 'Fight fire with fire: 5'",
    "consolidation": "'Buy 2 in P6. 1 in P5.', Bid 17, Upgrade P3, Capitol P3, an ability like "
    "'Faith alone sustains us!', or none",
}
# rules: none (input hygiene) -- the largest number a DM may hold. No count, bid or amount in a game comes
# near it ($Realm holdings are in the thousands); a longer number is refused before it is converted.
MAX_DM_NUMBER = 1_000_000
MAX_DIGITS = len(str(MAX_DM_NUMBER))
MAX_ECHO = 60  # characters of a player's word quoted back in an error
MAX_REASON = 400  # characters of an error's reason
MAX_LINE_ECHO = 200  # characters of the offending DM line an error names

MAX_NAMES_SHOWN = 16
"""an unknown player name's error lists at most this many of the names (display names and colours)"""

# rules: 003 March! ("The specified number of Army Unit(s) ... must march"), Determine Protector US step (how many
# units "they want to commit"), Each Turn (the bid is "the amount of $Realm they wish to spend"): every order names a
# number. "March! all from P1 to P7", "all from P6", "Bid all" name one only the game's state gives: the seat's Army
# Units in that Province, or the $Realm it may bid. The reader has no state, so it reads "all" as ``ALL`` and
# ``dm_submit.settle`` turns it into that number, or refuses the line (assumption DM_ALL). ``ALL`` is no number a DM
# can write (numbers are never negative), and legality refuses it anywhere (a March! moves at least 1 unit, a
# commitment commits at least 1, a bid is at least 0), so it is never stored as a count.
ALL = -1
ALL_UNITS = ("all", "everything")  # "March! all from P1 to P7", "Move everything from P1 to P7", "all from P6"
COUNT_WORDS = frozenset(WORD_NUMBER) | frozenset(ALL_UNITS)  # a count in words after "commit"
MAX_TURN_DIGITS = 3  # "turn 3" in a header or "my bid for turn 3 is 10"; a longer number is no turn


def norm_word(word: str) -> str:
    """Lower-case without accents or apostrophes: "Kalu’Ak" -> "kaluak", "Palantír" -> "palantir"."""
    if word.isascii():  # the common case, without Unicode decomposition
        return word.replace("'", "").replace("`", "").lower()
    decomposed = unicodedata.normalize("NFKD", word)
    return "".join(c for c in decomposed if not unicodedata.combining(c) and c not in "'’`").lower()


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, with ``…`` where it was cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def echo(text: str) -> str:
    """``repr`` of a player's word, clipped to ``MAX_ECHO`` characters (errors stay short)."""
    return repr(text if len(text) <= MAX_ECHO else text[: MAX_ECHO - 1] + "…")


def norm_words(text: str) -> tuple[str, ...]:
    return tuple(norm_word(t) for t in TOKEN.findall(text.replace("_", " ")))


def clean(line: str) -> str:
    """Drop Discord markup and spell ``Province 4`` / ``player # 2`` as ``P4`` / ``Player#2``."""
    text = re.sub(r"[*`~]", "", line).replace("_", " ")
    text = _PROVINCE_IN_WORDS.sub(lambda m: f"P{WORD_NUMBER[m.group(1).lower()]}", text)
    text = _SPACED_PROVINCE.sub(r"\1\2", _PROVINCE_WORD.sub("P", text))
    return _TIGHT_ARROW.sub(r" \1 ", _PLAYER_WORD.sub("Player#", text))


# ability key -> accepted spellings (as word tuples); longest spellings are tried first
_ABILITY_ALIASES: dict[str, set[tuple[str, ...]]] = {
    name: {norm_words(text), norm_words(name)} for name, text in ABILITY_TEXT.items()
}
_ABILITY_ALIASES["bank_of_lannuvar"].add(norm_words("Bank of Lannuvár"))
_ABILITY_ALIASES["mountain_king_offer"].add(norm_words("Mountain King's protection"))
ABILITY_MATCHES = sorted(
    ((alias, name) for name, aliases in _ABILITY_ALIASES.items() for alias in aliases),
    key=lambda pair: -len(pair[0]),
)
SANCTUM_ALIASES = {
    alias: key for key, text in SANCTUM_ABILITIES.items() for alias in (norm_words(text), norm_words(key))
}


# rules: 003 Orders -- "One order can be given per Province that contains at least one Army Unit": "Fortify P1, P2",
# "Work P1 and P2", "Work, work! P1, P2 & P3" give the order of one Province to each Province of a list, read as one
# order each ("Fortify! P1", "Fortify! P2"). Only a Fortify! or Work, work!, which names its Province and nothing else
# ("March! 2 from P1 to P2 and P3" stays refused); a Golden one over a list, or a list naming a Province twice, is
# refused, saying why (notation_grammar._not_a_list; assumption DM_PROVINCE_LIST)
LIST_TOKEN = re.compile(r"[,&+]|[^\s,&+]+")
LIST_SEPARATORS = frozenset({",", "and", "&", "+"})
ELLIPSIS = re.compile(r"\.\.+[\s,;.!]*$")  # "Fortify P1, P2, ...": a list that may go on


def province_name(word: str) -> str | None:
    """``P3`` for a word naming a Province like ``P3``, ``p#3`` or ``#3`` (case aside), else ``None``."""
    m = PROVINCE.fullmatch(word.lower())
    if m is None or len(m.group(1).lstrip("0")) > MAX_DIGITS:
        return None
    return f"P{int(m.group(1).lstrip('0') or '0')}"


def is_count(words: tuple[str, ...], i: int) -> bool:
    """Whether ``words[i]`` is a count: digits, or a number word a commitment's word follows (``two from P6``,
    ``one unit``; "two" alone may be a name's), or 'all' so followed (``all from P6``, ``all my units from P6``)."""
    if NUMBER.fullmatch(words[i]):
        return True
    after = words[i + 1 : i + 2]
    return (words[i] in WORD_NUMBER and after in _COUNTED) or (words[i] in ALL_UNITS and after in _ALL_COUNTED)


# the words players use for an order beside the rulebook's: "Move 2 from P1 to P2", "rebid 12", "Purchase 1 in P6"
ALIASES = {"move": "march", "rebid": "bid", "purchase": "buy", "bidding": "bid",  # "I'm bidding 5"
           "buying": "buy",  # "Buying 2 units in P6"
           "re-bid": "bid", "rebidding": "bid", "moving": "march", "marching": "march", "supporting": "support",
           "fortifying": "fortify", "sending": "send", "snitching": "snitch",  # "I'm snitching on Bob"
           "work-work": "work"}  # "Work-work P28": the rulebook's Work, work! with a hyphen (was "unknown order")
# "buy 1 unit in P6 and bid 5": 'and' before an order's own word (never before a number: "Buy 2 in P6 and 1 in P5"
# is one purchase, "(30 from Bob and 10 from Player#4)" one pooling) starts a new order; so do 'then', 'and then',
# '&' and '+' ("March! 2 from P1 to P7, then Fortify! P2", "Fortify P1 & Work P2"): the orders of a DM are given
# together (rules: 003 Each Turn, one DM of orders), so 'then' orders nothing after anything. Before anything else
# ("Fortify P1 then P2", "Bid 10 then 12") they stay where they are, and the order is refused
JOIN = r"\s+(?:and\s+then|and|then|[&+])\s+"
# ... but never 'then' before a March!: the rules' Delayed March! moves after the others, so "Fortify P2 then March! 2
# from P1 to P7" could mean one; it is refused, saying to write Delayed March! or the March! on its own line
THEN_MARCH = re.compile(r"(?:and\s+)?then\s+(?:golden\s+)?(?:march|move|moving|marching)\b", re.IGNORECASE)
COMMIT_WORDS = ("commit", "commits", "committing")
# the words this game's orders start with: one met where an order's next part was expected starts another order
# ("buy 2 in P6 bid 5"), and the refusal says so (WordCursor.got)
ORDER_HEADS = frozenset({"march", "support", "fortify", "work", "bid", "buy", "upgrade", "capitol", "burn", "send",
                         "snitch", "ferry", "commit"})
_COUNTED = (("from",), ("unit",), ("units",), ("army",))  # after a spelled count, a commitment's next word
_ALL_COUNTED = (*_COUNTED, ("my",))  # ... and after 'all' ("all my units from P6")
# the first word of an order -> the kind of order it starts (an error names the step that takes it)
HEAD_ITEMS: dict[str, type] = {
    "march": March, "golden": March, "delayed": March, "support": Support, "fortify": Fortify, "work": Work,
    "bid": Bid, "buy": Buy, "upgrade": Upgrade, "capitol": Capitol, "capital": Capitol, "burn": Burn,
    "send": Send, "snitch": Snitch, "ferry": Ferry, "faction": ChooseFaction,
    "commit": Commit, "commits": Commit, "committing": Commit,  # COMMIT_WORDS
}
HEAD_ITEMS.update({alias: HEAD_ITEMS[word] for alias, word in ALIASES.items()})


def head_item(segment: str) -> type | None:
    """The kind of order ``segment`` (from ``split_orders``) starts with, if its first word says."""
    w = norm_words(segment)
    if not w:
        return None
    return Commit if NUMBER.fullmatch(w[0]) else HEAD_ITEMS.get(w[0])


# the word after an amount that names its money: $Realm, also "gold" (rules: 003 has no money but $Realm; "Golden" names
# orders, never an amount, so "Bid 10 gold" can only be 10 $Realm)
REALM_WORDS = ("realm", "$realm", "$", "realms", "gold")
# "ok so I'm bidding 5", "I will bid 10", "I'm gonna bid 10", "just bid 10", "my new bid is 5": skipped only before an
# order's word or another of these ("I will not bid" stays refused)
FILLERS = ("my", "i", "ill", "id", "im", "am", "please", "a", "ok", "okay", "so", "will", "gonna", "just", "new")
# turn 1 with factions, the choice in a player's words: "I'll take Kalu'ak", "I'd like Cenarion as my faction", or
# the name alone after the bid ("Bid 9, Hodir"; "I bid 0. Iron Light please"). Only a faction's name may follow
# such a verb, and after the name only "as my faction".
CHOOSE_VERBS = frozenset({"take", "choose", "pick", "want", "like", "prefer", "play"})  # "I want to play Hodir"
FACTION_FIRST_WORDS = frozenset(norm_words(f)[0] for f in FACTIONS)
