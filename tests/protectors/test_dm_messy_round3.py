"""A third round of DMs as players type them on Discord and by e-mail in 7-16 seat games with the options on (factions,
the Island, teams, the Grand board), for every step a DM answers: the turn-1 bid and faction, the re-bid, the Bank of
Lannuvár's late bid, the orders with every order kind (faction abilities and the Island's among them), Dragon
commitments, the Consolidation, team funding and Sends.

Each case goes through ``Game.submit_dm`` for Player#1 (Alice), as ``regent adjudicate`` and the service's DM path do,
and says what must be stored (the canonical lines) or why it must be refused ("!fragment" of the reason). The games of
the first round (``test_dm_messy_round``) are reused; the factions' games here give Alice each faction.
"""

from __future__ import annotations

import pytest

from engine.errors import RegentError
from engine.protectors.game import Game
from tests.protectors.helpers import dragon_attack, position
from tests.protectors.test_dm_messy_round import GAMES as ROUND1
from tests.protectors.test_dm_messy_round import NAMES, SEATS, _check, _named, _store_in

OTHERS = ["Hodir", "Cenarion", "Iron Light", "Lannuvár", "Kalu'Ak"] * 3


def orders14(faction: str, cards: tuple[str, ...] = ()) -> Game:
    """Turn 6 of a 14-seat Grand game with factions, Alice playing ``faction``: P1 3 units, P2 2, P5 3, P28 1; Bob P3,
    Carol P4, each other player one Province; 60 $Realm each."""
    provs = {"P1": ("Player#1", 3), "P2": ("Player#1", 2), "P28": ("Player#1", 1), "P5": ("Player#1", 3)}
    free = [f"P{k}" for k in (3, 4, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 26)]
    for seat, prov in zip(SEATS[1:14], free, strict=True):
        provs[prov] = (seat, 2)
    g = position(
        "ring-14-grand",
        14,
        provs,
        turn=6,
        ranking=SEATS[:14],
        realm=dict.fromkeys(SEATS[:14], 60),
        options={"factions": True},
        factions=dict(zip(SEATS[:14], [faction, *OTHERS], strict=False)),
        cards=cards,
    )
    return _named(g, NAMES)


def dragon12(faction: str, realm: int = 200) -> Game:
    """A Dragon attack at turn 7 of a 12-seat game with factions, Alice playing ``faction`` with ``realm`` $Realm: P5 1
    unit, P6 3, P7 2."""
    provs = {"P5": ("Player#1", 1), "P6": ("Player#1", 3), "P7": ("Player#1", 2)}
    for i in range(2, 10):
        provs[f"P{(i + 6) % 12 + 1}"] = (f"Player#{i}", 2)
    g = position(
        "ring-12",
        12,
        provs,
        turn=7,
        realm={**dict.fromkeys(SEATS[:12], 20), "Player#1": realm},
        options={"factions": True},
        factions=dict(zip(SEATS[:12], [faction, *OTHERS], strict=False)),
    )
    return dragon_attack(_named(g, NAMES), 3)


def cons12(faction: str, island: bool = False) -> Game:
    """Turn 6's Consolidation in a 12-seat game with factions, Alice playing ``faction``: P5 2 units, P6 1, P7 3 (and
    the Island P0, 1 unit, with ``island``), 200 $Realm."""
    provs = {"P5": ("Player#1", 2), "P6": ("Player#1", 1), "P7": ("Player#1", 3)}
    if island:
        provs["P0"] = ("Player#1", 1)
    for i in range(2, 13):
        provs.setdefault(f"P{(i + 7) % 12 + 1}", (f"Player#{i}", 1))
    g = position(
        "ring-12+island" if island else "ring-12",
        12,
        provs,
        turn=6,
        phase="consolidation",
        realm={**dict.fromkeys(SEATS[:12], 30), "Player#1": 200},
        options={"factions": True},
        factions=dict(zip(SEATS[:12], [faction, *OTHERS], strict=False)),
    )
    return _named(g, NAMES)


GAMES = {
    **ROUND1,
    "kal14": lambda: orders14("Kalu'Ak"),
    "iron_cons": lambda: cons12("Iron Light"),
    "lan_cons": lambda: cons12("Lannuvár"),
    "isl_cons": lambda: cons12("Hodir", island=True),
    "cen_dragon": lambda: dragon12("Cenarion"),
    "kal_dragon": lambda: dragon12("Kalu'Ak"),
    "lan_dragon": lambda: dragon12("Lannuvár"),
}
F4 = ["Fortify! P1", "Fortify! P2", "Fortify! P5", "Fortify! P28"]  # Alice's four Provinces in orders14, fortified
FORT = "Fortify P1, P2, P5, P28\n"

