"""The observation: one fixed-size float32 vector of what a seat may see, plus the current choice.

It reads only fields that ``Game.view(seat)`` shows that seat (public board, public player facts,
the seat's own $Realm and set-aside bid, cards, DPL, the attack) — never another seat's $Realm,
bids, orders or commitments, nor the decks. The board part is built once per engine decision
(``encode_board``, from a per-game template of the static features kept in ``BoardCache``) and
the small decision part per choice (``encode_choice``), so a choice costs a copy of a cached array,
not a view rebuild. The vectors are frozen: ``tests/envs/test_env_golden.py`` hashes them.

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

The Dragon's sacrifice choice (``DragonPlanner``, which committed Province suffers the casualties
should the Protectors win) has no features of its own, so the size stays the same: planner kind
dragon with stage ``target`` (``planner_phases.SAC_STAGE``); current Province all zero; chosen
target = the Provinces already given a ``sac`` (several may be 1); missing min.US = the casualties
still unassigned/16 (the stage comes only when min.US is met, so nothing is missing); Provinces
already decided = the Provinces committed from, as in the COUNT choices before it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from mypy_extensions import mypyc_attr

from agents.spaces import layout as L
from agents.spaces.planner import STAGE_INDEX, STAGES
from agents.spaces.planner_phases import SAC_STAGE
from engine.protectors.cards import DECK_CONTENTS
from engine.protectors.factions import FACTIONS
from engine.protectors.legality import golden_limits
from engine.protectors.orders import ABILITY_TEXT
from engine.protectors.ranking import brackets
from engine.protectors.state import WAITING_STEPS, GameState
from engine.protectors.tables import HOARD_BANDS, ISLAND_VP, LEVEL_VP
from engine.protectors.victory import power_threshold

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


@mypyc_attr(allow_interpreted_subclasses=True)  # Python's __new__ under mypyc: pickles (values.py)
class BoardCache:
    """Per-game constants: adjacency, and per observing seat the static part of the board block.

    A cache belongs to one game (its board, seats, options and teams): the envs make one per game."""

    def __init__(self, state: GameState):
        b = state.board
        for p in b.all_provinces:
            if int(p[1:]) > L.MAX_PROVINCE_NUMBER:
                from engine.errors import ValidationError

                raise ValidationError("board", f"{p}: the envs encode Provinces up to P{L.MAX_PROVINCE_NUMBER}")
        self.provs = [(p, int(p[1:])) for p in b.all_provinces]
        self.adj = {p: [q for q in b.neighbours.get(p, ())] for p in b.all_provinces}
        self.n = b.count
        self.board = b
        self._seats: dict[str, _SeatStatic] = {}

    def fits(self, state: GameState) -> bool:
        """Whether this cache is for ``state``'s board (the envs keep one cache across games)."""
        return state.board is self.board or state.board == self.board

    def seat_static(self, state: GameState, seat: str) -> _SeatStatic:
        st = self._seats.get(seat)
        if st is None or st.players is not state.players:
            # a new game: the static part carries over when the seats, teams and options are the same
            if st is None or st.signature != _signature(state):
                st = self._seats[seat] = _SeatStatic(self, state, seat)
            st.players = state.players
        return st


_SHARED: dict[str, BoardCache] = {}  # board name -> the cache encode_board uses when given none
_SHARED_MAX = 64


def shared_cache(state: GameState) -> BoardCache:
    """A BoardCache for ``state``'s board, kept between calls (for callers without their own, like
    the policy agent): rebuilt when the board under that name differs."""
    c = _SHARED.get(state.board.name)
    if c is None or not c.fits(state):
        if len(_SHARED) >= _SHARED_MAX:
            _SHARED.clear()
        c = _SHARED[state.board.name] = BoardCache(state)
    return c


def _signature(state: GameState) -> tuple:
    """What the static part of the board block depends on besides the board."""
    o = state.options
    return (state.board.island, o.version, o.factions, o.teams, tuple((s, p.team) for s, p in state.players.items()))


