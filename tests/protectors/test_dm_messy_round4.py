"""A fourth round of messy DMs: big games with the options on. 12 to 16 seats, teams of 2 and 3 (funding a team-mate),
factions, the Grand board's high Provinces (P27, P32, and P33-P40 on a GM's board), the Island, Golden and Delayed
orders, Dragon commitments and Burns at 16 seats, the Bank of Lannuvár; players named like common words, order words or
colours ("Red", "Will", "March", "Nobody", "Bob the Builder"), with digits or an emoji, named with typos or by first
name only; DMs pasted from a phone or another language's keyboard, split across lines, answering the previous step, or
forwarded by the GM with their header.

Each case goes through ``Game.submit_dm`` for Player#1 (Alice), as in the earlier rounds (``test_dm_messy_round``,
``test_dm_messy_round3``), and says what must be stored (the canonical lines) or why it must be refused ("!fragment" of
the reason).
"""

from __future__ import annotations

import pytest

from engine.errors import RegentError
from engine.protectors.game import Game
from tests.protectors.helpers import dragon_attack, line_board, position
from tests.protectors.test_dm_messy_round import SEATS, _check, _named, _store_in

# display names as a big table gives them: a colour that is no board colour ("Red"), words of the game and of English
# ("Will", "March", "Nobody"), three words ("Bob the Builder"), digits ("R2D2"), an emoji ("Grace 🌸")
NAMES = [
    "Alice",
    "Red",
    "Will",
    "March",
    "Bob the Builder",
    "Carol",
    "Dan",
    "R2D2",
    "Eve",
    "Frank",
    "Grace \U0001f338",
    "Heidi",
    "Ivan",
    "Judy",
    "Nobody",
    "Sybil",
]
PAIRS = [t for t in "ABCDEFGH" for _ in range(2)]  # 16 seats, teams of 2: Alice and Red
TRIOS = [t for t in "ABCD" for _ in range(3)]  # 12 seats, teams of 3: Alice, Red and Will
FACTIONS = ["Iron Light", "Hodir", "Cenarion", "Lannuvár", "Kalu'Ak"] * 4


def t1_16():
    """Turn 1 of a 16-seat Grand game with the Island, factions and teams of 2: the bid (pooled) and the faction."""
    return Game(
        {
            "board": "ring-16-grand+island",
            "seed": 3,
            "options": {"factions": True, "teams": True},
            "players": [{"seat": s, "name": n, "team": t} for s, n, t in zip(SEATS, NAMES, PAIRS, strict=True)],
        }
    )


def t1_12t3():
    """Turn 1 of a 12-seat game in teams of 3 (Alice, Red, Will), no factions."""
    return Game(
        {
            "board": "ring-12",
            "seed": 3,
            "options": {"teams": True},
            "players": [
                {"seat": s, "name": n, "team": t} for s, n, t in zip(SEATS[:12], NAMES[:12], TRIOS, strict=True)
            ],
        }
    )


def orders16(cards: tuple[str, ...] = (), faction: str = "Iron Light") -> Game:
    """Turn 6 of a 16-seat Grand game (P1..P32, the Island P0) with factions and teams of 2, Alice playing ``faction``:
    P27 3 units, P28 2, P32 2, P1 1; Red (her team-mate) P29 2, P30 1; Will P26, March P31, the others one Province
    each; 60 $Realm each. Alice ranks 1st (every Golden order)."""
    provs = {
        "P27": ("Player#1", 3),
        "P28": ("Player#1", 2),
        "P32": ("Player#1", 2),
        "P1": ("Player#1", 1),
        "P29": ("Player#2", 2),
        "P30": ("Player#2", 1),
    }
    free = [f"P{k}" for k in (26, 31, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25)]
    for seat, prov in zip(SEATS[2:], free, strict=True):
        provs[prov] = (seat, 2)
    g = position(
        "ring-16-grand+island",
        16,
        provs,
        turn=6,
        ranking=SEATS,
        realm=dict.fromkeys(SEATS, 60),
        options={"factions": True, "teams": True},
        teams=PAIRS,
        factions=dict(zip(SEATS, [faction, *FACTIONS[1:]], strict=False)),
        cards=cards,
    )
    return _named(g, NAMES)


def dragon16(faction: str = "Hodir", realm: int = 200) -> Game:
    """A Dragon attack at turn 7 of a 16-seat Grand game with factions and teams of 2, Alice playing ``faction``: P27 3
    units, P28 2, P30 1."""
    provs = {"P27": ("Player#1", 3), "P28": ("Player#1", 2), "P30": ("Player#1", 1), "P29": ("Player#2", 2)}
    free = [f"P{k}" for k in (26, 31, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25)]
    for seat, prov in zip(SEATS[2:], free, strict=True):
        provs[prov] = (seat, 2)
    g = position(
        "ring-16-grand",
        16,
        provs,
        turn=7,
        realm={**dict.fromkeys(SEATS, 20), "Player#1": realm},
        options={"factions": True, "teams": True},
        teams=PAIRS,
        factions=dict(zip(SEATS, [faction, *FACTIONS[1:]], strict=False)),
    )
    return dragon_attack(_named(g, NAMES), 3)


def cons12t3() -> Game:
    """Turn 5's Consolidation in a 12-seat game in teams of 3: Alice P1 1 unit, P2 2, 90 $Realm; Red and Will (her
    team-mates) 40."""
    provs = {"P1": ("Player#1", 1), "P2": ("Player#1", 2), **{f"P{i}": (f"Player#{i}", 1) for i in range(3, 13)}}
    provs["P12"] = ("Player#2", 1)
    g = position(
        "ring-12",
        12,
        provs,
        turn=5,
        phase="consolidation",
        options={"teams": True},
        teams=TRIOS,
        realm={**dict.fromkeys(SEATS[:12], 40), "Player#1": 90},
    )
    return _named(g, NAMES)


