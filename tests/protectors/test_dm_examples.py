"""The sample DM files in examples/dms read as docs/dm-syntax.md says (the README and the GM guide link them)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.errors import IllegalOrderError
from engine.protectors.dm_read import read_dm
from engine.protectors.game import Game

ROOT = Path(__file__).resolve().parents[2]
DMS = ROOT / "examples" / "dms"
HEADER = re.compile(r"^\s*={2,}\s*(.+?)\s*={2,}\s*$")  # the DMs-file header (service/cli/adjudicate.py)


def game() -> Game:
    setup = json.loads((ROOT / "examples" / "gm" / "setup.json").read_text(encoding="utf-8"))
    setup["players"] = [{k: v for k, v in p.items() if k != "agent"} for p in setup["players"]]  # AI seats: the file's
    return Game(setup)


def blocks(name: str) -> dict[str, str]:
    seats = {p.name: s for s, p in game().state.players.items()}
    out: dict[str, list[str]] = {}
    seat = None
    for line in (DMS / name).read_text(encoding="utf-8").splitlines():
        m = HEADER.match(line)
        if m:
            seat = seats.get(m.group(1), m.group(1))
            out[seat] = []
        elif seat is not None:
            out[seat].append(line)
    return {s: "\n".join(lines).strip("\n") for s, lines in out.items()}


NAMES = {"Alice": "Player#1", "Bob": "Player#2", "Carol": "Player#3", "Dan": "Player#4", "Eve": "Player#5"}


@pytest.mark.parametrize(("name", "step"), [("turn1-bids.txt", "bid"), ("turn1-orders.txt", "orders"),
                                            ("turn1-consolidation.txt", "consolidation"),
                                            ("turn2-dragon.txt", "dragon")])
def test_each_sample_dm_is_read_whole(name, step):
    dms = blocks(name)
    assert len(dms) == 4
    for seat, text in dms.items():
        reading = read_dm(text, players=NAMES, step=step)
        assert reading.error() is None, (name, seat, reading.error())
        assert reading.of_kind("order", "nothing"), (name, seat)


def test_the_refused_samples_are_refused_and_lenient_keeps_the_rest():
    g = game()
    for seat, text in blocks("refused-bids.txt").items():
        assert read_dm(text, players=NAMES, step="bid").error() is not None, seat
    bids = {}
    for seat, text in blocks("refused-bids.txt").items():
        try:
            bids[seat] = g.submit_dm(seat, text, lenient=True).lines
        except IllegalOrderError as err:  # every line dropped: refused, never stored as Bid 0
            bids[seat] = str(err)
    assert bids["Player#2"] == ["Bid 4"] and bids["Player#3"] == ["Bid 6"]
    assert "two bids" in bids["Player#1"] and "at most" in bids["Player#4"]
    assert all("lenient mode dropped every order of it" in bids[s] for s in ("Player#1", "Player#4"))
    assert set(g.state.submissions) == {"Player#2", "Player#3"}


def test_the_turn1_bids_are_legal_in_the_sample_game():
    g = game()
    got = {seat: g.submit_dm(seat, text).lines for seat, text in blocks("turn1-bids.txt").items()}
    assert got == {"Player#1": ["Bid 12"], "Player#2": ["Bid 20"], "Player#3": ["Bid 5"], "Player#4": ["Bid 3"]}
