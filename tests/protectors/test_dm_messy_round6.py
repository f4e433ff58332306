"""A sixth round of messy DMs: 7- to 16-seat tables with the options on (teams of 2 and 3, factions, the Island, the
Grand board), as players type on Discord phones: autocorrect, mixed case, emoji, quoted replies, code blocks, Discord
mentions, a whole order list sent again after an edit, several orders on a line, Provinces misspelt or abbreviated,
numbers in words, orders for a team-mate, a bid and orders in one DM, orders for the wrong step; a bid said as the
team's (TEAM_BID) and another language's order words (FOREIGN_ORDER_WORDS).

Each case goes through ``Game.submit_dm`` for Player#1 (Alice), as in the earlier rounds (``test_dm_messy_round5``),
and says what must be stored (the canonical lines) or why it must be refused ("!fragment" of the reason).
"""

from __future__ import annotations

import pytest

from engine.errors import RegentError
from tests.protectors.test_dm_messy_round import _check, _store_in
from tests.protectors.test_dm_messy_round5 import GAMES

# ---- a bid said as the team's, with no order word first or words after it (rules: 003 Team Games, Pooled $Realm: each
# player bids on their own). Were refused as "unknown order 'Team'" or "unexpected 'for the team'", not saying what to
# write; refused now with the player's own bid in the words to send (TEAM_BID)
TEAMS = "could be the team's bid or yours: in a team game each player bids on their own, so write your own bid as"
TEAM_BIDS = [
    ("t1_16", "Team bid: 30\nHodir", f"!'Team bid: 30' {TEAMS} 'Bid 30', and any $Realm it takes from a team-mate"),
    ("t1_16", "team bid 30\nHodir", f"!'team bid 30' {TEAMS} 'Bid 30'"),
    ("t1_16", "Our team bids 30\nHodir", f"!'Our team bids 30' {TEAMS} 'Bid 30'"),
    ("t1_16", "Our team bid: 30 \U0001f4b0\nHodir", f"!'Our team bid: 30' {TEAMS} 'Bid 30'"),
    ("t1_16", "Team's bid: 30\nHodir", f"!\"Team's bid: 30\" {TEAMS} 'Bid 30'"),
    ("t1_16", "We bid 30\nHodir", f"!'We bid 30' {TEAMS} 'Bid 30'"),
    ("t1_16", "We're bidding 30 each\nHodir", f"!\"We're bidding 30\" {TEAMS} 'Bid 30'"),
    ("t1_16", "our bid is 30\nHodir", f"!'our bid is 30' {TEAMS} 'Bid 30'"),
    ("t1_16", "Hi team, we bid 30\nHodir", f"!'we bid 30' {TEAMS} 'Bid 30'"),
    ("t1_16", "Bid 30 for the team\nHodir", f"!'Bid 30 for the team' {TEAMS} 'Bid 30'"),
    ("t1_16", "- **Team bid: 30**\nHodir", f"!'Team bid: 30' {TEAMS} 'Bid 30'"),
    ("t1_16", "Team bid 30 (10 from Red)\nHodir", "!so write your own bid as 'Bid 30 (10 from Red)'"),
    ("t1_12t3", "Team bid: 25", f"!'Team bid: 25' {TEAMS} 'Bid 25'"),  # teams of 3
    ("cons12t3", "Buy 1 in P2\nteam bid: 5", f"!'team bid: 5' {TEAMS} 'Bid 5'"),
    ("cons10", "Buy 1 in P1\nOur team bids 5 total", f"!'Our team bids 5' {TEAMS} 'Bid 5'"),
    # no team-mate: a bid for more than the sender is still no bid of theirs
    ("bank16", "Team bid: 12", "!'Team bid: 12' says a bid for more than you: a DM gives your own bid"),
    ("bank16", "We bid 12", "!a DM gives your own bid, written 'Bid 12'"),
    # more on the line than the bid: refused for it, as before
    ("t1_16", "Team bid 30 if Red agrees\nHodir", "!unknown order 'Team'"),
    ("orders16", "Team bid 30\n" + "Fortify P27, P28, P32, P1", "!unknown order 'Team'"),  # no bid in the orders step
    ("t1_16", "My bid: 30\nHodir", ["Bid 30", "Faction Hodir"]),
    ("t1_16", "Bid 30 (10 from Red)\nHodir", ["Bid 30 (10 from Player#2)", "Faction Hodir"]),
]


