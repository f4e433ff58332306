"""A fifth round of messy DMs: what the GM sees at 7- to 16-seat tables with the options on (teams, factions, the
Island, the Grand board). Phone autocorrect, other languages, team-mates signing for each other, faction abilities in
loose words, Island orders, bids for a team, orders for the wrong step, quoted earlier messages and chat lines pasted
with their time and speaker, a whole turn's orders pasted twice; and a DM refused for a line the reader cannot read,
whose other lines' rule errors are listed with it (assumption PARTIAL_CHECK).

Each case goes through ``Game.submit_dm`` for Player#1 (Alice), as in the earlier rounds (``test_dm_messy_round4``),
and says what must be stored (the canonical lines) or why it must be refused ("!fragment" of the reason).
"""

from __future__ import annotations

import pytest

from engine.errors import RegentError
from engine.protectors.game import Game
from tests.protectors.helpers import position
from tests.protectors.test_dm_messy_round import SEATS, _check, _named, _store_in
from tests.protectors.test_dm_messy_round4 import GAMES as GAMES4
from tests.protectors.test_dm_messy_round4 import orders16

GAMES = {**GAMES4, "ferry16": lambda: orders16(("Ferry!",))}
NAMES8 = ["Alice", "Bruno", "Chlo\u00e9", "Dmitri", "Eun-ji", "Fatima", "Gus", "Hana"]
PAIRS8 = ["A", "A", "B", "B", "C", "C", "D", "D"]


def island8(cards: tuple[str, ...] = (), faction: str = "Kalu'Ak") -> Game:
    """Turn 5 of an 8-seat Grand game with the Island, factions and teams of 2 (Alice and Bruno), Alice playing
    ``faction``: she holds the Island (P0, 1 unit), P3 (2) and P4 (1); Bruno P5 (2); 40 $Realm each."""
    provs = {"P0": ("Player#1", 1), "P3": ("Player#1", 2), "P4": ("Player#1", 1), "P5": ("Player#2", 2)}
    for seat, p in zip(SEATS[2:8], ["P7", "P9", "P11", "P13", "P14", "P16"], strict=True):
        provs[p] = (seat, 2)
    g = position(
        "ring-8-grand+island",
        8,
        provs,
        turn=5,
        ranking=SEATS[:8],
        realm=dict.fromkeys(SEATS[:8], 40),
        options={"factions": True, "teams": True},
        teams=PAIRS8,
        factions=dict(zip(SEATS[:8], [faction, "Hodir", "Cenarion", "Iron Light"] * 2, strict=True)),
        cards=cards,
    )
    return _named(g, NAMES8)


def cons10() -> Game:
    """Turn 4's Consolidation in a 10-seat Grand game with factions and teams of 2 (Alice, Iron Light, and Bruno): Alice
    P1 (1 unit, level 1), P2 (2 units, level 2, a Golden Work, work! done this turn) and P19 (1 unit), 50 $Realm."""
    provs = {"P1": ("Player#1", 1, 1), "P2": ("Player#1", 2, 2), "P19": ("Player#1", 1), "P3": ("Player#2", 1)}
    for i, p in enumerate(["P5", "P7", "P9", "P11", "P13", "P15", "P17", "P20"], start=3):
        provs[p] = (f"Player#{i}", 1)
    g = position(
        "ring-10-grand",
        10,
        provs,
        turn=4,
        phase="consolidation",
        options={"factions": True, "teams": True},
        teams=[t for t in "ABCDE" for _ in range(2)],
        realm={**dict.fromkeys(SEATS[:10], 30), "Player#1": 50},
        factions=dict(zip(SEATS[:10], ["Iron Light", "Hodir"] * 5, strict=True)),
        golden_work_done={"P2": "Player#1"},
    )
    return _named(g, [*NAMES8, "Ivo", "Jun"])


GAMES["island8"] = island8
GAMES["island8sea"] = lambda: island8(("Seafarers!",))
GAMES["cons10"] = cons10
I2 = ["Fortify! P3", "Work, work! P4"]  # island8: Alice's orders for P3 and P4
IO = "Fortify P3\nWork P4\n"
F4 = ["Fortify! P27", "Fortify! P28", "Fortify! P32", "Fortify! P1"]  # Alice's four Provinces in orders16, fortified
FORT = "Fortify P27, P28, P32, P1\n"


