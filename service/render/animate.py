"""A whole game as one animated GIF for the end-of-game post: one frame per turn, then the summary.

Each frame is the board "after turn N" (the same moment as ``regent render --turn N``), from one
replay of the game's actions (:func:`service.render.replay.turn_ends`); a game that ended inside a
turn (Fire and blood!, Last man standing!) gets its final board as the last board frame. The last
frame is the game summary as the same view sees it, with the Dragon's DPL after each turn.

Frames are scaled to :data:`FRAME_WIDTHS`' first width and share one adaptive palette. Discord
refuses uploads over 10 MiB (:data:`MAX_BYTES`): a GIF over it is made again at the next smaller
width, and a game too long even at the smallest is refused, never written oversized.
"""

from __future__ import annotations

import io
from typing import Any

FRAME_WIDTHS = (960, 800, 640, 480)  # pixels: the first whose GIF fits MAX_BYTES
FRAME_MS = 1600  # each turn's frame
LAST_FRAME_MS = 6000  # the summary
MAX_BYTES = 10 * 1024 * 1024  # Discord's upload limit for a normal server


def frame_scenes(game: Any, seat: str | None, view: str) -> list[Any]:
    from service.render import scene_after_turn
    from service.render.replay import turn_ends

    scenes = []
    last = None
    for turn, snapshot in turn_ends(game):
        scenes.append(scene_after_turn(snapshot, turn, seat, view))
        last = turn
    if game.over and (last is None or game.state.turn > last or not scenes):
        scenes.append(scene_after_turn(game.clone(), game.state.turn, seat, view))
    return scenes


def _image(fig):
    from PIL import Image

    fig.canvas.draw()
    img = Image.frombuffer("RGBA", fig.canvas.get_width_height(), fig.canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
    return img.convert("RGB")


def frames(game: Any, seat: str | None, view: str, ai_seats: dict[str, str] | None = None,
           summary: bool = True) -> list[Any]:
    """The full-size frames (PIL images): the board after each turn, then the summary."""
    from engine.errors import ValidationError
    from service.render.draw import draw_board

    scenes = frame_scenes(game, seat, view)
    if not scenes:
        raise ValidationError("game", "no turn has ended yet: nothing to animate")
    out = [_image(draw_board(s)[0]) for s in scenes]
    if summary:
        from service.render.summary import draw_summary, summary_data

        data = summary_data(game, seat if view == "seat" else None, ai_seats or {}, public=view == "channel")
        out.append(_image(draw_summary(data)))
    return out


def gif(images: list[Any], width: int, frame_ms: int = FRAME_MS) -> bytes:
    """``images`` as one looping GIF, each scaled to ``width`` pixels and padded to the largest."""
    from PIL import Image

    from service.render.draw import palette_for

    scaled = [im.resize((width, round(im.height * width / im.width)), Image.Resampling.LANCZOS) for im in images]
    size = (width, max(im.height for im in scaled))
    scaled = [im if im.size == size else _pad(im, size) for im in scaled]
    palette = palette_for(scaled[-2:])  # the seats' exact colours, then what the last board and summary need
    quantised = [im.quantize(palette=palette, dither=Image.Dither.NONE) for im in scaled]
    buf = io.BytesIO()
    durations = [frame_ms] * (len(quantised) - 1) + [LAST_FRAME_MS]
    quantised[0].save(buf, format="GIF", save_all=True, append_images=quantised[1:], duration=durations, loop=0,
                      optimize=True, disposal=1)
    return buf.getvalue()


def animate(game: Any, seat: str | None, view: str, frame_ms: int = FRAME_MS, ai_seats: dict[str, str] | None = None,
            max_bytes: int = MAX_BYTES) -> bytes:
    """GIF bytes: the board after each turn of ``game`` as ``view`` shows it, then the summary; at
    most ``max_bytes`` (the widest of :data:`FRAME_WIDTHS` that fits)."""
    from engine.errors import ValidationError

    images = frames(game, seat, view, ai_seats)
    for width in FRAME_WIDTHS:
        data = gif(images, width, frame_ms)
        if len(data) <= max_bytes:
            return data
    raise ValidationError("game", f"{len(images)} frames do not fit one GIF of {max_bytes} bytes, even "
                                  f"{FRAME_WIDTHS[-1]} pixels wide")


def _pad(img, size):
    from PIL import Image

    out = Image.new("RGB", size, "white")
    out.paste(img, (0, (size[1] - img.height) // 2))
    return out