_PROV_BASE = G_SIZE + L.MAX_PLAYERS * P_F
_CARD0 = 1 + len(WAITING_STEPS) + 3 + 4 + 3 + 7
_GOLD0 = _CARD0 + len(CARD_NAMES)
_HOARD_LOW, _HOARD_HIGH = HOARD_BANDS  # rules: 003 hoarding bands
_FACTION_INDEX = {f: i for i, f in enumerate(FACTIONS)}
_RANKINGS_MAX = 4096  # ranking entries kept per observing seat (a few per game in practice)


@mypyc_attr(allow_interpreted_subclasses=True)  # Python's __new__ under mypyc: pickles (values.py)
class _SeatStatic:
    """What never changes in a game for one observing seat: the template with the static features
    (#players, #Prov, grand, Island, factions, teams; players present / is me / same team; Provinces
    present / Island), the index bases of every player slot and Province row, and the ranking
    features per active ranking seen (``ranking``)."""

    def __init__(self, cache: BoardCache, state: GameState, seat: str):
        self.players = state.players  # identity: the game this entry was last checked for
        self.signature = _signature(state)
        seats = list(state.players)
        me = seats.index(seat)
        n = max(1, cache.n)
        self.n, self.n2, self.n3 = n, 2 * n, 3 * n
        o = state.options
        p_me = state.players[seat]
        t = np.zeros(BOARD_SIZE, dtype=np.float32)
        t[17:24] = (len(seats) / 16, 0.0, n / 32, o.version == "grand", state.board.island is not None,
                    o.factions, o.teams)
        self.seats = seats
        self.ns = len(seats)
        self.index = {s: i for i, s in enumerate(seats)}
        self.slot = [(i - me) % len(seats) for i in range(len(seats))]
        self.pj = [G_SIZE + sl * P_F for sl in self.slot]  # players block base, by seat index
        # Provinces, units, VPs (each by seat index); alive, faction one-hot base
        self.owned_ix = [j + 3 for j in self.pj]
        self.units_ix = [j + 4 for j in self.pj]
        self.vp_ix = [j + 5 for j in self.pj]
        self.alive_ix = [j + 1 for j in self.pj]
        self.faction_ix = [j + 11 for j in self.pj]
        for i, s in enumerate(seats):
            pl, j = state.players[s], self.pj[i]
            t[j] = 1.0
            t[j + 2] = s == seat
            t[j + 16] = bool(o.teams and pl.team is not None and pl.team == p_me.team)
        isl = state.board.island
        row = {p: r for r, (p, _) in enumerate(cache.provs)}
        # (Province, row base, holder base, is the Island, rows whose adjacency lists this row)
        rev: list[list[int]] = [[] for _ in cache.provs]
        for r, (p, _) in enumerate(cache.provs):
            for q in cache.adj[p]:
                rev[row[q]].append(r)
        # per Province row: (Province, "no owner" entry, owner entries by seat index, units entry,
        # held-by-me entry, held-by-other entry, level one-hot base, burnt entry, is the Island,
        # rows whose adjacency lists this row)
        self.rows = []
        self.holder_ix = []
        for r, (p, num) in enumerate(cache.provs):
            j = _PROV_BASE + num * V_F
            k = j + 5 + L.MAX_PLAYERS  # the holder block of the row
            t[j] = 1.0
            t[j + 1] = p == isl
            owners = [[j + 3 + (s != seat), j + 5 + self.slot[i]] for i, s in enumerate(seats)]
            self.rows.append((p, j + 2, owners, k + 2, k, k + 1, k + 3, k + 7, p == isl, rev[r]))
            self.holder_ix.append(k)
        self.tmpl = t
        self.ranking: dict[tuple[str, ...], tuple[list[int], list[int], list[float]]] = {}

    def ranking_features(self, active: list[str]) -> tuple[list[int], list[int], list[float]]:
        """(entries equal to 1, indices, values) of the features that depend only on the active
        ranking: bracket one-hot, Grand Protector, rank/16 (memoised per ranking)."""
        key = tuple(active)
        out = self.ranking.get(key)
        if out is None:
            br = brackets(active)
            rank = {s: r for r, s in enumerate(active)}
            gp = active[0] if active else None
            ones: list[int] = []
            ix: list[int] = []
            val: list[float] = []
            for s, j in zip(self.seats, self.pj, strict=True):
                ix.append(j + 10)
                val.append(rank.get(s, 16) / 16)
                if s == gp:
                    ones.append(j + 17)
                b = br.get(s)
                if b is not None:
                    ones.append(j + 5 + b)
            if len(self.ranking) >= _RANKINGS_MAX:
                self.ranking.clear()
            out = self.ranking[key] = (ones, ix, val)
        return out