# rules: 003 Each Turn -- "Once a DM is sent to the GM, your orders/choices are final": about a number is none
# (assumption TENTATIVE_NUMBER)
TENTATIVE = [
    ("t1_12", "bid 4 ~ish", "!'4 ~ish' says about a number"),  # was "unexpected 'ish'"
    ("rebid10", "rebid 5 ~ish", "!'5 ~ish' says about a number"),
    ("bank12", "bid 4 ~ish", "!write the exact number"),
    ("cons12", "Buy 2 in P6\nBid 5 ~ish", "!'5 ~ish' says about a number"),
    ("dragon12", "commit 3 from P6 ~ish", "!'~ish' says about a number"),
    ("t1_16t", "Bid 10 (5 from Bob) ~ish", "!'~ish' says about a number"),  # was "unexpected '5 from Bob ish'"
    ("cons16t", "Buy 1\nBid 5 (10 from Bob) ~ish", "!'~ish' says about a number"),
    ("t1_12", "Bid 4~", "!'4~' says about a number"),  # was stored as Bid 4
    ("t1_12", "Bid 4 ~", "!'4 ~' says about a number"),  # was stored as Bid 4
    ("t1_12", "Bid 4~ish\nHodir", "!says about a number"),
    # already refused so, kept as regression cases
    ("t1_12", "Bid 4-ish", "!'4-ish' says about a number"),
    ("t1_12", "bid 4 ish", "!'4 ish' says about a number"),
    ("t1_12", "bid ~4ish", "!'~4' says about a number"),
    ("cons12", "Buy ~2 in P6\nBid 5", "!'~2' says about a number"),
    ("t1_16t", "Bid 10 (~5 from Bob)", "!'~5' says about a number"),
    ("cen_dragon", "Fight fire with fire: ~2\n3 from P6", "!'~2' says about a number"),
    # a '~' that is no 'about': a signature, markup around an order
    ("t1_12", "Bid 12\n~Alice", ["Bid 12"]),
    ("t1_12", "Bid 12\n~A", ["Bid 12"]),
    ("orders14", "~Fortify P1~", ["Fortify! P1"]),
]

# rules: 003 Each Turn -- a line that asks gives no final choice: a question-mark emoji asks as '?' does (assumption
# QUESTION_EMOJI)
ASKING = [
    ("t1_12", "Bid 4 \u2753", "!has a question mark"),  # ❓ was dropped as an emoji: stored as Bid 4
    ("t1_12", "Bid 12\nHodir\u2754", "!has a question mark"),  # ❔
    ("orders14", "Fortify P1 \u2753\nFortify P2", "!has a question mark"),
    ("dragon12", "lights out \u2753", "!has a question mark"),
    ("cons12", "Buy 2 in P6\nBid 5\ufe0f\u2753", "!has a question mark"),
    # already refused so
    ("t1_12", "Bid 4 \u2049\ufe0f", "!has a question mark"),  # ⁉️
    ("t1_12", "Bid 4\uff1f", "!has a question mark"),  # a full-width '?'
    # other emoji make no difference (docs/dm-syntax.md)
    ("t1_12", "Bid 4 \u2757", ["Bid 4"]),  # ❗
    ("t1_12", "Bid 12 \U0001f91e\nHodir \U0001f43b", ["Bid 12", "Faction Hodir"]),
    ("orders14", "Fortify P1 \U0001f6e1\ufe0f\nWork P2 \U0001f4b0", ["Fortify! P1", "Work, work! P2"]),
]

# an arrow emoji is the arrow a March! may write for 'to' (docs/dm-syntax.md: 'March! 2 P1 -> P2'); it was dropped as an
# emoji ("got 'P5P4'"); at a line's start it is a bullet, as it was when dropped
ARROWS = [
    ("orders14", "March 3 P5\u27a1\ufe0fP4\nFortify P1", ["March! 3 from P5 to P4", "Fortify! P1"]),  # ➡️
    ("orders14", "March 3 from P5 \u27a1 P4\nFortify P1", ["March! 3 from P5 to P4", "Fortify! P1"]),
    ("orders14", "March 3 P5 \u21e8 P4", ["March! 3 from P5 to P4"]),  # ⇨
    ("orders14", "March 3 P5 \u21d2 P4", ["March! 3 from P5 to P4"]),  # ⇒ (was "got '⇒'")
    ("orders14", "\u27a1\ufe0f Fortify P1\n\u27a1\ufe0f Work P2", ["Fortify! P1", "Work, work! P2"]),
    ("orders14", "-> Fortify P1\n-> Work P2", ["Fortify! P1", "Work, work! P2"]),  # was "unknown order '->'"
    ("t1_12", "\u2192 Bid 5\n\u2192 Hodir", ["Bid 5", "Faction Hodir"]),
    (
        "orders14",
        "March 1 from P1 \u27a1\ufe0f P2 \u27a1\ufe0f P3",
        "!unexpected '\u2192 P3'",
    ),  # one March! goes one step
    # already read so
    ("orders14", "March 3 P5 --> P4", ["March! 3 from P5 to P4"]),
    ("orders14", "March 3 P5 \u2014> P4", ["March! 3 from P5 to P4"]),  # —>
    ("orders14", "March! 3 P1 => P28\nFortify P2", ["March! 3 from P1 to P28", "Fortify! P2"]),
]