def _refusal(game: str, dm: str, lenient: bool = False) -> RegentError:
    g = GAMES[game]()
    with pytest.raises(RegentError) as caught:
        g.submit_dm("Player#1", dm, lenient=lenient)
    assert "Player#1" not in g.state.submissions  # nothing stored
    return caught.value


def _rows(err: RegentError) -> list[tuple[int, str]]:
    return [(r["line_no"], r["reason"]) for r in err.details["rejected"]]


# ---- a DM with a line the reader cannot read: the rules' errors of its other lines are listed with it, in the DM's
# order, so the player mends every one at once (were said only after the first was mended; PARTIAL_CHECK)
UNREAD = "unknown order 'Fortfy!' (did you mean Fortify!?)"
PARTIAL = [
    ("orders16", "Fortfy! P27\nWork P99", [(1, UNREAD), (2, "P99 is not on this board")]),
    ("orders16", "Work P3\nFortfy! P27\nFortify P28", [(1, "you have no Army Units in P3"), (2, UNREAD)]),
    ("orders16", "Fortfy! P27\nWork P28\nFortify P32", [(1, UNREAD)]),  # the others are fine
    (
        "orders16",
        "Golden Fortify P27\nFortfy! P28\nGolden Fortify P32",
        [(2, UNREAD), (3, "only one Golden order of each type per turn")],
    ),
    ("orders16", "Fortfy! P27\nSend 50 to Red\nSend 20 to Will", [(1, UNREAD), (2, "these send 70 $Realm")]),
    ("orders16", "Fortfy! P27\nSupport Red in P29 from P1", [(1, UNREAD), (2, "P29 is not adjacent to P1")]),
    ("orders16", "Fortfy! P27\nMarch 1 from P1 to P0", [(1, UNREAD), (2, "the Island is reached (and left) only")]),
    # the Ferry! in play: the unread line may be the 'Ferry P1' that makes the March! legal, so it is not checked
    ("ferry16", "Fortfy! P27\nMarch 1 from P1 to P20", [(1, UNREAD)]),
    ("ferry16", "Fortfy! P27\nMarch 1 from P3 to P20", [(1, UNREAD), (2, "you have no Army Units in P3")]),
    # a team-mate may pool $Realm on the unread line: the bid is not checked against the $Realm alone
    (
        "cons12t3",
        "Buy 1 in P2\nBid 200\nBuy 1 in P5\nBuy 1 in P1 (40 frm Red)",
        [(3, "you do not control P5"), (4, "!")],
    ),
    ("cons12t3", "Buy 1 in P2\nBid 200\nBuy 1 in P5", [(3, "you do not control P5"), (2, "bid between 0 and your 90")]),
    ("cons12t3", "Buy 1 in P2 (40 from Red\nBid 120", [(1, "!")]),
    ("t1_16", "Bid 20 (10 from Will)\nFaction: Hodr", [(1, "pooled $Realm only comes from a team-mate"), (2, "!")]),
    ("dragon16", "3 from P27\nCommit 2 from P29\n2 fron P28", [(2, "you do not control P29"), (3, "!")]),
]


@pytest.mark.parametrize(("game", "dm", "want"), PARTIAL)
def test_a_refusal_lists_the_rule_errors_of_the_lines_that_read(game, dm, want):
    rows = _rows(_refusal(game, dm))
    assert [n for n, _ in rows] == [n for n, _ in want], rows
    for (_, got), (_, fragment) in zip(rows, want, strict=True):
        assert fragment == "!" or fragment in got, got


def test_a_dm_refused_whole_is_not_checked_as_the_senders_orders():
    # another turn's DM, or another player's: its lines are not the sender's orders of this step
    assert [n for n, _ in _rows(_refusal("orders16", "Turn 5 orders:\nFortfy! P27\nWork P3"))] == [1, 2]
    assert [n for n, _ in _rows(_refusal("orders16", "Orders from Red:\nFortfy! P27\nWork P3"))] == [1, 2]


def test_the_refusal_message_counts_every_line_refused():
    err = _refusal("orders16", "Fortfy! P27\nWork P99\nWork P3")
    assert err.reason.endswith("(and 2 more lines refused)"), err.reason
    assert err.details["rejected_count"] == 3


