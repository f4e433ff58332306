"""NPR behaviour in battle and a battle resolver (file 000 §13.4; rules-gaps.md "Battles").

- the Military Deck leader draw when only NPR units fight on their side and they number 3+;
- who rolls the NPR's dice (the player to the right of the Active Player);
- retreat-or-fight-on after each round; Ships fighting to the last next to the Capital Area;
- a resolver with 3 base dice per side and a configurable die (:class:`engine.realms.options.BattleDie`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.errors import ValidationError
from engine.name_hints import did_you_mean, unknown
from engine.realms.capacity import military_capacity, naval_capacity
from engine.realms.loader import Fields, choice
from engine.realms.model import World
from engine.realms.options import RealmRules
from engine.trace import Dice, Trace
from npr_controller.dice import SeededDice
from npr_controller.realms.result import Decision

R_BEHAVIOUR = "000 §13.4 NPR behavior in Battle"
R_BEYOND = "000 §13.4 Beyond the first Round of Battle"
R_AFTER = "000 §13.4 Aftermath of Battles"
R_BATTLES = "rules-gaps.md Battles"


@dataclass(frozen=True, slots=True)
class MilitaryCard:
    """A Military Deck card: a Leader (with Battle Dice) or an Advisor (no Leader)."""

    name: str
    kind: str
    dice: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "dice": self.dice}


# **Assumption**: the Military Deck's composition is not in the rule texts; the GM passes the real
# deck (top card first) as data. This placeholder mix is used only when none is given.
DEFAULT_MILITARY_DECK = (
    *(MilitaryCard(f"Advisor {i}", "advisor") for i in range(1, 13)),
    *(MilitaryCard(f"Leader {i} (1 die)", "leader", 1) for i in range(1, 5)),
    *(MilitaryCard(f"Leader {i} (2 dice)", "leader", 2) for i in range(5, 8)),
    MilitaryCard("Leader 8 (3 dice)", "leader", 3),
)


def parse_deck(data: Any, path: str = "deck") -> tuple[MilitaryCard, ...]:
    """A deck as data: a list of ``{"name", "kind": "leader" | "advisor", "dice"}``, top card first."""
    if not isinstance(data, list) or not data:
        raise ValidationError(path, "must be a non-empty list of cards")
    cards = []
    for i, raw in enumerate(data):
        f = Fields(raw, f"{path}[{i}]")
        f.check(("name", "kind", "dice"))
        kind = choice(f, "kind", ("leader", "advisor"))
        cards.append(MilitaryCard(f.get("name", str, f"card {i + 1}"), kind,
                                  f.nonneg("dice", 0) if kind == "leader" else 0))
    return tuple(cards)


def draw_leader(npr_units: int, only_npr: bool, deck: list[MilitaryCard] | None, dice: Dice,
                trace: Trace, battle: str = "") -> MilitaryCard | None:
    """The Military Deck draw at the start of a battle (000 §13.4 NPR behavior in Battle); ``battle`` names it in
    the dice record (``battle_label``)."""
    # rules: 000 §13.4 NPR behavior in Battle -- only NPR defenders with 3+ Units draw a card
    if not only_npr or npr_units < 3:
        why = "not only NPR units on their side" if not only_npr else f"only {npr_units} Units (< 3)"
        trace.add(R_BEHAVIOUR, f"no Military Deck draw: {why}")
        return None
    if deck:
        # rules: 000 §13.4 -- "discard the card at the end of the Battle": the next Battle draws the next one
        card = deck.pop(0)
        trace.add(R_BEHAVIOUR, f"{npr_units} NPR Units: draw the top Military Deck card: {card.name}")
    elif deck is not None:
        card = dice.choice(DEFAULT_MILITARY_DECK, purpose=f"{battle}Military Deck draw (the given deck is used up)")
        trace.add(R_BEHAVIOUR, f"{npr_units} NPR Units: the given deck is used up, drew at random: {card.name}")
    else:
        card = dice.choice(DEFAULT_MILITARY_DECK, purpose=f"{battle}Military Deck draw (no deck order given)")
        trace.add(R_BEHAVIOUR, f"{npr_units} NPR Units: no deck order given, drew at random: {card.name}")
    if card.kind == "leader":
        trace.add(R_BEHAVIOUR, f"{card.name} is a Leader: the NPR adds {card.dice} Battle Dice; "
                               "discard the card at the end of the Battle")
        return card
    trace.add(R_BEHAVIOUR, f"{card.name} is an Advisor: the NPR force has no Leader")
    return None


def npr_roller(seats: list[str] | None, active: str | None, trace: Trace) -> str | None:
    """Who rolls the NPR's dice: the player to the right of the Active Player (000 §13.4)."""
    for i, seat in enumerate(seats or ()):
        if not isinstance(seat, str):
            raise ValidationError(f"battle.seats[{i}]", f"must be a player's name, not {type(seat).__name__}")
        if seat in seats[:i]:
            raise ValidationError(f"battle.seats[{i}]", f"{seat!r} is listed twice: each player has one seat")
    if not seats or active is None:
        trace.add(R_BEHAVIOUR, "the player to the right of the Active Player rolls the NPR's dice")
        return None
    if active not in seats:
        raise ValidationError("battle.active_player", f"{active!r} is not among the seats")
    # **Assumption**: seats are listed clockwise, so the player to the right is the previous seat.
    roller = seats[seats.index(active) - 1]
    trace.add(R_BEHAVIOUR, f"{roller}, to the right of the Active Player {active}, rolls the NPR's dice")
    return roller


