"""Each seat's starting Province in a game brought in as a position (docs/positions.md, ``starts``).

# rules: 003 Setup — "Each player starts the game with 1 Province (land area)": a mainland Province, one per player.

A fresh game places its seats (``setup._starts``: the setup's ``players[i].start``, else a random or team
placement). A game typed in at turn 4 gets that placement too, but it is the seed's, not the real game's: a seat may
never have held it. ``Player.start`` is read as "a Province this seat held" (the ``steward`` level retakes it), so a
seat's start is, in this order: the position's ``starts`` (an export writes every seat's); the setup's
``players[i].start`` (the GM wrote it); the placement, if the seat holds it in the position; else a Province the seat
holds (or occupies) in the position, the first by number: one it did hold, and nothing beyond what it holds now. A
seat holding nothing keeps the placement (no unit of its own left to march with).
"""

from __future__ import annotations

from engine.errors import ValidationError
from engine.protectors.position_reader import Reader


def read_starts(r: Reader, typed: dict[str, str]) -> None:
    """Every seat's ``start`` after the position's Provinces are read (``typed``: the starts the setup's
    ``players[i].start`` gave, by seat)."""
    st = r.state
    board = st.board
    given: dict[str, str] = {}
    for s, prov in r.mapping("starts").items():
        seat = r.seat(s, "position.starts")
        field = f"position.starts.{seat}"
        start = r.province(prov, field)
        if start == board.island:
            raise ValidationError(
                field, f"{start} is the Island: a seat starts on a Province of the mainland (rules: 003 Setup)"
            )
        if seat in typed and typed[seat] != start:
            seats = list(st.players)
            raise ValidationError(
                field, f"{start}, but players[{seats.index(seat)}].start is {typed[seat]}; give the seat one start"
            )
        other = next((o for o, q in given.items() if q == start), None)
        if other is not None:
            raise ValidationError(
                field, f"{start} is {other}'s start too: each seat starts on a Province of its own (rules: 003 Setup)"
            )
        given[seat] = start
    for seat, p in st.players.items():
        if seat in given:
            p.start = given[seat]
        elif seat not in typed and st.provinces[p.start].owner != seat:
            held = [q for q in board.all_provinces if st.provinces[q].owner == seat]
            held = held or [q for q in board.all_provinces if st.provinces[q].occupant == seat]
            if held:
                p.start = held[0]
