"""The mutable state of one Protectors game. Rules live in the other modules; this is data."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

from engine.protectors.board import Board
from engine.protectors.cards import Deck

if TYPE_CHECKING:  # decisions imports this module
    from engine.protectors.decisions import OrdersDecision

# Steps the game can be in. The ones in WAITING_STEPS wait for seats' decisions.
BID, REBID, BANK_BID, DRAGON, ORDERS, CONSOLIDATION, OVER = (
    "bid", "rebid", "bank_bid", "dragon", "orders", "consolidation", "over",
)
WAITING_STEPS = (BID, REBID, BANK_BID, DRAGON, ORDERS, CONSOLIDATION)


@mypyc_attr(allow_interpreted_subclasses=True)  # Python's __new__ under mypyc: pickles (values.py)
@dataclass(slots=True)
class Player:
    seat: str
    name: str
    start: str
    realm: int = 0
    vp: int = 0
    eliminated: bool = False
    eliminated_turn: int | None = None
    eliminated_by: str | None = None  # "dragon" or "players"
    faction: str | None = None
    team: str | None = None
    used: set[str] = field(default_factory=set)  # once-per-game abilities spent
    used_turn: set[str] = field(default_factory=set)  # effects lasting until next Consolidation
    gained: set[str] = field(default_factory=set)  # abilities gained from the Wizard Sanctum
    # rules: 003 The Bank of Lannuvár — activated in a Consolidation phase it stays active until the end
    # of the next turn's Consolidation phase: the last turn it covers (None: not active).
    bank_until: int | None = None
    # rules: 003 Hodir, An offer — the turn the Mountain King's protection covers (None: not hired).
    offer_turn: int | None = None


@mypyc_attr(allow_interpreted_subclasses=True)  # Python's __new__ under mypyc: pickles (values.py)
@dataclass(slots=True)
class Province:
    owner: str | None = None
    units: int = 0
    occupant: str | None = None  # whose units these are when not the owner's (until seized)
    level: int = 0
    burnt: bool = False

    def __init__(self, owner: str | None = None, units: int = 0, occupant: str | None = None, level: int = 0,
                 burnt: bool = False) -> None:
        self.owner = owner
        self.units = units
        self.occupant = occupant
        self.level = level
        self.burnt = burnt

    def burn(self) -> None:
        """rules: 003 The Dragon's Wrath! — burnt to ash with any units on it, ownerless, and from now
        on "a normal lvl.0 Province" (the one place a burnt Province loses its level; every reader of
        ``level`` then sees 0: production under Imarin's Blessings, the Capitol rule, Upgrade)."""
        self.burnt, self.owner, self.occupant, self.units, self.level = True, None, None, 0, 0

    def copy(self) -> Province:
        return Province(self.owner, self.units, self.occupant, self.level, self.burnt)


@mypyc_attr(allow_interpreted_subclasses=True)  # Python's __new__ under mypyc: pickles (values.py)
@dataclass
class Options:
    version: str = "normal"  # "normal" | "grand"  # rules: 003 Setup
    factions: bool = False
    teams: bool = False
    faction_choice: str = "chosen"  # "chosen" | "random"
    # Readings of the rule text that the text leaves open (docs/assumptions.md, "Reading options"): each
    # default is the reading chosen; the GM may set the other value in the setup's "options".
    # rules: 003 Lannuvár, The Great Game — "When bidding on the Protector Ranking ... all bids are
    # counted as being 15 $Realm higher": turn-1 re-bids are bids on the Protector Ranking too.
    great_game_rebids: bool = True
    # rules: 003 Kalu'Ak, Nothing to see here! — "regarded for all purposes as not being in the game ...
    # removed temporarily from the Protector Ranking": "next" = the highest-ranked seat still fighting
    # is Grand Protector for that attack (as when a Grand Protector is eliminated); "none" = nobody is.
    hidden_grand_protector: str = "next"
    # rules: 003 Team Games, Time's Up! — "calculate the VPs for each team member individually": False =
    # only members still in the game count (an eliminated player is out of the game); True = all do.
    team_vp_eliminated: bool = False
    # rules: 003 Deep Snow — "All Attackers suffer -1 to their total Unit Strength (US)"; in a Dragon
    # fight the DPL is only the "Attacker" in quotes and has no US: False = no effect on the Dragon.
    deep_snow_dragon: bool = False
    # rules: 003 Bloodlust! — "The Power Threshold can not be reduced below 1": True = Bloodlust! may take
    # a Normal game's threshold below its #Provinces floor (down to 1); False = the floor still holds.
    bloodlust_below_floor: bool = True
    # rules: 003 Setup — "2x or more the number of starting players" (setup) against "more Provinces than
    # there are players" (introduction): "double" = Grand needs 2x; "more" = any board larger than Normal.
    grand_boards: str = "double"
    # rules: 003 Kalu'Ak, Ashes of Power — "controls a burnt-out Province (left behind from the Dragon
    # eliminating a player)": "elimination" = only Provinces burnt by the Wrath that eliminated their
    # owner (GameState.ashes); "any" = every burnt-out Province.
    ashes_burnt: str = "elimination"
    # rules: 003 The Mythical Worldeater — "any $Realm rewards ... follow normal rules" (3 green Provinces,
    # min.US 6, "earn 200"): "doubled" = the 2x/3x bonus thresholds and the surplus use the doubled
    # min.US; "normal" = they use the normal min.US (green Provinces).
    worldeater_bonus_min: str = "doubled"
    # rules: 003 Dragon victory, No Quarter! — "they will instead be eliminated": True = "instead" replaces the
    # drop only, and the outcomes table's Wrath still burns the Provinces the seat held; False = the
    # eliminated seat's Provinces are left green and ownerless (the reading before session 17)
    no_quarter_wrath: bool = True

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> Options:
        from engine.errors import ValidationError
        from engine.protectors.close_names import unknown_keys

        d = dict(d or {})
        unknown = set(d) - {f.name for f in fields(cls)}
        if unknown:
            raise ValidationError("options", unknown_keys(unknown, [f.name for f in fields(cls)]))
        # every value is checked before the dataclass is built: under the optional compiled build (mypyc)
        # a value of the wrong type would fail inside __init__ as a TypeError, not name the option
        o = {f.name: d.get(f.name, f.default) for f in fields(cls)}
        if o["version"] not in ("normal", "grand"):
            raise ValidationError("options.version", f"must be 'normal' or 'grand', not {o['version']!r}")
        for name in ("factions", "teams", "great_game_rebids", "team_vp_eliminated", "deep_snow_dragon",
                     "bloodlust_below_floor", "no_quarter_wrath"):
            if not isinstance(o[name], bool):
                raise ValidationError(f"options.{name}", "must be true or false")
        if o["faction_choice"] not in ("chosen", "random"):
            raise ValidationError("options.faction_choice", "must be 'chosen' or 'random'")
        for name, allowed in READING_CHOICES.items():
            if o[name] not in allowed:
                raise ValidationError(f"options.{name}", f"must be one of {', '.join(map(repr, allowed))}, "
                                                         f"not {o[name]!r}")
        return cls(**o)

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in _OPTION_NAMES}  # (fields() costs more than the copy)


