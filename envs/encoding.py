"""The observation: one fixed-size float32 vector of what a seat may see, plus the current choice.

It reads only fields that ``Game.view(seat)`` shows that seat (public board, public player facts,
the seat's own $Realm and set-aside bid, cards, DPL, the attack) — never another seat's $Realm,
bids, orders or commitments, nor the decks. The board part is built once per engine decision
(``encode_board``) and the small decision part per choice (``encode_choice``), so a choice costs
a copy of a cached array, not a view rebuild.

Players are rotated so slot 0 is the observing seat; Provinces sit at their number (P0 = the
Island). Sizes cover 16 players and ring-16-grand+island; unused slots are zero.

==============  ===========  =========================================================================
block           size         features (each slot)
==============  ===========  =========================================================================
global          G_SIZE       turn/12; step one-hot (6); DPL/(3 #Prov); threshold/(2 #Prov); DPL/threshold;
                             own $Realm/500; own $Realm >=250; >=350; own set-aside bid/500; attack on;
                             attack DPL/(3 #Prov); Worldeater; #players/16; #active/16; #Prov/32;
                             grand; Island; factions; teams; cards in play (one-hot over CARD_NAMES);
                             golden orders allowed (march, support, fortify, work)
players         16 x P_F     present; active; is me; Provinces/#Prov; units/(3 #Prov); VP/30;
                             bracket one-hot (4); rank/16; faction one-hot (5); same team; is Grand Protector
provinces       33 x V_F     present; Island; owner none / me / other; owner slot one-hot (16);
                             holder me; holder other; units/3; level one-hot (4); burnt; adjacent
                             units of others/9; adjacent own units/9
choice          C_SIZE       planner kind one-hot (4); stage one-hot (14); current Province one-hot (33);
                             chosen order KIND one-hot (10); chosen target one-hot (33); free $Realm/500;
                             min.US/16; missing min.US/16; golden orders left (4); Provinces already
                             decided in this decision (33); choices made/32; ability offered one-hot
                             (ABILITY_NAMES)
==============  ===========  =========================================================================
"""

from __future__ import annotations

import numpy as np

from engine.protectors.cards import DECK_CONTENTS
from engine.protectors.factions import FACTIONS
from engine.protectors.legality import golden_limits
from engine.protectors.orders import ABILITY_TEXT
from engine.protectors.ranking import brackets
from engine.protectors.state import WAITING_STEPS, GameState
from engine.protectors.tables import HOARD_BANDS, ISLAND_VP, LEVEL_VP
from engine.protectors.victory import power_threshold
from envs import layout as L
from envs.planner import STAGE_INDEX, STAGES

CARD_NAMES = tuple(sorted({c for cards in DECK_CONTENTS.values() for c in cards}))
CARD_INDEX = {c: i for i, c in enumerate(CARD_NAMES)}
STEP_INDEX = {s: i for i, s in enumerate(WAITING_STEPS)}
PLANNER_KINDS = ("bid", "orders", "dragon", "consolidation")
ABILITY_NAMES = tuple(ABILITY_TEXT)

G_SIZE = 1 + len(WAITING_STEPS) + 3 + 4 + 2 + 3 + 5 + len(CARD_NAMES) + 4
P_F = 6 + 4 + 1 + len(FACTIONS) + 2
V_F = 2 + 3 + L.MAX_PLAYERS + 2 + 1 + 4 + 1 + 2
C_SIZE = (len(PLANNER_KINDS) + len(STAGES) + L.N_PROV + len(L.KINDS) + L.N_PROV + 3 + 4 + L.N_PROV + 1
          + len(ABILITY_NAMES))
BOARD_SIZE = G_SIZE + L.MAX_PLAYERS * P_F + L.N_PROV * V_F
OBS_SIZE = BOARD_SIZE + C_SIZE


class BoardCache:
    """Per-board constants (adjacency as Province-number index lists)."""

    def __init__(self, state: GameState):
        b = state.board
        for p in b.all_provinces:
            if int(p[1:]) > L.MAX_PROVINCE_NUMBER:
                from engine.errors import ValidationError

                raise ValidationError("board", f"{p}: the envs encode Provinces up to P{L.MAX_PROVINCE_NUMBER}")
        self.provs = [(p, int(p[1:])) for p in b.all_provinces]
        self.adj = {p: [q for q in b.neighbours.get(p, ())] for p in b.all_provinces}
        self.n = b.count


