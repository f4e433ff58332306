"""A round of DMs as players really type them on Discord, in big games with the options on: 10-16 seats, the Grand
board, factions, the Island, teams, mid-game. Typos, odd casing, emoji, several orders on one line, abbreviations,
nicknames, numbers in words, currency signs, corrections, chat and notes to the GM.

Each case is driven through ``Game.submit_dm`` for Player#1 (Alice) and says what must be stored (the canonical lines)
or why it must be refused ("!fragment" of the reason). A refusal must name what was wrong and how to write it; a DM
is never read as something its player did not mean.
"""

from __future__ import annotations

import pytest

from engine.errors import RegentError
from engine.protectors.game import Game
from tests.protectors.helpers import dragon_attack, position

NAMES = ["Alice", "Bob", "Carol", "Dan", "Eve", "Frank", "Grace", "Heidi", "Ivan", "Judy", "Mallory", "Niaj",
         "Olivia", "Peggy", "Rupert", "Sybil"]
NICKS = {"Ali": "Player#1", "Bobby": "Player#2", "Caz": "Player#3", "Danny": "Player#4", "Mal": "Player#11"}
# display names as GMs get them: punctuation, two words, an emoji, a word that is also money, a colour's name
ODD = ["Alice", "Max", "Rose", "Dr. Who", "Jean-Luc", "xX_Slayer_Xx", "Gold", "Ann Marie", "Al", "Will",
       "Bob \U0001F409", "Zoë", "Mr Smith", "Sam"]
SEATS = [f"Player#{i}" for i in range(1, 17)]


def _named(game: Game, names: list[str]) -> Game:
    """``game`` set up again with display names in its setup, as a GM gives them (cards in play kept)."""
    cards = game.state.cards_this_turn
    for spec, name in zip(game.setup["players"], names, strict=False):
        spec["name"] = name
    out = Game(game.setup)
    out.state.cards_this_turn = cards
    return out


def t1_12():
    """Turn 1 of a 12-seat Grand game with the Island and factions: the bid and the faction."""
    return Game({"board": "ring-12-grand+island", "seed": 3, "options": {"factions": True},
                 "players": [{"seat": s, "name": n} for s, n in zip(SEATS[:12], NAMES, strict=False)]})