# Options' fields in order, for Options.as_dict (every seat's view holds them: the heuristic reads one per decision)
_OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Options))

# the string-valued reading options and their values (the first is the default)
READING_CHOICES: dict[str, tuple[str, ...]] = {
    "hidden_grand_protector": ("next", "none"),
    "grand_boards": ("double", "more"),
    "ashes_burnt": ("elimination", "any"),
    "worldeater_bonus_min": ("doubled", "normal"),
}


@mypyc_attr(allow_interpreted_subclasses=True)  # Python's __new__ under mypyc: pickles (values.py)
@dataclass
class Attack:
    """A Dragon Attack waiting for commitments. # rules: 003 Resolving a Dragon Attack."""

    dpl: int  # the DPL it attacks with (at least 1)
    source: str  # "card", "threshold", "after_burner", "elimination"
    worldeater: bool
    participants: list[str]
    grand_protector: str | None
    ranking_before: list[str]
    # rules: 003 The Bank of Lannuvár — seats deciding after the others' commitments are revealed
    bank_seats: list[str] = field(default_factory=list)
    bank_round: bool = False
    first: dict[str, Any] = field(default_factory=dict)  # the first round's decisions (revealed)


def is_green(prov: str, pr: Province, island: str | None) -> bool:
    """rules: 003 Dragon Attack, min.US — a "normal (green)" Province (whose it is, the caller checks):
    not burnt to grey by the Dragon's Wrath. The Island is not one (its units cannot fight the Dragon,
    003 Island Rules; assumption GREEN_MAINLAND), so it neither raises min.US nor burns in the Wrath, nor
    saves a seat from the Wrath's elimination. Read by ``GameState.green`` and ``green_counts``."""
    return not pr.burnt and prov != island


