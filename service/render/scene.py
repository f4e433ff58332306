"""What a board picture shows, as plain data built from a view dict and the events it may see.

Nothing here reads ``game.state``: the picture holds exactly what its view and visible events
hold, so secrecy follows the engine's own view rules (a seat's view), or the public view built in
:mod:`service.render.channel` (the channel picture). The GM (seat ``None``) sees everything,
including every seat's $Realm. The march paths are computed here (``paths.py``, board data units);
where every text goes, battle boxes included, is the label model's (``labels.py``, ``panel.py``), so
tests check the geometry without drawing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.protectors import mountain_king
from engine.protectors.board import Board
from engine.protectors.victory import how_told, team_told
from service.render.glyphs import picture_name
from service.render.layout import BATTLE_SCALE, Layout, layout_for
from service.render.palette import BURNT, NEUTRAL, seat_colour
from service.render.paths import march_path

# rules: 003 Golden Work, work! — a Province's level (0-3). Written "Lv2", never as a Roman
# numeral: "P2 I" reads as "P21".
LEVEL_MARK = "Lv"
UNIT_MARK = "\u2694"  # crossed swords before a unit count
BATTLE_MARK = "\u2605"  # a star before a battle line
MOUNTAIN_KING_MARK = "MK"  # the Mountain King's side on a battle mark (no seat number)
# rules: 003 Scale of Terror. The rulebook prints the same condition ("DPL >= 2x number of all
# Provinces") for Dragon, Ancient Dragon and Worldbreaker; we read them as rising multiples of
# #Provinces, ending at the Worldeater's 3x (rules: 003 The Mythical Worldeater). See
# docs/assumptions.md, SCALE_OF_TERROR_MULTIPLES.
SCALE_OF_TERROR_MULTIPLES = {"Dragon": 2.0, "Ancient Dragon": 2.5, "Worldbreaker": 3.0}
VIEWS = ("gm", "channel", "seat")
STORY_NAME_CHARS = 16  # a longer display name is cut in the story lines (the legend has it whole)
ATTACK_SOURCES = {"threshold": "the Power Threshold is reached", "elimination": "a Protector was eliminated",
                  "card": "a card", "worldeater": "the Worldeater"}


@dataclass(frozen=True)
class ProvinceView:
    name: str
    fill: str
    owner: str | None
    holder: str | None
    units: int
    level: int
    burnt: bool
    line1: str  # "P12 Lv3"
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
    realm: int | None  # only when the view holds it and the picture may show it
    colour_name: str = ""  # what players call the seat's colour (Game.colours()), for the legend
    team: str | None = None  # team games: public (rules: 003 Team Games)


@dataclass(frozen=True)
class Arrow:
    seat: str
    src: str
    dst: str
    count: int
    golden: bool
    delayed: bool = False
    sea: bool = False  # a sea move (Seafarers!, Ferry!, the Island): crosses the central sea
    points: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)), compare=False, repr=False)


@dataclass(frozen=True)
class BattleMark:
    """The battle line under a Province's label: ``★#4 2:1 #3`` = seat #4 beat seat #3, 2 US to 1."""

    province: str
    winner: str | None
    loser: str | None
    text: str
    fights: int = 1
    us: dict[str, int] = field(default_factory=dict, compare=False)
    at: tuple[float, float] = (0.0, 0.0)  # centre of the battle line, inside the Province
    rotation: float = 0.0
    fontsize: float = 8.0


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
    mode: str = "gm"  # "gm" | "channel" | "seat"
    attack: str | None = None  # a Dragon Attack under way (waiting for commitments), as text
    coming: str | None = None  # a Dragon Attack queued for the start of the next turn, as text
    note: str | None = None  # e.g. "no moves yet this turn"
    arrows: list[Arrow] = field(default_factory=list)
    battles: list[BattleMark] = field(default_factory=list)
    story: list[str] = field(default_factory=list)  # short lines: the turn's battles and Dragon
    names: dict[str, str] = field(default_factory=dict)  # seat -> display name


def seat_numbers(players: dict[str, Any]) -> dict[str, int]:
    """Seat -> 1-based number in setup order (the view's player order)."""
    return {s: i + 1 for i, s in enumerate(players)}


def display_names(players: dict[str, Any]) -> dict[str, str]:
    """Seat -> the player's display name (``Player#N`` when none was given), as the text reports, in what the
    pictures' font can draw (``glyphs.picture_name``: ``🐉Drago`` is drawn ``Drago``, ``李雷`` as its seat)."""
    return {s: picture_name(str(p.get("name") or s), s) for s, p in players.items()}


