"""The GM's DM syntax: every protocol.md / rulebook example, tolerant spellings, errors, round trip."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import OrderSyntaxError
from engine.protectors.notation import (
    ALL,
    EXPECTED_BY_STEP,
    FACTIONS,
    SANCTUM_ABILITIES,
    format_line,
    parse_line,
    parse_text,
)
from engine.protectors.orders import (
    ABILITY_TEXT,
    Ability,
    Bid,
    Burn,
    Buy,
    Capitol,
    ChooseFaction,
    Commit,
    Ferry,
    Fortify,
    Funding,
    Line,
    March,
    Send,
    Snitch,
    Support,
    Upgrade,
    Work,
    seat_name,
)

# -- examples: protocol.md table, then rulebook 003 ("Order example:", Buying/Bidding step, ...) --------

PROTOCOL_TABLE = [
    ("March! 2 from P1 to P2", March(2, "P1", "P2")),
    ("Delayed March! 1 from P8 to P7", March(1, "P8", "P7", delayed=True)),
    ("Golden March! 3 from P2 to P3", March(3, "P2", "P3", golden=True)),
    ("Delayed Golden March! 4 from P7 to P6", March(4, "P7", "P6", golden=True, delayed=True)),
    ("Support! Player#2 in P2", Support("Player#2", "P2")),
    ("Support! Player#3 in P2 from P1", Support("Player#3", "P2", "P1")),
    ("Golden Support! Player#1 in P5 from P3", Support("Player#1", "P5", "P3", golden=True)),
    ("Fortify! P4", Fortify("P4")),
    ("Golden Fortify! P4", Fortify("P4", golden=True)),
    ("Work, work! P2", Work("P2")),
    ("Golden Work, work! P2", Work("P2", golden=True)),
    ("Bid 17", Bid(17)),
    ("Buy 2 in P6. 1 in P5.", Buy((("P6", 2), ("P5", 1)))),
    ("Upgrade P2", Upgrade("P2")),
    ("Burn P3", Burn("P3")),
    ("Send 40 to Player#4", Send(40, "Player#4")),
    ("Snitch Player#5", Snitch("Player#5")),
    ("Ferry P3", Ferry("P3")),
    ("Fight fire with fire: 5", Ability("fight_fire_with_fire", 5)),
    ("Nothing to see here!", Ability("nothing_to_see_here")),
    ("The Bank of Lannuvár", Ability("bank_of_lannuvar")),
    ("Faith alone sustains us", Ability("faith_alone")),
    ("Faction Hodir", ChooseFaction("Hodir")),
]

RULEBOOK = [
    ("Fortify! Province#4", Fortify("P4")),
    ("March! 1 from P1 to P2.", March(1, "P1", "P2")),
    ("March! 2 from P1 to P2.", March(2, "P1", "P2")),
    ("Support! Player#2 in P2.", Support("Player#2", "P2")),
    ("Support! Player#3 in P2 from P1.", Support("Player#3", "P2", "P1")),
    ("Work, work!", Work(None)),
    ("Bid 17", Bid(17)),
    ("Buy 2 in P6. 1 in P5.", Buy((("P6", 2), ("P5", 1)))),
    ("Fight fire with fire: 5", Ability("fight_fire_with_fire", 5)),
    ("Nothing to see here!", Ability("nothing_to_see_here")),
    ("The Bank of Lannuvár", Ability("bank_of_lannuvar")),
    ("Faith alone sustains us", Ability("faith_alone")),
]

OTHER_FORMS = [
    ("Capitol P3", Capitol("P3")),
    ("Buy 2", Buy((("", 2),))),
    ("2 from P6 (sac 2)", Commit("P6", 2, 2)),
    ("1 from P7", Commit("P7", 1)),
    ("Palantír Sea", Ability("palantir", arg="sea")),
    ("Palantir The End", Ability("palantir", arg="end")),
    ("Weather forecast: There be Dragons?", Ability("peek_dragon")),
    ("Discard the top Event card", Ability("discard_event")),
    ("Replace with There be Dragons!", Ability("replace_dragon")),
    ("The Mountain King's protection", Ability("mountain_king_offer")),
    ("Sanctum refresh Fight fire with fire!", Ability("sanctum", arg="refresh fight_fire_with_fire")),
    ("Sanctum gain The Great Game of politics", Ability("sanctum", arg="gain great_game")),
    ("Sanctum gain crusade", Ability("sanctum", arg="gain crusade")),
    ("Sanctum refresh bank_of_lannuvar", Ability("sanctum", arg="refresh bank_of_lannuvar")),
    ("Faction Cenarion", ChooseFaction("Cenarion")),
    ("Faction Kalu'Ak", ChooseFaction("Kalu'Ak")),
    ("Faction Iron Light", ChooseFaction("Iron Light")),
    ("Faction Lannuvár", ChooseFaction("Lannuvár")),
    # a March! with an arrow for 'to', or without 'from' (the count, then the source Province)
    ("March! 2 P1 to P2", March(2, "P1", "P2")),
    ("March! 2 from P1 -> P2", March(2, "P1", "P2")),
    ("March! 2 P1 -> P2", March(2, "P1", "P2")),
    ("March! 2 P1 > P2", March(2, "P1", "P2")),
    ("March! 2 P1->P2", March(2, "P1", "P2")),  # an arrow against its provinces
    ("march 2 from province 1>province 2", March(2, "P1", "P2")),
    ("March 2 units P1 => P2", March(2, "P1", "P2")),
    ("Delayed March! 1 P8 → P7", March(1, "P8", "P7", delayed=True)),
    ("March! 2 P 1 -> P2", March(2, "P1", "P2")),
]


@pytest.mark.parametrize(("text", "item"), PROTOCOL_TABLE + RULEBOOK + OTHER_FORMS)
def test_examples_parse(text, item):
    assert parse_line(text) == Line(item)


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("Bid: 25 (110 from Player#2)", Line(Bid(25), (Funding(110, "Player#2"),))),
        ("Bid: 5 (30 from Player#2)", Line(Bid(5), (Funding(30, "Player#2"),))),
        (
            "Buy 1 (30 from Player#2, 10 from Player#4)",
            Line(Buy((("", 1),)), (Funding(30, "Player#2"), Funding(10, "Player#4"))),
        ),
        ("Buy 2 in P6. (10 from player#3).", Line(Buy((("P6", 2),)), (Funding(10, "Player#3"),))),
    ],
)
def test_team_funding(text, line):
    assert parse_line(text) == line


# -- tolerant spellings ----------------------------------------------------------------------------

TOLERANT = [
    ("march 2 from p1 to p2.", March(2, "P1", "P2")),
    ("MARCH! 2 FROM P1 TO P2", March(2, "P1", "P2")),
    ("  March!   2 from   P1 to P2  ", March(2, "P1", "P2")),
    ("Golden march 3 from P2 to P3", March(3, "P2", "P3", golden=True)),
    ("Golden Delayed March! 4 from P7 to P6", March(4, "P7", "P6", golden=True, delayed=True)),
    ("delayed march 1 from province#8 to Province 7", March(1, "P8", "P7", delayed=True)),
    ("March! 02 from P01 to P10", March(2, "P1", "P10")),
    ("**March!** 2 from P1 to P2", March(2, "P1", "P2")),
    ("Work work P2", Work("P2")),
    ("work, work! p2.", Work("P2")),
    ("Work, work! Province#2", Work("P2")),
    ("Golden Work work", Work(None, golden=True)),
    ("support player#2 in p2", Support("Player#2", "P2")),
    ("Support! Player 14 in P5", Support("Player#14", "P5")),  # the '#' left out
    ("Support! PLAYER # 3 in P2 from P1", Support("Player#3", "P2", "P1")),
    ("Fortify! Province#4", Fortify("P4")),
    ("Fortify! Province 4", Fortify("P4")),
    ("fortify p4.", Fortify("P4")),
    ("Bid: 25", Bid(25)),
    ("Bid 0", Bid(0)),
    ("Buy 2 in P6, 1 in P5", Buy((("P6", 2), ("P5", 1)))),
    ("Buy 2 in P6 1 in P5", Buy((("P6", 2), ("P5", 1)))),
    ("Buy: 1", Buy((("", 1),))),
    ("Capital P3", Capitol("P3")),
    ("Send 40 $Realm to player#4", Send(40, "Player#4")),
    ("Snitch on Player#5", Snitch("Player#5")),
    ("2 from Province#6 sac 2", Commit("P6", 2, 2)),
    ("2 from P6 (sac 0)", Commit("P6", 2, 0)),
    ("3 from P6 (sacrifice 1).", Commit("P6", 3, 1)),
    ("Fight fire with fire! 9", Ability("fight_fire_with_fire", 9)),
    ("nothing to see here", Ability("nothing_to_see_here")),
    ("Bank of Lannuvar", Ability("bank_of_lannuvar")),
    ("the bank of lannuvar.", Ability("bank_of_lannuvar")),
    ("Faith alone sustains us!", Ability("faith_alone")),
    ("Mountain Kings protection", Ability("mountain_king_offer")),
    ("palantir: sea deck", Ability("palantir", arg="sea")),
    ("Palantír end", Ability("palantir", arg="end")),
    ("weather forecast there be dragons", Ability("peek_dragon")),
    ("Sanctum refresh: Nothing to see here!", Ability("sanctum", arg="refresh nothing_to_see_here")),
    ("Faction: Kaluak", ChooseFaction("Kalu'Ak")),
    ("faction kalu'ak", ChooseFaction("Kalu'Ak")),
    ("Faction Kalu’Ak", ChooseFaction("Kalu'Ak")),
    ("faction iron light", ChooseFaction("Iron Light")),
    ("Faction Lannuvar", ChooseFaction("Lannuvár")),
]


@pytest.mark.parametrize(("text", "item"), TOLERANT)
def test_tolerant_spellings(text, item):
    assert parse_line(text) == Line(item)


PLAYERS = {"Blue": "Player#2", "Dark Green": "player#3", "Mr. Pink": "Player#4"}


@pytest.mark.parametrize(
    ("text", "item"),
    [
        ("Support! Blue in P2", Support("Player#2", "P2")),
        ("Support! BLUE in P2 from P1", Support("Player#2", "P2", "P1")),
        ("Golden Support! Dark Green in P5 from P3", Support("Player#3", "P5", "P3", golden=True)),
        ("Support! Mr. Pink in P2", Support("Player#4", "P2")),
        ("Send 40 to dark green", Send(40, "Player#3")),
        ("Snitch Blue", Snitch("Player#2")),
        ("Support! Player#7 in P2", Support("Player#7", "P2")),
    ],
)
def test_display_names(text, item):
    assert parse_line(text, players=PLAYERS) == Line(item)


def test_display_name_funding():
    assert parse_line("Bid 5 (30 from Blue)", players=PLAYERS) == Line(Bid(5), (Funding(30, "Player#2"),))


# -- whole DMs -------------------------------------------------------------------------------------


def test_parse_text_commitment_line_splits_per_commit():
    assert parse_text("2 from P6 (sac 2), 1 from P7") == [Line(Commit("P6", 2, 2)), Line(Commit("P7", 1))]


def test_parse_text_team_lines():
    dm = "Buy 2, Bid: 25 (110 from Player#2)\nBuy: 1, Bid: 0\n*Buy: 1, Bid: 5 (30 from Player#2)*"
    assert parse_text(dm) == [
        Line(Buy((("", 2),))),
        Line(Bid(25), (Funding(110, "Player#2"),)),
        Line(Buy((("", 1),))),
        Line(Bid(0)),
        Line(Buy((("", 1),))),
        Line(Bid(5), (Funding(30, "Player#2"),)),
    ]


def test_parse_text_consolidation_dm_skips_blank_and_comment_lines():
    dm = "# my consolidation\n\nBuy 2 in P6. 1 in P5.\n   \n// the bid\nBid 17\nFaith alone sustains us\n"
    assert parse_text(dm) == [Line(Buy((("P6", 2), ("P5", 1)))), Line(Bid(17)), Line(Ability("faith_alone"))]


def test_parse_text_orders_dm_keeps_work_work_together():
    dm = "March! 1 from P1 to P2, Work, work! P3\nGolden Work, work! P4; Fortify! P5\nWork, work!"
    assert parse_text(dm) == [
        Line(March(1, "P1", "P2")),
        Line(Work("P3")),
        Line(Work("P4", golden=True)),
        Line(Fortify("P5")),
        Line(Work(None)),
    ]


# -- 'all' as a count or a bid: a marker the reader carries, the number only a game gives (assumption DM_ALL) -----
@pytest.mark.parametrize(("text", "item"), [
    ("March! all from P1 to P7", March(ALL, "P1", "P7")),
    ("March! all units from P1 to P7", March(ALL, "P1", "P7")),
    ("Move everything from P1 to P7", March(ALL, "P1", "P7")),
    ("march all my army units from p1 -> p7", March(ALL, "P1", "P7")),
    ("Golden March! all P1 to P7", March(ALL, "P1", "P7", golden=True)),
    ("Delayed March! all from P1 to P7", March(ALL, "P1", "P7", delayed=True)),  # read; dm_submit refuses it
    ("all from P6", Commit("P6", ALL)),
    ("commit all units from P6", Commit("P6", ALL)),
    ("all from P6 (sac 5)", Commit("P6", ALL, 5)),  # the sacrifice is checked on the number 'all' becomes
    ("Bid all", Bid(ALL)),
    ("Bid everything", Bid(ALL)),
    ("Bid the rest", Bid(ALL)),
    ("bid all in", Bid(ALL)),
    ("I bid all I have", Bid(ALL)),
    ("Bid all my $Realm", Bid(ALL)),
])
def test_all_is_read_as_the_marker(text, item):
    line = parse_line(text)
    assert line == Line(item) and line.item.text() != format_line(line)
    assert "all" in format_line(line).split() and parse_line(format_line(line)) == line


@given(st.one_of(
    st.builds(March, st.just(ALL), st.integers(0, 60).map("P{}".format), st.integers(0, 60).map("P{}".format),
              st.booleans(), st.booleans()),
    st.builds(Commit, st.integers(0, 60).map("P{}".format), st.just(ALL), st.none() | st.integers(0, 9)),
    st.just(Bid(ALL)),
), st.lists(st.builds(Funding, st.integers(1, 99), st.integers(1, 12).map(seat_name)), max_size=2).map(tuple))
def test_all_round_trips_as_all(item, funding):
    line = Line(item, funding)
    text = format_line(line)
    assert "-1" not in text and parse_line(text) == line and parse_line(text.upper()) == line


# -- one Fortify! or Work, work! over a list of Provinces: one order each (assumption DM_PROVINCE_LIST) ------------
@given(st.sampled_from(["Fortify", "Fortify!", "fortify in", "Work", "Work, work!", "work work at", "I will fortify"]),
       st.lists(st.integers(0, 60), min_size=2, max_size=6, unique=True),
       st.lists(st.sampled_from([", ", " and ", " & ", " + ", ", and ", " , "]), min_size=5, max_size=5),
       st.sampled_from(["", ".", "!"]))
def test_one_order_over_a_list_of_provinces_is_one_order_each(head, numbers, joins, end):
    text = f"{head} P{numbers[0]}" + "".join(f"{j}P{n}" for j, n in zip(joins, numbers[1:], strict=False)) + end
    kind = Fortify if "ortify" in head else Work
    assert parse_text(text) == [Line(kind(f"P{n}")) for n in numbers]
    with pytest.raises(OrderSyntaxError, match=f"the line holds {len(numbers)} orders"):
        parse_line(text)


def test_parse_text_uses_display_names():
    assert parse_text("Support! Blue in P2\nSnitch Dark Green", players=PLAYERS) == [
        Line(Support("Player#2", "P2")),
        Line(Snitch("Player#3")),
    ]


def test_parse_text_of_nothing_is_empty():
    # a "#" line is a Discord heading now (read like any line); "//" starts a comment
    assert parse_text("\n  \n// only a comment\n# My orders\n") == []


# -- errors ----------------------------------------------------------------------------------------

ERRORS = [
    ("March! 2 form P1 to P2", "expected 'from' after the unit count, got 'form'"),
    ("March! 2 from P1 P2", "expected 'to' after the source province, got 'P2'"),
    ("March! 2 P1 < P2", "expected 'to' after the source province, got '<'"),
    ("March! 2 to P2", "expected 'from' after the unit count, got 'to'"),
    ("March! 2 from P1 to", "expected the destination province like P3, but the line ends"),
    ("March! 0 from P1 to P2", "the unit count must be at least 1, got 0"),
    ("March! many from P1 to P2", "expected the unit count (a whole number), got 'many'"),
    ("March! -2 from P1 to P2", "the unit count must not be negative, got '-2'"),
    ("Fortify! X9", "'X9' is not a province like P3"),
    ("Fortify!", "expected the province like P3, but the line ends"),
    ("Fortify! P4 P5", "'P5' after 'Fortify! P4' is no list: Provinces in a list are joined by ',' or 'and', like "
                       "'Fortify! P4, P5'"),
    ("Work, work! P2 now", "unexpected 'now' at the end of the order"),
    (
        "Marsh! 2 from P1 to P2",  # a misspelt order word gets the nearest one as a hint
        "unknown order 'Marsh!' (did you mean March!?); expected one of March!, Delayed March!, Support!, Fortify!, "
        "Work, work! (each may be Golden), Bid, Buy, Upgrade, Capitol, Send, Snitch, Ferry, Burn, "
        "Faction, a Dragon commitment like '2 from P6 (sac 2)', or an ability like 'Fight fire with fire: 5'",
    ),
    ("Fortfy! P3", "unknown order 'Fortfy!' (did you mean Fortify!?); expected one of " + EXPECTED_BY_STEP[None]),
    ("Bdi 5", "unknown order 'Bdi' (did you mean Bid?); expected one of " + EXPECTED_BY_STEP[None]),
    ("Teleport 2 from P1 to P2", "unknown order 'Teleport'; expected one of " + EXPECTED_BY_STEP[None]),
    ("Golden Bid 4", "'Golden' applies only to March!, Support!, Fortify! and Work, work!, not 'Bid'"),
    ("Golden Fortfy! P5", "'Golden' applies only to March!, Support!, Fortify! and Work, work!, not 'Fortfy!' "
                          "(did you mean Fortify!?)"),
    ("Delayed Fortify! P3", "'Delayed' applies only to March!, not 'Fortify!'"),
    ("Golden Golden March! 1 from P1 to P2", "'Golden' given twice"),
    ("Golden", "'Golden' names no order here: write it before each order it applies to, on that order's line, like "
               "'Golden Fortify! P1'"),
    ("   ", "empty line; expected an order"),
    (
        "2 from P6 (sac 2), 1 from P7",
        "the line holds 2 orders ('2 from P6 (sac 2)', '1 from P7'); use parse_text",
    ),
    ("2 from P6 (sac 3)", "sac 3 is more than the 2 units committed"),
    ("0 from P6", "the unit count must be at least 1, got 0"),
    ("Support! Bob in P2", "'Bob' is not a player like Player#2"),
    ("Support! Player#2 by P2", "'by' is not a province like P3"),  # 'at', or no word, reads as 'in'
    ("Support! in P2", "expected a player like Player#2, got 'in'"),
    ("Support! Player#0 in P2", "'Player#0' is not a player like Player#2"),
    ("Send 40 Player#4", "expected 'to' after the amount, got 'Player#4'"),
    ("Send 0 to Player#4", "the amount must be at least 1, got 0"),
    ("Snitch", "expected a player like Player#2, but the line ends"),
    ("Bid", "expected the bid (a whole number), but the line ends"),
    ("Bid -3", "the bid must not be negative, got '-3'"),
    ("Bid 2.5", "the bid must be a whole number, got '2.5'"),
    ("Bid 17 18", "unexpected '18' at the end of the order"),
    ("Buy 2 near P6", "expected 'in' after the number of units to buy, got 'near'"),  # 'Buy 2 P6' is read
    ("Buy 2, 1 in P5", "'Buy' without a province takes a single count"),
    ("Buy 0 in P5", "the number of units to buy must be at least 1, got 0"),
    ("Buy 2 in", "expected the province to buy in like P3, but the line ends"),
    ("Upgrade Px", "'Px' is not a province like P3"),
    (
        "Faction Orcs",
        "unknown faction 'Orcs'; expected one of Cenarion, Kalu'Ak, Hodir, Iron Light, Lannuvár",
    ),
    ("Fight fire with fire", "expected the number of Highmagisters (a whole number), but the line ends"),
    ("Fight fire with fire: 0", "the number of Highmagisters must be at least 1, got 0"),
    ("Nothing to see here! now", "unexpected 'now' at the end of the order"),
    ("Palantir", "expected 'Sea' or 'The End' after Palantír, but the line ends"),
    ("Palantír Event", "expected 'Sea' or 'The End' after Palantír, got 'Event'"),
    ("Sanctum take crusade", "expected 'refresh' or 'gain' after Sanctum, got 'take'"),
    (
        "Sanctum gain Flying",
        "unknown ability 'Flying' after 'Sanctum gain'; expected one of " + ", ".join(SANCTUM_ABILITIES.values()),
    ),
    ("Bid 4 ()", "empty funding '()'; expected like '(110 from Player#2)'"),
    ("Bid 4 (110 form Player#2)", "expected 'from' after the funding amount, got 'form'"),
    ("Bid 4 (110 from Bob)", "'Bob' is not a player like Player#2"),
    ("Bid 4 (0 from Player#2)", "the funding amount must be at least 1, got 0"),
    ("March! all 3 from P1 to P2", "'all 3' gives the count twice; write either the number or 'all'"),
    ("commit all two from P6", "'all two' gives the count twice; write either the number or 'all'"),
    ("Golden Fortify! P1 and P2", "'Golden' before a list of Provinces could mean a Golden order in each of them or "
                                  "only in P1 (one Golden order of each kind a turn): write each order on its own "
                                  "line, like 'Golden Fortify! P1' and 'Fortify! P2'"),
    ("golden work p3, p#4", "'Golden' before a list of Provinces could mean a Golden order in each of them or only in "
                            "P3 (one Golden order of each kind a turn): write each order on its own line, like "
                            "'Golden Work, work! P3' and 'Work, work! P4'"),
    ("Work P1 and P2 & P1", "P1 is named twice in the list of Provinces; name each Province once"),
    ("my bid for turn 1234 is 10", "expected the bid (a whole number), got 'for'"),
]


@pytest.mark.parametrize(("text", "reason"), ERRORS)
def test_errors_name_the_line_and_the_problem(text, reason):
    with pytest.raises(OrderSyntaxError) as info:
        parse_line(text)
    assert info.value.reason == reason
    assert info.value.input == text.strip()
    assert str(info.value) == f"{text.strip()!r}: {reason}"
    assert info.value.code == "invalid_order"


def test_unknown_display_name_lists_known_names():
    with pytest.raises(OrderSyntaxError) as info:
        parse_line("Support! Red in P2", players={"Blue": "Player#2"})
    assert info.value.reason == "'Red' is not a player like Player#2 or one of Blue"


def test_the_island_is_named_as_the_rulebook_names_it():
    for name in ("Island", "the Island", "ISLAND", "Wizard Sanctum", "the Wizard Sanctum"):
        assert parse_line(f"March! 1 from P7 to {name}") == Line(March(1, "P7", "P0"))
        assert parse_line(f"March! 1 {name} -> P3") == Line(March(1, "P0", "P3"))
    assert parse_line("Support! Player#2 in the Island from P1") == Line(Support("Player#2", "P0", "P1"))
    for text in ("March! 1 from P7 to the", "March! 1 from P7 to Sanctum", "March! 1 from P7 to the Wizard"):
        with pytest.raises(OrderSyntaxError, match="is not a province like P3"):
            parse_line(text)


def test_a_hand_typed_mention_names_the_player():
    # dogfood-discord #15: "snitch @Sam2" was "'@Sam2' is not a player"
    players = {"Sam2": "Player#2", "Ana María": "Player#3"}
    assert parse_line("snitch @Sam2", players=players) == Line(Snitch("Player#2"))
    assert parse_line("Support! @Ana María in P2", players=players) == Line(Support("Player#3", "P2"))
    assert parse_line("Snitch @Player#4", players=players) == Line(Snitch("Player#4"))
    with pytest.raises(OrderSyntaxError, match="'@' is not a player"):
        parse_line("Snitch @", players=players)


def test_unknown_names_are_listed_as_written():
    # dogfood-discord #15: the list was lower-cased and without accents ("ana maria, obrien")
    with pytest.raises(OrderSyntaxError) as info:
        parse_line("Snitch Zed", players={"Ana María": "Player#1", "O'Brien": "Player#2", "zoë": "Player#3"})
    assert info.value.reason == "'Zed' is not a player like Player#2 or one of Ana María, O'Brien, zoë"


def test_parse_text_error_names_the_offending_line():
    with pytest.raises(OrderSyntaxError) as info:
        parse_text("Bid 17\n2 from P6 (sac 2), 1 from X7\nBid 3")
    assert info.value.input == "2 from P6 (sac 2), 1 from X7"
    assert info.value.reason == "'X7' is not a province like P3"


# -- canonical text and round trip ----------------------------------------------------------------

CANONICAL = [
    (Line(March(2, "P1", "P2")), "March! 2 from P1 to P2"),
    (Line(March(4, "P7", "P6", golden=True, delayed=True)), "Delayed Golden March! 4 from P7 to P6"),
    (Line(Support("Player#3", "P2", "P1", golden=True)), "Golden Support! Player#3 in P2 from P1"),
    (Line(Support("Player#2", "P2")), "Support! Player#2 in P2"),
    (Line(Fortify("P4", golden=True)), "Golden Fortify! P4"),
    (Line(Work(None)), "Work, work!"),
    (Line(Work("P2", golden=True)), "Golden Work, work! P2"),
    (Line(Bid(25), (Funding(110, "Player#2"),)), "Bid 25 (110 from Player#2)"),
    (Line(Buy((("P6", 2), ("P5", 1)))), "Buy 2 in P6. 1 in P5."),
    (
        Line(Buy((("", 2),)), (Funding(30, "Player#2"), Funding(10, "Player#4"))),
        "Buy 2 (30 from Player#2, 10 from Player#4)",
    ),
    (Line(Upgrade("P2")), "Upgrade P2"),
    (Line(Capitol("P3")), "Capitol P3"),
    (Line(Commit("P6", 2, 2)), "2 from P6 (sac 2)"),
    (Line(Commit("P7", 1)), "1 from P7"),
    (Line(Burn("P3")), "Burn P3"),
    (Line(Send(40, "Player#4")), "Send 40 to Player#4"),
    (Line(Snitch("Player#5")), "Snitch Player#5"),
    (Line(Ferry("P3")), "Ferry P3"),
    (Line(ChooseFaction("Kalu'Ak")), "Faction Kalu'Ak"),
    (Line(Ability("fight_fire_with_fire", 5)), "Fight fire with fire: 5"),
    (Line(Ability("bank_of_lannuvar")), "The Bank of Lannuvár"),
    (Line(Ability("palantir", arg="end")), "Palantír end"),
    (Line(Ability("sanctum", arg="gain crusade")), "Sanctum gain Crusade!"),  # the rulebook name (dogfood-rules #9)
    (Line(Ability("sanctum", arg="refresh faith_alone")), "Sanctum refresh Faith alone sustains us!"),
]


@pytest.mark.parametrize(("line", "text"), CANONICAL)
def test_canonical_text(line, text):
    assert format_line(line) == text
    assert parse_line(text) == line


provinces = st.integers(0, 60).map(lambda n: f"P{n}")
seats = st.integers(1, 12).map(seat_name)
counts = st.integers(1, 10**6)
PLAIN_ABILITIES = [n for n in ABILITY_TEXT if n not in ("fight_fire_with_fire", "palantir", "sanctum")]

items = st.one_of(
    st.builds(March, counts, provinces, provinces, st.booleans(), st.booleans()),
    st.builds(Support, seats, provinces, st.none() | provinces, st.booleans()),
    st.builds(Fortify, provinces, st.booleans()),
    st.builds(Work, st.none() | provinces, st.booleans()),
    st.builds(Send, counts, seats),
    st.builds(Snitch, seats),
    st.builds(Ferry, provinces),
    st.builds(Bid, st.integers(0, 10**6)),
    st.builds(
        Buy,
        st.lists(st.tuples(provinces, counts), min_size=1, max_size=4).map(tuple)
        | counts.map(lambda n: (("", n),)),
    ),
    st.builds(Upgrade, provinces),
    st.builds(Capitol, provinces),
    st.builds(ChooseFaction, st.sampled_from(FACTIONS)),
    st.integers(1, 50).flatmap(
        lambda c: st.builds(Commit, provinces, st.just(c), st.none() | st.integers(0, c))
    ),
    st.builds(Burn, provinces),
    st.sampled_from(PLAIN_ABILITIES).map(Ability),
    counts.map(lambda n: Ability("fight_fire_with_fire", n)),
    st.sampled_from(["sea", "end"]).map(lambda a: Ability("palantir", arg=a)),
    st.tuples(st.sampled_from(["refresh", "gain"]), st.sampled_from(list(SANCTUM_ABILITIES))).map(
        lambda mk: Ability("sanctum", arg=f"{mk[0]} {mk[1]}")
    ),
)
lines = st.builds(Line, items, st.lists(st.builds(Funding, counts, seats), max_size=3).map(tuple))


@given(lines)
def test_round_trip(line):
    text = format_line(line)
    assert parse_line(text) == line
    assert parse_line(text.upper()) == line
    assert parse_line(text.lower() + ".") == line


@given(st.lists(lines, max_size=6))
def test_round_trip_whole_dm(many):
    assert parse_text("\n".join(format_line(x) for x in many)) == many


def test_a_misspelt_name_or_colour_gets_the_closest_one():
    players = {"Alice": "Player#1", "sky blue": "Player#2", "Bob": "Player#3"}
    for text, meant in (("Support! Alcie in P2", "Alice"), ("Support! sky bleu in P2", "sky blue")):
        with pytest.raises(OrderSyntaxError) as info:
            parse_line(text, players=players)
        assert info.value.reason.endswith(f"is not a player like Player#2; did you mean {meant}?")


def test_a_long_list_of_names_is_cut():
    players = {f"{kind}{i:02d}": f"Player#{i}" for kind in ("name", "hue") for i in range(1, 17)}
    with pytest.raises(OrderSyntaxError) as info:
        parse_line("Support! Zed in P2", players=players)
    assert info.value.reason.endswith(", ...") and info.value.reason.count(",") == 16