def test_regent_adjudicate_lists_the_unread_line_and_the_rule_errors_together(tmp_path, capsys):
    # the GM passes one answer on: every refused line with its line in the DMs file, the unreadable one and the rules'
    from service.cli import main
    from tests.gm.files import dms, new_game

    game = new_game(tmp_path, ["Alice", "Bob", "Carol"], "ring-3", 3)
    bids = "== Alice ==\nBid 1\n== Bob ==\nBid 2\n== Carol ==\nBid 3\n"
    assert main(["adjudicate", str(game), dms(tmp_path, bids)]) == 0
    capsys.readouterr()
    assert main(["adjudicate", str(game), dms(tmp_path, "== Alice ==\nFortfy! P1\nWork P3\n")]) == 2
    out = capsys.readouterr().err
    assert "line 2: 'Fortfy! P1': unknown order 'Fortfy!'" in out, out
    assert "also line 3: 'Work, work! P3': you have no Army Units in P3" in out, out


# ---- a chat line pasted with its time and speaker (Discord's copy, a phone chat's export): the sender's read as their
# line, anyone else's refused, never read as the sender's orders (were refused as "not a choice for the orders step",
# the time read as a commitment, or "'Alice' is a player's name"; CHAT_HEADER)
OTHERS = "!a chat line's time and speaker, names Player#2: a DM gives the orders of the player who sends it"
CHAT = [
    ("orders16", "[10:02] Alice: Fortify P27", ["Fortify! P27"]),
    ("orders16", "[10:02 PM] Alice: Fortify P27\n[10:03 PM] Alice: Work P28", ["Fortify! P27", "Work, work! P28"]),
    ("orders16", "[22:02]Alice: Fortify P27", ["Fortify! P27"]),  # Discord's compact copy
    ("orders16", "10:02 Alice: Fortify P27", ["Fortify! P27"]),
    ("orders16", "28/11/2026, 22:02 - Alice: Fortify P27", ["Fortify! P27"]),  # a phone chat's export
    ("orders16", "[28/11/26, 22:02:33] Alice: Fortify P27", ["Fortify! P27"]),
    ("orders16", "Alice \u2014 Today at 10:02 PM\n" + FORT, F4),  # Discord's copy header over the message
    ("orders16", "Alice \u2014 28/11/2026 22:02\n" + FORT, F4),
    ("orders16", "Alice Today at 10:02 PM\n" + FORT, F4),
    ("orders16", "[10:02] indigo: Fortify P27", ["Fortify! P27"]),  # Alice's seat colour
    ("orders16", "[10:02] Player#1: Fortify P27", ["Fortify! P27"]),
    ("orders16", "[10:02] Alice: Hi GM! Fortify P27, thanks", ["Fortify! P27"]),
    ("orders16", "[10:02] Alice:\n" + FORT, F4),
    ("orders16", "[10:02] Alice: Fortify P27 \u274c", "!'\u274c' beside an order could say it is not meant"),
    ("orders16", "[10:02] Alice: Fortfy P27", "!unknown order 'Fortfy'"),
    ("orders16", "[10:02] Red: Fortify P27", OTHERS),
    ("orders16", "10:02 Red: Work P29", OTHERS),
    ("orders16", "Red \u2014 Today at 10:03 PM\nWork P29", "!'Red \u2014 Today at 10:03 PM', a chat line's time"),
    (
        "orders16",
        "Alice \u2014 Today at 10:02 PM\n" + FORT + "Red \u2014 Today at 10:03 PM\nlooks good",
        "!names Player#2",
    ),
    ("orders16", "[10:02] sky blue: Work P29", OTHERS),  # Red's colour
    ("orders16", "> [10:02] Red: Work P29\n" + FORT, OTHERS),  # quoted, in a DM that says it is no reply
    (
        "orders16",
        "[10:01] GM: orders please\n[10:02] Alice: Fortify P27",
        "!'[10:01] GM:' is a chat line's time and speaker, and 'GM' is not you",
    ),
    ("orders16", "[10:02] alice_w: Fortify P27", "!send your orders without the chat header (the time and name)"),
    ("orders16", "[10:02] Bob: Fortify P27", "!'Bob' is not you"),  # a first name only: Bob the Builder?
    (
        "t1_16",
        "[10:02] Alice: Bid 20 (10 from Red)\n[10:02] Alice: Hodir",
        ["Bid 20 (10 from Player#2)", "Faction Hodir"],
    ),
    ("t1_16", "[10:02] Red: Bid 20\n[10:02] Alice: Hodir", OTHERS),  # a team-mate's bid is not Alice's
    ("dragon16", "[10:02] Alice: 3 from P27", ["3 from P27"]),
    ("orders16", "[10:02] Alice: [10:01] Red: Work P29\nFortify P27", OTHERS),  # Red's line quoted in Alice's
    ("orders16", "[10:02] Alice: Fortify P27 (edited)", "!'(edited)' is none"),  # Discord's mark on an edited message
    ("orders16", "[10:02] Alice: Fortify P27\n[10:05] Alice: actually Work P27", "!reads as a correction"),
    ("orders16", "[Today at 10:02 PM] Alice: Fortify P27", ["Fortify! P27"]),
    ("orders16", "[10:02] @Alice: Fortify P27", ["Fortify! P27"]),
    ("orders16", "[10:02] Alice (team Red): Fortify P27", "!'Alice (team Red)' is not you"),
]