def outcome(result: dict[str, Any], teams: bool, names: dict[str, str], numbers: dict[str, int]) -> str:
    """A finished game's end as its pictures say it: the rulebook's name for it and who won (a team in a team
    game, rules: 003 Team Games), as ``Fire and blood! The Dragon wins`` or ``Time's Up!: Ana (#3)``."""
    how = how_told(result.get("how"))
    win = result.get("winner")
    if win and teams:
        return f"{how}: {team_told(str(win))}"
    return how + (f": {names.get(win, win)}" + (f" (#{numbers[win]})" if win in numbers else "") if win else "")


def short(seat: str | None, numbers: dict[str, int]) -> str:
    if seat == mountain_king.SIDE:
        return MOUNTAIN_KING_MARK
    return f"#{numbers[seat]}" if seat in numbers else "-"


def level_text(level: int) -> str:
    return f"{LEVEL_MARK}{level}" if level else ""


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


def build_scene(view: dict[str, Any], events: list[Any], highlight_turn: int | None, title: str | None = None,
                mode: str = "gm", cards: list[str] | None = None, coming: list[str] | tuple[str, ...] = (),
                note: str | None = None, colour_names: dict[str, str] | None = None) -> Scene:
    """The picture's content from a view dict (``game.view(seat)``, or the channel's public view)
    and the events that view may see. ``cards``: the cards to list (default: the view's);
    ``coming``: Dragon Attacks queued for the next turn (their sources); ``colour_names``: each
    seat's colour as players name it (``Game.colours()``; public, rules: 003 Orders)."""
    board = Board.from_setup(view["board"])
    layout = layout_for(board)
    players = view["players"]
    numbers = seat_numbers(players)
    names = display_names(players)
    colours = {s: seat_colour(i) for i, s in enumerate(players)}
    you = view.get("you")
    provinces = {}
    for name in board.all_provinces:
        pr = view["provinces"][name]
        owner, holder = pr["owner"], pr["holder"]
        fill = BURNT if pr["burnt"] else colours.get(owner, NEUTRAL)
        line1 = " ".join(x for x in (name, level_text(pr["level"])) if x)
        if pr["units"]:
            line2 = f"{short(holder, numbers)} {UNIT_MARK}{pr['units']}"
        elif owner:
            line2 = short(owner, numbers)
        else:
            line2 = "burnt" if pr["burnt"] else ""
        provinces[name] = ProvinceView(name, fill, owner, holder, pr["units"], pr["level"], pr["burnt"],
                                       line1, line2)
    rank = {s: i + 1 for i, s in enumerate(view["ranking"])}

    def realm_of(s: str) -> int | None:
        # $Realm: the GM sees every seat's, a seat (in its own DM picture) its own, the channel none
        if mode == "gm" or (mode == "seat" and s == you):
            return players[s].get("realm")
        return None

    seats = [SeatRow(seat=s, number=numbers[s], name=names[s], colour=colours[s], rank=rank.get(s),
                     bracket=p.get("bracket"), provinces=p["provinces"], units=p["units"], vp=p["vp"],
                     faction=p.get("faction"), eliminated=p["eliminated"], realm=realm_of(s),
                     colour_name=(colour_names or {}).get(s, ""),
                     team=str(p["team"]) if p.get("team") is not None else None)
             for s, p in players.items()]
    seats.sort(key=lambda r: (r.rank is None, r.rank or 0, r.number))
    tier = scale_of_terror(view["dpl"], total_min_us(view, board), len(board.provinces))
    step = view["step"]
    if title is None:
        title = f"Protectors of the Realm - turn {view['turn']}" + (" (game over)" if step == "over" else f", {step}")
    if mode == "gm":
        who = "GM view"
    elif mode == "channel":
        who = "public view: what every player may see"
    else:
        who = f"{names[you]}'s view (#{numbers[you]}; private, for their DM)"
    # a finished game's board says how it ended and who won, as its summary picture's title does (in the subtitle,
    # which the panel cuts to the room left of the ranking: the title, in a larger font, ran into it)
    ended = view.get("result")
    told = f"{outcome(ended, bool(view['options'].get('teams')), names, numbers)} - " if ended else ""
    scene = Scene(title=title, subtitle=f"{told}{board.name} - {who}", gm=mode == "gm", board=board, layout=layout,
                  provinces=provinces, seats=seats, seat_number=numbers, colours=colours,
                  dpl=view["dpl"], threshold=view["power_threshold"], tier=tier,
                  cards=list(view["cards"] if cards is None else cards),
                  locked_cards=list(view["locked_cards"]), highlight_turn=highlight_turn, mode=mode, note=note,
                  names=names)
    if view.get("attack"):  # rules: 003 Dragon Attack; The Mythical Worldeater (DPL >= 3x #Provinces)
        att = view["attack"]
        who = "The Worldeater" if att.get("worldeater") else "The Dragon"
        scene.attack = f"{who} attacks now with DPL {att['dpl']} ({str(att.get('source', '')).replace('_', ' ')})"
    if coming:  # rules: 003 Dragon Attack — an elimination past the threshold queues an attack
        why = ", ".join(ATTACK_SOURCES.get(c, str(c).replace("_", " ")) for c in coming)
        scene.coming = f"Dragon Attack coming at the start of turn {view['turn']} ({why})"
    if highlight_turn is not None:
        add_highlights(scene, [e for e in events if e.turn == highlight_turn])
    return scene


