"""``game.create`` and ``game.import`` tell the GM what a position left to a default that is almost surely a slip
(``service/position_notes.py``), as ``regent new`` warns: the game is made as given, and the answer's ``notes``
say it once. Before, the service made such a game without a word (a turn with no card in play, a seat's $Realm
back at 50)."""

from __future__ import annotations

from service.store import Store
from tests.service.helpers import in_app

FIVE = {f"P{i}": {"owner": f"Player#{i}", "units": 2} for i in range(1, 6)}
# turn 3's orders, its cards not given, and Player#5's $Realm left out of the map
POSITION = {"turn": 3, "step": "orders", "provinces": FIVE,
            "realm": {"Player#1": 60, "Player#2": 35, "Player#3": 80, "Player#4": 20}}
SETUP = {"board": "ring-5", "seed": 7, "auto_advance": False,
         "players": [{"name": n} for n in ("Alice", "Bob", "Carol", "Dan", "Eve")]}


def _run(tmp_path, calls):
    return in_app(calls, Store(tmp_path / "notes.sqlite"), workers=1)


def test_game_create_answers_the_positions_notes(tmp_path):
    async def calls(app):
        made = await app.call("game.create", [{"setup": {**SETUP, "position": POSITION}}])
        plain = await app.call("game.create", [{"setup": SETUP}])
        whole = await app.call("game.create", [{"setup": {**SETUP, "position": {
            **POSITION, "realm": {**POSITION["realm"], "Player#5": 45},
            "cards_in_play": ["Deep Snow", "Bloodlust!"]}}}])
        return made, plain, whole
    made, plain, whole = _run(tmp_path, calls)
    assert made["notes"] == [
        "position.cards_in_play names no card of the Event or There be Dragons? decks, drawn this turn before its "
        "orders (rules: 003 2. Reveal Cards): turn 3 goes on with no such card in play and the cards played still in "
        "the draw piles; give this turn's cards in cards_in_play (docs/positions.md)",
        "position.realm gives no $Realm for Player#5 (Eve): it starts with 50, a new game's (docs/positions.md)"]
    assert plain["notes"] == [] and whole["notes"] == []


def test_game_import_answers_the_notes_of_a_file_not_played_yet(tmp_path):
    async def calls(app):
        made = await app.call("game.create", [{"setup": {**SETUP, "position": POSITION}}])
        gm = {"game_id": made["game_id"], "token": made["gm_token"]}
        fresh = (await app.call("game.export", [gm]))["blob"]
        await app.call("game.submit", [{"game_id": made["game_id"], "token": made["seat_tokens"]["Player#1"],
                                        "text": "Fortify P1"}])
        played = (await app.call("game.export", [gm]))["blob"]
        return [(await app.call("game.import", [{"blob": b}]))["notes"] for b in (fresh, played)]
    fresh, played = _run(tmp_path, calls)
    assert len(fresh) == 2 and fresh[1].startswith("position.realm gives no $Realm for Player#5 (Eve)")
    assert played == []  # a step was played on since: the notes were the first GM's, when it came in
