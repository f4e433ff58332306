"""What one seat may see of a game (``Game.view``): public board, its own secrets, nothing else.

# rules: 003 Each Turn — orders and choices are secret until revealed; Factions — "All players will know
# which faction everyone is playing as"; Kalu'Ak Weather forecast / Palantír looks are that seat's alone.
"""

from __future__ import annotations

from typing import Any

from engine.errors import ValidationError
from engine.protectors.abilities import legal_abilities
from engine.protectors.deadlines import deadline_hours
from engine.protectors.factions import ability_flags
from engine.protectors.ranking import brackets
from engine.protectors.victory import power_threshold, victory_points


def seat_view(game: Any, seat: str | None) -> dict[str, Any]:
    st = game.state
    if seat is not None and seat not in st.players:
        raise ValidationError("seat", f"unknown seat {seat!r}")
    gm = seat is None
    b = brackets(st.active())
    players = {}
    for s, p in st.players.items():
        entry = {"name": p.name, "faction": p.faction, "team": p.team, "eliminated": p.eliminated,
                 "provinces": len(st.owned(s)), "units": st.units_of(s), "vp": victory_points(st, s),
                 "bracket": b.get(s)}
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
        "dpl": st.dpl, "power_threshold": power_threshold(st, False),
        "cards": [c for _, c in st.cards_this_turn], "locked_cards": [c for _, c in st.locked_cards],
        "players": players,
        "provinces": {p: {"owner": pr.owner, "units": pr.units, "level": pr.level, "burnt": pr.burnt,
                          "holder": st.holder(p)} for p, pr in st.provinces.items()},
        "result": st.result,
        "deadline_hours": deadline_hours(st),
        "options": {"version": st.options.version, "factions": st.options.factions, "teams": st.options.teams,
                    "faction_choice": st.options.faction_choice},
        "sanctum_holder": sanctum["holder"] if sanctum else None,
    }
    if st.attack:
        att = st.attack
        out["attack"] = {"dpl": att.dpl, "worldeater": att.worldeater, "source": att.source,
                         "bank_round": att.bank_round, "bank_seats": list(att.bank_seats) if att.bank_round else []}
        if att.bank_round:  # rules: 003 The Bank of Lannuvár — the others' choices are revealed to everyone
            out["attack"]["revealed"] = {s: [ln.text() for ln in d.lines()] for s, d in att.first.items()}
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
        out["peeks"] = [dict(p) for p in st.peeks.get(seat, [])]  # this orders step's looks, yours only
        if sanctum and sanctum["holder"] == seat:
            out["sanctum"] = dict(sanctum)
        out["abilities"] = [a.text() for a in legal_abilities(st, seat)] if seat in mine else []
    return out