# a '?' in brackets after an order asks, as '?' beside it does (was "expected the funding amount (a whole number), but
# the line ends": the brackets read as team pooling)
ASKING_IN_BRACKETS = [
    ("t1_12", "Bid 4 (?)", "!'Bid 4 (?)' has a question mark"),
    ("rebid10", "Bid 4 (??)", "!has a question mark"),
    ("orders14", "Fortify P1 (?)\nWork P2", "!'Fortify P1 (?)' has a question mark"),
    ("dragon12", "3 from P6 (?)", "!has a question mark"),
    ("cons16t", "Buy 1\nBid 5 (10 from Bob?)", "!has a question mark"),
    ("t1_16t", "Bid 10 (5 from Bob, ok?)", "!has a question mark"),
    # already refused ("(right?)" with "it asks ('?')"; now said as any '?' beside an order is)
    ("orders14", "Fortify P1 (right?)\nWork P2", "!'Fortify P1 (right?)' has a question mark"),
    ("t1_12", "Bid 4?", "!'Bid 4?' has a question mark"),
]

# a number opening a line that is no order: in the Consolidation it could be the bid or a count, where only a bid is
# asked it is the bid with more after it; the answer says what to write (was "not a choice for the Consolidation step",
# as if a number were an order of another step)
NUMBER_FIRST = [
    ("cons12", "Buy 2 in P6\n5", "!'5' alone could be the bid or a number of units: write 'Bid 5' for your bid"),
    ("cons12", "Buy 2 in P6\n$5", "!write 'Bid 5' for your bid"),
    ("cons12", "Buy 2 in P6\n5 realm", "!write 'Bid 5' for your bid"),
    ("cons12", "5", "!or 'Buy 5 in P6' for units"),
    ("cons12", "Buy 2 in P6\n5 thanks", "!'5 thanks' alone could be the bid or a number of units"),
    (
        "rebid10",
        "12 again",
        "!'12 again': an amount without 'Bid' is the bid only alone on its line (or with thanks): write 'Bid 12'",
    ),
    ("rebid10", "12 this time", "!write 'Bid 12'"),
    ("bank12", "20 to beat Bob", "!'20 to beat Bob': an amount without 'Bid' is the bid only alone"),
    ("t1_12", "12 Hodir", "!write 'Bid 12'"),
    # already read or refused so
    ("rebid10", "12 pls", ["Bid 12"]),
    ("bank12", "20 please", ["Bid 20"]),
    (
        "t1_12",
        "12, Hodir",
        "!'12': an amount without 'Bid' is the bid only alone on its line (or with thanks): write 'Bid 12'",
    ),
    ("dragon12", "3 P6", "!expected 'from' after the unit count, got 'P6'"),  # a count: the Dragon step takes one
    ("cons12", "2 in P6\nBid 5", ["Buy 2 in P6.", "Bid 5"]),
]

# rules: 003 Resolving a Dragon Attack -- the Provinces left undefended, one Burn each: a Burn over a list of Provinces
# burns each, as a Fortify! over a list fortifies each (was refused: "unexpected 'P7' at the end of the order")
BURN_LIST = [
    ("dragon12", "Turn off the lights\nBurn P5, P7", ["Burn P5", "Burn P7"]),
    ("dragon12", "Turn off the lights\nBurn P5 and P7", ["Burn P5", "Burn P7"]),
    ("dragon12", "Turn off the lights, burn P5 & P7", ["Burn P5", "Burn P7"]),
    ("dragon12", "lights out and burn P5, P6 + P7", ["Burn P5", "Burn P6", "Burn P7"]),
    ("dragon12", "2 from P6\nburn p5, p7", ["2 from P6", "Burn P5", "Burn P7"]),
    ("dragon12", "Turn off the lights\nBurn P5 and P5", "!"),  # a Province twice: refused
    ("dragon12", "Turn off the lights\nBurn P5, P7, ...", "!"),  # and more?
    # already read so
    ("dragon12", "Turn off the lights\nBurn P5\nBurn P7", ["Burn P5", "Burn P7"]),
    ("dragon12", "turn off lights and burn p5", ["Burn P5"]),
]

