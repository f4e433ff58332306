"""A game in progress as a plain map: ``export_position`` here; the import side (``setup["position"]``)
is ``position_import.import_position``, which ``Game(setup)`` runs.

The position holds everything the GM knows that the rules read later: the board, the players'
$Realm, VP and abilities, the cards (in play, locked, every draw and discard pile), the step the
game waits in with its pending Dragon Attack or re-bid groups, decisions already submitted, and the
engine's random generator. Importing an exported position and playing on with the same decisions
gives the same game as the original (tests/protectors/test_position_roundtrip.py). A GM who types a
running game in gives only what they know; every key has a default (docs/positions.md lists them).

One VP meaning everywhere: ``vp`` is the number the view and the result show, a seat's Provinces'
VP plus the VP it earned against the Dragon (rules: 003 Time's Up!).
"""

from __future__ import annotations

import base64
import struct
from typing import Any

from engine.errors import ValidationError
from engine.protectors import consolidation as cons
from engine.protectors.state import BANK_BID, GameState
from engine.protectors.victory import standings

RNG_WORDS = 625  # random.Random.getstate()[1]: the Mersenne Twister's 624 words and its index


def before_position(setup: dict[str, Any], turn: int | None, missing: str) -> str | None:
    """Why ``turn`` cannot be shown in a game set up from a position at a later turn (docs/positions.md: what came
    before the import is not carried), ending with ``missing`` ("the event log before that is not carried"), or
    None when it can."""
    start = (setup.get("position") or {}).get("turn")
    if turn is None or not isinstance(start, int) or isinstance(start, bool) or turn >= start:
        return None
    return f"turn {turn} predates this game's start: it was brought in as a position at turn {start}, and {missing}"


def steps_before(setup: dict[str, Any]) -> int:
    """The steps resolved before ``setup``'s position, over the game's whole life (``position.steps_resolved``, which
    the import checked; 0 for a game begun at turn 1 or a position typed in without it). AI seats' dice are keyed by
    the steps resolved (service/ai.decision_seed): a game made from an export counts on from here, so its AI seats
    decide as they would have in the game exported."""
    position = setup.get("position")
    steps = position.get("steps_resolved", 0) if isinstance(position, dict) else 0
    return steps if isinstance(steps, int) and not isinstance(steps, bool) else 0


def steps_resolved(game: Any) -> int:
    """The steps ``game`` has resolved since it began: those before its position, then its own ``advance`` actions."""
    return steps_before(game.setup) + sum(1 for action in game.actions if action[0] == "advance")