@mypyc_attr(allow_interpreted_subclasses=True)  # Python's __new__ under mypyc: pickles (values.py)
@dataclass
class GameState:
    board: Board
    options: Options
    seed: int
    rng: random.Random
    players: dict[str, Player]
    provinces: dict[str, Province]
    starting_players: int
    turn: int = 1
    step: str = BID
    ranking: list[str] = field(default_factory=list)  # index 0: the Grand Protector
    dpl: int = 0
    decks: dict[str, Deck] = field(default_factory=dict)
    cards_this_turn: list[tuple[str, str]] = field(default_factory=list)  # (deck, card) drawn now
    locked_cards: list[tuple[str, str]] = field(default_factory=list)  # kept by The End is Nigh!
    end_is_nigh: bool = False
    times_up: bool = False
    reveal_queue: list[str] = field(default_factory=list)  # decks still to draw from this turn
    submissions: dict[str, Any] = field(default_factory=dict)  # seat -> decision (secret)
    next_bids: dict[str, int] = field(default_factory=dict)  # made in Consolidation, secret
    rebid_groups: list[list[str]] = field(default_factory=list)
    bids_spent: dict[str, int] = field(default_factory=dict)  # this ranking phase, per seat
    orders: dict[str, OrdersDecision] = field(default_factory=dict)  # seat -> decision (revealed)
    # the seats whose orders are the rulebook's default (their DM did not come: Game.advance(force=True)), from the
    # orders step until they are executed, so the report never says they sent none (execute._say_none)
    defaulted: list[str] = field(default_factory=list)
    work_orders: dict[str, tuple[str, bool]] = field(default_factory=dict)  # province -> (seat, golden)
    golden_work_done: dict[str, str] = field(default_factory=dict)  # province -> seat (may upgrade)
    pirates_due: dict[str, int] = field(default_factory=dict)
    eliminated_this_turn: list[str] = field(default_factory=list)
    dragon_eliminations: int = 0
    attack: Attack | None = None
    pending_attacks: list[str] = field(default_factory=list)  # queued attack sources
    resume: str | None = None  # where to continue after a Dragon Attack
    consolidation_stage: str = ""
    ledger: list[tuple[int, str, int, str]] = field(default_factory=list)  # turn, seat, delta, rule
    events: list[Any] = field(default_factory=list)
    result: dict[str, Any] | None = None
    history: list[dict[str, Any]] = field(default_factory=list)  # per-turn summaries
    end_key: tuple = ()  # victory.check_end's memo of what it last looked at
    # private looks at decks this orders step: seat -> [{"deck", "card", "by"}] (rules: 003 Kalu'Ak
    # Weather forecast, Island Rules Palantír)
    peeks: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    used_this_turn: dict[str, set[str]] = field(default_factory=dict)  # seat -> per-turn abilities used
    # rules: 003 Island Rules, Wizard Sanctum — {"holder", "kind" ("refresh"|"gain"|None), "key",
    # "pending" (choice still to make in this buying and bidding step)}; None: nobody holds it
    sanctum: dict[str, Any] | None = None
    # rules: 003 Kalu'Ak, Ashes of Power — burnt-out Provinces "left behind from the Dragon eliminating
    # a player": those burnt by the Wrath that eliminated their owner (Options.ashes_burnt)
    ashes: set[str] = field(default_factory=set)

    # -- small queries ---------------------------------------------------------------------
    def active(self) -> list[str]:
        """Active (not eliminated) seats in ranking order."""
        return [s for s in self.ranking if not self.players[s].eliminated]

    def team_of(self, seat: str) -> str | None:
        """The seat's team in a team game, else None.

        rules: 003 Team Games: "The team left standing is victorious"; a team wins or loses together."""
        return self.players[seat].team if self.options.teams else None

    def owned(self, seat: str) -> list[str]:
        # ``provinces`` is kept in board order (mainland by number, then the Island)
        return [p for p, pr in self.provinces.items() if pr.owner == seat]

    def mainland(self, seat: str) -> list[str]:
        """``seat``'s Provinces without the Island, in board order: what a rule counting or ranking "each Province"
        a player controls counts (assumption ISLAND_NOT_COUNTED: the Island rules never call it a Province)."""
        island = self.board.island
        return [p for p, pr in self.provinces.items() if pr.owner == seat and p != island]

    def owned_by(self) -> dict[str, list[str]]:
        """Every owner's Provinces (board order) in one pass: for loops over all seats."""
        out: dict[str, list[str]] = {}
        for p, pr in self.provinces.items():
            if pr.owner is not None:
                out.setdefault(pr.owner, []).append(p)
        return out

    def green(self, seat: str) -> list[str]:
        """``seat``'s green Provinces (``is_green``), in board order."""
        island = self.board.island
        return [p for p, pr in self.provinces.items() if pr.owner == seat and is_green(p, pr, island)]

    def green_counts(self) -> dict[str, int]:
        """How many green Provinces (``is_green``) every seat holds, in one pass over the board."""
        island = self.board.island
        out = dict.fromkeys(self.players, 0)
        for p, pr in self.provinces.items():
            owner = pr.owner
            if owner is not None and is_green(p, pr, island):
                out[owner] += 1  # an owner is always a seat of the game
        return out

    def holder(self, prov: str) -> str | None:
        """Whose Army Units stand in ``prov`` (the owner unless another player occupies it)."""
        pr = self.provinces[prov]
        return pr.occupant or pr.owner

    def units_by_holder(self) -> dict[str, int]:
        """Every seat's Army Units on the board (``units_of`` of all seats in one pass: for views)."""
        out = dict.fromkeys(self.players, 0)
        for pr in self.provinces.values():
            holder = pr.occupant or pr.owner
            if holder is not None:
                out[holder] += pr.units
        return out

    def units_of(self, seat: str) -> int:
        return sum(pr.units for p, pr in self.provinces.items() if (pr.occupant or pr.owner) == seat)

    def clone(self) -> GameState:
        """An independent copy, field for field what ``copy.deepcopy`` makes, only faster where the
        fields' shapes are known (rollouts and takeovers clone a lot): the generator through its state,
        the ledger (tuples of ints and strings) as a new list, Players, Provinces and decks field by
        field, the events' data dicts alone (the rest of an Event is immutable). Every other field goes
        through ``deep_copied`` (what ``copy.deepcopy`` gives, faster for plain data) with the same memo, so a
        field added later is copied deeply without a change here. ``tests/protectors/test_clone.py`` compares
        the two."""
        from engine.protectors.events import copied

        memo: dict[int, Any] = {}
        out = copy.copy(self)
        for name in _DEEP_FIELDS:
            setattr(out, name, deep_copied(getattr(self, name), memo))
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        out.rng = rng
        out.ledger = list(self.ledger)
        out.events = copied(self.events, memo)
        players = {}
        for s, p in self.players.items():
            q = copy.copy(p)
            q.used, q.used_turn, q.gained = set(p.used), set(p.used_turn), set(p.gained)
            players[s] = q
        out.players = players
        out.provinces = {p: pr.copy() for p, pr in self.provinces.items()}
        out.decks = {d: Deck(k.name, list(k.draw), list(k.discard)) for d, k in self.decks.items()}
        return out