# a header naming another player: that player's orders, forwarded or pasted? never stored as the sender's (were stored:
# the name was dropped with the header; assumption OTHER_SEAT_HEADER)
WHOSE = [
    ("orders14", "Orders from Bob:\nFortify P1", "!'Orders from Bob:' names Player#2"),
    ("orders14", "Bob's orders:\nFortify P1", "!"),  # already refused ("unknown order")
    ("orders14", "Orders from Bob: Fortify P1", "!'Orders from Bob:' names Player#2"),
    ("orders14", "Here are Carol's orders for turn 6:\nFortify P1", "!"),  # already refused ("unknown order 'Here'")
    ("orders14", "Here are the orders from Carol for turn 6:\nFortify P1", "!names Player#3"),
    ("orders14", "Orders for Player#4:\nFortify P1", "!names Player#4"),
    ("orders14", "Hi GM, orders from sky blue\nFortify P1", "!names Player#2"),  # seat 2's colour
    ("cons12", "Orders from Bob:\nBuy 2 in P6\nBid 5", "!names Player#2"),
    ("dragon12", "Commitments from Carol:\n3 from P6", "!names Player#3"),
    ("t1_16t", "Orders from Bob:\nBid 10 (5 from Carol)", "!names Player#2"),
    ("t1_16t", "Bid from Bob:\nBid 10", "!"),  # already refused ("expected the bid")
    ("t1_12", "Dan's bid:\nBid 10", "!"),
    # the sender's own name is theirs to give
    ("orders14", "Orders from Alice:\nFortify P1", ["Fortify! P1"]),
    ("orders14", "Orders from Player#1:\nFortify P1", ["Fortify! P1"]),
    ("orders14", "Player#1 orders:\nFortify P1", ["Fortify! P1"]),
    ("orders14", "Orders from indigo:\nFortify P1", ["Fortify! P1"]),  # seat 1's colour
    # a name elsewhere stays as it was: a greeting, a sign-off, a remark
    ("orders14", "Hi Bob\nFortify P1", ["Fortify! P1"]),
    ("orders14", "Fortify P1\nThanks, Bob", ["Fortify! P1"]),
    ("orders14", "Fortify P1 (as agreed with Bob)", ["Fortify! P1"]),
]

# a cross mark or an unticked box beside an order says it may not be meant, as struck-out text does ("- [ ] Fortify P1"
# under "- [x] Work P2": a GM's list, ticked; "Fortify P1 ❌"): refused (were stored, the mark dropped as an emoji or a
# list's box; assumption NOT_MEANT_MARKS)
NOT_MEANT = [
    (
        "orders14",
        "Fortify P1 \u274c\nWork P2 \u2705",
        "!'\u274c' beside an order could say it is not meant",
    ),  # ❌ ... ✅
    ("orders14", "\u274c Fortify P1\nWork P2", "!could say it is not meant"),
    ("orders14", "Fortify P1 \u2717\nWork P2 \u2713", "!'\u2717' beside an order"),  # ✗ ... ✓
    ("orders14", "Fortify P1 \u2716\ufe0f", "!could say it is not meant"),  # ✖️
    ("orders14", "\U0001f6ab Fortify P1", "!could say it is not meant"),  # 🚫
    ("orders14", "- [ ] Fortify P1\n- [x] Work P2", "!'[ ]', a box left unticked, before an order"),
    ("orders14", "\u2610 Fortify P1\n\u2611 Work P2", "!a box left unticked"),  # ☐ ... ☑
    ("cons12", "Buy 2 in P6 \u274c\nBid 5", "!could say it is not meant"),
    ("t1_12", "Bid 5\n\u274c Hodir\n\u2705 Iron Light", "!could say it is not meant"),
    ("dragon12", "- [ ] Turn off the lights\n- [x] 3 from P6", "!a box left unticked"),
    # ticks and other emoji make no difference
    ("orders14", "- [x] Fortify P1\n- [X] Work P2", ["Fortify! P1", "Work, work! P2"]),
    ("orders14", "\u2705 Fortify P1\n\u2611\ufe0f Work P2 \u2714", ["Fortify! P1", "Work, work! P2"]),  # ✅ ☑️ ✔
    ("orders14", "Fortify P1 \U0001f6e1\ufe0f", ["Fortify! P1"]),
]

# a raised, lowered, circled or keycap digit (a footnote's '¹', '5²', '1️⃣'): NFKC made it a plain digit that ran into the
# number beside it ("Bid 5⁰" was stored as Bid 50, "Fortify P1²" read as P12); refused, saying to write plain digits,
# except as a list's number opening a line ("① Fortify P1", "1️⃣ Work P2"). Assumption PLAIN_DIGITS
DIGITS = [
    ("t1_12", "Bid 5\u2070", "!'\u2070' is no plain digit"),  # ⁰: was stored as Bid 50
    ("cons12", "Buy 2 in P6\nBid 5\u2075", "!write numbers and Provinces in plain digits"),  # ⁵: was Bid 55
    ("t1_12", "Bid 10\u00b9", "!'\u00b9' is no plain digit"),  # a footnote's ¹: was read as Bid 101
    ("orders14", "Fortify P1\u00b2", "!'\u00b2' is no plain digit"),  # was read as P12
    ("orders14", "March 2 from P1 to P2\u00b3", "!no plain digit"),  # was read as P23
    ("orders14", "Fortify P\u2081", "!no plain digit"),  # P₁: was read as P1
    ("dragon12", "3 from P6\u00b9\n\u00b9 sac 1", "!no plain digit"),
    ("t1_12", "Bid 1\ufe0f\u20e30\ufe0f\u20e3", "!no plain digit"),  # 1️⃣0️⃣: was "got '1⃣0⃣'"
    ("orders14", "March 2\ufe0f\u20e3 from P1 to P2", "!no plain digit"),
    ("t1_12", "Bid \u2464", "!no plain digit"),  # ⑤: was read as Bid 5
    ("t1_12", "Bid \U0001f51f", "!no plain digit"),  # 🔟: was "but the line ends"
    # a list's number opening a line
    ("orders14", "\u2460 Fortify P1\n\u2461 Work P2", ["Fortify! P1", "Work, work! P2"]),  # ① ②: was "not a choice"
    ("orders14", "1\ufe0f\u20e3 Fortify P1\n2\ufe0f\u20e3 Work P2", ["Fortify! P1", "Work, work! P2"]),  # 1️⃣ 2️⃣
    ("t1_12", "\u2460 Bid 5\n\u2461 Hodir", ["Bid 5", "Faction Hodir"]),  # was answered "write 'Bid 1'"
    ("t1_12", "1 Bid 5", "!'1' before the order is no part of it, nor a list's number"),  # was "write 'Bid 1'"
    ("cons12", "2 Buy 1 in P6\nBid 5", "!'2' before the order is no part of it"),
    ("t1_12", "\u2776 Bid 5\n\u2777 Hodir", ["Bid 5", "Faction Hodir"]),  # ❶ ❷
    # full-width digits are plain digits a phone may type (NFKC)
    ("t1_12", "Bid \uff11\uff10", ["Bid 10"]),
    ("orders14", "Fortify \uff30\uff11", ["Fortify! P1"]),
]