@pytest.mark.parametrize(("game", "dm", "want"), CHAT)
def test_a_chat_line_with_its_time_and_speaker(game, dm, want):
    _check(_store_in(GAMES[game](), dm), want)


def test_another_speakers_chat_line_refuses_the_dm_even_leniently():
    # lenient mode drops refused lines: dropping Red's line would keep Alice's, but the DM may be a pasted channel
    with pytest.raises(RegentError, match="names Player#2"):
        GAMES["orders16"]().submit_dm("Player#1", "[10:02] Red: Work P29\nFortify P27", lenient=True)


def test_a_chat_line_read_without_its_sender_is_refused():
    from engine.protectors.dm_read import read_dm

    reading = read_dm("[10:02] Alice: Fortify P1", players={"Alice": "Player#1"})
    assert reading.error() is not None and "send the orders without the chat header" in reading.error().reason


# ---- a list's mark before an order: letters (x) too, which was read as a smiley), in brackets, Roman numerals past
# viii (were refused as unknown orders); a radio button left empty before an order could say it is not chosen (was read
# as if not there); smileys elsewhere stay smileys (LIST_MARKS, NOT_MEANT_MARKS)
LIST = [
    ("orders16", "w) Fortify P27\nx) Work P28", ["Fortify! P27", "Work, work! P28"]),
    ("orders16", "x) Work P28", ["Work, work! P28"]),
    ("orders16", "X) Work P28", ["Work, work! P28"]),
    ("orders16", "(b) Work P28", ["Work, work! P28"]),
    ("orders16", "(x) Fortify P27\n(y) Work P28", ["Fortify! P27", "Work, work! P28"]),
    ("orders16", "iv) Work P28", ["Work, work! P28"]),
    ("orders16", "ix) Fortify P27\nx) Work P28\nxi) Fortify P32", ["Fortify! P27", "Work, work! P28", "Fortify! P32"]),
    ("orders16", "(ii) Fortify P27\n(iii) Work P28", ["Fortify! P27", "Work, work! P28"]),
    ("orders16", "xii. Work P28", ["Work, work! P28"]),
    ("orders16", "[x] Fortify P27", ["Fortify! P27"]),  # ticked, as '- [x]' is
    ("orders16", "b. Work P28", "!unknown order 'b.'"),  # 'G. Fortify P27': Golden? a letter and '.' is no list mark
    ("orders16", "G. Fortify P27", "!unknown order 'G.'"),
    ("orders16", "ivy) Work P28", "!unknown order 'ivy)'"),
    ("orders16", "(x) Fortify P27\n( ) Work P28", "!'( )', a box left unticked, before an order could say it is not"),
    ("orders16", "() Work P28", "!'()', a box left unticked"),
    ("orders16", "Fortify P27 x)", ["Fortify! P27"]),
    ("orders16", "Fortify P27 xD", ["Fortify! P27"]),
    ("orders16", ":) Work P28", ["Work, work! P28"]),
    ("orders16", "Fortify P27\nx)", ["Fortify! P27"]),  # a smiley alone on its line
    ("dragon16", "a) 3 from P27\nb) 2 from P28", ["3 from P27", "2 from P28"]),
    ("t1_16", "i) Bid 20\nii) Hodir", ["Bid 20", "Faction Hodir"]),
]