def bank16() -> Game:
    """The Bank of Lannuvár's late bid at turn 5 of a 16-seat game: Alice (Lannuvár) holds 45 $Realm."""
    provs = {f"P{i}": {"owner": f"Player#{i}", "units": 2} for i in range(1, 17)}
    return Game(
        {
            "board": "ring-16",
            "seed": 1,
            "options": {"factions": True},
            "players": [{"seat": s, "name": n} for s, n in zip(SEATS, NAMES, strict=True)],
            "position": {
                "turn": 5,
                "step": "bank_bid",
                "provinces": provs,
                "factions": {"Player#1": "Lannuvár"},
                "effects": {"Player#1": ["bank_bid"]},
                "bids": {s: 3 for s in SEATS[1:]},
                "realm": {**dict.fromkeys(SEATS[1:], 20), "Player#1": 45},
            },
        }
    )


def big40() -> Game:
    """Turn 4 of a 12-seat game on a GM's board of 40 Provinces in a ring: Alice P33 2 units, P34 1, P40 2."""
    board = line_board(*(f"P{i}-P{i % 40 + 1}" for i in range(1, 41)), n=40)
    provs = {
        "P33": ("Player#1", 2),
        "P34": ("Player#1", 1),
        "P40": ("Player#1", 2),
        **{f"P{3 * i - 1}": (f"Player#{i}", 1) for i in range(2, 13)},
    }
    g = position(board, 12, provs, turn=4, ranking=SEATS[:12], realm=dict.fromkeys(SEATS[:12], 30))
    return _named(g, NAMES)


GAMES = {
    "t1_16": t1_16,
    "t1_12t3": t1_12t3,
    "orders16": orders16,
    "pirates16": lambda: orders16(("Pirates!",)),
    "kal16": lambda: orders16(faction="Kalu'Ak"),
    "dragon16": dragon16,
    "cen16": lambda: dragon16("Cenarion"),
    "lan16": lambda: dragon16("Lannuvár"),
    "cons12t3": cons12t3,
    "bank16": bank16,
    "big40": big40,
}
F4 = ["Fortify! P27", "Fortify! P28", "Fortify! P32", "Fortify! P1"]  # Alice's four Provinces in orders16, fortified
FORT = "Fortify P27, P28, P32, P1\n"

# ---- the Grand board's high Provinces, written as players write them (rules: 003 Province numbering, "P1")
PROVINCES = [
    ("orders16", "March 2 from P 27 to P 26", ["March! 2 from P27 to P26"]),
    ("orders16", "march 2 from p27 to p26", ["March! 2 from P27 to P26"]),
    ("orders16", "March 2 from province 27 to province 26", ["March! 2 from P27 to P26"]),
    ("orders16", "March 2 from Province#27 to Prov. 26", ["March! 2 from P27 to P26"]),
    ("orders16", "Fortify p32", ["Fortify! P32"]),
    ("orders16", "Fortify P\u00a032", ["Fortify! P32"]),  # a non-breaking space
    # a number alone is no Province: the answer says to write its P (was only "'32' is not a province like P3")
    ("orders16", "Fortify 32", "!'32' is not a province like P3: a Province is named with its P, like P32"),
    ("orders16", "March 2 from 27 to 26", "!'27' is not a province like P3: a Province is named with its P, like P27"),
    ("orders16", "Fortify P 3 2", "!could be P3 or P32"),
    ("orders16", "Fortify P33", "!P33 is not on this board"),
    ("orders16", "Fortify #32", ["Fortify! P32"]),
    ("orders16", "Fortify P32, P1 and P28", ["Fortify! P32", "Fortify! P1", "Fortify! P28"]),
    ("orders16", "Fortify P27-P28", "!'P27-P28' joins Provinces with '-'"),  # round 7
    (
        "big40",
        "March 2 from P33 to P32\nFortify P34, P40",
        ["March! 2 from P33 to P32", "Fortify! P34", "Fortify! P40"],
    ),
    ("big40", "March 1 from P40 to P1", ["March! 1 from P40 to P1"]),
    ("big40", "Fortify Province 40", ["Fortify! P40"]),
    ("big40", "Fortify P41", "!P41 is not on this board"),
    ("big40", "Fortify province thirty-three", "!like P33"),
    # a list of Provinces written 'P 33' (were refused: "unexpected 'and P 34' at the end of the order")
    ("big40", "Fortify P 33 and P 34", ["Fortify! P33", "Fortify! P34"]),
    ("big40", "Work p 33, p 34 & p 40", ["Work, work! P33", "Work, work! P34", "Work, work! P40"]),
    ("big40", "Fortify P 33 and P 3 4", "!unexpected 'and P 3 4'"),  # P3 or P34: refused
    ("big40", "Fortify P 33 and P 33", "!P33 is named twice"),
]

