"""The channel picture holds nothing a player keeps secret (rules: 003 Each Turn: orders and choices
stay secret until they are revealed to all players at once), the seat picture only that seat's own
secrets, the GM picture everything; all of them name players as the text reports do.

Property-style: random games (board, seed, how far played, whether the seats' orders are in but
not yet carried out) get planted secrets with values found nowhere else: every seat's $Realm, a
secret bid, and private events for each seat (a peek at a deck, a march and a battle only that
seat is told of). The channel picture, its scene and its SVG must hold none of them, nor any
submitted order, nor any card still in a deck, nor any amount of money.
"""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.random_agent import RandomAgent
from agents.runner import SeatContext
from engine.protectors.events import emit
from engine.protectors.game import Game
from engine.protectors.report import display_names, public_report
from service.render import board_scene, render_board, render_summary
from tests.render.helpers import NAMES, all_text, svg_root

BOARDS = [("ring-5", 5), ("ring-7+island", 7), ("ring-16-grand", 16)]
# planted values (seat i gets value + 1013 * i): six or seven digits, found nowhere else on a picture
REALM, MARCH, FIGHT, BID = 9_400_000, 7_700_001, 8_800_001, 943_217
CARD = "Canary Card"


def play(board: str, seats: int, seed: int, steps: int, submitted: bool) -> Game:
    """Random agents play ``steps`` steps; with ``submitted`` every pending seat has then sent its
    decision, not yet carried out."""
    game = Game({"board": board, "seed": seed, "players": [{"name": NAMES[i]} for i in range(seats)]})
    agents = {s: RandomAgent(seed * 100 + i) for i, s in enumerate(game.state.players)}
    for k in range(steps + 1):
        if game.over or (k == steps and submitted and game.step == "bid"):
            break  # (the bids are planted: see plant)
        for p in game.pending():
            if not p.submitted:
                game.submit(p.seat, agents[p.seat].act(SeatContext(game, p.seat)))
        if k == steps and submitted:
            break
        game.advance(force=True)
    return game


def plant(game: Game) -> dict[str, dict[str, object]]:
    """Secrets with unmistakable values, each known to one seat (and the GM); returns them per seat."""
    st_ = game.state
    seats = list(st_.players)
    provinces = list(st_.provinces)
    out = {}
    for i, seat in enumerate(seats):
        st_.players[seat].realm = REALM + 1013 * i
        other = seats[(i + 1) % len(seats)]
        src, dst = provinces[i % len(provinces)], provinces[(i + 1) % len(provinces)]
        emit(st_, "peek", "test", f"{seat}: the top card of the dragon deck is {CARD} {i}.", private={seat},
             seat=seat, deck="dragon", card=f"{CARD} {i}")
        emit(st_, "march", "test", f"{seat} marches in secret.", private={seat}, seat=seat, src=src, dst=dst,
             count=MARCH + 1013 * i)
        emit(st_, "battle", "test", "a secret battle", private={seat}, province=dst,
             us={seat: FIGHT + 1013 * i, other: 1}, winner=seat, loser=other, tie=False)
        out[seat] = {"realm": REALM + 1013 * i, "march": MARCH + 1013 * i, "fight": FIGHT + 1013 * i}
    if game.step == "bid":  # a secret bid (rules: 003 Bidding), not yet revealed
        for i, p in enumerate(game.pending()):
            if not p.submitted:
                game.submit(p.seat, f"Bid {BID + 1013 * i}")
                out[p.seat]["bid"] = BID + 1013 * i
    return out


def values(obj, seen=None) -> list:
    """Every str and int held anywhere in a scene (dataclasses, dicts, lists; not the board's shape)."""
    out: list = []
    stack = [obj]
    while stack:
        o = stack.pop()
        if isinstance(o, bool) or o is None or isinstance(o, float | np.ndarray):
            continue
        if isinstance(o, str | int):
            out.append(o)
        elif isinstance(o, dict):
            stack.extend(o.keys())
            stack.extend(o.values())
        elif isinstance(o, list | tuple | set | frozenset):
            stack.extend(o)
        elif dataclasses.is_dataclass(o) and type(o).__name__ not in ("Board", "Layout"):
            stack.extend(getattr(o, f.name) for f in dataclasses.fields(o))
    return out