@pytest.mark.parametrize(("game", "dm", "want"), LIST)
def test_a_list_mark_before_an_order(game, dm, want):
    _check(_store_in(GAMES[game](), dm), want)


# ---- team-mates signing together: a signature naming the sender and a team-mate signs for each of them (were left out
# as a signature, the orders stored as the sender's; JOINT_SIGNATURE)
SIGNED = [
    ("island8", IO + "-- Alice & Bruno", "!'-- Alice & Bruno' names Player#2: a DM gives the orders of the player who"),
    ("island8", "Alice + Bruno\n" + IO, "!'Alice + Bruno' names Player#2"),
    ("island8", IO + "~ Alice/Bruno", "!names Player#2"),
    ("island8", IO + "Alice, Bruno", "!names Player#2"),
    ("island8", IO + "-- Alice and Bruno", "!the line starts like a signature but says more than that"),
    ("island8", IO + "-- Alice", I2),
    ("island8", IO + "-- Alice & friends", I2),  # no player's name whole beside Alice's
    ("island8", IO + "Thanks, Bruno", I2),
    ("island8", IO + "Bruno:\nWork P5", "!'Bruno:' names Player#2"),
    ("island8", "Orders for Alice and Bruno:\n" + IO, "!names Player#2"),
    ("island8", IO + "Bruno: Work P5", "!'Bruno' is a player's name"),
    ("island8", IO + "Also for Bruno: Work P5", "!'Also for Bruno:' before the order is not a header"),
    ("island8", IO + "(Bruno will send his own)", I2),
]


@pytest.mark.parametrize(("game", "dm", "want"), SIGNED)
def test_a_dm_signed_by_team_mates(game, dm, want):
    _check(_store_in(GAMES[game](), dm), want)


# ---- a bid headed as the team's in a team game: each player bids on their own (were read as the sender's bid, so two
# team-mates each writing "Our bid: 30" bid 60; TEAM_BID)
OURS = "!'Our bid:' could head the team's bid or yours: in a team game each player bids on their own"
TEAM_BIDS = [
    ("t1_16", "Our bid: 30\nHodir", OURS),
    ("t1_16", "Hi team, our bid: 30\nHodir", "!'Hi team, our bid:' could head the team's bid or yours"),
    ("t1_16", "Our bid: 30 (10 from Red)\nHodir", OURS),
    ("cons12t3", "Buy 1 in P2\nOur bid: 5", OURS + ", so write your own bid as 'Bid 5', and any $Realm"),
    ("t1_16", "My bid: 30\nHodir", ["Bid 30", "Faction Hodir"]),
    ("t1_16", "Our orders:\nBid 30\nHodir", ["Bid 30", "Faction Hodir"]),  # the bid itself is Alice's
    ("t1_16", "Hi team! Bid 30\nHodir", ["Bid 30", "Faction Hodir"]),
    ("cons12t3", "Our purchases: Buy 1 in P2\nBid 5", ["Buy 1 in P2.", "Bid 5"]),  # P2 is Alice's
    ("bank16", "Our bid: 12", ["Bid 12"]),  # no teams: the sender's
    ("t1_16", "Team bid: 30\nHodir", "!'Team bid: 30' could be the team's bid or yours"),  # round 6
    ("t1_16", "Bid 20 for the team\nHodir", "!'Bid 20 for the team' could be the team's bid or yours"),
    ("t1_16", "Bid 20 + 10 from Red\nHodir", "!unexpected '+ 10 from Red'"),
    ("t1_16", "Bid 20 (+10 from Red)\nHodir", ["Bid 20 (10 from Player#2)", "Faction Hodir"]),
    ("t1_16", "Bid 20 (10 from team)\nHodir", "!'team' is not a player like Player#2"),
    ("t1_16", "Bid 20 (10 von Red)\nHodir", "!expected 'from' after the funding amount, got 'von'"),
    ("t1_16", "Red and I bid 30\nHodir", "!'Red' is a player's name"),
]


@pytest.mark.parametrize(("game", "dm", "want"), TEAM_BIDS)
def test_a_bid_for_the_team(game, dm, want):
    _check(_store_in(GAMES[game](), dm), want)


