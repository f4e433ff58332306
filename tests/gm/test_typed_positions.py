"""A running 12-seat team game typed in by hand (docs/positions.md) with the slips a GM makes: each is one line
naming the file, the field and what is wrong, exit 2, and no game file is left behind."""

from __future__ import annotations

import json
from pathlib import Path

from engine.protectors.close_names import MAX_GUESS_CHARS
from service.cli import main

NAMES = ["Alice", "Bob", "Carol", "Dan", "Eve", "Frank", "Gina", "Hal", "Ivy", "Jon", "Kim", "Lou"]
TEAMS = ["North"] * 3 + ["East"] * 3 + ["South"] * 3 + ["West"] * 3


def setup() -> dict:
    """Turn 4's orders step of a ring-12 game in teams of 3, every seat on its own Province."""
    seats = [f"Player#{i}" for i in range(1, 13)]
    return {
        "board": "ring-12",
        "seed": 41,
        "options": {"teams": True},
        "players": [{"seat": s, "name": n, "team": t} for s, n, t in zip(seats, NAMES, TEAMS, strict=True)],
        "position": {
            "turn": 4,
            "step": "orders",
            "dpl": 6,
            "ranking": seats,
            "realm": {s: 50 for s in seats},
            "vp": {s: 2 for s in seats},
            "provinces": {f"P{i}": {"owner": s, "units": 1} for i, s in enumerate(seats, start=1)},
            "cards_in_play": ["Deep Snow", "The Misty Mountains Cold"],
        },
    }


def refused(tmp_path: Path, capsys, s: dict) -> str:
    """``regent new`` on ``s``: the one line it printed (exit 2, no game file)."""
    path = tmp_path / "setup.json"
    path.write_text(json.dumps(s), encoding="utf-8")
    capsys.readouterr()
    assert main(["new", str(tmp_path / "game.bin"), "--setup", str(path)]) == 2
    assert not (tmp_path / "game.bin").exists()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    return err.strip()


def test_the_setup_as_typed_is_taken(tmp_path, capsys):
    path = tmp_path / "setup.json"
    path.write_text(json.dumps(setup()), encoding="utf-8")
    assert main(["new", str(tmp_path / "game.bin"), "--setup", str(path)]) == 0


def test_a_seat_written_as_a_dm_header_writes_it_gets_the_seat_as_a_hint(tmp_path, capsys):
    for label in ("player 3", "P#3", "player#3"):
        s = setup()
        s["position"]["vp"][label] = s["position"]["vp"].pop("Player#3")
        err = refused(tmp_path, capsys, s)
        assert err.startswith("regent: error: ") and "setup.json: position.vp: " in err
        assert f"unknown seat {label!r} (did you mean Player#3? seats are written Player#1 to Player#12)" in err


def test_a_player_left_out_of_the_list_is_blamed_on_the_list_not_on_options(tmp_path, capsys):
    # 11 players on ring-12 read 'setup.json: options.version: a Normal game has ...', a key the file does not have
    s = setup()
    del s["players"][11], s["position"]
    err = refused(tmp_path, capsys, s)
    assert "setup.json: players: a Normal game has as many Provinces as players (11), this board has 12" in err
    s["options"]["version"] = "normal"  # given, it is the version that disagrees with the board
    assert "setup.json: options.version: a Normal game has" in refused(tmp_path, capsys, s)


def test_teams_that_do_not_match_name_each_team_quoted(tmp_path, capsys):
    # a team typed as a number read 'North has 2, 2 has 1, East has 3': the name and its count ran together
    s = setup()
    s["players"][1]["team"] = 2
    assert (
        "setup.json: players: team games need 2+ teams of the same size (here: 'North' has 2, '2' has 1, "
        "'East' has 3, 'South' has 3, 'West' has 3)"
    ) in refused(tmp_path, capsys, s)
    s["players"][1]["team"] = "North"
    s["players"][3]["team"] = "North"  # a seat put in the wrong team: 4, 2, 3, 3
    assert "(here: 'North' has 4, 'East' has 2, 'South' has 3, 'West' has 3)" in refused(tmp_path, capsys, s)


def island_setup() -> dict:
    """Turn 3 of a ring-12+island game with factions: Player#3 holds the Island and its Wizard Sanctum."""
    s = setup()
    s["board"], s["options"] = "ring-12+island", {"factions": True}
    for p in s["players"]:
        del p["team"]
    s["position"]["provinces"]["P0"] = {"owner": "Player#3", "units": 1}
    s["position"]["vp"]["Player#3"] = 5  # P3 2 and the Island 3
    s["position"]["sanctum"] = {"holder": "Player#3"}
    return s


