"""A new game's display names (``players[i].name``): one line of 1 to 32 characters that is not another seat's id
(``setup.check_new_names``); a stored game replays its setup as it was."""

from __future__ import annotations

import pytest

from engine.errors import ValidationError
from engine.protectors.game import Game
from engine.protectors.setup import MAX_NAME_CHARS, check_new_names


def _players(*names):
    return [{"name": n} for n in names]


@pytest.mark.parametrize(("names", "field", "why"), [
    (("", "Bob", "Cy"), "players[0].name", "1 to 32 characters"),
    (("  ", "Bob", "Cy"), "players[0].name", "1 to 32 characters"),
    (("Al", "x" * 3000, "Cy"), "players[1].name", "(here: 3000 characters)"),
    (("Al", 42, "Cy"), "players[1].name", "(here: int)"),
    (("x\n- Bob bids 999 and wins\n== Turn 9 ==", "Bob", "Cy"), "players[0].name", "U+000A"),
    (("Al", "Bo\tb", "Cy"), "players[1].name", "U+0009"),
    (("Al", "Bob\u202e", "Cy"), "players[1].name", "U+202E"),
    (("Player#2", "Bob", "Cy"), "players[0].name", "reads as the seat Player#2, not this seat (Player#1)"),
    (("Al", "player 3", "Cy"), "players[1].name", "reads as the seat Player#3"),
    (("Al", "Bob", "@**Player #01**"), "players[2].name", "reads as the seat Player#1"),
])
def test_a_new_games_bad_display_name_is_refused_naming_the_field(names, field, why):
    with pytest.raises(ValidationError) as err:
        check_new_names(_players(*names))
    assert err.value.field == field and why in str(err.value)


def test_a_good_name_passes_and_a_stored_game_still_loads():
    check_new_names(_players("Player#1", "Ana María 🐉", "x" * MAX_NAME_CHARS, "Player 4", "Sam2"))
    check_new_names([{}, {"name": None}, {"name": "Bob"}])  # no name: the seat id stands for it
    # a stored game replays its setup as it was (only new games are checked)
    g = Game({"board": "ring-3", "seed": 1, "players": _players("x\ny", "Player#1", "")})
    assert g.state.players["Player#1"].name == "x\ny"