def _who(seat: str | None, scene: Scene) -> str:
    if seat == mountain_king.SIDE:  # rules: 003 Hodir — His Regards fights as no seat
        return mountain_king.SIDE_NAME
    if seat not in scene.seat_number:
        return "-"
    name = scene.names.get(seat, seat)
    if len(name) > STORY_NAME_CHARS:
        name = name[:STORY_NAME_CHARS - 1] + "\u2026"
    return f"#{scene.seat_number[seat]} {name}"


def add_highlights(scene: Scene, events: list[Any]) -> None:
    """March paths, battle lines, and a few story lines (rules: 003 March!, Delayed March!, How to
    resolve battles, Resolving a Dragon Attack)."""
    lay = scene.layout
    known = lay.shapes
    drawn: dict[tuple[str, str], int] = {}
    for e in events:
        d = e.data
        if e.kind == "march" and d.get("src") in known and d.get("dst") in known:
            src, dst = d["src"], d["dst"]
            k = drawn.get((src, dst), 0)
            drawn[(src, dst)] = k + 1
            points, sea = march_path(lay, scene.board, src, dst, k)
            scene.arrows.append(Arrow(d["seat"], src, dst, int(d.get("count", 0)), bool(d.get("golden")),
                                      bool(d.get("delayed")), sea, points))
        elif e.kind == "battle" and d.get("province") in known:
            _add_battle(scene, d)
        elif e.kind == "dragon_battle":
            won = "Protectors win" if d.get("won") else "Dragon wins"
            scene.story.append(f"Dragon: US {d.get('protector_us')} vs DPL {d.get('dpl')}, {won}")
        elif e.kind == "wrath":
            scene.story.append(f"Wrath burns {', '.join(d.get('burnt', []))} of {_who(d.get('seat'), scene)}")
        elif e.kind == "eliminated":
            scene.story.append(f"{_who(d.get('seat'), scene)} eliminated ({d.get('by')})")
        elif e.kind == "seize" and d.get("province") in known:
            scene.story.append(f"{_who(d.get('seat'), scene)} seizes {d['province']}")
    for a in scene.arrows:
        if a.sea:
            scene.story.append(f"By sea: {_who(a.seat, scene)} {a.src} -> {a.dst} ({a.count})")


def _add_battle(scene: Scene, d: dict[str, Any]) -> None:
    n, lay = scene.seat_number, scene.layout
    prov = d["province"]
    us = {s: int(v) for s, v in d.get("us", {}).items()}
    winner, loser = d.get("winner"), d.get("loser")
    # rules: 003 Hodir — His Regards wins for the Hodir seat, who did not fight: the mark shows who fought
    side = mountain_king.SIDE if d.get("mountain_king") and winner not in us else winner
    prev = next((i for i, b in enumerate(scene.battles) if b.province == prov), None)
    fights = 1 if prev is None else scene.battles[prev].fights + 1
    text = f"{BATTLE_MARK}{short(side, n)} {us.get(side, 0)}:{us.get(loser, 0)} {short(loser, n)}"
    if fights > 1:
        text += f" +{fights - 1}"
    mark = BattleMark(prov, winner, loser, text, fights, us, at=lay.line_at(prov, 1.0),
                      rotation=lay.rotation.get(prov, 0.0), fontsize=lay.label_pt * BATTLE_SCALE)
    if prev is None:
        scene.battles.append(mark)
    else:  # one line per Province: the last battle's winner and how many were fought there
        scene.battles[prev] = mark
    parts = " vs ".join(f"{_who(s, scene)} {v}" for s, v in us.items())
    won = mountain_king.SIDE_NAME if side == mountain_king.SIDE else short(winner, n)
    scene.story.append(f"Battle {prov}: {parts} US; {won} wins" + (" (tie)" if d.get("tie") else ""))
