"""One entry point for the RPC service: ``handle("npr.invasions", {"world": {...}, "seed": 7})``.

Each method takes a map of named fields (``../shared/design/protocol.md``) and returns the decision's
plain ``to_dict()``. Unknown fields are errors naming them, like unknown world keys.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.errors import RegentError, ValidationError
from engine.name_hints import unknown
from engine.realms.capacity import military_capacity, naval_capacity
from engine.realms.loader import Fields, world_from_dict
from engine.realms.model import World
from npr_controller.realms import caretaker
from npr_controller.realms.battle import fight, parse_deck, retreat
from npr_controller.realms.cta import call_to_arms
from npr_controller.realms.defence import defend
from npr_controller.realms.invasions import invasions
from npr_controller.realms.liberation import dnpr_expansion, liberate, released_vassals


class UnknownMethodError(RegentError):
    code = "unknown_method"


def _deck(f: Fields) -> Any:
    raw = f.get("deck", list, None)
    return parse_deck(raw) if raw is not None else None


def _seed(f: Fields) -> int | None:
    """None (missing or null): the decision draws a fresh secret seed (npr_controller/dice.py)."""
    return f.get("seed", int, None)


def _capacity(w: World, f: Fields) -> dict[str, Any]:
    realm, place = f.get("realm", str), f.get("place", str)
    if realm not in w.realms:
        raise ValidationError("realm", unknown("realm", realm, w.realms))
    if place in w.seas:
        return naval_capacity(w, realm, place).to_dict()
    if place in w.areas:
        return military_capacity(w, realm, place).to_dict()
    raise ValidationError("place", unknown("Area or Sea Zone", place, [*w.areas, *w.seas]))


def _care(w: World, f: Fields) -> dict[str, Any]:
    realm, step = f.get("realm", str), f.get("step", str, "income")
    steps = {"income": caretaker.income_and_upkeep, "phase3": caretaker.phase3, "actions": caretaker.actions}
    if step in steps:
        return steps[step](w, realm).to_dict()
    if step != "cta":
        raise ValidationError("step", "must be 'income', 'phase3', 'actions' or 'cta'")
    return caretaker.answer_cta(w, realm, f.get("cta_from", str), attacker=f.get("attacker", str),
                                kind=f.get("kind", str, "defensive")).to_dict()


# method -> (fields besides "world", handler)
METHODS: dict[str, tuple[tuple[str, ...], Callable[[World, Fields], dict[str, Any]]]] = {
    "npr.invasions": (("seed", "deck"), lambda w, f: invasions(w, seed=_seed(f), deck=_deck(f)).to_dict()),
    "npr.defend": (("attacks", "seed", "supply"), lambda w, f: defend(
        w, f.get("attacks", list), seed=_seed(f), supply=f.nonneg("supply", None)).to_dict()),
    "npr.retreat": (("battle",), lambda w, f: retreat(w, f.get("battle", dict)).to_dict()),
    "npr.battle": (("battle", "seed", "deck"), lambda w, f: fight(
        w, f.get("battle", dict), seed=_seed(f), deck=_deck(f)).to_dict()),
    "npr.call_to_arms": (("declaration",), lambda w, f: call_to_arms(w, f.get("declaration", dict)).to_dict()),
    "npr.liberate": (("provinces",), lambda w, f: liberate(w, f.get("provinces", list)).to_dict()),
    "npr.release": ((), lambda w, f: released_vassals(w).to_dict()),
    "npr.dnpr_expand": (("dnpr",), lambda w, f: dnpr_expansion(w, f.get("dnpr", str)).to_dict()),
    "npr.capacity": (("realm", "place"), _capacity),
    "npr.caretaker": (("realm", "step", "cta_from", "attacker", "kind"), _care),
}


def handle(method: str, params: Any) -> dict[str, Any]:
    """Run one ``npr.*`` method on its named fields; raises a :class:`RegentError` on bad input."""
    if method not in METHODS:
        raise UnknownMethodError(f"unknown method {method!r}", input=method)
    fields, run = METHODS[method]
    f = Fields(params, "")
    f.check(("world", *fields))
    return run(world_from_dict(f.get("world", dict)), f)
