"""The seats' colours as players name them.

# rules: 003 Orders — "All players have a unique colour assigned to them, this colour or/and a player's
# Discord name can be used to specify players in the game."

A setup may give each player a ``colour`` (the GM's own: ``"red"``); a player without one gets the
name of the colour Regent's board pictures paint the seat with (``service/render/palette.py`` holds
the matching sRGB values, in the same order). A DM may name a seat by its colour
(``docs/dm-syntax.md``). A colour never takes a name from another seat: a default colour equal to
another seat's display name is not used as a name (the display name wins), and a setup giving a
colour that is another seat's name or colour is refused; a new game's setup also may not give a seat the
default colour of another seat that has none of its own (``setup.check_new_names``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import ValidationError

COLOUR_NAMES = (  # index i: the i-th seat of the game (setup order); the board palette's order
    "indigo", "sky blue", "dark green", "light green", "brown", "sand", "lime", "olive",
    "plum", "rose", "orchid", "pale blue", "raspberry", "blue", "steel", "pink",
)
MAX_COLOUR_CHARS = 32


def default_colour(index: int) -> str:
    """The board's name for the ``index``-th seat's colour (0-based). Games have at most 16 seats."""
    return COLOUR_NAMES[index % len(COLOUR_NAMES)]


def fold(name: str) -> str:
    """The form two names are compared in: case and spacing do not matter."""
    return " ".join(name.casefold().split())


def check_colour(value: Any, where: str) -> str:
    """A setup's ``players[i].colour``: 1 to 32 characters of text that is not a seat id."""
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_COLOUR_CHARS:
        raise ValidationError(where, f"a colour is text of 1 to {MAX_COLOUR_CHARS} characters, like \"red\"")
    if "#" in value:
        raise ValidationError(where, f"{value!r}: a colour may not contain '#' (Player#N names a seat)")
    return " ".join(value.split())


def seat_colours(players: Sequence[dict[str, Any]]) -> dict[str, str]:
    """Every seat's colour: the setup's, else the board's default. ``players`` are setup players
    already read (each with ``seat``, ``name`` and optionally ``colour``). Two seats never share one."""
    given: dict[str, str] = {p["seat"]: str(p["colour"]) for p in players if p.get("colour")}
    names = {fold(p["name"]): p["seat"] for p in players}
    seen: dict[str, str] = {}
    for i, p in enumerate(players):
        colour = given.get(p["seat"])
        if colour is None:
            continue
        key = fold(colour)
        if key in seen:
            raise ValidationError(f"players[{i}].colour", f"{colour!r} is already {seen[key]}'s colour")
        if names.get(key, p["seat"]) != p["seat"]:
            raise ValidationError(f"players[{i}].colour", f"{colour!r} is {names[key]}'s display name")
        seen[key] = p["seat"]
    out: dict[str, str] = {}
    taken = set(seen)
    for i, p in enumerate(players):
        if p["seat"] in given:
            out[p["seat"]] = given[p["seat"]]
            continue
        # the first default colour no other seat took (a GM's "blue" for seat 3 moves seat 14's
        # default on), so each seat keeps one colour of its own
        name = next((default_colour(i + k) for k in range(len(COLOUR_NAMES))
                     if fold(default_colour(i + k)) not in taken), default_colour(i))
        out[p["seat"]] = name
        taken.add(fold(name))
    return out


def colour_names(players: Sequence[dict[str, Any]], colours: dict[str, str]) -> dict[str, str]:
    """Colour -> seat, for reading DMs: every colour that is not another seat's display name."""
    names = {fold(p["name"]): p["seat"] for p in players}
    return {c: s for s, c in colours.items() if names.get(fold(c), s) == s}
