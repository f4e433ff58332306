"""What one seat may see and do: the only handle an agent (human proxy or AI) is given.

It exposes the seat's own view and the legal-decision enumeration for that seat, never the full
state, so a controller cannot read another seat's secrets by accident.
"""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr

from engine.errors import ValidationError
from engine.protectors import legality
from engine.protectors.decisions import Decision
from engine.protectors.defaults import default_decision, even_placement
from engine.protectors.orders import ProvinceOrder
from engine.protectors.state import GameState
from engine.protectors.views import board_view, seat_state


@mypyc_attr(allow_interpreted_subclasses=True)  # Python's __new__ under mypyc: pickles (values.py)
class SeatContext:
    def __init__(self, game: Any, seat: str):
        if seat not in game.state.players:
            raise ValidationError("seat", f"unknown seat {seat!r}")
        self._game = game
        self.seat = seat
        self._view: dict[str, Any] | None = None
        self._board: dict[str, Any] | None = None
        self._state: GameState | None = None

    @property
    def view(self) -> dict[str, Any]:
        """``Game.view(seat)``, built on first use (many decisions never read it)."""
        if self._view is None:
            self._view = self._game.view(self.seat)
        return self._view

    @property
    def board(self) -> dict[str, Any]:
        """``views.board_view``: the public part of ``view`` that reading the board needs (Provinces, Army Units,
        brackets, ranking, DPL, attack, options), built on first use at half the view's cost."""
        if self._board is None:
            self._board = board_view(self._game, self.seat)
        return self._board

    @property
    def state(self) -> GameState:
        """The game state as this seat may know it (``views.seat_state``: a redacted copy, made once
        per context), for planners and observation encoders that want the state's shape."""
        if self._state is None:
            self._state = seat_state(self._game.state, self.seat)
        return self._state

    @property
    def step(self) -> str:
        return self._game.step

    @property
    def realm(self) -> int:
        return self._game.state.players[self.seat].realm  # the seat's own $Realm (its view shows it)

    def orderable(self) -> list[str]:
        return legality.orderable(self._game.state, self.seat)

    def legal_orders(self, province: str) -> list[ProvinceOrder]:
        return legality.legal_orders(self._game.state, self.seat, province)

    def legal_abilities(self) -> list:
        """Ability lines usable now (rules: 003 Factions, Island Rules); empty when none."""
        return legality.legal_abilities(self._game.state, self.seat)

    def ability_cost(self, ability) -> int:
        from engine.protectors.abilities import cost

        return cost(self._game.state, self.seat, ability)

    def golden_limits(self) -> dict[str, int]:
        return legality.golden_limits(self._game.state, self.seat)

    def default(self) -> Decision:
        """The rulebook default for this seat now (rules: 003, inactive players)."""
        return default_decision(self._game.state, self.seat)

    def even_placement(self, count: int | None = None) -> list[tuple[str, int]]:
        return even_placement(self._game.state, self.seat, count)

    def validate(self, decision: Decision) -> Decision:
        return legality.validate(self._game.state, self.seat, decision)