# ---- another language's greetings and thanks, alone on their lines, are left out as English ones are (were refused as
# unknown orders, 'Bonjour', 'Merci'; FOREIGN_CHAT); another language's order words stay refused
LANGUAGES = [
    ("island8", "Bonjour GM !\n" + IO + "Merci beaucoup !", I2),
    ("island8", "Hola GM\n" + IO + "Muchas gracias", I2),
    ("island8", "Guten Morgen zusammen\n" + IO + "Danke sch\u00f6n", I2),
    ("island8", "Ol\u00e1!\n" + IO + "Obrigado", I2),
    ("island8", "\u041f\u0440\u0438\u0432\u0435\u0442\n" + IO + "\u0421\u043f\u0430\u0441\u0438\u0431\u043e", I2),
    ("island8", "Buongiorno\n" + IO + "Grazie mille", I2),
    ("island8", IO + "Liebe Gr\u00fc\u00dfe, Alice", I2),
    ("island8", IO + "Vielen Dank!", I2),
    ("island8", IO + "Saludos cordiales", I2),
    ("island8", "Bonjour Bruno\n" + IO, I2),
    ("island8", "Coucou, Fortify P3\nWork P4", I2),
    ("island8", IO + "Merci, Bruno", I2),
    ("island8", IO + "merci de ne pas", "!the line starts like a thank-you or sign-off but says more than that"),
    ("island8", IO + "Danke, nicht", "!the line starts like a thank-you or sign-off"),
    ("island8", "Fortify P3 merci\nWork P4", "!unexpected 'merci' at the end of the order"),
    ("island8", "Fortifier P3\nWork P4", "!'Fortifier' (orders are read in English: did you mean Fortify!?)"),
    ("island8", "Marche 1 de P3 \u00e0 P4", "!unknown order 'Marche'"),
    ("t1_16", "Mise 20\nHodir", "!unknown order 'Mise'"),
    ("t1_16", "Bid 20 \u20ac\nHodir", "!unexpected '\u20ac'"),
    ("dragon16", "3 de P27\n2 de P28", "!expected 'from' after the unit count, got 'de'"),
    ("t1_16", "\u00a1Hola!\nBid 20\nHodir", ["Bid 20", "Faction Hodir"]),
]


@pytest.mark.parametrize(("game", "dm", "want"), LANGUAGES)
def test_another_languages_greetings_and_thanks(game, dm, want):
    _check(_store_in(GAMES[game](), dm), want)


# ---- the Island (rules: 003 Island Rules): named as a player names it, left only while a card makes every Province a
# neighbour, its units taking a March! and nothing else
ISLAND = [
    ("island8sea", "March 1 from the island to P3\nFortify P3, P4", ["March! 1 from P0 to P3", *I2[:1], "Fortify! P4"]),
    ("island8sea", "March 1 island -> P3\n" + IO, ["March! 1 from P0 to P3", *I2]),
    ("island8sea", "March all from the Island to P3\n" + IO, ["March! 1 from P0 to P3", *I2]),
    ("island8sea", "Golden March 1 from the Island to P3\n" + IO, ["Golden March! 1 from P0 to P3", *I2]),
    ("island8sea", "Delayed March 1 from the Island to P5\n" + IO, ["Delayed March! 1 from P0 to P5", *I2]),
    ("island8sea", "March 2 from P3 to the Wizard Sanctum\nWork P4", ["March! 2 from P3 to P0", "Work, work! P4"]),
    ("island8", "March 1 from the Island to P3\n" + IO, "!the Island is reached (and left) only while a card makes"),
    ("island8", "Fortify the Island\n" + IO, "!Army Units on the Island can only receive a March! order"),
    ("island8sea", "Support Bruno in P5 from P0\n" + IO, "!Army Units on the Island can only receive a March! order"),
    ("island8sea", "March 1 off the Island to P3\n" + IO, "!expected 'from' after the unit count, got 'off'"),
    ("island8sea", "March 1 from Isle to P3\n" + IO, "!'Isle' is not a province like P3"),
    ("island8sea", "March 1 from island P0 to P3\n" + IO, "!expected 'to' after the source province, got 'P0'"),
    ("island8sea", "Hold P0\n" + IO, "!'hold' is no order in this game"),
    ("island8sea", "Stay on the island\n" + IO, "!unknown order 'Stay'"),
    ("island8sea", "Ferry P3\nMarch 1 from P3 to P0", "!the Ferry! card is not in play"),
]

