"""Regenerate every example picture in ``docs/images/``: ``python -m service.render.examples``.

The boards of 5, 7 and 16 seats (Grand, with the Island) after a turn, each in the GM view and the
channel view, a seat's view, the 16-seat board focused on one seat's area (for a phone), a custom board,
the game summary and the whole game as an animated GIF (channel view). Games are played by the random agent
with fixed seeds and display names, so the pictures are reproducible for a given version of the engine. The
mid-game examples use the first seed whose game has battles in the turn shown; the summary and animation the
longest of 24 games.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from service.render import render_board, render_summary

OUT = Path(__file__).resolve().parents[2] / "docs" / "images"
SEARCH_SEEDS = range(1, 60)
CUSTOM_BOARD: dict[str, Any] = {
    "name": "Twin Lakes",
    "island": "P0",
    "provinces": {
        "P1": ["P2", "P5", "P6"], "P2": ["P1", "P3", "P6"], "P3": ["P2", "P4", "P7"], "P4": ["P3", "P8"],
        "P5": ["P1", "P6", "P9"], "P6": ["P1", "P2", "P5", "P10"], "P7": ["P3", "P8", "P11", "P12"],
        "P8": ["P4", "P7", "P12"], "P9": ["P5", "P10", "P13"], "P10": ["P6", "P9", "P11", "P14"],
        "P11": ["P7", "P10", "P12", "P14"], "P12": ["P7", "P8", "P11"], "P13": ["P9", "P14"],
        "P14": ["P10", "P11", "P13"],
    },
}


# Display names as a Discord server has them (the pictures show them, as the text reports do).
NAMES = ("Alice", "Bo", "Wilhelmina", "Zoë", "Kai", "Chidi", "Ragnhild", "Sam", "Oluwaseun", "Marguerite", "Ty",
         "Ana", "Jun", "Ines", "Lars", "Mei")


def play(setup: dict[str, Any], until_turn: int | None = None):
    """Random agents play ``setup`` until ``until_turn`` is done (or to the end)."""
    from agents.random_agent import RandomAgent
    from agents.runner import play_turn_step
    from engine.protectors.game import Game

    game = Game(setup)
    agents = {s: RandomAgent(setup.get("seed", 0) * 100 + i) for i, s in enumerate(game.state.players)}
    while not game.over and (until_turn is None or game.state.turn <= until_turn):
        play_turn_step(game, agents)
    return game


def named(board: Any, players: int, seed: int) -> dict[str, Any]:
    return {"board": board, "seed": seed, "players": [{"name": NAMES[i]} for i in range(players)]}


def lively(board: str, players: int, turn: int, battles: int = 1):
    """The first seeded game with at least ``battles`` battles in ``turn`` and still running after it."""
    for seed in SEARCH_SEEDS:
        game = play(named(board, players, seed), until_turn=turn)
        fights = sum(1 for e in game.state.events if e.turn == turn and e.kind == "battle")
        if fights >= battles and game.state.turn > turn:
            return game
    raise RuntimeError(f"no seed in {SEARCH_SEEDS} gives {battles} battles in turn {turn} on {board}")


def longest(board: str, players: int, seeds=range(1, 25)):
    """The seeded game (played to its end) that lasts the most turns: the animation's example."""
    games = [play(named(board, players, seed)) for seed in seeds]
    return max(games, key=lambda g: (g.state.turn, -g.setup["seed"]))


def near_a_battle(game: Any, turn: int) -> str:
    """The first seat (by number) with a battle fought in its area (radius 1) in ``turn``: the focused example."""
    from service.render import board_scene, focus_picture

    fought = {b.province for b in board_scene(game, None, turn, "channel").battles}
    alive = [s for s in game.state.players if not game.state.players[s].eliminated]
    return next((s for s in alive if fought & set(focus_picture(game, s, turn).provinces)), alive[0])


def pictures() -> dict[str, bytes]:
    """Every example picture, by file name."""
    from service.render import render_animation

    out: dict[str, bytes] = {}
    for name, board, players, turn, battles in (("ring-5", "ring-5", 5, 2, 1), ("ring-7", "ring-7", 7, 2, 2),
                                                ("ring-16-grand-island", "ring-16-grand+island", 16, 5, 4)):
        game = lively(board, players, turn=turn, battles=battles)
        out[f"{name}.png" if name == "ring-16-grand-island" else f"{name}-gm.png"] = render_board(game, None, turn=turn)
        out[f"{name}-channel.png"] = render_board(game, None, turn=turn, view="channel")
        if name == "ring-7":
            out["ring-7-seat.png"] = render_board(game, "Player#3", turn=turn)
        if name == "ring-16-grand-island":
            out[f"{name}-focus.png"] = render_board(game, None, turn=turn, focus=near_a_battle(game, turn))
    out["custom-board.png"] = render_board(play(named(CUSTOM_BOARD, 6, 3), until_turn=2), None)
    finished = longest("ring-7", 7)
    ai = {s: "random" for s in list(finished.state.players)[::2]}
    out["summary.png"] = render_summary(finished, None, ai, view="channel")
    out["game.gif"] = render_animation(finished, view="channel", ai_seats=ai)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for name, data in pictures().items():
        (args.out / name).write_bytes(data)
        sys.stdout.write(f"{args.out / name}: {len(data) // 1024} KB\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
