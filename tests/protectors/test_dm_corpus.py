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
                 "position": {"step": "bank_bid", "provinces": four, "factions": {"Player#1": "Lannuvár"},
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


GAMES.update({"cons_up": cons_up, "kaluak": kaluak, "cons_f": cons_f})


CASES: list = []


# ---- once misread: words that take an order back, ask, or make it depend on something were left out and the
# order stored as if they were not there (audit 2026: each of these was accepted as the order alone)
MISREAD = [
("t1", "Bid 20\nSorry, wrong DM", "!not an order: the line starts like an apology"),
("t1", "Bid 20\nSorry, ignore that", "!not an order"),
("t1", "Bid 20\nsorry, that was a mistake", "!not an order"),
("t1", "Bid 20\nSorry, disregard the above", "!not an order"),
("t1", "Bid 20\nsorry, not ready yet", "!not an order"),
("t1", "Bid 20\nApologies, please ignore", "!not an order"),
("t1", "Bid 20\nSorry I changed my mind", "!not an order"),
("t1", "Bid 20\nsorry it was supposed to be more", "!not an order"),
("t1", "Bid 20\nHello, never mind", "!not an order"),
("t1", "Bid 20\nHi wrong dm", "!not an order"),
("t1", "Bid 20\nHey wait", "!not an order"),
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
("t1", "Bid 20\n--\nBid 30", "!below a '--' line"),
("orders", "fortify P1\n--\nwork P2", "!below a '--' line"),
]
# and still read as before: what an apology, a greeting or a remark may say
KEPT = [
("t1", "Bid 20\nSorry for the delay!", ["Bid 20"]),
("t1", "Bid 20\nSorry I missed the orders", ["Bid 20"]),
("t1", "Bid 20\nsorry for the late orders, busy week", ["Bid 20"]),
("t1", "Bid 20 (all I have)", ["Bid 20"]),
("orders", "Fortify P1 (just in case)\nWork P2 (hope this works lol)", ["Fortify! P1", "Work, work! P2"]),
("kaluak", "Weather forecast: There be Dragons?\nFortify P1\nFortify P2",
 ["Weather forecast: There be Dragons?", "Fortify! P1", "Fortify! P2"]),
("t1", "Bid 20\n-- \nAlice\nSent from my iPhone", ["Bid 20"]),
]


def _store(game: str, dm: str) -> list[str] | RegentError:
    g = GAMES[game]()
    try:
        return g.submit_dm("Player#1", dm).lines
    except RegentError as err:
        return err


@pytest.mark.parametrize(("game", "dm", "want"), CASES + MISREAD + KEPT)
def test_a_dm_as_players_write_it(game, dm, want):
    got = _store(game, dm)
    if isinstance(want, str):  # "!reason": refused, saying so
        assert isinstance(got, RegentError), f"stored {got}, should be refused"
        assert want[1:].lower() in got.reason.lower(), got.reason
    else:
        assert not isinstance(got, RegentError), got.reason
        assert sorted(got) == sorted(want)


def test_a_second_dm_does_not_replace_the_first():
    # rules: 003 Each Turn -- "Once a DM is sent to the GM, your orders/choices are final"
    g = GAMES["t1"]()
    assert g.submit_dm("Player#1", "Bid 20").lines == ["Bid 20"]
    with pytest.raises(PhaseError, match="already submitted"):
        g.submit_dm("Player#1", "Oops, make that Bid 25")
    assert g.state.submissions["Player#1"].bid == 20
