"""Issue 8 evidence 5: with a seat token, try to read other seats' bids, orders and commitments
through every method; nothing leaks (not even whether they submitted)."""

from __future__ import annotations

import msgpack

from engine.protectors.game import Game
from service.client import ServiceError

SPY, VICTIM = "Player#2", "Player#1"
MAX_STEPS = 60


def observe(client, gid: str, token: str) -> dict:
    """Everything a seat token can learn through every method (results or error maps)."""
    calls = {
        "view": ("game.view", {}),
        "pending": ("game.pending", {}),
        "log": ("game.log", {"since": 0}),
        "report": ("game.report", {}),
        "submit_for_victim": ("game.submit", {"seat": VICTIM, "text": "Bid 1"}),
        "advance": ("game.advance", {"force": True}),
        "assign": ("game.assign", {"seat": VICTIM, "agent": None}),
        "export": ("game.export", {}),
        "render": ("game.render", {"turn": 1}),
        "list": ("game.list", {}),
    }
    out = {}
    for name, (method, fields) in calls.items():
        fields = {"token": token, **fields} if method == "game.list" else {"game_id": gid, "token": token, **fields}
        _, _, error, result = client.request(method, [fields])
        out[name] = (error, result)
    return out



def check_no_leak(client, game, victim_text: str) -> None:
    gid, gm, tokens = game["game_id"], game["gm_token"], game["seat_tokens"]
    before = observe(client, gid, tokens[SPY])
    reply = client.call("game.submit", game_id=gid, token=tokens[VICTIM], text=victim_text)
    assert reply["rejected"] == []
    after = observe(client, gid, tokens[SPY])
    assert after == before, "the spy's seat saw something change when another seat submitted"
    gm_view = client.call("game.view", game_id=gid, token=gm)
    assert gm_view["submissions"][VICTIM] == reply["accepted"]  # it was stored: only the GM sees it


def advance_to(client, game, step: str) -> None:
    gid, gm = game["game_id"], game["gm_token"]
    for _ in range(MAX_STEPS):
        if client.call("game.view", game_id=gid, token=gm)["step"] == step:
            return
        client.call("game.advance", game_id=gid, token=gm, force=True)
    raise AssertionError(f"never reached {step}")


def new_game(client, seed: int):
    return client.call("game.create", setup={"board": "ring-5", "seed": seed, "players": 5, "auto_advance": False})


def test_a_seat_cannot_see_others_bids(client):
    game = new_game(client, 3)
    check_no_leak(client, game, "Bid 17")


def test_a_seat_cannot_see_others_orders(client):
    game = new_game(client, 3)
    advance_to(client, game, "orders")
    check_no_leak(client, game, "Golden Fortify! P1")


def test_a_seat_cannot_see_others_dragon_commitments(client):
    game = new_game(client, 0)  # seed 0: a Dragon Attack with both seats in it on turn 3
    advance_to(client, game, "dragon")
    pending = client.call("game.pending", game_id=game["game_id"], token=game["gm_token"])
    assert {VICTIM, SPY} <= {p["seat"] for p in pending}
    check_no_leak(client, game, "")


def test_a_seat_cannot_see_others_consolidation_bids(client):
    game = new_game(client, 3)
    advance_to(client, game, "consolidation")
    check_no_leak(client, game, "Bid 4")


def test_seat_views_and_logs_are_exactly_the_engines_filter(client):
    game = new_game(client, 5)
    gid, gm, tokens = game["game_id"], game["gm_token"], game["seat_tokens"]
    advance_to(client, game, "consolidation")
    client.call("game.advance", game_id=gid, token=gm, force=True)
    spy_view = client.call("game.view", game_id=gid, token=tokens[SPY])
    for seat, entry in spy_view["players"].items():
        assert ("realm" in entry) == (seat == SPY)
    for key in ("submissions", "decks", "next_bids"):
        assert key not in spy_view
    assert all(p["seat"] == SPY for p in client.call("game.pending", game_id=gid, token=tokens[SPY]))
    blob = client.call("game.export", game_id=gid, token=gm)["blob"]
    engine = Game.from_blob(blob)
    spy_log = client.call("game.log", game_id=gid, token=tokens[SPY])["events"]
    expected = msgpack.unpackb(msgpack.packb([e.to_dict() for e in engine.events(SPY)]), raw=False)
    for e in expected:
        e.pop("visible_to", None)  # the service does not say who else saw an event
    assert [{k: v for k, v in e.items() if k != "n"} for e in spy_log] == expected
    gm_log = client.call("game.log", game_id=gid, token=gm)["events"]
    assert len(gm_log) > len(spy_log)  # there were private events the spy did not get
    assert [e["n"] for e in spy_log] == list(range(len(spy_log)))  # numbering reveals no hidden count


def test_errors_say_nothing_about_other_seats(client):
    game = new_game(client, 3)
    gid, tokens = game["game_id"], game["seat_tokens"]
    client.call("game.submit", game_id=gid, token=tokens[VICTIM], text="Bid 9")
    try:
        client.call("game.submit", game_id=gid, token=tokens[SPY], seat=VICTIM, text="Bid 1")
    except ServiceError as err:
        assert err.code == "forbidden" and "9" not in err.message and "submitted" not in err.message
    else:
        raise AssertionError("a seat submitted for another seat")
    try:
        client.call("game.advance", game_id=gid, token=tokens[SPY])
    except ServiceError as err:
        assert err.code == "forbidden" and VICTIM not in err.message
    else:
        raise AssertionError("a seat advanced the game")


def spy_reads(client, game) -> dict:
    """What the spy reads that could name the AI seats: the view's played_by_ai, this turn's report and log."""
    gid, spy = game["game_id"], game["seat_tokens"][SPY]
    view = client.call("game.view", game_id=gid, token=spy, wait=True)
    report = client.call("game.report", game_id=gid, token=spy, wait=True)
    return {"played_by_ai": view["played_by_ai"], "report": report, "log": observe(client, gid, spy)["log"]}


def test_a_seat_handed_to_an_ai_does_not_say_whether_its_player_had_submitted(client):
    """The GM gives a seat to an AI mid-step: the AI decides only if the player had not. Whether an AI decided
    for another seat in the open step says whether that seat had submitted, which a seat never learns
    (protocol.md); it learns it once the step resolves."""
    reads = {}
    for had_submitted in (False, True):
        game = new_game(client, 3)
        gid, gm = game["game_id"], game["gm_token"]
        if had_submitted:
            client.call("game.submit", game_id=gid, token=game["seat_tokens"][VICTIM], text="Bid 4")
        client.call("game.assign", game_id=gid, token=gm, seat=VICTIM, agent="caretaker")
        pending = client.call("game.pending", game_id=gid, token=gm, wait=True)
        assert next(p for p in pending if p["seat"] == VICTIM)["submitted"]
        reads[had_submitted] = spy_reads(client, game)
        assert client.call("game.view", game_id=gid, token=game["seat_tokens"][VICTIM])["played_by_ai"] == (
            {} if had_submitted else {VICTIM: ["caretaker"]})  # the seat itself knows
        client.call("game.advance", game_id=gid, token=gm, force=True)
        if not had_submitted:  # resolved: now it may be told
            assert spy_reads(client, game)["played_by_ai"] == {VICTIM: ["caretaker"]}
    assert reads[False] == reads[True]