def test_a_sanctum_holder_who_is_not_the_islands_names_who_holds_it(tmp_path, capsys):
    # it read 'position.sanctum.holder: the Sanctum's holder controls the Island', not saying who does
    s = island_setup()
    s["position"]["sanctum"]["holder"] = "Player#4"
    assert (
        "setup.json: position.sanctum.holder: Player#4, but the Sanctum's holder controls the Island, and P0 is "
        "Player#3's in position.provinces"
    ) in refused(tmp_path, capsys, s)
    s["position"]["provinces"]["P0"] = {}
    s["position"]["vp"]["Player#3"] = 2
    assert "and P0 is no one's in position.provinces" in refused(tmp_path, capsys, s)
    s["board"] = "ring-12"
    del s["position"]["provinces"]["P0"]
    assert "setup.json: position.sanctum: this board has no Island, so no Wizard Sanctum" in refused(
        tmp_path, capsys, s
    )
    s = island_setup()  # as typed, it is taken
    (tmp_path / "setup.json").write_text(json.dumps(s), encoding="utf-8")
    assert main(["new", str(tmp_path / "game.bin"), "--setup", str(tmp_path / "setup.json")]) == 0


def test_an_exports_draw_pile_kept_with_this_turns_cards_says_to_take_them_out(tmp_path, capsys):
    # docs/positions.md, step 1: start from an export; it lists every draw pile whole, so naming this turn's cards
    # and the discards over it read only '13 cards of the event deck; it has 10 (...)'
    assert main(["new", str(tmp_path / "tmp.bin"), "--board", "ring-12", "--seed", "41"]) == 0
    assert main(["export-position", str(tmp_path / "tmp.bin"), "-o", str(tmp_path / "exported.json")]) == 0
    s = setup()
    s["position"]["decks"] = json.loads((tmp_path / "exported.json").read_text())["position"]["decks"]
    s["position"]["decks"]["event"]["discard"] = ["Calms of Summer", "Flood!"]
    err = refused(tmp_path, capsys, s)
    assert "setup.json: position.decks.event: 13 cards of the event deck; it has 10 (" in err
    assert err.endswith(
        "its draw pile still lists cards in play or discarded: take them out of "
        "position.decks.event.draw, or leave draw out (the seed's shuffle deals the rest)"
    )
    for deck in s["position"]["decks"].values():  # as positions.md says: the draw piles left out
        del deck["draw"]
    (tmp_path / "setup.json").write_text(json.dumps(s), encoding="utf-8")
    assert main(["new", str(tmp_path / "game.bin"), "--setup", str(tmp_path / "setup.json")]) == 0


def faction_setup() -> dict:
    """The ring-12 game played with factions (no teams): Player#1 Lannuvár, Player#2 Iron Light, both from the
    setup."""
    s = setup()
    s["options"] = {"factions": True}
    for p in s["players"]:
        del p["team"]
    s["players"][0]["faction"], s["players"][1]["faction"] = "Lannuvár", "Iron Light"
    return s


def test_a_misspelt_faction_names_the_faction_meant(tmp_path, capsys):
    # 'Kalu Ack' read only "is not one of Cenarion, Kalu'Ak, ...": case, accents and apostrophes were forgiven, one
    # letter off was not, and nothing said which one it meant
    s = faction_setup()
    s["players"][2]["faction"] = "Kalu Ack"
    assert (
        "setup.json: players[2].faction: 'Kalu Ack' is not one of Cenarion, Kalu'Ak, Hodir, Iron Light, Lannuvár "
        "(did you mean Kalu'Ak?)"
    ) in refused(tmp_path, capsys, s)
    s = faction_setup()
    s["position"]["factions"] = {"Player#4": "Iron-Lite"}
    assert "setup.json: position.factions.Player#4: 'Iron-Lite' is not one of " in refused(tmp_path, capsys, s)
    assert "(did you mean Iron Light?)" in refused(tmp_path, capsys, s)
    s["position"]["factions"] = {"Player#4": "Dwarves"}  # near none: no guess
    assert refused(tmp_path, capsys, s).endswith("Iron Light, Lannuvár")


