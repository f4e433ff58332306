"""Game.submit_dm: what a DM stores, what it leaves out, lenient mode, and refusals that store nothing."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import IllegalOrderError, OrderSyntaxError, ValidationError
from engine.protectors.decisions import BidDecision, DragonDecision, OrdersDecision
from engine.protectors.dm_submit import DmResult
from engine.protectors.game import Game
from engine.protectors.notation import ALL
from engine.protectors.orders import Commit, Fortify, March, Support
from tests.protectors.helpers import dragon_attack, position
from tests.protectors.test_dm_read import CHATTER, MARKUP

NAMES = ["Alice", "Bob the Bold", "Carol", "Dan", "Eve"]


def named_game() -> Game:
    return Game({"board": "ring-5", "seed": 1,
                 "players": [{"seat": f"Player#{i}", "name": n} for i, n in enumerate(NAMES, start=1)]})


def orders_game() -> Game:
    return position("ring-7", 7, {f"P{i}": (f"Player#{i}", 2) for i in range(1, 8)},
                    ranking=[f"Player#{i}" for i in range(1, 8)])


def dragon_game() -> Game:
    g = position("ring-7", 3, {"P6": ("Player#1", 2), "P7": ("Player#1", 1), "P1": ("Player#2", 1),
                               "P3": ("Player#3", 1)}, realm={"Player#1": 0, "Player#2": 0, "Player#3": 0})
    return dragon_attack(g, 2)


def test_submit_dm_answers_lines_ignored_and_read():
    g = named_game()
    r = g.submit_dm("Player#1", "Hi GM!\n\n# Bid 25 $Realm\nThanks,\n-- Alice")
    assert isinstance(r, DmResult)
    assert r.lines == ["Bid 25"]
    assert r.ignored == [(1, "Hi GM!", "a greeting"), (2, "", "blank line"), (4, "Thanks,", "a sign-off"),
                         (5, "-- Alice", "a signature")]
    assert r.dropped == []
    assert r.read == [(3, "# Bid 25 $Realm", ["Bid 25"])]
    assert g.state.submissions["Player#1"] == BidDecision(25)
    assert r.to_dict()["ignored"][0] == {"line_no": 1, "text": "Hi GM!", "why": "a greeting"}


def test_submit_keeps_returning_the_lines():
    g = named_game()
    assert g.submit("Player#2", "**bid: 7**") == ["Bid 7"]


def test_display_names_stand_for_seats():
    g = orders_game()
    for s, p in g.state.players.items():
        p.name = {"Player#2": "Bob the Bold", "Player#3": "Carol"}.get(s, s)
    assert g.submit_dm("Player#1", "support bob the bold in p2").lines == ["Support! Player#2 in P2 from P1"]
    assert g.state.submissions["Player#1"] == OrdersDecision((Support("Player#2", "P2", "P1"),))


def test_an_unknown_name_lists_the_living_seats_as_written():
    # dogfood-discord #15: the list was lower-cased, without accents, and named eliminated seats
    g = position("ring-4", 4, {"P1": ("Player#1", 2), "P2": ("Player#2", 2), "P3": ("Player#3", 2)})
    for s, p in g.state.players.items():
        p.name = {"Player#1": "Zoë", "Player#2": "Ana María", "Player#3": "O'Brien", "Player#4": "Lars"}[s]
    assert g.state.players["Player#4"].eliminated
    with pytest.raises(OrderSyntaxError) as err:
        g.submit_dm("Player#1", "Support! Sam in P2")
    assert err.value.reason == "'Sam' is not a player like Player#2 or one of Ana María, O'Brien, Zoë"
    assert g.submit_dm("Player#1", "Support! @Ana María in P2").lines == ["Support! Player#2 in P2 from P1"]


def test_aliases_stand_for_seats():
    g = orders_game()
    assert g.submit_dm("Player#1", "Support! Bobby in P2", aliases={"Bobby": "Player#2"}).lines == \
        ["Support! Player#2 in P2 from P1"]
    with pytest.raises(ValidationError, match=r"aliases\.Teal"):
        g.submit_dm("Player#3", "Fortify! P3", aliases={"Teal": "Player#99"})


def test_a_refused_dm_stores_nothing_and_names_the_line():
    g = orders_game()
    before = list(g.actions)
    with pytest.raises(OrderSyntaxError) as err:
        g.submit_dm("Player#1", "Hi\nFortify! P1\nmove everything east")
    assert err.value.input == "move everything east" and err.value.details["line_no"] == 3
    with pytest.raises(IllegalOrderError) as err:
        g.submit_dm("Player#1", "Fortify! P1\nWork, work! P1")
    assert [r["line_no"] for r in err.value.details["rejected"]] == [1, 2]
    with pytest.raises(IllegalOrderError) as err:  # the rules reject it: the DM line is named by number
        g.submit_dm("Player#1", "// plan\nMarch! 1 from P1 to P5")
    assert err.value.details["rejected"][0]["line_no"] == 2
    assert g.actions == before and "Player#1" not in g.state.submissions


def test_lenient_drops_only_the_invalid_lines():
    g = orders_game()
    r = g.submit_dm("Player#1", "Hello GM\nMarch! 1 from P1 to P2\nMarsh! 1 from P1 to P7\n"
                                "Send 5000 to Player#3", lenient=True)
    assert r.lines == ["March! 1 from P1 to P2"]
    assert [(n, text) for n, text, _ in r.dropped] == [(3, "Marsh! 1 from P1 to P7"), (4, "Send 5000 to Player#3")]
    assert "unknown order 'Marsh!'" in r.dropped[0][2] and "$Realm" in r.dropped[1][2]
    assert r.ignored == [(1, "Hello GM", "a greeting")]
    assert g.state.submissions["Player#1"] == OrdersDecision((March(1, "P1", "P2"),))


def test_sending_more_than_held_says_so_plainly():
    # dogfood-rules #7: "Send 10 to Ben" holding 7 was refused with "cannot send promised $Realm on"
    g = position("ring-3", 3, {"P1": ("Player#1", 2), "P2": ("Player#2", 2), "P3": ("Player#3", 2)},
                 realm={"Player#1": 7, "Player#2": 0, "Player#3": 0})
    with pytest.raises(IllegalOrderError) as err:
        g.submit_dm("Player#1", "Send 10 to Player#2\nFortify! P1")
    assert err.value.details["rejected"][0]["reason"] == "sending 10 $Realm, more than the 7 $Realm you hold"
    with pytest.raises(IllegalOrderError, match="these send 8 \\$Realm, more than the 7"):
        g.submit_dm("Player#1", "Send 4 to Player#2\nSend 4 to Player#3")
    assert "promised" not in str(err.value)


def test_a_send_or_snitch_to_no_other_player_says_why_with_the_name():
    # it said "Player#3 is not another active player" whether the seat was the sender, out or no seat at all
    g = position("ring-4", 4, {"P1": ("Player#1", 2), "P2": ("Player#2", 2), "P3": ("Player#3", 2)},
                 realm={"Player#1": 50, "Player#2": 0, "Player#3": 0}, cards=("Pirates!",))
    g.state.players["Player#1"].name = "Alice"
    g.state.players["Player#4"].name = "Dan"

    def why(text: str) -> str:
        with pytest.raises(IllegalOrderError) as err:
            g.submit_dm("Player#1", text)
        return err.value.details["rejected"][0]["reason"]

    assert why("Send 5 to Player#1") == "Player#1 (Alice) is you: name another player"
    assert why("Send 5 to Player#4") == "Player#4 (Dan) was eliminated"
    assert why("Snitch Player#4") == "Player#4 (Dan) was eliminated"
    assert why("Snitch Player#1") == "Player#1 (Alice) is you: name another player"


def test_lenient_drops_both_sides_of_an_ambiguity_never_guesses():
    g = named_game()
    with pytest.raises(IllegalOrderError, match=r"two bids.*lenient mode dropped every order of it") as err:
        g.submit_dm("Player#1", "Bid 20\nBid 25", lenient=True)  # both go, so nothing stands: refused, not Bid 0
    assert [r["line_no"] for r in err.value.details["rejected"]] == [1, 2]
    assert "Player#1" not in g.state.submissions


def test_lenient_never_stores_a_dm_it_dropped_every_line_of_but_none_is_a_choice():
    g = orders_game()
    with pytest.raises(IllegalOrderError, match="lenient mode dropped every order of it"):
        g.submit_dm("Player#1", "Hi GM\nBid 12", lenient=True)  # a DM for another step, in the orders step
    assert "Player#1" not in g.state.submissions
    assert g.submit_dm("Player#1", "Hi GM\nnone", lenient=True).lines == []  # `none` chooses nothing: stored
    assert g.state.submissions["Player#1"] == OrdersDecision()


def test_lenient_refuses_a_dm_naming_another_turn_whole():
    # an old DM sent again ("My orders for turn 4:" at turn 5) is refused as in strict mode: lenient mode dropped
    # its header and stored its orders as this turn's (a GM runs --lenient to mend another player's DM)
    g = Game({"board": "ring-4", "seed": 1, "players": 4,
              "position": {"turn": 5, "step": "orders", "cards_in_play": ["Deep Snow", "Bloodlust!", "Ferry!"]}})
    for text in ("My orders for turn 4:\nFortify P1", "== Turn 4 orders ==\nFortify P1"):
        for lenient in (False, True):
            with pytest.raises(IllegalOrderError, match="headed for turn 4, but the game is at turn 5"):
                g.submit_dm("Player#1", text, lenient=lenient)
    assert "Player#1" not in g.state.submissions
    r = g.submit_dm("Player#1", "My orders for turn 5:\nFortify P1\nblah blah", lenient=True)  # this turn's
    assert r.lines == ["Fortify! P1"] and [d[0] for d in r.dropped] == [3]


def test_lenient_refuses_a_dm_correcting_itself_whole():
    # "Bid 8" then "actually make that 12": lenient mode dropped the correction and stored Bid 8, the bid the player
    # took back (CORRECTIONS_REFUSED: Regent never picks which of two lines counts)
    g = Game({"board": "ring-4", "seed": 1, "players": 4})
    for text in ("Bid 8\nactually make that 12", "bid 2, ignore the 8", "Bid 8\nedit: 12"):
        for lenient in (False, True):
            with pytest.raises((OrderSyntaxError, IllegalOrderError), match="reads as a correction"):
                g.submit_dm("Player#1", text, lenient=lenient)
    assert "Player#1" not in g.state.submissions
    # a correction over the DM's orders corrects an earlier DM: dropped, as a line that is no correction is
    r = g.clone().submit_dm("Player#1", "changed my mind, sorry:\nBid 12", lenient=True)
    assert r.lines == ["Bid 12"] and [d[0] for d in r.dropped] == [1]
    r = g.submit_dm("Player#1", "Bid 8\nblah blah", lenient=True)
    assert r.lines == ["Bid 8"] and [d[0] for d in r.dropped] == [2]


def test_lenient_a_rule_rejection_drops_that_line():
    g = orders_game()
    r = g.submit_dm("Player#2", "Fortify! P2\nFerry P2", lenient=True)
    assert r.lines == ["Fortify! P2"]
    assert r.dropped == [(2, "Ferry P2", "the Ferry! card is not in play")]


def test_a_dm_of_greetings_only_is_refused_even_leniently():
    g = named_game()
    for lenient in (False, True):
        with pytest.raises(OrderSyntaxError, match="holds no order"):
            g.submit_dm("Player#1", "Hi GM!\n# My bid" if not lenient else "Hi GM!", lenient=lenient)
    assert "Player#1" not in g.state.submissions
    assert g.submit_dm("Player#1", "", lenient=True).lines == ["Bid 0"]  # the empty text: the empty decision


def test_an_orders_dm_that_leaves_units_without_an_order_says_which():
    # dogfood-discord #6: "Snitch Sam2" alone was stored as the whole orders; P19, P20 did nothing, unsaid
    g = position("ring-3", 3, {"P1": ("Player#1", 3), "P2": ("Player#1", 3), "P3": ("Player#2", 1)},
                 cards=("Pirates!",), realm={"Player#1": 50, "Player#2": 50})
    r = g.submit_dm("Player#1", "Snitch Player#2")
    assert r.lines == ["Snitch Player#2"]
    assert r.warnings == ["P1, P2 have Army Units but no order in this DM: their units stay where they are and do "
                          "nothing this turn (your orders are final once stored; put every order in one DM)"]
    assert r.to_dict()["warnings"] == r.warnings
    assert g.submit_dm("Player#2", "Send 5 to Player#1").warnings[0].startswith("P3 has Army Units but no order")
    g = position("ring-3", 3, {"P1": ("Player#1", 3), "P2": ("Player#1", 3), "P3": ("Player#2", 1)})
    assert g.submit_dm("Player#1", "Fortify! P1").warnings[0].startswith("P2 has Army Units but no order")
    full = g.submit_dm("Player#2", "Fortify! P3")  # every Province ordered: no warning, and none in the wire form
    assert full.warnings == [] and "warnings" not in full.to_dict()
    g = position("ring-3", 3, {"P1": ("Player#1", 3), "P2": ("Player#1", 3), "P3": ("Player#2", 1)})
    assert g.submit_dm("Player#1", "none").warnings == []  # chosen, and answered so


def test_none_is_an_explicit_nothing():
    g = orders_game()
    r = g.submit_dm("Player#1", "none")
    assert r.lines == [] and r.read == [(1, "none", ["none"])]
    assert g.state.submissions["Player#1"] == OrdersDecision()  # not the default Fortify!


class TestDragonStep:
    def test_commit_wording(self):
        g = dragon_game()
        assert g.submit_dm("Player#1", "commit 2 units from P6 (sac 2)\n1 from P7").lines == \
            ["2 from P6 (sac 2)", "1 from P7"]
        assert g.state.submissions["Player#1"].commits == (Commit("P6", 2, 2), Commit("P7", 1))

    @pytest.mark.parametrize("text", ["Turn off the lights", "none", "0 from P1", "I turn off the lights."])
    def test_turn_off_the_lights(self, text):
        g = dragon_game()
        r = g.submit_dm("Player#2", text)
        assert r.lines == [] and len(r.read) == 1
        assert g.state.submissions["Player#2"] == DragonDecision()

    def test_errors_do_not_list_orders_syntax(self):
        g = dragon_game()
        for text in ("Fortify! P6", "Launch the missiles", "March! 1 from P6 to P7"):
            with pytest.raises((OrderSyntaxError, IllegalOrderError)) as err:
                g.submit_dm("Player#1", text)
            assert "March!" not in err.value.reason and "Support!" not in err.value.reason
            assert "Turn off the lights" in err.value.reason


@pytest.mark.parametrize("digits", [20, 400, 5000])
def test_a_huge_number_is_an_invalid_order(digits):
    g = named_game()
    with pytest.raises(OrderSyntaxError) as err:
        g.submit("Player#1", "Bid " + "9" * digits)
    assert err.value.code == "invalid_order" and "1000000" in err.value.reason
    assert len(str(err.value)) < 700


def test_a_replayed_game_reads_the_stored_canonical_lines():
    g = orders_game()
    g.submit_dm("Player#1", "> **golden fortify! province#1** 🛡️\nthanks!")
    assert g.state.submissions["Player#1"] == OrdersDecision((Fortify("P1", True),))
    again = Game.from_blob(g.to_blob())
    assert again.state.submissions == g.state.submissions


# -- property: over a real game, every line of an accepted DM is stored or listed as ignored ------------
@st.composite
def bid_dm(draw):
    bid = draw(st.integers(0, 50))  # a new game's seats hold 50 $Realm
    line = draw(st.sampled_from(MARKUP)).format(draw(st.sampled_from(
        [f"Bid {bid}", f"bid: {bid}", f"Bid {bid} $Realm", f"BID ${bid}"])))
    lines = [line]
    # CHATTER's "-- Bob the Bold" is Player#2's name signing Alice's DM here: refused (dm_whose.other_seat), not chatter
    chatter = [c for c in CHATTER if c != "-- Bob the Bold"]
    for _ in range(draw(st.integers(0, 4))):
        lines.insert(draw(st.integers(0, len(lines))), draw(st.sampled_from([*chatter, "Hi Alice", "-- Alice"])))
    return bid, "\n".join(lines)


def test_a_dm_signed_with_another_players_name_is_refused():
    # "-- Bob the Bold" under Alice's bid: Bob's DM pasted into Alice's seat? It was left out as a signature and the bid
    # stored as Alice's (assumption OTHER_SEAT_HEADER)
    with pytest.raises(OrderSyntaxError, match="'-- Bob the Bold' names Player#2"):
        named_game().submit_dm("Player#1", "Bid 5\n-- Bob the Bold")
    assert named_game().submit_dm("Player#1", "Bid 5\n-- Alice").lines == ["Bid 5"]


@settings(max_examples=100, deadline=None)
@given(bid_dm())
def test_every_line_of_an_accepted_dm_is_stored_or_ignored(case):
    bid, dm = case
    g = named_game()
    r = g.submit_dm("Player#1", dm)
    read = {n: canon for n, _, canon in r.read}
    ignored = {n for n, _, _ in r.ignored}
    assert sorted([*read, *ignored]) == list(range(1, len(dm.splitlines()) + 1))  # each line once
    assert all(c in r.lines for canon in read.values() for c in canon)
    assert g.state.submissions["Player#1"] == BidDecision(bid) and r.lines == [f"Bid {bid}"]


def test_an_alias_that_already_names_another_seat_is_refused_as_the_reader_reads_names():
    # the reader keys names without case or accents: an alias colliding with a display name, a colour or a seat
    # would be read as that seat and dropped, so 'Send 5 to Ben' reached the other seat than the caller meant
    g = named_game()
    ben = g.state.players["Player#2"].name
    colour = g.colours()["Player#4"]
    for alias, other in ((ben.upper(), "Player#2"), (colour.title(), "Player#4"), ("player#2", "Player#2")):
        with pytest.raises(ValidationError, match=f"already names {other}") as err:
            g.submit_dm("Player#1", "Bid 1", aliases={alias: "Player#3"})
        assert err.value.field == f"aliases.{alias}"
    assert "Player#1" not in g.state.submissions
    assert g.submit_dm("Player#1", "Bid 1", aliases={ben.lower(): "Player#2"}).lines == ["Bid 1"]  # its own seat


# -- 'all': the number the game gives when the DM is settled, stored and answered (assumption DM_ALL) ------------------
def test_all_units_are_stored_as_their_number():
    g = position("ring-7", 7, {"P1": ("Player#1", 3), "P2": ("Player#1", 1), "P3": ("Player#2", 2)},
                 ranking=["Player#1", "Player#2"])
    r = g.submit_dm("Player#1", "Hi GM!\nMarch! all units from P1 to P7\nmove everything from P2 to P3")
    assert r.lines == ["March! 3 from P1 to P7", "March! 1 from P2 to P3"]  # the player sees the number
    assert r.read == [(2, "March! all units from P1 to P7", ["March! 3 from P1 to P7"]),
                      (3, "move everything from P2 to P3", ["March! 1 from P2 to P3"])]
    assert g.state.submissions["Player#1"] == OrdersDecision((March(3, "P1", "P7"), March(1, "P2", "P3")))
    again = Game.from_blob(g.to_blob())  # the stored decision holds the number, never the marker
    assert again.state.submissions == g.state.submissions


def test_all_units_committed_are_stored_as_their_number():
    g = dragon_game()  # Player#1: P6 2, P7 1
    r = g.submit_dm("Player#1", "commit all units from P6 (sac 1), all from P7")
    assert r.lines == ["2 from P6 (sac 1)", "1 from P7"]
    assert g.state.submissions["Player#1"].commits == (Commit("P6", 2, 1), Commit("P7", 1))


@pytest.mark.parametrize("text", ["Bid all", "All in", "bid everything", "Bid the rest", "My bid is all I have"])
def test_bid_all_is_stored_as_the_seats_realm(text):
    g = named_game()
    g.state.players["Player#1"].realm = 37
    r = g.submit_dm("Player#1", text)
    assert r.lines == ["Bid 37"] and r.read[0][2] == ["Bid 37"]
    assert g.state.submissions["Player#1"] == BidDecision(37)


def test_all_the_state_does_not_fix_is_refused_and_stores_nothing():
    g = orders_game()  # every seat: 2 units in its own Province
    with pytest.raises(OrderSyntaxError, match="a Delayed March! moves after the other March! orders") as err:
        g.submit_dm("Player#1", "Delayed March! all from P1 to P2")
    assert "like 'Delayed March! 2 from P1 to P2'" in err.value.reason and err.value.details["line_no"] == 1
    with pytest.raises(IllegalOrderError, match="you have no Army Units in P3 for 'all' to count"):
        g.submit_dm("Player#1", "Fortify! P1\nMarch! all from P3 to P4")
    with pytest.raises(IllegalOrderError, match="'March! all from P1 to P2' is said twice"):
        g.submit_dm("Player#1", "March! all from P1 to P2\nMarch! all from P1 to P2")
    assert "Player#1" not in g.state.submissions


def test_lenient_drops_an_all_the_state_does_not_fix():
    g = position("ring-7", 7, {"P1": ("Player#1", 2), "P3": ("Player#1", 1), "P2": ("Player#2", 2)},
                 ranking=["Player#1", "Player#2"])
    r = g.submit_dm("Player#1", "Delayed March! all from P1 to P2\nFortify P3", lenient=True)
    assert r.lines == ["Fortify! P3"] and r.dropped[0][:2] == (1, "Delayed March! all from P1 to P2")
    g = orders_game()
    r = g.submit_dm("Player#1", "March! all from P1 to P2\nMarch! 1 from P3 to P4", lenient=True)
    assert r.lines == ["March! 2 from P1 to P2"]


def test_the_marker_is_never_stored_by_a_decision_given_directly():
    # notation.ALL reaches the rules only by a caller building a decision by hand: legality refuses it there
    g = orders_game()
    for decision in (OrdersDecision((March(ALL, "P1", "P2"),)),):
        with pytest.raises(IllegalOrderError, match="at least 1 unit"):
            g.submit("Player#1", decision)
    g = dragon_game()
    with pytest.raises(IllegalOrderError):
        g.submit("Player#1", DragonDecision((Commit("P6", ALL),)))
    g = named_game()
    with pytest.raises(IllegalOrderError, match="bid between 0 and"):
        g.submit("Player#1", BidDecision(ALL))


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 3), st.integers(1, 3), st.sampled_from(
    ["March! all from P1 to P2", "March! all units from P1 to P2", "Move everything from P1 to P2",
     "Golden March! all my units from P1 to P2", "march all army units p1 -> p2"]),
    st.sampled_from(MARKUP), st.lists(st.sampled_from(CHATTER), max_size=2))
def test_all_is_the_units_there_when_the_dm_is_settled(there, other, wording, markup, chatter):
    g = position("ring-7", 7, {"P1": ("Player#1", there), "P2": ("Player#2", other), "P3": ("Player#1", 1)},
                 ranking=["Player#1", "Player#2"])
    for p, name in zip(g.state.players.values(), ["Alice", "Bob"], strict=False):
        p.name = name  # CHATTER's "-- Bob the Bold" names no player (another's name signing a DM refuses it)
    r = g.submit_dm("Player#1", "\n".join([*chatter, markup.format(wording), "Fortify P3"]))
    golden = wording.startswith("Golden")
    assert g.state.submissions["Player#1"].orders == (March(there, "P1", "P2", golden), Fortify("P3"))
    assert f"March! {there} from P1 to P2" in r.lines[0]


def test_a_march_of_more_units_than_the_province_holds_is_stored_with_a_note():
    # rules: 003 Example of some order interactions, Example 2: 'March! 5 from P2 to P3' with 3 there stands, and
    # only the 3 there march; stored, but said (dogfood: 'March! 5 from P4 to P5' with 2 in P4 was stored unsaid)
    g = position("ring-4", 2, {"P1": ("Player#1", 2), "P2": ("Player#1", 3), "P3": ("Player#2", 1),
                               "P4": ("Player#2", 1)})
    r = g.submit_dm("Player#1", "March! 1 from P1 to P2\nMarch! 5 from P2 to P3")
    assert r.lines == ["March! 1 from P1 to P2", "March! 5 from P2 to P3"]
    assert r.warnings == ["March! 5 from P2 to P3: P2 holds 3 of your Army Units, and every March! executes at once, "
                          "so at most 3 march (003 March!, Example 2: only the units there when the orders execute "
                          "march)"]
    assert r.to_dict()["warnings"] == r.warnings
    # a Delayed March! also moves the units its seat's March! orders bring in (Example 7): said only beyond those
    g = position("ring-4", 2, {"P1": ("Player#1", 2), "P2": ("Player#1", 3), "P3": ("Player#2", 1),
                               "P4": ("Player#2", 1)})
    assert g.submit_dm("Player#1", "March! 2 from P1 to P2\nDelayed March! 5 from P2 to P3").warnings == []
    g = position("ring-4", 2, {"P1": ("Player#1", 2), "P2": ("Player#1", 3), "P3": ("Player#2", 1),
                               "P4": ("Player#2", 1)})
    assert g.submit_dm("Player#1", "March! 1 from P1 to P2\nDelayed March! 5 from P2 to P3").warnings == [
        "Delayed March! 5 from P2 to P3: P2 holds 3 of your Army Units (4 with those your March! orders bring in), so "
        "at most 4 march after the March! orders (003 Example 2: only the units there when the order executes march)"]
    assert g.submit_dm("Player#2", "March! 1 from P3 to P2\nFortify! P4").warnings == []  # as many as there: nothing
