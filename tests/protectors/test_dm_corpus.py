"""A corpus of DMs as players write them (greetings, markdown, typos, lists, emoji), each driven through
``Game.submit_dm`` in a game waiting for that step, with what it must store or why it must be refused.

Every step a seat is asked for: turn-1 bids (with and without factions), re-bids, the Bank of Lannuvár's bid,
orders (Normal, Grand, Pirates!, team games, the Island, Kalu'Ak), Dragon commitments, the Consolidation (buying,
upgrading, team pooling, abilities). A DM whose meaning is plain is read; one that could mean two things, takes an
order back, or asks, is refused with its reason -- never read as something the player did not mean.
"""

from __future__ import annotations

import pytest

from engine.errors import PhaseError, RegentError
from engine.protectors.game import Game
from tests.protectors.helpers import dragon_attack, position

NAMES = ["Alice", "Bob", "Carol", "Dan", "Eve", "Frank", "Grace"]


def named(g, n=None):
    for i, (s, p) in enumerate(g.state.players.items()):
        p.name = NAMES[i] if i < len(NAMES) else s
    return g


def t1(factions=False):
    return Game({"board": "ring-5", "seed": 1, "options": {"factions": factions},
                 "players": [{"seat": f"Player#{i}", "name": n} for i, n in enumerate(NAMES[:5], start=1)]})


def rebid():
    four = {f"P{i}": {"owner": f"Player#{i}", "units": 1} for i in range(1, 5)}
    return Game({"board": "ring-4", "seed": 1,
                 "players": [{"seat": f"Player#{i}", "name": n} for i, n in enumerate(NAMES[:4], start=1)],
                 "position": {"turn": 1, "step": "rebid", "provinces": four,
                              "ranking": ["Player#2", "Player#1", "Player#3", "Player#4"],
                              "rebid_groups": [["Player#1", "Player#3"]]}})


def bank():
    four = {f"P{i}": {"owner": f"Player#{i}", "units": 2} for i in range(1, 5)}
    return Game({"board": "ring-4", "seed": 1, "options": {"factions": True},
                 "players": [{"seat": f"Player#{i}", "name": n} for i, n in enumerate(NAMES[:4], start=1)],
                 "position": {"turn": 2, "step": "bank_bid", "provinces": four, "factions": {"Player#1": "Lannuvár"},
                              "effects": {"Player#1": ["bank_bid"]}, "bids": {"Player#2": 5, "Player#3": 0,
                                                                                "Player#4": 1},
                              "realm": {"Player#1": 40}}})


def orders(cards=()):
    provs = {"P1": ("Player#1", 3), "P2": ("Player#1", 2), "P3": ("Player#2", 2), "P4": ("Player#3", 1),
             "P5": ("Player#4", 2), "P6": ("Player#5", 1), "P7": ("Player#6", 2)}
    g = position("ring-7", 7, provs, ranking=[f"Player#{i}" for i in range(1, 7)],
                 realm=dict.fromkeys([f"Player#{i}" for i in range(1, 7)], 100), cards=cards)
    return named(g)


def grand():
    provs = {"P1": ("Player#1", 2), "P2": ("Player#1", 1), "P3": ("Player#1", 3), "P4": ("Player#2", 2),
             "P6": ("Player#3", 1), "P8": ("Player#4", 2), "P10": ("Player#5", 1)}
    g = position("ring-5-grand", 5, provs, ranking=[f"Player#{i}" for i in range(1, 6)],
                 realm=dict.fromkeys([f"Player#{i}" for i in range(1, 6)], 100))
    return named(g)


def team_orders():
    provs = {f"P{i}": (f"Player#{i}", 2) for i in range(1, 7)}
    g = position("ring-6", 6, provs, options={"teams": True}, teams=["A", "A", "A", "B", "B", "B"],
                 realm=dict.fromkeys([f"Player#{i}" for i in range(1, 7)], 100))
    return named(g)


def island():
    provs = {"P0": ("Player#1", 1), "P1": ("Player#1", 2), "P2": ("Player#2", 2), "P3": ("Player#3", 1),
             "P4": ("Player#4", 2), "P5": ("Player#5", 1), "P6": ("Player#6", 2)}
    g = position("ring-6+island", 6, provs, ranking=[f"Player#{i}" for i in range(1, 7)],
                 realm=dict.fromkeys([f"Player#{i}" for i in range(1, 7)], 100))
    return named(g)


def dragon():
    g = position("ring-7", 3, {"P6": ("Player#1", 2), "P7": ("Player#1", 1), "P5": ("Player#1", 1),
                               "P1": ("Player#2", 1), "P3": ("Player#3", 1)},
                 realm={"Player#1": 100, "Player#2": 0, "Player#3": 0})
    return named(dragon_attack(g, 2))


def cons():
    provs = {"P5": ("Player#1", 1), "P6": ("Player#1", 1), "P1": ("Player#2", 1), "P3": ("Player#3", 1)}
    g = position("ring-7", 3, provs, phase="consolidation", realm={"Player#1": 300, "Player#2": 0, "Player#3": 0})
    return named(g)


def cons_team():
    provs = {f"P{i}": (f"Player#{i}", 1) for i in range(1, 7)}
    g = position("ring-6", 6, provs, phase="consolidation", options={"teams": True},
                 realm={"Player#1": 65, "Player#2": 225, "Player#3": 50, "Player#4": 0, "Player#5": 0,
                        "Player#6": 0}, teams=["A", "A", "A", "B", "B", "B"])
    return named(g)


GAMES = {"t1": t1, "t1f": lambda: t1(True), "rebid": rebid, "bank": bank, "orders": orders,
         "pirates": lambda: orders(("Pirates!",)), "grand": grand, "team": team_orders, "island": island,
         "dragon": dragon, "cons": cons, "cons_team": cons_team}


def cons_up():
    g = cons()
    g.state.golden_work_done = {"P6": "Player#1"}
    return g


def kaluak():
    provs = {"P1": ("Player#1", 3), "P2": ("Player#1", 2), "P3": ("Player#2", 2), "P4": ("Player#3", 1),
             "P5": ("Player#4", 2), "P6": ("Player#5", 1), "P7": ("Player#6", 2)}
    g = position("ring-7", 7, provs, ranking=[f"Player#{i}" for i in range(1, 7)], options={"factions": True},
                 realm=dict.fromkeys([f"Player#{i}" for i in range(1, 7)], 100),
                 factions={"Player#1": "Kalu'Ak", "Player#2": "Hodir", "Player#3": "Cenarion",
                           "Player#4": "Iron Light", "Player#5": "Lannuvár", "Player#6": "Hodir"})
    return named(g)


def cons_f():
    provs = {"P5": ("Player#1", 1), "P6": ("Player#1", 1), "P1": ("Player#2", 1), "P3": ("Player#3", 1)}
    g = position("ring-7", 3, provs, phase="consolidation", options={"factions": True},
                 realm={"Player#1": 300, "Player#2": 0, "Player#3": 0},
                 factions={"Player#1": "Iron Light", "Player#2": "Lannuvár", "Player#3": "Hodir"})
    return named(g)


def with_names(game, *names):
    """``game`` with players 2, 3, ... renamed ``names`` (a player called Will, Just, So)."""
    def make():
        g = GAMES[game]()
        for p, name in zip(list(g.state.players.values())[1:], names, strict=False):
            p.name = name
        return g
    return make