# a note after // that reads as an order ("Fortify P1 // Work P2": '//' a separator, or the order a note?): refused,
# never left out unsaid (the Work, work! was dropped with the note; "Bid 10 // Faction: Hodir" chose no faction, and
# one was dealt). A note in words, and a line starting with //, stay notes. Assumption ORDER_IN_NOTE
ORDER_IN_NOTE = [
    ("orders14", "Fortify P1 // Work P2", "!'// Work P2' after the order reads as an order itself"),
    ("orders14", "Fortify P1 // March 3 from P5 to P4\nWork P2", "!reads as an order itself"),
    ("t1_12", "BID 10 // FACTION: HODIR", "!'// FACTION: HODIR' after the order reads as an order itself"),
    ("cons12", "Buy 2 in P6 // Bid 5", "!reads as an order itself"),
    ("dragon12", "3 from P6 // 2 from P7", "!reads as an order itself"),
    # notes in words stay notes, and so does an order on a line of its own after // (commented out)
    ("orders14", "Fortify P1 // holding the line\nWork P2", ["Fortify! P1", "Work, work! P2"]),
    ("orders14", "Fortify P1 // work next turn", ["Fortify! P1"]),
    ("orders14", "Fortify P1\n// Work P2", ["Fortify! P1"]),
    ("orders14", "Fortify P1 // Bid 5", ["Fortify! P1"]),  # no order of this step: a note
    ("t1_12", "Bid 12 // sorry if late", ["Bid 12"]),
]

# a March!'s count and Provinces after it without the order's word: the answer says to give each March! its word (was
# "unexpected '1 from P1 to P2' at the end of the order; after an order only thanks ... may follow")
MARCH_WORD = [
    (
        "orders14",
        "March 3 from P5 to P4, 1 from P1 to P2",
        "!'1 from P1 to P2' after the March! is no order of its own: "
        "give each March! its word, like 'March! 1 from P1 to P2'",
    ),
    ("orders14", "March 3 from P5 to P4 and 1 from P1 to P2", "!like 'March! 1 from P1 to P2'"),
    ("orders14", "Move 3 P5 -> P4, 1 P1 -> P2", "!like 'March! 1 from P1 to P2'"),
    ("orders14", "March 3 from P5 to P4, fortify P1", ["March! 3 from P5 to P4", "Fortify! P1"]),
    ("orders14", "March 3 from P5 to P4 and P3", "!unexpected 'and P3'"),  # no March! there: as before
]

# a bare number in brackets after an order, in a game without teams: said as pooling from nobody, and what to do
# (was "expected 'from' after the funding amount, but the line ends")
BARE_POOL = [
    ("t1_12", "Bid 4 (5)", "!'(5)' after an order: a number in brackets is read as team pooling"),
    ("cons12", "Buy 2 in P6 (20)\nBid 5", "!like '(20 from Player#2)'; without a team-mate's $Realm, leave"),
]