def test_an_ability_written_by_its_name_or_misspelt_names_the_key_meant(tmp_path, capsys):
    # "Bank of Lannuvar" in used_abilities read 'must be a list of bank_of_lannuvar, ...', not saying which entry
    s = faction_setup()
    s["position"]["used_abilities"] = {"Player#1": ["Bank of Lannuvar"]}
    err = refused(tmp_path, capsys, s)
    assert err.startswith("regent: error: ") and "setup.json: position.used_abilities.Player#1[0]: " in err
    assert "'Bank of Lannuvar' is not one of bank_of_lannuvar, faith_alone" in err
    assert err.endswith("(did you mean bank_of_lannuvar? a position names abilities by these keys)")
    s["position"]["used_abilities"] = {"Player#2": ["faith_alone", "fight_fire_with_fyre"]}
    assert "position.used_abilities.Player#2[1]: 'fight_fire_with_fyre' is not one of " in refused(tmp_path, capsys, s)
    s["position"]["used_abilities"] = {"Player#2": ["faith_alone", "Crusade!"]}  # not once per game: no guess
    assert "(did you mean" not in refused(tmp_path, capsys, s)
    s = faction_setup()
    s["position"]["effects"] = {"Player#2": ["Faith alone sustains us!"]}  # the effect running is faith_active
    assert (
        "position.effects.Player#2[0]: 'Faith alone sustains us!' is not one of bank_bid, faith_active (did you "
        "mean faith_active?" in refused(tmp_path, capsys, s)
    )


def test_a_misspelt_sanctum_ability_or_peeked_card_names_the_one_meant(tmp_path, capsys):
    s = island_setup()
    s["position"]["sanctum"] = {"holder": "Player#3", "kind": "gain", "key": "Weather Forcast"}
    err = refused(tmp_path, capsys, s)
    assert "setup.json: position.sanctum.key: 'Weather Forcast' is not one of bank_of_lannuvar, " in err
    assert err.endswith("(did you mean weather_forecast? a position names abilities by these keys)")
    s = faction_setup()
    s["players"][0]["faction"] = "Kalu'Ak"
    s["position"]["peeks"] = {"Player#1": [{"deck": "event", "card": "Winter Storm", "by": "weather_forecast"}]}
    assert (
        "position.peeks.Player#1[0]: must be {deck, card, by} with the card from that deck (did you mean "
        '"Winter Storms"?' in refused(tmp_path, capsys, s)
    )


def test_a_long_name_gets_no_guess(tmp_path, capsys):
    # difflib's work grows with the square of the text's length: past close_names.MAX_GUESS_CHARS no guess is tried,
    # even for a name that folds to a faction's but one letter (as 'Kalu Ack' does)
    s = faction_setup()
    s["players"][2]["faction"] = "Kalu Ack" + " " * MAX_GUESS_CHARS
    assert refused(tmp_path, capsys, s).endswith("Iron Light, Lannuvár")
    s["players"][2]["faction"] = "Kalu Ack" + " " * (MAX_GUESS_CHARS - len("Kalu Ack"))  # as long as is guessed
    assert refused(tmp_path, capsys, s).endswith("(did you mean Kalu'Ak?)")


def grand_setup(board: str) -> dict:
    """Turn 4 of a 16-seat Grand game (32 Provinces), each seat on every other Province, its board as ``board``."""
    seats = [f"Player#{i}" for i in range(1, 17)]
    return {
        "board": board,
        "seed": 41,
        "players": 16,
        "position": {
            "turn": 4,
            "step": "orders",
            "dpl": 6,
            "ranking": seats,
            "vp": {s: 2 for s in seats},
            "provinces": {f"P{2 * i - 1}": {"owner": s, "units": 1} for i, s in enumerate(seats, start=1)},
            "cards_in_play": ["Deep Snow", "The Misty Mountains Cold"],
        },
    }


def test_a_grand_board_written_without_grand_names_the_board_to_write(tmp_path, capsys):
    # 'ring-16' for a 16-seat Grand game read 'position.provinces.P17: not a Province of this board (its Provinces are
    # P1 to P16)', as if P17 were a typo
    err = refused(tmp_path, capsys, grand_setup("ring-16"))
    assert err.startswith("regent: error: ") and "setup.json: position.provinces.P17: " in err
    assert err.endswith(
        "(its Provinces are P1 to P16; P17 is a Province of the Grand board ring-16-grand (P1 to P32): for a Grand "
        'game write "board": "ring-16-grand" in the setup)'
    )
    s = grand_setup("ring-16+island")  # the Island kept
    assert 'write "board": "ring-16-grand+island" in the setup)' in refused(tmp_path, capsys, s)
    s = grand_setup("ring-16")  # a seat's start in the setup, as well
    del s["position"]
    s["players"] = [{"start": f"P{2 * i + 1}"} for i in range(16)]
    assert (
        "setup.json: players[8].start: 'P17' is not a Province of this board; P17 is a Province of the Grand "
        "board ring-16-grand" in refused(tmp_path, capsys, s)
    )
    s = grand_setup("ring-16")
    s["position"]["provinces"]["P33"] = s["position"]["provinces"].pop("P31")  # on neither board: no Grand board
    s["position"]["provinces"] = {k: v for k, v in s["position"]["provinces"].items() if int(k[1:]) < 17 or k == "P33"}
    assert refused(tmp_path, capsys, s).endswith("(its Provinces are P1 to P16)")
    s = grand_setup("ring-16-grand")  # as written, it is taken
    (tmp_path / "setup.json").write_text(json.dumps(s), encoding="utf-8")
    assert main(["new", str(tmp_path / "game.bin"), "--setup", str(tmp_path / "setup.json")]) == 0


