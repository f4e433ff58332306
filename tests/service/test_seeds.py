"""Issue 23 item 1: a game created without a seed is unpredictable (a seed from ``secrets``), the seed
is written into the game's setup (export, import and replay stay exact), and only the GM token can
read it (through ``game.export``); no seat sees it."""

from __future__ import annotations

import json

import msgpack

from engine.protectors.game import Game
from engine.protectors.setup import SEED_BITS
from service.cli import main
from tests.service.test_secrecy import SPY, observe


def test_a_seedless_engine_game_draws_its_seed_and_keeps_it():
    games = [Game({"board": "ring-5"}) for _ in range(4)]
    seeds = [g.setup["seed"] for g in games]
    assert all(isinstance(s, int) and 0 <= s < 2**SEED_BITS for s in seeds)
    assert len(set(seeds)) == len(seeds), "seedless games share a seed"
    assert SEED_BITS >= 63
    g = games[0]
    g.submit("Player#1", "Bid 3")
    again = Game.from_blob(g.to_blob())
    assert again.setup["seed"] == g.setup["seed"] and again.view(None) == g.view(None)
    assert Game({"board": "ring-5", "seed": 7}).setup["seed"] == 7  # a GM's own seed is kept


def _engine_setup(client, gid: str, gm: str) -> dict:
    export = msgpack.unpackb(client.call("game.export", game_id=gid, token=gm)["blob"], raw=False)
    if "engine" in export:  # the older service export nests the engine blob
        export = msgpack.unpackb(export["engine"], raw=False)
    return export["setup"]


def test_seedless_service_games_differ_and_only_the_gm_reads_the_seed(client):
    made = [client.call("game.create", setup={"board": "ring-5", "players": 5, "auto_advance": False})
            for _ in range(3)]
    seeds = [_engine_setup(client, g["game_id"], g["gm_token"])["seed"] for g in made]
    assert len(set(seeds)) == 3 and all(isinstance(s, int) and s >= 0 for s in seeds)
    game = made[0]
    gid, seed = game["game_id"], seeds[0]
    seen = observe(client, gid, game["seat_tokens"][SPY])
    packed = msgpack.packb(seen, use_bin_type=True, default=str)
    assert str(seed).encode() not in packed and msgpack.packb(seed) not in packed, "a seat can read the seed"
    # the export replays exactly, seed included
    blob = client.call("game.export", game_id=gid, token=game["gm_token"])["blob"]
    copy = client.call("game.import", blob=blob)
    assert _engine_setup(client, copy["game_id"], copy["gm_token"])["seed"] == seed


def test_regent_new_and_play_draw_a_seed(tmp_path, capsys):
    seeds = []
    for name in ("a.bin", "b.bin"):
        assert main(["new", str(tmp_path / name)]) == 0
        blob = (tmp_path / name).read_bytes()
        seeds.append(Game.from_blob(blob).setup["seed"])
    assert seeds[0] != seeds[1]
    played = []
    for _ in range(2):
        capsys.readouterr()
        assert main(["play", "--board", "ring-4", "--json"]) == 0
        played.append(json.loads(capsys.readouterr().out.splitlines()[-1])["seed"])
    assert played[0] != played[1]


def test_a_record_from_before_drawn_seeds_replays_with_seed_zero():
    """A game file or stored game written when a seedless setup meant seed 0 still replays exactly."""
    import msgpack as mp

    old = Game({"board": "ring-5", "seed": 0})
    old.submit("Player#1", "Bid 4")
    record = mp.unpackb(old.to_blob(), raw=False)
    del record["setup"]["seed"]  # what regent new wrote for a seedless setup before
    again = Game.from_blob(mp.packb(record, use_bin_type=True))
    assert again.view(None) == old.view(None) and again.setup["seed"] == 0
