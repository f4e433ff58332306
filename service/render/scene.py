"""What a board picture shows, as plain data built from ``game.view(seat)`` and the seat's events.

Nothing here reads ``game.state``: the picture of a seat holds exactly what that seat's view and
visible events hold, so secrecy follows the engine's own view rules. The GM (seat ``None``) sees
everything, including every seat's $Realm.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from engine.protectors.board import Board
from service.render.layout import Layout, layout_for
from service.render.palette import BURNT, NEUTRAL, seat_colour

ROMAN = {0: "", 1: "I", 2: "II", 3: "III"}  # rules: 003 Golden Work, work! — levels as Roman numerals
UNIT_MARK = "\u2694"  # crossed swords before a unit count
# rules: 003 Scale of Terror. The rulebook prints the same condition ("DPL >= 2x number of all
# Provinces") for Dragon, Ancient Dragon and Worldbreaker; we read them as rising multiples of
# #Provinces, ending at the Worldeater's 3x (rules: 003 The Mythical Worldeater). See
# docs/assumptions.md, SCALE_OF_TERROR_MULTIPLES.
SCALE_OF_TERROR_MULTIPLES = {"Dragon": 2.0, "Ancient Dragon": 2.5, "Worldbreaker": 3.0}
HIGHLIGHT_KINDS = ("march", "battle", "seize", "wrath", "dragon_battle", "eliminated", "upgrade")


@dataclass(frozen=True)
class ProvinceView:
    name: str
    fill: str
    owner: str | None
    holder: str | None
    units: int
    level: int
    burnt: bool
    line1: str  # "P12 III"
    line2: str  # "#3 ⚔2" (holder's seat number and units)


@dataclass(frozen=True)
class SeatRow:
    seat: str
    number: int  # 1-based position in the setup (the seat's colour index + 1)
    name: str
    colour: str
    rank: int | None  # place on the Protector Ranking (None: eliminated)
    bracket: int | None
    provinces: int
    units: int
    vp: int
    faction: str | None
    eliminated: bool
    realm: int | None  # only when the view holds it (GM view)


@dataclass(frozen=True)
class Arrow:
    seat: str
    src: str
    dst: str
    count: int
    golden: bool


@dataclass(frozen=True)
class BattleMark:
    province: str
    winner: str | None
    loser: str | None
    text: str
    fights: int = 1


@dataclass
class Scene:
    title: str
    subtitle: str
    gm: bool
    board: Board
    layout: Layout
    provinces: dict[str, ProvinceView]
    seats: list[SeatRow]
    seat_number: dict[str, int]
    colours: dict[str, str]
    dpl: int
    threshold: int
    tier: str
    cards: list[str]
    locked_cards: list[str]
    highlight_turn: int | None
    attack: str | None = None  # a Dragon Attack waiting for commitments, as text
    arrows: list[Arrow] = field(default_factory=list)
    battles: list[BattleMark] = field(default_factory=list)
    story: list[str] = field(default_factory=list)  # short lines: the turn's battles and Dragon


def seat_numbers(players: dict[str, Any]) -> dict[str, int]:
    """Seat -> 1-based number in setup order (the view's player order)."""
    return {s: i + 1 for i, s in enumerate(players)}


def short(seat: str | None, numbers: dict[str, int]) -> str:
    return f"#{numbers[seat]}" if seat in numbers else "-"


def scale_of_terror(dpl: int, total_min_us: int, provinces: int) -> str:
    """The Scale of Terror tier for ``dpl`` (rules: 003 Scale of Terror; ties at the boundary go
    to the higher tier: "Wurm: DPL >= total min.US")."""
    for name, mult in sorted(SCALE_OF_TERROR_MULTIPLES.items(), key=lambda kv: -kv[1]):
        if dpl >= math.ceil(mult * provinces):
            return name
    if dpl > 2 * total_min_us:
        return "Great Wurm"
    if dpl >= total_min_us and dpl > 0:
        return "Wurm"
    return "Wyrmling"


def total_min_us(view: dict[str, Any], board: Board) -> int:
    """rules: 003 "With great power..." — each active player's min.US is their green Provinces."""
    players = view["players"]
    return sum(1 for p in board.provinces
               if (pr := view["provinces"][p])["owner"] and not pr["burnt"]
               and not players.get(pr["owner"], {}).get("eliminated", False))


def build_scene(view: dict[str, Any], events: list[Any], highlight_turn: int | None,
                title: str | None = None) -> Scene:
    """The picture's content from a view dict (``game.view(seat)``) and the events that seat sees."""
    board = Board.from_setup(view["board"])
    layout = layout_for(board)
    players = view["players"]
    numbers = seat_numbers(players)
    colours = {s: seat_colour(i) for i, s in enumerate(players)}
    gm = "you" not in view
    provinces = {}
    for name in board.all_provinces:
        pr = view["provinces"][name]
        owner, holder = pr["owner"], pr["holder"]
        fill = BURNT if pr["burnt"] else colours.get(owner, NEUTRAL)
        line1 = name + (f" {ROMAN[pr['level']]}" if pr["level"] else "")
        if pr["units"]:
            line2 = f"{short(holder, numbers)} {UNIT_MARK}{pr['units']}"
        elif owner:
            line2 = short(owner, numbers)
        else:
            line2 = "burnt" if pr["burnt"] else ""
        provinces[name] = ProvinceView(name, fill, owner, holder, pr["units"], pr["level"], pr["burnt"],
                                       line1, line2)
    rank = {s: i + 1 for i, s in enumerate(view["ranking"])}
    seats = [SeatRow(seat=s, number=numbers[s], name=p["name"], colour=colours[s], rank=rank.get(s),
                     bracket=p.get("bracket"), provinces=p["provinces"], units=p["units"], vp=p["vp"],
                     faction=p.get("faction"), eliminated=p["eliminated"],
                     realm=p.get("realm") if gm else None)
             for s, p in players.items()]
    seats.sort(key=lambda r: (r.rank is None, r.rank or 0, r.number))
    tier = scale_of_terror(view["dpl"], total_min_us(view, board), len(board.provinces))
    step = view["step"]
    if title is None:
        title = f"Protectors of the Realm - turn {view['turn']}" + (" (game over)" if step == "over" else f", {step}")
    who = "GM view" if gm else f"view of {view['you']} (#{numbers[view['you']]})"
    scene = Scene(title=title, subtitle=f"{board.name} - {who}", gm=gm, board=board, layout=layout,
                  provinces=provinces, seats=seats, seat_number=numbers, colours=colours,
                  dpl=view["dpl"], threshold=view["power_threshold"], tier=tier, cards=list(view["cards"]),
                  locked_cards=list(view["locked_cards"]), highlight_turn=highlight_turn)
    if view.get("attack"):  # rules: 003 Dragon Attack; The Mythical Worldeater (DPL >= 3x #Provinces)
        att = view["attack"]
        who = "The Worldeater" if att.get("worldeater") else "The Dragon"
        scene.attack = f"{who} attacks now with DPL {att['dpl']} ({str(att.get('source', '')).replace('_', ' ')})"
    if highlight_turn is not None:
        add_highlights(scene, [e for e in events if e.turn == highlight_turn])
    return scene


def add_highlights(scene: Scene, events: list[Any]) -> None:
    """Arrows for marches, markers for battles, and a few story lines (rules: 003 March!, How to
    resolve battles, Resolving a Dragon Attack)."""
    n = scene.seat_number
    known = scene.layout.shapes
    for e in events:
        d = e.data
        if e.kind == "march" and d.get("src") in known and d.get("dst") in known:
            scene.arrows.append(Arrow(d["seat"], d["src"], d["dst"], int(d.get("count", 0)),
                                      bool(d.get("golden"))))
        elif e.kind == "battle" and d.get("province") in known:
            us = d.get("us", {})
            parts = " vs ".join(f"{short(s, n)} {v}" for s, v in us.items())
            win = short(d.get("winner"), n)
            prev = next((i for i, b in enumerate(scene.battles) if b.province == d["province"]), None)
            fights = 1 if prev is None else scene.battles[prev].fights + 1
            text = f"{win} won" + (f" ({fights} battles)" if fights > 1 else "")
            mark = BattleMark(d["province"], d.get("winner"), d.get("loser"), text, fights)
            if prev is None:
                scene.battles.append(mark)
            else:  # one marker per Province: the last battle's winner and how many were fought
                scene.battles[prev] = mark
            scene.story.append(f"Battle {d['province']}: {parts} US, {win} wins" + (" (tie)" if d.get("tie") else ""))
        elif e.kind == "dragon_battle":
            won = "Protectors win" if d.get("won") else "Dragon wins"
            scene.story.append(f"Dragon: US {d.get('protector_us')} vs DPL {d.get('dpl')}, {won}")
        elif e.kind == "wrath":
            scene.story.append(f"Wrath burns {', '.join(d.get('burnt', []))} of {short(d.get('seat'), n)}")
        elif e.kind == "eliminated":
            scene.story.append(f"{short(d.get('seat'), n)} eliminated ({d.get('by')})")
        elif e.kind == "seize" and d.get("province") in known:
            scene.story.append(f"{short(d.get('seat'), n)} seizes {d['province']}")
