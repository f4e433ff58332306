"""A whole game as one animated GIF for the end-of-game post: one frame per turn.

Each frame is the board "after turn N" (the same moment as ``regent render --turn N``), from one
replay of the game's actions (:func:`service.render.replay.turn_ends`); a game that ended inside a
turn (Fire and blood!, Last man standing!) gets its final board as the last frame. Frames are
scaled to :data:`FRAME_WIDTH` and share one adaptive palette, so a long 16-seat game stays far
under Discord's 10 MiB upload limit (the CLI refuses to write more than :data:`MAX_BYTES`).
"""

from __future__ import annotations

import io
from typing import Any

FRAME_WIDTH = 960  # pixels
FRAME_MS = 1600  # each turn's frame
LAST_FRAME_MS = 4000
MAX_BYTES = 10 * 1024 * 1024  # Discord's upload limit for a normal server


def frame_scenes(game: Any, seat: str | None, view: str) -> list[Any]:
    from service.render import scene_after_turn

    scenes = []
    last = None
    for turn, snapshot in _turn_ends(game):
        scenes.append(scene_after_turn(snapshot, turn, seat, view))
        last = turn
    if game.over and (last is None or game.state.turn > last or not scenes):
        scenes.append(scene_after_turn(game.clone(), game.state.turn, seat, view))
    return scenes


def _turn_ends(game: Any):
    from service.render.replay import turn_ends

    return turn_ends(game)


def _frame(scene: Any):
    from PIL import Image

    from service.render.draw import draw_board

    fig, _ = draw_board(scene)
    fig.canvas.draw()
    img = Image.frombuffer("RGBA", fig.canvas.get_width_height(), fig.canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
    img = img.convert("RGB")
    height = round(img.height * FRAME_WIDTH / img.width)
    return img.resize((FRAME_WIDTH, height), Image.Resampling.LANCZOS)


def animate(game: Any, seat: str | None, view: str, frame_ms: int = FRAME_MS) -> bytes:
    """GIF bytes: the board after each turn of ``game`` as ``view`` shows it."""
    from PIL import Image

    from engine.errors import ValidationError

    scenes = frame_scenes(game, seat, view)
    if not scenes:
        raise ValidationError("game", "no turn has ended yet: nothing to animate")
    frames = [_frame(s) for s in scenes]
    size = max(f.size for f in frames)  # a frame of a bigger figure would not fit: pad to the largest
    frames = [f if f.size == size else _pad(f, size) for f in frames]
    palette = frames[-1].quantize(colors=255, method=Image.Quantize.MEDIANCUT)
    quantised = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
    buf = io.BytesIO()
    durations = [frame_ms] * (len(quantised) - 1) + [LAST_FRAME_MS]
    quantised[0].save(buf, format="GIF", save_all=True, append_images=quantised[1:], duration=durations, loop=0,
                      optimize=True, disposal=1)
    return buf.getvalue()


def _pad(img, size):
    from PIL import Image

    out = Image.new("RGB", size, "white")
    out.paste(img, (0, 0))
    return out
