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
from tests.protectors.helpers import position
from tests.protectors.test_dm_messy_round import SEATS, _check, _named, _store_in
from tests.protectors.test_dm_messy_round5 import GAMES

FACTIONS7 = ["Hodir", "Iron Light", "Cenarion", "Lannuv\u00e1r", "Kalu'Ak"]


def seven7():
    """Turn 3 of a 7-seat game with the Island and factions, no teams: Alice (Hodir) holds P1 (3 units) and P7 (1), Bob
    P2, Carol P3, Dave P4, Erin P5, Finn P6, Gail the Island; 25 $Realm each."""
    provs = {"P1": ("Player#1", 3), "P7": ("Player#1", 1), "P0": ("Player#7", 1)}
    provs.update({f"P{i}": (f"Player#{i}", 1) for i in range(2, 7)})
    g = position(
        "ring-7+island",
        7,
        provs,
        turn=3,
        ranking=SEATS[:7],
        realm=dict.fromkeys(SEATS[:7], 25),
        options={"factions": True},
        factions=dict(zip(SEATS[:7], [*FACTIONS7, "Hodir", "Cenarion"], strict=True)),
    )
    return _named(g, ["Alice", "Bob", "Carol", "Dave", "Erin", "Finn", "Gail"])


GAMES = {**GAMES, "seven7": seven7}

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

    # the words a DM starts an order or a choice with (rules: 003: the orders, Golden Orders, Delayed March!, bids,
    # purchases, Sends, upgrades), written out here: a head taken from the table alone would check nothing of it
    orders = {"march", "support", "fortify", "work", "bid", "buy", "send", "upgrade", "golden", "delayed"}
    assert len(FOREIGN_ORDER_WORDS) > 50
    for word, head in FOREIGN_ORDER_WORDS.items():
        assert head in orders, (word, head)
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