# ---- Golden and Delayed orders at 16 seats (rules: 003 Golden Orders, Delayed March!; Iron Light's Crusade!)
GOLDEN = [
    (
        "orders16",
        "Golden March 2 from P27 to P26\nDelayed March 1 from P28 to P29",
        ["Golden March! 2 from P27 to P26", "Delayed March! 1 from P28 to P29"],
    ),
    ("orders16", "Delayed Golden March 2 from P27 to P26", ["Delayed Golden March! 2 from P27 to P26"]),
    ("orders16", "Golden Delayed March 2 from P27 to P26", ["Delayed Golden March! 2 from P27 to P26"]),
    ("orders16", "golden support Red in P29 from P28", ["Golden Support! Player#2 in P29 from P28"]),
    (
        "orders16",
        "Golden Fortify P27\nGolden Work P28\nGolden Support Red P29 from P32",
        "!P29 is not within 2 Provinces of P32",
    ),  # the extended Golden Support! reaches two Provinces
    (
        "orders16",
        "Golden Fortify P32\nGolden Work P28\nGolden Support Red P29 from P27",
        ["Golden Fortify! P32", "Golden Work, work! P28", "Golden Support! Player#2 in P29 from P27"],
    ),
    ("orders16", "Delayed Fortify P27", "!'Delayed' applies only to March!"),
    ("orders16", "Delayed March all from P27 to P26", "!so 'all' is no fixed number there: write the number"),
    ("orders16", "Golden Fortify P27, P28", "!could mean a Golden order in each of them or only in P27"),
    # Iron Light's Crusade!: one Golden March! free, beside the bracket's one (rules: 003 Iron Light, "Crusade!")
    (
        "orders16",
        "Golden March 1 from P27 to P26\nGolden March 1 from P28 to P29",
        ["Golden March! 1 from P27 to P26", "Golden March! 1 from P28 to P29"],
    ),
    (
        "orders16",
        "Golden March 1 from P27 to P26\nGolden March 1 from P28 to P29\nGolden March 1 from P32 to P31",
        "!only one Golden order of each type per turn",
    ),
    (
        "orders16",
        "Golden March 2 from P27 to P26\nGolden March 1 from P28 to P29\nDelayed Golden March 1 from P32 to P31",
        "!only one Golden order of each type per turn",
    ),
    ("kal16", "Golden March 1 from P27 to P26\nGolden March 1 from P28 to P29", "!only one Golden order of each type"),
    ("orders16", "\U0001f7e1 Golden Fortify P27", ["Golden Fortify! P27"]),  # a yellow circle emoji
    ("orders16", "\u2b50 Fortify P27", ["Fortify! P27"]),
    ("orders16", "**GOLDEN** March! 2 from P27 to P26", ["Golden March! 2 from P27 to P26"]),
    ("orders16", "March 2 from P27 to P26 (delayed)", "!'delayed' is a word orders are made of"),
    # 'Golden' or 'Delayed' over the orders below, as a header: which orders? the answer says to write it on each (was
    # "'Golden' applies only to March!, ..., not 'orders:'", "expected an order after 'Delayed'")
    ("orders16", "Golden orders:\nFortify P27", "!'Golden' names no order here: write it before each order it applies"),
    ("orders16", "**Golden**\nFortify P27", "!like 'Golden Fortify! P1'"),
    ("orders16", "Delayed:\nMarch 2 from P27 to P26\nFortify P28", "!like 'Delayed March! 2 from P1 to P2'"),
    ("orders16", "## Delayed moves\nMarch 2 from P27 to P26", "!'Delayed' names no order here"),
    ("orders16", "March 2 from P27 to P26\nGolden", "!'Golden' names no order here"),
    ("orders16", "Golden: March 2 from P27 to P26", ["Golden March! 2 from P27 to P26"]),
    ("orders16", "March (delayed) 2 from P27 to P26", "!expected the unit count (a whole number), got 'delayed'"),
]

# ---- players named like words: colours that are no board colour, order words, English words, three words, digits
NAMES_LIKE_WORDS = [
    ("orders16", "Support Red in P29 from P28", ["Support! Player#2 in P29 from P28"]),
    ("orders16", "Support red P29 from P28", ["Support! Player#2 in P29 from P28"]),
    ("orders16", "Support March in P31 from P32", ["Support! Player#4 in P31 from P32"]),
    ("orders16", "Support Will in P26 from P27", ["Support! Player#3 in P26 from P27"]),
    ("orders16", FORT + "Send 10 to Will", [*F4, "Send 10 to Player#3"]),
    ("orders16", FORT + "Send 10 to March", [*F4, "Send 10 to Player#4"]),
    ("orders16", FORT + "Will send 10 to Red", "!'Will' is a player's name"),
    ("orders16", FORT + "I will send 10 to Red", [*F4, "Send 10 to Player#2"]),
    ("orders16", "March 2 from P27 to P26\nFortify P28", ["March! 2 from P27 to P26", "Fortify! P28"]),
    ("orders16", "March, fortify P27", "!'March' before the order names a player"),
    ("orders16", "March: Fortify P27", "!expected the unit count (a whole number), got 'Fortify'"),
    ("orders16", FORT + "Send 10 to Bob the Builder", [*F4, "Send 10 to Player#5"]),
    ("orders16", FORT + "send 10 to bob the builder", [*F4, "Send 10 to Player#5"]),
    ("orders16", "Support Bob the Builder in P3 from P27", "!P3 is not adjacent to P27"),
    ("orders16", FORT + "Send 10 to R2D2", [*F4, "Send 10 to Player#8"]),
    ("orders16", FORT + "Send 10 to r2-d2", "!did you mean R2D2?"),
    ("orders16", FORT + "Send 10 to Grace", [*F4, "Send 10 to Player#11"]),
    ("orders16", FORT + "Send 10 to Grace \U0001f338", [*F4, "Send 10 to Player#11"]),
    ("orders16", FORT + "Send 10 to Nobody", [*F4, "Send 10 to Player#15"]),
    ("orders16", FORT + "Send 10 to sky blue", [*F4, "Send 10 to Player#2"]),  # Red's seat colour
    ("orders16", FORT + "Send 10 to Sybil", [*F4, "Send 10 to Player#16"]),
    ("orders16", FORT + "Thanks, Red!", F4),
    ("orders16", FORT + "Cheers, Bob the Builder", F4),
    ("orders16", "Hi Red\n" + FORT, F4),
    ("orders16", FORT + "-- Alice", F4),
    ("orders16", FORT + "Alice (team Red)", "!'(team Red)' is none"),
]

