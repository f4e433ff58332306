"""Regenerate the example pictures in ``docs/images/`` (``python -m service.render.examples``).

Games are played by the random agent with fixed seeds, so the pictures are reproducible for a
given version of the engine. The mid-game examples use the first seed whose game has battles in
the turn shown.
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


def lively(board: str, players: int, turn: int, battles: int = 1):
    """The first seeded game with at least ``battles`` battles in ``turn`` and still running after it."""
    for seed in SEARCH_SEEDS:
        game = play({"board": board, "seed": seed, "players": players}, until_turn=turn)
        fights = sum(1 for e in game.state.events if e.turn == turn and e.kind == "battle")
        if fights >= battles and game.state.turn > turn:
            return game
    raise RuntimeError(f"no seed in {SEARCH_SEEDS} gives {battles} battles in turn {turn} on {board}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    ring7 = lively("ring-7", 7, turn=2, battles=2)
    pictures = {
        "ring-7-gm.png": render_board(ring7, None, turn=2),
        "ring-7-seat.png": render_board(ring7, "Player#3", turn=2),
        "ring-16-grand-island.png": render_board(lively("ring-16-grand+island", 16, turn=6, battles=3), None, turn=6),
        "custom-board.png": render_board(play({"board": CUSTOM_BOARD, "seed": 3, "players": 6}, until_turn=2), None),
    }
    finished = play({"board": "ring-7", "seed": ring7.setup["seed"], "players": 7})
    ai = {s: "random" for s in list(finished.state.players)[::2]}
    pictures["summary.png"] = render_summary(finished, None, ai)
    for name, data in pictures.items():
        (args.out / name).write_bytes(data)
        sys.stdout.write(f"{args.out / name}: {len(data) // 1024} KB\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
