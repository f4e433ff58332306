"""The public board picture (what a game channel is shown) holds no seat's secrets."""

from __future__ import annotations

import pytest

pytest.importorskip("matplotlib")

from engine.protectors.game import Game
from service import public_board
from service.render import board_scene


def played(steps: int) -> Game:
    g = Game({"rules": "protectors", "board": "ring-5", "seed": 11, "players": 5})
    for seat, n in zip(g.state.players, range(1, 6), strict=True):
        g.submit(seat, f"Bid {n}")
    for _ in range(steps):
        g.advance(force=True)
    return g


@pytest.mark.parametrize("steps", [1, 2, 3])
def test_the_public_scene_has_no_realm_and_only_public_story(steps):
    g = played(steps)
    gm = board_scene(g, None)
    pub = public_board.scene(g)
    assert any(r.realm is not None for r in gm.seats)  # the GM's picture shows the $Realm ...
    assert all(r.realm is None for r in pub.seats) and not pub.gm  # ... the public one never
    assert "public view" in pub.subtitle and "GM view" not in pub.subtitle
    assert [r.seat for r in pub.seats] == [r.seat for r in gm.seats]
    assert pub.provinces == gm.provinces  # the board itself is public
    # the picture still draws
    assert public_board.render(g, fmt="png")[:4] == b"\x89PNG"


def test_public_render_through_the_service(client):
    game = client.call("game.create", setup={"rules": "protectors", "board": "ring-5", "seed": 2, "players": 5})
    png = client.call("game.render", game_id=game["game_id"], token=game["gm_token"], public=True)
    assert png[:4] == b"\x89PNG"