def test_a_misspelt_key_names_the_key_meant(tmp_path, capsys):
    # 'options: unknown keys ['team']' and 'position.provinces.P1: unknown keys ['occupied']' said what was wrong, not
    # what to write
    s = setup()
    s["options"] = {"team": True}
    assert refused(tmp_path, capsys, s).endswith("setup.json: options: unknown keys ['team'] (did you mean teams?)")
    s = setup()
    s["position"]["provinces"]["P1"]["occupied"] = "Player#2"
    assert refused(tmp_path, capsys, s).endswith(
        "setup.json: position.provinces.P1: unknown keys ['occupied'] (did you mean occupant?)"
    )
    s = setup()
    s["position"]["province"] = s["position"].pop("provinces")
    s["position"]["rankings"] = s["position"].pop("ranking")
    assert refused(tmp_path, capsys, s).endswith(
        "setup.json: position: unknown keys ['province', 'rankings'] (did you mean provinces for 'province', "
        "ranking for 'rankings'?)"
    )
    s = setup()
    s["players"][0]["Team"] = s["players"][0].pop("team")
    assert refused(tmp_path, capsys, s).endswith("setup.json: players[0]: unknown keys ['Team'] (did you mean team?)")
    s = setup()
    s["notes"] = "turn 4"  # near no key: no guess
    assert refused(tmp_path, capsys, s).endswith("setup.json: setup: unknown keys ['notes']")


def test_a_board_name_written_loosely_or_by_its_provinces_names_the_board_to_write(tmp_path, capsys):
    # 'ring-32' for a 16-seat Grand game read only 'ring boards exist for 2 to 16 players'; 'ring-16-Grand' and
    # 'ring-16-grand-island' only 'use ring-N or ring-N-grand', the Island's '+island' nowhere
    s = grand_setup("ring-32")
    assert refused(tmp_path, capsys, s).endswith(
        "setup.json: board: 'ring-32': ring boards exist for 2 to 16 players; a Grand board of 32 Provinces is "
        "ring-16-grand (ring-N-grand: 2N Provinces for N players)"
    )
    for written, meant in (
        ("ring-16-Grand", "ring-16-grand"),
        ("ring16 grand", "ring-16-grand"),
        ("ring-16-grand-island", "ring-16-grand+island"),
    ):
        assert refused(tmp_path, capsys, grand_setup(written)).endswith(
            f"setup.json: board: unknown built-in board {written!r} (did you mean {meant}?); use ring-N or "
            "ring-N-grand (N = 2..16), +island for the Island"
        )
    assert "did you mean" not in refused(tmp_path, capsys, grand_setup("square-16"))
    assert "a Grand board" not in refused(tmp_path, capsys, grand_setup("ring-33"))


def test_seats_left_without_a_faction_in_a_game_with_factions_are_named(tmp_path, capsys):
    # options.factions on, turn 4, position.factions given for two seats: the ten others played on with no faction
    # and no abilities, and regent new said nothing (rules: 003 Factions: every seat has one from turn 1's bids)
    s = faction_setup()
    s["players"][1]["faction"] = None
    s["position"]["factions"] = {"Player#2": "Hodir"}
    for i, seat in enumerate(s["position"]["ranking"][2:], start=2):
        s["position"]["factions"][seat] = "Cenarion" if i % 2 else "Kalu'Ak"
    del s["position"]["factions"]["Player#7"], s["position"]["factions"]["Player#12"]
    path = tmp_path / "setup.json"
    path.write_text(json.dumps(s), encoding="utf-8")
    capsys.readouterr()
    assert main(["new", str(tmp_path / "game.bin"), "--setup", str(path)]) == 0  # taken as given: a note
    err = capsys.readouterr().err
    assert (
        "regent: warning: " + str(path) + ": position.factions gives no faction for Player#7 (Gina), Player#12 (Lou): "
        "in a game with factions every seat has one from turn 1's bids (rules: 003 Factions), and these play on with "
        "none, no faction's abilities; give each in position.factions (docs/positions.md)\n"
    ) in err
    s["position"]["factions"].update({"Player#7": "Hodir", "Player#12": "Hodir"})
    path.write_text(json.dumps(s), encoding="utf-8")
    assert main(["new", str(tmp_path / "game2.bin"), "--setup", str(path)]) == 0
    assert "faction" not in capsys.readouterr().err


