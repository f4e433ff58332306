"""The example DMs docs/dm-syntax.md gives players are read as the page says: each example is quoted from the page (so
editing it there fails here until the case follows), then stored as said or refused with the said reason. The page's
examples of the DM reader's latest changes: foreign greetings and thanks, pasted chat lines, list marks, an empty radio
button, a joint signature, a team's "our bid", a refusal listing every problem, and 'all' that is no number."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.protectors.test_dm_messy_round import GAMES, _check, _store

DOC = (Path(__file__).resolve().parents[2] / "docs" / "dm-syntax.md").read_text(encoding="utf-8")
FORT = ["Fortify! P1"]  # orders14: Alice holds P1 (3 units), P2, P5 and P28; Bob is Player#2

# (the example as the page writes it, the game, the DM it stands in, what is stored or "!" and the refusal's words)
CASES = [
    # greetings and thanks in other languages, alone on their line
    ("`Bonjour GM`", "orders14", "Bonjour GM\nFortify P1", FORT),
    ("`Hola`", "orders14", "Hola\nFortify P1", FORT),
    ("`Guten Morgen`", "orders14", "Guten Morgen\nFortify P1", FORT),
    ("`Buongiorno`", "orders14", "Buongiorno\nFortify P1", FORT),
    ("`Olá`", "orders14", "Olá\nFortify P1", FORT),
    ("`Привет`", "orders14", "Привет\nFortify P1", FORT),
    ("`Merci beaucoup`", "orders14", "Fortify P1\nMerci beaucoup", FORT),
    ("`Muchas gracias`", "orders14", "Fortify P1\nMuchas gracias", FORT),
    ("`Grazie mille`", "orders14", "Fortify P1\nGrazie mille", FORT),
    ("`Obrigado`", "orders14", "Fortify P1\nObrigado", FORT),
    ("`Liebe Grüße`", "orders14", "Fortify P1\nLiebe Grüße", FORT),
    ("after an order only the English ones", "orders14", "Fortify P1 merci beaucoup", "!unexpected 'merci beaucoup'"),
    # a chat line pasted with its time and speaker
    ("`[10:02] Alice: Fortify P1`", "orders14", "[10:02] Alice: Fortify P1", FORT),
    ("`[10:02 PM]Alice: ...`", "orders14", "[10:02 PM]Alice: Fortify P1", FORT),
    ("`10:02 Alice: ...`", "orders14", "10:02 Alice: Fortify P1", FORT),
    ("`28/11/2026, 22:02 - Alice: ...`", "orders14", "28/11/2026, 22:02 - Alice: Fortify P1", FORT),
    ("10:02 PM` over the message", "orders14", "Alice — Today at 10:02 PM\nFortify P1", FORT),
    ("`[10:02] Bob: ...`", "orders14", "[10:02] Bob: Fortify P1", "!names Player#2"),
    ("`Bob — Today at 10:03 PM`", "orders14", "Bob — Today at 10:03 PM\nFortify P1", "!names Player#2"),
    ("`[10:01] GM: ...`", "orders14", "[10:01] GM: Fortify P1", "!'GM' is not you"),
    ("a name Regent does not know as yours", "orders14", "[10:02] Zed: Fortify P1", "!'Zed' is not you"),
    # 'and' joining two greeted ones (orders14: no teams; team16: Bob is Alice's team-mate)
    ("`Hi Bob and GM`", "orders14", "Hi Bob and GM, Fortify P1", FORT),
    ("`Hi Bob and GM`", "team16", "Hi Bob and GM, Fortify P1", "!greets Player#2, your team-mate"),
    # a Discord mention of no player of the game, greeted
    ("`Hi <@123>, Fortify! P1`", "orders14", "Hi <@123>, Fortify! P1", FORT),
    ("`Thanks <@123>!`", "orders14", "Fortify P1\nThanks <@123>!", FORT),
    # a faction's name with thanks after it, before the bid (t1_12: turn 1 with factions)
    ("`Hodir pls, bid 20`", "t1_12", "Hodir pls, bid 20", ["Bid 20", "Faction Hodir"]),
    ("chosen with that bid", "orders14", "Hodir pls, fortify P1", "!('Hodir' names a faction, chosen only with the"),
    # the same amount from each of two team-mates, or one amount from two (t1_16t: teams of four)
    ("`Bid 25 (10 each from Bob and Player#4)`", "t1_16t", "Bid 25 (10 each from Bob and Player#4)",
     ["Bid 25 (10 from Player#2, 10 from Player#4)"]),
    ("`(10 from Bob & Player#4)`, is refused", "t1_16t", "Bid 25 (10 from Bob & Player#4)",
     "!10 from each, or 10 between them?"),
    # the rulebook's order word with a hyphen
    ("`Work-work P2` as `Work, work! P2`", "orders14", "Work-work P2", ["Work, work! P2"]),
    # 'no' phrases: a purchase, the Bank's bid (bank12: Alice's late bid as the Bank of Lannuvár)
    ("`No buy, bid 17`", "cons12", "No buy, bid 17", ["Bid 17"]),
    ("`No bank bid` for 0", "bank12", "No bank bid", ["Bid 0"]),
    # Provinces with nothing between them
    ("(`Fortify P1 P2`: the", "orders14", "Fortify P1 P2", "!joined by ',' or 'and', like 'Fortify! P1, P2'"),
    # Provinces joined by '/'
    ("(`Fortify P27/P28`: both", "orders14", "Fortify P1/P2", "!like 'Fortify P1' and 'Fortify P2'"),
    # an 'and' joining the sender to someone in a remark in brackets
    ("`(Bruno and I agreed)`", "team16", "Fortify P1\n(Bob and I agreed)", FORT),
    ("`(Red and me discussed it)`", "team16", "Fortify P1 (Bob and me discussed it)", FORT),
    ("`(and P2)`", "orders14", "Fortify P1\n(and P2)", "!('and' could add to the orders)"),
    # a team-mate greeted before an order (team16: Alice and Bob are team A)
    ("`Hi Bob, Fortify! P1`", "team16", "Hi Bob, Fortify! P1", "!greets Player#2, your team-mate"),
    ("`Hi Bob Fortify! P1`", "team16", "Hi Bob Fortify! P1", "!send it without the greeting, 'Fortify! P1'"),
    ("`Hi Bob` over the", "team16", "Hi Bob\nFortify P1", FORT),
    # signatures naming a team-mate too (team16: Alice and Bob are team A)
    ("`-- Alice & Bob`", "team16", "Fortify P1\n-- Alice & Bob", "!names Player#2"),
    ("`Alice + Bob`", "team16", "Alice + Bob\nFortify P1", "!names Player#2"),
    # list marks, and a box or radio button left empty
    ("`(b) `", "t1_12", "(b) Bid 5", ["Bid 5"]),
    ("`x) `", "t1_12", "x) Bid 5", ["Bid 5"]),
    ("`(iv) `", "t1_12", "(iv) Bid 5", ["Bid 5"]),
    ("`xii. `", "t1_12", "xii. Bid 5", ["Bid 5"]),
    ("a ticked `[x] `", "orders14", "[x] Fortify P1", FORT),
    ("`G. Fortify P1` could mean Golden", "orders14", "G. Fortify P1", "!unknown order 'G.'"),
    ("`( ) Fortify P1`", "orders14", "( ) Fortify P1", "!a box left unticked"),
    # a team's bid (t1_16t: four teams of four), and without teams
    ("`Our bid: 30`", "t1_16t", "Our bid: 30", "!each player bids on their own"),
    ("`Hi team, our bid: 30`", "t1_16t", "Hi team, our bid: 30", "!each player bids on their own"),
    ("`Our bid: 30`", "t1_12", "Our bid: 30", ["Bid 30"]),
    ("`Team bid: 30`", "t1_16t", "Team bid: 30", "!could be the team's bid or yours"),
    ("`Our team bids 30`", "t1_16t", "Our team bids 30", "!so write your own bid as 'Bid 30'"),
    ("`Bid 30 for the team`", "t1_12", "Bid 30 for the team", "!a DM gives your own bid, written 'Bid 30'"),
    # 'all' that is no number, and 'all' without its Province
    ("`all 3`", "dragon12", "commit all 3 from P6", "!gives the count twice"),
    ("`all but 1`", "orders14", "March! all but 1 from P1 to P28", "!got 'but'"),
    ("`most`", "orders14", "March! most from P1 to P28", "!expected the unit count"),
    ("`half`", "dragon12", "commit half", "!expected the unit count"),
    ("`max`", "t1_12", "Bid max", "!expected the bid"),
    ("`commit all my units`", "dragon12", "commit all my units", "!write 'all from P6'"),
    ("`Fortify all`", "orders14", "Fortify all", "!name each one"),
]


@pytest.mark.parametrize(("quoted", "game", "dm", "want"), CASES)
def test_an_example_of_the_page_is_read_as_it_says(quoted, game, dm, want):
    assert quoted in DOC, f"docs/dm-syntax.md no longer says {quoted!r}: make this case follow the page"
    _check(_store(game, dm), want)


def test_a_refusal_lists_every_problem_of_the_dm():
    """The page's opening: beside a line that could not be read, the answer lists what the rules refuse in the other
    lines (`Work P99` where P99 is not yours)."""
    assert "(`Work P99` where P99 is not yours)" in DOC
    got = _store("orders14", "Fortfy! P17\nWork P7")  # P7 is not Alice's
    assert not isinstance(got, list)
    assert [(r["line_no"], r["line"]) for r in got.details["rejected"]] == [(1, "Fortfy! P17"), (2, "Work, work! P7")]


def test_the_cases_use_games_the_rounds_define():
    assert {game for _, game, _, _ in CASES} <= set(GAMES)
