"""Wording of event lines (dogfood s17 rules #9): a Delayed March! is marked as golden ones are, and a
look at The End deck does not say "the The End deck"."""

from __future__ import annotations

from engine.protectors import cards as C
from engine.protectors.peeks import look_text
from tests.protectors.helpers import play_orders, position
from tests.protectors.test_island import ISLAND, island_game

P1, P2, P3 = "Player#1", "Player#2", "Player#3"


def marches(events) -> list[str]:
    return [e.text for e in events if e.kind == "march"]


def test_a_delayed_march_is_marked_as_delayed():
    g = position("ring-4", 2, {"P1": (P1, 2), "P3": (P2, 2)})
    ev = play_orders(g, {P1: "Delayed March! 1 from P1 to P2", P2: "March! 1 from P3 to P4"})
    assert marches(ev) == ["Player#2 marches 1 from P3 to P4.", "Player#1 marches 1 from P1 to P2 (delayed)."]


def test_a_golden_delayed_march_is_marked_both_ways():
    g = position("ring-4", 2, {"P1": (P1, 2), "P3": (P2, 2)})
    ev = play_orders(g, {P1: "Delayed Golden March! 1 from P1 to P2", P2: "March! 1 from P3 to P4"})
    assert marches(ev) == ["Player#2 marches 1 from P3 to P4.", "Player#1 marches 1 from P1 to P2 (golden, delayed)."]


def test_a_look_at_the_end_deck_has_one_the():
    assert look_text({"deck": C.END, "card": "Time's Up!", "by": "Palantír"}) == (
        "Palantír: the top card of The End deck is Time's Up!.")
    assert look_text({"deck": C.SEA, "card": None, "by": "Palantír"}) == (
        "Palantír: the top card of the Sea deck is nothing (it is empty).")


def test_the_palantir_look_at_the_end_deck_as_its_seat_reads_it():
    g = island_game(island=P1, cards=())
    top = g.state.decks[C.END].draw[0]
    g.submit(P1, "Palantír The End")
    assert [e.text for e in g.events(P1) if e.kind == "peek"] == [f"Palantír: the top card of The End deck is {top}."]
    assert ISLAND in g.state.provinces
