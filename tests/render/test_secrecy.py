"""A seat's picture holds only what that seat may see: no other seat's $Realm, built from the view."""

from __future__ import annotations

import pytest

from engine.protectors.game import Game
from service.render import board_scene, render_board, render_summary
from tests.render.helpers import all_text, played_game, svg_root

SEATS = [f"Player#{i}" for i in range(1, 6)]


def secret_game() -> Game:
    game = played_game("ring-5", 5, seed=11, turns=1)
    for i, seat in enumerate(SEATS):  # distinctive, hard-to-hit-by-chance $Realm values
        game.state.players[seat].realm = 9871 + 101 * i
    return game


def realms(game: Game) -> dict[str, str]:
    return {s: f"${game.state.players[s].realm}" for s in SEATS}


@pytest.mark.parametrize("seat", SEATS[:3])
def test_seat_board_does_not_show_other_realms(seat):
    game = secret_game()
    text = all_text(svg_root(render_board(game, seat, fmt="svg")))
    others = {s: m for s, m in realms(game).items() if s != seat}
    for other, money in others.items():
        assert money not in text, f"{seat}'s picture shows {other}'s $Realm"
    raw = render_board(game, seat, fmt="svg").decode()  # not even outside <text> (titles, ids)
    assert not any(money in raw for money in others.values())
    assert realms(game)[seat] in text  # its own, for its DM


def test_gm_board_shows_every_realm():
    """The control for the test above: the GM's picture does show each $Realm."""
    game = secret_game()
    text = all_text(svg_root(render_board(game, None, fmt="svg")))
    for money in realms(game).values():
        assert money in text


def test_summary_realm_only_for_the_gm():
    game = secret_game()
    gm = all_text(svg_root(render_summary(game, None, fmt="svg")))
    seat = all_text(svg_root(render_summary(game, "Player#2", fmt="svg")))
    assert all(m in gm for m in realms(game).values())
    assert not any(m in seat for m in realms(game).values())
    assert "$Realm" in gm and "$Realm" not in seat


def test_pictures_are_built_from_the_seat_view(monkeypatch):
    """The scene reads game.view(seat) for the seat asked for, never the GM view."""
    game = secret_game()
    asked = []
    real_view = Game.view

    def spy(self, seat=None):
        asked.append(seat)
        return real_view(self, seat)

    monkeypatch.setattr(Game, "view", spy)
    scene = board_scene(game, "Player#3")
    assert asked and set(asked) == {"Player#3"}
    assert all(row.realm is None for row in scene.seats if row.seat != "Player#3")
    assert next(r.realm for r in scene.seats if r.seat == "Player#3") == game.state.players["Player#3"].realm


def test_private_events_stay_out_of_a_seat_picture():
    """Only events the seat may see are used: a private event for another seat never reaches it."""
    from engine.protectors.events import emit

    game = secret_game()
    st = game.state
    emit(st, "battle", "test", "secret battle", private={"Player#1"}, province="P2",
         us={"Player#1": 3, "Player#2": 1}, winner="Player#1", loser="Player#2", tie=False)
    turn = st.turn
    mine = board_scene(game, "Player#1", turn=turn)
    theirs = board_scene(game, "Player#2", turn=turn)
    assert any(b.province == "P2" for b in mine.battles)
    assert len(theirs.battles) == len(mine.battles) - 1