# ---- a player named "Nobody": 'snitch nobody' says no Snitch, or a Snitch on Nobody? (NO_SNITCH)
NOBODY = [
    (
        "pirates16",
        FORT + "Snitch on Nobody",
        "!'Snitch on Nobody' could say no Snitch, or a Snitch on Nobody (Player#15)",
    ),
    ("pirates16", FORT + "snitch nobody", "!write 'Snitch Player#15' to snitch on Nobody"),
    ("pirates16", FORT + "Snitch: Nobody", "!or leave the line out for no Snitch"),
    ("pirates16", "Fortify P27, P28, P32, P1, snitch nobody", "!could say no Snitch, or a Snitch on Nobody"),
    ("pirates16", "Fortify P27, P28, P32, P1, no snitching", F4),  # names no player: no Snitch
    ("pirates16", FORT + "no snitch", F4),
    ("pirates16", FORT + "Snitch Player#15", [*F4, "Snitch Player#15"]),
    ("pirates16", FORT + "Snitch on March", [*F4, "Snitch Player#4"]),
    ("pirates16", FORT + "Snitch on Will", [*F4, "Snitch Player#3"]),
]

# ---- other players' names with typos or only a first name
TYPOS = [
    ("orders16", FORT + "Send 10 to Carlo", "!did you mean Carol?"),
    # a first name of one player only is said, never read as that player (was answered with the list of names only)
    ("orders16", FORT + "Send 10 to Bob", "!'Bob' is not a player like Player#2; did you mean Bob the Builder?"),
    ("orders16", "Support Bob in P29 from P28", "!did you mean Bob the Builder?"),
    ("t1_16", "Bid 10 (5 from Bob)", "!did you mean Bob the Builder?"),
    ("orders16", FORT + "Send 10 to sky", "!did you mean sky blue?"),  # Red's seat colour
    ("orders16", FORT + "Send 10 to Sybill", "!did you mean Sybil?"),
    ("orders16", FORT + "Send 10 to the Builder", "!did you mean Bob the Builder?"),
    ("orders16", FORT + "Send 10 to Bob the Buildr", "!did you mean Bob the Builder?"),
    ("orders16", FORT + "Send 10 to Reds", "!did you mean Red?"),
    (
        "orders16",
        "Support Rde in P29 from P28",
        "!'Rde' is not a player like Player#2 or one of Alice, Bob the Builder",
    ),
    ("orders16", "Support P2 in P29 from P28", "!'P2' is not a player like Player#2"),
    ("orders16", "Support player 2 in P29 from P28", ["Support! Player#2 in P29 from P28"]),
    ("orders16", "Support @Red#1234 in P29 from P28", "!'@Red#1234' is not a player"),
    ("t1_16", "Bid 10 (5 from Redd)", "!did you mean Red?"),
    ("t1_16", "Bid 10 (5 from red)", ["Bid 10 (5 from Player#2)"]),
    ("t1_16", "Bid 10 (5 from Red 5)", "!'Red 5' is not a player like Player#2; did you mean Red?"),
]

# ---- teams of 2 and 3: funding a team-mate (rules: 003 Team Games, Pooled $Realm)
TEAMS = [
    ("t1_16", "Bid 20 (10 from Red)\nFaction: Hodir", ["Bid 20 (10 from Player#2)", "Faction Hodir"]),
    ("t1_16", "Bid: 20 (10 from Player#2)\nIron Light", ["Bid 20 (10 from Player#2)", "Faction Iron Light"]),
    ("t1_16", "Bid 20 (10 from Will)\nHodir", "!pooled $Realm only comes from a team-mate"),
    ("t1_16", "Bid 20 (10 from my teammate)\nHodir", "!'my teammate' is not a player"),
    # amounts from one team-mate add up (docs/dm-syntax.md, Team games)
    ("t1_16", "Bid 20 (10 from Red, 5 from Red)\nHodir", ["Bid 20 (15 from Player#2)", "Faction Hodir"]),
    ("t1_16", "Bid 20 (10 from Red)\nBid 20 (10 from Red)\nHodir", ["Bid 20 (10 from Player#2)", "Faction Hodir"]),
    ("t1_16", "Bid 20 with 10 from Red\nHodir", "!unexpected 'with 10 from Red'"),
    ("t1_16", "Bid 20 (Red pays 10)\nHodir", "!expected the funding amount (a whole number), got 'Red'"),
    ("t1_16", "Bid 20, Red funds 10\nHodir", "!unexpected 'Red funds 10'"),
    ("t1_16", "Bid 20 (10 from Red)\nSend 10 to Red", "!not a choice for the bid step"),
    ("t1_16", "Bid 20 (10 from Alice)\nHodir", "!pooled $Realm only comes from a team-mate"),
    ("t1_16", "Bid 20 (10 from sky blue)\nHodir", ["Bid 20 (10 from Player#2)", "Faction Hodir"]),
    ("t1_12t3", "Bid 20 (10 from Red, 5 from Will)", ["Bid 20 (10 from Player#2, 5 from Player#3)"]),
    ("t1_12t3", "Bid 20 (10 from Red & 5 from Will)", ["Bid 20 (10 from Player#2, 5 from Player#3)"]),
    ("t1_12t3", "Bid 20 (10 from Red and Will)", "!'10 from Red and Will' gives one amount from two team-mates"),
    ("t1_12t3", "Bid 20 (10 each from Red and Will)", ["Bid 20 (10 from Player#2, 10 from Player#3)"]),  # round 7
    ("t1_12t3", "Bid 20 (10 from March)", "!pooled $Realm only comes from a team-mate"),
    ("t1_12t3", "Bid 20 (10 from Will)", ["Bid 20 (10 from Player#3)"]),
    ("t1_12t3", "Bid 20\n(10 from Will)", "!'(10 from Will)' on a line of its own is left out only as a remark"),
    (
        "cons12t3",
        "Buy 2 in P1 (50 from Red)\nBid 5 (10 from Will)",
        ["Buy 2 in P1.", "Bid 5 (50 from Player#2, 10 from Player#3)"],
    ),
    ("cons12t3", "Buy: 1, Bid: 5 (30 from Red)", ["Buy 1 in P1.", "Bid 5 (30 from Player#2)"]),
    (
        "cons12t3",
        "Buy 1 in P2 (30 from Red)\nBuy 1 in P1 (30 from Red)\nBid 0",
        ["Buy 1 in P2. 1 in P1.", "Bid 0 (60 from Player#2)"],
    ),  # added up, as docs/dm-syntax.md says
    ("cons12t3", "Buy 1 in P2 (30 from Red)\nBid 0", ["Buy 1 in P2.", "Bid 0 (30 from Player#2)"]),
    ("cons12t3", "Buy 1 in P2\nBid 5\nSend 10 to Red", "!not a choice for the Consolidation step"),
    ("cons12t3", "Buy 1 in P2\nBid all", "!could mean your $Realm before or after your purchases"),
    ("cons12t3", "Buy 1 in P12\nBid 5", "!you do not control P12"),  # Red's Province
    ("cons12t3", "Buy 1 in P2 for Red\nBid 5", "!expected the number of units to buy (a whole number), got 'for'"),
]