def last_area(world: World, npr: str, area: str) -> bool:
    """Is ``area`` the last Area in which the NPR still controls any Provinces?"""
    areas = {p.area for m in world.members(npr) for p in world.controlled_by(m)}
    return areas <= {area}


def retreat_decision(world: World, nprs: list[str], where: str, naval: bool, npr_units: int,
                     enemy_units: int, with_rebels: bool, trace: Trace) -> bool:
    """After a round: does the NPR force retreat (True) or fight on (False)? (000 §13.4)."""
    any_or_all = any if world.rules.combined_fight_on_if_any else all
    if naval:
        caps = [world.area_of_capital(n) for n in nprs]
        if any_or_all(c is not None and where in world.areas[c].seas for c in caps):
            # rules: 000 §13.4 -- NPR Ships fight to the last Ship next to their Capital Area
            trace.add(R_BEYOND, f"{where} is next to the Capital Area: NPR Ships fight to the last Ship")
            return False
    else:
        if with_rebels:
            # rules: 000 §13.4 -- alongside Rebel Units they fight to the last Unit
            trace.add(R_BEYOND, "fighting alongside Rebel Units: the NPR fights to the last Unit")
            return False
        if any_or_all(world.area_of_capital(n) == where for n in nprs):
            trace.add(R_BEYOND, f"{where} is the Capital Area: the NPR fights to the last Unit")
            return False
        if any_or_all(last_area(world, n, where) for n in nprs):
            trace.add(R_BEYOND, f"{where} is the last Area where the NPR controls Provinces: "
                                "it fights to the last Unit")
            return False
    if npr_units < enemy_units:
        # rules: 000 §13.4 -- NPRs always Retreat if they have fewer Units than their Enemy
        trace.add(R_BEYOND, f"{npr_units} NPR vs {enemy_units} Enemy: fewer Units, the NPR Retreats "
                            "(remove all their Units from the board)")
        return True
    trace.add(R_BEYOND, f"{npr_units} NPR vs {enemy_units} Enemy: not fewer, the NPR fights on")
    return False


@dataclass(frozen=True, slots=True)
class BattleOutcome:
    winner: str  # "npr", "enemy", "none" (both destroyed) or "undecided" (max_rounds reached)
    npr_left: int
    enemy_left: int
    rounds: tuple[dict[str, Any], ...]
    leader: MilitaryCard | None

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "npr_units_left": self.npr_left, "enemy_units_left": self.enemy_left,
                "leader": self.leader.to_dict() if self.leader else None, "rounds": list(self.rounds)}


def battle_label(nprs: list[str], where: str) -> str:
    """``Leinster in Ulster: ``, the head of a battle's dice purposes: the dice of an ``npr invasions`` call's several
    battles (and of one battle's rounds) each say whose they are, for the GM to check them against the trace."""
    return f"{' + '.join(nprs)} in {where}: "


def _roll(side: str, n_dice: int, units: int, rules: RealmRules, dice: Dice,
          battle: str = "") -> tuple[tuple[int, ...], int]:
    faces = dice.roll(n_dice, rules.die.sides, purpose=f"{battle}{side} battle dice").faces
    # rules: rules-gaps.md Battles -- hits = min(hit icons, units)
    return faces, min(rules.die.hits(faces), units)


