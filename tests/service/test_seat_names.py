"""The GM names a seat in game.submit, game.assign and game.report's ``private`` as the command line does: Player#N,
its display name or its colour, any case; a typo is answered with the closest seat (service/seat_names.py)."""

from __future__ import annotations

import pytest

from tests.service.helpers import error_of, named_game


@pytest.fixture
def game(client):
    return named_game(client)


def test_the_gm_submits_for_a_seat_by_display_name_or_colour(client, game):
    gid, gm = game["game_id"], game["gm_token"]
    assert client.call("game.submit", game_id=gid, token=gm, seat="ben", text="Bid 4")["lines"] == ["Bid 4"]
    colour = client.call("game.view", game_id=gid, token=gm)["colours"]["Player#3"]
    assert client.call("game.submit", game_id=gid, token=gm, seat=colour.upper(), text="Bid 2")["lines"] == ["Bid 2"]
    pending = {p["seat"]: p["submitted"] for p in client.call("game.pending", game_id=gid, token=gm)}
    assert pending["Player#2"] and pending["Player#3"] and not pending["Player#1"]


def test_a_misspelt_seat_gets_the_closest_one_and_nothing_is_stored(client, game):
    gid, gm = game["game_id"], game["gm_token"]
    err = error_of(client, "game.submit", game_id=gid, token=gm, seat="Bne", text="Bid 4")
    assert err.code == "invalid_params" and err.details["field"] == "seat"
    assert "no seat is called 'Bne'; did you mean Player#2 (Ben)?" in err.message
    err = error_of(client, "game.assign", game_id=gid, token=gm, seat="Dii", agent="heuristic")
    assert "did you mean Player#4 (Di)?" in err.message
    err = error_of(client, "game.report", game_id=gid, token=gm, private="Edd")
    assert "did you mean Player#5 (Ed)?" in err.message
    assert not any(p["submitted"] for p in client.call("game.pending", game_id=gid, token=gm))


def test_assign_and_private_take_the_display_name(client, game):
    gid, gm = game["game_id"], game["gm_token"]
    client.call("game.assign", game_id=gid, token=gm, seat="DI", agent="heuristic")
    assert client.call("game.view", game_id=gid, token=gm)["controllers"]["Player#4"] is not None
    assert client.call("game.report", game_id=gid, token=gm, private="ann")["seat"] == "Player#1"


def test_a_seat_token_names_only_its_own_seat_and_learns_no_other_name(client, game):
    gid, ann = game["game_id"], game["seat_tokens"]["Player#1"]
    assert client.call("game.submit", game_id=gid, token=ann, seat="Ann", text="Bid 3")["lines"] == ["Bid 3"]
    for label in ("Ben", "Bne", "nobody at all"):
        err = error_of(client, "game.submit", game_id=gid, token=ann, seat=label, text="Bid 1")
        assert err.code == "forbidden" and "Ben" not in err.message and "did you mean" not in err.message


def test_a_huge_label_is_answered_cut_short_without_a_search(client, game, monkeypatch):
    gid, gm = game["game_id"], game["gm_token"]
    err = error_of(client, "game.submit", game_id=gid, token=gm, seat="B" * 60_000, text="Bid 4")
    assert err.code == "invalid_params" and "did you mean" not in err.message and len(err.message) < 600
    # in process: difflib's work grows with the label, so a label past MAX_LABEL is never compared (a "Bbo" is)
    import difflib

    from engine.protectors.game import Game
    from service import seat_names

    g = Game({"board": "ring-3", "seed": 1, "players": [{"seat": "Player#1", "name": "Bob"}, {"seat": "Player#2"},
                                                        {"seat": "Player#3"}]})
    searched = []
    real = difflib.get_close_matches
    monkeypatch.setattr(difflib, "get_close_matches",
                        lambda word, *a, **k: searched.append(word) or real(word, *a, **k))
    assert "did you mean Player#1 (Bob)?" in seat_names.unknown_seat(g, "Bbo")
    too_long = "B" * (seat_names.MAX_LABEL + 1)
    assert seat_names.seat_named(g, too_long) is None and "..." in seat_names.unknown_seat(g, too_long)
    assert searched == ["bbo"]


@pytest.mark.parametrize("name", ["P2", "p 2", "P#2", "p#02"])
def test_a_display_name_that_is_another_seats_number_names_neither_and_nothing_is_stored(client, name):
    # Player#1 called "P2": the GM's seat="P2" (its display name, as the docs allow) stored the bid for Player#2. A new
    # game refuses the name (engine/protectors/setup.py, _SEAT_LIKE); a game stored before that still loads as it was
    from engine.protectors.game import Game
    from service import gamefile

    players = [{"name": name}, *({} for _ in range(15))]
    err = error_of(client, "game.create", setup={"board": "ring-16", "players": players, "seed": 5})
    assert err.code == "invalid_params" and "reads as the seat Player#2" in err.message
    stored = Game({"board": "ring-16", "players": players, "seed": 5})
    game = client.call("game.import", blob=gamefile.dumps(gamefile.GameFile(game=stored)))
    gid, gm = game["game_id"], game["gm_token"]
    err = error_of(client, "game.submit", game_id=gid, token=gm, seat=name, text="Bid 7")
    assert err.code == "invalid_params" and err.details["field"] == "seat"
    assert "names two seats: Player#2 by its number and Player#1" in err.message
    assert not any(p["submitted"] for p in client.call("game.pending", game_id=gid, token=gm))
    for seat in ("Player#1", "Player#2"):  # Player#N names each
        client.call("game.submit", game_id=gid, token=gm, seat=seat, text="Bid 7")
    assert {p["seat"] for p in client.call("game.pending", game_id=gid, token=gm) if p["submitted"]} == {
        "Player#1", "Player#2"}


