"""The python-chess style API: errors that name the line, finality, views, clones and blobs."""

from __future__ import annotations

import pytest

from engine.errors import IllegalOrderError, OrderSyntaxError, PhaseError, ValidationError
from engine.protectors.game import Game
from tests.protectors.helpers import position


def orders_game():
    return position("ring-7", 7, {f"P{i}": (f"Player#{i}", 2) for i in range(1, 8)},
                    ranking=[f"Player#{i}" for i in range(1, 8)])


class TestSubmitErrors:
    def test_not_adjacent_names_the_line(self):
        g = orders_game()
        with pytest.raises(IllegalOrderError) as err:
            g.submit("Player#2", "March! 1 from P2 to P5")
        rejected = [{"line": "March! 1 from P2 to P5", "reason": "P5 is not adjacent to P2", "line_no": 1}]
        assert err.value.details["rejected"] == rejected
        assert err.value.code == "invalid_order"

    def test_syntax_error(self):
        g = orders_game()
        with pytest.raises(OrderSyntaxError, match="Marsh"):
            g.submit("Player#1", "Marsh! 1 from P1 to P2")

    def test_all_or_nothing(self):
        g = orders_game()
        with pytest.raises(IllegalOrderError):
            g.submit("Player#1", "Fortify! P1\nMarch! 1 from P3 to P4")
        assert "Player#1" not in g.state.submissions
        assert g.submit("Player#1", "Fortify! P1") == ["Fortify! P1"]

    def test_choices_are_final(self):
        g = orders_game()
        g.submit("Player#1", "Fortify! P1")
        with pytest.raises(PhaseError, match="final"):
            g.submit("Player#1", "Work, work! P1")

    def test_wrong_step_and_unknown_seat(self):
        g = orders_game()
        with pytest.raises(IllegalOrderError, match="not a choice for the orders step"):
            g.submit("Player#1", "Bid 5")
        with pytest.raises(ValidationError, match="unknown seat"):
            g.submit("Player#9", "Fortify! P1")

    def test_one_order_per_province_and_ownership(self):
        g = orders_game()
        with pytest.raises(IllegalOrderError, match="already has an order"):
            g.submit("Player#1", "Fortify! P1\nWork, work! P1")
        with pytest.raises(IllegalOrderError, match="you have no Army Units in P2"):
            g.submit("Player#1", "Fortify! P2")

    def test_omitted_from_is_filled_for_a_single_province(self):
        g = orders_game()
        assert g.submit("Player#1", "Support! Player#2 in P2") == ["Support! Player#2 in P2 from P1"]

    def test_advance_waits_unless_forced(self):
        g = orders_game()
        with pytest.raises(PhaseError, match="waiting for"):
            g.advance()
        g.advance(force=True)
        assert g.step == "consolidation"


class TestSetupErrors:
    @pytest.mark.parametrize(("setup", "field"), [
        ({"board": "ring-7", "players": 4}, "players"),  # the version is read from them: options name nothing
        ({"board": "ring-7", "players": 4, "options": {"version": "normal"}}, "options.version"),
        ({"board": "ring-7", "colour": 1}, "setup"),
        ({"board": "ring-7", "seed": "x"}, "seed"),
        ({"board": "ring-7", "players": [{"seat": "Player#2"}] * 7}, "players[0].seat"),
        ({"board": "ring-4", "players": 4, "options": {"teams": True}}, "players[0].team"),
        ({"board": "ring-4", "position": {"provinces": {"P9": {"owner": "Player#1"}}}}, "position.provinces.P9"),
    ])
    def test_field_named(self, setup, field):
        with pytest.raises(ValidationError) as err:
            Game(setup)
        assert err.value.field == field


class TestViewsAndCopies:
    def test_clone_is_independent(self):
        g = orders_game()
        c = g.clone()
        c.submit("Player#1", "March! 2 from P1 to P2")
        c.advance(force=True)
        assert g.step == "orders" and g.state.provinces["P1"].units == 2

    def test_gm_sees_submissions_and_realm(self):
        g = orders_game()
        g.submit("Player#1", "Fortify! P1")
        gm, seat = g.view(), g.view("Player#2")
        assert gm["submissions"]["Player#1"] == ["Fortify! P1"]
        assert "realm" in gm["players"]["Player#3"] and "realm" not in seat["players"]["Player#3"]
        assert g.view("Player#1")["submitted"] == ["Fortify! P1"] and "submitted" not in seat

    def test_blob_roundtrip_and_errors(self):
        g = Game({"board": "ring-5", "seed": 9})
        g.submit("Player#1", "Bid 7")
        g.advance(force=True)
        assert Game.from_blob(g.to_blob()).view() == g.view()
        with pytest.raises(ValidationError, match="blob"):
            Game.from_blob(b"\x00garbage")

    def test_report_is_text_with_the_turn(self):
        g = Game({"board": "ring-5", "seed": 2})
        g.advance(force=True)
        text = g.report(1)
        assert text.startswith("== Turn 1 ==") and "Calms of Summer" in text
