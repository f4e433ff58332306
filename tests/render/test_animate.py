"""The whole game as one GIF (a board frame per turn, then the summary) under Discord's 10 MiB, and
the Dragon's DPL after each turn in the summary."""

from __future__ import annotations

import pytest
from PIL import Image

from engine.errors import ValidationError
from service.render import game_at_turn, render_animation
from service.render.animate import FRAME_WIDTHS, MAX_BYTES, animate, frame_scenes
from service.render.draw import draw_board
from service.render.summary import draw_summary, summary_data
from tests.render.helpers import all_text, group, played_game, svg_root


@pytest.fixture(scope="module")
def long_game():
    """A finished 16-seat Grand game with the Island (9 turns)."""
    game = played_game("ring-16-grand+island", 16, seed=9, turns=99, names=True)
    assert game.over and game.state.turn >= 8
    return game


@pytest.fixture(scope="module")
def channel_gif(long_game):
    """``render_animation`` of ``long_game`` for the channel, and the full-size frames it drew: drawn once for the
    tests below (neither the bytes nor the PIL images are changed by making a GIF of them)."""
    import service.render.animate as anim

    drawn = []
    real = anim.frames

    def keep(*args, **kwargs):
        drawn.append(real(*args, **kwargs))
        return drawn[-1]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(anim, "frames", keep)
        data = render_animation(long_game, view="channel")
    assert len(drawn) == 1
    return data, drawn[0]


def gif_frames(data: bytes) -> tuple[int, tuple[int, int]]:
    import io

    im = Image.open(io.BytesIO(data))
    return im.n_frames, im.size


def test_one_frame_per_turn_then_the_summary(long_game, channel_gif):
    scenes = frame_scenes(long_game, None, "channel")
    assert [s.title.split(" - ")[1] for s in scenes[:3]] == ["after turn 1", "after turn 2", "after turn 3"]
    assert scenes[-1].title.endswith("(game over)")
    assert scenes[-1].subtitle.startswith("Fire and blood! The Dragon wins - ")  # who won, as the summary says
    data, _ = channel_gif
    assert data[:6] == b"GIF89a"
    frames, size = gif_frames(data)
    assert frames == len(scenes) + 1  # the summary closes the animation
    assert size[0] == FRAME_WIDTHS[0]
    assert len(data) <= MAX_BYTES
    assert all(s.mode == "channel" and all(r.realm is None for r in s.seats) for s in scenes)


def test_a_gif_over_the_limit_is_made_smaller_or_refused(long_game, channel_gif, monkeypatch):
    """Discord's limit holds whatever the game: too big a GIF is redone narrower, and if even the
    narrowest does not fit it is refused (never handed out oversized)."""
    import service.render.animate as anim

    data, images = channel_gif
    monkeypatch.setattr(anim, "frames", lambda *a, **k: images)  # drawn once, by the fixture
    full = animate(long_game, None, "channel")
    assert full == data  # the frames are the ones render_animation drew
    smaller = animate(long_game, None, "channel", max_bytes=len(full) - 1)
    assert len(smaller) < len(full) and gif_frames(smaller)[1][0] < FRAME_WIDTHS[0]
    with pytest.raises(ValidationError) as err:
        animate(long_game, None, "channel", max_bytes=1000)
    assert err.value.field == "game"


def test_summary_dpl_is_the_dpl_at_each_turn_end(long_game):
    data = summary_data(long_game, None, {})
    assert data.dpl_turns[:long_game.state.turn - 1] == list(range(1, long_game.state.turn))
    for turn, dpl, threshold in zip(data.dpl_turns, data.dpl, data.threshold, strict=True):
        past = game_at_turn(long_game, turn)
        assert (dpl, threshold) == (past.state.dpl, past.view(None)["power_threshold"]), turn
    assert len(set(data.dpl)) > 2  # the DPL moved during the game: the series is not a constant
    fig = draw_summary(data)
    line = next(a for a in fig.findobj() if getattr(a, "get_gid", lambda: None)() == "dpl-series")
    assert list(line.get_ydata()) == data.dpl and list(line.get_xdata()) == data.dpl_turns


def test_channel_summary_hides_realm_and_uses_display_names(long_game):
    from service.render import render_summary

    public = summary_data(long_game, None, {}, public=True)
    assert not public.gm and all(r.realm is None for r in public.rows)
    assert public.dpl == summary_data(long_game, None, {}).dpl  # the DPL is public
    root = svg_root(render_summary(long_game, None, fmt="svg"))
    text = all_text(root)
    assert group(root, "dpl-series") is not None and "The Dragon's DPL after each turn" in text
    assert "Player#" not in text  # every seat has a display name: no seat ids


def test_a_game_with_no_finished_turn_has_nothing_to_animate():
    game = played_game("ring-3", 3, seed=1, turns=0)
    with pytest.raises(ValidationError):
        render_animation(game)


def test_board_frame_is_the_board_picture(long_game):
    """A frame is the same picture as ``render --turn N`` (same scene, same drawing)."""
    from service.render import board_scene

    scene = frame_scenes(long_game, None, "gm")[2]
    same = board_scene(long_game, None, turn=3, view="gm")
    assert scene.title == same.title and scene.arrows == same.arrows and scene.battles == same.battles
    assert draw_board(scene)[1].keys() == draw_board(same)[1].keys()


def test_gif_frames_keep_the_seat_colours(long_game, channel_gif):
    """Every seat holding a Province after turn 1 is painted in its exact colour in that frame."""
    import io

    from service.render.palette import seat_colour

    scene = frame_scenes(long_game, None, "channel")[0]
    im = Image.open(io.BytesIO(channel_gif[0]))
    im.seek(0)
    counts = {"#{:02X}{:02X}{:02X}".format(*c): n for n, c in im.convert("RGB").getcolors(1 << 20)}
    holders = {pv.owner for pv in scene.provinces.values() if pv.owner and not pv.burnt}
    seats = list(long_game.state.players)
    assert holders
    for seat in holders:
        assert counts.get(seat_colour(seats.index(seat)), 0) > 500, seat


def test_the_last_turns_picture_lists_the_cards_that_were_in_play():
    # Time's Up! ends the game in the last turn's Consolidation, after the turn's cards were put away, and
    # its turn never moves on: the picture of "after turn N" still lists them (they were once "none")
    from agents.heuristic import HeuristicAgent
    from agents.runner import finish
    from engine.protectors.game import Game
    from service.render import board_scene

    g = finish(Game({"board": "ring-6-grand", "seed": 0, "players": 3}),
               {f"Player#{i}": HeuristicAgent(i) for i in range(1, 4)})
    last = g.state.turn
    played = [e.data["card"] for e in g.state.events if e.turn == last and e.kind == "card"]
    assert g.state.result["how"] == "times_up" and "Time's Up!" in played
    assert board_scene(g, None, turn=last, view="channel").cards == played