def encode_board(state: GameState, seat: str, cache: BoardCache | None = None) -> np.ndarray:
    """The global, players and provinces blocks for ``seat`` (what its view shows).

    The non-zero entries are collected as (index, value) lists and written with one numpy assignment:
    far cheaper than item-by-item array writes."""
    cache = cache or BoardCache(state)
    ix: list[int] = []
    val: list[float] = []
    put_i, put_v = ix.append, val.append
    seats = list(state.players)
    me = seats.index(seat)
    slot = {s: (i - me) % len(seats) for i, s in enumerate(seats)}
    n = max(1, cache.n)
    active = state.active()
    thr = power_threshold(state, False)
    p_me = state.players[seat]
    o = state.options
    # -- global
    i = 1 + len(WAITING_STEPS)
    ix += (0, i, i + 1, i + 2)
    val += (state.turn / 12, state.dpl / (3 * n), thr / (2 * n), state.dpl / max(1, thr))
    if state.step in STEP_INDEX:
        put_i(1 + STEP_INDEX[state.step])
        put_v(1.0)
    i += 3
    ix += (i, i + 1, i + 2, i + 3)  # rules: 003 hoarding bands
    low, high = HOARD_BANDS
    val += (p_me.realm / 500, p_me.realm >= low, p_me.realm >= high, state.next_bids.get(seat, 0) / 500)
    i += 4
    att = state.attack
    if att is not None:
        ix += (i, i + 1, i + 2)
        val += (1.0, att.dpl / (3 * n), att.worldeater)
    i += 3
    ix += (i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6)
    val += (len(seats) / 16, len(active) / 16, n / 32, o.version == "grand", state.board.island is not None,
            o.factions, o.teams)
    i += 7
    for _, c in state.cards_this_turn + state.locked_cards:
        put_i(i + CARD_INDEX[c])
        put_v(1.0)
    i += len(CARD_NAMES)
    if not p_me.eliminated and seat in state.ranking:
        lim = golden_limits(state, seat)
        for k, kind in enumerate(("march", "support", "fortify", "work")):
            put_i(i + k)
            put_v(min(1, lim[kind]))
    # -- players
    br = brackets(active)
    rank = {s: r for r, s in enumerate(active)}
    isl = state.board.island
    units = dict.fromkeys(seats, 0)
    owned = dict.fromkeys(seats, 0)
    vps = {s: state.players[s].vp for s in seats}
    for p, pr in state.provinces.items():
        h = pr.occupant or pr.owner
        if h is not None:
            units[h] += pr.units
        if pr.owner is not None:
            owned[pr.owner] += 1
            # the same sum as victory.victory_points (rules: 003 Time's Up!), in one pass
            vps[pr.owner] += ISLAND_VP if p == isl else LEVEL_VP[0 if pr.burnt else pr.level]
    for s in seats:
        pl = state.players[s]
        j = G_SIZE + slot[s] * P_F
        ix += (j, j + 1, j + 2, j + 3, j + 4, j + 5, j + 10, j + 16, j + 17)
        val += (1.0, not pl.eliminated, s == seat, owned[s] / n, units[s] / (3 * n), vps[s] / 30,
                rank.get(s, 16) / 16, bool(o.teams and pl.team is not None and pl.team == p_me.team),
                bool(active) and active[0] == s)
        if s in br:
            put_i(j + 6 + br[s] - 1)
            put_v(1.0)
        if pl.faction in FACTIONS:
            put_i(j + 11 + FACTIONS.index(pl.faction))
            put_v(1.0)
    # -- provinces
    base = G_SIZE + L.MAX_PLAYERS * P_F
    provs = state.provinces
    for p, num in cache.provs:
        pr = provs[p]
        j = base + num * V_F
        k = j + 5 + L.MAX_PLAYERS
        if pr.owner is None:
            ix += (j, j + 1, j + 2)
            val += (1.0, p == isl, 1.0)
        else:
            ix += (j, j + 1, j + 3 + (pr.owner != seat), j + 5 + slot[pr.owner])
            val += (1.0, p == isl, 1.0, 1.0)
        h = pr.occupant or pr.owner
        if h is not None and pr.units:
            put_i(k + (h != seat))
            put_v(1.0)
        mine = other = 0
        for q in cache.adj[p]:
            qr = provs[q]
            hq = qr.occupant or qr.owner
            if hq == seat:
                mine += qr.units
            elif hq is not None:
                other += qr.units
        ix += (k + 2, k + 3 + min(pr.level, 3), k + 7, k + 8, k + 9)
        val += (pr.units / 3, 1.0, pr.burnt, other / 9, mine / 9)
    out = np.zeros(BOARD_SIZE, dtype=np.float32)
    out[ix] = val
    return out


def encode_choice(planner, out: np.ndarray) -> None:
    """Write the decision block for the planner's current choice into ``out`` (length C_SIZE)."""
    out[:] = 0
    if planner is None:
        return
    out[PLANNER_KINDS.index(planner.kind)] = 1
    i = len(PLANNER_KINDS)
    if planner.stage is not None:
        out[i + STAGE_INDEX[planner.stage]] = 1
    i += len(STAGES)
    if planner.province is not None:
        out[i + int(planner.province[1:])] = 1
    i += L.N_PROV
    if planner.picked_kind >= 0:
        out[i + planner.picked_kind] = 1
    i += len(L.KINDS)
    if planner.target is not None:
        out[i + int(planner.target[1:])] = 1
    i += L.N_PROV
    out[i] = planner.budget / 500
    mu = getattr(planner, "min_us", 0)
    out[i + 1] = mu / 16
    if planner.kind == "dragon":
        out[i + 2] = planner.shortfall() / 16
    i += 3
    lim = getattr(planner, "limits", None)
    if lim:
        for k, kind in enumerate(("march", "support", "fortify", "work")):
            out[i + k] = min(1, lim[kind])
    i += 4
    for prov in _decided(planner):
        out[i + int(prov[1:])] = 1
    i += L.N_PROV
    out[i] = planner.choices / 32
    i += 1
    if planner.ability is not None and planner.ability.name in ABILITY_NAMES:
        out[i + ABILITY_NAMES.index(planner.ability.name)] = 1


def _decided(planner) -> list[str]:
    if planner.kind == "orders":
        return [o.province for o in planner.orders]
    if planner.kind == "dragon":
        return [c.src for c in planner.commits]
    if planner.kind == "consolidation":
        return [p for p, _ in planner.buys] + list(planner.upgrades)
    return []
