"""Each seat's start in a game brought in as a position (engine/protectors/position_starts.py, docs/positions.md
``starts``): the setup's placement is the seed's, not the real game's, so a seat that does not hold it starts where
the position says, or on a Province it holds; the ``steward`` level reads the start as a Province it held."""

from __future__ import annotations

import pytest

from agents.steward import StewardAgent
from engine.errors import ValidationError
from engine.protectors.game import Game
from engine.protectors.orders import March
from engine.protectors.position import export_position
from engine.protectors.seat import SeatContext

SEATS = [f"Player#{i}" for i in range(1, 5)]


def swapped(**pos) -> dict:
    """Turn 3's orders on ring-4: Player#1 holds P2 (3 units) and Player#2 holds P1 (1 unit), the other way round
    from the setup's placement (Player#i on Pi); Player#3 and Player#4 on their own."""
    owners = {"P1": "Player#2", "P2": "Player#1", "P3": "Player#3", "P4": "Player#4"}
    return {
        "board": "ring-4",
        "seed": 5,
        "players": 4,
        "position": {
            "turn": 3,
            "step": "orders",
            "ranking": SEATS,
            "provinces": {p: {"owner": s, "units": 3 if s == "Player#1" else 1} for p, s in owners.items()},
            "cards_in_play": ["Deep Snow", "The Misty Mountains Cold"],
            **pos,
        },
    }


def marches(game: Game, seat: str = "Player#1") -> set[str]:
    orders = StewardAgent(seed=0).act(SeatContext(game, seat)).orders
    return {o.dst for o in orders if isinstance(o, March)}


def test_a_seat_that_does_not_hold_its_placement_starts_on_a_province_it_holds():
    # Player#1's start was the placement P1, held by Player#2 (a GM's game: Player#1 never held P1), and the steward
    # marched 3 units on Player#2 'to retake P1, which it held before'
    g = Game(swapped())
    assert {s: p.start for s, p in g.state.players.items()} == dict(zip(SEATS, ["P2", "P1", "P3", "P4"], strict=True))
    assert marches(g) == set()
    # the position names Player#1's real start: the steward takes it back, as it would in the game played
    g = Game(swapped(starts={"Player#1": "P1", "Player#2": "P2"}))
    assert g.state.players["Player#1"].start == "P1" and marches(g) == {"P1"}


def test_the_setups_own_start_is_kept():
    # a start the GM wrote in players[i].start is the GM's word, held or not
    s = swapped()
    s["players"] = [{"start": "P1"}, {"start": "P2"}, {}, {}]
    assert Game(s).state.players["Player#1"].start == "P1"


def test_an_export_carries_every_seats_start():
    g = Game(swapped(starts={"Player#1": "P1", "Player#2": "P2"}))
    pos = export_position(g)
    assert pos["starts"] == dict(zip(SEATS, ["P1", "P2", "P3", "P4"], strict=True))
    again = Game({"board": "ring-4", "seed": 5, "players": 4, "position": pos})
    assert {s: p.start for s, p in again.state.players.items()} == pos["starts"]


@pytest.mark.parametrize(
    "starts, said",
    [
        ({"Player#1": "P9"}, r"position\.starts\.Player#1: 'P9' is not a Province of this board"),
        ({"Player#5": "P1"}, r"position\.starts: unknown seat 'Player#5'"),
        ({"Player#1": "P1", "Player#2": "P1"}, r"position\.starts\.Player#2: P1 is Player#1's start too"),
        (
            {"Player#1": "P0"},
            r"position\.starts\.Player#1: P0 is the Island: a seat starts on a Province of the "
            r"mainland",
        ),
    ],
)
def test_a_wrong_start_is_refused_naming_the_field(starts, said):
    s = swapped(starts=starts)
    if "P0" in str(starts):
        s["board"] = "ring-4+island"
    with pytest.raises(ValidationError, match=said):
        Game(s)
    s = swapped(starts={"Player#1": "P2"})
    s["players"] = [{"start": "P1"}, {"start": "P2"}, {}, {}]
    with pytest.raises(ValidationError, match=r"position\.starts\.Player#1: P2, but players\[0\]\.start is P1"):
        Game(s)
