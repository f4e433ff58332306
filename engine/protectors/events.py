"""Structured events (each naming the rule it applied) and the $Realm ledger.

Every change to a player's $Realm goes through :func:`money`, so the ledger accounts for every
$Realm created or destroyed with the rule that did it.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from engine.protectors.state import GameState, deep_copied


class Event(NamedTuple):
    """One thing that happened, with the rule it applied. Immutable (a NamedTuple: cheap to make,
    and the engine makes many)."""

    turn: int
    kind: str
    rule: str
    text: str
    data: dict[str, Any]
    visible_to: frozenset[str] | None = None  # None: public; else only these seats (and the GM)

    def visible(self, seat: str | None) -> bool:
        return seat is None or self.visible_to is None or seat in self.visible_to

    def to_dict(self) -> dict[str, Any]:
        d = {"turn": self.turn, "kind": self.kind, "rule": self.rule, "text": self.text, "data": self.data}
        if self.visible_to is not None:
            d["visible_to"] = sorted(self.visible_to)
        return d


def listed(words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``: names in a report's sentence."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


# an Event's fields by position, for loops over the (untyped) ``state.events`` that read them by index:
# compiled, an index is direct code where an attribute is a generic lookup (consolidation.reduced_bids)
EVENT_TURN: Final = Event._fields.index("turn")
EVENT_KIND: Final = Event._fields.index("kind")
EVENT_DATA: Final = Event._fields.index("data")

_new_event: Final = tuple.__new__  # what Event._make does, without the keyword layer (emit runs ~20 times a turn)


def copied(events: list[Event], memo: dict[int, Any]) -> list[Event]:
    """What ``copy.deepcopy(events, memo)`` gives, faster (``GameState.clone``): an Event is immutable
    but for its ``data`` dict, so that alone is copied deeply (``state.deep_copied``)."""
    return [_new_event(Event, (e.turn, e.kind, e.rule, e.text, deep_copied(e.data, memo) if e.data else {},
                               e.visible_to)) for e in events]


def emit(state: GameState, kind: str, rule: str, text: str, private: set[str] | None = None,
         **data: Any) -> None:
    state.events.append(_new_event(Event, (state.turn, kind, rule, text, data,
                                           None if private is None else frozenset(private))))


def money(state: GameState, seat: str, delta: int, rule: str) -> None:
    """Change a seat's $Realm, recording why. $Realm never goes negative."""
    if delta == 0:
        return
    p = state.players[seat]
    if p.realm + delta < 0:
        raise RuntimeError(f"{seat} cannot pay {-delta} $Realm with {p.realm} ({rule})")
    p.realm += delta
    state.ledger.append((state.turn, seat, delta, rule))


def transfer(state: GameState, src: str, dst: str, amount: int, rule: str) -> None:
    money(state, src, -amount, rule)
    money(state, dst, amount, rule)