def test_display_names_are_read_as_dms_read_them():
    # case-folding alone read "Strasse" as both of two names the game tells apart (so neither could be named), and a
    # decomposed "Amélie" as no seat at all
    from engine.protectors.game import Game
    from service import seat_names

    g = Game({"board": "ring-3", "seed": 1, "players": [{"name": "Strasse"}, {"name": "Straße"}, {"name": "Amélie"}]})
    assert seat_names.seat_named(g, "Strasse") == "Player#1" and seat_names.seat_named(g, "STRASSE") == "Player#1"
    assert seat_names.seat_named(g, "Straße") == "Player#2"
    assert seat_names.seat_named(g, "Ame\u0301lie") == "Player#3" and seat_names.seat_named(g, "amelie") == "Player#3"
    assert seat_names.seat_named(g, "P3") == "Player#3" and seat_names.seat_named(g, "nobody") is None


def test_a_guess_found_by_a_colour_says_so(client, game):
    # 'Zed' is close to a seat's colour 'red', not to its name: "did you mean Player#3 (Cy)?" looked like a wild guess
    gid, gm = game["game_id"], game["gm_token"]
    colours = client.call("game.view", game_id=gid, token=gm)["colours"]
    seat, colour = next((s, c) for s, c in colours.items() if len(c) >= 3 and " " not in c)
    typo = "X" + colour[1:]  # one letter off the colour
    err = error_of(client, "game.submit", game_id=gid, token=gm, seat=typo, text="Bid 4")
    name = {"Player#1": "Ann", "Player#2": "Ben", "Player#3": "Cy", "Player#4": "Di", "Player#5": "Ed"}[seat]
    assert f"did you mean {seat} ({name}), whose colour is {colour}?" in err.message, err.message
    err = error_of(client, "game.submit", game_id=gid, token=gm, seat="Bne", text="Bid 4")
    assert "did you mean Player#2 (Ben)?" in err.message and "whose colour" not in err.message


def test_a_big_games_seats_are_all_listed_though_the_message_is_cut(client):
    # at 12 seats the list ran past the wire's 300-character cut: 'Player#10... (63 more characters)', and the GM
    # never saw Player#11 and Player#12; every seat is now in details.seats, and the message says so
    names = ["Alice", "Bob", "Carol", "Dan", "Eve", "Frank", "Gina", "Hal", "Ivy", "Jon", "Kim", "Lou"]
    g = client.call("game.create", setup={"board": "ring-12", "seed": 4, "players": [{"name": n} for n in names]})
    gid, gm = g["game_id"], g["gm_token"]
    for method, field, fields in (("game.submit", "seat", {"seat": "Zed", "text": "Bid 4"}),
                                  ("game.assign", "seat", {"seat": "Zed", "agent": "hard"}),
                                  ("game.report", "private", {"private": "Zed"}),
                                  ("game.render", "focus", {"focus": "Zed"})):
        err = error_of(client, method, game_id=gid, token=gm, **fields)
        assert err.code == "invalid_params" and err.details["field"] == field
        assert err.message == f"{field}: no seat is called 'Zed' (its 12 seats: details.seats)", err.message
        assert err.details["seats"][0] == "Player#1 (Alice) indigo"
        assert err.details["seats"][11] == "Player#12 (Lou) pale blue" and len(err.details["seats"]) == 12
    err = error_of(client, "game.submit", game_id=gid, token=gm, seat="Lu", text="Bid 4")
    assert err.message.startswith("seat: no seat is called 'Lu'; did you mean Player#12 (Lou)?")  # the guess stays
    small = named_game(client)  # a list that fits is in the message too
    err = error_of(client, "game.submit", game_id=small["game_id"], token=small["gm_token"], seat="Zed", text="Bid 4")
    assert err.message.endswith(", ".join(err.details["seats"]) + ")") and "Player#5 (Ed)" in err.message


def test_a_setups_agents_naming_no_seat_of_a_grand_game_lists_every_seat(client):
    # setup.agents.Player#17 in a 16-seat game: the list was cut at 'Player#12 pale blue, Pla... (66 more characters)'
    err = error_of(client, "game.create", setup={"board": "ring-16-grand", "agents": {"Player#17": "hard"}})
    assert err.code == "invalid_params" and err.details["field"] == "setup.agents.Player#17"
    assert err.message == ("setup.agents.Player#17: no seat is called 'Player#17'; did you mean Player#7? "
                           "(its 16 seats: details.seats)")
    assert len(err.details["seats"]) == 16 and err.details["seats"][15] == "Player#16 pink"