# ---- factions' abilities as players write them
ABILITIES = [
    ("t1_16", "Bid 10 (5 from Red)\nFaction: Kalu\u2019Ak", ["Bid 10 (5 from Player#2)", "Faction Kalu'Ak"]),
    ("t1_16", "Bid 10\nLannuvar", ["Bid 10", "Faction Lannuvár"]),
    ("t1_16", "Bid 10\nIron-Light", ["Bid 10", "Faction Iron Light"]),
    ("t1_16", "Bid 10\nthe Iron Light", "!unknown order 'the'"),
    ("t1_16", "Bid 10\nCenarion or Hodir", "!unknown order 'Cenarion'"),
    ("t1_16", "Bid 10\nFaction: Hodir (same as Red)", "!'(same as Red)' is no remark to leave out"),
    ("kal16", FORT + "Weather forecast", [*F4, "Weather forecast"]),  # the Event deck's top card (Tier 2)
    ("kal16", FORT + "Weather forecast: Event", "!unexpected 'Event'"),
    ("kal16", FORT + "Weather forecast: There be Dragons?", [*F4, "Weather forecast: There be Dragons?"]),
    ("kal16", FORT + "Weather Forecast - There Be Dragons", [*F4, "Weather forecast: There be Dragons?"]),
    ("cen16", "3 from P27\nFight fire with fire: 3", ["3 from P27", "Fight fire with fire: 3"]),
    (
        "cen16",
        "3 from P27\nFight fire with fire! x3",
        "!expected the number of Highmagisters (a whole number), got 'x3'",
    ),
    ("cen16", "3 from P27\nFight fire with fire: three", ["3 from P27", "Fight fire with fire: 3"]),
    ("cen16", "3 from P27\nFight fire with fire: 3 Highmagisters", "!unexpected 'Highmagisters'"),
    (
        "cen16",
        "3 from P27\nFight fire with fire: all",
        "!expected the number of Highmagisters (a whole number), got 'all'",
    ),
    ("cen16", "Fight fire with fire: 5\nTurn off the lights", "!the DM also says 'Turn off the lights'"),
    ("lan16", "The Bank of Lannuvar", ["The Bank of Lannuv\u00e1r"]),
    ("lan16", "Bank of Lannuv\u00e1r please", ["The Bank of Lannuv\u00e1r"]),
    ("lan16", "Bank", "!unknown order 'Bank'"),
    ("lan16", "The Bank of Lannuvar\n3 from P27", "!given instead of committing units: send it alone"),
    ("dragon16", "The Bank of Lannuvar", "!only a Lannuv\u00e1r player may"),
    ("bank16", "Bid 12", ["Bid 12"]),
    ("bank16", "Bank bid: 12", ["Bid 12"]),
    ("bank16", "12 $Realm please", ["Bid 12"]),
    ("bank16", "The Bank of Lannuvár\nBid 12", "!not a choice for the Bank of Lannuv\u00e1r bid step"),
    ("bank16", "Bid 12\nFaction: Lannuvar", "!factions are chosen with the turn-1 bid"),
    ("bank16", "Bid 12 (10 from Red)", "!pooled $Realm only comes from a team-mate"),
]

# ---- Dragon Attack commitments and Burns at 16 seats (rules: 003 Determine Protector US; Alice P27 3, P28 2, P30 1)
DRAGON = [
    ("dragon16", "3 from P27, 2 from P28", ["3 from P27", "2 from P28"]),
    ("dragon16", "commit 3 from p 27", ["3 from P27"]),
    ("dragon16", "3 from province 27 (sac 2)", ["3 from P27 (sac 2)"]),
    ("dragon16", "commit 3 from 27", "!like P27"),
    ("dragon16", "1) 3 from P27\n2) 2 from P28", ["3 from P27", "2 from P28"]),
    ("dragon16", "Turn off the lights\nBurn P30", ["Burn P30"]),
    ("dragon16", "Lights out\nburn province 30", ["Burn P30"]),
    ("dragon16", "Turn off the lights\nBurn P 30, P 28", ["Burn P30", "Burn P28"]),
    ("dragon16", "Turn off the lights, burn P 30 and P 28", ["Burn P30", "Burn P28"]),
    ("dragon16", "all from P 27 and P 28", ["3 from P27", "2 from P28"]),
    ("dragon16", "Turn off the lights\nBurn P29", "!P29 is not one of your green Provinces"),  # Red's
    ("dragon16", "Burn P30", ["Burn P30"]),  # commits nothing, as "Burn P5 and P6" (test_dm_corpus)
    ("dragon16", "Turn off the lights\nBurn 30", "!like P30"),
    ("dragon16", "1 from P30\nBurn P28", ["1 from P30", "Burn P28"]),
    ("dragon16", "commit 2 from P27\ncommit 1 from P27", "!two commitments from P27"),
    ("dragon16", "3 from P27\nSupport Red in P29 from P28", "!not a choice for the Dragon step"),
    ("dragon16", "Fortify P27\nFortify P28", "!not a choice for the Dragon step"),
    ("dragon16", "Commit 2 from P29", "!you do not control P29"),  # Red's
    ("dragon16", "3 from P27 (2 from Red)", "!pools $Realm, which goes only with a bid or a purchase"),
    # an order's word alone over its orders is a header, as "Commitments:" is (was refused: "expected the unit count
    # after 'Commit', ... but the line ends"; assumption ORDER_WORD_HEADER)
    ("dragon16", "**Commit:**\n- 3 from P27\n- 2 from P28", ["3 from P27", "2 from P28"]),
    ("dragon16", "I commit:\n3 from P27, 2 from P28", ["3 from P27", "2 from P28"]),
    ("dragon16", "Commit:\nTurn off the lights", "!expected the unit count after 'Commit'"),
    ("dragon16", "Commit:\n\nBurn P30", "!expected the unit count after 'Commit'"),
    ("dragon16", "Commit:", "!expected the unit count after 'Commit'"),
    ("dragon16", "Commit\n3 from P27", "!expected the unit count after 'Commit'"),  # no colon: an order cut short?
    ("cons12t3", "Buy:\n- 1 in P2\n- 1 in P1\nBid 5", ["Buy 1 in P2. 1 in P1.", "Bid 5"]),
    ("cons12t3", "Buy:\nBid 5", "!expected the number of units to buy"),
    ("dragon16", "3 from P27 & 2 from P28 + 1 from P30", ["3 from P27", "2 from P28", "1 from P30"]),
    ("dragon16", "3\u00a0from\u00a0P27", ["3 from P27"]),
    ("dragon16", "three from P27", ["3 from P27"]),
    ("dragon16", "3 from P27 \U0001f409\U0001f525", ["3 from P27"]),
]

