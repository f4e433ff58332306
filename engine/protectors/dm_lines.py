"""One DM line as a player's Discord client sends it -> the text the notation reads, or why it is left out.

``unwrap`` takes off what Discord adds around an order: headings (``# Bid 25``), bullets and
numbered lists, ``>`` quotes, ``**bold**``/``_italic_``/``~~strike~~``/``||spoiler||``, inline code and
code-block fences, emoji, smart quotes and dashes, full-width and non-breaking characters. Markup never
hides an order: what is left is read like any other line.

``chatter`` says why a line that is not an order may be left out: a greeting (``Hi GM``), a sign-off
(``Thanks!``, ``-- Bob``), a header (``My orders for turn 3:``), a ``//`` comment, or nothing but
markup. Anything else that is not an order is refused by the reader (``dm_read``), never guessed.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection

from engine.protectors.notation_words import DISCORD_MENTION

# A question-mark emoji (❓, ❔) asks as '?' does: it was dropped with the other emoji, and "Bid 4 ❓" stored as Bid 4
# (rules: 003 Each Turn, "Once a DM is sent to the GM, your orders/choices are final"; assumption QUESTION_EMOJI)
QUESTION_EMOJI = "\u2753\u2754"
# Typographic characters a phone keyboard or Discord puts in -> their plain form.
# An arrow emoji or symbol (➡️, ⇨, ⮕, ⇒) is the arrow '→' a March! may write for 'to' (notation_grammar._TO_WORDS): it
# was dropped with the other emoji, "March 3 P5➡️P4" refused as "got 'P5P4'"
_ARROWS = {"\u27a1": "\u2192", "\u21e8": "\u2192", "\u2b95": "\u2192", "\u21d2": "\u2192"}
_PLAIN = str.maketrans({
    **dict.fromkeys(QUESTION_EMOJI, "?"),
    **_ARROWS,
    "‘": "'", "’": "'", "‚": "'", "‛": "'", "′": "'", "`": "`",
    "“": "", "”": "", "„": "", "‟": "", '"': "", "«": "", "»": "", "″": "",
    "‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "―": "-", "−": "-", "⁃": "-",
    "•": "-", "·": "-", "‣": "-", "◦": "-", "▪": "-", "●": "-",
    # another language's punctuation: Spanish opens a question with '¿' (it asks, as '?' does) and an exclamation with
    # '¡'; Chinese and Japanese lists use '、', and end a sentence with '。' (full-width ',' '?' are NFKC's)
    "\u00bf": "?", "\u00a1": "", "\u3001": ", ", "\u3002": ". ",
    "\u200b": "", "\u200c": "", "\u200d": "", "\u2060": "", "\ufeff": "", "\ufe0f": "", "\ufe0e": "",
})
# rules: none (input hygiene). A list's mark before an order is markup, as '1)' is: a letter ('x)' too, read before as a
# smiley, and '(b)') or a Roman numeral up to xxxix ('ix)', 'xii.', '(iv)': from ix on, and in brackets, they were
# refused as unknown orders). A smiley elsewhere on the line stays one ("Fortify P1 x)", "xD Work P2"). Assumption
# LIST_MARKS
_ROMAN = r"(?=[ivxIVX]{2})[xX]{0,3}(?:[iI][xX]|[iI][vV]|[vV]?[iI]{0,3})"
_PREFIX = re.compile(
    r"^(?:#{1,6}\s+"  # heading
    r"|-#\s+"  # Discord subtext
    r"|>{1,3}\s*"  # quote, block quote
    r"|[-*+]\s+(?:\[[ xX]\]\s+)?"  # bullet, task box
    r"|(?:-+>|=>|\u2192|\u27f6)\s+"  # an arrow as a bullet ("➡️ Fortify P1": _ARROWS makes it '→')
    r"|[0-9]{1,3}[.)]\s+"  # numbered list
    r"|\([0-9]{1,3}\)\s+"  # "(1) Fortify P1"
    # a list lettered or in Roman numerals: "b) Work P2", "(b) Work P2", "ii) Work P2", "(iv) ...", "ix) ...",
    # "xii. ..." (not "b. Work P2": "G. Fortify P1" could be Golden); a ticked box without a bullet, "[x] Fortify P1"
    # (LIST_MARKS)
    r"|\(?(?:[a-zA-Z]|" + _ROMAN + r")\)\s+|" + _ROMAN + r"\.\s+|\[[xX]\]\s+)"
)
_EMPHASIS = re.compile(r"\*+|~~|\|\||`+")
_NICK_MENTION = re.compile(r"<@!([0-9]+)>")  # Discord's older form of a member's mention: the same member as "<@123>"
_CUSTOM_EMOJI = re.compile(r"<a?:\w+:[0-9]+>")
_SHORTCODE = re.compile(r":[a-z][a-z0-9_+-]*:", re.IGNORECASE)
_EMOTICON = re.compile(r"(?<!\S)(?:[:;=][-'^]?[()DPpO/\\|\][]+|[xX][-']?[()DP]+|<3+|\^_*\^)(?!\S)")  # :) ;-) :D xD <3
_DASH_GAP = re.compile(r"\s+-+\s+")  # "Buy 2 in P6 - 1 in P5": a dash between orders separates them
# ... but not between two Provinces: "Fortify P1 - P3" could be P1 and P3 or P1 to P3 (notation_grammar._not_a_list
# refuses it)
_PROVINCE_BEFORE = re.compile(r"(?:\b[pP]\s?#?|#|\b(?:[pP]rov\.?|[pP]rovince)\s*#?)\s?[0-9]+$")
_PROVINCE_AFTER = re.compile(r"(?:[pP]\s?#?|#|(?:[pP]rov\.?|[pP]rovince)\s*#?)\s?[0-9]+\b")
_NEAR = 24  # characters a Province's name takes before a dash ("Province # 123")
_SPACES = re.compile(r"\s+")
_WORD = re.compile(r"[^\W_]+")  # letters and digits

FENCE = re.compile(r"^\s*```[A-Za-z0-9_+-]*\s*$")  # a code-block fence line, with its language tag


# rules: 003 Each Turn -- "Once a DM is sent to the GM, your orders/choices are final": a cross mark beside an order
# ("Fortify P1 ❌", "🚫 Fortify P1") or a box left unticked before it ("- [ ] Fortify P1" under "- [x] Work P2", a GM's
# list ticked) may say it is not chosen, as struck-out text may: refused, never read as if the mark were not there (it
# was dropped as an emoji or a list's box, and the order stored). Ticks (✅, ☑️, ✔, "[x]") still make no difference.
# Assumption NOT_MEANT_MARKS
CROSS_MARKS = "\u274c\u274e\u2717\u2718\u2716\u2612\u26d4\U0001F6AB"  # ❌ ❎ ✗ ✘ ✖ ☒ ⛔ 🚫
# "- [ ] ...", "[] ...", "☐ ...", and a radio button left empty: "( ) ...", "() ..." (were read as if not there)
_UNTICKED = re.compile(r"^\s*(?:(?:[-*+]|[0-9]{1,3}[.)])\s+)?(\[\s?\]|\(\s?\)|\u2610)")


def not_meant(line: str) -> str | None:
    """Why ``line`` (as written) holds a mark that may say its order is not meant: a cross mark, or a box left
    unticked before it; ``None`` without one."""
    cross = next((c for c in line if c in CROSS_MARKS), None)
    if cross is not None:
        return (f"'{cross}' beside an order could say it is not meant: send only the orders you mean, without the "
                "mark, and a note to the GM after //")
    box = _UNTICKED.match(line)
    if box is not None:
        return (f"'{box.group(1)}', a box left unticked, before an order could say it is not chosen: send only the "
                "orders you mean, without boxes")
    return None


def _no_symbols(text: str) -> str:
    """Without emoji and other pictographs (Unicode symbols ``So``)."""
    if text.isascii():
        return text
    return "".join(c for c in text if unicodedata.category(c) != "So")


def unwrap(line: str) -> str:
    """The words of one DM line without Discord markup, typographic characters or emoji."""
    text = (line if line.isascii() else unicodedata.normalize("NFKC", line)).translate(_PLAIN)
    text = _no_symbols(_EMOTICON.sub(" ", _SHORTCODE.sub(" ", _CUSTOM_EMOJI.sub(" ", text)))).strip()
    text = _NICK_MENTION.sub(r"<@\1>", text) if "<@!" in text else text  # "Hey <@!123>! ...": its '!' ends nothing
    while True:  # "> - **# Bid 25**" has several prefixes
        stripped = _EMPHASIS.sub("", text).strip() if text.startswith(("*", "`", "~", "|")) else text
        m = _PREFIX.match(stripped)
        if not m:
            break
        text = stripped[m.end():].strip()
    text = _EMPHASIS.sub("", text)
    return _SPACES.sub(" ", _DASH_GAP.sub(_dash_gap, text)).strip()


def _dash_gap(m: re.Match[str]) -> str:
    """A dash between orders is a ``,``; one between two Provinces stays (``Fortify P1 - P3``: a list, or a range?)
    unless both readings are one (``Fortify P1 - P2``)."""
    before = _PROVINCE_BEFORE.search(m.string[max(0, m.start() - _NEAR) : m.start()])
    after = _PROVINCE_AFTER.match(m.string, m.end())
    if before is None or after is None:
        return ", "
    ends = [int("".join(c for c in x.group() if c.isdigit())) for x in (before, after)]
    return ", " if abs(ends[0] - ends[1]) == 1 else " - "


def words(text: str) -> tuple[str, ...]:
    """Lower-case words without accents, for matching phrases."""
    if text.isascii():
        return tuple(_WORD.findall(text.replace("'", "").lower()))
    decomposed = unicodedata.normalize("NFKD", text.replace("'", "").replace("’", ""))
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).lower()
    return tuple(_WORD.findall(plain))


# -- lines that are not orders --------------------------------------------------------------------
# rules: none (input hygiene): a greeting, thanks or sign-off alone on its line is chat, not an order; rules: 003 Orders
# gives no order words but its own, so the words below never collide with one (assumption FOREIGN_CHAT for others').
_GREETING = {"hi", "hello", "good", "hey", "heya", "hiya", "howdy", "greetings", "yo", "dear", "ahoy", "hallo",
             "hej", "hola", "salut", "morning", "evening", "afternoon",
             # another language's (FOREIGN_CHAT): "Bonjour GM!", "Guten Morgen", "Buenos días", "Olá", "Привет"
             "bonjour", "bonsoir", "coucou", "buongiorno", "buonasera", "ola", "oi", "moin", "servus", "guten",
             "buenos", "buenas", "hoi", "privet", "привет", "здравствуйте"}
_GREETING_MORE = {"tag", "morgen", "abend", "dias", "tardes", "noches", "a", "tous", "todos", "tutti", "zusammen",
                  "gm", "there", "all", "everyone", "folks", "game", "master", "gamemaster", "mr", "mrs",
                  "sir", "again", "team", "good", "morning", "evening", "afternoon", "day", "mate", "boss",
                  "friend", "my", "lord", "o", "mighty", "its", "me", "here", "it", "is", "this"}
# another language's (FOREIGN_CHAT): "Merci beaucoup", "Muchas gracias", "Vielen Dank", "Liebe Grüße", "Спасибо"
_SIGN_OFF = {"merci", "gracias", "danke", "grazie", "obrigado", "obrigada", "bedankt", "tack", "dank", "vielen",
             "muchas", "spasibo", "спасибо", "arigato", "saludos", "grusse", "gruße", "gruss", "gruß", "tschuss",
             "bisous", "liebe", "viele",
             "thanks", "thank", "thx", "ty", "tyvm", "cheers", "regards", "best", "bye", "goodbye", "cya",
             "gl", "glhf", "gg", "ciao", "sincerely", "yours", "kind", "warm", "good", "have", "see",
             "later", "peace", "br", "kr", "love", "ok", "okay", "done", "thats", "that", "all"}
_SIGN_OFF_MORE = {"beaucoup", "mille", "schon", "sehr", "dank", "gracias", "tante", "muito", "bientot", "hasta",
                  "luego", "pronto", "besten", "cordiales", "grusse", "gruße", "abrazos",
                  "you", "so", "much", "a", "lot", "again", "gm", "all", "everyone", "regards", "wishes",
                  "luck", "hf", "fun", "see", "later", "soon", "in", "advance", "for", "everything", "best",
                  "warm", "kind", "mate", "and", "good", "truly", "faithfully", "have", "great", "day", "it",
                  "is", "thats", "from", "me", "folks", "the", "work", "running", "game", "this", "your",
                  "time", "very", "many", "bye", "now", "there", "guys", "ya", "u", "ty", "thx"}
# made of a sign-off's words, but saying something for the game: "All in" is read, never left out as a goodbye (where
# only a bid is asked it bids all the seat may, dm_phrases.ALL_IN; elsewhere it is refused with its reason)
_NOT_SIGN_OFFS = {("all", "in")}
_HEADER = {"here", "heres", "are", "is", "my", "our", "the", "these", "orders", "order", "choices", "choice",
           "purchases", "commitments", "commitment", "dm", "moves", "decision", "decisions", "for", "this", "turn",
           "round", "phase", "step", "consolidation", "dragon", "attack", "negotiation", "and", "of", "new",
           "next", "final", "in", "secret", "protector", "ranking", "fight", "vs", "against", "s", "bids",
           "bidding", "buying", "faction", "instructions", "gm", "to", "from", "please", "find",
           "below", "following", "first", "hi", "hello", "hey", "stuff"}
_HEADER_NOUNS = {"orders", "order", "choices", "choice", "commitments", "commitment", "dm", "moves", "decision",
                 "decisions", "consolidation", "bids", "bidding", "instructions", "turn", "round", "negotiation",
                 "buying", "dragon", "purchases", "stuff"}
# a whole line players write around their orders that says nothing for the game ("Here you go:", "GM:")
_SIGNATURE_MARKS = ("--", "- -", "—", "~")  # what a signature line starts with: "-- Carol", "~ Bob"
_ASIDES = {("here", "you", "go"), ("here", "you", "are"), ("here", "it", "is"), ("here", "they", "are"),
           ("as", "discussed"), ("as", "promised"), ("as", "agreed"), ("as", "planned"), ("gm",), ("to", "the", "gm"),
           ("for", "the", "gm"), ("ok", "here", "goes"), ("here", "goes")}
HEADER = "a header"  # chatter's word for "My orders for turn 3:" (dm_read checks the turn it names)
_APOLOGY = {"sorry", "apologies", "apologise", "apologize"}
# What an apology left out may say, and nothing else: the lateness or the DM itself ("Sorry for the delay!", "Sorry I
# missed the orders", "sorry team"). "Sorry, wrong DM", "Sorry, ignore that" or "sorry, not ready yet" take the orders
# back, so they are refused, never left out (the DM would else be stored as the player's choice)
_APOLOGY_WORDS = {"for", "the", "my", "our", "this", "that", "it", "its", "is", "so", "very", "much", "really", "again",
                  "a", "bit", "little", "about", "being", "i", "im", "we", "were", "was", "am", "are", "delay",
                  "delays", "delayed", "late", "lateness", "tardiness", "slow", "reply", "response", "answer",
                  "took", "long", "missed", "orders", "order", "deadline", "team", "everyone", "all", "guys", "folks",
                  "gm", "busy", "week", "weekend", "today", "in", "advance", "hassle", "trouble", "inconvenience",
                  "rush", "rushed", "short", "notice", "to", "of", "you", "keep", "keeping", "waiting", "getting",
                  "back", "finally", "here", "at", "last", "minute", "dm", "message", "theyre", "they", "these"}
# Words that may take an order back or make it depend on something ("Hello, never mind", "(jk)", "(if allowed)",
# "(unless Bob attacks)", "(not final)"): never left out as a greeted name, an apology or a remark in brackets beside
# an order, so the line is refused with its reason instead of the order being stored as if they were not there
TURN_AROUND = frozenset({
    "not", "no", "dont", "never", "cancel", "ignore", "scrap", "scratch", "undo", "instead", "except", "only", "but",
    "or", "and", "also", "plus", "then", "nope", "nah", "nay", "nor", "neither", "without", "wont", "cant", "cannot",
    "isnt", "arent", "wasnt", "didnt", "doesnt", "shouldnt", "wouldnt", "couldnt", "aint", "jk", "kidding", "joke",
    "joking", "nvm", "nevermind", "mind", "disregard", "delete", "deleted", "remove", "removed", "retract",
    "retracted", "withdraw", "withdrawn", "cancelled", "canceled", "revoke", "revoked", "strike", "void", "ignored",
    "skip", "forget", "drop", "wrong", "mistake", "mistaken", "error", "typo", "oops", "whoops", "sarcasm", "s", "/s",
    "wait", "hold", "draft", "tbd", "tentative", "tentatively", "placeholder", "test", "testing", "unsure",
    "uncertain", "confirm", "pending", "old", "previous", "earlier", "above", "outdated", "replace", "replaced",
    "change", "changed", "update", "updated", "edit", "edited", "correction", "corrected", "actually", "meant",
    "mean", "rather", "else", "otherwise", "alternatively", "either", "whichever", "if", "unless", "when",
    "whenever", "until", "depending", "depends", "provided", "assuming", "should", "would", "could", "might", "may",
    "maybe", "perhaps", "possibly", "probably", "last"})
# a mail program's signature line: "Sent from my iPhone", "Get Outlook for Android"
_SENT_FROM = {("sent", "from", "my"), ("get", "outlook", "for"), ("sent", "from", "outlook")}
MAX_SENT_FROM_WORDS = 8  # "Sent from my Samsung Galaxy smartphone"
MAX_APOLOGY_WORDS = 8  # "Sorry for the delay!", "Apologies for the late orders"
MAX_NAME_WORDS = 2  # "Hi Alex", "Hello Mr Smith": the words of a name after a greeting that Regent need not know
_AFTER_NUMBER = {"turn", "round"}  # "Orders for turn 3"
# A header's number comes before its ':' ("Orders for turn 3:"); one after it is what the line says ("My bid for
# this turn: 20" is a bid, never a header to leave out)
_NUMBER_AFTER_COLON = re.compile(r":.*[0-9]")


def chatter(line: str, names: Collection[str] = (), reserved: Collection[str] | None = None) -> str | None:
    """Why ``line`` (as written) is left out of the decision, or ``None`` when it must be read as orders.

    ``names`` are the players' names as ``words`` gives them (seats, display names): ``Thanks, Bob``.
    With ``reserved`` (the words orders are made of), a greeting may name someone Regent does not know,
    the GM say: ``Hi Alex``, ``Hello Mr Smith`` (at most ``MAX_NAME_WORDS`` words of letters, none reserved).
    """
    stripped = line.strip()
    if not stripped:
        return "blank line"
    if stripped.startswith("//"):
        return "a note after //"
    if FENCE.match(stripped):
        return "markdown only (a code-block fence)"
    text = greeted_mentions(unwrap(stripped))
    w = words(text)
    if not w:
        return "markdown or punctuation only"
    # "-- Carol", "~ Bob"; never "-- draft", "—not final" or "~ jk": a word that takes the DM back is no name
    if (stripped.startswith(_SIGNATURE_MARKS) and len(w) <= 3 and not any(x.isdigit() for x in w)
            and not any(x in TURN_AROUND for x in w)):
        return "a signature"
    if w[:3] in _SENT_FROM and len(w) <= MAX_SENT_FROM_WORDS:
        return "a signature"
    rest = _without_names(_greeted_together(w, names, reserved), names)
    if rest and rest[0] in _GREETING and all(x in _GREETING_MORE or x in _GREETING for x in rest[1:]):
        return "a greeting"
    if (reserved is not None and rest and rest[0] in _GREETING and 1 < len(rest) <= 1 + MAX_NAME_WORDS
            and all(x.isalpha() and x not in reserved and x not in TURN_AROUND for x in rest[1:])):
        return "a greeting"
    if (rest and rest[0] in _SIGN_OFF and all(x in _SIGN_OFF_MORE or x in _SIGN_OFF for x in rest[1:])
            and tuple(rest[:2]) not in _NOT_SIGN_OFFS):
        return "a sign-off"
    if rest in _ASIDES:
        return "an aside"
    # "Sorry for the delay!": only the words an apology for lateness is made of ("Sorry for the late orders";
    # "Sorry, I forgot my bid", "sorry, bid 20" and "Sorry, wrong DM" stay)
    if (reserved is not None and rest and rest[0] in _APOLOGY and len(rest) <= MAX_APOLOGY_WORDS
            and all(x in _APOLOGY_WORDS or x in _APOLOGY for x in rest[1:])):
        return "an apology"
    if not rest and len(w) <= 3:
        return "a signature"
    if _is_header(rest) and not _NUMBER_AFTER_COLON.search(text):
        return HEADER
    if rest and rest[0] in _GREETING and _greeted_header(rest) and not _NUMBER_AFTER_COLON.search(text):
        return HEADER  # "Hello there GM, here are my orders:"
    return None


# rules: none (input hygiene). A Discord mention the bot left as written names no player of this game (the GM, the bot:
# DISCORD_MENTION), so after a greeting's or thank-you's first word it is the greeted one's name, as 'Alex' is in 'Hi
# Alex': 'Hi <@123>, Fortify P1' was refused as "unknown order 'Hi'". A mention anywhere else stays as written (and is
# refused, named: '<@123> Fortify P27')
def greeted_mentions(text: str) -> str:
    """``text`` (unwrapped) without the Discord mentions in it when its first word is a greeting's or a thank-you's
    (``Hi <@123>,`` -> ``Hi ,``), else ``text`` itself."""
    m = DISCORD_MENTION.search(text)
    if m is None:
        return text
    first = words(text[: m.start()])[:1]
    if not first or (first[0] not in _GREETING and first[0] not in _SIGN_OFF):
        return text
    return DISCORD_MENTION.sub(" ", text)


# rules: none (input hygiene). 'and' may turn an order around (TURN_AROUND), so it was never a greeting's word: "Hi
# Bruno and GM, Fortify P3" was refused as "unknown order 'Hi'" where "Hello GM & Bruno!" was left out. Between two
# greeted ones (a player's name, 'gm', 'all', 'team', a name of letters Regent need not know) it joins them; the
# greeting is then one as any other (and in a team game, naming a team-mate before an order, refused:
# dm_team.addressed_mate)
def _greeted_together(w: tuple[str, ...], names: Collection[str], reserved: Collection[str] | None) -> tuple[str, ...]:
    """``w`` (a line's words) without an 'and' joining two greeted ones when its first word is a greeting's."""
    if not w or w[0] not in _GREETING or "and" not in w[1:]:
        return w
    named = {x for n in names for x in n.split()}

    def greeted(x: str) -> bool:
        return (x in _GREETING_MORE or x in named
                or (reserved is not None and x.isalpha() and x not in reserved and x not in TURN_AROUND))

    return tuple(x for i, x in enumerate(w) if x != "and" or not (
        1 < i < len(w) - 1 and greeted(w[i - 1]) and greeted(w[i + 1])))


def _greeted_header(w: tuple[str, ...]) -> bool:
    """``w`` (its first word a greeting's) is a greeting's words, then a header: ``hello there gm here are my
    orders``. A header with an order in it is no header (``_is_header``), so nothing is left out that says more."""
    for k in range(1, len(w)):
        if _is_header(w[k:]):
            return True
        if w[k] not in _GREETING_MORE and w[k] not in _GREETING:
            return False
    return False


# the first words of a message to the GM that are never an order's ("Hi GM, taking my seat back"): a line that
# starts so but is not left out (it says more than a greeting or a thank-you) is refused as no order
_CHAT_STARTS = {**dict.fromkeys(_GREETING, "a greeting"), **dict.fromkeys(_APOLOGY, "an apology"),
                **dict.fromkeys(("thanks", "thank", "thx", "ty", "tyvm", "cheers", "regards", "bye", "goodbye",
                                 "cya", "gl", "glhf", "gg", "ciao", "merci", "gracias", "danke", "grazie", "obrigado",
                                 "obrigada", "spasibo", "спасибо"), "a thank-you or sign-off")}


# "P.S. good luck everyone", "PS:", "p.p.s.": a postscript, which may say anything (an order, a condition); said as one
# in the refusal (it was "unknown order 'P.S.'"), never left out
_POSTSCRIPT = re.compile(r"p\.?\s?(?:p\.?\s?)?s(?:\.|:|\b)", re.IGNORECASE)
POSTSCRIPT = "a postscript (P.S.)"


def chat_start(text: str) -> str | None:
    """What ``text`` (one DM line) starts like when its first word is a greeting's, an apology's or a thank-you's
    ("a greeting" for ``Hi GM, taking my seat back``), or a postscript ("P.S."), else ``None``. Only for the wording
    of a refusal: such a line is still read as orders, and refused when it is none."""
    if text.strip().startswith(_SIGNATURE_MARKS):  # "-- draft": no signature, it may take the DM back
        return "a signature"
    plain = unwrap(text)
    if _POSTSCRIPT.match(plain):
        return POSTSCRIPT
    w = words(plain)
    return _CHAT_STARTS.get(w[0]) if w else None


def _without_names(w: tuple[str, ...], names: Collection[str]) -> tuple[str, ...]:
    """``w`` without player names (each name is a space-joined word sequence) and seat words."""
    out: list[str] = []
    spans = sorted((tuple(n.split()) for n in names if n), key=len, reverse=True)
    i = 0
    while i < len(w):
        for span in spans:
            if span and w[i : i + len(span)] == span:
                i += len(span)
                break
        else:
            if not (w[i] == "player" and i + 1 < len(w) and w[i + 1].isdigit()):
                out.append(w[i])
                i += 1
                continue
            i += 2
    return tuple(out)


def _is_header(w: tuple[str, ...]) -> bool:
    """``My orders:``, ``Orders for turn 3``, ``Consolidation``, ``Here is my bid``: no order in it."""
    if not w or (not any(x in _HEADER_NOUNS for x in w) and not _is_bid_header(w)):
        return False
    for i, x in enumerate(w):
        if x.isdigit():
            if i == 0 or w[i - 1] not in _AFTER_NUMBER:
                return False
        elif x not in _HEADER and not (x in BID_WORDS and _is_bid_header(w)):
            return False
    return (w != ("turn",) and w[0] != "turn") or (len(w) > 1 and w[1].isdigit())


BID_WORDS = frozenset({"bid", "bids", "rebid"})  # what a header naming the bid calls it (dm_read too)


def _is_bid_header(w: tuple[str, ...]) -> bool:
    """``my bid`` / ``the bid`` / ``here is my bid`` / ``turn 5 bid`` (``rebid`` too: ``Turn 1 rebid:``): "bid" after
    a possessive or a turn's number, with no other number."""
    return any(x in BID_WORDS and i > 0 and (w[i - 1] in ("my", "our", "the", "new")
                                                   or (i > 1 and w[i - 1].isdigit() and w[i - 2] in _AFTER_NUMBER))
               for i, x in enumerate(w))
