"""What one seat may see of a game (``Game.view``): public board, its own secrets, nothing else.

# rules: 003 Each Turn — orders and choices are secret until revealed; Factions — "All players will know
# which faction everyone is playing as"; Kalu'Ak Weather forecast / Palantír looks are that seat's alone.
"""

from __future__ import annotations

import copy
import random
from dataclasses import replace
from typing import Any

from engine.errors import ValidationError
from engine.protectors.abilities import legal_abilities
from engine.protectors.cards import Deck
from engine.protectors.deadlines import deadline_hours
from engine.protectors.dragon import threshold_now
from engine.protectors.factions import ability_flags
from engine.protectors.peeks import look_text
from engine.protectors.ranking import brackets
from engine.protectors.state import GameState, Player
from engine.protectors.victory import standings


def seat_view(game: Any, seat: str | None) -> dict[str, Any]:
    st = game.state
    if seat is not None and seat not in st.players:
        raise ValidationError("seat", f"unknown seat {seat!r}")
    gm = seat is None
    b = brackets(st.active())
    count, vps = standings(st)  # every seat's Provinces and VPs in one pass over the board ...
    units = st.units_by_holder()  # ... and its Army Units in one more
    players = {}
    for s, p in st.players.items():
        entry = {"name": p.name, "faction": p.faction, "team": p.team, "eliminated": p.eliminated,
                 "provinces": count[s], "units": units[s], "vp": vps[s], "bracket": b.get(s)}
        if gm or s == seat:
            entry["realm"] = p.realm
            entry["used_abilities"] = sorted(p.used)
            entry["abilities"] = sorted(ability_flags(st, s))
            entry["bank_active"] = p.bank_until is not None
            entry["mountain_king_offer"] = p.offer_turn is not None
        players[s] = entry
    sanctum = st.sanctum
    out: dict[str, Any] = {
        "turn": st.turn, "step": st.step, "board": st.board.to_setup(), "island": st.board.island,
        "ranking": st.active(),
        "dpl": st.dpl, "power_threshold": threshold_now(st),  # Bloodlust! included: the one that triggers
        "cards": [c for _, c in st.cards_this_turn], "locked_cards": [c for _, c in st.locked_cards],
        "players": players,
        "provinces": _provinces(st),
        "result": st.result,
        "deadline_hours": deadline_hours(st),
        "options": st.options.as_dict(),  # public: agreed at setup, reading options included
        # rules: 003 Ashes of Power — the burnt Provinces "left behind from the Dragon eliminating a
        # player" (public: everyone saw the Wrath that eliminated their owner)
        "ashes": st.board.by_number(st.ashes),
        "sanctum_holder": sanctum["holder"] if sanctum else None,
    }
    if st.attack:
        out["attack"] = _attack(st)
    mine = game.deciding_seats()
    if gm:
        out["pending"] = [p.to_dict() for p in game.pending()]
        out["submissions"] = {s: [ln.text() for ln in d.lines()] for s, d in st.submissions.items()}
        out["next_bids"] = dict(st.next_bids)
        out["decks"] = {d: list(deck.draw) for d, deck in st.decks.items()}
        out["peeks"] = {s: list(v) for s, v in st.peeks.items()}
        out["sanctum"] = dict(sanctum) if sanctum else None
    else:
        out["you"] = seat
        out["pending"] = [p.to_dict() for p in game.pending(seat)] if seat in mine else []
        if seat in st.submissions:
            out["submitted"] = [ln.text() for ln in st.submissions[seat].lines()]
        if seat in st.next_bids:
            out["your_next_bid"] = st.next_bids[seat]
        # this turn's looks (from its orders step on), yours only, each with the words its seat reads
        out["peeks"] = [{**p, "text": look_text(p)} for p in st.peeks.get(seat, [])]
        if sanctum and sanctum["holder"] == seat:
            out["sanctum"] = dict(sanctum)
        out["abilities"] = [a.text() for a in legal_abilities(st, seat)] if seat is not None and seat in mine else []
    return out


def _provinces(st: GameState) -> dict[str, dict[str, Any]]:
    return {p: {"owner": pr.owner, "units": pr.units, "level": pr.level, "burnt": pr.burnt, "holder": st.holder(p)}
            for p, pr in st.provinces.items()}


def _attack(st: GameState) -> dict[str, Any]:
    """The Dragon Attack waiting for commitments, as everyone sees it."""
    att = st.attack
    assert att is not None
    out: dict[str, Any] = {"dpl": att.dpl, "worldeater": att.worldeater, "source": att.source,
                           "bank_round": att.bank_round, "bank_seats": list(att.bank_seats) if att.bank_round else []}
    if att.bank_round:  # rules: 003 The Bank of Lannuvár — the others' choices are revealed to everyone
        out["revealed"] = {s: [ln.text() for ln in d.lines()] for s, d in att.first.items()}
    return out