# -- export --------------------------------------------------------------------------------------
def export_position(game: Any) -> dict[str, Any]:
    """The whole game as the GM knows it, as a position map (JSON and msgpack friendly)."""
    st: GameState = game.state
    _, vps = standings(st)
    pos: dict[str, Any] = {"turn": st.turn, "step": st.step, "ranking": list(st.ranking), "dpl": st.dpl,
                           "realm": {s: p.realm for s, p in st.players.items()}, "vp": vps}
    out = {}
    for prov, pr in st.provinces.items():
        d: dict[str, Any] = {"owner": pr.owner, "units": pr.units, "level": pr.level, "burnt": pr.burnt}
        if pr.occupant is not None:
            d["occupant"] = pr.occupant
        out[prov] = d
    pos["provinces"] = out
    if st.ashes:
        pos["ashes"] = st.board.by_number(st.ashes)
    gone = {s: {"turn": p.eliminated_turn, "by": p.eliminated_by} for s, p in st.players.items() if p.eliminated}
    if gone:
        pos["eliminated"] = gone
    if st.eliminated_this_turn:
        pos["eliminated_this_turn"] = list(st.eliminated_this_turn)
    per_seat = {
        "factions": {s: p.faction for s, p in st.players.items() if p.faction},
        "used_abilities": {s: sorted(p.used) for s, p in st.players.items() if p.used},
        "gained_abilities": {s: sorted(p.gained) for s, p in st.players.items() if p.gained},
        "effects": {s: sorted(p.used_turn) for s, p in st.players.items() if p.used_turn},
        "used_this_turn": {s: sorted(v) for s, v in st.used_this_turn.items()},
        "bank_until": {s: p.bank_until for s, p in st.players.items() if p.bank_until is not None},
        "offer_turn": {s: p.offer_turn for s, p in st.players.items() if p.offer_turn is not None},
        "bids": dict(st.next_bids),
        # the bank_bid step reveals the others' bids, naming those reduced to what the seat held
        "bids_asked": cons.reduced_bids(st) if st.step == BANK_BID else {},
        "pirates_due": dict(st.pirates_due),
        "golden_work_done": dict(st.golden_work_done),
        "work_orders": {p: {"seat": s, "golden": g} for p, (s, g) in st.work_orders.items()},
    }
    pos.update({k: v for k, v in per_seat.items() if v})
    if st.rebid_groups:
        pos["rebid_groups"] = [list(g) for g in st.rebid_groups]
    pos["cards_in_play"] = [c for _, c in st.cards_this_turn]
    pos["locked_cards"] = [c for _, c in st.locked_cards]
    pos["reveal_queue"] = list(st.reveal_queue)
    pos["end_is_nigh"] = st.end_is_nigh
    pos["times_up"] = st.times_up
    pos["decks"] = {d: {"draw": list(k.draw), "discard": list(k.discard)} for d, k in st.decks.items()}
    pos["peeks"] = {s: [dict(x) for x in v] for s, v in st.peeks.items()}
    pos["sanctum"] = dict(st.sanctum) if st.sanctum else None
    if st.pending_attacks:
        pos["pending_attacks"] = list(st.pending_attacks)
    if st.attack is not None:
        a = st.attack
        pos["attack"] = {"dpl": a.dpl, "source": a.source, "worldeater": a.worldeater,
                         "participants": list(a.participants), "grand_protector": a.grand_protector,
                         "ranking_before": list(a.ranking_before), "bank_seats": list(a.bank_seats),
                         "bank_round": a.bank_round, "first": {s: list(d.texts) for s, d in a.first.items()}}
    if st.resume is not None:
        pos["resume"] = st.resume
    if st.orders:
        pos["orders"] = {s: list(d.texts) for s, d in st.orders.items()}
    if st.submissions:
        pos["submissions"] = {s: list(d.texts) for s, d in st.submissions.items()}
    if st.history:
        pos["history"] = [_history_entry(h) for h in st.history]
    if st.result is not None:
        pos["result"] = dict(st.result)
    pos["starts"] = {s: p.start for s, p in st.players.items()}  # position_starts: what the steward retakes
    pos["rng"] = encode_rng(st.rng.getstate())
    pos["steps_resolved"] = steps_resolved(game)
    return pos


def _history_entry(h: dict[str, Any]) -> dict[str, Any]:
    """A copy of one finished turn's record (GameState.history), its maps and lists copied too."""
    out: dict[str, Any] = {}
    for k, v in h.items():
        if isinstance(v, dict):
            out[k] = {a: (dict(b) if isinstance(b, dict) else list(b) if isinstance(b, list) else b)
                      for a, b in v.items()}
        elif isinstance(v, list):
            out[k] = list(v)
        else:
            out[k] = v
    return out


def encode_rng(state: tuple) -> str:
    """``random.Random.getstate()`` as text: its 625 32-bit words, little-endian, base64."""
    return base64.b64encode(struct.pack(f"<{RNG_WORDS}I", *state[1])).decode("ascii")


def decode_rng(text: Any, field: str = "position.rng") -> tuple:
    if not isinstance(text, str):
        raise ValidationError(field, "must be the text export_position wrote")
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
        words = struct.unpack(f"<{RNG_WORDS}I", raw)
    except (ValueError, struct.error, UnicodeError) as err:
        raise ValidationError(field, f"not a random generator state ({err})") from err
    if words[-1] > 624:
        raise ValidationError(field, "not a random generator state (index out of range)")
    return (3, tuple(words), None)
