"""How big a piece of text is when drawn: measured by matplotlib's own Agg renderer at the
pictures' resolution, so the label boxes of :mod:`service.render.labels` are the boxes the picture
really has (``tests/render/test_labels.py`` checks they contain what gets drawn).

Imports matplotlib lazily (first measurement), like the drawing code.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Any

from service.render.glyphs import drawable_text

DPI = 100  # the pictures' resolution (pixels per inch), as draw.py saves them
_LOCK = threading.Lock()
_SCRATCH: list[Any] = []


def _renderer():
    if not _SCRATCH:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        fig = Figure(figsize=(4, 4), dpi=DPI)
        FigureCanvasAgg(fig)
        _SCRATCH.extend([fig, fig.canvas.get_renderer()])
    return _SCRATCH[0], _SCRATCH[1]


@lru_cache(maxsize=16384)
def text_size(text: str, size: float, weight: str = "normal", style: str = "normal",
              linespacing: float = 1.2) -> tuple[float, float]:
    """Width and height in inches of ``text`` (one or more lines) at ``size`` points, unrotated."""
    with _LOCK:
        fig, renderer = _renderer()
        t = fig.text(0, 0, drawable_text(text), fontsize=size, weight=weight, style=style, linespacing=linespacing,
                     parse_math=False)  # as drawn: a display name's "$x$" is text
        try:
            bb = t.get_window_extent(renderer)
        finally:
            t.remove()
    return bb.width / DPI, bb.height / DPI