def board_view(game: Any, seat: str) -> dict[str, Any]:
    """The part of ``seat_view(game, seat)`` an agent reading the board needs, at half its cost (the heuristic's
    decisions read it, by the thousand in ``expert``'s play-outs): ``you``, the turn, the board and the Island, its
    Provinces, every seat's Army Units, ranking bracket and whether it is eliminated, the ranking, the DPL, the
    attack and the options. All public; every key and every player's key holds what the seat's view holds under it
    (tests/protectors/test_views_board.py), so it tells the seat nothing its view does not."""
    st = game.state
    if seat not in st.players:
        raise ValidationError("seat", f"unknown seat {seat!r}")
    b = brackets(st.active())
    units = st.units_by_holder()
    out: dict[str, Any] = {
        "you": seat, "turn": st.turn, "step": st.step, "board": st.board.to_setup(), "island": st.board.island,
        "ranking": st.active(), "dpl": st.dpl, "options": st.options.as_dict(),
        "players": {s: {"eliminated": p.eliminated, "units": units[s], "bracket": b.get(s)}
                    for s, p in st.players.items()},
        "provinces": _provinces(st),
    }
    if st.attack:
        out["attack"] = _attack(st)
    return out


def seat_state(st: GameState, seat: str) -> GameState:
    """A copy of the state holding only what ``seat`` may know: the same redaction as ``seat_view``.

    For code that wants the state's shape (planners, observation encoders) without the power to read
    secrets by accident: other seats' $Realm, used abilities, Bank and Mountain King deals, their
    unrevealed submissions and set-aside bids, their ledger lines and private events, their looks at
    the decks and the Sanctum's details are gone; every draw pile is in a fixed (sorted) order and the
    random generator is a fresh one, so nothing can peek at future draws.
    """
    if seat not in st.players:
        raise ValidationError("seat", f"unknown seat {seat!r}")
    out = _shallow(st)
    out.players = {s: _player_copy(p, own=s == seat) for s, p in st.players.items()}
    out.provinces = {p: pr.copy() for p, pr in st.provinces.items()}
    out.rng = random.Random(0)
    out.decks = {d: Deck(deck.name, sorted(deck.draw), list(deck.discard)) for d, deck in st.decks.items()}
    out.submissions = {s: d for s, d in st.submissions.items() if s == seat}
    out.next_bids = {s: b for s, b in st.next_bids.items() if s == seat}
    out.peeks = {s: [dict(x) for x in v] for s, v in st.peeks.items() if s == seat}
    out.ledger = [row for row in st.ledger if row[1] == seat]
    out.events = [e for e in st.events if e.visible_to is None or seat in e.visible_to]
    if st.sanctum and st.sanctum["holder"] != seat:
        out.sanctum = {"holder": st.sanctum["holder"], "kind": None, "key": None, "pending": False}
    elif st.sanctum:
        out.sanctum = dict(st.sanctum)
    if st.attack is not None:
        out.attack = replace(st.attack, first=dict(st.attack.first) if st.attack.bank_round else {})
    # the rest is public; fresh containers so the copy can be changed without touching the game
    for name in ("ranking", "cards_this_turn", "locked_cards", "reveal_queue", "eliminated_this_turn",
                 "pending_attacks", "history"):
        setattr(out, name, list(getattr(st, name)))
    out.rebid_groups = [list(g) for g in st.rebid_groups]
    for name in ("bids_spent", "orders", "work_orders", "golden_work_done", "pirates_due"):
        setattr(out, name, dict(getattr(st, name)))
    out.used_this_turn = {s: set(v) for s, v in st.used_this_turn.items() if s == seat}
    return out


def _player_copy(p: Player, own: bool) -> Player:
    q = _shallow(p)
    if own:
        q.used, q.used_turn, q.gained = set(p.used), set(p.used_turn), set(p.gained)
    else:
        q.realm, q.used, q.used_turn, q.gained, q.bank_until, q.offer_turn = 0, set(), set(), set(), None, None
    return q


def _shallow(obj):
    """A shallow copy of a plain dataclass instance (what copy.copy does, without its dispatch)."""
    cls = type(obj)
    if cls.__new__ is not object.__new__:  # a mypyc-compiled class (tools/build_fast.py) makes its own
        return copy.copy(obj)
    new = object.__new__(cls)
    if hasattr(obj, "__dict__"):
        new.__dict__.update(obj.__dict__)
    else:  # slotted
        for name in obj.__slots__:
            object.__setattr__(new, name, getattr(obj, name))
    return new