def test_the_island_on_a_board_written_without_it_names_the_board_to_write(tmp_path, capsys):
    # the board written 'ring-12' (no '+island'): 'position.provinces.P0: not a Province of this board (its Provinces
    # are P1 to P12)' and 'position.sanctum: this board has no Island, so no Wizard Sanctum' said nothing of '+island'
    s = island_setup()
    s["board"] = "ring-12"
    del s["position"]["sanctum"]
    assert refused(tmp_path, capsys, s).endswith(
        "setup.json: position.provinces.P0: not a Province of this board (this board has no Island; for a game with "
        'the Island write "board": "ring-12+island" in the setup)'
    )
    s["position"]["provinces"]["Island"] = s["position"]["provinces"].pop("P0")
    assert (
        "provinces.Island: not a Province of this board (this board has no Island; for a game with the Island "
        'write "board": "ring-12+island"' in refused(tmp_path, capsys, s)
    )
    s = island_setup()
    s["board"] = "ring-12"
    del s["position"]["provinces"]["P0"]
    s["position"]["vp"]["Player#3"] = 2
    assert refused(tmp_path, capsys, s).endswith(
        "setup.json: position.sanctum: this board has no Island, so no Wizard Sanctum; for a game with the Island "
        'write "board": "ring-12+island" in the setup'
    )


def test_factions_in_a_game_without_the_option_say_what_to_write(tmp_path, capsys):
    # 'position.factions: this game is played without factions (options.factions)' named the option, not what to write
    s = faction_setup()
    del s["options"]["factions"]
    for p in s["players"]:
        p.pop("faction", None)
    s["position"]["factions"] = {"Player#1": "Hodir"}
    assert refused(tmp_path, capsys, s).endswith(
        'setup.json: position.factions: this game is played without factions: add "options": {"factions": true} to '
        "the setup, or leave position.factions out"
    )


def test_an_eliminated_seat_still_on_the_board_says_what_to_change(tmp_path, capsys):
    # 'position.provinces.P12.owner: Player#12 is eliminated' said which two lines disagree, not how to mend either
    s = setup()
    s["position"]["eliminated"] = {"Player#12": {"turn": 3, "by": "players"}}
    assert refused(tmp_path, capsys, s).endswith(
        "setup.json: position.provinces.P12.owner: Player#12 is eliminated (position.eliminated): take it out of "
        "position.eliminated, or give P12 its owner now"
    )


def test_players_written_as_names_show_the_map_to_write(tmp_path, capsys):
    # "players": ["Alice", "Bob", ...] read 'players[0]: must be a map'
    s = setup()
    s["players"] = NAMES
    s["options"] = {}
    assert refused(tmp_path, capsys, s).endswith(
        'setup.json: players[0]: must be a map, like {"name": "Alice"} (keys: seat, name, faction, team, start, colour)'
    )


def test_a_seat_written_as_the_reports_label_it_gets_the_seat_as_a_hint(tmp_path, capsys):
    # copied from a report ('Player#3 (Carol)') or a chat ('@Carol', 'Carol '): 'unknown seat ... (this game's seats
    # are Player#1 to Player#12)', not saying which seat it was
    for label, hint in (
        ("Player#3 (Carol)", "(did you mean Player#3? seats are written Player#1 to Player#12)"),
        ("Carol (Player#3)", "(did you mean Player#3? seats are written Player#1 to Player#12)"),
        ("@Carol", "(did you mean Player#3? a position names seats, not players)"),
        ("Carol ", "(did you mean Player#3? a position names seats, not players)"),
        ("Crol", "(did you mean Player#3? a position names seats, not players)"),
        ("Player#13", "(this game's seats are Player#1 to Player#12)"),  # no seat: no guess
    ):
        s = setup()
        s["position"]["vp"][label] = s["position"]["vp"].pop("Player#3")
        assert refused(tmp_path, capsys, s).endswith(f"setup.json: position.vp: unknown seat {label!r} {hint}")
