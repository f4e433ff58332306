"""A DM pasted from an email (play-by-mail): the earlier message a reply quotes, the reply's header and the
signature are left out, never read as orders; a header naming another turn refuses the DM
(engine/protectors/dm_email.py, docs/dm-syntax.md "Email")."""

from __future__ import annotations

import pytest

from engine.errors import IllegalOrderError
from engine.protectors.dm_read import read_dm
from tests.protectors.helpers import position


def _read(text, step="orders", turn=None):
    return read_dm(text, step=step, turn=turn)


def test_a_reply_leaves_out_the_earlier_message_it_quotes():
    r = _read("Work, work! P5\n\nOn Tue, 3 Nov 2026 at 10:12, Gina <g@x.org> wrote:\n> Work, work! P6\n> Fortify! P5")
    assert r.error() is None and r.canonical() == ["Work, work! P5"]
    assert [e.why.split(" (")[0] for e in r.of_kind("ignored")] == [
        "blank line", "a reply's header", "quoted text", "quoted text"]


def test_a_quoted_reply_header_marks_the_quote_too():
    r = _read("Work, work! P5\n\n> On turn 3 you wrote:\n> Work, work! P6")
    assert r.canonical() == ["Work, work! P5"]


def test_outlook_and_original_message_headers_leave_out_everything_below():
    for header in ("-----Original Message-----\nFrom: GM\nSent: Monday", "From: GM <gm@x.org>\nSent: Monday, 3 May"):
        r = _read(f"Fortify! P1\n\n{header}\nSubject: Turn 4\nFortify! P2 was your order last turn")
        assert r.error() is None and r.canonical() == ["Fortify! P1"], header


def test_the_signature_below_its_delimiter_is_left_out():
    r = _read("Hi GM\nFortify! P1\n-- \nGina Smith\nCaptain of the Guard\nSent from my iPhone")
    assert r.error() is None and r.canonical() == ["Fortify! P1"]
    assert r.entries[3].why.startswith("a signature")
    assert _read("Fortify! P1\nSent from my Samsung Galaxy smartphone").error() is None


def test_without_a_reply_header_quote_markup_is_read_as_written():
    # in Discord '>' is markup a player may put around their own orders: never hides an order
    assert _read("> Fortify! P1\n> Work, work! P2").canonical() == ["Fortify! P1", "Work, work! P2"]
    assert _read("Fortify! P1\n\n> Work, work! P2").canonical() == ["Fortify! P1", "Work, work! P2"]


def test_an_unreadable_quoted_line_hints_at_sending_the_orders_without_it():
    err = _read("Fortify! P1\n\n> Turn 4 has begun. Flood! is in play.").error()
    assert err is not None and "send your orders without it" in str(err)


@pytest.mark.parametrize("text", ["Sorry I missed the orders last time", "sorry i was ill", "Sorry, we were away"])
def test_an_apology_with_i_or_we_is_left_out(text):
    assert _read(f"{text}\nFortify! P1").canonical() == ["Fortify! P1"]


def test_an_apology_that_holds_an_order_is_still_read():
    assert _read("Sorry, I bid 20", step="bid").canonical() == ["Bid 20"]


@pytest.mark.parametrize("text", ["My orders for turn 3:\nFortify! P1", "My orders for turn 3: Fortify! P1",
                                  "Turn 3 orders\nFortify! P1"])
def test_a_header_naming_an_earlier_turn_refuses_the_dm(text):
    err = _read(text, turn=4).error()
    assert err is not None and "headed for turn 3, but the game is at turn 4" in str(err)
    assert _read(text.replace("3", "4"), turn=4).error() is None


def test_a_consolidation_header_may_name_the_next_turn_the_bid_is_for():
    assert _read("Turn 5 bid:\nBid 20", step="consolidation", turn=4).error() is None
    assert _read("Turn 4 consolidation:\nBid 20", step="consolidation", turn=4).error() is None
    assert _read("Turn 3 consolidation:\nBid 20", step="consolidation", turn=4).error() is not None


def test_the_game_refuses_an_old_email_for_an_earlier_turn_and_stores_nothing():
    g = position("ring-5", 5, {f"P{i}": (f"Player#{i}", 1) for i in range(1, 6)}, turn=4)
    with pytest.raises(IllegalOrderError, match="headed for turn 3"):
        g.submit("Player#1", "My orders for turn 3:\nFortify! P1")
    assert not g.pending("Player#1")[0].submitted
    g.submit("Player#1", "My orders for turn 4:\nFortify! P1\n\nOn Mon, GM wrote:\n> Turn 4 has begun.")
    assert g.pending("Player#1")[0].submitted
