"""The Protectors of the Realm game: a python-chess style API over the rule modules.

    game = Game({"board": "ring-7", "seed": 1})
    game.pending()                      # [Pending(seat="Player#1", kind="bid"), ...]
    game.submit("Player#1", "Bid 10")   # a DM text, or a decision object
    game.advance(force=True)            # rulebook defaults for seats that sent nothing
    game.view("Player#1")               # what that seat may see

Rules resolution is a pure function of the setup and the decisions: same seed + same decisions =
same game, bit for bit. ``to_blob`` stores exactly that and ``from_blob`` replays it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, cast

import msgpack
from mypy_extensions import mypyc_attr

from engine.errors import OrderSyntaxError, PhaseError, RegentError, ValidationError
from engine.protectors import bank, legality, mountain_king, peeks, report, sanctum
from engine.protectors import consolidation as cons
from engine.protectors.abilities import legal_abilities
from engine.protectors.board import ISLAND_NAME
from engine.protectors.deadlines import deadline_hours, window_step
from engine.protectors.decisions import (
    BidDecision,
    ConsolidationDecision,
    Decision,
    DragonDecision,
    OrdersDecision,
)
from engine.protectors.defaults import default_decision
from engine.protectors.dm_read import NONE, read_dm
from engine.protectors.dm_submit import DmResult, settle
from engine.protectors.dm_team import team_mates
from engine.protectors.dragon import (
    MAX_CHAINED_ATTACKS,
    active_cards,
    resolve_attack,
    start_attack,
    threshold_reached,
)
from engine.protectors.events import Event, emit
from engine.protectors.execute import execute_orders
from engine.protectors.factions import FACTIONS, LANNUVAR, has
from engine.protectors.notation import seat_map
from engine.protectors.ranking import (
    bids_text,
    brackets,
    drawn_text,
    first_turn_order,
    order_by_bids,
    random_ties,
    ranking_text,
    resolve_rebid,
)
from engine.protectors.reveal import begin_reveal, end_turn_cards, reveal_next
from engine.protectors.setup import build_state, replay_setup, setup_colour_names, setup_colours
from engine.protectors.state import (
    BANK_BID,
    BID,
    CONSOLIDATION,
    DRAGON,
    ORDERS,
    OVER,
    REBID,
    WAITING_STEPS,
    GameState,
)
from engine.protectors.values import Shared
from engine.protectors.victory import check_end, standings, times_up
from engine.protectors.views import seat_view

BLOB_VERSION = 1
# Internal steps (no seat decides): the game runs through them on its own.
RANKING, REVEAL, EXECUTE, CONSOLIDATE_A, CONSOLIDATE_B = (
    "ranking", "reveal", "execute", "consolidate_a", "consolidate_b")


def deciding_seats(st: GameState) -> list[str]:
    """The seats whose decision the current step waits for."""
    if st.step == BID:
        return list(st.players)
    if st.step == REBID:
        return [s for g in st.rebid_groups for s in g]
    if st.step == BANK_BID:
        return [s for s in st.active() if "bank_bid" in st.players[s].used_turn]
    if st.step == DRAGON and st.attack:
        return bank.dragon_seats(st)
    if st.step in (ORDERS, CONSOLIDATION):
        return st.active()
    return []


@dataclass(frozen=True)
class Pending(Shared):
    seat: str
    kind: str
    submitted: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "submitted": self.submitted}


@mypyc_attr(allow_interpreted_subclasses=True)  # Python's __new__ under mypyc: pickles (values.py)
class Game:
    """One game of Protectors of the Realm (rules v0.7)."""

    setup: dict[str, Any]
    state: GameState
    actions: list[list[Any]]
    _chain: int

    def __init__(self, setup: dict[str, Any], _clone_of: Game | None = None):
        if _clone_of is not None:  # clone(): a mypyc-compiled class cannot be made by Game.__new__
            self.setup = dict(_clone_of.setup)
            self.state = _clone_of.state.clone()
            self.actions = [list(a) for a in _clone_of.actions]
            self._chain = _clone_of._chain
            return
        self.setup = dict(setup)
        self.state = build_state(self.setup)  # an imported position is complete here (position.py)
        self.actions = []
        self._chain = 0
        self._run()

    # -- the decisions the game waits for ------------------------------------------------------
    @property
    def step(self) -> str:
        return self.state.step

    @property
    def over(self) -> bool:
        return self.state.step == OVER

    @property
    def result(self) -> dict[str, Any] | None:
        return self.state.result

    def deciding_seats(self) -> list[str]:
        return deciding_seats(self.state)

    def pending(self, seat: str | None = None) -> list[Pending]:
        """Decisions the game waits for (``seat`` given: only that seat's)."""
        return [Pending(s, self.state.step, s in self.state.submissions)
                for s in self.deciding_seats() if seat is None or s == seat]

    def submit(self, seat: str, decision: Decision | str) -> list[str]:
        """Submit a seat's whole decision for the current step (a DM text or a decision object).

        All or nothing: a bad line raises ``OrderSyntaxError``/``IllegalOrderError`` naming every
        rejected line, and nothing is stored. Returns the normalised lines. "Once a DM is sent to
        the GM, your orders/choices are final" (rules: 003 Each Turn), so a second submission is a
        ``PhaseError``. A DM text is read as ``submit_dm`` reads it.

        In the orders step, ability lines that look at or change the decks (Weather forecast, Ashes of
        Power, Palantír) act at once; a message of only such lines leaves the seat pending, so it can
        send its orders afterwards (``docs/assumptions.md``, INSTANT_ABILITIES).
        """
        if isinstance(decision, str):
            return self.submit_dm(seat, decision).lines
        self._check_submitter(seat)
        return self._store(seat, legality.validate(self.state, seat, decision))

    def submit_dm(self, seat: str, text: str, lenient: bool = False,
                  aliases: dict[str, str] | None = None) -> DmResult:
        """Submit a seat's DM text (``docs/dm-syntax.md``): every line becomes part of the decision, is
        ignored (blank, markup, greeting, sign-off, ``//`` comment: ``DmResult.ignored``), or refuses the
        DM naming the line. ``lenient``: invalid lines are dropped instead (``DmResult.dropped``) and the
        rest stands. Display names (``players[...].name``) stand for seats, so do their colours
        (:meth:`colours`) and ``aliases`` (other names players use: ``{"Bobby": "Player#1"}``)."""
        self._check_submitter(seat)
        st = self.state
        names = {p.name: s for s, p in st.players.items()}
        for colour, who in self.colour_names().items():  # rules: 003 Orders, a player's colour
            names.setdefault(colour, who)
        taken = seat_map({**names, **{s: s for s in st.players}})  # the names as the reader keys them
        alias_keys: set[str] = set()
        for alias, who in (aliases or {}).items():
            if who not in st.players:
                raise ValidationError(f"aliases.{alias}", f"{who!r} is not a seat of this game")
            key = next(iter(seat_map({alias: who})), "")
            other = taken.get(key)
            if other is not None and other != who:
                # the reader would take the name for the other seat and drop the alias: text that could mean two
                # seats is refused, never guessed (assumption DM_NEVER_GUESSED)
                what = "another alias" if key in alias_keys else "a seat, its display name or colour"
                raise ValidationError(f"aliases.{alias}", f"already names {other} ({what}), so it cannot stand "
                                                          f"for {who}")
            if key and key not in taken:  # two aliases read alike ('Orange', 'orange') for two seats: refused too
                taken[key] = who
                alias_keys.add(key)
            names.setdefault(alias, who)
        # an unknown name's refusal lists the display names of the seats still in the game, as written
        living = [p.name for s, p in st.players.items() if not p.eliminated and p.name and p.name != s]
        reading = read_dm(text, players=names, step=st.step, turn=st.turn, listed=living, seat=seat,
                          island=st.board.island or ISLAND_NAME,  # a GM's board may number its Island otherwise
                          mates=team_mates(st, seat))  # "Hi Red Fortify P27": Red's order? (TEAM_MATE_ADDRESSED)
        decision, result = settle(st, seat, reading, lenient)
        return replace(result, lines=self._store(seat, decision, chose_none=reading.says_none()))

    def colours(self) -> dict[str, str]:
        """Every seat's colour name: the setup's ``players[i].colour``, else the board's
        (``engine/protectors/colours.py``). Public: every player knows the others' colours."""
        return setup_colours(self._players_spec())

    def colour_names(self) -> dict[str, str]:
        """Colour -> seat: the colours a DM may name seats by (one that is another seat's display
        name is left out: the name wins)."""
        return setup_colour_names(self._players_spec())

    def _players_spec(self) -> Any:
        return self.setup.get("players", len(self.state.players))  # a setup may give only a board

    def window_step(self) -> str:
        """The step whose time window applies now (``deadlines.window_step``: a Bank of Lannuvár round in a
        Dragon Attack has the Bank's)."""
        return window_step(self.state)

    def why_not_deciding(self, seat: str) -> str:
        """Why ``seat`` has no decision to make now, in words for its player."""
        st = self.state
        if st.players[seat].eliminated:
            return f"{seat} is eliminated: it has no more decisions to make"
        if st.step == DRAGON and bank.waits_for_reveal(st, seat):
            return (f"{seat} decides after the others' commitments are revealed (The Bank of Lannuvár): "
                    "send the commitments then")
        return f"{seat} has no decision to make in the {st.step} step"

    def _check_submitter(self, seat: str) -> None:
        st = self.state
        if seat not in st.players:
            raise ValidationError("seat", f"unknown seat {seat!r}")
        if seat not in self.deciding_seats():
            raise PhaseError(self.why_not_deciding(seat))
        if seat in st.submissions:
            raise PhaseError(f"{seat} has already submitted for the {st.step} step; choices are final")

    def _store(self, seat: str, decision: Decision, chose_none: bool = False) -> list[str]:
        """Store a validated decision; returns its lines. ``chose_none``: the DM said ``none``."""
        st = self.state
        lines = list(decision.texts)
        if isinstance(decision, OrdersDecision) and decision.abilities:
            # rules: 003 Kalu'Ak Weather forecast / Palantír — used during the Negotiation and Orders
            # phase, they act at once; a message of only such lines is not yet the seat's orders,
            # unless it also says 'none' (assumption INSTANT_ABILITIES).
            peeks.apply_instant(st, seat, decision.abilities)
            if chose_none:
                lines.append(NONE)
            self.actions.append(["submit", seat, lines])
            decision = replace(decision, abilities=())
            if decision == OrdersDecision() and not chose_none:
                return lines
            st.submissions[seat] = decision
            return lines
        st.submissions[seat] = decision
        self.actions.append(["submit", seat, lines])
        return lines

    def advance(self, force: bool = False) -> list[Event]:
        """Resolve the current step and run on to the next one that needs decisions.

        ``force``: seats that sent nothing get the rulebook defaults (rules: 003, inactive players).
        """
        st = self.state
        if st.step == OVER:
            raise PhaseError("the game is over")
        seats = self.deciding_seats()
        missing = [s for s in seats if s not in st.submissions]
        if missing and not force:
            raise PhaseError(f"waiting for {', '.join(missing)} in the {st.step} step")
        decisions = {s: st.submissions.get(s) or default_decision(st, s) for s in seats}
        start = len(st.events)
        self.actions.append(["advance", bool(force)])
        st.submissions = {}
        self._resolve(decisions, missing)
        self._run()
        return st.events[start:]

    # -- the turn machine ----------------------------------------------------------------------
    def _resolve(self, decisions: dict[str, Decision], defaulted: list[str]) -> None:
        """``defaulted``: the seats given the rulebook default (their DM did not come)."""
        st = self.state
        if st.step == BID:
            self._resolve_first_bids(cast("dict[str, BidDecision]", decisions))
        elif st.step == REBID:
            self._resolve_rebids(cast("dict[str, BidDecision]", decisions))
        elif st.step == BANK_BID:
            bids = cast("dict[str, BidDecision]", decisions)
            for s, d in bids.items():
                cons.fund(st, s, d.funding)
            self._resolve_ranking({s: d.bid for s, d in bids.items()})
        elif st.step == ORDERS:
            st.orders = cast("dict[str, OrdersDecision]", decisions)
            st.defaulted = list(defaulted)
            st.step = EXECUTE
        elif st.step == DRAGON:
            self._resolve_attack(cast("dict[str, DragonDecision]", decisions))
        elif st.step == CONSOLIDATION:
            self._resolve_consolidation(cast("dict[str, ConsolidationDecision]", decisions))

    def _run(self) -> None:
        st = self.state
        if check_end(st):
            return
        while st.step not in WAITING_STEPS and st.step != OVER:
            if st.pending_attacks and st.attack is None:
                if self._chain >= MAX_CHAINED_ATTACKS:
                    st.pending_attacks = []
                    continue
                self._chain += 1
                st.resume = st.step
                start_attack(st, st.pending_attacks.pop(0))
                st.step = DRAGON
                st.submissions = {}
                bank.begin(st)
                return
            self._chain = 0
            if st.step == RANKING:
                self._start_ranking()
            elif st.step == REVEAL:
                if st.reveal_queue:
                    reveal_next(st)
                else:
                    st.step = ORDERS
                    emit(st, "phase", "003 3. Negotiation and Orders", f"Turn {st.turn}: orders (72h).")
                    peeks.start_orders(st)
            elif st.step == EXECUTE:
                execute_orders(st)
                st.defaulted = []
                sanctum.sync(st)
                st.step = CONSOLIDATE_A
            elif st.step == CONSOLIDATE_A:
                self._consolidate_a()
                if check_end(st):  # the Eliminate Players step is the only internal step that ends games
                    return
            elif st.step == CONSOLIDATE_B:
                cons.production(st)
                st.step = CONSOLIDATION

    # -- 1. Protector Ranking ------------------------------------------------------------------
    def _resolve_first_bids(self, decisions: dict[str, BidDecision]) -> None:
        st = self.state
        bids = {}
        for s, d in decisions.items():  # rules: 003 Team Games, Pooled $Realm (the turn-1 bid)
            cons.fund(st, s, d.funding)
        for s, d in decisions.items():
            bids[s] = cons.set_aside_bid(st, s, d.bid, "003 Protector Ranking, bid")
        if st.options.factions:
            # rules: 003 Factions — chosen with the turn-1 bid, random for silent players; known to all.
            for s, d in decisions.items():
                chosen = d.faction if st.options.faction_choice == "chosen" else None
                st.players[s].faction = chosen or st.players[s].faction or st.rng.choice(FACTIONS)
            emit(st, "factions", "003 Factions", "Factions: " + ", ".join(
                f"{s} {p.faction}" for s, p in st.players.items()))
        eff = {s: bids[s] + self._great_game(s) for s in bids}
        groups, rebid = first_turn_order(list(st.players), eff, st.rng)
        st.ranking = [s for g in groups for s in g]
        st.rebid_groups = rebid
        zero = self._random_ties(list(st.players), eff, "bids")
        # ties at 0 are drawn now: the ranking line says so, or with a re-bid round to come (the ranking line
        # then comes a step later, and a position imported in between no longer knows these bids) this line
        told = drawn_text(zero) if rebid and zero else ""
        emit(st, "bids", "003 Protector Ranking", "Bids: " + bids_text(bids, self._told_bonus(bids)) + told,
             bids=bids)
        if rebid:
            st.step = REBID  # rules: 003 Protector Ranking — ties on turn 1 re-bid (16h)
        else:
            self._ranked(zero)

    def _resolve_rebids(self, decisions: dict[str, BidDecision]) -> None:
        st = self.state
        rebids = {}
        for s, d in decisions.items():
            cons.fund(st, s, d.funding)
        for s, d in decisions.items():
            rebids[s] = cons.set_aside_bid(st, s, d.bid, "003 Protector Ranking, re-bid")
        # the Great Game's bonus named as in the first round's line (GREAT_GAME_TOLD), when it counts here
        told = self._told_bonus(rebids) if st.options.great_game_rebids else None
        emit(st, "rebids", "003 Protector Ranking", "Re-bids: " + bids_text(rebids, told), bids=rebids)
        order = []
        groups = {g[0]: g for g in st.rebid_groups}
        if st.options.great_game_rebids:  # rules: 003 The Great Game — "all bids" (Options.great_game_rebids)
            rebids = {s: b + self._great_game(s) for s, b in rebids.items()}
        for s in st.ranking:
            if s in groups:
                order.extend(resolve_rebid(groups[s], rebids, st.rng))
            elif not any(s in g for g in st.rebid_groups):
                order.append(s)
        st.ranking = order
        # the ranking line says which places the re-bids left to a draw (the first round's ties at 0: its line)
        ties: list[tuple[list[str], str, int]] = []
        for g in st.rebid_groups:
            ties += self._random_ties(g, rebids, "re-bids")
        st.rebid_groups = []
        self._ranked(ties)

    def _start_ranking(self) -> None:
        """Turn 2+: bids made in the last Consolidation are revealed; Bank of Lannuvár seats bid after."""
        st = self.state
        late = [s for s in st.active() if "bank_bid" in st.players[s].used_turn]
        if late:
            # rules: 003 The Bank of Lannuvár — "12h to give their highly informed orders, once the other
            # players' choices have been revealed"; two or more bid at the same time
            others = {s: st.next_bids.get(s, 0) for s in st.active() if s not in late}
            emit(st, "bids", "003 The Bank of Lannuvár", "Bids revealed: " + bids_text(others), bids=others)
            st.step = BANK_BID
            return
        self._resolve_ranking({})

    def _resolve_ranking(self, late: dict[str, int]) -> None:
        """Bids set aside in the last Consolidation (late ones, from the Bank of Lannuvár, pay now)."""
        st = self.state
        active = st.active()
        bids = {s: st.next_bids.get(s, 0) for s in active}
        for s, b in late.items():
            bids[s] = cons.set_aside_bid(st, s, b, "003 The Bank of Lannuvár, late bid")
            st.players[s].used_turn.discard("bank_bid")
        eff = {s: b + self._great_game(s) for s, b in bids.items()}
        st.ranking = order_by_bids(active, eff, st.ranking)
        st.next_bids = {}
        emit(st, "bids", "003 Protector Ranking", "Bids: " + bids_text(bids, self._told_bonus(bids)), bids=bids)
        self._ranked()

    def _told_bonus(self, bids: dict[str, int]) -> dict[str, int]:
        """The Great Game's bonus as the report names it: a Lannuvár seat's (its faction is known to all); one
        gained from the Wizard Sanctum is that seat's secret choice, so it is not named (the ranking shows it)."""
        return {s: self._great_game(s) for s in bids if self.state.players[s].faction == LANNUVAR}

    def _great_game(self, seat: str) -> int:
        # rules: 003 Lannuvár, The Great Game of politics — +15 per Province controlled on bids (the Island is none:
        # ISLAND_NOT_COUNTED)
        return 15 * len(self.state.mainland(seat)) if has(self.state, seat, "great_game") else 0

    def _random_ties(self, seats: list[str], bids: dict[str, int], what: str) -> list[tuple[list[str], str, int]]:
        """Turn 1's groups placed at random (the first round's ties at 0, ``what`` "bids"; the ties left
        after a re-bid, "re-bids"), each in its drawn order, for the ranking line to say so."""
        place = {s: i for i, s in enumerate(self.state.ranking)}
        return [(sorted(g, key=lambda s: place.get(s, len(place))), what, bids[g[0]])
                for g in random_ties(seats, bids, zero_only=what == "bids")]

    def _ranked(self, ties: list[tuple[list[str], str, int]] | None = None) -> None:
        st = self.state
        active = st.active()
        b = brackets(active)
        emit(st, "ranking", "003 Protector Ranking", ranking_text(active, b, ties), ranking=list(active))
        begin_reveal(st)
        st.step = REVEAL

    # -- Dragon --------------------------------------------------------------------------------
    def _resolve_attack(self, decisions: dict[str, DragonDecision]) -> None:
        st = self.state
        if bank.needs_second_round(st, decisions):
            return  # rules: 003 The Bank of Lannuvár — its seats now decide, after the reveal
        decisions = bank.merged(st, decisions)
        # rules: 003 Work, work! — the order is discarded when all its units are sent off to the Dragon
        sent_off = [c.src for s, d in decisions.items() for c in d.commits
                    if st.work_orders.get(c.src, (None,))[0] == s and c.count >= st.provinces[c.src].units]
        resolve_attack(st, decisions)
        sanctum.sync(st)
        for prov in sent_off:
            st.work_orders.pop(prov, None)
        st.step = st.resume or REVEAL
        st.resume = None
        # rules: 003 Dragon's Power Level (THRESHOLD_CHAIN) — checked again after every attack; a queued After
        # Burner is the threshold's own attack, and the check follows it (queued here too, the Dragon attacked a
        # third time at a DPL the After Burner had left below the threshold)
        if threshold_reached(st) and "threshold" not in st.pending_attacks \
                and "after_burner" not in st.pending_attacks:
            st.pending_attacks.append("threshold")

    # -- 5. Consolidation ----------------------------------------------------------------------
    def _consolidate_a(self) -> None:
        st = self.state
        emit(st, "phase", "003 5. Consolidation", f"Turn {st.turn}: consolidation.")
        for p in st.players.values():  # rules: 003 Faith alone sustains us! lasts until this point
            p.used_turn.discard("faith_active")
        cons.cleanup_and_supply(st)
        mountain_king.ambush(st)  # rules: 003 Hodir — "right before the Eliminating Player step"
        cons.seize_and_eliminate(st)
        sanctum.sync(st)
        st.step = CONSOLIDATE_B
        if st.eliminated_this_turn and threshold_reached(st) and not check_end(st):
            st.pending_attacks.append("elimination")

    def _resolve_consolidation(self, decisions: dict[str, ConsolidationDecision]) -> None:
        st = self.state
        for s in list(st.ranking):  # rules: 003 Team Games — the pool is shared out first
            if s in decisions:
                cons.fund(st, s, decisions[s].funding)
        for s in list(st.ranking):
            if s in decisions:
                cons.apply_decision(st, s, decisions[s], funded=True)
        for p in st.players.values():  # rules: 003 The Bank of Lannuvár / An offer — their turn is over
            if p.bank_until is not None and p.bank_until <= st.turn:
                p.bank_until = None
            if p.offer_turn is not None and p.offer_turn <= st.turn:
                p.offer_turn = None
        st.golden_work_done = {}
        count, vps = standings(st)
        # the turn's end as a past turn's private summary tells it (report.turn_record)
        record: dict[str, Any] = {"turn": st.turn, "provinces": count, "vp": vps}
        record.update(report.turn_record(st))
        st.history.append(record)
        end_turn_cards(st)
        if st.times_up:
            times_up(st)
            return
        st.turn += 1
        st.orders = {}
        st.eliminated_this_turn = []
        st.step = RANKING

    # -- views ---------------------------------------------------------------------------------
    def view(self, seat: str | None = None) -> dict[str, Any]:
        """The game as ``seat`` may see it; ``None`` is the GM, who sees everything.

        Hidden from a seat: other seats' $Realm, their unrevealed bids, orders and commitments
        (even whether they submitted), the deck order, other seats' looks at the decks, and private
        events.
        """
        return seat_view(self, seat)

    def events(self, seat: str | None = None, since: int = 0) -> list[Event]:
        return [e for e in self.state.events[since:] if e.visible(seat)]

    def report(self, turn: int | None = None, seat: str | None = None, since: int | None = None) -> str:
        """The text a GM posts for the players: a turn's public events (``seat``: with its own private
        ones), or with ``since`` only the events from that index on; display names throughout
        (engine/protectors/report.py)."""
        return report.public_report(self.state, turn, seat, since)

    def report_since(self, index: int, seat: str | None = None) -> tuple[str, int]:
        """What is new since event ``index`` (the last post) and the index to store for the next one;
        indices count ``self.events(seat)`` (every event for the GM)."""
        return report.report_since(self.state, index, seat)

    def private_summary(self, seat: str, turn: int | None = None, windows: dict[str, float] | None = None) -> str:
        """``seat``'s DM summary: balance, units, its orders and what happened to each, and why. ``windows``: the
        game's own decision windows, seconds per step kind (the GM's ``deadlines``: the game file's, the service's),
        so its closing ``Now: send your orders DM (within 48h).`` says the game's window, not the rulebook's."""
        return report.private_summary(self, seat, turn, windows)

    # -- enumeration for agents and envs -------------------------------------------------------
    def orderable(self, seat: str) -> list[str]:
        return legality.orderable(self.state, seat)

    def legal_orders(self, seat: str, province: str) -> list:
        return legality.legal_orders(self.state, seat, province)

    def legal_abilities(self, seat: str) -> list:
        """Ability lines ``seat`` may add to its decision now (rules: 003 Factions, Island Rules)."""
        return legal_abilities(self.state, seat)

    def deadline_hours(self, step: str | None = None, windows: dict[str, float] | None = None) -> int | float | None:
        """The time window of ``step`` (default: now) in hours: 72/24/16/12, 48 for 24 in team games; ``windows``
        (seconds per step kind, a GM's ``deadlines``) replace those for the steps they name."""
        return deadline_hours(self.state, step, windows)

    def cards_in_play(self) -> set[str]:
        return active_cards(self.state)

    # -- copies and storage --------------------------------------------------------------------
    def clone(self) -> Game:
        return Game(self.setup, self)

    def to_blob(self) -> bytes:
        """A compact, self-contained record that replays to exactly this game."""
        return msgpack.packb({"v": BLOB_VERSION, "setup": self.setup, "actions": self.actions},
                             use_bin_type=True)

    @classmethod
    def from_blob(cls, blob: bytes) -> Game:
        try:
            data = msgpack.unpackb(blob, raw=False, strict_map_key=False)
        except Exception as err:  # msgpack raises several unrelated types
            raise ValidationError("blob", f"not a Regent game blob ({err})") from err
        if not isinstance(data, dict) or data.get("v") != BLOB_VERSION:
            version = data.get("v") if isinstance(data, dict) else None
            raise ValidationError("blob", f"unsupported blob version {version!r}")
        game = cls(replay_setup(data["setup"]))  # a record from before drawn seeds keeps seed 0
        for i, action in enumerate(data["actions"]):
            try:
                if action[0] == "submit":
                    game.submit(action[1], "\n".join(action[2]))
                elif action[0] == "advance":
                    game.advance(force=bool(action[1]))
                else:
                    raise ValidationError(f"blob.actions[{i}]", f"unknown action {action[0]!r}")
            except (OrderSyntaxError, RegentError) as err:
                raise ValidationError(f"blob.actions[{i}]", f"does not replay: {err}") from err
        return game