# ---- pasted from a phone: smart quotes, non-breaking spaces, bullets, numbered lists, Discord markdown, quotes, code
PHONE = [
    ("orders16", "\u2022\u00a0Fortify P27\n\u2022\u00a0Fortify P28", ["Fortify! P27", "Fortify! P28"]),
    (
        "orders16",
        "1) Fortify P27\n2) Work P28\n3) Golden March 2 from P32 to P31",
        ["Fortify! P27", "Work, work! P28", "Golden March! 2 from P32 to P31"],
    ),
    ("orders16", "1. Fortify P27\n2. Work P28", ["Fortify! P27", "Work, work! P28"]),
    # a list numbered '(1)', lettered 'a)' or in Roman numerals 'ii)' (were refused: "not a choice for the orders step",
    # "unknown order 'b)'"; 'a)' and 'i)' alone were read, their letter taken for a filler word)
    ("orders16", "(1) Fortify P27\n(2) Work P28", ["Fortify! P27", "Work, work! P28"]),
    ("orders16", "a) Fortify P27\nb) Work P28", ["Fortify! P27", "Work, work! P28"]),
    ("orders16", "i) Fortify P27\nii) Work P28\niii) Fortify P32", ["Fortify! P27", "Work, work! P28", "Fortify! P32"]),
    ("dragon16", "(1) 3 from P27\n(2) 2 from P28", ["3 from P27", "2 from P28"]),
    ("t1_16", "Bid 20\n(30) Thanks!", "!line 2 starts with '(30)' but holds no order: is 30 a bid"),
    ("t1_16", "(1) Bid 20\n(2) Hodir", ["Bid 20", "Faction Hodir"]),
    ("t1_16", "Bid 20\n(30)", "!'(30)' is an order in brackets"),
    ("orders16", "#1 Fortify P27", "!unknown order '#1'"),
    ("orders16", "**March!** 2 from **P27** to **P26**", ["March! 2 from P27 to P26"]),
    ("orders16", "> Fortify P27\n> Work P28", ["Fortify! P27", "Work, work! P28"]),
    ("orders16", "```\nFortify P27\nWork P28\n```", ["Fortify! P27", "Work, work! P28"]),
    ("orders16", "`Fortify P27`", ["Fortify! P27"]),
    ("orders16", "Send 10 to \u201cRed\u201d\n" + FORT, [*F4, "Send 10 to Player#2"]),
    ("orders16", "Support \u2018Red\u2019 in P29 from P28", ["Support! Player#2 in P29 from P28"]),
    ("orders16", "Fortify\u00a0P27\u00a0\n\u00a0Work\u00a0P28", ["Fortify! P27", "Work, work! P28"]),
    ("orders16", "Fortify\u202fP27", ["Fortify! P27"]),
    ("orders16", "Fortify P27\u2028Work P28", ["Fortify! P27", "Work, work! P28"]),
    ("orders16", "Fortify P27\r\nWork P28\r\n", ["Fortify! P27", "Work, work! P28"]),
    ("orders16", "\u2014 Fortify P27\n\u2014 Work P28", ["Fortify! P27", "Work, work! P28"]),
    ("orders16", "\u25aa\ufe0f Fortify P27\n\u25aa\ufe0f Work P28", ["Fortify! P27", "Work, work! P28"]),
    ("orders16", "\u2714\ufe0f Fortify P27", ["Fortify! P27"]),
]