def resolve_battle(world: World, nprs: list[str], where: str, *, naval: bool, npr_units: int,
                   enemy_units: int, dice: Dice, trace: Trace, npr_attacks: bool = False,
                   with_rebels: bool = False, deck: list[MilitaryCard] | None = None,
                   enemy_leader_dice: int = 0, invading: bool = False) -> BattleOutcome:
    """Fight a battle between an NPR force and its Enemy, round by round (rules-gaps.md Battles)."""
    rules = world.rules
    label = battle_label(nprs, where)
    leader = draw_leader(npr_units, not with_rebels, deck, dice, trace, label)
    npr_dice = rules.base_dice + (leader.dice if leader else 0)
    enemy_dice = rules.base_dice + enemy_leader_dice
    trace.add(R_BATTLES, f"each side rolls {rules.base_dice} base dice (+ Leader dice): NPR {npr_dice}, "
                         f"Enemy {enemy_dice}; d{rules.die.sides} hits on {list(rules.die.hit_faces)}")
    rounds = []
    npr, enemy = npr_units, enemy_units
    winner = "undecided"
    for rnd in range(1, rules.max_rounds + 1):
        nf, nh = _roll("NPR", npr_dice, npr, rules, dice, f"{label}round {rnd}, ")
        ef, eh = _roll("Enemy", enemy_dice, enemy, rules, dice, f"{label}round {rnd}, ")
        npr, enemy = max(0, npr - eh), max(0, enemy - nh)
        record = {"round": rnd, "npr_faces": list(nf), "enemy_faces": list(ef), "npr_hits": nh,
                  "enemy_hits": eh, "npr_units": npr, "enemy_units": enemy, "retreat": None}
        trace.add(R_BATTLES, f"round {rnd}: NPR hits {nh}, Enemy hits {eh} -> NPR {npr}, Enemy {enemy}")
        rounds.append(record)
        if npr == 0 or enemy == 0:
            winner = "npr" if npr else "enemy" if enemy else "none"
            if winner == "none":
                trace.add(R_BATTLES, "both sides are destroyed in the same round: nobody wins")
            break
        # rules: rules-gaps.md Battles -- retreat-or-continue, the attacker decides first
        order = ("npr", "enemy") if npr_attacks else ("enemy", "npr")
        retreated = None
        for side in order:
            if side == "enemy" and rules.enemy_policy == "outnumbered" and enemy < npr:
                trace.add(R_BATTLES, f"the Enemy has fewer Units ({enemy} < {npr}) and retreats "
                                     "(attacker policy 'outnumbered')")
                retreated = "enemy"
            elif side == "npr" and retreat_decision(world, nprs, where, naval, npr, enemy,
                                                    with_rebels, trace):
                retreated = "npr"
            if retreated:
                break
        if retreated:
            # rules: rules-gaps.md Battles -- a side that retreats loses one extra unit
            if retreated == "npr":
                npr = max(0, npr - 1)
            else:
                enemy = max(0, enemy - 1)
            record["retreat"] = retreated
            trace.add(R_BATTLES, f"the retreating side ({retreated}) loses one extra unit")
            winner = "enemy" if retreated == "npr" else "npr"
            break
    if leader:
        trace.add(R_BEHAVIOUR, f"discard {leader.name} at the end of the Battle")
    if winner == "npr" and invading:
        trace.add("000 §13.5 step 5", "the invading NPR Units won and stay in the Area")
    elif winner == "npr":
        trace.add(R_AFTER, "the NPR won: its Units are removed from the board afterwards and it will "
                           "defend the same way against a new force")
    elif winner == "enemy":
        trace.add(R_AFTER, "the Enemy won: it may Siege Hostile Provinces here on its next Turn; if it "
                           "leaves without Sieging or leaving Units, the NPR defends again")
    elif winner == "undecided":
        trace.add(R_BATTLES, f"no decision after {len(rounds)} rounds (max_rounds {rules.max_rounds})")
    return BattleOutcome(winner, npr, enemy, tuple(rounds), leader)


def _battle_place(world: World, f: Fields) -> tuple[list[str], str, bool]:
    """The NPR(s) of a ``battle`` map and where it is fought: (nprs, place, naval)."""
    nprs = f.get("npr", (str, list))
    nprs = [nprs] if isinstance(nprs, str) else nprs
    if not nprs:
        raise ValidationError("battle.npr", "must name an NPR, or a non-empty list of NPRs")
    for i, n in enumerate(nprs):
        if n not in world.realms or not world.realms[n].is_npr:
            raise ValidationError(f"battle.npr[{i}]", f"{n!r} is not an NPR"
                                  + did_you_mean(n, [m for m, r in world.realms.items() if r.is_npr]))
        if n in nprs[:i]:
            # rules: 000 §13.4 Fighting Several NPRs in one Area -- each NPR's MC/NC counts once
            raise ValidationError(f"battle.npr[{i}]", f"{n!r} is listed twice: each NPR fights once, "
                                                      "with its own MC (or NC)")
    if ("area" in f.data) == ("sea" in f.data):
        raise ValidationError("battle", "give exactly one of 'area' or 'sea'")
    naval = "sea" in f.data
    where = f.get("sea" if naval else "area", str)
    if where not in (world.seas if naval else world.areas):
        raise ValidationError(f.sub("sea" if naval else "area"),
                              unknown("place", where, world.seas if naval else world.areas))
    return nprs, where, naval


