"""Seat colours (rules: 003 Orders: "All players have a unique colour assigned to them, this colour
or/and a player's Discord name can be used to specify players")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.errors import ValidationError
from engine.protectors.colours import COLOUR_NAMES
from engine.protectors.game import Game
from engine.protectors.orders import Support
from engine.protectors.setup import check_new_names
from tests.protectors.test_dm_submit import orders_game


def game(players: list[dict]) -> Game:
    return Game({"board": f"ring-{len(players)}", "seed": 2, "players": players})


def test_every_seat_has_the_boards_colour_unless_the_setup_names_one():
    g = game([{"name": "Alice"}, {"name": "Bob", "colour": "Red"}, {}, {}, {}])
    assert g.colours() == {"Player#1": "indigo", "Player#2": "Red", "Player#3": "dark green",
                           "Player#4": "light green", "Player#5": "brown"}


def test_sixteen_seats_get_sixteen_different_colours():
    g = game([{} for _ in range(16)])
    assert sorted(g.colours().values()) == sorted(COLOUR_NAMES)


def test_a_given_colour_moves_the_default_it_would_clash_with():  # a stored game; a new one refuses it (below)
    g = game([{"colour": "sky blue"}, {}, {}])
    colours = g.colours()
    assert colours["Player#1"] == "sky blue" and colours["Player#2"] not in ("sky blue", "indigo")
    assert len({c.casefold() for c in colours.values()}) == 3


@pytest.mark.parametrize("players, where, text", [
    ([{"colour": "red"}, {"colour": "RED"}], r"players\[1\]\.colour", "already Player#1's colour"),
    ([{"name": "Red"}, {"colour": "red"}], r"players\[1\]\.colour", "Player#1's display name"),
    ([{"colour": ""}, {}], r"players\[0\]\.colour", "1 to 32 characters"),
    ([{"colour": 7}, {}], r"players\[0\]\.colour", "1 to 32 characters"),
    ([{"colour": "x" * 33}, {}], r"players\[0\]\.colour", "1 to 32 characters"),
    ([{"colour": "Player#2"}, {}], r"players\[0\]\.colour", "may not contain '#'"),
])
def test_bad_colours_are_refused_naming_the_field(players, where, text):
    with pytest.raises(ValidationError, match=where) as err:
        game(players)
    assert text in str(err.value)


def test_a_dm_names_a_seat_by_its_colour():
    g = orders_game()
    assert g.submit_dm("Player#1", "Support! Sky Blue in P2").lines == ["Support! Player#2 in P2 from P1"]
    assert g.state.submissions["Player#1"].orders == (Support("Player#2", "P2", "P1"),)


def test_a_gms_own_colour_names_the_seat_and_a_display_name_beats_a_default_colour():
    g = game([{"name": "Alice", "colour": "red"}, {"name": "Indigo"}, {}, {}, {}])
    # Player#1's default would be "indigo", which is Player#2's display name: the name wins
    assert g.colours()["Player#1"] == "red"
    g2 = game([{"name": "Alice"}, {"name": "Indigo"}, {}, {}, {}])
    names = g2.colour_names()
    assert "indigo" not in names and names["sky blue"] == "Player#2"


def test_the_boards_colour_names_follow_its_palette():
    from service.render import palette
    from service.render.palette import SEAT_COLOUR_NAMES, SEAT_COLOURS
    assert len(SEAT_COLOUR_NAMES) == len(SEAT_COLOURS) == len(set(COLOUR_NAMES)) == 16
    source = Path(palette.__file__).read_text(encoding="utf-8")
    for i, (hex_, name) in enumerate(zip(SEAT_COLOURS, SEAT_COLOUR_NAMES, strict=True), start=1):
        assert f'"{hex_}",  # {i} {name}\n' in source  # the comment beside each value names it


def test_a_setup_with_only_a_board_has_the_boards_colours():
    g = Game({"board": "ring-3", "seed": 1})
    assert g.colours() == {"Player#1": "indigo", "Player#2": "sky blue", "Player#3": "dark green"}
    assert g.colour_names()["sky blue"] == "Player#2"


@pytest.mark.parametrize("players, where, seat", [
    ([{"name": "Alice", "colour": "sky blue"}, {"name": "Bob"}, {}], r"players\[0\]\.colour", "Player#2"),
    ([{}, {}, {"colour": "Indigo"}], r"players\[2\]\.colour", "Player#1"),
])
def test_a_new_games_colour_may_not_be_the_colour_another_seat_has_by_default(players, where, seat):
    with pytest.raises(ValidationError, match=where) as err:  # `Support! sky blue in P2` would mean either
        check_new_names(players)
    assert f"is {seat}'s colour" in str(err.value)
    check_new_names([{"colour": "sky blue"}, {"colour": "red"}, {}])  # Player#2 is red: sky blue is nobody else's
    check_new_names([{}, {"colour": "Sky Blue"}, {}])  # its own default, given


def test_regent_new_refuses_a_colour_that_is_another_seats_in_one_line(tmp_path, capsys):
    from service.cli import main

    setup = {"board": "ring-3", "seed": 1, "players": [{"name": "Alice", "colour": "sky blue"}, {"name": "Bob"}, {}]}
    (tmp_path / "setup.json").write_text(json.dumps(setup))
    assert main(["new", str(tmp_path / "game.bin"), "--setup", str(tmp_path / "setup.json")]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"regent: error: {tmp_path / 'setup.json'}: players[0].colour: 'sky blue' is Player#2's colour (the "
                   "board's for it, as it gives none of its own); give another, or give that seat a colour too")
    assert not (tmp_path / "game.bin").exists()