# ---- another language's punctuation: a space before ':' and '!', « », ¡ ¿, full-width marks, a decimal comma
PUNCTUATION = [
    ("orders16", "Fortify ! P27", ["Fortify! P27"]),
    ("orders16", "March ! 2 from P27 to P26", ["March! 2 from P27 to P26"]),
    ("t1_16", "Bid : 20\nFaction : Hodir", ["Bid 20", "Faction Hodir"]),
    ("t1_16", "Bid\u202f: 20\nFaction\u202f: Hodir", ["Bid 20", "Faction Hodir"]),
    ("orders16", "\u00ab Fortify P27 \u00bb", ["Fortify! P27"]),
    # a Spanish '¡' opens an exclamation and '¿' a question (were refused as "unknown order '¡Fortify'"); '、' lists
    ("orders16", "\u00a1Fortify P27!", ["Fortify! P27"]),
    ("orders16", "\u00a1Fortify P27, P28!", ["Fortify! P27", "Fortify! P28"]),
    ("t1_16", "\u00bfBid 20?", "!has a question mark"),
    ("t1_16", "\u00bfBid 20\nHodir", "!has a question mark"),
    ("orders16", "\u00bfFortify P27 o P28?", "!unexpected 'o P28'"),
    ("orders16", "Fortify P27\uff0cP28", ["Fortify! P27", "Fortify! P28"]),  # a full-width comma
    ("orders16", "Fortify P27\u3001P28", ["Fortify! P27", "Fortify! P28"]),  # an ideographic comma
    ("orders16", "Fortify P27\u3002Work P28\u3002", ["Fortify! P27", "Work, work! P28"]),
    ("orders16", "Fortify P27\u3001Work P28", ["Fortify! P27", "Work, work! P28"]),
    ("t1_16", "Bid\uff1a20\nHodir", ["Bid 20", "Faction Hodir"]),
    ("t1_16", "Bid 20,5\nHodir", "!the bid must be a whole number, got '20,5'"),
    ("t1_16", "Bid 1.000\nHodir", "!write a thousand as 1000 or 1,000"),
    # a space as a thousands separator (were refused as "unexpected '000' at the end of the order")
    ("t1_16", "Bid 1 000\nHodir", "!'1 000' could be 1 or 1000: write a number without spaces, like 1000 or 1,000"),
    ("t1_16", "Bid 1\u00a0000\nHodir", "!'1 000' could be 1 or 1000"),
    ("t1_16", "Bid 1\u202f000\nHodir", "!'1 000' could be 1 or 1000"),
    ("bank16", "Bid 1 000 $Realm", "!'1 000' could be 1 or 1000"),
    ("t1_16", "Bid 10 00\nHodir", "!unexpected '00'"),
    ("orders16", "Fortify P27 ; Work P28", ["Fortify! P27", "Work, work! P28"]),
    ("orders16", "Fortify P27 \u2013 Work P28", ["Fortify! P27", "Work, work! P28"]),
]

# ---- orders split across lines: refused, the answer saying the next line does not go on with the order (it said only
# "... but the line ends")
CUT = "; an order is read within its line, and the next line does not go on with it: write the order whole on one line"
SPLIT = [
    ("orders16", "March 2 from P27\n\n// to P26", "!expected 'to' after the source province, but the line ends"),
    ("orders16", "March 2 from P27\nto P26", "!expected 'to' after the source province, but the line ends" + CUT),
    ("orders16", "March 2\nfrom P27 to P26", "!expected 'from' after the unit count, but the line ends" + CUT),
    ("orders16", "Support Red\nin P29 from P28", "!expected the supported province like P3, but the line ends" + CUT),
    ("orders16", "Fortify\nP27", "!expected the province like P3, but the line ends" + CUT),
    ("orders16", "Fortify P27,\nP28", "!unknown order 'P28'"),
    ("orders16", "Fortify P27 and\nWork P28", "!unexpected 'and' at the end of the order"),
    ("t1_16", "Bid\n20", "!expected the bid (a whole number), but the line ends" + CUT),
    ("t1_16", "Bid 20 (10\nfrom Red)", "!unexpected '10' at the end of the order"),
    ("dragon16", "3 from\nP27", "!expected the province like P3, but the line ends" + CUT),
]

# ---- a DM answering the previous turn's (or step's) question
PREVIOUS = [
    ("orders16", "Bid 12", "!not a choice for the orders step"),
    ("orders16", "Buy 2 in P27\nBid 5", "!not a choice for the orders step"),
    ("orders16", "3 from P27", "!not a choice for the orders step"),
    ("orders16", "Turn off the lights", "!is a choice for a Dragon attack"),
    ("orders16", "Turn 5 orders:\nFortify P27", "!this DM is headed for turn 5"),
    ("dragon16", "Fortify P27", "!not a choice for the Dragon step"),
    ("cons12t3", "Fortify P1\nWork P2", "!not a choice for the Consolidation step"),
    ("cons12t3", "Commit 1 from P2", "!not a choice for the Consolidation step"),
    ("bank16", "Buy 1 in P1\nThe Bank of Lannuvar", "!not a choice for the Bank of Lannuv\u00e1r bid step"),
    ("t1_16", "Fortify P27", "!not a choice for the bid step"),
    ("t1_16", "Turn 2 bid: 10\nHodir", "!this DM is headed for turn 2"),
]

