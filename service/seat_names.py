"""Which seat a GM's or a DM header's label means, and why a label means none (with the closest seat).

One reading for every place a person names a seat: the CLI (``GameFile.seat_named``, DM headers, ``regent seat``,
``report --private``, ``render --seat``) and the service's GM calls (``game.submit``, ``game.assign``,
``game.report`` ``private``). A label is ``Player#3``, ``player 3``, ``P#3``, a display name or a colour (rules: 003
Orders: a player's colour names them too), in any case and spacing, with a trailing ``(Player#3)``-style note that
must agree; a label pasted from Discord (``@Carol``, ``**Carol**``, ``Carol:``, ``Carol 👋``) is tried without its
mention sign, markup, trailing punctuation and emoji when it names no seat as it is.
"""

from __future__ import annotations

import difflib
import re
import reprlib
import unicodedata
from typing import Any

from engine.protectors.colours import fold
from engine.protectors.notation_words import norm_words
from engine.protectors.setup import seat_number
from service.errors import INVALID_PARAMS, MAX_MESSAGE, RpcError
from service.posting import seat_guess as guess

MAX_LABEL = 100  # longer than any seat's name: named by nothing, echoed cut short, and no closest name is sought

_echo = reprlib.Repr()
_echo.maxstring = 40


def seat_named(game: Any, label: str) -> str | None:
    """The seat ``label`` names in ``game`` (a Protectors ``Game``), or ``None``."""
    if not isinstance(label, str) or len(label) > MAX_LABEL:
        return None
    seat = _seat_named(game, label)
    bare = _bare_label(str(label))
    return seat if seat is not None or not bare or bare == str(label).strip() else _seat_named(game, bare)


def display(game: Any, seat: str) -> str:
    """``Player#3 (Alice)``, or just ``Player#3`` when the seat has no display name of its own."""
    p = game.state.players.get(seat)
    name = getattr(p, "name", None)
    return f"{seat} ({name})" if name and name != seat else seat


def closest_seat(game: Any, label: str) -> str | None:
    """The seat whose name, token or colour ``label`` is closest to (a typo in any case: "bbo" for Bob), if any."""
    close = closest_name(game, label)
    return close[1] if close else None


def closest_name(game: Any, label: str) -> tuple[str, str] | None:
    """``(name, seat)``: the display name, token or colour ``label`` is closest to and its seat, if any."""
    names = {str(p.name): s for s, p in game.state.players.items()}
    names.update({s: s for s in game.state.players})
    names.update(game.colour_names())
    folded = {k.casefold(): (k, s) for k, s in names.items()}
    short = isinstance(label, str) and len(label) <= MAX_LABEL  # difflib's work grows with the label's length
    close = difflib.get_close_matches(label.casefold(), list(folded), n=1, cutoff=0.6) if short else []
    return folded[close[0]] if close else None


def unknown_seat(game: Any, label: str, listed: bool = True) -> str:
    """Why ``label`` names no seat, with the closest name (a typo) and (``listed``) the seats there are. For the GM
    only: it lists every seat (a seat's own token is never told which names exist)."""
    both = ambiguous(game, label)
    if both:
        return (f"{_echo.repr(label)} names two seats: {both[0]} by its number and {display(game, both[1])} by its "
                f"display name; name the seat as Player#N")
    close = closest_name(game, label)
    colours = game.colours()
    hint = f"; {guess(display(game, close[1]), close[0], colours[close[1]])}" if close else ""
    seats = f" (seats: {', '.join(seat_list(game))})" if listed else ""
    return f"no seat is called {_echo.repr(label)}{hint}{seats}"


def seat_list(game: Any) -> list[str]:
    """Every seat as an unknown label's answer lists it: ``Player#3 (Carol) dark green``."""
    colours = game.colours()
    return [f"{display(game, s)} {colours[s]}" for s in game.state.players]


def unknown_seat_error(game: Any, field: str, label: Any) -> RpcError:
    """The service's ``invalid_params`` on ``field`` for a GM's label naming no seat (``unknown_seat``), every seat in
    ``details.seats``. Its message lists them too where they fit under the wire's cut (``MAX_MESSAGE``), else says
    where they are: a 12-seat game's list ran past the cut, 'Player#10... (63 more characters)', and hid seats."""
    message = f"{field}: {unknown_seat(game, label)}"
    seats = seat_list(game)
    if len(message) > MAX_MESSAGE:
        message = f"{field}: {unknown_seat(game, label, listed=False)} (its {len(seats)} seats: details.seats)"
    return RpcError(INVALID_PARAMS, message, {"field": field, "seats": seats})


def _seat_named(game: Any, label: str) -> str | None:
    players = game.state.players
    text = " ".join(str(label).replace("\u00a0", " ").split())
    if text in players:
        return text
    m = re.fullmatch(r"(.+?)\s*\((.+)\)", text)  # "Alice (Player#2)": both halves must agree
    if m:
        a, b = _seat_named(game, m.group(1)), _seat_named(game, m.group(2))
        return a if a is not None and a == b else None
    key = text.casefold()
    numbered = _numbered(players, key)
    named = _by_name(players, text)
    if numbered is not None:
        # "P2" is Player#2's number and may be Player#1's display name too: a label that names two seats names none
        return numbered if not named or named == [numbered] else None
    if not named:  # rules: 003 Orders: a player's colour names them too (a display name first)
        named = [s for c, s in game.colour_names().items() if fold(c) == key]
    return named[0] if len(named) == 1 else None


def _numbered(players: Any, key: str) -> str | None:
    """The seat ``key`` names by number: ``player 3``, ``P#3``, ``p3`` (``setup.seat_number``, the one reading a new
    game's display names are kept apart from)."""
    number = seat_number(key)
    return f"Player#{number}" if number is not None and f"Player#{number}" in players else None


def _by_name(players: Any, label: str) -> list[str]:
    """The seats whose display name ``label`` is, read as a DM reads a name (``seat_map``: case, width and accents
    aside, as ``check_new_names`` keeps a new game's names apart), or case-folded when that leaves nothing to compare
    (a name of emoji only). Case-folding alone read "Strasse" as both "Strasse" and "Straße", which the game tells
    apart, and "Ame\u0301lie" (decomposed) as no seat called "Amélie"."""
    key = _name_key(label)
    if not key:
        folded = " ".join(label.split()).casefold()
        return [s for s, p in players.items() if " ".join(str(p.name).split()).casefold() == folded]
    return [s for s, p in players.items() if _name_key(str(p.name)) == key]


def _name_key(name: str) -> str:
    return " ".join(norm_words(name))


def ambiguous(game: Any, label: str) -> list[str]:
    """The seats ``label`` names in two ways at once (a seat's number and another seat's display name, ``P2``), in
    seat order; empty when it names one seat or none."""
    if not isinstance(label, str) or len(label) > MAX_LABEL:
        return []
    text = " ".join(label.replace("\u00a0", " ").split())
    players = game.state.players
    numbered, named = _numbered(players, text.casefold()), _by_name(players, text)
    if numbered is None or not named or named == [numbered]:
        return []
    return [numbered, *(s for s in named if s != numbered)]


def _bare_label(label: str) -> str:
    """``label`` without Discord's mention sign and markup, trailing punctuation or emoji (symbols)."""
    text = "".join(" " if unicodedata.category(c) in ("So", "Sk", "Cf") else c for c in label)
    return text.strip().strip("*_~`").strip().lstrip("@").rstrip(":.,;!?").strip()