# DMs of this round the reader already read or refused as it should: kept as regression cases
ALREADY_FINE = [
    # ---- turn 1: bid and faction (12 seats, Grand, the Island, factions)
    ("t1_12", "**Bid 12**\n**Faction: Hodir**", ["Bid 12", "Faction Hodir"]),
    ("t1_12", "Bid \u201c12\u201d", ["Bid 12"]),  # smart quotes
    ("t1_12", "Bid 12 \u2014 Hodir", ["Bid 12", "Faction Hodir"]),  # an em dash between orders
    ("t1_12", "||Bid 12||\n||Hodir||", ["Bid 12", "Faction Hodir"]),  # spoilers
    ("t1_12", "```\nBid 12\nHodir\n```", ["Bid 12", "Faction Hodir"]),
    ("t1_12", "> Bid 12\n> Hodir", ["Bid 12", "Faction Hodir"]),
    ("t1_12", "1. Bid 12\n2. Hodir", ["Bid 12", "Faction Hodir"]),
    ("t1_12", "BID: 12 $REALM\nFACTION: IRON LIGHT", ["Bid 12", "Faction Iron Light"]),
    ("t1_12", "Bid 12\nHodir\n\n--\nAlice\nSent from my Galaxy", ["Bid 12", "Faction Hodir"]),
    ("t1_12", "Bid 12\nbid 12.", ["Bid 12"]),  # the same bid twice: read once
    ("t1_12", "Hi all! Bid 12, Hodir. GL!", ["Bid 12", "Faction Hodir"]),
    ("t1_12", "Bid 12\nFaction: Kalu Ak", ["Bid 12", "Faction Kalu'Ak"]),
    ("t1_12", "Bid Four", ["Bid 4"]),
    ("t1_12", "Bid 4\u2026", ["Bid 4"]),
    ("t1_12", "bid 12 :D", ["Bid 12"]),
    ("t1_12", "Bid 12\nHodir or Cenarion", "!unknown order 'Hodir'"),
    ("t1_12", "Bid 12\nHodir (or Cenarion if taken)", "!'or' could take the order back"),
    ("t1_12", "Bid twenty", "!write numbers over twelve in digits"),
    ("t1_12", "Bid 4-5", "!got '4-5'"),
    ("t1_12", "Bid 4 or so", "!unexpected 'or so'"),
    ("t1_12", "Bid at least 4", "!got 'at'"),
    ("t1_12", "Bid 12.5", "!the bid must be a whole number"),
    ("t1_12", "Bid -5", "!must not be negative"),
    ("t1_12", "Bid 200", "!bid between 0 and your 50 $Realm"),
    ("t1_12", "Bid 12 for turn 2", "!this bid is for turn 2"),
    ("t1_12", "Bid 12\nsend 5 to Bob", "!not a choice for the bid step"),
    ("t1_12", "Bid 6 x2", "!unexpected 'x2'"),
    # ---- the re-bid and the Bank of Lannuvár's bid
    ("rebid10", "Re-bid: 12", ["Bid 12"]),
    ("rebid10", "all in \U0001f525", ["Bid 35"]),
    ("rebid10", "twelve", ["Bid 12"]),
    ("rebid10", "rebid 12\nbid 10", "!two bids"),
    ("rebid10", "Faction Hodir\nBid 12", "!factions are chosen with the turn-1 bid"),
    ("rebid10", "Bid 36", "!bid between 0 and your 35 $Realm"),
    ("bank12", "bank bid 20", ["Bid 20"]),
    ("bank12", "Bid all", ["Bid 45"]),
    ("bank12", "Bank bid: 20 (all in)", "!which is 45 $Realm now, not 20"),
    ("bank12", "Bid 20\nThe Bank of Lannuv\u00e1r", "!not a choice for the Bank of Lannuv\u00e1r bid step"),
    # ---- team bids (16 seats, four teams)
    ("t1_16t", "Bid 10 (5 from Bob, 5 from Carol)", ["Bid 10 (5 from Player#2, 5 from Player#3)"]),
    ("t1_16t", "Bid 10 (five from bob) \U0001f91d", ["Bid 10 (5 from Player#2)"]),
    ("t1_16t", "Bid 10 (5 from Eve)", "!pooled $Realm only comes from a team-mate"),
    ("t1_16t", "Bid 10 (5 from me)", "!'me' is not a player"),
    ("t1_16t", "Bid all", "!could mean your own $Realm or your team's"),
    ("t1_16t", "Bid 10 (5 from Bob)\nBid 10", "!two bids"),
    # ---- orders (14 seats, Grand board, factions; Alice P1 3 units, P2 2, P5 3, P28 1)
    (
        "orders14",
        "- Fortify: P1\n- Work: P2\n- March: 3 from P5 to P4",
        ["Fortify! P1", "Work, work! P2", "March! 3 from P5 to P4"],
    ),
    (
        "orders14",
        "**Fortify** P1\n*Work, work!* P2\n__March!__ 3 from P5 to P4",
        ["Fortify! P1", "Work, work! P2", "March! 3 from P5 to P4"],
    ),
    ("orders14", "Fortify P1 ,P2", ["Fortify! P1", "Fortify! P2"]),
    ("orders14", "Fortify P1,P2,P5,P28.", F4),
    ("orders14", "March 3 army units from P5 to P4", ["March! 3 from P5 to P4"]),
    ("orders14", "Delayed: March 2 from P5 to P4", ["Delayed March! 2 from P5 to P4"]),
    ("orders14", "Support @Bob P3 from P2", ["Support! Player#2 in P3 from P2"]),
    ("orders14", "Support Bob (P3) from P2", ["Support! Player#2 in P3 from P2"]),
    ("orders14", "Golden Work P2, Golden Fortify P1", ["Golden Work, work! P2", "Golden Fortify! P1"]),
    ("orders14", "Fortify P1 :P\nSend 10 to Bob ;P", ["Fortify! P1", "Send 10 to Player#2"]),
    ("orders14", "Hi GM,\n\nFortify P1\n\n\u2014 Alice", ["Fortify! P1"]),
    ("orders14", "Fortify P1\n\nGet Outlook for Android", ["Fortify! P1"]),
    ("orders14", "March 3 from P5 to P4 and P3", "!unexpected 'and P3'"),
    ("orders14", "Fortify P3", "!you have no Army Units in P3"),  # another player's Province
    ("orders14", "March 2 from P3 to P4", "!you have no Army Units in P3"),
    ("orders14", "Fortify P1\nWork P1", "!P1 already has an order"),
    ("orders14", "Golden work P2\nGolden work P5", "!only one Golden order of each type per turn"),
    ("orders14", "Send 30 to Bob\nSend 31 to Carol", "!more than the 60 $Realm you hold"),  # over-spending
    ("orders14", "Send 10 to #2", "!'#2' is not a player"),
    ("orders14", "Fortify P1\nP.S. Bob is plotting", "!starts like a postscript (P.S.)"),  # round 6
    ("orders14", "Fortify P1\n\nsent from phone, sorry for typos", "!unknown order 'sent'"),
    ("orders14", "Fortify P1 D:", "!unexpected 'D'"),
    ("orders14", "Turn 5:\nFortify P1", "!this DM is headed for turn 5"),
    ("orders14", "Buy 2 in P1", "!not a choice for the orders step"),
    ("orders14", "Turn off the lights", "!is a choice for a Dragon attack"),
    ("odd14", "Support Ann Marie in P9 from P1", "!P9 is not adjacent to P1"),  # a name with a space: read
    ("odd14", "Send 10 to Mr Smith, 5 to Sam", ["Send 10 to Player#13", "Send 5 to Player#14"]),
    ("odd14", "Send 10 to Zo\u00eb\nFortify P1", ["Fortify! P1", "Send 10 to Player#12"]),
    ("odd14", "Send 10 Gold to Gold", ["Send 10 to Player#7"]),
    ("odd14", "Support AnnMarie in P9 from P1", "!did you mean Ann Marie?"),
    ("oddp14", "Snitch on Dr. Who", ["Snitch Player#4"]),
    # ---- abilities: Kalu'Ak, the Island's holder
    (
        "kal14",
        "Weather Forecast: \u201cThere be Dragons?\u201d\nFortify P1",
        ["Fortify! P1", "Weather forecast: There be Dragons?"],
    ),
    (
        "kal14",
        "weather forecast - there be dragons\nFortify P1",
        ["Fortify! P1", "Weather forecast: There be Dragons?"],
    ),
    ("kal14", "Weather forecast: dragons\nFortify P1", "!unexpected 'dragons'"),
    ("kal14", "Weather forecast: There be Dragons?\nWeather forecast: There be Dragons?\nFortify P1", "!given twice"),
    ("orders14", "Weather forecast: There be Dragons?\nFortify P1", "!only a player with Weather forecast (Kalu'Ak)"),
    ("island10", "Palantir: Sea\nFortify P1\nFortify P10", ["Fortify! P1", "Fortify! P10", "Palant\u00edr sea"]),
    ("island10", "Palant\u00edr Sea, Palant\u00edr The End\nFortify P1", "!given twice"),
    ("island10", "Ferry P1\nFortify P10", "!the Ferry! card is not in play"),
    ("island10", "March 1 from Province 0 to P10\nFortify P1", "!P10 is not adjacent to P0"),
    # ---- team orders and Sends (16 seats)
    (
        "team16",
        "Fortify P1\nSend 10 to Bob & 10 to Carol & 5 to Dan",
        ["Fortify! P1", "Send 10 to Player#2", "Send 10 to Player#3", "Send 5 to Player#4"],
    ),
    ("team16", "Fortify P1\nSend 10 to Bob, Carol, Dan", "!a Send gives its amount to one player"),
    ("team16", "Fortify P1\nSend 60 to Bob", "!more than the 50 $Realm you hold"),
    ("team16", "Fortify P1\nSend all to Bob", "!'all' is no fixed number there"),
    ("team16", "Fortify P1\nSend 20 to my teammate", "!'my teammate' is not a player"),
    # ---- Dragon commitments (12 seats; Alice P5 1 unit, P6 3, P7 2)
    ("dragon12", "Commit: 3 from P6, 2 from P7", ["3 from P6", "2 from P7"]),
    ("dragon12", "3 from Province 6 and 2 from Province 7", ["3 from P6", "2 from P7"]),
    ("dragon12", "All from P6, all from P7, all from P5", ["3 from P6", "2 from P7", "1 from P5"]),
    ("dragon12", "3 from P6 (sac: 2)", ["3 from P6 (sac 2)"]),
    ("dragon12", "TURN OFF THE LIGHTS!!!", []),
    ("dragon12", "3 from P6\n2 from P6", "!two commitments from P6"),
    ("dragon12", "Commit 2 from P3", "!you do not control P3"),
    ("dragon12", "3 from P6 (sac 4)", "!sac 4 is more than the 3 units committed"),
    ("dragon12", "all in", "!unknown order 'all'"),
    ("dragon12", "Fortify P6", "!not a choice for the Dragon step"),
    ("cen_dragon", "Fight Fire With Fire! 2\n3 from P6", ["3 from P6", "Fight fire with fire: 2"]),
    ("cen_dragon", "Fight fire with fire: 2 highmagisters\n3 from P6", "!unexpected 'highmagisters'"),
    ("kal_dragon", "nothing to see here.", ["Nothing to see here!"]),
    ("kal_dragon", "Nothing to see here\n3 from P6", "!given instead of committing units: send it alone"),
    ("lan_dragon", "the bank of lannuvar!", ["The Bank of Lannuv\u00e1r"]),
    # ---- the Consolidation (12 seats; Alice P5 2 units, P6 1, P7 3, 200 $Realm) and team pooling
    ("cons12", "Buy 2 in P6 \u2013 1 in P5 \u2013 Bid 5", ["Buy 2 in P6. 1 in P5.", "Bid 5"]),
    ("cons12", "Buy one in P5, one in P6\nBid 5", ["Buy 1 in P5. 1 in P6.", "Bid 5"]),
    ("cons12", "Buy 2 in P6\nBid for next turn: 5", ["Buy 2 in P6.", "Bid 5"]),
    (
        "cons12",
        "Buy 2 in P6\nBid 5\n\nOn Mon, 3 Nov 2026 at 10:00, GM wrote:\n> Buy 1 in P5\n> Bid 3",
        ["Buy 2 in P6.", "Bid 5"],
    ),  # the earlier message quoted below a reply header
    ("cons12", "Buy 2 in P6\nBid 5\n\n> Buy 1 in P5\n> Bid 3", "!two bids"),  # quoted by hand: read
    ("cons12", "Buy 2 in P6\nBid 5\n--\nAlice\nBuy 1 in P5", "!this order is below a '--' line"),
    ("cons12", "Buy 2 in P6\nBuy 1 in P6\nBid 5", "!two purchases in P6"),
    ("cons12", "Buy 2 in P3\nBid 5", "!you do not control P3"),
    ("cons12", "Buy 1 in P5, P6\nBid 5", "!could mean 1 in each or 1 in all"),
    ("cons12", "Buy 2 in P6\nbid 5 for turn 6", "!could be an old one sent again"),
    ("cons12", "Buy 2 in P6\nBid 5\nSnitch Bob", "!not a choice for the Consolidation step"),
    ("cons12", "Buy: 2 x P6, 1 x P5\nBid: 5", "!got 'x'"),
    ("iron_cons", "Faith alone sustains us \U0001f64f\nBid 5", ["Bid 5", "Faith alone sustains us"]),
    ("lan_cons", "Bank of Lannuvar, buy 2 in P6", ["Buy 2 in P6.", "Bid 0", "The Bank of Lannuv\u00e1r"]),
    ("lan_cons", "The Bank of Lannuv\u00e1r\nBid 5", "!you bid next turn, after the others' bids are revealed"),
    ("isl_cons", "Sanctum: gain Weather forecast\nBid 5", ["Bid 5", "Sanctum gain Weather forecast"]),
    ("cons16t", "Buy 1 (10 from Bob)\nBid 5 (10 from Bob)", ["Buy 1 in P1.", "Bid 5 (20 from Player#2)"]),
    ("cons16t", "Buy 1\nBid 5 (Bob pays 10)", "!expected the funding amount (a whole number), got 'Bob'"),
    ("cons16t", "Buy 1\nBid 5 (10 from Bob)\nSend 10 to Bob", "!not a choice for the Consolidation step"),
]