def retreat(world: World, battle: Any) -> Decision:
    """``npr.retreat``: after a round, does the NPR force retreat or fight on?"""
    f = Fields(battle, "battle")
    f.check(("npr", "area", "sea", "npr_units", "enemy_units", "with_rebels"))
    nprs, where, naval = _battle_place(world, f)
    trace = Trace()
    npr_units, enemy_units = f.nonneg("npr_units"), f.nonneg("enemy_units")
    for field, left, other in (("npr_units", npr_units, "the Enemy"), ("enemy_units", enemy_units, "the NPR")):
        if left == 0:
            # rules: 000 §13.4 Beyond the first Round of Battle -- the choice to Retreat is made by a force
            # still fighting an Enemy; a side with no Units left has lost, the Battle is over (as resolve_battle)
            raise ValidationError(f"battle.{field}", f"must be at least 1: with no Units left on this side the "
                                                     f"Battle is over (won by {other}), there is no Retreat to decide")
    out = retreat_decision(world, nprs, where, naval, npr_units, enemy_units,
                           f.get("with_rebels", bool, False), trace)
    body = {"npr": nprs, "where": where, "naval": naval, "retreat": out, "rule": trace.steps[-1].rule}
    text = f"{', '.join(nprs)} in {where}: {'RETREAT' if out else 'fight on'}"
    return Decision("npr.retreat", body, (text,), trace, Dice(None))


def fight(world: World, battle: Any, *, seed: int | None = None,
          deck: tuple[MilitaryCard, ...] | None = None) -> Decision:
    """``npr.battle``: resolve one NPR battle round by round (000 §13.4, rules-gaps.md Battles).

    ``battle``: ``{"npr": name | [names], "area" | "sea", "enemy_units", "npr_units"?, "with_rebels"?,
    "enemy_leader_dice"?, "seats"?, "active_player"?}``; without ``npr_units`` the defenders are the
    combined MC (Area) or NC (Sea Zone) of the NPRs. ``seed`` None draws a fresh secret seed; the
    battle rolls from the stream of (seed, the NPRs, the place, the round) (npr_controller/dice.py).
    """
    f = Fields(battle, "battle")
    f.check(("npr", "area", "sea", "npr_units", "enemy_units", "with_rebels", "enemy_leader_dice", "seats",
             "active_player"))
    nprs, where, naval = _battle_place(world, f)
    seeded = SeededDice(seed)
    trace, dice = Trace(), seeded.stream("npr.battle", sorted(nprs), where, world.round)
    enemy_units = f.nonneg("enemy_units")
    if enemy_units == 0:
        # rules: 000 §13.4 NPRs defending Areas / Sea Zones -- a Battle is fought against Units (Ships) moved in
        raise ValidationError("battle.enemy_units", "must be at least 1: with no Enemy Units there is no Battle")
    units = f.nonneg("npr_units", None)
    if units == 0:
        raise ValidationError("battle.npr_units", "must be at least 1: an NPR force of 0 Units fights no Battle")
    if units is None:
        caps = [(naval_capacity if naval else military_capacity)(world, n, where) for n in nprs]
        units = sum(c.value for c in caps)
        if units == 0:
            # rules: 000 §13.4 NPRs defending Areas -- the NPR defends with Units equal to its MC (NC);
            # with none there is no defender and no Battle (npr defend says "no defenders, no Battle")
            what = "NC for the Sea Zone" if naval else "MC for the Area"
            raise ValidationError("battle.npr", f"{', '.join(nprs)} {'have' if len(nprs) > 1 else 'has'} {what} "
                                                f"{where} = 0: no NPR Units defend it, so there is no Battle "
                                                "(give npr_units to fight with a force of your own count)")
        trace.add(R_BEHAVIOUR, f"NPR {'Light Ships' if naval else 'Infantry'}: "
                  + " + ".join(f"{c.kind} {c.realm} {c.value}" for c in caps) + f" = {units}")
    seats = f.get("seats", list, None)
    roller = npr_roller(seats, f.get("active_player", str, None), trace)
    outcome = resolve_battle(world, nprs, where, naval=naval, npr_units=units, enemy_units=enemy_units,
                             dice=dice, trace=trace, with_rebels=f.get("with_rebels", bool, False),
                             deck=None if deck is None else list(deck),
                             enemy_leader_dice=f.nonneg("enemy_leader_dice", 0))
    body = {"npr": nprs, "where": where, "naval": naval, "npr_units": units, "roller": roller, **outcome.to_dict()}
    text = (f"{', '.join(nprs)} ({units}) in {where}: winner {outcome.winner} after {len(outcome.rounds)} "
            f"round(s); NPR left {outcome.npr_left}, Enemy left {outcome.enemy_left}",)
    return Decision("npr.battle", body, text, trace, seeded)