def encode_board(state: GameState, seat: str, cache: BoardCache | None = None) -> np.ndarray:
    """The global, players and provinces blocks for ``seat`` (what its view shows).

    The static features come from a per-game template (``BoardCache``); the rest is written over it
    entry by entry through a memoryview."""
    out = np.empty(BOARD_SIZE, dtype=np.float32)
    encode_board_into(state, seat, out, cache)
    return out


def encode_board_into(state: GameState, seat: str, out: np.ndarray, cache: BoardCache | None = None) -> None:
    """``encode_board`` written into ``out`` (a C-contiguous float32 array of BOARD_SIZE, e.g. a slice
    of the observation buffer), without a temporary array: the template is copied in, then every
    other feature is written straight through a memoryview (cheaper than collecting index lists
    for numpy to convert; each entry is written once, so the order does not matter)."""
    ss = (cache or shared_cache(state)).seat_static(state, seat)
    out[:] = ss.tmpl
    w: Any = out.data  # a memoryview (Any: typeshed types its items as int; these are floats)
    players = state.players
    p_me = players[seat]
    active = state.active()
    thr = power_threshold(state, False)
    realm = p_me.realm
    dpl = state.dpl
    # -- global
    w[0] = state.turn / 12
    w[7] = dpl / ss.n3
    w[8] = thr / ss.n2
    w[9] = dpl / max(1, thr)
    w[10] = realm / 500
    w[11] = realm >= _HOARD_LOW
    w[12] = realm >= _HOARD_HIGH
    w[13] = state.next_bids.get(seat, 0) / 500
    w[18] = len(active) / 16
    step = STEP_INDEX.get(state.step)
    if step is not None:
        w[1 + step] = 1.0
    att = state.attack
    if att is not None:
        w[15] = att.dpl / ss.n3
        w[16] = att.worldeater
        w[14] = 1.0
    for _, c in state.cards_this_turn:
        w[_CARD0 + CARD_INDEX[c]] = 1.0
    for _, c in state.locked_cards:
        w[_CARD0 + CARD_INDEX[c]] = 1.0
    if not p_me.eliminated and seat in state.ranking:
        lim = golden_limits(state, seat)
        w[_GOLD0] = min(1, lim["march"])
        w[_GOLD0 + 1] = min(1, lim["support"])
        w[_GOLD0 + 2] = min(1, lim["fortify"])
        w[_GOLD0 + 3] = min(1, lim["work"])
    # -- provinces (and the players' Province, unit and VP counts, in the same pass)
    ns = ss.ns
    sidx = ss.index
    units = [0] * ns
    owned = [0] * ns
    pls = list(players.values())  # in seat order (the static part checked the seats)
    vps = [pl.vp for pl in pls]
    provs = state.provinces
    nr = len(ss.rows)
    mine_adj = [0] * nr  # own / others' units in the Provinces adjacent to each row
    other_adj = [0] * nr
    for p, free, owners, uix, held_me, held_other, lv0, burnt_ix, is_isl, rev in ss.rows:
        pr = provs[p]
        o = pr.owner
        lv = pr.level
        burnt = pr.burnt
        if o is None:
            w[free] = 1.0
        else:
            oi = sidx[o]
            for e in owners[oi]:
                w[e] = 1.0
            owned[oi] += 1
            # the same sum as victory.victory_points (rules: 003 Time's Up!), in one pass
            vps[oi] += ISLAND_VP if is_isl else LEVEL_VP[0 if burnt else lv]
        u = pr.units
        if u:
            w[uix] = u / 3
            h = pr.occupant or o
            if h is not None:
                units[sidx[h]] += u
                if h == seat:
                    w[held_me] = 1.0
                    for q in rev:
                        mine_adj[q] += u
                else:
                    w[held_other] = 1.0
                    for q in rev:
                        other_adj[q] += u
        w[lv0 + (lv if lv < 3 else 3)] = 1.0
        if burnt:
            w[burnt_ix] = 1.0
    # (indexed loops: zip(..., strict=True) costs more than the loop body when compiled)
    hix = ss.holder_ix
    for r in range(nr):
        other = other_adj[r]
        if other:
            w[hix[r] + 8] = other / 9
        mine = mine_adj[r]
        if mine:
            w[hix[r] + 9] = mine / 9
    # -- players
    n = ss.n
    n3 = ss.n3
    owned_ix, units_ix, vp_ix, alive_ix, faction_ix = ss.owned_ix, ss.units_ix, ss.vp_ix, ss.alive_ix, ss.faction_ix
    for i in range(ns):
        w[owned_ix[i]] = owned[i] / n
        w[units_ix[i]] = units[i] / n3
        w[vp_ix[i]] = vps[i] / 30
        pl = pls[i]
        if not pl.eliminated:
            w[alive_ix[i]] = 1.0
        fi = _FACTION_INDEX.get(pl.faction)  # type: ignore[arg-type]
        if fi is not None:
            w[faction_ix[i] + fi] = 1.0
    r_ones, r_ix, r_val = ss.ranking_features(active)
    for j in r_ones:
        w[j] = 1.0
    for i in range(len(r_ix)):
        w[r_ix[i]] = r_val[i]