# ---- the GM forwarding a player's DM with its header
FWD = "---------- Forwarded message ---------\nFrom: {}\nDate: Mon, 3 Nov 2026\nSubject: orders\nTo: GM <gm@x.org>\n\n"
# rules: 003 Each Turn -- a DM gives its sender's choices: a forward's header at the top says whose the orders below it
# are (were refused: "unknown order 'From:'", or "the DM holds no order (line 1 is an earlier message)"; assumption
# FORWARD_HEADER)
FORWARDED = [
    ("orders16", "From: Alice\n" + FORT, F4),
    ("orders16", "**From:** Alice\n\n" + FORT, F4),
    ("orders16", "From: Player#1\n" + FORT, F4),
    ("orders16", "From: Red\n" + FORT, "!'From: Red' names Player#2"),
    ("orders16", "From: Bob the Builder\n" + FORT, "!names Player#5"),
    ("orders16", "From: Al\n" + FORT, "!'From: Al' heads a forwarded message but names no player of this game"),
    ("orders16", "From: Alice\nSent: Monday, 3 November 2026 10:00\nTo: GM\n" + FORT, F4),
    ("orders16", "From: Red\nSent: Monday, 3 November 2026 10:00\nTo: GM\n" + FORT, "!names Player#2"),
    ("orders16", FWD.format("Alice <alice@example.org>") + FORT, F4),
    ("orders16", FWD.format("alice@example.org") + FORT, F4),
    ("orders16", FWD.format("Red <red@example.org>") + FORT, "!names Player#2"),
    ("orders16", FWD.replace("Subject: orders", "Subject: turn 5 orders").format("Alice") + FORT, "!headed for turn 5"),
    ("orders16", "From: Alice\nSubject: orders for Red\n" + FORT, "!names Player#2"),
    # an earlier message quoted in the forward, below the orders, is still left out
    ("orders16", "From: Alice\n" + FORT + "\nFrom: GM\nSent: Sunday\nSend your orders\nFortify P1", F4),
    # not at the top: an earlier message, as before (dm_email)
    ("orders16", FORT + "\nFrom: Red\nSent: Sunday\nWork P1", F4),
    ("orders16", "From: Alice", "!the DM holds no order"),
    ("orders16", "Hi GM\nFrom: Alice\n" + FORT, "!unknown order 'From:'"),
    ("orders16", "Alice wrote:\n" + FORT, "!'Alice' is a player's name"),
    ("orders16", "Red wrote:\n" + FORT, "!'Red' is a player's name"),
    ("orders16", "Alice: " + FORT, "!'Alice' is a player's name"),
    ("orders16", "Red: Fortify P27", "!'Red' is a player's name"),
    # a chat line with its time and the sender as speaker is the sender's line (CHAT_HEADER; test_dm_messy_round5)
    ("orders16", "[10:02] Alice: Fortify P27", ["Fortify! P27"]),
    ("orders16", "DM from Alice:\n" + FORT, F4),
    ("orders16", "DM from Red:\n" + FORT, "!names Player#2"),
    ("orders16", "Orders from Bob the Builder:\n" + FORT, "!names Player#5"),
    ("orders16", "Orders from Nobody:\n" + FORT, "!names Player#15"),
    ("orders16", "Orders from R2D2:\n" + FORT, "!names Player#8"),
    ("orders16", "Orders from Grace:\n" + FORT, "!names Player#11"),
    ("orders16", "Orders from March:\n" + FORT, "!names Player#4"),
    # another player's name alone on a line, over the orders (a channel's messages pasted: "Red:") or under them ("--
    # Red"): that player's DM? (were left out as a signature, and the orders stored as Alice's; OTHER_SEAT_HEADER)
    ("orders16", "Red:\n" + FORT, "!'Red:' names Player#2: a DM gives the orders of the player who sends it"),
    ("orders16", "**Red**\n" + FORT, "!'Red' names Player#2"),
    ("orders16", "# Bob the Builder\n" + FORT, "!names Player#5"),
    ("orders16", "Player#2:\n" + FORT, "!names Player#2"),
    ("orders16", "sky blue:\n" + FORT, "!names Player#2"),  # Red's colour
    ("orders16", "March\n" + FORT, "!'March' names Player#4"),
    ("orders16", FORT + "-- Red", "!'-- Red' names Player#2"),
    ("orders16", FORT + "Red", "!names Player#2"),
    ("t1_16", "Red:\nBid 20\nHodir", "!names Player#2"),
    ("dragon16", "3 from P27\n~ Will", "!names Player#3"),
    ("orders16", FORT + "-- Red Five", F4),  # no player's name whole: a signature
    # the sender's own name, and a thank-you or greeting to another player, stay left out
    ("orders16", "Alice:\n" + FORT, F4),
    ("orders16", "indigo\n" + FORT, F4),  # Alice's seat colour
    ("orders16", FORT + "Cheers, Red", F4),
    ("orders16", "Hi Red\n" + FORT, F4),
    ("orders16", "March orders:\n" + FORT, "!'March orders:' names Player#4"),  # March's, or the March! orders?
    ("orders16", "Team orders (Alice + Red):\n" + FORT, "!unknown order 'Team'"),
]

CASES = (
    PROVINCES
    + GOLDEN
    + NAMES_LIKE_WORDS
    + NOBODY
    + TYPOS
    + TEAMS
    + ABILITIES
    + DRAGON
    + PHONE
    + PUNCTUATION
    + SPLIT
    + PREVIOUS
    + FORWARDED
)


@pytest.mark.parametrize(("game", "dm", "want"), CASES)
def test_a_messy_dm(game, dm, want):
    _check(_store_in(GAMES[game](), dm), want)


def test_a_dm_forwarded_from_another_player_is_refused_whole_even_leniently():
    # lenient mode drops refused lines: dropping "From: Red" would store Red's orders as Alice's (dm_forward.forwarded)
    g = GAMES["orders16"]()
    with pytest.raises(RegentError, match="names Player#2"):
        g.submit_dm("Player#1", "From: Red\nFortify P27", lenient=True)
    assert g.submit_dm("Player#1", "From: Alice\nFortify P27", lenient=True).lines == ["Fortify! P27"]


@pytest.mark.parametrize(
    ("dm", "want"),
    [
        ("Fortify P27\nThanks!", ["Fortify! P27"]),
        ("Fortify P27\nthanks", ["Fortify! P27"]),
        ("Fortify P27\n-- Will", "!'-- Will' names Player#3"),
    ],
)
def test_a_name_that_is_also_a_thank_you_is_a_thank_you_alone_on_its_line(dm, want):
    # a player called Thanks: "Thanks!" under the orders is a thank-you, never that player's signature; a name that
    # is no thank-you signs the DM (dm_whose.other_seat)
    g = _named(orders16(), [*NAMES[:8], "Thanks", *NAMES[9:]])
    try:
        got: list[str] | RegentError = g.submit_dm("Player#1", dm).lines
    except RegentError as err:
        got = err
    _check(got, want)


def test_the_round_covers_every_step_in_big_games_with_the_options_on():
    games = {game for game, _, _ in CASES}
    assert {GAMES[g]().step for g in games} == {"bid", "bank_bid", "orders", "dragon", "consolidation"}
    assert all(len(GAMES[g]().state.players) >= 12 for g in games)