# ---- faction and Island abilities in loose words (rules: 003 Factions, Island Rules): the ability's name is read,
# with what it takes; anything around it is refused, saying what
ABILITY_WORDS = [
    ("island8", "Weather forecast please\n" + IO, [*I2, "Weather forecast"]),
    ("island8", "Palantir: sea deck\n" + IO, [*I2, "Palant\u00edr sea"]),
    ("island8", "Palantir the end\n" + IO, [*I2, "Palant\u00edr end"]),
    ("island8", "Pal\u00e1ntir Sea?\n" + IO, "!has a question mark"),
    ("island8", "Use weather forecast\n" + IO, "!unknown order 'Use'"),
    ("island8", "Use the palantir on Sea\n" + IO, "!unknown order 'Use'"),
    ("island8", "Weather forecast on the dragon deck\n" + IO, "!unexpected 'on the dragon deck'"),
    ("island8", "Kalu'Ak ability: weather forecast\n" + IO, '!"Kalu\'Ak ability:" before the order is not a header'),
    ("island8", "Weather forecast x2\n" + IO, "!unexpected 'x2'"),
    ("island8", "Discard the top event card\n" + IO, "!only with Weather forecast upgraded by Ashes of Power"),
    ("island8", "Fortify P0\nWork P4", "!Army Units on the Island can only receive a March! order"),
    ("cons10", "Faith alone\nBid 5", ["Bid 5", "Faith alone sustains us"]),
    ("cons10", "Faith alone sustains us!!\nBid 5", ["Bid 5", "Faith alone sustains us"]),
    ("cons10", "Use Faith alone sustains us\nBid 5", "!unknown order 'Use'"),
    ("cons10", "Upgrade P2\nBid 5", ["Upgrade P2", "Bid 5"]),  # after this turn's Golden Work, work! there
    ("cons10", "Upgrade P2 to level 3\nBid 5", "!unexpected 'to level 3'"),
    ("cons10", "Upgrade P1\nBid 2", "!no successful Golden Work, work! in P1 this turn"),
    ("dragon16", "Mountain King's protection", "!not an ability for a Dragon Attack"),
    ("dragon16", "Dragon: 3 from P27", ["3 from P27"]),
    ("dragon16", "Fight: 3 from P27", "!'Fight:' before the order is not a header"),
]

# ---- team purchases and bids in the Consolidation (rules: 003 Team Games, "Buy 2, Bid: 25 (110 from Player#2)")
CONSOLIDATION = [
    ("cons10", "Buy 2\nBid 5", ["Buy 1 in P1. 1 in P19.", "Bid 5"]),  # the team form, placed lowest-numbered first
    ("cons10", "Buy 2 units\nBid 5", ["Buy 1 in P1. 1 in P19.", "Bid 5"]),
    ("cons10", "buy 2 in p1 and 1 in p19, bid 5", ["Buy 2 in P1. 1 in P19.", "Bid 5"]),
    ("cons10", "Buy 1 in P19 (20 from Bruno)\nBid 5 (10 from Bruno)", ["Buy 1 in P19.", "Bid 5 (30 from Player#2)"]),
    ("cons10", "Buy 1 in P3\nBid 5", "!you do not control P3"),  # Bruno's
    ("cons10", "Fortify P1\nBid 5", "!not a choice for the Consolidation step"),
    ("cons10", "Buy 2 in P1\nBid 5\nBuy 2 in P1\nBid 5", ["Buy 2 in P1.", "Bid 5"]),  # pasted twice
]

# ---- orders for another step, and earlier messages quoted or referred to
ELSEWHERE = [
    ("island8", "Bid 12", "!not a choice for the orders step"),
    ("island8", "3 from P3", "!not a choice for the orders step"),
    ("island8", "On Tue, GM wrote:\n> Send your orders\n" + IO, I2),
    (
        "island8",
        "> Send your orders by Friday\n" + IO,
        "!if this quotes an earlier message, send your orders without it",
    ),
    ("island8", IO + "\n> Work P5", "!you have no Army Units in P5"),  # quoted by hand: read, as round 3 says
    ("island8", "GM said: send orders by Friday\n" + IO, "!unknown order 'GM'"),
    ("island8", "Same as last turn", "!earlier orders are not carried over"),
    ("island8", "> Fortify P3\n> Work P4\nsame as last turn", "!earlier orders are not carried over"),
    (
        "island8",
        "Same orders as last turn: Fortify P3, Work P4",
        "!'Same orders as last turn:' before the order is not",
    ),
    ("island8", "Previous orders:\nFortify P3\nNew orders:\nWork P3\nFortify P4", "!unknown order 'Previous'"),
    ("island8", "Replying to @GM\n" + IO, "!unknown order 'Replying'"),
]