def t1_16t():
    """Turn 1 of a 16-seat team game (four teams of four): bids pool $Realm from team-mates."""
    return Game({"board": "ring-16", "seed": 3, "options": {"teams": True},
                 "players": [{"seat": s, "name": n, "team": "ABCD"[i // 4]}
                             for i, (s, n) in enumerate(zip(SEATS, NAMES, strict=True))]})


def orders14(cards=(), names=NAMES):
    """Turn 6 of a 14-seat Grand game (P1..P28) with factions. Alice: P1 3 units, P2 2, P5 3, P28 1; Bob P3, Carol P4,
    each other player one Province (P7, P9, ... P25, P26), 60 $Realm each."""
    provs = {"P1": ("Player#1", 3), "P2": ("Player#1", 2), "P28": ("Player#1", 1), "P5": ("Player#1", 3)}
    free = [f"P{k}" for k in (3, 4, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 26)]
    for seat, prov in zip(SEATS[1:14], free, strict=True):
        provs[prov] = (seat, 2)
    factions = ["Hodir", "Cenarion", "Iron Light", "Lannuvár", "Kalu'Ak"] * 3
    g = position("ring-14-grand", 14, provs, turn=6, ranking=SEATS[:14], realm=dict.fromkeys(SEATS[:14], 60),
                 options={"factions": True}, factions=dict(zip(SEATS[:14], factions, strict=False)), cards=cards)
    return _named(g, names)


def island10():
    """Turn 4 of a 10-seat game with the Island: Alice holds the Island P0 (1 unit), P1 (3) and P10 (1)."""
    provs = {"P0": ("Player#1", 1), "P1": ("Player#1", 3), "P10": ("Player#1", 1)}
    for i in range(2, 10):
        provs[f"P{i}"] = (f"Player#{i}", 2)
    g = position("ring-10+island", 10, provs, turn=4, ranking=SEATS[:9], realm=dict.fromkeys(SEATS[:9], 40))
    return _named(g, NAMES)


def team16():
    """Turn 5 of a 16-seat team game: Alice P1 (3 units), everyone else one Province of 2, 50 $Realm each."""
    provs = {f"P{i}": (f"Player#{i}", 2) for i in range(1, 17)}
    provs["P1"] = ("Player#1", 3)
    g = position("ring-16", 16, provs, turn=5, options={"teams": True}, teams=[t for t in "ABCD" for _ in range(4)],
                 realm=dict.fromkeys(SEATS, 50))
    return _named(g, NAMES)


def dragon12():
    """A Dragon attack at turn 7 of a 12-seat game (three seats out): Alice holds P5 (1 unit), P6 (3), P7 (2)."""
    provs = {"P5": ("Player#1", 1), "P6": ("Player#1", 3), "P7": ("Player#1", 2)}
    for i in range(2, 10):
        provs[f"P{(i + 6) % 12 + 1}"] = (f"Player#{i}", 2)
    g = position("ring-12", 12, provs, turn=7, realm=dict.fromkeys(SEATS[:12], 20))
    return dragon_attack(_named(g, NAMES), 3)


def cons12():
    """Turn 6's Consolidation in a 12-seat game: Alice holds P5 (2 units), P6 (1), P7 (3) and 200 $Realm."""
    provs = {"P5": ("Player#1", 2), "P6": ("Player#1", 1), "P7": ("Player#1", 3)}
    for i in range(2, 13):
        provs.setdefault(f"P{(i + 7) % 12 + 1}", (f"Player#{i}", 1))
    g = position("ring-12", 12, provs, turn=6, phase="consolidation",
                 realm={**dict.fromkeys(SEATS[:12], 30), "Player#1": 200})
    return _named(g, NAMES)


def cons16t():
    """Turn 5's Consolidation in a 16-seat team game: Alice holds P1 (1 unit) and 90 $Realm, the others 40."""
    provs = {f"P{i}": (f"Player#{i}", 1) for i in range(1, 17)}
    g = position("ring-16", 16, provs, turn=5, phase="consolidation", options={"teams": True},
                 teams=[t for t in "ABCD" for _ in range(4)], realm={**dict.fromkeys(SEATS, 40), "Player#1": 90})
    return _named(g, NAMES)


def rebid10():
    """The turn-1 re-bid of a 10-seat game: Alice and Carol tied."""
    return Game({"board": "ring-10", "seed": 1,
                 "players": [{"seat": s, "name": n} for s, n in zip(SEATS[:10], NAMES, strict=False)],
                 "position": {"turn": 1, "step": "rebid",
                              "provinces": {f"P{i}": {"owner": f"Player#{i}", "units": 1} for i in range(1, 11)},
                              "ranking": ["Player#2", "Player#1", *SEATS[2:10]],
                              "realm": dict.fromkeys(SEATS[:10], 35), "rebid_groups": [["Player#1", "Player#3"]]}})


def bank12():
    """The Bank of Lannuvár's late bid at turn 5 of a 12-seat game: Alice (Lannuvár) holds 45 $Realm."""
    provs = {f"P{i}": {"owner": f"Player#{i}", "units": 2} for i in range(1, 13)}
    return Game({"board": "ring-12", "seed": 1, "options": {"factions": True},
                 "players": [{"seat": s, "name": n} for s, n in zip(SEATS[:12], NAMES, strict=False)],
                 "position": {"turn": 5, "step": "bank_bid", "provinces": provs, "factions": {"Player#1": "Lannuvár"},
                              "effects": {"Player#1": ["bank_bid"]}, "bids": {s: 3 for s in SEATS[1:12]},
                              "realm": {**dict.fromkeys(SEATS[1:12], 20), "Player#1": 45}}})


GAMES = {"t1_12": t1_12, "t1_16t": t1_16t, "orders14": orders14, "pirates14": lambda: orders14(("Pirates!",)),
         "odd14": lambda: orders14(names=ODD), "oddp14": lambda: orders14(("Pirates!",), names=ODD),
         "island10": island10, "team16": team16, "dragon12": dragon12, "cons12": cons12, "cons16t": cons16t,
         "rebid10": rebid10, "bank12": bank12}
F4 = ["Fortify! P1", "Fortify! P2", "Fortify! P5", "Fortify! P28"]  # Alice's four Provinces in orders14, fortified
FORT = "Fortify P1, P2, P5, P28\n"

CASES = [
# ---- turn 1: the bid and the faction (12 seats, Grand, the Island, factions)
("t1_12", "heyy gm \U0001F44B bid 12 and i'll take hodir pls", "!unknown order 'heyy'"),
("t1_12", "hey gm \U0001F44B bid 12. I'll take hodir pls", ["Bid 12", "Faction Hodir"]),
("t1_12", "bid $12", ["Bid 12"]),
("t1_12", "bidding twelve gold", ["Bid 12"]),
("t1_12", "Bid 12 // sorry if late", ["Bid 12"]),
("t1_12", "Bid 10 actually make that 12", "!'actually make that 12' reads as a correction, or as taking an order"),
("t1_12", "Bid 10.\n\nHodir!!", ["Bid 10", "Faction Hodir"]),
("t1_12", "bid 10 kalu'ak", "!unexpected \"kalu'ak\" at the end of the order"),
("t1_12", "BID 10 // FACTION: HODIR", "!reads as an order itself"),  # a note, or the faction? (ORDER_IN_NOTE)
("t1_12", "Iron light, bid 7", ["Bid 7", "Faction Iron Light"]),
("t1_12", "bid 7, faction Iron-Light", ["Bid 7", "Faction Iron Light"]),
("t1_12", "bid 7\nfaction: Ironlight", ["Bid 7", "Faction Iron Light"]),
("t1_12", "bid 7\nfaction: Lannuvar", ["Bid 7", "Faction Lannuvár"]),
("t1_12", "bid 7\nfaction: Lanuvar", "!unknown faction 'Lanuvar'; expected one of"),
("t1_12", "bid 7\nfaction: Cenarian", "!unknown faction 'Cenarian'"),
("t1_12", "Bid: 7 realm\nFaction: Kaluak", ["Bid 7", "Faction Kalu'Ak"]),
("t1_12", "bid 7 realms", ["Bid 7"]),
("t1_12", "bid 7$", ["Bid 7"]),
("t1_12", "bid: seven", ["Bid 7"]),
("t1_12", "Bid 0 lol", "!unexpected 'lol'"),
("t1_12", "pass", ["Bid 0"]),
("t1_12", "skip", "!unknown order 'skip'"),
("t1_12", "same as last turn", "!unknown order 'same'"),
("t1_12", "bid 7 please and thank you", "!unexpected 'please and thank you'"),
("t1_12", "Bid 7!\nFaction: Hodir!\nGood luck everyone!", ["Bid 7", "Faction Hodir"]),
("t1_12", "ok bid 7", ["Bid 7"]),
("t1_12", "Bid 7-8", "!expected the bid (a whole number), got '7-8'"),
("t1_12", "Bid 07", ["Bid 7"]),
("t1_12", "bid 1O", "!got '1O'"),
("t1_12", "bid €10", "!got '€10'"),
("t1_12", "Bid 10 (5 from Bob)", "!pooled $Realm only comes from a team-mate in a team game"),
("t1_12", "My bid:\n10", ["Bid 10"]),
("t1_12", "Bid\n10", "!expected the bid (a whole number), but the line ends"),
# ---- turn 1 of a 16-seat team game: pooling
("t1_16t", "Bid 10 (5 from Bob)", ["Bid 10 (5 from Player#2)"]),
("t1_16t", "Bid 10 (5 from bobby)", "!'bobby' is not a player like Player#2; did you mean Bob?"),
("t1_16t", "Bid 10 + 5 from Bob", "!unexpected '+ 5 from Bob'"),
("t1_16t", "bid 10 (5 from Bob and 5 from Carol)", ["Bid 10 (5 from Player#2, 5 from Player#3)"]),
("t1_16t", "bid 10 ($5 from Bob)", ["Bid 10 (5 from Player#2)"]),
("t1_16t", "bid 10 (five from Bob)", ["Bid 10 (5 from Player#2)"]),
("t1_16t", "bid 10 (5 from Eve)", "!pooled $Realm only comes from a team-mate"),
("t1_16t", "bid 10 (Bob 5)", "!expected the funding amount (a whole number), got 'Bob'"),
# ---- orders: 14 seats, Grand board, factions (Alice: P1 3 units, P2 2, P5 3, P28 1)
("orders14", "March 2 from P1 to P28, fortify P2, work P5",
 ["March! 2 from P1 to P28", "Fortify! P2", "Work, work! P5"]),
("orders14", "march 2 p1 to p28\nfortify p2 p5", "!'p5' after 'Fortify! P2' is no list"),  # round 7
("orders14", "P1: fortify\nP2: fortify", "!unknown order 'P1:'"),
("orders14", "Fortify P1, P2, P5 and P28", F4),
("orders14", "fortify p1,p2,p5,p28", F4),
("orders14", "Fortify P1 & P2 & P5 & P28", F4),
("orders14", "fortify p1 p2 p5 p28", "!'p2 p5 p28' after 'Fortify! P1' is no list"),  # round 7
("orders14", "Same orders as last turn pls", "!unknown order 'Same'"),
("orders14", "Golden march 3 from P5 to P4\nfortify P1\nwork P2, P28",
 ["Golden March! 3 from P5 to P4", "Fortify! P1", "Work, work! P2", "Work, work! P28"]),
("orders14", "Support Bob in P3 from P2\nfortify p1, p5, p28",
 ["Support! Player#2 in P3 from P2", "Fortify! P1", "Fortify! P5", "Fortify! P28"]),
("orders14", "Support Bob P3\nfortify p1, p5, p28", "!say which Province gives it: 'from P..'"),
("orders14", "Support P3 from P2\nfortify p1 p5 p28", "!expected a player like Player#2, got 'P3'"),
("orders14", "march 3 from p1 to p2\nmarch 2 from p2 to p3\nfortify p5\nfortify p28",
 ["March! 3 from P1 to P2", "March! 2 from P2 to P3", "Fortify! P5", "Fortify! P28"]),
("orders14", "March! 3 P1 \u2192 P28\nFortify P2\nFortify P5",
 ["March! 3 from P1 to P28", "Fortify! P2", "Fortify! P5"]),
("orders14", "March! 3 P1 => P28\nFortify P2\nFortify P5", ["March! 3 from P1 to P28", "Fortify! P2", "Fortify! P5"]),
("orders14", "March! three from P1 to P28\nFortify P2\nFortify P5",
 ["March! 3 from P1 to P28", "Fortify! P2", "Fortify! P5"]),
("orders14", "Attack P3 with 2 from P2\nFortify P1", "!unknown order 'Attack'"),
("orders14", "March! 2 from P2 to P3 (attacking Bob)\nFortify P1", ["March! 2 from P2 to P3", "Fortify! P1"]),
("orders14", "March! 2 from P2 to P3 // attacking Bob\nFortify P1", ["March! 2 from P2 to P3", "Fortify! P1"]),
("orders14", "March 2 from P2 to P3 and fortify P1 and work P5",
 ["March! 2 from P2 to P3", "Fortify! P1", "Work, work! P5"]),
("orders14", "March 2 from P2 to P3. Fortify P1. Work P5. Fortify P28.",
 ["March! 2 from P2 to P3", "Fortify! P1", "Work, work! P5", "Fortify! P28"]),
("orders14", "Fortify P1\nFortify P1 actually no, work P1", "!'actually no' reads as a correction"),
("orders14", "fortify p1\n~~work p2~~ fortify p2", "!struck-out text"),
("orders14", "fortify p1/p2", "!'p1/p2' joins Provinces with '/'"),  # one order per Province (round 7)
("orders14", "fortiy p1\nfortify p2", "!did you mean Fortify!?"),
("orders14", "Fortfiy P1", "!did you mean Fortify!?"),
("orders14", "work work p1\nwork, work p2\nWORK WORK P5\nWork work! P28",
 ["Work, work! P1", "Work, work! P2", "Work, work! P5", "Work, work! P28"]),
("orders14", "golden work work p1, fortify p2", ["Golden Work, work! P1", "Fortify! P2"]),
("orders14", "Golden! Fortify P1", ["Golden Fortify! P1"]),
("orders14", "Fortify P1 golden", "!unexpected 'golden'"),
# brackets that are no remark: the refusal says which word keeps them from being one, and never speaks of team pooling
# where nothing pools (it said "brackets after an order are read as team pooling ... got 'golden'" in the orders)
("orders14", "Fortify P1 (golden)\nWork P2", "!'(golden)' is none ('golden' is a word orders are made of)"),
("orders14", "march 1 from p2 to p3 (delayed)\nfortify p1", "!'delayed' is a word orders are made of"),
("orders14", "March! 2 from P1 to P28 (if Bob doesn't attack)", "!'if' could take the order back or make it depend"),
("island10", "march 2 from p1 to p0 (the island)\nfortify p10", "!'island' names a Province); send the order without"),
("dragon12", "commit 3 from P6 (all of them)", ["3 from P6"]),  # 3 is all of them
("dragon12", "commit 2 from P6 (all of them)", "!beside a remark"),
("t1_12", "Bid: 12\nfaction: hodir (if taken then cenarion)", "!is no remark to leave out ('if' could take the order"),
("cons12", "buy 2 in p6\nbid 15 (maybe 20)", "!'maybe' could take the order back"),
("rebid10", "bid 10 (up from 5)", "!'(up from 5)' is no remark to leave out ('from' is a word orders"),
("bank12", "Bid 20 (bank)", "!'bank' is a word orders are made of"),
("orders14", "Delay march 1 from p2 to p3", "!did you mean Delayed?"),
("orders14", "delayed move 1 p2 to p3", ["Delayed March! 1 from P2 to P3"]),
("orders14", "march all but one from p1 to p28", "!got 'but'"),
("orders14", "move all units from P1 into P28\nfortify p2", ["March! 3 from P1 to P28", "Fortify! P2"]),
("orders14", "march 2 from p1 to p 28", ["March! 2 from P1 to P28"]),
("orders14", "march 2 from p1 to province #28", ["March! 2 from P1 to P28"]),
# a Province's number in words after 'Province' or 'Prov', one to twelve (was refused: "'province' is not a province")
("orders14", "move 2 from prov 1 to prov 28\nfortify province two\nwork p5\nfortify p28",
 ["March! 2 from P1 to P28", "Fortify! P2", "Work, work! P5", "Fortify! P28"]),
("orders14", "fortify Province Five and prov. one", ["Fortify! P5", "Fortify! P1"]),
("dragon12", "commit 3 units from province six", ["3 from P6"]),
("cons12", "buy two in province six\nbid 15", ["Buy 2 in P6.", "Bid 15"]),
("orders14", "fortify province twenty", "!write it in digits, like P20"),  # past twelve: in digits
("orders14", "march 2 from p1 to p28 pls\nfortify p2 thx", ["March! 2 from P1 to P28", "Fortify! P2"]),
("orders14", "March 2 from P1 to P28 \U0001F44D\nFortify P2 \U0001F6E1\ufe0f",
 ["March! 2 from P1 to P28", "Fortify! P2"]),
("orders14", "March 2 from P1 to P28\nFortify P2\nCheers m8", "!starts like a thank-you or sign-off but says more"),
("orders14", "March 2 from P1 to P28\nFortify P2\n\nGL everyone", ["March! 2 from P1 to P28", "Fortify! P2"]),
("orders14", "March 2 from P1 to P28\nFortify P2\nlmk if anything is wrong", "!unknown order 'lmk'"),
("orders14", "march 2 from p1 to p28 and p2", "!unexpected 'and p2'"),
("orders14", "march 1 from p1 to p2 to p3", "!unexpected 'to p3'"),
("orders14", "Fortify P1 x2", "!unexpected 'x2'"),
("orders14", "march 2 from p1 to p28\nmarch 1 from p1 to p2", "!P1 already has an order"),
("orders14", "march 2 fro p1 to p28", "!expected 'from' after the unit count, got 'fro'"),
("orders14", "march 2 from p1 to p29", "!P29 is not on this board"),
("orders14", "march 2 from p1 to 28", "!'28' is not a province like P3"),
("orders14", "march 2 from P01 to P28", ["March! 2 from P1 to P28"]),
("orders14", "1) fortify p1\n2) fortify p2\n3) fortify p5\n4) fortify p28", F4),
("orders14", "\u2022 fortify p1\n\u2022 fortify p2", ["Fortify! P1", "Fortify! P2"]),
("orders14", "\u2705 fortify p1\n\u2705 fortify p2", ["Fortify! P1", "Fortify! P2"]),
("orders14", "FORTIFY P1 PLEASE\nFORTIFY P2 THANKS", ["Fortify! P1", "Fortify! P2"]),
("orders14", "Fortify P1?!", "!has a question mark"),
("orders14", "Fortify P1 i guess", "!unexpected 'i guess'"),
("orders14", "Fortify P1 for now", "!unexpected 'for now'"),
# a hedge in brackets is tentative, as '(maybe)' is: refused (were stored as if it were not there: HEDGED_REMARK)
("orders14", "Fortify P1 (I think)\nwork p2", "!'think' makes the order tentative"),
("orders14", "march 2 from p1 to p28 (prob)\nfortify p2", "!'prob' makes the order tentative"),
("dragon12", "3 from P6 (i guess)\n2 from P7", "!'guess' makes the order tentative"),
("cons12", "buy 2 in p6 (idk)\nbid 5", "!'idk' makes the order tentative"),
("orders14", "Fortify P1 (hope this works lol)\nwork p2", ["Fortify! P1", "Work, work! P2"]),  # hope: still a remark
("orders14", "Fortify P1 + Work P2 + Fortify P5 + Fortify P28",
 ["Fortify! P1", "Work, work! P2", "Fortify! P5", "Fortify! P28"]),
("orders14", "March 2 from P1\nto P28\nFortify P2", "!expected 'to' after the source province, but the line ends"),
# ---- Sends (a 14-seat game, 60 $Realm each)
("orders14", FORT + "send $10 to Bob", [*F4, "Send 10 to Player#2"]),
("orders14", FORT + "send 10 gold to bob", [*F4, "Send 10 to Player#2"]),
("orders14", FORT + "send bob 10", "!expected the amount (a whole number), got 'bob'"),
("orders14", FORT + "give 10 to Bob", "!unknown order 'give'"),
("orders14", FORT + "send ten to Carol", [*F4, "Send 10 to Player#3"]),
("orders14", FORT + "send 10 realm to Carol\nsend 5 to Dan", [*F4, "Send 10 to Player#3", "Send 5 to Player#4"]),
("orders14", FORT + "send 10 to Carol (as promised)", [*F4, "Send 10 to Player#3"]),
("orders14", FORT + "send 10 to player3", [*F4, "Send 10 to Player#3"]),
("orders14", FORT + "send 10 to P3", "!'P3' is not a player"),
("orders14", FORT + "send 10 to @Carol", [*F4, "Send 10 to Player#3"]),
("orders14", FORT + "Send 10$ to Carol", [*F4, "Send 10 to Player#3"]),
("orders14", FORT + "Send 100 to Carol", "!more than the 60 $Realm you hold"),
("orders14", FORT + "Send 10 to Alice", "!Player#1 (Alice) is you: name another player"),
("orders14", FORT + "send 10 to Carol\nsend 10 to Carol", "!twice could add up"),
# two Sends to one player: both, or the second a correction? (were stored as 10 and 12, 22 sent: SENDS_TO_ONE)
("orders14", FORT + "Send 10 to Carol\nSend 12 to Carol", "!two Sends to Player#3"),
("orders14", FORT + "Send 10 to Carol and send 5 to caroL", "!with the total if you mean both"),
("orders14", FORT + "Send 10 to Carol\nsend 5 to @Carol\nSend 5 to Dan", "!one could correct the other"),
("orders14", FORT + "Send 10 to Carol\n\nSent from my iPhone", [*F4, "Send 10 to Player#3"]),
("orders14", "fortify P1, P2, P5, P28 and send 10 to Carol", [*F4, "Send 10 to Player#3"]),
("orders14", FORT + "snitch Carol", "!snitching is only for Pirates! turns"),
# ---- Pirates!
("pirates14", FORT + "snitch bob", [*F4, "Snitch Player#2"]),
("pirates14", FORT + "Snitch: Carol", [*F4, "Snitch Player#3"]),
("pirates14", FORT + "I snitch on Carol", [*F4, "Snitch Player#3"]),
("pirates14", FORT + "snitching on carol", [*F4, "Snitch Player#3"]),
("pirates14", FORT + "snitch on player 3", [*F4, "Snitch Player#3"]),
("pirates14", FORT + "Rat out Carol", "!unknown order 'Rat'"),
# ---- display names as GMs get them (14 seats)
("odd14", FORT + "send 10 to max", [*F4, "Send 10 to Player#2"]),
("odd14", FORT + "send 10 to rose", [*F4, "Send 10 to Player#3"]),  # a display name, not seat 10's colour
("odd14", FORT + "send 10 to dr who", [*F4, "Send 10 to Player#4"]),
("odd14", FORT + "send 10 to Jean-Luc", [*F4, "Send 10 to Player#5"]),
("odd14", FORT + "send 10 to Jean Luc", "!did you mean Jean-Luc?"),
("odd14", FORT + "send 10 to xX_Slayer_Xx", [*F4, "Send 10 to Player#6"]),
("odd14", FORT + "send 10 gold to Gold", [*F4, "Send 10 to Player#7"]),
("odd14", FORT + "send 10 to Ann Marie", [*F4, "Send 10 to Player#8"]),
("odd14", FORT + "send 10 to Ann", "!'Ann' is not a player"),
("odd14", FORT + "send 10 to Will", [*F4, "Send 10 to Player#10"]),
("odd14", FORT + "Will send 10 to Max", "!'Will' is a player's name"),
("odd14", FORT + "send 10 to Zoe", [*F4, "Send 10 to Player#12"]),
("odd14", FORT + "send 10 to Mr. Smith", [*F4, "Send 10 to Player#13"]),
("odd14", FORT + "send 10 to Sam thanks", [*F4, "Send 10 to Player#14"]),
# a display name with an emoji is named as a DM writes it, the emoji left out (was refused: "'Bob' is not a player like
# Player#2; did you mean Bob 🐉?", also when the DM wrote the emoji)
("odd14", FORT + "send 10 to Bob", [*F4, "Send 10 to Player#11"]),
("odd14", FORT + "send 10 to Bob \U0001F409", [*F4, "Send 10 to Player#11"]),
("odd14", FORT + "send 10 to Bobby", "!did you mean Bob \U0001F409?"),
("odd14", "Support Dr. Who in P4 from P5\nFortify P1, P2, P28",
 ["Support! Player#4 in P4 from P5", "Fortify! P1", "Fortify! P2", "Fortify! P28"]),
("odd14", "Hi GM\nMax, fortify P1", "!'Max' before the order names a player"),
("odd14", FORT + "- Alice \U0001F409", F4),
("oddp14", FORT + "snitch on Gold", [*F4, "Snitch Player#7"]),
("oddp14", FORT + "Snitch: Mr Smith", [*F4, "Snitch Player#13"]),
# ---- the Island (10 seats; Alice: the Island P0 1 unit, P1 3, P10 1)
("island10", "Fortify the Island\nMarch 1 from P10 to P9\nWork p1",
 "!Army Units on the Island can only receive a March!"),
("island10", "march 2 from p1 to the island\nfortify p10", "!P0 is not adjacent to P1"),
("island10", "Palantir sea\nfortify p1, p10", ["Palantír sea", "Fortify! P1", "Fortify! P10"]),  # holding the Island
("island10", "Ferry! P1 to P5\nfortify p10", "!unexpected 'to P5'"),
("island10", "march 1 from p0 to p1\nfortify p1\nfortify p10", "!P1 is not adjacent to P0"),
("island10", "march 2 from p1 to isle\nfortify p10", "!'isle' is not a province like P3"),
# ---- a 16-seat team game's orders
("team16", "Fortify P1\nSend 10 to Bob (teammate)", ["Fortify! P1", "Send 10 to Player#2"]),
("team16", "Support Bob in P2 from P1 // team", ["Support! Player#2 in P2 from P1"]),
("team16", "Support my teammate Bob in P2 from P1", "!'my teammate Bob' is not a player"),
("team16", "march 2 from p1 to p16 (5 from Bob)", "!pools $Realm, which goes only with a bid or a purchase"),
("team16", "fortify p1 (as agreed with Bob)", ["Fortify! P1"]),
("team16", "same as team plan", "!unknown order 'same'"),
# ---- a Dragon attack (12 seats; Alice: P5 1 unit, P6 3, P7 2)
("dragon12", "commit 3 from p6, 2 from p7", ["3 from P6", "2 from P7"]),
("dragon12", "3 from P6 (sac 1)\n2 from P7", ["3 from P6 (sac 1)", "2 from P7"]),
("dragon12", "commit all from P6 and P7", ["3 from P6", "2 from P7"]),
("dragon12", "3 from p6 + 2 from p7 + 1 from p5", ["3 from P6", "2 from P7", "1 from P5"]),
("dragon12", "P6: 3\nP7: 2", "!unknown order 'P6:'"),
("dragon12", "commit 3 p6", "!expected 'from' after the unit count, got 'p6'"),
("dragon12", "lights off \U0001F4A1", []),
("dragon12", "turn off the lights. burn P5", ["Burn P5"]),
("dragon12", "Turn off the lights, sorry team", []),
("dragon12", "commit 2 from P6 (sacrifice 2)", ["2 from P6 (sac 2)"]),
("dragon12", "2 from P6, sac 2", ["2 from P6 (sac 2)"]),
("dragon12", "commit 2 from p6 and burn p5", ["2 from P6", "Burn P5"]),
("dragon12", "commit 3 from P6\ncommit 2 from P7\n\nFor the realm!", "!unknown order 'For'"),
("dragon12", "commit 3 from P6, 2 from P7 // let's kill it", ["3 from P6", "2 from P7"]),
("dragon12", "commit three from six", "!'six' is not a province like P3"),
("dragon12", "commit 3 from p6 actually 2", "!'actually 2' reads as a correction"),
("dragon12", "Commit 5 from P6", "!only 3 units in P6"),
("dragon12", "Commit 2 from P5", "!only 1 unit in P5"),
("dragon12", "commit 2 from P6 and 2 from P6", "!twice could add up"),
("dragon12", "pass", []),
("dragon12", "none, sorry", []),
# ---- the Consolidation (12 seats; Alice: P5 2 units, P6 1, P7 3, 200 $Realm)
("cons12", "Buy 2 units in P6, 1 in P5. Bid: 15 $Realm", ["Buy 2 in P6. 1 in P5.", "Bid 15"]),
("cons12", "purchase 2 @ p6 and bid 15", ["Buy 2 in P6.", "Bid 15"]),
("cons12", "buy 2x P6\nbid 15", "!got '2x'"),
("cons12", "2 units in p6\nbid 15", ["Buy 2 in P6.", "Bid 15"]),
("cons12", "buy 2 p6, 1 p5, bid 15", ["Buy 2 in P6. 1 in P5.", "Bid 15"]),
("cons12", "Buy: 2 in P6\nBid: $15", ["Buy 2 in P6.", "Bid 15"]),
("cons12", "buy 2 in p6\nbid 15 for next turn", ["Buy 2 in P6.", "Bid 15"]),
("cons12", "buy 2 in p6\nbid 15\nactually bid 20", "!'actually bid 20' reads as a correction"),
("cons12", "no buys. bid 15", ["Bid 15"]),
("cons12", "Nothing to buy, bid 15", ["Bid 15"]),
("cons12", "Buy nothing\nBid 15", ["Bid 15"]),
("cons12", "bid 15, no purchases", ["Bid 15"]),
("cons12", "buy 0\nbid 15", "!must be at least 1, got 0"),
("cons12", "capital p7\nbid 5", "!P7 is not a level 3 Province you control"),
("cons12", "buy 2 in p6\nbid 15\nsend 10 to Bob", "!not a choice for the Consolidation step"),
("cons12", "buy max in p6", "!got 'max'"),
("cons12", "buy 2 in p6, bid the rest", "!could mean your $Realm before or after your purchases"),
("cons12", "Bid 15\nBuy 2 in P6 // to hold the line vs Bob", ["Buy 2 in P6.", "Bid 15"]),
("cons12", "buy 2 in P6\nbid 15\n\nthx gm, gg", ["Buy 2 in P6.", "Bid 15"]),
("cons12", "Bid 10 again", "!unexpected 'again'"),
("cons16t", "buy 1 in p1 (10 from Bob)\nbid 5", ["Buy 1 in P1.", "Bid 5 (10 from Player#2)"]),
("cons16t", "Buy: 1, Bid: 5 (30 from Bob)", ["Buy 1 in P1.", "Bid 5 (30 from Player#2)"]),
("cons16t", "buy 2\nbid 5", ["Buy 2 in P1.", "Bid 5"]),
("cons16t", "Buy 1 in P1\nBid 5 (20 from bob, 10 from carol)",
 ["Buy 1 in P1.", "Bid 5 (20 from Player#2, 10 from Player#3)"]),
("cons16t", "Buy 1 in P1\nBid 5 (20 from Eve)", "!pooled $Realm only comes from a team-mate"),
# '+' and '&' between fundings (was refused: "'bob + 10 from carol' is not a player")
("cons16t", "Buy 1 in P1\nBid 5 (20 from bob + 10 from carol)",
 ["Buy 1 in P1.", "Bid 5 (20 from Player#2, 10 from Player#3)"]),
("t1_16t", "bid 10 (5 from Bob & 5 from Dan)", ["Bid 10 (5 from Player#2, 5 from Player#4)"]),
("cons16t", "Buy 1 in P1\nBid 5 (twenty from Bob)", "!write numbers over twelve in digits"),
# ---- the re-bid (10 seats, 35 $Realm) and the Bank of Lannuvár's late bid (12 seats, 45 $Realm)
("rebid10", "rebid 10", ["Bid 10"]),
("rebid10", "same as before", "!unknown order 'same'"),
("rebid10", "new bid: 12 gold", ["Bid 12"]),
("rebid10", "bid 1,5", "!the bid must be a whole number, got '1,5'"),
("rebid10", "bid 5+5", "!got '5+5'"),
("rebid10", "bid 10 xD", ["Bid 10"]),
("rebid10", "Bid 10 ;)", ["Bid 10"]),
("rebid10", "Bid: 10 (I raise)", ["Bid 10"]),
("rebid10", "Bid 10\n12", "!two bids"),
("rebid10", "bid 10\n\nbid 10", ["Bid 10"]),
("rebid10", "bid thirty", "!write numbers over twelve in digits"),
("rebid10", "bid 40", "!bid between 0 and your 35 $Realm"),
("bank12", "bank bid 20", ["Bid 20"]),
("bank12", "I bid everything I have", ["Bid 45"]),
("bank12", "Bid 45, all in", "!unexpected 'all in'"),
("bank12", "everything!", "!unknown order 'everything!'"),
# ---- DMs the reader answered badly: refused where the meaning is clear, or refused saying nothing useful
# a line wholly in brackets holds no order: a remark (was refused as "brackets after an order": STANDALONE_REMARK)
("orders14", FORT + "(sorry for the late reply, was at work)", F4),
("orders14", "(sorry for the late reply, was at work \U0001F605)\n" + FORT, F4),
("orders14", FORT + "(Work P1)", "!'(Work P1)' is an order in brackets"),
("orders14", FORT + "(sorry, work all day)", "!'work' could start an order"),
("orders14", FORT + "(jk)", "!'jk' could take the order back"),
("orders14", FORT + "(is this right?)", "!it asks"),
("t1_12", "Bid 7\n(Hodir)", "!'(Hodir)' is an order in brackets"),
("cons16t", "Buy 1 in P1\nBid 5\n(Bob pays)", "!it names a player"),
("orders14", "(sorry for the late reply)", "!the DM holds no order"),
("rebid10", "Bid 20\n(all I have)", "!'all' could give a number"),
# a Send's next amount and player after ',' or 'and' is a Send of its own; one Send or Snitch names one player (were
# refused as "'Carol 5 to Dan' is not a player": SEND_LIST)
("orders14", FORT + "Send 10 to Carol, 5 to Dan", [*F4, "Send 10 to Player#3", "Send 5 to Player#4"]),
("orders14", FORT + "send 10 to Carol and 5 $Realm to Dan", [*F4, "Send 10 to Player#3", "Send 5 to Player#4"]),
("orders14", FORT + "I'm sending ten to Carol + five to Dan", [*F4, "Send 10 to Player#3", "Send 5 to Player#4"]),
("orders14", FORT + "Send 10 to Carol, 5 to carol", "!two Sends to Player#3"),
("orders14", FORT + "Send 10 to Carol, 5 to Dna", "!'Dna' is not a player like Player#2 or one of Alice, Bob"),
("orders14", FORT + "send 10 to Carol and Dan", "!like 'Send 10 to Carol' and 'Send 10 to Dan' if each gets 10"),
("orders14", FORT + "send 10 to carol, dan", "!10 to each of Carol and Dan, or 10 in all?"),
("pirates14", FORT + "snitch carol & dan", "!send one Snitch line, 'Snitch Carol' or 'Snitch Dan'"),
("pirates14", FORT + "Snitch on Carol and Player#4", "!'Snitch Carol' or 'Snitch Player#4'"),
# one count before two Provinces: in each, or in all? (was "expected the number of units to buy, got 'P6'")
("cons12", "Buy 1 in P5 and P6\nbid 5", "!like 'Buy 1 in P5. 1 in P6.' if you buy 1 in each"),
("cons12", "buy 2 units in p5, p6\nbid 5", "!'2 in P5 and P6' could mean 2 in each or 2 in all"),
("cons12", "Buy 1 in P5 and 1 in P6\nbid 5", ["Buy 1 in P5. 1 in P6.", "Bid 5"]),
# 'all' without its Province (was "expected 'from' after the unit count, but the line ends")
("dragon12", "commit all my units", "!it needs its Province: write 'all from P6'"),
("dragon12", "commit everything", "!'all' commits every unit of yours in one Province"),
("dragon12", "commit all!", "!('all from P6 and P7')"),
# 'Faction:' over the faction's name on the next line: a header (was refused: "unknown faction ''")
("t1_12", "Bid 7\nFaction:\nHodir", ["Bid 7", "Faction Hodir"]),
("t1_12", "Bid 7\n**My faction:**\n\n- Iron Light", ["Bid 7", "Faction Iron Light"]),
("t1_12", "Bid 7\nFaction:", "!'Faction:' names no faction: write the faction after it"),
("t1_12", "Faction:\nBid 7", "!'Faction:' names no faction"),
("t1_12", "Bid 7\nFaction:\nHodir?", "!on the next line alone ('Hodir') (and 1 more line refused)"),
# a correction of another line: refused as one, never the later line read in place of the earlier (was "unknown order
# 'actually'"; CORRECTIONS_REFUSED)
("t1_12", "Bid 8\nactually make that 12", "!back ('actually'): a DM's orders are final once sent"),
("t1_12", "Bid 8\nedit: 12", "!'edit: 12' reads as a correction, or as taking an order back ('edit')"),
("t1_12", "Bid 8\nwait no", "!send the DM again with only your final orders"),
("t1_12", "Bid 8\nbid 2, ignore the 8", "!'ignore the 8' reads as a correction, or as taking an order back ('ignore')"),
("rebid10", "Bid 8\nsorry, make that 12", "!reads as a correction, or as taking an order back ('make that')"),
("cons12", "buy 2 in p6\nbid 15\noops, bid 20", "!reads as a correction, or as taking an order back ('oops')"),
# saying no Snitch: snitching is optional, so it is left out (was refused: "'nobody' is not a player"; NO_SNITCH)
("pirates14", FORT + "no snitch", F4),
("pirates14", FORT + "snitch nobody", F4),
("pirates14", FORT + "Snitch: none", F4),
("pirates14", "Fortify P1, P2, P5, P28, no snitching", F4),
("pirates14", FORT + "snitch: none\nsnitch carol", "!'no snitch' contradicts the Snitch also given"),
("pirates14", FORT + "no snitch?", "!has a question mark"),
("pirates14", "no snitch", "!the DM holds no order"),
# about a number: tentative, as '(maybe)' is (were read as the number: "Bid ~7" as Bid 7; TENTATIVE_NUMBER)
("t1_12", "Bid ~7", "!'~7' says about a number, which makes the order tentative"),
("rebid10", "~ 7", "!'~ 7' says about a number"),
("dragon12", "~2 from P6\n1 from P7", "!write the exact number"),
("orders14", FORT + "send approx. 10 to Bob", "!'approx. 10' says about a number"),
("cons12", "buy 2 in p6\nbid 7ish", "!'7ish' says about a number"),
("cons12", "buy 2 in p6\nbid 7 (roughly)", "!'roughly' makes the order tentative"),
("t1_12", "Bid 7\nHodir\n~ Alice", ["Bid 7", "Faction Hodir"]),  # a signature's '~'
# 'no bid' bids 0 and 'I pass' is 'pass', as the docs say of 'none' (were refused as unknown orders; NO_BID)
("t1_12", "no bid", ["Bid 0"]),
("t1_12", "No bid this turn.\nHodir", ["Bid 0", "Faction Hodir"]),
("t1_12", "I pass", ["Bid 0"]),
("rebid10", "no rebid", ["Bid 0"]),
("cons12", "buy 2 in p6\nno bid", ["Buy 2 in P6.", "Bid 0"]),
("cons12", "I pass", ["Bid 0"]),  # as 'none': buys nothing, bids 0
("orders14", "I pass", []),
("dragon12", "I pass", []),
("t1_12", "no bid?", "!has a question mark"),
("orders14", FORT + "no bid", "!unknown order 'no'"),
# a Province's number spelled past twelve: say to write it in digits (was "'Province' is not a province like P3")
("orders14", "Fortify Province twenty", "!'Province twenty' spells a Province's number past twelve: write it in "
 "digits, like P20"),
("orders14", "march 2 from p1 to province twenty-eight", "!like P28"),
("orders14", "march 2 from p1 to prov twenty eight", "!'prov twenty eight' spells"),
("orders14", "fortify province thirteen", "!like P13"),
# 'nothing from me' is none, as 'nothing this turn' is (was refused: "unknown order 'nothing'")
("orders14", "nothing from me, sorry \U0001F605\nnone", []),
("orders14", "Nothing from me this turn.", []),
("dragon12", "nothing from me", []),
("t1_12", "nothing from me", ["Bid 0"]),
("orders14", "nothing from me\nfortify p1", "!contradicts the orders also given"),
# a header naming another turn among other pieces left out on its line refuses the DM, as alone (was stored unchecked)
("orders14", "Hi GM, here are my orders for turn 3, sorry for the delay\n" + FORT, "!this DM is headed for turn 3"),
("orders14", "Hi GM, here are my orders for turn 6, sorry for the delay\n" + FORT, F4),
# a greeting, 'here are my orders for turn N' and an apology for the length: no order on the line, left out when the
# turn is this one (was refused: "starts like a greeting but says more"; GREETING_HEADER_APOLOGY)
("orders14", "\U0001F44B Hi GM!!! \U0001F409\U0001F525 here are my orders for turn 6 \u2014 sorry they're long\n"
 + FORT,
 F4),
("orders14", "\U0001F44B Hi GM!!! \U0001F409\U0001F525 here are my orders for turn 5 \u2014 sorry they're long\n"
 + FORT,
 "!this DM is headed for turn 5, but the game is at turn 6"),
("orders14", "Hey GM, here are my orders, sorry for the wall of text\n" + FORT, F4),
("orders14", "Hi GM, here are my orders - sorry they're long, ignore P5\n" + FORT, "!"),
("t1_12", "Hi GM! here's my bid for turn 1, sorry it's long\nBid 7\nHodir", ["Bid 7", "Faction Hodir"]),
# the faction in a player's words after 'and' (docs: 'Bid 9 and Hodir', 'I pick Hodir'; was refused: "unexpected 'and I
# pick Hodir'")
("t1_12", "bid 6 and I pick Hodir", ["Bid 6", "Faction Hodir"]),
("t1_12", "Bid 6 & I\u2019ll take Kalu\u2019ak", ["Bid 6", "Faction Kalu'Ak"]),
("t1_12", "bid 6 and I'd like Iron Light as my faction", ["Bid 6", "Faction Iron Light"]),
("t1_12", "bid 6 and I pick Bob", "!"),
# 'I'll go 10' where only a bid is asked is the bid; in the Consolidation the answer says to write 'Bid 10' (were
# refused: "starts like a greeting but says more"; GO_BID)
("t1_12", "Hey GM, I'll go 10 this turn", ["Bid 10"]),
("rebid10", "I'll go 12.", ["Bid 12"]),
("bank12", "ok I will go with 20\nthanks", ["Bid 20"]),
("t1_12", "I'll go 10\nHodir", ["Bid 10", "Faction Hodir"]),
("cons12", "buy 2 in p6\nHey GM, I'll go 10 this turn", "!if 10 is your bid, write 'Bid 10'"),
("t1_12", "I'll go 10?", "!has a question mark"),
("t1_12", "I'll go 10 or 12", "!"),
("cons12", "buy 2 in p6\nI'll go 10 units", "!"),
]
NICKNAMED = [  # the GM gave the nicknames the table uses as aliases (Bobby, Caz, Danny, Mal)
("t1_16t", "Bid 10 (5 from bobby)", ["Bid 10 (5 from Player#2)"]),
("team16", "march 2 from p1 to p16\nsend 20 to bobby", ["March! 2 from P1 to P16", "Send 20 to Player#2"]),
("team16", "Support Bobby P2 from P1", ["Support! Player#2 in P2 from P1"]),
("orders14", "send 5 to Mal, fortify P1, P2, P5, P28", [*F4, "Send 5 to Player#11"]),
("orders14", "Support Caz in P4 from P5\nfortify p1, p2, p28",
 ["Support! Player#3 in P4 from P5", "Fortify! P1", "Fortify! P2", "Fortify! P28"]),
("cons16t", "Buy 1 in P1\nBid 5 (20 from Bobby)", ["Buy 1 in P1.", "Bid 5 (20 from Player#2)"]),
("pirates14", FORT + "snitch on danny", [*F4, "Snitch Player#4"]),
("pirates14", FORT + "Cheers, Ali", F4),
]


def _store(game: str, dm: str, aliases: dict[str, str] | None = None) -> list[str] | RegentError:
    g = GAMES[game]()
    try:
        return g.submit_dm("Player#1", dm, aliases=aliases).lines
    except RegentError as err:
        return err


def _check(got: list[str] | RegentError, want: list[str] | str) -> None:
    if isinstance(want, str):  # "!reason": refused, saying so
        assert isinstance(got, RegentError), f"stored {got}, should be refused"
        assert want[1:].lower() in got.reason.lower(), got.reason
    else:
        assert not isinstance(got, RegentError), got.reason
        assert sorted(got) == sorted(want)


@pytest.mark.parametrize(("game", "dm", "want"), CASES)
def test_a_messy_dm(game, dm, want):
    _check(_store(game, dm), want)


@pytest.mark.parametrize(("game", "dm", "want"), NICKNAMED)
def test_a_messy_dm_with_nicknames(game, dm, want):
    g = GAMES[game]()
    aliases = {k: v for k, v in NICKS.items() if v in g.state.players}
    _check(_store(game, dm, aliases), want)


@pytest.mark.parametrize(("names", "want"), [
    (["Alice", "Bob", "Bob \U0001F409"], "Send 10 to Player#2"),  # "Bob" is Bob's name, not the other's
    (["Alice", "Bob \U0001F525", "Bob \U0001F409"], "!'Bob' is not a player"),  # two seats: never one of them
    (["Alice", "\U0001F409", "Bob"], "Send 10 to Player#3"),  # a name of emoji only: named by its seat
])
def test_a_name_with_an_emoji_is_named_without_it_when_that_is_one_seat(names, want):
    roster = [{"seat": s, "name": n} for s, n in zip(SEATS[:3], names, strict=True)]
    g = Game({"board": "ring-3", "seed": 1, "players": roster,
              "position": {"turn": 2, "phase": "orders", "ranking": SEATS[:3], "realm": dict.fromkeys(SEATS[:3], 20),
                           "provinces": {f"P{i}": {"owner": f"Player#{i}", "units": 1} for i in range(1, 4)}}})
    try:
        got: list[str] | RegentError = g.submit_dm("Player#1", "Fortify P1\nSend 10 to Bob").lines
    except RegentError as err:
        got = err
    _check(got, [want, "Fortify! P1"] if not want.startswith("!") else want)


def test_the_round_covers_every_step_in_big_games_with_the_options_on():
    games = {game for game, _, _ in CASES + NICKNAMED}
    assert {GAMES[g]().step for g in games} == {"bid", "rebid", "bank_bid", "orders", "dragon", "consolidation"}
    assert all(len(GAMES[g]().state.players) >= 10 for g in games)
    assert len(CASES + NICKNAMED) >= 150


def test_a_commitment_from_a_province_left_empty_says_no_units_are_there():
    # dogfood 16 seats: a player who marched out of P1 and commits from it was told "only 0 units in P1"
    g = dragon12()
    g.state.provinces["P5"].units = 0
    got = _store_in(g, "1 from P5")
    assert isinstance(got, RegentError) and "you have no units in P5" in got.reason, got


def _store_in(g: Game, dm: str) -> list[str] | RegentError:
    try:
        return g.submit_dm("Player#1", dm).lines
    except RegentError as err:
        return err


@pytest.mark.parametrize("dm", ["Faction choice:\nBid 5", "Bid 5\nFaction choice:", "My bid and faction:\nBid 5"])
def test_a_faction_header_over_no_faction_is_refused_not_dealt_by_chance(dm):
    # a header naming the faction, left out, left the DM with no faction: the game dealt one the player never chose
    got = _store("t1_12", dm)
    assert isinstance(got, RegentError) and "names no faction, and no line of the DM chooses one" in got.reason, got


@pytest.mark.parametrize(("dm", "want"), [("Faction choice:\nHodir\nBid 5", ["Bid 5", "Faction Hodir"]),
                                          ("Here are my orders:\nBid 5", ["Bid 5"])])
def test_a_faction_header_over_a_faction_or_no_faction_header_is_left_out(dm, want):
    _check(_store("t1_12", dm), want)


@pytest.mark.parametrize("apology", ["sorry they're late", "Hi GM! here are my orders for turn 6, sorry they're late",
                                     "sorry these are late"])
def test_an_apology_that_the_orders_are_late_is_left_out(apology):
    # dogfood 16 seats: "sorry they're long" was left out, "sorry they're late" refused the DM
    g = GAMES["orders14"]()
    turn = g.state.turn
    text = apology.replace("turn 6", f"turn {turn}")
    assert g.submit_dm("Player#1", f"{text}\nFortify P1").lines == ["Fortify! P1"]


def test_an_apology_that_the_orders_are_wrong_still_refuses_the_dm():
    got = _store("orders14", "sorry they're wrong\nFortify P1")
    assert isinstance(got, RegentError) and "starts like an apology but says more" in got.reason, got


@pytest.mark.parametrize(("dm", "said"), [
    ("hold P1", "'hold' is no order in this game: to defend a Province write 'Fortify! P1'"),
    ("defend P1", "to defend a Province write 'Fortify! P1'"),
    ("Attack P2 with 2 from P1", "an attack is a March! into the Province: 'March! 2 from P1 to P2'"),
    ("give 10 to Bob", "to give $Realm write 'Send 10 to Bob'"),
    ("same as last turn", "earlier orders are not carried over"),
    ("fortify all", "'all' names no Province: name each one, like 'P1, P4'"),
    ("Work, work! everything", "'everything' names no Province"),
])
def test_another_games_order_word_is_answered_with_this_games_order(dm, said):
    # dogfood 16 seats: 'hold P1', 'attack', 'give', 'fortify all' were answered "unknown order 'hold'" or "'all' is
    # not a province like P3", without the order to write
    got = _store("orders14", dm)
    assert isinstance(got, RegentError) and said in got.reason, got


def test_an_order_run_into_the_next_without_a_comma_says_so():
    # dogfood 16 seats: 'buy 2 in p6 bid 5' was answered "expected the number of units to buy, got 'bid'"
    got = _store("cons12", "buy 2 in p6 bid 5")
    assert isinstance(got, RegentError) and "got 'bid', which starts another order: put each order on its own line, " \
        "or after a comma" in got.reason, got
    _check(_store("cons12", "buy 2 in p6, bid 5"), ["Buy 2 in P6.", "Bid 5"])