@pytest.mark.parametrize(("game", "dm", "want"), TEAM_BIDS)
def test_a_bid_said_as_the_teams(game, dm, want):
    _check(_store_in(GAMES[game](), dm), want)


# ---- another language's order words: never read as an order, named in the refusal with the English order word they
# look like (were "unknown order 'Mise'" with no word to write, or "did you mean" for a few that were close by spelling;
# FOREIGN_ORDER_WORDS)
ENGLISH = "(orders are read in English: did you mean"
FOREIGN = [
    ("island8", "Fortifier P3\nWork P4", f"!unknown order 'Fortifier' {ENGLISH} Fortify!?)"),
    ("island8", "Befestigen P3\nWork P4", f"!unknown order 'Befestigen' {ENGLISH} Fortify!?)"),
    ("island8", "Fortificar P3\nWork P4", f"!unknown order 'Fortificar' {ENGLISH} Fortify!?)"),
    ("island8", "Marschieren 1 von P3 nach P4\nWork P4", f"!unknown order 'Marschieren' {ENGLISH} March!?)"),
    ("island8", "Marche 1 de P3 \u00e0 P4\nWork P4", f"!unknown order 'Marche' {ENGLISH} March!?)"),
    ("island8", "marchar 1 de P3 a P4\nWork P4", f"!unknown order 'marchar' {ENGLISH} March!?)"),
    ("island8", "Fortify P3\nSoutenir Bruno en P5", f"!unknown order 'Soutenir' {ENGLISH} Support!?)"),
    (
        "island8",
        "Fortify P3\nUnterst\u00fctzen Bruno in P5",
        f"!unknown order 'Unterst\u00fctzen' {ENGLISH} Support!?)",
    ),
    ("island8", "Fortify P3\nApoyar Bruno en P5", f"!{ENGLISH} Support!?)"),
    ("island8", "Fortify P3\nTravailler P4", f"!unknown order 'Travailler' {ENGLISH} Work, work!?)"),
    ("island8", "Fortify P3\nArbeiten P4", f"!{ENGLISH} Work, work!?)"),
    ("island8", "Fortify P3\ntrabajar p4", f"!{ENGLISH} Work, work!?)"),
    ("island8", "Dor\u00e9 Fortify P3\nWork P4", f"!unknown order 'Dor\u00e9' {ENGLISH} Golden?)"),
    (
        "island8",
        "Golden Befestigen P3\nWork P4",
        f"!'Golden' applies only to March!, Support!, Fortify! and Work, work!, not 'Befestigen' {ENGLISH} Fortify!?)",
    ),
    ("island8", "Fortify P3\nWork P4\nEnvoyer 10 \u00e0 Bruno", f"!unknown order 'Envoyer' {ENGLISH} Send?)"),
    ("t1_16", "Mise 20\nHodir", f"!unknown order 'Mise' {ENGLISH} Bid?)"),
    ("t1_16", "Ench\u00e8re: 20\nHodir", f"!{ENGLISH} Bid?)"),
    ("t1_16", "Gebot 20\nHodir", f"!unknown order 'Gebot' {ENGLISH} Bid?)"),
    ("t1_16", "Apuesta 20\nHodir", f"!{ENGLISH} Bid?)"),
    ("cons10", "Acheter 1 en P1\nBid 5", f"!unknown order 'Acheter' {ENGLISH} Buy?)"),
    ("cons10", "Kaufen 1 in P1\nBid 5", f"!{ENGLISH} Buy?)"),
    ("cons10", "Comprar 1 en P1\nBid 5", f"!{ENGLISH} Buy?)"),
    ("cons10", "Am\u00e9liorer P2\nBid 5", f"!unknown order 'Am\u00e9liorer' {ENGLISH} Upgrade?)"),
    ("island8", "Bonjour ! Fortifier P3\nWork P4", f"!{ENGLISH} Fortify!?)"),  # after a greeting
    # a misspelt English one is no other language; a word like none stays an unknown order
    ("island8", "Fortfy P3\nWork P4", "!unknown order 'Fortfy' (did you mean Fortify!?)"),
    ("island8", "Verteidigen P3\nWork P4", "!unknown order 'Verteidigen'; expected one of"),
    # the order word in English, the rest in another language: refused for its first word that is no English
    ("island8", "March 1 de P3 \u00e0 P4\nWork P4", "!expected 'from' after the unit count, got 'de'"),
]