_MISSING: Any = object()


def deep_copied(x: Any, memo: dict[int, Any]) -> Any:
    """What ``copy.deepcopy(x, memo)`` gives (the same objects shared or copied, the same ``memo`` entries for
    them), without its per-object dispatch for the plain data a state holds: strings, numbers, None, and dicts,
    lists and tuples of them (the events' data, the turn records of ``history``, the maps of the turn). Anything
    else, a subclass of those included, goes to ``copy.deepcopy`` with the same ``memo``. The originals stay
    alive while it runs (they are the state's), so it keeps none alive in ``memo`` as ``copy.deepcopy`` does.
    ``GameState.clone`` and ``events.copied`` copy through it; tests/protectors/test_clone.py compares."""
    t = type(x)
    if t is str or t is int or x is None or t is bool or t is float:
        return x
    key = id(x)
    done = memo.get(key, _MISSING)
    if done is not _MISSING:
        return done
    if t is dict:
        d: dict[Any, Any] = {}
        memo[key] = d
        for k, v in x.items():
            d[deep_copied(k, memo)] = deep_copied(v, memo)
        return d
    if t is list:
        lst: list[Any] = []
        memo[key] = lst
        for v in x:
            lst.append(deep_copied(v, memo))
        return lst
    if t is tuple:  # as copy.deepcopy: a tuple whose items all copy to themselves is itself
        items = [deep_copied(v, memo) for v in x]
        done = memo.get(key, _MISSING)  # (a tuple reached again through its own items)
        if done is not _MISSING:
            return done
        for a, b in zip(items, x, strict=True):
            if a is not b:
                tup = tuple(items)
                memo[key] = tup
                return tup
        return x
    return copy.deepcopy(x, memo)


# GameState.clone: the fields copied by shape there; all the others through copy.deepcopy (deep_copied)
_SHAPED_FIELDS = frozenset({"rng", "ledger", "events", "players", "provinces", "decks"})
_DEEP_FIELDS = tuple(f.name for f in fields(GameState) if f.name not in _SHAPED_FIELDS)