# ---- a round of DMs as players type them on Discord phones at 7- to 16-seat tables: what a fair GM reads, or the
# refusal naming what is wrong. (orders16: Alice P27 3 units, P28 2, P32 2, P1 1, Red her team-mate; seven7: Alice P1 3,
# P7 1; island8: Alice P3, P4 and the Island, Bruno her team-mate; cons10, cons12t3: the Consolidation; dragon16; t1_16
# and t1_12t3: the turn-1 bid, teams of 2 and 3)
F4 = ["Fortify! P27", "Fortify! P28", *F2]
M7 = ["March! 2 from P1 to P2", "Fortify! P7"]  # seven7
I2 = ["Fortify! P3", "Work, work! P4"]  # island8
MENTION_WORDS = "a Discord mention Regent cannot match to a player of this game"
MENTIONED = "!'{}' is " + MENTION_WORDS + ": name the player, like Player#2"
PHONE = [
    # autocorrect, mixed case, emoji
    ("orders16", "FORTIFY P27\nfortify p28\nFoRtIfY P32\nfortify P1", F4),
    ("orders16", "Fortify P27, P28, P32 and P1 \U0001f44d", F4),
    ("orders16", "March 2 from P27 to P26 \u2694\ufe0f\nFortify P28, P32, P1", ["March! 2 from P27 to P26", *F4[1:]]),
    ("orders16", "Marvh 2 from P27 to P26\nFortify P28, P32, P1", "!unknown order 'Marvh' (did you mean March!?)"),
    ("orders16", "March 2 form P27 to P26\nFortify P28, P32, P1", "!expected 'from' after the unit count, got 'form'"),
    (
        "orders16",
        "March 2 from P27 too P26\nFortify P28, P32, P1",
        "!expected 'to' after the source province, got 'too'",
    ),
    ("seven7", "Mrach 2 from P1 to P2\nFortify P7", "!unknown order 'Mrach' (did you mean March!?)"),
    ("seven7", "Fortifiy P1, P7", "!unknown order 'Fortifiy' (did you mean Fortify!?)"),
    ("seven7", "March 2 from P1 to P2 \u2705\nFortify P7 \u2705", M7),
    ("seven7", "March 2 from P1 to P2!!!\nFortify P7!!!", M7),
    ("seven7", "March 2 from P1 to p2.\nFortify p7.", M7),
    ("seven7", "Fortify P1 & P7 \U0001f6e1\ufe0f", ["Fortify! P1", "Fortify! P7"]),
    ("island8", "GOLDEN FORTIFY P3\nWORK P4", ["Golden Fortify! P3", "Work, work! P4"]),
    ("island8", IO + "\U0001f64f", I2),
    ("island8", IO + "thx gm!!", I2),
    ("island8", "\u2705 Fortify P3\n\u2705 Work P4", I2),
    ("island8", "\u2611\ufe0f Fortify P3\n\u2610 Work P4", "!a box left unticked, before an order could say it is not"),
    ("island8", "fortify P3 n work P4", "!unexpected 'n work P4' at the end of the order"),
    ("island8", "Fortify P3 also Work P4", "!unexpected 'also Work P4'"),
    ("island8", "Fortify P3 (golden)\nWork P4", "!'golden' is a word orders are made of"),
    ("island8", "March 1 from P4 to P5 (delayed)\nFortify P3", "!'delayed' is a word orders are made of"),
    ("seven7", "Work P7\nFortify P1 (keep 3 home)", "!'(keep 3 home)' is none ('keep' could give or change a number)"),
    ("seven7", "Fortify P1, P7\nsee you next turn!", "!unknown order 'see'"),
    ("seven7", "Fortify P1, P7\n\nSent from my iPhone", ["Fortify! P1", "Fortify! P7"]),
    # quoted replies and code blocks
    ("orders16", "> GM: orders due Friday\n" + FORT, "!if this quotes an earlier message, send your orders without it"),
    ("seven7", "> Gail: i'm coming for you\nFortify P1, P7", "!'Gail' is a player's name"),
    ("orders16", "> Fortify P27\nWork P27 instead", "!reads as a correction"),
    ("orders16", ">>> Fortify P27, P28, P32, P1", F4),
    ("orders16", "```\nFortify P27\nFortify P28\nFortify P32\nFortify P1\n```", F4),
    ("orders16", "```Fortify P27, P28, P32, P1```", F4),
    ("orders16", "```diff\n+ Fortify P27\n+ Fortify P28\n```", F4[:2]),
    ("orders16", "`Fortify P27` `Fortify P28`", "!unexpected 'Fortify P28' at the end of the order"),
    ("dragon16", "> Dragon attack! Commit units\n3 from P27", "!if this quotes an earlier message"),
    # Discord mentions: a team-mate's by name is read; a raw mention names no seat the engine knows (the bot makes a
    # seat holder's mention the seat before the engine reads it), so it is refused, named
    (
        "orders16",
        "Support @Red in P29 from P28\nFortify P27, P32, P1",
        ["Support! Player#2 in P29 from P28", "Fortify! P27", *F2],
    ),
    ("orders16", "Support <@222> in P29 from P28\nFortify P27, P32, P1", MENTIONED.format("<@222>")),
    ("seven7", "Support <@555> in P2 from P1\nFortify P7", MENTIONED.format("<@555>")),
    ("t1_16", "Bid 20 (5 from @Red)\nHodir", ["Bid 20 (5 from Player#2)", "Faction Hodir"]),
    ("t1_16", "Bid 20 (5 from <@222>)\nHodir", MENTIONED.format("<@222>")),
    (
        "orders16",
        "<@123456789> Fortify P27, P28, P32, P1",
        f"!unknown order '<@123456789>' ({MENTION_WORDS}: send your orders without it)",
    ),
    ("orders16", "<@&5555> Fortify P27, P28, P32, P1", f"!unknown order '<@&5555>' ({MENTION_WORDS}"),
    ("orders16", "Fortify P27, P28, P32, P1 <:pepe:12345>", F4),  # a custom emoji
    ("island8", IO + "Send 10 to <@123>", MENTIONED.format("<@123>")),
    ("island8", IO + "Snitch <@!123>", MENTIONED.format("<@123>")),
    ("orders16", "<#998877> Fortify P27", f"!unknown order '<#998877>' ({MENTION_WORDS}"),
    # provinces misspelt or abbreviated
    ("orders16", "Fortify P 27, P28, p32, P1", F4),
    ("orders16", "Fortify Prov 27", ["Fortify! P27"]),
    (
        "orders16",
        "Fortify province twenty-seven",
        "!spells a Province's number past twelve: write it in digits, like P27",
    ),
    ("orders16", "Fortify 27", "!a Province is named with its P, like P27"),
    ("orders16", "Fortify P27, P28, P23, P1", "!'Fortify! P23': you have no Army Units in P23"),
    ("orders16", "Fortify P27/P28/P32/P1", "!'P27/P28/P32/P1' joins Provinces with '/'"),  # or: P27 or P28? (round 7)
    ("orders16", "Fortify Pp27", "!'Pp27' is not a province like P3"),
    ("orders16", "Fortify O27", "!'O27' is not a province like P3"),
    ("island8", "Fortify P03\nWork P04", I2),
    ("seven7", "March 2 from P1 to P 2\nFortify P7", M7),
    ("seven7", "March 2 from P1 to Bob's P2\nFortify P7", '!"Bob\'s" is not a province like P3'),
    ("seven7", "March 2 from P1 to P2 (Bob's)\nFortify P7", M7),
    ("seven7", "Fortify P1 P7", "!'P7' after 'Fortify! P1' is no list"),  # round 7
    ("seven7", "FORTIFY ALL", "!'ALL' names no Province: name each one"),
    # numbers as words
    ("orders16", "March three units from P27 to P26\nFortify P28, P32, P1", ["March! 3 from P27 to P26", *F4[1:]]),
    ("orders16", "March Two units from P28 to P29", ["March! 2 from P28 to P29"]),
    ("seven7", "March three from P1 to P2 \u2694\ufe0f\nFortify P7", ["March! 3 from P1 to P2", "Fortify! P7"]),
    ("seven7", "Fortify P1, P7\nSend five to Bob", ["Fortify! P1", "Fortify! P7", "Send 5 to Player#2"]),
    ("orders16", "Send twenty $Realm to Red", "!write numbers over twelve in digits"),
    ("t1_16", "bid twenty\nHodir", "!write numbers over twelve in digits"),
    ("cons10", "buy one in p19, bid five", ["Buy 1 in P19.", "Bid 5"]),
    ("cons12t3", "Buy two in P2\nBid 5", ["Buy 2 in P2.", "Bid 5"]),
    ("dragon16", "commit three from P27, two from P28", ["3 from P27", "2 from P28"]),
    ("t1_16", "Bid 20 (five from Red)\nHodir", ["Bid 20 (5 from Player#2)", "Faction Hodir"]),
    ("orders16", "march 2x from P27 to P26", "!expected the unit count (a whole number), got '2x'"),
    # several orders on a line
    (
        "orders16",
        "Fortify P27; Work P28; March 2 from P32 to P31; Fortify P1",
        ["Fortify! P27", "Work, work! P28", "March! 2 from P32 to P31", "Fortify! P1"],
    ),
    ("orders16", "Work, work! P28, Fortify P27, P32, P1", ["Work, work! P28", "Fortify! P27", *F2]),
    ("orders16", "March 2 from P27 to P26 and 1 from P28 to P29", "!after the March! is no order of its own"),
    ("seven7", "March 2 from P1 to P2, 1 from P1 to P7", "!after the March! is no order of its own"),
    ("island8", "1) Fortify P3 2) Work P4", "!unexpected '2 Work P4'"),
    ("island8", "Fortify P3 + Work P4", I2),
    ("island8", "Fortify P3 then work P4", I2),
    ("island8sea", "March 1 from P0 to P3; Fortify P3; Work P4", ["March! 1 from P0 to P3", *I2]),
    ("island8", "Fortify P3, Work P4, Weather forecast", [*I2, "Weather forecast"]),
    ("dragon16", "3 from P27 & 2 from P28", ["3 from P27", "2 from P28"]),
    # orders for the team-mate, or naming them
    ("orders16", FORT + "Red: Fortify P29, P30", "!'Red' is a player's name: a DM gives your own orders"),
    ("orders16", FORT + "Fortify P29", "!'Fortify! P29': you have no Army Units in P29"),  # Red's
    ("orders16", FORT + "And for Red: Work P29", "!'And for Red:' before the order is not a header"),
    ("orders16", "Red's orders: Fortify P29\nMy orders: " + FORT, '!"Red\'s orders:" before the order is not a header'),
    ("orders16", FORT + "(Red says Fortify P29 and P30)", "!on a line of its own is left out only as a remark"),
    ("cons12t3", "Buy 1 in P2\nBid 5\nRed: buy 1 in P12", "!'Red' is a player's name"),
    ("t1_16", "Bid 20\nHodir\nRed bids 10", "!'Red' is a player's name"),
    ("island8", IO + "Support Bruno in P5 from P4", "!P4 already has an order"),
    ("island8", "Support Bruno in P5 from P4\nFortify P3", ["Support! Player#2 in P5 from P4", "Fortify! P3"]),
    # a bid and orders in one DM, and orders for another step
    ("orders16", FORT + "Bid 10", "!not a choice for the orders step"),
    ("seven7", "Fortify P1, P7\nBid 5", "!not a choice for the orders step"),
    ("cons10", "Buy 1 in P1\nBid 5\nFortify P2", "!not a choice for the Consolidation step"),
    (
        "cons10",
        "Bid 5\nBuy 1 in P1\nOrders next turn: March 1 from P2 to P3",
        "!not a choice for the Consolidation step",
    ),
    ("cons10", "Bid 5, buy 1 in P1", ["Buy 1 in P1.", "Bid 5"]),
    ("cons10", "Buy 1 in P1 and bid 5", ["Buy 1 in P1.", "Bid 5"]),
    ("cons10", "Buy 1 in P1; Bid 5 (10 from Bruno) \U0001f64f", ["Buy 1 in P1.", "Bid 5 (10 from Player#2)"]),
    ("cons10", "3 from P1", "!not a choice for the Consolidation step"),
    ("dragon16", "Fortify P27", "!not a choice for the Dragon step"),
    ("dragon16", "Commit 3 from P27\nBid 5", "!not a choice for the Dragon step"),
    ("t1_16", "Fortify P1\nBid 10\nHodir", "!not a choice for the bid step"),
    ("island8", "Buy 1 in P3", "!not a choice for the orders step"),
    ("seven7", "Team bid 5", "!unknown order 'Team'"),  # no bid in the orders step, and no team
    ("cons12t3", "Buy 1 in P2\nBid 5\nFortify P1", "!not a choice for the Consolidation step"),
    # bids and factions at the turn-1 bid
    ("t1_16", "Bid: 20, faction: Hodir", ["Bid 20", "Faction Hodir"]),
    ("t1_16", "Bid 20 \U0001f4b0\nFaction - Hodir", ["Bid 20", "Faction Hodir"]),
    ("t1_16", "20\nHodir", ["Bid 20", "Faction Hodir"]),
    ("t1_16", "Bid $20\nHodir", ["Bid 20", "Faction Hodir"]),
    ("t1_16", "Bid 20 realm\nHodir", ["Bid 20", "Faction Hodir"]),
    ("t1_16", "Bid 20$ Hodir", "!unexpected 'Hodir' at the end of the order"),
    ("t1_16", "Bid 20\nIronlight", ["Bid 20", "Faction Iron Light"]),
    ("t1_16", "Bid 20\nKalu Ak", ["Bid 20", "Faction Kalu'Ak"]),
    ("t1_16", "Bid 20\nLannuvar", ["Bid 20", "Faction Lannuv\u00e1r"]),
    ("t1_16", "Bid 20 (5 frm Red)\nHodir", "!expected 'from' after the funding amount, got 'frm'"),
    ("t1_12t3", "Bid 10 (5 from Red, 5 from Will)", ["Bid 10 (5 from Player#2, 5 from Player#3)"]),
    ("t1_12t3", "Bid 10 (5 from Red & Will)", "!5 from each, or 5 between them?"),  # round 7
    ("t1_12t3", "Bid 10 (5 each from Red and Will)", ["Bid 10 (5 from Player#2, 5 from Player#3)"]),  # round 7
    ("t1_12t3", "bid 10\n\nsent from my iPhone", ["Bid 10"]),
    ("bank16", "bid 12 \U0001f3e6", ["Bid 12"]),
    ("bank16", "Bid twelve", ["Bid 12"]),
    # the Consolidation, with teams of 3
    ("cons12t3", "Buy 1 unit in P2\nBid 5", ["Buy 1 in P2.", "Bid 5"]),
    ("cons12t3", "Buy 1 in P2\nBid 5 (5 from Will)", ["Buy 1 in P2.", "Bid 5 (5 from Player#3)"]),
    ("cons12t3", "Buy 1 in P2 please\nBid 5 ty", ["Buy 1 in P2.", "Bid 5"]),
    ("cons12t3", "Buy 1 @ P2\nBid 5", ["Buy 1 in P2.", "Bid 5"]),
    ("cons12t3", "Buy 1 in Province 2\nBid 5", ["Buy 1 in P2.", "Bid 5"]),
    ("cons12t3", "Buy 2: 1 in P1, 1 in P2\nBid 5", "!'Buy 2:' before the order is not a header"),
    ("cons12t3", "Buy 1 in P2\nBid 5\nUpgrade P2", "!no successful Golden Work, work! in P2 this turn"),
    # the Dragon
    ("dragon16", "All from P27", ["3 from P27"]),
    ("dragon16", "3 from p27 \U0001f409\U0001f525", ["3 from P27"]),
    ("dragon16", "3 frm P27", "!expected 'from' after the unit count, got 'frm'"),
    ("dragon16", "Turn off the lights", []),
    ("dragon16", "0", "!expected 'from' after the unit count, but the line ends"),
    # the Island, Golden and Delayed orders, the big board
    ("seven7", "March 3 from P1 to P0", "!the Island is reached (and left) only while a card makes every Province"),
    ("seven7", "Fortify P0", "!you have no Army Units in P0"),  # Gail's
    ("island8", "Fortify Island", "!Army Units on the Island can only receive a March! order"),
    ("seven7", "golden march 2 from P1 to P2\nfortify P7", ["Golden March! 2 from P1 to P2", "Fortify! P7"]),
    ("seven7", "March 2 from P1 to P2\nDelayed March 1 from P1 to P2\nFortify P7", "!P1 already has an order"),
    ("island8", "Delayed march 1 from P4 to P5\nFortify P3", ["Delayed March! 1 from P4 to P5", "Fortify! P3"]),
    (
        "big40",
        "March 2 from P40 to P39\nfortify p33\nwork p34",
        ["March! 2 from P40 to P39", "Fortify! P33", "Work, work! P34"],
    ),
    # the orders sent again in the same DM
    ("island8", IO + "Fortify P3", I2),
    ("island8", IO + "Work P3", "!P3 already has an order"),
    ("seven7", "Fortify P1\nFortify P7\nFortify P1", ["Fortify! P1", "Fortify! P7"]),
    ("orders16", FORT + "Fortify P27, P28, P32, P1 (edited)", "!'(edited)' is none"),
    ("orders16", "~~Fortify P27~~\nMarch 2 from P27 to P26\nFortify P28, P32, P1", "!struck-out text"),
]


@pytest.mark.parametrize(("game", "dm", "want"), PHONE)
def test_a_dm_typed_on_a_phone_at_a_big_table(game, dm, want):
    _check(_store_in(GAMES[game](), dm), want)


def test_the_round_covers_7_to_16_seats_with_the_options_on():
    cases = TEAM_BIDS + FOREIGN + EDITS + SQUEEZED + AT_GM + POSTSCRIPTS + PHONE
    built = [GAMES[g]() for g in {game for game, _, _ in cases}]
    assert {len(g.state.players) for g in built} >= {7, 8, 10, 12, 16}
    assert {g.step for g in built} >= {"bid", "bank_bid", "orders", "dragon", "consolidation"}
    assert any(g.state.options.teams and g.state.options.factions and g.state.board.island for g in built)
    assert {
        len(g.state.players) // len({p.team for p in g.state.players.values()}) for g in built if g.state.options.teams
    } == {2, 3}  # teams of 2 and of 3
    assert len(cases) >= 120