@pytest.mark.parametrize(("game", "dm", "want"), FOREIGN)
def test_another_languages_order_word_is_named_never_read(game, dm, want):
    _check(_store_in(GAMES[game](), dm), want)


def test_every_foreign_order_word_is_refused_naming_an_english_order_word():
    # the table only names words in refusals: none of them is read as an order, each names an order word of the game
    from engine.errors import RegentError
    from engine.protectors.notation import parse_text
    from engine.protectors.notation_grammar import FOREIGN_ORDER_WORDS

    for word, head in FOREIGN_ORDER_WORDS.items():
        with pytest.raises(RegentError) as caught:
            parse_text(f"{word.capitalize()} 2 P3")
        assert f"{ENGLISH} {head.capitalize()}" in caught.value.reason, caught.value.reason


# ---- an edit or correction written as a header before the order ("Edit: Work P27" under the orders it changes): was
# refused as "'Edit:' before the order is not a header", so lenient mode dropped the line and stored the orders it
# corrects; refused now as a correction, the DM whole even leniently (CORRECTIONS_REFUSED)
FORT = "Fortify P27, P28, P32, P1\n"
F2 = ["Fortify! P32", "Fortify! P1"]  # P32 and P1 fortified
IO = "Fortify P3\nWork P4\n"  # island8: Alice fortifies P3 and works P4
CORRECTED = "reads as a correction, or as taking an order back"
EDITS = [
    ("orders16", FORT + "Edit: Work P27", f"!'Edit:' {CORRECTED} ('edit')"),
    ("orders16", FORT + "EDIT: Fortify P27, P28, P32, P1", f"!'EDIT:' {CORRECTED}"),  # the whole list again
    ("orders16", FORT + "Edited: March 2 from P27 to P26", f"!'Edited:' {CORRECTED}"),
    ("orders16", FORT + "Correction: Work P27", f"!'Correction:' {CORRECTED}"),
    ("orders16", FORT + "Actually: Work P27", f"!'Actually:' {CORRECTED}"),
    ("orders16", FORT + "Update: Work P27", f"!'Update:' {CORRECTED} ('update')"),
    ("orders16", FORT + "Change: Work P27", f"!'Change:' {CORRECTED}"),
    ("orders16", FORT + "edit - Work P27", f"!{CORRECTED} ('edit')"),
    ("t1_16", "Bid 20\nHodir\nEdit: Bid 25", f"!'Edit:' {CORRECTED}"),
    ("cons10", "Buy 1 in P1\nBid 5\nupdate: bid 8", f"!'update:' {CORRECTED}"),
    ("dragon16", "3 from P27\nEdit: 2 from P27", f"!{CORRECTED}"),
    # a header that is one
    ("orders16", "My orders:\n" + FORT, ["Fortify! P27", "Fortify! P28", "Fortify! P32", "Fortify! P1"]),
    ("orders16", "Plan: Fortify P27", "!'Plan:' before the order is not a header like 'My orders:'"),
]


@pytest.mark.parametrize(("game", "dm", "want"), EDITS)
def test_an_edit_written_as_a_header_is_a_correction(game, dm, want):
    _check(_store_in(GAMES[game](), dm), want)


@pytest.mark.parametrize(
    "dm", [FORT + "Edit: Work P27", FORT + "Actually: Work P27", FORT + "Update: March 2 from P27 to P26"]
)
def test_an_edit_written_as_a_header_refuses_the_dm_even_leniently(dm):
    g = GAMES["orders16"]()
    with pytest.raises(RegentError, match="reads as a correction"):
        g.submit_dm("Player#1", dm, lenient=True)
    assert "Player#1" not in g.state.submissions  # the orders it corrects are not stored


