"""game.submit reads DM text as players write it: ignored lines and lenient drops come back in the answer
(issues 17 item 6, 23 items 2 and 6; docs/service.md "DM text")."""

from __future__ import annotations

import pytest

from tests.service.helpers import error_of, gm_state, named_game


@pytest.fixture
def game(client):
    return named_game(client)


def test_the_answer_lists_ignored_lines(client, game):
    reply = client.call("game.submit", game_id=game["game_id"], token=game["seat_tokens"]["Player#1"],
                        text="Hi GM!\n# Bid 25\nthanks, Ann")
    assert reply["lines"] == reply["accepted"] == ["Bid 25"] and reply["dropped"] == []
    assert reply["ignored"] == [{"line_no": 1, "text": "Hi GM!", "why": "a greeting"},
                                {"line_no": 3, "text": "thanks, Ann", "why": "a sign-off"}]


def test_lenient_drops_the_invalid_lines_and_stores_the_rest(client, game):
    gid, gm = game["game_id"], game["gm_token"]
    err = error_of(client, "game.submit", game_id=gid, token=gm, seat="Player#2", text="Bid 4\nmove everything east")
    assert err.code == "invalid_order" and err.details["rejected"][0]["line_no"] == 2
    reply = client.call("game.submit", game_id=gid, token=gm, seat="Player#2", lenient=True,
                        text="Bid 4\nmove everything east")
    assert reply["lines"] == ["Bid 4"]
    assert [(d["line_no"], d["text"]) for d in reply["dropped"]] == [(2, "move everything east")]


def test_lenient_refuses_a_dm_it_would_drop_every_line_of_and_stores_nothing(client, game):
    gid, gm = game["game_id"], game["gm_token"]
    before = gm_state(client, gid, gm)
    err = error_of(client, "game.submit", game_id=gid, token=gm, seat="Player#2", lenient=True,
                   text="hi\nFortify! P2\nmove everything east")  # not one bid: never stored as Bid 0
    assert err.code == "invalid_order" and "lenient mode dropped every order of it" in err.message
    assert [r["line_no"] for r in err.details["rejected"]] == [2, 3]
    assert gm_state(client, gid, gm) == before


def test_a_5000_digit_bid_is_an_invalid_order_with_the_reason(client, game):
    gid, gm = game["game_id"], game["gm_token"]
    before = gm_state(client, gid, gm)
    err = error_of(client, "game.submit", game_id=gid, token=game["seat_tokens"]["Player#3"], text="Bid " + "9" * 5000)
    assert err.code == "invalid_order" and "1000000" in err.message and len(err.message) < 700
    err = error_of(client, "game.submit", game_id=gid, token=game["seat_tokens"]["Player#3"], text="Bid " + "9" * 300)
    assert err.code == "invalid_order" and "at most 1000000" in err.message
    assert gm_state(client, gid, gm) == before


def test_lenient_must_be_a_boolean(client, game):
    err = error_of(client, "game.submit", game_id=game["game_id"], token=game["gm_token"], seat="Player#1",
                   text="Bid 1", lenient="yes")
    assert err.code == "invalid_params" and err.details["field"] == "lenient"


def test_aliases_name_seats_such_as_colours(client, game):
    gid, gm = game["game_id"], game["gm_token"]
    client.call("game.advance", game_id=gid, token=gm, force=True)  # everyone bid 0: the orders step
    reply = client.call("game.submit", game_id=gid, token=gm, seat="Player#1", aliases={"Orange": "Player#2"},
                        text="Send 5 $Realm to orange")
    assert reply["lines"] == ["Send 5 to Player#2"]


@pytest.mark.parametrize("aliases", [{"Teal": "Player#99"}, {"": "Player#2"}, {"x" * 65: "Player#2"},
                                     {f"c{i}": "Player#2" for i in range(65)}, {"Teal": 2}])
def test_bad_aliases_are_invalid_params(client, game, aliases):
    err = error_of(client, "game.submit", game_id=game["game_id"], token=game["gm_token"], seat="Player#1",
                   text="Bid 1", aliases=aliases)
    assert err.code == "invalid_params" and err.details["field"].startswith("aliases")


@pytest.mark.parametrize(("alias", "names"), [("ben", "Player#2"), ("Player#2", "Player#2"), ("sky blue", "Player#2")])
def test_an_alias_that_already_names_another_seat_is_refused_not_dropped(client, game, alias, names):
    # the engine reads a display name, a seat or a colour as its own seat and dropped the alias without a word:
    # {"ben": "Player#3"} sent "Send 5 to Ben" to Player#2, not the Player#3 the GM meant
    gid, gm = game["game_id"], game["gm_token"]
    client.call("game.advance", game_id=gid, token=gm, force=True)  # everyone bid 0: the orders step
    before = gm_state(client, gid, gm)
    err = error_of(client, "game.submit", game_id=gid, token=gm, seat="Player#1", aliases={alias: "Player#3"},
                   text="Send 5 $Realm to Ben")
    assert err.code == "invalid_params" and err.details["field"] == f"aliases.{alias}" and names in err.message
    assert gm_state(client, gid, gm) == before
    same = client.call("game.submit", game_id=gid, token=gm, seat="Player#1", aliases={"BEN": "Player#2"},
                       text="Send 5 $Realm to Ben")  # another spelling of the same seat's name: no clash
    assert same["lines"] == ["Send 5 to Player#2"]


@pytest.mark.parametrize("aliases", [{"Orange": "Player#2", "orange": "Player#3"},
                                     {"Ｏrange": "Player#2", "Orange": "Player#3"},  # fullwidth O
                                     {"Oránge": "Player#3", "Orange": "Player#2"}])
def test_two_aliases_read_alike_for_two_seats_are_refused_not_one_picked(client, game, aliases):
    # the reader keys names without case, width or accents: the later alias silently won, so 'Send 5 to orange'
    # went to Player#3 or Player#2 depending on the order of the map's keys
    gid, gm = game["game_id"], game["gm_token"]
    client.call("game.advance", game_id=gid, token=gm, force=True)  # everyone bid 0: the orders step
    before = gm_state(client, gid, gm)
    first, second = list(aliases)
    err = error_of(client, "game.submit", game_id=gid, token=gm, seat="Player#1", aliases=aliases,
                   text="Send 5 $Realm to orange")
    assert err.code == "invalid_params" and err.details["field"] == f"aliases.{second}"
    assert "another alias" in err.message and aliases[first] in err.message
    assert gm_state(client, gid, gm) == before
    same = client.call("game.submit", game_id=gid, token=gm, seat="Player#1", text="Send 5 $Realm to orange",
                       aliases={"Orange": "Player#3", "ORANGE": "Player#3"})  # two spellings of one seat's alias
    assert same["lines"] == ["Send 5 to Player#3"]
