"""The bot's state file: an older bot's file still loads, its per-seat AI maps moved into one record."""

from __future__ import annotations

import json

from service.discord.state import VERSION, State, ai_seats, held


def test_an_older_files_three_ai_maps_become_one_record_per_seat(tmp_path):
    # away (seat -> player), ai_since (seat -> turn the AI took it), ai_step (seat -> the step the AI decided
    # before the hand-back): Player#2 held by an AI since turn 2; Player#3 held since before ai_since was kept;
    # Player#4 given back after its AI decided turn 3's orders; Player#5 an AI seat nobody played
    old = {"game_id": "g-1", "users": {"Player#2": None},
           "away": {"Player#2": 202, "Player#3": 203}, "ai_since": {"Player#2": 2, "Player#5": 1},
           "ai_step": {"Player#4": [3, "orders", 1000.5]}}
    path = tmp_path / "bot.json"
    path.write_text(json.dumps({"version": VERSION, "games": {"g": old}, "creating": {}, "processed": {},
                                "threads": {}}))
    entry = State(path).game("g")
    assert entry["ai_seats"] == {"Player#2": {"player": 202, "since": 2}, "Player#3": {"player": 203},
                                 "Player#4": {"decided": [3, "orders", 1000.5]}, "Player#5": {"since": 1}}
    assert not {"away", "ai_since", "ai_step"} & set(entry)
    assert [s for s, rec in entry["ai_seats"].items() if held(rec)] == ["Player#2", "Player#3", "Player#5"]
    assert ai_seats(entry) is entry["ai_seats"]  # a new file's record is read as it is


def test_an_older_file_without_refused_messages_loads_and_keeps_the_first_arrival(tmp_path):
    path = tmp_path / "bot.json"
    path.write_text(json.dumps({"version": VERSION, "games": {}, "creating": {}, "processed": {}, "threads": {}}))
    state = State(path)
    assert state.refused(7) is None
    state.mark_refused(7, 1000.0)
    state.mark_refused(7, 2000.0)  # an edit read and refused again: still the DM that came in at 1000
    assert State(path).refused(7) == {"arrived": 1000.0}


def test_the_mark_of_the_last_message_read_only_moves_forward_and_an_older_file_has_none(tmp_path):
    path = tmp_path / "bot.json"
    path.write_text(json.dumps({"version": VERSION, "games": {}, "creating": {}, "processed": {}, "threads": {}}))
    state = State(path)
    assert state.read("dm:5") is None
    state.set_read("dm:5", 1 << 60)
    state.set_read("dm:5", 1 << 40)  # an older message handled late (a redelivery): the mark stays
    assert State(path).read("dm:5") == 1 << 60


def test_a_dm_refused_because_the_service_was_down_is_read_again_once(tmp_path):
    state = State(tmp_path / "bot.json")
    state.mark_refused(8, 1000.0, resend=True)  # the player was asked to send it again
    assert state.refused(8) == {"arrived": 1000.0, "resend": True}
    state.mark_refused(8, 2000.0)  # delivered again and answered for good: still its first arrival
    assert State(tmp_path / "bot.json").refused(8) == {"arrived": 1000.0}