# ---- a whole turn's orders pasted twice: an identical repeat adds nothing; a repeat that differs refuses the DM
TWICE = [
    ("island8", IO + IO, I2),
    ("island8", IO + "\nfortify p3\nwork p4", I2),
    ("island8", "My orders:\n" + IO + "My orders:\n" + IO, I2),
    ("island8", IO + "Thanks!\n\n" + IO + "Thanks!", I2),
    ("island8", "Fortify P3, Work P4\n" + IO, I2),
    ("island8", "March 1 from P3 to P4\nMarch! 1 P3 -> P4\nWork P4", ["March! 1 from P3 to P4", "Work, work! P4"]),
    ("island8", IO + "Fortify P3\nMarch 1 from P4 to P5", "!P4 already has an order"),
    ("island8", "Golden Fortify P3\nFortify P3", "!P3 already has an order: 'Golden Fortify! P3' and 'Fortify! P3'"),
    ("island8", IO + "--\n" + IO, "!this order is below a '--' line"),
    (
        "t1_16",
        "Bid 20 (10 from Red)\nHodir\nBid 20 (10 from Red)\nHodir",
        ["Bid 20 (10 from Player#2)", "Faction Hodir"],
    ),
    ("t1_16", "Bid 20\nHodir\nBid 25\nHodir", "!two bids: 'Bid 20' and 'Bid 25'"),
    ("orders16", FORT + "Send 10 to Red\n" + FORT + "Send 10 to Red", "!'Send 10 to Player#2' twice could add up"),
]

# ---- a phone's autocorrect: never read as another word
AUTOCORRECT = [
    ("island8", "Fortified P3\nWork P4", "!unknown order 'Fortified' (did you mean Fortify!?)"),
    ("island8", "Fortity P3\nWork P4", "!did you mean Fortify!?"),
    ("island8", "March 1 from P3 tp P4\nWork P4", "!expected 'to' after the source province, got 'tp'"),
    ("island8", "Fortify P3\nWork, worm! P4", "!'worm' is not a province like P3"),
    ("t1_16", "Bid 2O\nHodir", "!expected the bid (a whole number), got '2O'"),
    ("t1_16", "Bid l0\nHodir", "!got 'l0'"),
    ("t1_16", "Bid 20\nHodor", "!unknown order 'Hodor'"),
    ("t1_16", "Bid 20\nCenarian", "!unknown order 'Cenarian'"),
    ("t1_16", "Bid 20\nKaluak", ["Bid 20", "Faction Kalu'Ak"]),
    ("orders16", "Support Read in P29 from P28\nFortify P27, P32, P1", "!did you mean Red?"),
    ("orders16", FORT + "Send 10 to my teammate", "!'my teammate' is not a player"),
    ("island8", "Fortify P3.\nWork P4.", I2),
]


@pytest.mark.parametrize(
    ("game", "dm", "want"), ISLAND + ABILITY_WORDS + CONSOLIDATION + ELSEWHERE + TWICE + AUTOCORRECT
)
def test_a_messy_dm_at_a_big_table(game, dm, want):
    _check(_store_in(GAMES[game](), dm), want)


def test_the_round_covers_big_tables_with_the_options_on():
    cases = CHAT + LIST + SIGNED + TEAM_BIDS + LANGUAGES + ISLAND + ABILITY_WORDS + CONSOLIDATION + ELSEWHERE + TWICE
    games = {game for game, _, _ in cases + AUTOCORRECT + PARTIAL}
    built = [GAMES[g]() for g in games]
    assert {g.step for g in built} == {"bid", "bank_bid", "orders", "dragon", "consolidation"}
    assert all(7 <= len(g.state.players) <= 16 for g in built)
    assert any(g.state.options.teams and g.state.options.factions and g.state.board.island for g in built)
    assert len(cases + AUTOCORRECT + PARTIAL) >= 150