def leaks(held: list, text: str, secrets: list[int], words: list[str]) -> list[str]:
    found = [f"value {v}" for v in secrets if v in held or str(v) in text]
    found += [f"text {w!r}" for w in words if w in text or any(isinstance(h, str) and w in h for h in held)]
    return found


def hidden_words(game: Game) -> list[str]:
    """Submitted orders and the cards still in the decks (unless also public: in play or told)."""
    gm = game.view(None)
    public = set(gm["cards"]) | set(gm["locked_cards"])
    public |= {e.data.get("card") for e in game.state.events if e.visible_to is None}
    orders = [line for lines in gm["submissions"].values() for line in lines]
    deck = [c for cards in gm["decks"].values() for c in cards if c not in public]
    return orders + deck + [CARD]


@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(board=st.sampled_from(BOARDS), seed=st.integers(1, 60), steps=st.integers(0, 14), submitted=st.booleans())
def test_channel_picture_holds_no_secret(board, seed, steps, submitted):
    game = play(*board, seed, steps, submitted)
    planted = plant(game)
    secrets = [v for per in planted.values() for v in per.values()]
    words = hidden_words(game)
    scene = board_scene(game, None, view="channel")
    svg = render_board(game, None, fmt="svg", view="channel")
    text = all_text(svg_root(svg))
    assert leaks(values(scene), text, secrets, words) == []
    assert not re.search(r"\$\s?\d", text), "the channel picture shows an amount of money"
    assert all(r.realm is None for r in scene.seats) and scene.mode == "channel"
    for turn in range(1, game.state.turn):  # and every past turn's channel picture (replayed)
        past = board_scene(game, None, turn=turn, view="channel")
        assert leaks(values(past), "", secrets, [CARD]) == []
        public = [e for e in game.state.events if e.turn == turn and e.visible_to is None and e.kind == "march"]
        assert [(a.src, a.dst, a.count) for a in past.arrows] == [
            (e.data["src"], e.data["dst"], e.data["count"]) for e in public]


@settings(max_examples=15, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(board=st.sampled_from(BOARDS), seed=st.integers(1, 60), steps=st.integers(1, 12))
def test_seat_picture_holds_its_own_secrets_only_and_gm_all(board, seed, steps):
    game = play(*board, seed, steps, submitted=False)
    planted = plant(game)
    seats = list(planted)
    me = seats[seed % len(seats)]
    mine, theirs = planted[me], [v for s, per in planted.items() if s != me for v in per.values()]
    scene = board_scene(game, me)
    held = values(scene)
    assert leaks(held, "", theirs, [f"{CARD} {i}" for i, s in enumerate(seats) if s != me]) == []
    assert mine["realm"] in held and mine["march"] in held and mine["fight"] in held  # its own: shown
    gm = values(board_scene(game, None))
    assert all(per["realm"] in gm and per["march"] in gm for per in planted.values())  # the GM sees all


def test_the_leak_check_finds_a_leak():
    """Not vacuous: the GM's picture (which shows every $Realm) fails the channel's check."""
    game = play("ring-5", 5, 3, 3, submitted=True)
    planted = plant(game)
    secrets = [v for per in planted.values() for v in per.values()]
    text = all_text(svg_root(render_board(game, None, fmt="svg", view="gm")))
    assert leaks([], text, secrets, []) and leaks(values(board_scene(game, None, view="gm")), "", secrets, [])


@pytest.mark.parametrize("view", ["gm", "channel", "seat"])
def test_pictures_name_players_as_the_text_reports_do(view):
    """Display names everywhere, the same as engine/protectors/report.py's; never a seat id."""
    game = play("ring-7", 7, 7, 6, submitted=False)
    names = display_names(game.state)
    seat = "Player#3" if view == "seat" else None
    report = public_report(game.state, turn=2, seat=seat)
    scene = board_scene(game, seat, turn=2, view=view)
    assert {r.seat: r.name for r in scene.seats} == names
    text = all_text(svg_root(render_board(game, seat, turn=2, fmt="svg", view=view)))
    assert "Player#" not in text and "Player#" not in report
    for seat_id, name in names.items():
        assert name in text, f"{seat_id}'s name {name!r} is not on the picture"
    told = [n for n in names.values() if n in report]
    assert told and all(any(n in line for line in scene.story) or n in text for n in told)
    summary = all_text(svg_root(render_summary(game, seat, fmt="svg", view=view)))
    assert "Player#" not in summary and all(n in summary for n in names.values())