def t1_team():
    return Game({"board": "ring-6", "seed": 1, "options": {"teams": True},
                 "players": [{"seat": f"Player#{i}", "name": n, "team": "AB"[(i - 1) // 3]}
                             for i, n in enumerate(NAMES[:6], start=1)]})


GAMES.update({"cons_up": cons_up, "kaluak": kaluak, "cons_f": cons_f, "t1_team": t1_team,
              "t1_will": with_names("t1", "Will", "Just", "So"),
              "orders_will": with_names("pirates", "Will", "Just", "Gonna")})


CASES = [
# ---- turn 1 bids
("t1", "Hi GM! My bid is 20. Thanks", ["Bid 20"]),
("t1", "bid 20", ["Bid 20"]),
("t1", "**Bid: 20**", ["Bid 20"]),
("t1", "I'll bid 15 $realm", ["Bid 15"]),
("t1", "Bid 20 realm pls", ["Bid 20"]),
("t1", "Bid - 20", ["Bid 20"]),
("t1", "Bid = 20", ["Bid 20"]),
("t1", "20$", ["Bid 20"]),
("t1", "I bid nothing", ["Bid 0"]),
("t1", "ok so I'm bidding 5", ["Bid 5"]),
("t1", "I am bidding 5", ["Bid 5"]),
("t1", "bidding 5", ["Bid 5"]),
("t1", "five", ["Bid 5"]),  # a number in words alone, where a bid is all that is asked
("rebid", "Zero.", ["Bid 0"]),
("t1", "fifteen", "!"),  # past twelve: in digits
("cons", "five", "!"),  # the Consolidation asks more than a bid
("t1", "I'm not bidding 5", "!unknown order"),
("t1", "I will bid 10", ["Bid 10"]),  # 'will', 'going to', 'gonna', 'just' before an order's word (were refused)
("t1", "I'm going to bid 10", ["Bid 10"]),
("t1", "I'm gonna bid 10", ["Bid 10"]),
("cons", "Just bid 10", ["Bid 10"]),
("t1", "I will not bid", "!unknown order 'will'"),
("t1", "I'm not going to bid 10", "!unknown order"),
("t1", "Bid 5, just kidding", "!unexpected 'just kidding'"),
("orders", "Fortify P1. (just in case)\nWork P2", ["Fortify! P1", "Work, work! P2"]),
("orders", "I will fortify P1\nI will work P2", ["Fortify! P1", "Work, work! P2"]),
("orders", "I'm moving 2 from P1 to P7, fortifying P2", ["March! 2 from P1 to P7", "Fortify! P2"]),
("orders", "Sending 40 to Bob\nFortify P1\nFortify P2", ["Fortify! P1", "Fortify! P2", "Send 40 to Player#2"]),
("t1", "my bid for this turn is 4. cheers!", ["Bid 4"]),
("t1", "Hello, my bid for next turn is 4", "!expected the bid"),
("t1", "I bid 10 this turn", ["Bid 10"]),  # 'this turn' after the amount, as before it (was refused)
("t1", "bidding 0 for this turn, thanks!", ["Bid 0"]),
("rebid", "Rebid 3 this turn", ["Bid 3"]),
("t1", "Bid 10 next turn", "!unexpected 'next turn'"),
("t1", "Bid 10 this turn or next", "!unexpected 'this turn or next'"),
("t1", "Bid 10 this turn only", "!unexpected 'this turn only'"),
("t1", "hello there GM, here are my orders:\nBid 2", ["Bid 2"]),
("t1", "Hi GM, orders for turn 3:\nBid 2", "!headed for turn 3"),
("t1", "Hi, my orders are Bid 4", "!starts like a greeting"),
("orders", "Hey all, here are my orders for turn 2\nok so fortify P1\nI move 2 from P2 to P3",
 ["Fortify! P1", "March! 2 from P2 to P3"]),
("t1", "0", ["Bid 0"]),
("t1", "bid: $25 :)", ["Bid 25"]),
("t1", "Hey, bid 25 please! 🙏", ["Bid 25"]),
("t1", "Bid 25\nBid 30", "!two bids"),
("t1", "Bid 10 - actually make it 12", "!"),
("t1", "Bid 50 (all in lol)", ["Bid 50"]),  # a remark saying 'all' beside the number that is all
("t1", "my bid: 5 realms", ["Bid 5"]),
("t1", "Bid 50%", "!"),
("t1", "bid half my realm", "!"),
("t1", "bid twenty", "!digits"),
("t1", "Bid 10 or 12", "!"),
("t1", "Bid 10, 12", "!"),
("t1", "Bid 1 0", "!"),
("t1", "bid 10k", "!"),
("t1", "Hello!\n\nBid: 12\n\nCheers,\nAlice", ["Bid 12"]),
("t1", "> Bid 7", ["Bid 7"]),
("t1", "`Bid 7`", ["Bid 7"]),
("t1", "```\nBid 7\n```", ["Bid 7"]),
("t1", "# Turn 1\nbid 7", ["Bid 7"]),
("t1", "Bid 7 \U0001F409\U0001F525", ["Bid 7"]),
("t1", "BID 7!!!", ["Bid 7"]),
("t1", "Bdi 7", "!did you mean"),
("t1", "Bid 7 for the ranking", "!"),
("t1", "bid 20\nfortify P1", "!not a choice for the bid step"),
("t1", "Hi GM", "!holds no order"),
("t1", "Bid 5.5", "!"),
("t1", "Bid 1.000", "!"),
("t1", "Bid 60", "!"),
("t1", "Bid: 20 $R", "!"),
("t1", "bid 20 thanks gm", ["Bid 20"]),
("t1", "Bid 20 — thanks!", ["Bid 20"]),
# ---- turn 1 with factions
("t1f", "Bid 20\nFaction: Hodir", ["Bid 20", "Faction Hodir"]),
("t1f", "bid 3 pls. I'll take Iron Light", ["Bid 3", "Faction Iron Light"]),  # thanks ending a piece, not the line
("t1f", "Bid 3 thank you. Hodir", ["Bid 3", "Faction Hodir"]),
("t1f", "Bid 10 and Hodir", ["Bid 10", "Faction Hodir"]),  # 'and' before a faction's name, as before an order
("t1f", "bid 5 & iron light", ["Bid 5", "Faction Iron Light"]),
("t1f", "Bid 10 and Hodir or Cenarion", "!"),
("t1f", "Bid 10 and not Hodir", "!"),
("t1f", "I want to play Hodir\nBid 4", ["Faction Hodir", "Bid 4"]),
("t1f", "I'll play Kalu'ak. Bid 4", ["Faction Kalu'Ak", "Bid 4"]),
("t1f", "I want to play it safe\nBid 4", "!"),
("t1f", "Bid 3 pls? Hodir", "!"),  # asks
("t1f", "Bid 3 thx ty gm cheers. Hodir", "!unexpected"),  # at most three words of thanks, as at the line's end
("t1f", "Bid 20, faction Kalu'ak", ["Bid 20", "Faction Kalu'Ak"]),
("t1f", "kaluak, bid 5", ["Bid 5", "Faction Kalu'Ak"]),
("t1f", "Faction - Iron Light\nBid - 10", ["Bid 10", "Faction Iron Light"]),
("t1f", "I choose Lannuvar and bid 12", ["Bid 12", "Faction Lannuvár"]),
("t1f", "Cenarion please. Bid 8.", ["Bid 8", "Faction Cenarion"]),  # as 'Cenarion please' alone (round 7)
("t1f", "Faction Hodir\nFaction Kalu'Ak", "!two factions"),
("t1f", "I'd like Iron Light as my faction\nbid 3", ["Bid 3", "Faction Iron Light"]),
# the faction in a player's words after 'and', as after ',' (was refused: "unexpected \"and I'll take Hodir\"")
("t1f", "Bid 15 and I'll take Hodir", ["Bid 15", "Faction Hodir"]),
("t1f", "Faction: hodir\nBid: 0", ["Bid 0", "Faction Hodir"]),
("t1f", "Hodir\n20", ["Bid 20", "Faction Hodir"]),
("t1f", "Faction: The Iron Light", "!unknown faction 'The Iron Light'"),
("t1f", "Kalu Ak\nBid 2", ["Bid 2", "Faction Kalu'Ak"]),
("t1f", "faction = Cenarion\nbid = 4", ["Bid 4", "Faction Cenarion"]),
("t1f", "- **Faction:** Hodir\n- **Bid:** 11", ["Bid 11", "Faction Hodir"]),
("t1f", "Faction Hodir or Cenarion, whichever is free\nBid 5", "!"),
("t1f", "Faction Orcs\nBid 5", "!unknown faction"),
("t1f", "Hodir 20", "!"),
("t1f", "Bid 20, Hodir", ["Bid 20", "Faction Hodir"]),
("t1f", "faction: Lannuvár 🏦\nbid: 9", ["Bid 9", "Faction Lannuvár"]),
("t1f", "Faction Hodir", ["Bid 0", "Faction Hodir"]),
("t1f", "My faction is Hodir\nBid is 10", ["Bid 10", "Faction Hodir"]),  # was "unknown faction 'is Hodir'"
("t1f", "Faction is not Hodir\nBid 10", "!unknown faction 'not Hodir'"),
("t1f", "Faction is Hodir or Cenarion\nBid 10", "!unknown faction"),
# ---- rebid, bank bid
("rebid", "rebid 5", ["Bid 5"]),
("rebid", "New bid: 5", ["Bid 5"]),
("rebid", "Rebid: 0, sorry", ["Bid 0"]),
("rebid", "Same as before", "!"),
("rebid", "I rebid 3", ["Bid 3"]),
("rebid", "3", ["Bid 3"]),
("rebid", "my rebid is 4 realm", ["Bid 4"]),
("rebid", "none", ["Bid 0"]),
("rebid", "I bid 3 more", "!"),
("rebid", "my new bid is 5", ["Bid 5"]),  # was refused as an unknown order 'my'
("rebid", "Re-bid: 5", ["Bid 5"]),
("bank", "Bid 6", ["Bid 6"]),
("bank", "6 please", ["Bid 6"]),
("bank", "Bank bid: 7", ["Bid 7"]),  # the Bank of Lannuvár's step: its bid is the only bid asked
("bank", "Hi! my bank bid is 7", ["Bid 7"]),
("bank", "bank 7", "!unknown order 'bank'"),
("t1", "Bank bid: 7", "!unknown order 'Bank'"),  # the Bank's bid is only its own step's
("bank", "I'll go 7", ["Bid 7"]),  # only a bid is asked: its amount (was refused; GO_BID)
("bank", "bid 6 realm 💰", ["Bid 6"]),
# ---- orders (Alice: P1 3 units, P2 2 units; P1-P2, P1-P7, P2-P3)
("orders", "March! 2 from P1 to P7\nFortify! P2", ["March! 2 from P1 to P7", "Fortify! P2"]),
("orders", "Sorry for the delay! March! 2 from P1 to P7\nFortify! P2", ["March! 2 from P1 to P7", "Fortify! P2"]),
("orders", "sorry for the late orders, Fortify! P2", ["Fortify! P2"]),
("orders", "Hey, sorry for the delay\nFortify P1\nWork P2", ["Fortify! P1", "Work, work! P2"]),  # was refused
("cons", "no buys, sorry\nBid 5", ["Bid 5"]),
("cons", "no buys, sorry\nBuy 1 in P6\nBid 5", "!'no purchases' contradicts"),
("t1", "Hi all, sorry, wrong DM\nBid 5", "!not an order"),
("t1", "Hey, sorry for the delay", "!holds no order"),
("orders", "Sorry, wrong DM! Fortify! P2", "!"),  # an apology that takes the orders back is never left out
("orders", "Sorry I forgot! Fortify! P2", "!"),  # says more than an apology for lateness
("orders", "march 2 from p1 to p7, fortify p2", ["March! 2 from P1 to P7", "Fortify! P2"]),
("orders", "- March 2 P1 -> P7\n- Fortify P2", ["March! 2 from P1 to P7", "Fortify! P2"]),
("orders", "1. Move 2 units from Province 1 to Province 7\n2. Fortify Province 2",
 ["March! 2 from P1 to P7", "Fortify! P2"]),
("orders", "P1: March! 2 to P7\nP2: Fortify!", "!unknown order 'P1:'"),
("orders", "Fortify P1 and P2", ["Fortify! P1", "Fortify! P2"]),  # one order per Province (were refused)
("orders", "Fortify! P1, P2", ["Fortify! P1", "Fortify! P2"]),
("orders", "Fortify all", "!"),
("orders", "Golden Fortify! P1\nWork, work! P2", ["Golden Fortify! P1", "Work, work! P2"]),
("orders", "golden fortify p1\nwork work p2", ["Golden Fortify! P1", "Work, work! P2"]),
("orders", "Work P2\nFortify P1", ["Work, work! P2", "Fortify! P1"]),
("orders", "Work, Work! in P2\nFortify! in P1", ["Work, work! P2", "Fortify! P1"]),
("orders", "Support! Bob in P3 from P2\nFortify! P1", ["Support! Player#2 in P3 from P2", "Fortify! P1"]),
("orders", "Support! Player 2 in P3 from P2\nFortify P1", ["Support! Player#2 in P3 from P2", "Fortify! P1"]),
("orders", "Support! @Bob in P3 from P2\nFortify P1", ["Support! Player#2 in P3 from P2", "Fortify! P1"]),
("orders", "Support! sky blue in P3 from P2\nFortify P1", ["Support! Player#2 in P3 from P2", "Fortify! P1"]),
("orders", "Support bob in p3 from p2, fortify p1", ["Support! Player#2 in P3 from P2", "Fortify! P1"]),
("orders", "Support! Bob at P3 from P2\nFortify P1", ["Support! Player#2 in P3 from P2", "Fortify! P1"]),  # 'at'
("orders", "Support Bob P3 from P2\nFortify P1", ["Support! Player#2 in P3 from P2", "Fortify! P1"]),  # no 'in'
("orders", "Support Bob in P3 P2\nFortify P1", "!unexpected 'P2'"),  # no 'from': P3 or P2?
("orders", "Support! Bob at P3 in P4\nFortify P1", "!"),
("orders", "P2 supports Bob in P3\nFortify P1", "!unknown order 'P2'"),
("orders", "March! 2x from P1 to P7\nFortify P2", "!"),
("orders", "Delayed March! 1 from P2 to P3\nFortify! P1", ["Delayed March! 1 from P2 to P3", "Fortify! P1"]),
("orders", "delayed march 1 p2->p3\nfortify p1", ["Delayed March! 1 from P2 to P3", "Fortify! P1"]),
("orders", "March! 1 from P1 to P7 and 2 from P1 to P2", "!"),
("orders", "Fortify! P1\nFortify! P1\nFortify P2", ["Fortify! P1", "Fortify! P2"]),
("orders", "Fortify! P1 // safe\nWork, work! P2", ["Fortify! P1", "Work, work! P2"]),
("orders", "Fortify P1.\nWork P2.", ["Fortify! P1", "Work, work! P2"]),
("orders", "Send 40 to Bob\nFortify P1\nFortify P2", ["Fortify! P1", "Fortify! P2", "Send 40 to Player#2"]),
("orders", "Send Bob 40\nFortify P1\nFortify P2", "!expected the amount (a whole number), got 'Bob'"),
# 'all' sent: what the seat holds when the Sends are revealed is no number at the DM, so never guessed; the refusal says
# why and what to write (it said "expected the amount (a whole number), got 'all'")
("orders", "Send all to Bob\nFortify P1\nFortify P2", "!'all' is no fixed number there, so write the $Realm to send"),
("orders", "Send everything to Bob\nFortify P1\nFortify P2", "!write the $Realm to send, like 'Send 40 to Bob'"),
# two amounts to two players: two Sends (was refused: "write 'and send' before the next amount"; SEND_LIST)
("orders", "Send 40 to Bob and 10 to Carol\nFortify P1\nFortify P2",
 ["Fortify! P1", "Fortify! P2", "Send 40 to Player#2", "Send 10 to Player#3"]),
("orders", "Send 40 to Bob and 10 Carol\nFortify P1\nFortify P2", "!write each Send with its amount and player"),
("orders", "Send 40 to Bob and send 10 to Carol\nFortify P1\nFortify P2",
 ["Fortify! P1", "Fortify! P2", "Send 40 to Player#2", "Send 10 to Player#3"]),
("orders", "Send $40 to Player#2\nFortify P1\nFortify P2", ["Fortify! P1", "Fortify! P2", "Send 40 to Player#2"]),
("orders", "Give 40 to Bob\nFortify P1", "!"),
("orders", "none", []),
# dogfood 12 players: 'none, nothing to order :(' was refused as "unknown order 'none,'; expected ..., or none": the
# rest says none again, and is left out; a line going on with anything else is refused as two things, not as 'none'
("orders", "none, nothing to order :(", []),
("orders", "Nothing. Nothing to do this turn, sorry", []),
("cons", "none, nothing to buy", ["Bid 0"]),
("dragon", "Turn off the lights, nothing to commit", []),
("orders", "none, blah blah", "!'none' chooses nothing, but 'blah blah' follows it on its line: send 'none' alone"),
("orders", "none, Fortify P1", "!'none' chooses nothing, but 'Fortify P1' follows it"),
("orders", "No orders this turn, thanks!", []),
("orders", "Nothing this turn.", []),
("orders", "pass", []),
("orders", "Hold P1\nHold P2", "!"),
("orders", "Same as last turn", "!"),
("orders", "March! 2 from P1 to P7\nActually no, Fortify! P1", "!"),
("orders", "~~March! 2 from P1 to P7~~\nFortify! P1", "!struck"),
("orders", "Fortify! P1 (not P2)", "!"),
("orders", "Fortify: P1\nWork: P2", ["Fortify! P1", "Work, work! P2"]),
("orders", "Fortify Prov 1\nWork Prov. 2", ["Fortify! P1", "Work, work! P2"]),
("orders", "Fortify province 1\nwork province #2", ["Fortify! P1", "Work, work! P2"]),
("orders", "Fortify p.1", "!"),
("orders", "March! 2 from #1 to #7\nFortify #2", ["March! 2 from P1 to P7", "Fortify! P2"]),  # '#3' was refused
("dragon", "2 from #6\n1 from #7", ["2 from P6", "1 from P7"]),
("cons", "Buy 2 in #6\nBid 10", ["Buy 2 in P6.", "Bid 10"]),
("orders", "Fortify 1\nWork P2", "!'1' is not a province"),  # a number alone is no Province
("orders", "Fortify # 1\nWork P2", "!not a province"),
("orders", "Send 40 to #2\nFortify P1\nFortify P2", "!'#2' is not a player"),  # '#2' names a Province only
("orders", "March 2 from P1 to P 7\nFortify P2", ["March! 2 from P1 to P7", "Fortify! P2"]),
("orders", "March! two units from P1 to P7\nFortify P2", ["March! 2 from P1 to P7", "Fortify! P2"]),
("orders", "MARCH! 2 FROM P1 TO P7!!!\nFORTIFY P2", ["March! 2 from P1 to P7", "Fortify! P2"]),
("orders", "March! 2 from P1 into P7\nFortify P2", ["March! 2 from P1 to P7", "Fortify! P2"]),
("orders", "Attack P7 with 2 from P1", "!"),
("orders", "March! 2 from P1 to P7 and fortify P2", ["March! 2 from P1 to P7", "Fortify! P2"]),
("orders", "March! 2 from P1 to P7 (golden)\nFortify P2", "!"),
("orders", "March! 3 from P1 to P1", "!"),
("orders", "March! 2 from P1 to P3", "!adjacent"),
("orders", "Support! me in P1 from P2\nFortify! P1", "!"),
("orders", "Support! Alice in P1 from P2\nFortify! P1", ["Fortify! P1", "Support! Player#1 in P1 from P2"]),
("orders", "Fortify! P1 and Work, work! P2", ["Fortify! P1", "Work, work! P2"]),
("orders", "Hi GM,\n\nHere are my orders for turn 2:\n\n* Fortify! P1\n* Work, work! P2\n\nThanks!\nAlice",
 ["Fortify! P1", "Work, work! P2"]),
("orders", "My orders for turn 3:\nFortify! P1", "!turn 3"),
("orders", "Fortify P1 (just in case)\nWork P2", ["Fortify! P1", "Work, work! P2"]),
("orders", "Fortify P1 unless Bob attacks", "!"),
("orders", "Fortify P1 P2", "!"),
("orders", "fortfy p1", "!did you mean"),
("orders", "Golden Support! Bob in P3 from P2\nFortify P1", ["Fortify! P1", "Golden Support! Player#2 in P3 from P2"]),
("orders", "Fortify! P1\nWork, work! P2\nEDIT: make P2 Fortify too", "!"),
("orders", "1) Fortify P1\n2) Work P2", ["Fortify! P1", "Work, work! P2"]),
("orders", "Fortify P1\nsorry for the late orders!", ["Fortify! P1"]),
("orders", "Send 40 realm to bob, fortify p1, fortify p2", ["Fortify! P1", "Fortify! P2", "Send 40 to Player#2"]),
("orders", "March! 3 from P1 to P7; March! 2 from P2 to P3", ["March! 3 from P1 to P7", "March! 2 from P2 to P3"]),
("orders", "march all 3 from p1 to p7", "!'all 3' gives the count twice"),
("orders", "Work, work! P1 and P2", ["Work, work! P1", "Work, work! P2"]),
("orders", "Fortify! P1 & P2", ["Fortify! P1", "Fortify! P2"]),
("orders", "Fortify P1\nFortify P2\nSnitch Bob", "!"),
# 'then', '&' and '+' before the next order's word join orders as 'and' does (audit 2026-2: refused as unexpected)
("orders", "March! 2 from P1 to P7, then Fortify! P2", ["March! 2 from P1 to P7", "Fortify! P2"]),
("orders", "march 2 p1 -> p7 then fortify p2", ["March! 2 from P1 to P7", "Fortify! P2"]),
("orders", "March! 2 from P1 to P7 and then Fortify! P2", ["March! 2 from P1 to P7", "Fortify! P2"]),
("orders", "Fortify P1 & Work P2", ["Fortify! P1", "Work, work! P2"]),
("orders", "Fortify P1 + Work P2", ["Fortify! P1", "Work, work! P2"]),
# 'then' before a March! could mean it moves after the others, the rules' Delayed March! (audit 2026-3: read as one)
("orders", "March! 2 from P1 to P2 then March! 2 from P2 to P3", "!'then' before a March! could mean"),
("orders", "March! 1 from P1 to P7, then March! 2 from P2 to P1", "!write 'Delayed March!' if so"),
("orders", "Fortify P2 and then move 2 from P1 to P7", "!a Delayed March!"),
("orders", "Fortify P2 then golden march 2 from P1 to P7", "!'then' before a March!"),
("orders", "Fortify P2 then delayed march 2 from P1 to P7", ["Fortify! P2", "Delayed March! 2 from P1 to P7"]),
("orders", "Fortify P2 and move 2 from P1 to P7", ["Fortify! P2", "March! 2 from P1 to P7"]),
("orders", "Fortify P2 & March! 2 from P1 to P7", ["Fortify! P2", "March! 2 from P1 to P7"]),
("orders", "Fortify P1 then P2", "!unexpected 'then P2'"),  # no order word after it: one order, refused
("orders", "Fortify P1 then Work P1", "!P1 already has an order"),
("orders", "Fortify P1 unless Bob attacks then work P2", "!unexpected 'unless Bob attacks'"),
("t1", "Bid 10 then 12", "!unexpected 'then 12'"),
("t1", "Bid 10 then bid 12", "!two bids"),
("cons", "Buy 2 in P6 then bid 10", ["Buy 2 in P6.", "Bid 10"]),
("cons", "Buy 2 in P6 then 1 in P5\nBid 4", "!got 'then'"),
("team", "send 50 realm to Bob then fortify P1", ["Fortify! P1", "Send 50 to Player#2"]),
("dragon", "2 from P6 + 1 from P7", ["2 from P6", "1 from P7"]),
("dragon", "2 from P6 then 1 from P7", ["2 from P6", "1 from P7"]),
# a repeat that could add up: a Send said twice (Sends add up; it was stored twice, 80 sent) and a Buy or commitment
# said twice on one line (where a purchase adds up: it was read once) are refused (audit 2026-3); a Burn said twice
# names its Province once (it was stored twice)
("orders", "Send 40 to Bob then send 40 to Bob\nFortify P1\nFortify P2", "!'Send 40 to Player#2' twice could add up"),
("orders", "Send 40 to Bob\nFortify P1\nFortify P2\n**Send 40 to Bob**", "!twice could add up"),
("orders", "Send 40 to Bob\nSend 10 to Carol\nFortify P1\nFortify P2",
 ["Fortify! P1", "Fortify! P2", "Send 40 to Player#2", "Send 10 to Player#3"]),
("cons", "Buy 1 in P6 then buy 1 in P6\nBid 3", "!'Buy 1 in P6.' twice could add up"),
("cons", "Buy 1 in P6 + buy 1 in P6", "!twice could add up"),
("cons", "Buy 1 in P6 + 1 in P6", ["Buy 1 in P6. 1 in P6.", "Bid 0"]),  # one purchase adds up (2 units)
("dragon", "2 from P6, 2 from P6", "!'2 from P6' twice could add up"),
("dragon", "Turn off the lights, burn P5, burn P5", ["Burn P5"]),
("dragon", "Burn P5\nTurn off the lights\nBurn P5", ["Burn P5"]),
# ---- pirates
("pirates", "Snitch Bob\nFortify P1\nFortify P2", ["Fortify! P1", "Fortify! P2", "Snitch Player#2"]),
("pirates", "Fortify P1, Fortify P2\nI snitch on Carol", ["Fortify! P1", "Fortify! P2", "Snitch Player#3"]),
("pirates", "Snitch: Dan\nFortify P1\nFortify P2", ["Fortify! P1", "Fortify! P2", "Snitch Player#4"]),
# snitching is optional: 'No snitch' says the DM snitches on no one (was refused: "unknown order 'No'"; NO_SNITCH)
("pirates", "Fortify P1\nFortify P2\nNo snitch", ["Fortify! P1", "Fortify! P2"]),
("pirates", "Snitch Bob and Carol\nFortify P1", "!"),
("pirates", "Snitch Bob\nSnitch Carol\nFortify P1", "!two Snitch"),
("pirates", "Snitch on @Eve 🏴‍☠️\nFortify P1\nFortify P2", ["Fortify! P1", "Fortify! P2", "Snitch Player#5"]),
("pirates", "I'm snitching on Bob\nFortify P1\nFortify P2", ["Fortify! P1", "Fortify! P2", "Snitch Player#2"]),
("pirates", "I'm not snitching on Bob\nFortify P1\nFortify P2", "!unknown order"),
# ---- grand (Alice: P1 2, P2 1, P3 3; Bob P4)
("grand", "Fortify P1\nFortify P2\nWork P3", ["Fortify! P1", "Fortify! P2", "Work, work! P3"]),
("grand", "P1 fortify, P2 fortify, P3 work", "!unknown order 'P1'"),
("grand", "March! 1 from P2 to P1\nSupport! Bob in P4 from P3\nGolden Fortify! P1",
 ["Golden Fortify! P1", "March! 1 from P2 to P1", "Support! Player#2 in P4 from P3"]),
("grand", "Fortify P1, P2, P3", ["Fortify! P1", "Fortify! P2", "Fortify! P3"]),
("grand", "Fortify P1\nFortify P2\nFortify P3\nFortify P4", "!"),
("grand", "March 1 from P2 to P1\nMarch 3 from P3 to P4\nFortify P1",
 ["March! 1 from P2 to P1", "March! 3 from P3 to P4", "Fortify! P1"]),
("grand", "- P1: Fortify!\n- P2: Work, work!\n- P3: March! 3 to P4", "!unknown order 'P1:'"),
# ---- team orders
("team", "Send 50 to Bob\nFortify P1", ["Fortify! P1", "Send 50 to Player#2"]),
("team", "Support! Bob in P2 from P1", ["Support! Player#2 in P2 from P1"]),
("team", "Support Bob in P2", ["Support! Player#2 in P2 from P1"]),
("team", "fortify p1 // team plan", ["Fortify! P1"]),
# ---- island (Alice P0 1, P1 2)
("island", "Palantír Sea\nFortify P1\nFortify the Island", "!Army Units on the Island can only receive a March! order"),
("island", "Palantir the end\nnone", ["Palantír end", "none"]),
("island", "March! 1 from P1 to P2\nMarch! 1 from the Island to P1", "!P1 is not adjacent to P0"),
("island", "Fortify Island\nFortify P1", "!can only receive a March!"),
("island", "Palantír Sea 🔮\nWork P1", ["Palantír sea", "Work, work! P1"]),
# ---- kalu'ak orders
("kaluak", "Weather forecast: There be Dragons?\nFortify P1\nFortify P2",
 ["Weather forecast: There be Dragons?", "Fortify! P1", "Fortify! P2"]),
("kaluak", "Fortify P1\nFortify P2\nPeek at the dragon deck", "!"),
# ---- dragon (Alice P6 2, P7 1, P5 1; min.US 3)
("dragon", "2 from P6, 1 from P7", ["2 from P6", "1 from P7"]),
("dragon", "Commit 2 from P6 (sac 1), 1 from P7, 1 from P5", ["2 from P6 (sac 1)", "1 from P7", "1 from P5"]),
("dragon", "commit all", "!'all' commits every unit of yours in one Province, so it needs its Province"),
("dragon", "Turn off the lights", []),
("dragon", "lights off 💡", []),
("dragon", "lights out", []),  # was refused as an unknown order 'lights'
("dragon", "Turn off the lights, burn P5", ["Burn P5"]),  # was an unknown order 'Turn' (did you mean Burn?)
("dragon", "lights off and burn P5, burn P6 thanks", ["Burn P5", "Burn P6"]),
("dragon", "Turn off the lights, burn P5\n2 from P6", "!'Turn off the lights' contradicts"),
("dragon", "Turn off the lights, burn P5?", "!'burn P5?' has a question mark"),
("dragon", "Turn off the lights, 2 from P6", "!'Turn off the lights' commits no units, but the line also commits"),
("dragon", "lights out then 1 from P7", "!commits no units"),  # said so (both were an unknown order 'Turn')
("orders", "Turn off the lights, burn P5", "!unknown order"),
("dragon", "I'm turning off the lights\nBurn P5", ["Burn P5"]),
("orders", "lights out", "!is a choice for a Dragon attack"),
("dragon", "I turn off the lights.\nBurn P5", ["Burn P5"]),
("dragon", "2 from P6\nBurn P5", ["2 from P6", "Burn P5"]),
("dragon", "P6: 2, P7: 1", "!unknown order 'P6:'"),
("dragon", "2 units from Province 6 and 1 from Province 7", ["2 from P6", "1 from P7"]),
("dragon", "Commit 2 from P6 sac 1\nCommit 1 from P7", ["2 from P6 (sac 1)", "1 from P7"]),
("dragon", "2 from P6 (sacrifice 1)\n1 from P7", ["2 from P6 (sac 1)", "1 from P7"]),
("dragon", "I commit everything", "!"),
("dragon", "none", []),
("dragon", "Nothing.", []),
("dragon", "2x P6, 1x P7", "!"),
("dragon", "- 2 from P6\n- 1 from P7\n- 1 from P5 (sac 1)", ["2 from P6", "1 from P7", "1 from P5 (sac 1)"]),
("dragon", "Hi GM, I commit 2 from P6 and 1 from P7. Good luck all!", ["2 from P6", "1 from P7"]),
("dragon", "2 from P6\n2 from P6", ["2 from P6"]),
("dragon", "2 from P6\n1 from P6", "!two commitments"),
("dragon", "commit 3 from P6", "!"),
("dragon", "Commit 2 from P6\nturn off the lights", "!"),
("dragon", "Bid 5", "!not a choice"),
("dragon", "March! 1 from P6 to P5", "!not a choice"),
("dragon", "0 from P6, 0 from P7\nBurn P5\nBurn P6\nBurn P7", ["Burn P5", "Burn P6", "Burn P7"]),
("dragon", "Commit two from P6 and one from P7", ["2 from P6", "1 from P7"]),
# ---- consolidation (Alice P5 1, P6 1, 300 $Realm)
("cons", "Buy 2 in P6. 1 in P5.\nBid 17", ["Buy 2 in P6. 1 in P5.", "Bid 17"]),
("cons", "buy 2 in p6, 1 in p5\nbid 17", ["Buy 2 in P6. 1 in P5.", "Bid 17"]),
("cons", "Buy 1 unit in P5\nBuy 1 unit in P6\nBid: 10", ["Buy 1 in P5. 1 in P6.", "Bid 10"]),
("cons", "I'm buying 2 units in P6. Bid: 10", ["Buy 2 in P6.", "Bid 10"]),
("cons", "I'm not buying 2 units in P6", "!unknown order"),
("cons", "Buy: 2x P6, 1x P5", "!"),
("cons", "Buy P6 x2", "!"),
("cons", "2 units in P6\nBid 3", ["Buy 2 in P6.", "Bid 3"]),  # in the Consolidation only a purchase places units
("cons", "1 in P6\nBid 3", ["Buy 1 in P6.", "Bid 3"]),  # (both were refused as 'not a choice for the Consolidation')
("cons", "buy 1 P5\nBid 3", ["Buy 1 in P5.", "Bid 3"]),  # 'in' left out (was "expected 'in'")
("cons", "Buy 2 units P6 and 1 P5", ["Buy 2 in P6. 1 in P5.", "Bid 0"]),
("cons", "2\nBid 3", "!'2' alone could be the bid or a number of units"),  # a number alone: a count, or the bid?
("cons", "1 P6\nBid 3", "!not a choice for the Consolidation"),
("cons", "1 from P6\nBid 3", "!not a choice for the Consolidation"),
("dragon", "1 in P6", "!expected 'from'"),
("cons", "Buy 1 in P5 and 1 in P6, bid 10", ["Buy 1 in P5. 1 in P6.", "Bid 10"]),
("cons", "No purchases, bid 5", ["Bid 5"]),
("cons", "Buy nothing. Bid 5", ["Bid 5"]),
("cons", "Bid 5, no buys", ["Bid 5"]),
("cons", "No purchases this turn\nBid 10", ["Bid 10"]),  # was refused as an unknown order 'No'
("cons", "No buys this turn, bid 10", ["Bid 10"]),
("cons", "Buy 1 in P6\nNo buys this turn", "!the DM also says 'No buys this turn'"),
("cons", "none", ["Bid 0"]),
("cons", "Buy max", "!"),
("cons", "Buy 2 in P6, bid 17 realm", ["Buy 2 in P6.", "Bid 17"]),
("cons", "Buy 2 in P6 1 in P5\nBid 0", ["Buy 2 in P6. 1 in P5.", "Bid 0"]),
("cons", "Bid 17\nBuy 2 @ P6", ["Buy 2 in P6.", "Bid 17"]),
("cons", "Buy one unit in P5 and one in P6", ["Buy 1 in P5. 1 in P6.", "Bid 0"]),
("cons", "Buy 1 in each province\nBid 2", "!"),
("cons", "Buy 2 in P6 and P5", "!"),
("cons", "Buy 1 in P5, P6", "!"),
("cons", "Bid: 17 for next turn", ["Bid 17"]),  # the Consolidation's bid is the next turn's (audit 2026-4: refused)
("cons", "Buy 2 in P6\n\nBid 17\n\nThanks, Alice", ["Buy 2 in P6.", "Bid 17"]),
("cons", "Buy 2 units in P6 – 1 in P5\nBid 17 $Realm", ["Buy 2 in P6. 1 in P5.", "Bid 17"]),
("cons", "20", "!"),
("cons", "Buy 2 in P6\nBuy 1 in P6", "!two purchases"),
("cons", "Buy 1 unit in Prov 5\nBid 3", ["Buy 1 in P5.", "Bid 3"]),
("cons", "Purchase 2 units for P6\nBid 3", "!"),
("cons", "buy 2 in P6 and bid 17", ["Buy 2 in P6.", "Bid 17"]),
("cons", "Buy 2 in P6\nNo purchases", "!"),
("cons", "Fortify P6", "!not a choice"),
("cons", "Buy 2", ["Buy 1 in P5. 1 in P6.", "Bid 0"]),
("cons", "Buy 2 in P6 + 1 in P5\nBid 4", ["Buy 2 in P6. 1 in P5.", "Bid 4"]),
("cons", "I'll buy 1 in P5. My bid is 6.", ["Buy 1 in P5.", "Bid 6"]),
("cons", "Consolidation:\n- buy 1 @ P5\n- bid 6", ["Buy 1 in P5.", "Bid 6"]),
("cons", "Turn 3 bid: 8", ["Bid 8"]),
("cons", "Turn 2 consolidation\nBuy 1 in P6\nbid 8", ["Buy 1 in P6.", "Bid 8"]),
("cons_up", "Upgrade P6\nBid 0", ["Upgrade P6", "Bid 0"]),
("cons_up", "Upgrade Province 6 pls", ["Upgrade P6", "Bid 0"]),
("cons_up", "Upgrade P6 to level 1\nBid 2", "!unexpected 'to level 1'"),
("cons_up", "Upgrade P5\nBid 0", "!Golden Work"),
("cons_f", "Faith alone sustains us!\nBid 3", ["Faith alone sustains us", "Bid 3"]),
("cons_f", "The Bank of Lannuvár", "!Lannuv"),
# ---- team consolidation (Alice 65, Bob 225)
("cons_team", "Buy 2, Bid: 25 (110 from Bob)", ["Buy 2 in P1.", "Bid 25 (110 from Player#2)"]),
("cons_team", "Buy 1\nBid 5 (30 from Bob)", ["Buy 1 in P1.", "Bid 5 (30 from Player#2)"]),
("cons_team", "Buy 1 (30 from Bob)\nBid 0", ["Buy 1 in P1.", "Bid 0 (30 from Player#2)"]),
("cons_team", "Bid 25 with 110 from Bob", "!"),
("cons_team", "Buy 1 in P1 (20 from Bob, 10 from Carol)\nBid 0",
 ["Buy 1 in P1.", "Bid 0 (20 from Player#2, 10 from Player#3)"]),
("cons_team", "Buy 2 in P1 using 100 from Bob", "!"),
("cons_team", "Bid 5 (30 from Dan)", "!team-mate"),
]


# ---- once misread: words that take an order back, ask, or make it depend on something were left out and the
# order stored as if they were not there (audit 2026: each of these was accepted as the order alone)
MISREAD = [
("t1", "Bid 20\nSorry, wrong DM", "!not an order: the line starts like an apology"),
("t1", "Bid 20\nSorry, ignore that", "!reads as a correction, or as taking an order back"),
("t1", "Bid 20\nsorry, that was a mistake", "!not an order"),
("t1", "Bid 20\nSorry, disregard the above", "!reads as a correction, or as taking an order back"),
("t1", "Bid 20\nsorry, not ready yet", "!not an order"),
("t1", "Bid 20\nApologies, please ignore", "!reads as a correction, or as taking an order back"),
("t1", "Bid 20\nSorry I changed my mind", "!reads as a correction, or as taking an order back"),
("t1", "Bid 20\nsorry it was supposed to be more", "!not an order"),
("t1", "Bid 20\nHello, never mind", "!reads as a correction, or as taking an order back"),
("t1", "Bid 20\nHi wrong dm", "!not an order"),
("t1", "Bid 20\nHey wait", "!reads as a correction, or as taking an order back"),
("t1", "Bid 20 (jk)", "!brackets after an order are read as team pooling"),
("t1", "Bid 20 (just kidding)", "!brackets"),
("t1", "Bid 20 (oops)", "!brackets"),
("t1", "Bid 20 (typo)", "!brackets"),
("t1", "Bid 20 (tentative)", "!brackets"),
("t1", "Bid 20 (if allowed)", "!brackets"),
("t1", "Bid 20 (/s)", "!brackets"),
("t1", "Bid 20 (right?)", "!"),
("orders", "Fortify P1 (if Bob attacks)\nWork P2", "!brackets"),
("orders", "Fortify P1 (unless attacked)\nWork P2", "!brackets"),
("orders", "Fortify P1 (nvm)\nWork P2", "!brackets"),
("orders", "Fortify P1 (disregard)\nWork P2", "!brackets"),
("orders", "Fortify P1 (changed my mind)\nWork P2", "!brackets"),
("orders", "Fortify P1 (wrong)\nWork P2", "!brackets"),
("cons", "Buy 2 in P6 (maybe)\nBid 3", "!brackets"),
("t1", "Bid 20?", "!has a question mark"),
("orders", "Fortify P1?\nWork P2", "!has a question mark"),
("dragon", "2 from P6??\n1 from P7", "!has a question mark"),
# a '?' on a choice read without an order word (a faction alone, none, Turn off the lights, no purchases, the amount
# alone, or one with thanks after it) was left out and the choice stored (audit 2026-2)
("t1f", "Hodir?\nBid 10", "!'Hodir?' has a question mark"),
("t1f", "Kalu'Ak?", "!has a question mark"),
("orders", "none?", "!'none?' has a question mark"),
("orders", "pass?", "!has a question mark"),
("orders", "Nothing this turn?", "!has a question mark"),
("orders", "My orders: none?", "!'none?' has a question mark"),
("dragon", "Turn off the lights?", "!has a question mark"),
("dragon", "lights off?", "!has a question mark"),
("dragon", "none?", "!has a question mark"),
("cons", "No purchases?\nBid 5", "!'No purchases?' has a question mark"),
("cons", "Bid 5, no buys?", "!'no buys?' has a question mark"),
("t1", "20 please?", "!has a question mark"),
("t1", "Bid 20 please?", "!has a question mark"),
("t1", "20?", "!'20?' has a question mark"),  # was refused as "not a choice for the bid step"
("bank", "Bank bid: 7?", "!has a question mark"),  # was refused as an unknown order 'Bank'
("t1", "Here is my bid: 20?", "!'20?' has a question mark"),  # was refused as an unknown order 'Here'
("t1", "Hi GM! Bid 20?", "!'Bid 20?' has a question mark"),
# a one-line "signature" of words that take the DM back was left out as a name (audit 2026-2)
("t1", "Bid 20\n-- draft", "!starts like a signature"),
("t1", "Bid 20\n—not final", "!starts like a signature"),
("t1", "Bid 20\n~ jk", "!starts like a signature"),
("t1", "Bid 20\n--\nBid 30", "!below a '--' line"),
("orders", "fortify P1\n--\nwork P2", "!below a '--' line"),
# a filler that is also a player's name ('Will', 'Just', 'So') opening a line was skipped, so 'Will snitch on Carol'
# from Alice was stored as Alice's Snitch (audit 2026-3)
("t1_will", "Will bid 10", "!'Will' is a player's name"),
("t1_will", "Just bid 10", "!'Just' is a player's name"),
("t1_will", "So bid 10", "!'So' is a player's name"),
("orders_will", "Will snitch on Carol\nFortify P1\nFortify P2", "!'Will' is a player's name"),
("orders_will", "Gonna fortify P1\nWork P2", "!'Gonna' is a player's name"),
("orders_will", "Hi GM, Will support Carol in P3 from P2\nFortify P1", "!'Will' is a player's name"),
("t1_will", "I will bid 10", ["Bid 10"]),
("t1_will", "I'm just bidding 10", ["Bid 10"]),
("orders_will", "I will snitch on Will\nFortify P1\nFortify P2", ["Fortify! P1", "Fortify! P2", "Snitch Player#2"]),
("orders_will", "Send 40 to Just then fortify P1\nWork P2", ["Fortify! P1", "Work, work! P2", "Send 40 to Player#3"]),
("t1", "Will bid 10", ["Bid 10"]),  # no player is called Will here
# 'I'd' is 'I would' ("I would bid 10" was refused): it may depend on something (audit 2026-3: read as the order)
("t1", "I'd bid 10", "!'I'd' is 'I would'"),
("orders", "I’d fortify P1\nWork P2", "!'I'd' is 'I would'"),
("t1", "Sorry for the delay, I'd bid 20", "!'I'd' is 'I would'"),
("t1", "I'd like to bid 10", ["Bid 10"]),
("t1f", "I'd take Hodir\nBid 3", ["Bid 3", "Faction Hodir"]),
# a player's name alone before an order on its line was left out as a signature, and the order stored as the sender's:
# 'Bob, fortify P1' could be Bob's order or a message to Bob (audit 2026-3)
("t1", "Carol, bid 10", "!'Carol' before the order names a player"),
("t1", "Carol - bid 10", "!names a player"),
("orders", "Bob, fortify P1\nWork P2", "!'Bob' before the order names a player"),
("t1_will", "Will, bid 10", "!'Will' before the order names a player"),
("t1", "Hi Carol, bid 10", ["Bid 10"]),  # a greeting, as 'Hi Alex, Bid 20'
("t1", "Bid 10. Thanks, Alice", ["Bid 10"]),
("t1", "Bid 10\nCheers, Alice", ["Bid 10"]),
# a remark in brackets that gives a number in words or changes the count was left out, so 'all' (or the number) was
# stored as if it were not there (audit 2026-4: 'March! all from P1 to P7 (leave one)' moved all 3 units)
("orders", "March! all from P1 to P7 (leave one)\nFortify P2", "!'leave' could give or change a number"),
("orders", "March! all from P1 to P7 (minus one)\nFortify P2", "!brackets after an order"),
("orders", "March! 3 from P1 to P7 (one stays)\nFortify P2", "!brackets after an order"),
("dragon", "all from P6 (keep one back)", "!'keep' could give or change a number"),
("dragon", "all from P6 (half)", "!'half' could give or change a number"),
("t1", "Bid all (save some)", "!got 'save'"),
("t1", "Bid all (keep a little)", "!got 'keep'"),
("t1", "Bid 20 (minus five)", "!got 'minus'"),
("t1", "Bid 20 (twenty)", "!brackets after an order"),
("bank", "Bank bid: all (keep some)", "!got 'keep'"),
("orders", "March! all from P1 to P7 (a unit stays)\nFortify P2", "!brackets after an order"),
("t1", "Bid all (yolo)", ["Bid 50"]),  # words that change no count are still a remark
("orders", "March! all from P1 to P7 (hope this works)\nFortify P2", ["March! 3 from P1 to P7", "Fortify! P2"]),
# a remark saying 'all' beside another number was left out and the number stored: 20, or all 50? (audit 2026-4)
("t1", "Bid 20 (all I have)", "!'Bid 20' is beside a remark saying 'all', which is 50 $Realm now, not 20"),
("t1", "Bid 20 (all in lol)", "!which is 50 $Realm now"),
("t1", "Hi GM, here is my bid: 20 (all I have)", "!which is 50 $Realm now"),
("rebid", "Rebid 5 (everything)", "!which is 50 $Realm now, not 5"),
("bank", "Bank bid: 4 (all)", "!which is 40 $Realm now, not 4"),
("orders", "March! 2 from P1 to P7 (all of them)\nFortify P2", "!which is 3 Army Units in P1 now, not 2"),
("dragon", "1 from P6 (all)\n1 from P7", "!which is 2 Army Units in P6 now, not 1"),
("t1", "Bid 50 (all I have)", ["Bid 50"]),
("bank", "Bank bid: 40 (all)", ["Bid 40"]),
("orders", "March! 3 from P1 to P7 (all of them)\nFortify P2", ["March! 3 from P1 to P7", "Fortify! P2"]),
("dragon", "2 from P6 (all)\n1 from P7 (all of it)", ["2 from P6", "1 from P7"]),
("orders", "Delayed March! 2 from P1 to P7 (all of them)\nFortify P2",
 ["Delayed March! 2 from P1 to P7", "Fortify! P2"]),
("cons", "Buy 1 in P6\nBid 20 (all I have)", ["Buy 1 in P6.", "Bid 20"]),  # after the purchases: not known here
("orders", "Fortify P1 (all good)\nWork P2", ["Fortify! P1", "Work, work! P2"]),  # no count to say 'all' of
# a bid naming the turn of the Consolidation it is sent in: that turn's bid was made before, and the one asked is the
# next turn's, so 'My bid for turn 2 is 10' could be an old DM sent again; it was stored as turn 3's bid (audit 2026-4)
("cons", "Buy 1 in P6\nMy bid for turn 2 is 10", "!a bid in turn 2's Consolidation is for turn 3"),
("cons", "Bid 10 for turn 2", "!name turn 3, or leave the turn out"),
("cons", "Turn 2 bid: 10", "!a bid in turn 2's Consolidation is for turn 3"),
("cons", "For turn 2, bid 10", "!a bid in turn 2's Consolidation is for turn 3"),
("cons", "My bid for turn 3 is 10", ["Bid 10"]),
("cons", "Turn 2 consolidation: buy 1 in P6, bid 10", ["Buy 1 in P6.", "Bid 10"]),  # the DM's turn, not the bid's
("cons", "My orders for turn 2:\nBuy 1 in P6\nBid 10", ["Buy 1 in P6.", "Bid 10"]),
("cons", "Bid 10 // turn 2", ["Bid 10"]),
("cons", "My bid for this turn is 10", ["Bid 10"]),  # the bid asked now: no other turn's can be changed
("cons", "my bid for next turn is 10", ["Bid 10"]),
("cons", "Buy 1 in P6\nBid 10 for next turn, thanks", ["Buy 1 in P6.", "Bid 10"]),
("cons", "I bid 10 this turn", ["Bid 10"]),  # the bid made this turn
("t1", "my bid for next turn is 10", "!expected the bid"),  # outside the Consolidation this DM is this turn's
# 'round 3' is left out as a header as 'turn 3' is, but its turn was not checked: an old DM was stored (audit 2026-4)
("orders", "Round 3 orders:\nFortify P1, P2", "!this DM is headed for turn 3, but the game is at turn 2"),
("t1", "Round 2 bid: 10", "!headed for turn 2"),
("dragon", "Round 3:\n2 from P6", "!headed for turn 3"),
("orders", "Round 2 orders:\nFortify P1, P2", ["Fortify! P1", "Fortify! P2"]),
("rebid", "Round 2 bid: 5", ["Bid 5"]),  # in the re-bid, round 2 may be the second round of bidding
# a remark in brackets after a list of Provinces: as after one order (audit 2026-4: refused as team pooling)
("orders", "Fortify P1, P2 (just in case)", ["Fortify! P1", "Fortify! P2"]),
("grand", "Work P1 and P2 (hope this works)\nFortify P3", ["Work, work! P1", "Work, work! P2", "Fortify! P3"]),
("orders", "Fortify P1, P2 (just in case), thanks", ["Fortify! P1", "Fortify! P2"]),
("orders", "Fortify P1, P2 (tentative)", "!'tentative' could take the order back"),
("orders", "Fortify P1 and P2 (not P3)", "!'not' could take the order back"),
# a dash between two Provinces was read as ',' (a dash between orders separates them), so 'Fortify P1 - P3' (P1 to P3,
# P2 too?) was stored as Fortify! P1 and Fortify! P3 (audit 2026-4)
("grand", "Fortify P1 - P3\nWork P2", "!'P1 - P3' could mean P1 and P3 or every Province from P1 to P3"),
("grand", "Work, work! P1 – P3", "!name each Province, joined by ',' or 'and', like 'Work, work! P1, P3'"),
("grand", "Fortify #1 - #3\nWork P2", "!could mean P1 and P3"),
("grand", "Fortify P1 - P2 - P3", ["Fortify! P1", "Fortify! P2", "Fortify! P3"]),  # a list and a range alike
("orders", "Fortify P1 - P2", ["Fortify! P1", "Fortify! P2"]),
("grand", "Fortify P1 - Work P2 - Fortify P3", ["Fortify! P1", "Work, work! P2", "Fortify! P3"]),
("cons", "Buy 2 units in P6 - 1 in P5\nBid 2", ["Buy 2 in P6. 1 in P5.", "Bid 2"]),
# a list of Provinces ending in '...' was stored as the Provinces named: 'Fortify P1,P2,...' with P3 held too (audit
# 2026-4)
("grand", "Fortify P1,P2,...\nWork P3", "!'...' after the list of Provinces could mean more of them"),
("grand", "Fortify P1, P2, …\nWork P3", "!could mean more of them"),
("grand", "Work P1 and P2...\nFortify P3", "!could mean more of them"),
("grand", "Fortify P1, P2, ... thanks\nWork P3", "!could mean more of them"),
("grand", "Fortify P1...\nWork P2\nWork P3", ["Fortify! P1", "Work, work! P2", "Work, work! P3"]),
("grand", "Fortify P1, P2.\nWork P3", ["Fortify! P1", "Fortify! P2", "Work, work! P3"]),
# a number and '.' starting a line of chatter was taken for a numbered list's mark and left out, so 'Bid 20' then
# '30. Thanks!' stored 20 (session 27): in a step that takes a bid, such a line is refused unless the DM is a list
("t1", "Bid 20\n30. Thanks!", "!line 2 starts with '30.' but holds no order: is 30 a bid"),
("t1", "Bid 20\n\n30) cheers", "!is 30 a bid, or a list's number"),
("cons", "Buy 1 in P6\nBid 20\n30. Thanks!", "!is 30 a bid"),
("bank", "Bank bid: 10\n15. ty", "!is 15 a bid"),
("t1f", "Bid 20\nFaction Hodir\n30. Thanks!", "!is 30 a bid"),
("t1", "1. Bid 20\n2. Thanks!", ["Bid 20"]),  # a numbered list: 2 is its mark
("t1", "1) My bid:\nBid 20", ["Bid 20"]),  # a numbered header
("orders", "Fortify P1\n3. Thanks", ["Fortify! P1"]),  # no bid in this step: nothing a number could be
]
# once refused, so the GM asked again (on a 24-72 h clock): 'all' where the game fixes the number (the stored line
# carries it), one Fortify! or Work, work! over a list of Provinces, the bid's turn, 'gold' after an amount; and beside
# each, the wordings near it that could mean two things, still refused (assumptions DM_ALL, DM_PROVINCE_LIST)
PLAIN = [
# 'all' as a unit count: the seat's Army Units in the Province now (Alice: P1 3, P2 2)
("orders", "March! all units from P1 to P7\nFortify P2", ["March! 3 from P1 to P7", "Fortify! P2"]),
("orders", "March! all from P1 to P7\nFortify P2", ["March! 3 from P1 to P7", "Fortify! P2"]),
("orders", "Move everything from P1 to P7\nWork P2", ["March! 3 from P1 to P7", "Work, work! P2"]),
("orders", "march all my units from p2 to p3, fortify p1", ["March! 2 from P2 to P3", "Fortify! P1"]),
("orders", "Golden March! all from P1 to P7\nFortify P2", ["Golden March! 3 from P1 to P7", "Fortify! P2"]),
("orders", "Delayed March! all from P1 to P7\nFortify P2", "!a Delayed March! moves after the other March! orders"),
("orders", "March! all from P1 to P7\nMarch! 1 from P1 to P2", "!P1 already has an order"),
("orders", "March! all from P1 to P7\nMarch! all from P1 to P2", "!P1 already has an order"),
("orders", "March! all from P1 to P7\nMove everything from P1 to P7", "!'March! all from P1 to P7' is said twice"),
("orders", "March! all from P3 to P2\nFortify P1", "!you have no Army Units in P3 for 'all' to count"),
("orders", "March! all but 1 from P1 to P7\nFortify P2", "!expected 'from' after the unit count, got 'but'"),
("orders", "March! all except one from P1 to P7", "!expected 'from'"),
("orders", "March! all of them from P1 to P7", "!expected 'from'"),
("orders", "March! most from P1 to P7", "!expected the unit count"),
("orders", "March! half from P1 to P7", "!expected the unit count"),
("orders", "March! all to P7\nFortify P2", "!expected 'from'"),
("orders", "Move everything east", "!expected 'from'"),
("orders", "Support! Bob in P3 with everything from P2", "!"),
# Dragon commitments (Alice: P6 2, P7 1, P5 1)
("dragon", "all from P6\n1 from P7", ["2 from P6", "1 from P7"]),
("dragon", "commit all units from P6 and all from P7", ["2 from P6", "1 from P7"]),
("dragon", "all from P6 (sac 1), 1 from P7", ["2 from P6 (sac 1)", "1 from P7"]),
("dragon", "I commit everything from P6", ["2 from P6"]),
("dragon", "all from P6\nall from P6", "!'all from P6' is said twice"),
("dragon", "all from P6, 2 from P6", "!two commitments from P6"),
("dragon", "all from P6\n2 from P6", "!two commitments from P6"),
("dragon", "all from P1", "!you have no Army Units in P1 for 'all' to count"),
("dragon", "all from P6 (sac 3)", "!sac must be between 0 and the units committed"),
("dragon", "all but one from P6", "!"),
("dragon", "All in", "!unknown order 'All'"),
("dragon", "I commit nothing", []),  # session 27 (was refused: expected the unit count)
("dragon", "I commit no units", []),
("dragon", "I commit nothing\n2 from P6", "!"),
("dragon", "all from everywhere", "!"),
("dragon", "commit all from P6, P7 and P5", ["2 from P6", "1 from P7", "1 from P5"]),  # audit 2026-4: was refused
("dragon", "I commit all my units from P6 & P7\nBurn P5", ["2 from P6", "1 from P7", "Burn P5"]),
("dragon", "2 from P6 and P7", "!unexpected 'and P7'"),  # 2 from each, or 2 in all?
("dragon", "all from P6 and P7 (sac 1)", "!unexpected"),  # sac 1 in each, or in all?
("dragon", "all from P6 and P7\n1 from P7", "!two commitments from P7"),
("dragon", "all from P6 and P7?", "!'all from P7?' has a question mark"),  # (was 'unexpected and P7')
("grand", "Fortify P1, P2?\nWork P3", "!'Fortify P2?' has a question mark"),
# a remark in brackets naming a player by display name or colour was left out (only 'Player#2' kept brackets from
# being one), so 'Bid 20 (Bob)' in a team game was stored without Bob's $Realm (audit 2026-4)
("t1_team", "Bid 20 (Bob)", "!got 'Bob'"),
("cons_team", "Buy 1\nBid 5 (Bob pays)", "!got 'Bob'"),
("cons_team", "Buy 1 (Bob's)\nBid 0", "!got \"Bob's\""),
# ... where a step pools (the turn-1 bids, the Consolidation): at the orders no pooling goes with an order, so a name
# in brackets is a remark, left out and said ('Fortify P1 (sorry Bob)' was refused as pooling from Bob)
("orders", "Fortify P1 (sky blue)\nWork P2", ["Fortify! P1", "Work, work! P2"]),
("orders", "Fortify P1 (sorry Bob)\nWork P2 (Bob knows)", ["Fortify! P1", "Work, work! P2"]),
("t1_team", "Bid 20 (30 from Bob)", ["Bid 20 (30 from Player#2)"]),
# pooled $Realm after an order or a commitment was dropped unsaid: 'Send 40 to Carol (30 from Bob)' sent 40 of the
# seat's own (audit 2026-4); pooling goes with a bid or a purchase only (rules: 003 Team Games)
("team", "Send 40 to Carol (30 from Bob)\nFortify P1", "!'(30 from Player#2)' pools $Realm, which goes only with"),
("team", "Golden Fortify P1 (30 from Bob)", "!pools $Realm"),
("dragon", "2 from P6 (30 from Bob)", "!pools $Realm"),
("cons_team", "Buy 1 (30 from Bob)\nBid 0", ["Buy 1 in P1.", "Bid 0 (30 from Player#2)"]),
# 'all' as a bid: the most the seat may bid now, its $Realm (t1: 50; the Bank's seat 40)
("t1", "Bid all", ["Bid 50"]),
("t1", "Bid everything", ["Bid 50"]),
("t1", "Bid the rest", ["Bid 50"]),
("t1", "All in", ["Bid 50"]),
("t1", "all in!", ["Bid 50"]),
("t1", "All in, thanks", ["Bid 50"]),  # as '20, thanks' (audit 2026-4: refused as an unknown order 'All')
("rebid", "Hi GM, all in, cheers", ["Bid 50"]),
("t1", "All in, jk", "!unknown order 'All'"),
("t1", "Bid it all", ["Bid 50"]),  # more ways to say it (audit 2026-4: refused as 'expected the bid')
("t1", "Bid all of it", ["Bid 50"]),
("t1", "I bid all I've got", ["Bid 50"]),
("rebid", "Rebid all I have left", ["Bid 50"]),
("bank", "Bank bid: the rest of my $Realm", ["Bid 40"]),
("t1", "Bid all of it but 5", "!unexpected 'but 5'"),
("cons", "Bid it all", "!'Bid all' in the Consolidation could mean"),
("t1", "I bid all I have", ["Bid 50"]),
("t1", "Bid all $Realm", ["Bid 50"]),
("t1f", "Bid all\nFaction Hodir", ["Bid 50", "Faction Hodir"]),
("rebid", "Bid all", ["Bid 50"]),
("bank", "Bank bid: all", ["Bid 40"]),
("bank", "All in", ["Bid 40"]),
("t1", "Bid all?", "!has a question mark"),
("t1", "All in?", "!'All in?' has a question mark"),
("t1", "Bid all 20", "!unexpected '20'"),
("t1", "Bid all but 5", "!unexpected 'but 5'"),
("t1", "Bid most", "!expected the bid"),
("t1", "Bid half", "!expected the bid"),
("t1", "Bid max", "!expected the bid"),
("t1", "all", "!"),
("t1", "everything", "!"),
("t1", "I'm all in", ["Bid 50"]),  # session 27 (was refused: unknown order "I'm")
("t1", "I am all in!", ["Bid 50"]),
("rebid", "Hi GM, I'm all in, thanks", ["Bid 50"]),
("bank", "im all in", ["Bid 40"]),
("t1", "I'm all in?", "!has a question mark"),
("t1", "I'm not all in", "!unknown order"),
("t1_team", "I'm all in", "!in a team game"),
("cons", "I'm all in", "!unknown order"),
("t1", "Bid all\nBid 20", "!two bids"),
("t1", "Bid all\nAll in", "!'Bid all' is said twice"),
("t1_team", "Bid all (30 from Bob)", "!'Bid all' beside pooled $Realm could mean"),
("t1_team", "Bid all", "!'Bid all' in a team game could mean your own $Realm or your team's"),  # audit 2026-4
("t1_team", "All in", "!in a team game"),  # was stored as the seat's own $Realm: the team's pool is bid too
("t1_team", "Bid 50", ["Bid 50"]),
("cons", "Bid all", "!'Bid all' in the Consolidation could mean your $Realm before or after your purchases"),
("cons", "All in", "!unknown order 'All'"),
# one order over a list of Provinces (grand: Alice P1 2, P2 1, P3 3)
("grand", "Work, work! P1, P2 & P3", ["Work, work! P1", "Work, work! P2", "Work, work! P3"]),
("grand", "Work P1 and P2\nSupport! Bob in P4 from P3", ["Work, work! P1", "Work, work! P2",
                                                          "Support! Player#2 in P4 from P3"]),
("grand", "fortify P1, P2, and P3", ["Fortify! P1", "Fortify! P2", "Fortify! P3"]),
("orders", "I will fortify P1 and P2", ["Fortify! P1", "Fortify! P2"]),
("orders", "Fortify in P1 + P2.", ["Fortify! P1", "Fortify! P2"]),
("orders", "Golden Fortify! P1 and P2", "!'Golden' before a list of Provinces could mean"),
("orders", "Fortify P1 and P1", "!P1 is named twice in the list of Provinces"),
("orders", "Fortify P1 and P2\nWork P2", "!P2 already has an order"),
("orders", "Fortify P1 or P2", "!unexpected 'or P2'"),
("orders", "Fortify P1 P2", "!'P2' after 'Fortify! P1' is no list"),  # round 7
("orders", "Fortify P1, P2 and P3", "!you have no Army Units in P3"),
("orders", "March! 1 from P1 to P7 and P2\nFortify P2", "!unexpected 'and P2'"),
("orders", "March! 1 from P1 to P7, P2", "!unexpected 'P2'"),
("orders", "Support! Bob in P3 from P2 and P1", "!unexpected 'and P1'"),
("dragon", "Burn P5 and P6", ["Burn P5", "Burn P6"]),  # each Province burns, as a Fortify! list (was refused)
# the bid's turn: this one (in the Consolidation also the next, which the bid is for), as a header's
("t1", "My bid for turn 1 is 10", ["Bid 10"]),
("t1", "my bid for this turn is 10", ["Bid 10"]),
("t1", "I bid 10 for turn 1", ["Bid 10"]),
("cons", "Buy 1 in P6\nMy bid for turn 3 is 10", ["Buy 1 in P6.", "Bid 10"]),
("t1", "My bid for turn 2 is 10", "!this bid is for turn 2, but the game is at turn 1"),
("cons", "My bid for turn 5 is 10", "!this bid is for turn 5, but the game is at turn 2"),
("t1", "My bid for turn 1000 is 10", "!expected the bid"),
("t1", "My bid for turn one is 10", "!expected the bid"),
("t1", "My bid for next turn is 10", "!expected the bid"),
("t1", "My bid for turn 1 or 2 is 10", "!expected the bid"),
("t1", "My bid for turn 1 = 10", ["Bid 10"]),  # as '... is 10' (audit 2026-4: refused as 'expected the bid')
# the turn before the bid's word, as players write it ('Turn 1 bid is 10' was refused as an unknown order 'Turn')
("t1", "Turn 1 bid is 10", ["Bid 10"]),
("t1", "My turn 1 bid is 10", ["Bid 10"]),
("t1", "turn 1 bid 10", ["Bid 10"]),
("cons", "Buy 1 in P6\nMy turn 3 bid = 10", ["Buy 1 in P6.", "Bid 10"]),
("t1", "Turn 2 bid is 10", "!this bid is for turn 2, but the game is at turn 1"),
("cons", "Buy 1 in P6\nTurn 2 bid is 10", "!a bid in turn 2's Consolidation is for turn 3"),
("orders", "Turn 2 bid is 10", "!not a choice for the orders step"),
("t1", "Bid for turn 1: 10", ["Bid 10"]),
("t1", "Bid for this turn = 10", ["Bid 10"]),  # 10 is the amount, not a turn
("t1", "Bid for this turn: 10", ["Bid 10"]),  # session 27 (was refused: expected the bid, got 'for')
("cons", "Buy 1 in P6\nBid for next turn: 10", ["Buy 1 in P6.", "Bid 10"]),
("t1", "Bid for turn 2: 10", "!this bid is for turn 2, but the game is at turn 1"),
("t1", "Bid for turn 1 10", "!expected the bid"),
# a bid's turn after a header on its line was never checked, only the header's (audit 2026-4: stored)
("t1", "My orders: Bid 10 for turn 7", "!this bid is for turn 7, but the game is at turn 1"),
("t1", "Here is my bid: 10 for turn 4", "!this bid is for turn 4"),
("cons", "Turn 2: my bid for turn 5 is 10", "!this bid is for turn 5, but the game is at turn 2"),
("cons", "Turn 2 consolidation: buy 1 in P6, bid 10 for turn 2", "!a bid in turn 2's Consolidation is for turn 3"),
("cons", "Turn 2 consolidation: buy 1 in P6, bid 10 for turn 3", ["Buy 1 in P6.", "Bid 10"]),
("t1", "My orders for turn 1: Bid 10 for turn 1", ["Bid 10"]),
# a header naming the re-bid as 'Turn 1 bid:' names the bid (session 26: refused as "unknown order 'Turn'")
("rebid", "Turn 1 rebid: 5", ["Bid 5"]),
("rebid", "The rebid: five", ["Bid 5"]),
("rebid", "Turn 2 rebid: 5", "!this DM is headed for turn 2, but the game is at turn 1"),
("rebid", "Turn 1 rebid: 5 6", "!"),
("rebid", "Turn 1 rebid:", "!the DM holds no order"),
# 'gold' after an amount: $Realm, the game's only money ('Golden' names orders, never an amount)
("t1", "Bid 10 gold", ["Bid 10"]),
("t1", "10 gold", ["Bid 10"]),
("cons", "Buy 1 in P6, bid 10 gold", ["Buy 1 in P6.", "Bid 10"]),
("orders", "Send 10 gold to Bob\nFortify P1\nFortify P2", ["Fortify! P1", "Fortify! P2", "Send 10 to Player#2"]),
("t1", "Gold bid 10", "!unknown order 'Gold'"),
("orders", "Gold Fortify P1\nWork P2", "!unknown order 'Gold'"),
("orders", "Fortify P1 gold\nWork P2", "!unexpected 'gold'"),
("orders", "March! 2 gold from P1 to P7\nFortify P2", "!expected 'from' after the unit count, got 'gold'"),
("cons", "Buy 2 gold in P6", "!"),
("t1", "Bid 10 golden", "!unexpected 'golden'"),
("t1", "Bid 10 gold coins", "!"),
]
# and still read as before: what an apology, a greeting or a remark may say
KEPT = [
("t1", "Bid 20\nSorry for the delay!", ["Bid 20"]),
("t1", "Bid 20\nSorry I missed the orders", ["Bid 20"]),
("t1", "Bid 20\nsorry for the late orders, busy week", ["Bid 20"]),
("t1", "Bid 50 (all I have)", ["Bid 50"]),
("orders", "Fortify P1 (just in case)\nWork P2 (hope this works lol)", ["Fortify! P1", "Work, work! P2"]),
("kaluak", "Weather forecast: There be Dragons?\nFortify P1\nFortify P2",
 ["Weather forecast: There be Dragons?", "Fortify! P1", "Fortify! P2"]),
("t1", "Bid 20\n-- \nAlice\nSent from my iPhone", ["Bid 20"]),
("t1f", "Hodir\nBid 10", ["Bid 10", "Faction Hodir"]),
("orders", "My orders: none", []),
("dragon", "Turn off the lights!", []),
("cons", "No purchases\nBid 5", ["Bid 5"]),
("t1", "20 please", ["Bid 20"]),
("t1", "Bid 20\n-- Alice", ["Bid 20"]),
("t1", "Bid 20\n~ Alice", ["Bid 20"]),
# another player's name signing the DM: that player's DM? refused (was read; dm_whose.other_seat, OTHER_SEAT_HEADER)
("t1", "Bid 20\n~ Carol", "!'~ Carol' names Player#3"),
("t1", "Bid 20\nThanks!", ["Bid 20"]),
]


def _store(game: str, dm: str) -> list[str] | RegentError:
    g = GAMES[game]()
    try:
        return g.submit_dm("Player#1", dm).lines
    except RegentError as err:
        return err


@pytest.mark.parametrize(("game", "dm", "want"), CASES + MISREAD + PLAIN + KEPT)
def test_a_dm_as_players_write_it(game, dm, want):
    got = _store(game, dm)
    if isinstance(want, str):  # "!reason": refused, saying so
        assert isinstance(got, RegentError), f"stored {got}, should be refused"
        assert want[1:].lower() in got.reason.lower(), got.reason
    else:
        assert not isinstance(got, RegentError), got.reason
        assert sorted(got) == sorted(want)


def test_the_corpus_covers_every_step():
    steps = {GAMES[game]().step for game, _, _ in CASES}
    assert steps == {"bid", "rebid", "bank_bid", "orders", "dragon", "consolidation"}
    assert len(CASES + MISREAD + PLAIN + KEPT) >= 150


def test_a_second_dm_does_not_replace_the_first():
    # rules: 003 Each Turn -- "Once a DM is sent to the GM, your orders/choices are final"
    g = GAMES["t1"]()
    assert g.submit_dm("Player#1", "Bid 20").lines == ["Bid 20"]
    with pytest.raises(PhaseError, match="already submitted"):
        g.submit_dm("Player#1", "Oops, make that Bid 25")
    assert g.state.submissions["Player#1"].bid == 20
