"""The API the RPC service calls: render_board / render_summary / game_at_turn, errors, lazy import."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine.errors import ValidationError
from service.render import game_at_turn, highlight_turn, render_board, render_summary
from tests.render.helpers import all_text, played_game, svg_root


@pytest.fixture(scope="module")
def game():
    return played_game("ring-6", 6, seed=5, turns=3)


@pytest.mark.parametrize("fmt", ["gif", "PNG", "", None])
def test_bad_format_is_a_validation_error_naming_format(game, fmt):
    for call in (lambda: render_board(game, None, fmt=fmt), lambda: render_summary(game, fmt=fmt)):
        with pytest.raises(ValidationError) as err:
            call()
        assert err.value.field == "format"
        assert err.value.to_wire()["details"]["field"] == "format"


def test_unknown_seat_is_a_validation_error(game):
    with pytest.raises(ValidationError) as err:
        render_board(game, "Player#99", fmt="svg")
    assert err.value.field == "seat"


@pytest.mark.parametrize("turn", [0, -1, 99, "2", 1.5, True])
def test_bad_turn_is_a_validation_error(game, turn):
    with pytest.raises(ValidationError) as err:
        render_board(game, None, turn=turn, fmt="svg")
    assert err.value.field == "turn"


def test_game_at_turn_replays_to_the_end_of_that_turn(game):
    assert game.state.turn >= 3
    for turn in range(1, game.state.turn):
        past = game_at_turn(game, turn)
        assert past.state.history == game.state.history[:turn]  # exactly `turn` Consolidations done
        assert past.state.turn == turn + 1 or past.over
        assert past.actions == game.actions[:len(past.actions)]
        assert [e.to_dict() for e in past.state.events] == [e.to_dict() for e in
                                                           game.state.events[:len(past.state.events)]]
    now = game_at_turn(game, game.state.turn)
    assert now is not game and now.view(None) == game.view(None)
    assert game_at_turn(game, 1).actions != game.actions  # the original game is untouched
    assert len(game.actions) > len(game_at_turn(game, 1).actions)


def test_past_turn_picture_shows_that_turn(game):
    text = all_text(svg_root(render_board(game, None, turn=1, fmt="svg")))
    assert "after turn 1" in text
    turn = next(e.turn for e in game.state.events if e.kind in ("march", "battle", "seize"))
    text = all_text(svg_root(render_board(game, None, turn=turn, fmt="svg")))
    assert f"after turn {turn}" in text and f"Turn {turn}: what happened" in text


def test_highlight_turn_before_orders_shows_no_old_moves():
    """A mid-turn picture shows one moment: no arrows of last turn beside this turn's cards."""
    from engine.protectors.game import Game

    for seed in range(1, 40):  # the first seed whose game (rulebook defaults) reaches turn 2's orders
        game = Game({"board": "ring-4", "seed": seed, "players": 4})
        while not game.over and not (game.state.turn == 2 and game.step == "orders"):
            game.advance(force=True)
        if game.step == "orders":
            break
    assert game.step == "orders" and game.state.turn == 2
    assert highlight_turn(game, None) is None
    assert highlight_turn(game, 1) == 1
    from service.render import board_scene

    scene = board_scene(game, None)
    assert scene.arrows == [] and scene.battles == [] and "no moves yet in turn 2" in scene.note
    assert scene.cards == game.view(None)["cards"]


def test_render_returns_png_and_svg_bytes(game):
    assert render_board(game, "Player#2").startswith(b"\x89PNG")
    assert render_board(game, "Player#2", fmt="svg").lstrip().startswith(b"<?xml")
    assert render_summary(game, None, {"Player#1": "random"}).startswith(b"\x89PNG")


def test_importing_the_package_does_not_import_matplotlib():
    code = ("import sys, service.render, service.cli.render; "
            "sys.exit(1 if any(m.startswith('matplotlib') for m in sys.modules) else 0)")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_names_the_font_cannot_draw_are_drawn_as_what_it_can_and_nothing_warns():
    # dogfood s17: 李雷 and 🐉Drago were empty boxes in every picture, with a matplotlib warning per glyph
    import warnings

    from agents.random_agent import RandomAgent
    from agents.runner import play_turn_step
    from engine.protectors.game import Game

    names = ["李雷", "🐉Drago", "Zoë", "Ana María"]
    game = Game({"board": "ring-4", "seed": 3, "players": [{"name": n} for n in names]})
    agents = {f"Player#{i}": RandomAgent(300 + i) for i in range(1, 5)}
    while not game.over and game.state.turn <= 2:
        play_turn_step(game, agents)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a missing glyph is a UserWarning: now an error
        board = all_text(svg_root(render_board(game, None, fmt="svg")))
        summary = all_text(svg_root(render_summary(game, fmt="svg")))
        render_board(game, None, fmt="png")
    for text in (board, summary):
        assert "李" not in text and "🐉" not in text
        assert "Player#1" in text and "Drago" in text and "Zoë" in text and "Ana María" in text


def test_a_right_to_left_name_keeps_what_follows_it_after_it():
    # a text holding an Arabic name took its direction from it: the legend drew "(dark green) مريم", and in a
    # battle line the US after the name joined it, drawn before it ("#3 2 مريم vs #6 Bob 1")
    from engine.protectors.game import Game
    from service.render.glyphs import drawable_text

    LRM = "\u200e"  # LEFT-TO-RIGHT MARK

    name = "مريم الحسيني"
    assert drawable_text("Zoë (lime)") == "Zoë (lime)"  # no right-to-left letter: as written
    assert drawable_text(f"{name} (dark green)") == f"{LRM}{LRM}{name}{LRM} (dark green)"
    assert drawable_text(f"#3 {name} 2 vs #6 Bob 1 US") == f"{LRM}#3 {LRM}{name}{LRM} 2 vs #6 Bob 1 US"
    assert drawable_text(f"{name}\u2026 [North]") == f"{LRM}{LRM}{name}{LRM}\u2026 [North]"  # cut: "…" outside
    game = Game({"board": "ring-3", "seed": 1, "players": [{"name": name}, {"name": "Bob"}, {"name": "Zoë"}]})
    for data in (render_board(game, None, fmt="svg"), render_summary(game, fmt="svg")):
        text = all_text(svg_root(data))
        assert text.count(f"{LRM}{name}{LRM}") == text.count(name) > 0  # every time it is drawn


def test_a_name_with_dollar_signs_is_drawn_as_written():
    # matplotlib reads "$...$" as mathtext: "$x^2$" was drawn as x squared, and "Rich $$ Guy" or "$\frac$" (any
    # display name a player picks) raised a parse error in every picture of the game
    from engine.protectors.game import Game

    names = ["$x^2$", "Rich $$ Guy", "$\\frac$"]
    game = Game({"board": "ring-3", "seed": 1, "players": [{"name": n} for n in names]})
    render_board(game, None, fmt="png")
    for data in (render_board(game, None, fmt="svg"), render_summary(game, fmt="svg")):
        text = all_text(svg_root(data))
        assert all(n in text for n in names), text