CASES = (
    TENTATIVE
    + BARE_POOL
    + ASKING
    + ARROWS
    + ASKING_IN_BRACKETS
    + NUMBER_FIRST
    + BURN_LIST
    + WHOSE
    + NOT_MEANT
    + DIGITS
    + ORDER_IN_NOTE
    + MARCH_WORD
    + ALREADY_FINE
)


@pytest.mark.parametrize(("game", "dm", "want"), CASES)
def test_a_messy_dm(game, dm, want):
    _check(_store_in(GAMES[game](), dm), want)


def test_a_dm_headed_for_another_player_is_refused_whole_even_leniently():
    # lenient mode drops refused lines and keeps the rest: dropping "Orders from Bob:" would store Bob's orders as
    # Alice's, so the DM is refused whole, as one headed for another turn is (dm_whose.other_seat)
    g = GAMES["orders14"]()
    with pytest.raises(RegentError, match="names Player#2"):
        g.submit_dm("Player#1", "Orders from Bob:\nFortify P1", lenient=True)
    assert g.submit_dm("Player#1", "Orders from Alice:\nFortify P1", lenient=True).lines == ["Fortify! P1"]


def test_the_round_covers_every_step_in_big_games_with_the_options_on():
    games = {game for game, _, _ in CASES}
    assert {GAMES[g]().step for g in games} == {"bid", "rebid", "bank_bid", "orders", "dragon", "consolidation"}
    assert all(len(GAMES[g]().state.players) >= 10 for g in games)
    assert len(CASES) >= 150