_C_STAGE0 = len(PLANNER_KINDS)
_C_PROV0 = _C_STAGE0 + len(STAGES)
_C_KIND0 = _C_PROV0 + L.N_PROV
_C_TARGET0 = _C_KIND0 + len(L.KINDS)
_C_BUDGET = _C_TARGET0 + L.N_PROV
_C_LIMITS0 = _C_BUDGET + 3
_C_DECIDED0 = _C_LIMITS0 + 4
_C_CHOICES = _C_DECIDED0 + L.N_PROV
_C_ABILITY0 = _C_CHOICES + 1
_C_KIND_INDEX = {k: i for i, k in enumerate(PLANNER_KINDS)}
_C_STAGE_INDEX = {s: _C_STAGE0 + i for s, i in STAGE_INDEX.items()}
_C_ABILITY_INDEX = {a: _C_ABILITY0 + i for i, a in enumerate(ABILITY_NAMES)}


def encode_choice(planner, out: np.ndarray) -> None:
    """Write the decision block for the planner's current choice into ``out`` (length C_SIZE)."""
    out[:] = 0
    if planner is None:
        return
    kind = planner.kind
    out[_C_KIND_INDEX[kind]] = 1
    if planner.stage is not None:
        out[_C_STAGE_INDEX[planner.stage]] = 1
    if planner.province is not None:
        out[_C_PROV0 + int(planner.province[1:])] = 1
    if planner.picked_kind >= 0:
        out[_C_KIND0 + planner.picked_kind] = 1
    if planner.target is not None:
        out[_C_TARGET0 + int(planner.target[1:])] = 1
    out[_C_BUDGET] = planner.budget / 500
    out[_C_BUDGET + 1] = getattr(planner, "min_us", 0) / 16
    if kind == "dragon":
        if planner.stage == SAC_STAGE:  # the sacrifice: casualties still unassigned, Provinces picked
            out[_C_BUDGET + 2] = planner.unassigned() / 16
            for prov in planner.sacs:
                out[_C_TARGET0 + int(prov[1:])] = 1
        else:
            out[_C_BUDGET + 2] = planner.shortfall() / 16
    lim = getattr(planner, "limits", None)
    if lim:
        out[_C_LIMITS0] = min(1, lim["march"])
        out[_C_LIMITS0 + 1] = min(1, lim["support"])
        out[_C_LIMITS0 + 2] = min(1, lim["fortify"])
        out[_C_LIMITS0 + 3] = min(1, lim["work"])
    for prov in _decided(planner):
        out[_C_DECIDED0 + int(prov[1:])] = 1
    out[_C_CHOICES] = planner.choices / 32
    if planner.ability is not None:
        a = _C_ABILITY_INDEX.get(planner.ability.name)
        if a is not None:
            out[a] = 1


def _decided(planner) -> list[str]:
    if planner.kind == "orders":
        return [o.province for o in planner.orders]
    if planner.kind == "dragon":
        return [c.src for c in planner.commits]
    if planner.kind == "consolidation":
        return [p for p, _ in planner.buys] + list(planner.upgrades)
    return []
