"""Shared helpers for the render tests: small played games, SVG parsing, real label geometry."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np

from agents.random_agent import RandomAgent
from agents.runner import play_turn_step
from engine.protectors.game import Game
from service.render.layout import polygons_overlap, rectangle

SVG = "{http://www.w3.org/2000/svg}"


# Display names of every length and shape a Discord server gives (wide capitals, accents, spaces).
NAMES = ("Alice", "Bo", "Wilhelmina Wolfgang", "Zoë", "MMMMWWWW", "Chidi", "li", "Ragnhild the Bold", "Sam",
         "Oluwaseun", "Kai", "Marguerite", "Ty", "WWWWWWWWWWWWWWWW", "Ana", "Jun")


def played_game(board="ring-7", players=7, seed=7, turns=3, names=False) -> Game:
    """A game played by random agents until ``turns`` turns are done (or it ends); ``names``: the
    players get the display names of :data:`NAMES`."""
    spec = [{"name": NAMES[i]} for i in range(players)] if names else players
    game = Game({"board": board, "seed": seed, "players": spec})
    agents = {f"Player#{i}": RandomAgent(seed * 100 + i) for i in range(1, players + 1)}
    while not game.over and game.state.turn <= turns:
        play_turn_step(game, agents)
    return game


def svg_root(data: bytes) -> ET.Element:
    return ET.fromstring(data)


def group(root: ET.Element, gid: str) -> ET.Element | None:
    return next((g for g in root.iter() if g.get("id") == gid), None)


def texts(el: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in el.iter(f"{SVG}text")]


def all_text(root: ET.Element) -> str:
    return "\n".join(texts(root))


def fill_of(root: ET.Element, gid: str) -> str:
    """The fill colour of the shape in group ``gid`` (following a hatch pattern to its background)."""
    g = group(root, gid)
    path = next(g.iter(f"{SVG}path"))
    style = dict(kv.split(":", 1) for kv in path.get("style", "").replace(" ", "").split(";") if kv)
    fill = style.get("fill", "#000000")  # SVG default: matplotlib leaves black out
    if fill.startswith("url(#"):
        pattern = group(root, fill[5:-1])
        rect = next(pattern.iter(f"{SVG}rect"))
        fill = rect.get("fill") or dict(kv.split(":", 1) for kv in rect.get("style", "").replace(" ", "")
                                        .split(";") if kv)["fill"]
    return fill.lower()


def label_rectangles(fig, labels: dict) -> dict[str, np.ndarray]:
    """Each label's real rectangle on the canvas (pixels), measured by matplotlib's renderer (a
    text with a box: the box's), turned about the text's centre."""
    renderer = fig.canvas.get_renderer()
    out = {}
    for name, t in labels.items():
        rot = t.get_rotation()
        t.set_rotation(0)
        patch = t.get_bbox_patch()
        if patch is not None:
            t.update_bbox_position_size(renderer)  # the box gets its size as the text is laid out
        bb = (patch if patch is not None else t).get_window_extent(renderer)
        t.set_rotation(rot)
        anchor = t.get_transform().transform(t.get_position())
        centre = (bb.x0 + bb.x1) / 2, (bb.y0 + bb.y1) / 2
        # the unrotated box, turned about the anchor as matplotlib does (rotation_mode "anchor")
        a = np.radians(rot)
        dx, dy = centre[0] - anchor[0], centre[1] - anchor[1]
        c = (anchor[0] + dx * np.cos(a) - dy * np.sin(a), anchor[1] + dx * np.sin(a) + dy * np.cos(a))
        out[name] = rectangle(c, bb.width, bb.height, rot)
    return out


def overlapping(rects: dict[str, np.ndarray]) -> list[tuple[str, str]]:
    names = sorted(rects)
    return [(a, b) for i, a in enumerate(names) for b in names[i + 1:] if polygons_overlap(rects[a], rects[b])]
