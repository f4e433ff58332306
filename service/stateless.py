"""The stateless ``npr.*`` and ``npn.*`` methods (protocol.md): validate, decide, return the trace.

Imports of the controllers are lazy so a server that never answers an NPR call never loads them,
and none of them imports torch (the test suite checks ``sys.modules``).
"""

from __future__ import annotations

from typing import Any

from engine.errors import ValidationError
from service.errors import invalid
from service.params import Params


def _world(p: Params) -> Any:
    from engine.realms import world_from_dict

    raw = p.get("world", dict, what="a map (a realm world document)")
    try:
        return world_from_dict(raw)
    except ValidationError as err:
        raise invalid(f"world.{err.field}", err.reason.split(": ", 1)[-1]) from None


def _seed(p: Params) -> int | None:
    """None (missing or null): the controller draws a fresh secret seed and reports it in ``dice.seed``."""
    return p.get("seed", int, None, "an integer or null")


# Bounded work (protocol.md, "Errors"): a side's Battle dice are rolled every round and every face is in the answer,
# so a Leader's dice are the one number in a request the work grows with. A Leader adds 1 or 2 (000 §13.4's Military
# Deck); `enemy_leader_dice: 1000000000` held a worker for minutes and built an answer of gigabytes.
MAX_LEADER_DICE = 100


def _leader_dice(value: Any, field: str) -> None:
    if isinstance(value, int) and not isinstance(value, bool) and value > MAX_LEADER_DICE:
        raise invalid(field, f"at most {MAX_LEADER_DICE} Battle dice for a Leader (the Military Deck's add 1 or 2), "
                             f"not {str(value)[:30]}")


def _deck(p: Params) -> Any:
    from npr_controller.realms.battle import parse_deck

    raw = p.take("deck", None)
    if isinstance(raw, list):
        for i, card in enumerate(raw):
            if isinstance(card, dict):
                _leader_dice(card.get("dice"), f"deck[{i}].dice")
    return None if raw is None else parse_deck(raw)


def npr_invasions(p: Params) -> dict[str, Any]:
    from npr_controller.realms.invasions import invasions

    seed, deck = _seed(p), _deck(p)
    world_out = p.bool("world_out", False)  # the world after step B, as `regent npr invasions --world-out` writes it
    world = _world(p)
    p.done()
    decision = invasions(world, seed=seed, deck=deck)
    answer = decision.to_dict()
    if world_out:
        from engine.realms.dump import world_to_dict

        answer["world"] = world_to_dict(decision.world)
    return answer


def npr_defend(p: Params) -> dict[str, Any]:
    from npr_controller.realms.defence import defend

    attacks, seed = p.get("attacks", list, what="an array of attacks"), _seed(p)
    supply = p.int("supply", None, minimum=0)
    world = _world(p)
    p.done()
    return defend(world, attacks, seed=seed, supply=supply).to_dict()


def npr_retreat(p: Params) -> dict[str, Any]:
    from npr_controller.realms.battle import retreat

    battle = p.get("battle", dict, what="a map")
    world = _world(p)
    p.done()
    return retreat(world, battle).to_dict()


def npr_battle(p: Params) -> dict[str, Any]:
    from npr_controller.realms.battle import fight

    battle, seed, deck = p.get("battle", dict, what="a map"), _seed(p), _deck(p)
    _leader_dice(battle.get("enemy_leader_dice"), "battle.enemy_leader_dice")
    world = _world(p)
    p.done()
    return fight(world, battle, seed=seed, deck=deck).to_dict()


def npr_call_to_arms(p: Params) -> dict[str, Any]:
    from npr_controller.realms.cta import call_to_arms

    declaration = p.get("declaration", dict, what="a map {attacker, target}")
    world = _world(p)
    p.done()
    return call_to_arms(world, declaration).to_dict()


def npr_liberate(p: Params) -> dict[str, Any]:
    from npr_controller.realms.liberation import liberate

    provinces = p.get("provinces", list, what="an array of Province names")
    world = _world(p)
    p.done()
    return liberate(world, provinces).to_dict()


def npr_release(p: Params) -> dict[str, Any]:
    from npr_controller.realms.liberation import released_vassals

    world = _world(p)
    p.done()
    return released_vassals(world).to_dict()


def npr_dnpr_expand(p: Params) -> dict[str, Any]:
    from npr_controller.realms.liberation import dnpr_expansion

    dnpr = p.str("dnpr")
    world = _world(p)
    p.done()
    return dnpr_expansion(world, dnpr).to_dict()


def npn_plan(p: Params) -> dict[str, Any]:
    from npr_controller.newworld import npn_plan as plan

    for key in ("world", "nation", "turn", "seed"):
        p.used.add(key)
    p.done()
    try:
        return plan(p.fields)
    except ValidationError as err:
        if err.field in ("params", "world", "nation", "turn", "seed") or err.field.startswith("world"):
            raise
        raise invalid(f"world.{err.field}", err.reason.split(": ", 1)[-1]) from None


METHODS = {
    "npr.invasions": npr_invasions,
    "npr.defend": npr_defend,
    "npr.retreat": npr_retreat,
    "npr.battle": npr_battle,
    "npr.call_to_arms": npr_call_to_arms,
    "npr.liberate": npr_liberate,
    "npr.release": npr_release,
    "npr.dnpr_expand": npr_dnpr_expand,
    "npn.plan": npn_plan,
}


def run(method: str, fields: Any) -> tuple[str, Any]:
    """Run one stateless method from plain data and return plain data, so it can run in another
    process: ``("ok", result)`` or ``("error", wire error map)``."""
    from service.errors import from_exception

    try:
        return "ok", METHODS[method](Params(method, fields))
    except Exception as err:  # every failure travels back as a wire error map
        return "error", from_exception(err).to_wire()
