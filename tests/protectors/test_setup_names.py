"""A new game's display names (``players[i].name``): one line of 1 to 32 characters that is not another seat's id
(``setup.check_new_names``); a stored game replays its setup as it was."""

from __future__ import annotations

import pytest

from engine.errors import ValidationError
from engine.protectors.game import Game
from engine.protectors.setup import MAX_NAME_CHARS, check_new_names

# a subdivision flag: the black flag and tag characters (format characters a name may hold)
WALES_FLAG = "\U0001f3f4\U000e0067\U000e0062\U000e0077\U000e006c\U000e0073\U000e007f"


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
    # the service's seat labels read "P2" as Player#2 (service/seat_names.py)
    (("P2", "Bob", "Cy"), "players[0].name", "reads as the seat Player#2"),
    (("Al", "p #03", "Cy"), "players[1].name", "reads as the seat Player#3"),
    # invisible: "B\u200bob" and "Bob" look the same in Discord and in the reports
    (("Al", "B\u200bob", "Bob"), "players[1].name", "invisible character (it has U+200B"),
    (("Al", "Bob\u2060", "Cy"), "players[1].name", "U+2060"),
    (("Al", "Bo\u00adb", "Cy"), "players[1].name", "U+00AD"),
    # another seat's colour: the board's default for Player#2 (and a colour the setup gives Player#3)
    (("sky blue", "Bob", "Cy"), "players[0].name", "is Player#2's colour"),
    (("Al", "Bob", "Cy"), None, None),
])
def test_a_new_games_bad_display_name_is_refused_naming_the_field(names, field, why):
    if field is None:  # the control case: the same shape with good names passes
        check_new_names(_players(*names))
        return
    with pytest.raises(ValidationError) as err:
        check_new_names(_players(*names))
    assert err.value.field == field and why in str(err.value)


@pytest.mark.parametrize(("team", "why"), [
    ("North\nSouth", "U+000A"), ("Nor\tth", "U+0009"), ("No\u200brth", "invisible character (it has U+200B"),
    ("N" * 33, "at most 32 characters (here: 33)"),
])
def test_a_new_games_team_name_is_one_line_of_visible_text(team, why):
    # a newline split the pictures' legend cell over the next row, a tab was drawn as a box
    players = [{"team": team}, {"team": team}, {"team": "B"}, {"team": "B"}]
    with pytest.raises(ValidationError) as err:
        check_new_names(players)
    assert err.value.field == "players[0].team" and why in str(err.value)
    check_new_names([{"team": "Team North 🐉"}, {"team": 7}, {"team": "B"}, {"team": "B"}])


def test_a_name_that_is_its_own_seats_colour_passes():
    check_new_names([{"name": "teal", "colour": "teal"}, {"name": "Bob"}, {"name": "Cy"}])
    check_new_names([{"name": "Al"}, {"name": "sky blue"}, {"name": "Cy"}])  # Player#2's own default colour


def test_a_good_name_passes_and_a_stored_game_still_loads():
    check_new_names(_players("Player#1", "Ana María 🐉", "x" * MAX_NAME_CHARS, "Player 4", "Sam2", "P6", "Pete7",
                             "👨\u200d👩\u200d👧", "مهر\u200cنوش", WALES_FLAG))
    check_new_names([{}, {"name": None}, {"name": "Bob"}])  # no name: the seat id stands for it
    # a stored game replays its setup as it was (only new games are checked)
    g = Game({"board": "ring-3", "seed": 1, "players": _players("x\ny", "Player#1", "")})
    assert g.state.players["Player#1"].name == "x\ny"


def test_team_names_told_apart_only_by_capitals_or_spaces_are_named_in_the_refusal():
    # 'North ' (a trailing space) and 'North' are two teams, and the unequal sizes were refused as "North has 1, North
    # has 3": the two names looked the same. The refusal now names them (repr) and says why they differ
    teams = ["North ", "North", "North", "North", "South", "South", "South", "South"]
    players = [{"name": f"P{i}x", "team": t} for i, t in enumerate(teams)]
    with pytest.raises(ValidationError) as err:
        Game({"board": "ring-8", "seed": 1, "players": players, "options": {"teams": True}})
    assert "'North ' and 'North' are different teams: they differ only in capitals or spaces" in str(err.value)


@pytest.mark.parametrize(("key", "value"), [("faction", "Hodir"), ("team", "North")])
def test_a_faction_or_team_without_its_option_is_refused_in_a_new_game(key, value):
    # without "options": {"teams": true} the teams were dropped without a word: a game with no teams, a 24h window
    from engine.protectors.setup import check_new_options

    players = [{"name": n} for n in ("Al", "Bo", "Cy", "Di")]
    players[2][key] = value
    with pytest.raises(ValidationError, match=rf"players\[2\]\.{key}: this game has no {key}s; add "):
        check_new_options({"board": "ring-4", "players": players})
    check_new_options({"board": "ring-4", "players": players, "options": {f"{key}s": True}})
    check_new_options({"board": "ring-4", "players": [{"name": "Al"}, {}, {}, {}]})  # neither: nothing to say