# ---- orders on one line with no space after the ',' or ';' between them, as a phone's keyboard leaves them (were
# refused: "unexpected 'work p28' at the end of the order"); never before a number, where ',' may group thousands
SQUEEZED = [
    (
        "orders16",
        "fortify p27,work p28 , march 2 from p32 to p31,fortify p1",
        ["Fortify! P27", "Work, work! P28", "March! 2 from P32 to P31", "Fortify! P1"],
    ),
    ("orders16", "March 2 from P27 to P26,Fortify P28", ["March! 2 from P27 to P26", "Fortify! P28"]),
    ("orders16", "Fortify P27;Work P28;Fortify P32;Fortify P1", ["Fortify! P27", "Work, work! P28", *F2]),
    ("orders16", "Support Red in P29 from P28,Fortify P27", ["Support! Player#2 in P29 from P28", "Fortify! P27"]),
    ("orders16", "Send 10 to Red,Fortify P27", ["Send 10 to Player#2", "Fortify! P27"]),
    ("orders16", "Fortify P27,P28,P32,P1", ["Fortify! P27", "Fortify! P28", *F2]),
    ("orders16", "Fortify P27,thanks", ["Fortify! P27"]),
    ("cons10", "Buy 1 in P1,bid 5", ["Buy 1 in P1.", "Bid 5"]),
    ("t1_16", "Bid 20,Hodir", ["Bid 20", "Faction Hodir"]),
    ("orders16", "Fortify P27,Red", "!unexpected 'Red' at the end of the order"),
    ("orders16", "Fortify P27,Wrok P28", "!unexpected 'Wrok P28'"),
    ("dragon16", "3 from P27,2 from P28", "!unexpected '2 from P28'"),  # '27,2': no split before a digit
    ("t1_16", "Bid 1,000\nHodir", "!bid between 0 and your"),  # a number, never two bids
]


@pytest.mark.parametrize(("game", "dm", "want"), SQUEEZED)
def test_orders_on_a_line_with_no_space_after_the_comma(game, dm, want):
    _check(_store_in(GAMES[game](), dm), want)


# ---- the GM addressed as Discord's "@" writes it, before the orders (was "unknown order '@GM'", where "GM Fortify P27"
# and "@GM, Fortify P27" were read)
AT_GM = [
    ("orders16", "@GM Fortify P27", ["Fortify! P27"]),
    ("orders16", "@gm fortify p27, p28, p32, p1", ["Fortify! P27", "Fortify! P28", *F2]),
    ("orders16", "Hi @GM Fortify P27", ["Fortify! P27"]),
    ("orders16", "@GM Fortify P27\n@GM Work P28", ["Fortify! P27", "Work, work! P28"]),
    ("t1_16", "@GM Bid 20\nHodir", ["Bid 20", "Faction Hodir"]),
    ("orders16", "@GM", "!the DM holds no order"),
    ("orders16", "@Red Fortify P27", "!unknown order '@Red'"),  # a player: whose orders?
]


@pytest.mark.parametrize(("game", "dm", "want"), AT_GM)
def test_the_gm_addressed_with_an_at(game, dm, want):
    _check(_store_in(GAMES[game](), dm), want)


# ---- a postscript: said as one in the refusal (was "unknown order 'P.S.'", and with an order after "P.S." the same);
# never left out, as it may say anything, an order or a condition
PS = "!not an order: the line starts like a postscript (P.S.) but says more than that, so it is read as orders"
POSTSCRIPTS = [
    ("island8", IO + "P.S. good luck everyone", PS),
    ("island8", IO + "PS good luck", PS),
    ("island8", IO + "ps. gl hf \U0001f340", PS),
    ("island8", IO + "PS: Bruno will send his own", PS),
    ("island8", IO + "P.P.S. Fortify P5", PS),
    ("island8", IO + "PS Fortify P5", PS),
    ("island8", IO + "// P.S. good luck", ["Fortify! P3", "Work, work! P4"]),  # a note to the GM
    ("island8", IO + "P5 Fortify", "!unknown order 'P5'"),
]


@pytest.mark.parametrize(("game", "dm", "want"), POSTSCRIPTS)
def test_a_postscript(game, dm, want):
    _check(_store_in(GAMES[game](), dm), want)
