"""One hosted game: the engine game plus what only the service knows (tokens, controllers, clocks).

Every method here is synchronous and CPU-bound; the server calls them in a worker thread while it
holds the game's ``asyncio.Lock``, so operations on one game are serialised and never stall the
event loop. A method either completes and is committed to the store, or leaves the game unchanged.
The one exception is ``decide_ai``: an AI seat decides on a copy of the game without the lock
(``next_ai_turn`` takes the copy, ``commit_ai`` submits the decision under the lock again).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import logging
import secrets
import time
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from engine.errors import RegentError, ValidationError
from engine.protectors.defaults import default_decision
from engine.protectors.game import Game
from engine.protectors.position import before_position, steps_before
from engine.protectors.report import display_names, quiet_turn
from engine.protectors.setup import replay_setup
from service import ai, clock, defaulted, gamefile, seat_names, validate
from service.errors import (
    CONFLICT,
    FORBIDDEN,
    INTERNAL,
    INVALID_ORDER,
    RpcError,
    StoreFailed,
    clip,
    from_exception,
    invalid,
)
from service.hosted_log import apply_action, digest, divergence, engine_game, open_step_by, within
from service.hosted_setup import service_meta, split_setup
from service.position_notes import position_notes
from service.posting import under_turn
from service.store import Store, StoredGame, pack, unpack

log = logging.getLogger("regent.service")

EXPORT_KIND = gamefile.KIND  # game.export writes the game file (service/gamefile.py)
EXPORT_VERSION = gamefile.FORMAT
GM = None  # the GM's "seat" in views and event visibility


_DECIDE_NOW = object()  # _ai_submit: no decision made beforehand


@dataclass(frozen=True)
class AiTurn:
    """An AI seat's decision to make: taken under the game's lock, made outside it on ``game`` (a copy of
    the game as it stood; the agent sees only the seat's own context of it), then committed under the
    lock only while ``live`` is still the hosted game and no step has been resolved or undone since."""

    seat: str
    agent: str
    seed: int
    game: Game
    live: Game
    resolved: int


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


LOOKS_ONLY = ("these act at once (what they showed is in game.view's peeks and game.log); your orders for this step "
              "are still to come: send them in another DM, or none for no orders")


class HostedGame:
    """A game as the service hosts it. Create with :meth:`create`, :meth:`restore` or :meth:`imported`."""

    def __init__(self, game_id: str, game: Game, meta: dict[str, Any], rows: list, store: Store | None):
        self.id = game_id
        self.game = game
        self.notes: list[str] = []  # said once as the game is made (``position_notes``); not stored
        self.meta = meta
        self.rows = rows  # [(row, at, digest)] as stored; row = {"a": engine action, "by": who}
        self._replayed: tuple[tuple[int, str], list[defaulted.Defaulted]] | None = None  # _defaulted's replay
        self.store = store
        self.agents: dict[str, Any] = {}
        # the background work's own agents (decide_ai runs outside the lock, beside calls that use ``agents``)
        self.pump_agents: dict[str, Any] = {}
        self.broken: str | None = None
        # Set when the stored actions replay but end in another state than the one stored (a rules fix
        # since the game was played changed a step it went through): the game is then read-only, and
        # game.export + game.import carry it on under the current rules (``check``).
        self.stale: str | None = None
        self.step_started = _step_started(meta, rows)
        self.by = open_step_by(rows, meta.get("position_ai"))  # who submitted for each seat in the current step
        self._stored_meta = pack(meta)  # the metadata as last stored: a failed write puts it back (_commit)
        # Steps opened since the game came into memory (an advance or an undo opens one): a call remembers the
        # number it arrived at (``arrival``), and ``still_open`` refuses to act on a later step. ``ended``: how the
        # last few steps ended, (that number, turn, step, how), for the message saying so.
        self.opened = 0
        self.ended: deque[tuple[int, int, str, str]] = deque(maxlen=16)

    # -- construction --------------------------------------------------------------------------
    @classmethod
    def create(cls, game_id: str, setup: Any, store: Store | None) -> tuple[HostedGame, str, dict[str, str]]:
        validate.check_setup(setup)
        try:  # what the rules refuse in the setup is named from the request, as a wrong shape is
            engine_setup, service = split_setup(setup)
            game = engine_game(engine_setup, "setup")
            notes = position_notes(game, engine_setup.get("position"))
            meta = service_meta(engine_setup, service, list(game.state.players), game)
        except ValidationError as err:
            raise within("setup", err) from None
        for seat, agent in (meta.get("position_ai") or {}).items():  # an AI played the seat in this turn
            meta["ai_played"][seat] = [agent]
            meta.setdefault("ai_imported", {})[seat] = [agent]
            meta.setdefault("ai_turns", {})[seat] = [game.state.turn]
            gamefile.note_history(meta.setdefault("ai_history", {}), seat, game.state.turn, agent,
                                  meta["ai_levels"].get(seat, {}).get(agent))
        made = cls._new(game_id, game, meta, [], store)
        made[0].notes = notes
        return made

    @classmethod
    def _new(cls, game_id, game, meta, rows, store):
        gm_token = secrets.token_urlsafe(24)
        seat_tokens = {s: secrets.token_urlsafe(24) for s in game.state.players}
        meta["gm"] = token_hash(gm_token)
        meta["seats"] = {s: token_hash(t) for s, t in seat_tokens.items()}
        meta["created"] = time.time()
        hosted = cls(game_id, game, meta, rows, store)
        hosted.flags()
        if store is not None:
            store.create(game_id, game.setup, meta, rows)
        hosted.stored(meta)
        return hosted, gm_token, seat_tokens

    @classmethod
    def restore(cls, stored: StoredGame, store: Store) -> HostedGame:
        """Replay a stored game and check the replay matches the digest stored with its last action."""
        game = Game(replay_setup(stored.setup))  # stored before drawn seeds: seed 0, as it was played
        rows = [(row, at, dg) for row, at, dg in stored.actions]
        hosted = cls(stored.id, game, stored.meta, rows, store)
        last = max((i for i, (row, _, _) in enumerate(rows) if row["a"][0] == "advance"), default=-1)
        start = 0  # the events before the last resolved step
        try:
            for i, (row, _, _) in enumerate(rows):
                if i == last:
                    start = len(game.state.events)
                apply_action(game, row["a"])
        except RegentError as err:
            hosted.broken = f"stored actions do not replay: {err}"
            return hosted
        if rows and digest(game) != rows[-1][2]:
            hosted.stale = divergence(replay_setup(stored.setup), rows)
        elif last >= 0 and not rows[last][0].get("bank_round") and gamefile.bank_round_began(game, start):
            # a game stored in a Bank of Lannuvár round before its advance row was marked (older Regent): marked
            # now, so the round keeps the AI decisions of the round it answers, as one stored since does
            rows[last][0]["bank_round"] = True
            hosted.by = open_step_by(rows, stored.meta.get("position_ai"))
        return hosted

    @classmethod
    def imported(cls, game_id: str, blob: Any, store: Store | None) -> tuple[HostedGame, str, dict[str, str]]:
        if not isinstance(blob, bytes):
            raise invalid("blob", "must be bytes (msgpack bin): a game file (regent new, game.export) or engine blob")
        validate.check_game_file(blob)  # the record's shape, with the field path (issue 23 item 3)
        try:
            source = gamefile.loads(blob, "blob")  # any game file format; validates the whole action log
        except (TypeError, KeyError, IndexError, AttributeError) as err:
            raise invalid("blob", f"not a game file ({type(err).__name__}: {clip(str(err), 100)})") from None
        game = engine_game(source.game.setup, "blob.setup")
        # a file with no action yet stands where its position put it: what that left to a default is told
        notes = [] if source.game.actions else position_notes(game, source.game.setup.get("position"))
        now = time.time()
        rows = []
        actions = source.game.actions
        advances = [i for i, a in enumerate(actions) if a[0] == "advance"]
        last = advances[-1] if advances else -1
        start = 0  # the events before the last resolved step
        for i, action in enumerate(actions):
            if i == last:
                start = len(game.state.events)
            apply_action(game, action)
            rows.append(({"a": action, "by": "import"}, now, digest(game)))
        # the step still open: a decision the file's AI seat made in it (its step_ai) is the AI's, so the report
        # that resolves the step names it under "Played by AI" (``report``), as regent adjudicate's does; in a Bank
        # of Lannuvár round, the file's step_ai holds the AI decisions of the round it answers too
        first = last + 1
        if last >= 0 and gamefile.bank_round_began(game, start):
            rows[last][0]["bank_round"] = True
            first = advances[-2] + 1 if len(advances) > 1 else 0
        for i in range(first, len(rows)):
            row = rows[i][0]
            agent = source.step_ai.get(row["a"][1]) if row["a"][0] == "submit" else None
            if agent:
                row["by"] = f"import:{agent}"
        service_part = {k: source.service[k] for k in ("auto_advance", "expiry") if k in source.service}
        if source.deadlines:
            service_part["deadlines"] = source.deadlines
        meta = service_meta(game.setup, service_part, list(game.state.players))
        meta["ai_levels"] = {s: dict(m) for s, m in source.ai_levels.items()}  # how the GM chose them (a label)
        for seat, name in source.agents.items():
            if seat in meta["controllers"]:
                meta["controllers"][seat] = agent = ai.resolve(name, f"blob.agents.{seat}")
                gamefile.note_level(meta["ai_levels"], seat, agent, name, drop=False)
        meta["ai_played"] = {s: list(a) for s, a in source.ai_played.items()}
        # the file's record of who played each turn, as the GM chose them then (a label)
        meta["ai_history"] = {s: [list(e) for e in h] for s, h in source.ai_history.items()}
        # the file's turns an AI decided in, per seat; None for a seat it names without them (a file written
        # before they were kept: its reports name that seat for every turn, and so does the exported file)
        meta["ai_turns"] = {s: list(source.ai_turns[s]) if source.ai_turns.get(s) else None
                            for s, a in source.ai_played.items() if a}
        # and the agents the file names for them (meta's ai_played grows as this service's AIs decide)
        meta["ai_imported"] = {s: list(a) for s, a in source.ai_played.items() if a}
        clock.from_file(meta, source.service.get("clock"), len(actions), now)  # as the GM left it there
        if source.dms_read:  # kept for the file exported back: `regent adjudicate` does not read those DMs again
            meta["dms_read"] = {f: list(d) for f, d in source.dms_read.items()}
        made = cls._new(game_id, game, meta, rows, store)
        made[0].notes = notes
        return made

    # -- tokens --------------------------------------------------------------------------------
    def who(self, token: Any) -> str | None:
        """The seat a token speaks for (``None``: the GM); ``forbidden`` if it is neither.

        Every stored hash is compared (in constant time) whatever matches, so the time taken does
        not say which seat a token belongs to.
        """
        if not isinstance(token, str):
            raise invalid("token", "must be a string")
        h = token_hash(token)
        found: list[str | None] = []
        if hmac.compare_digest(h, self.meta["gm"]):
            found.append(GM)
        for seat, sh in self.meta["seats"].items():
            if hmac.compare_digest(h, sh):
                found.append(seat)
        if not found:
            raise RpcError(FORBIDDEN, "token: not a token of this game", {"field": "token"})
        return found[0]

    def require_gm(self, who: str | None, method: str) -> None:
        if who is not GM:
            raise RpcError(FORBIDDEN, f"{method} needs the GM token", {"field": "token"})

    @property
    def frozen(self) -> bool:
        """Nothing may change the game on its own (AI seats, auto-advance, deadlines): it does not replay
        (``broken``) or replays to another state than the stored one (``stale``)."""
        return bool(self.broken or self.stale)

    def check(self, changes: bool = False) -> None:
        """Refuse a call the game cannot take: any, when its stored actions do not replay; a change, when
        they replay to another state than the stored one (``stale``: readable and exportable)."""
        if self.broken:
            raise RpcError(INTERNAL, f"game {self.id} is unavailable: {self.broken}")
        if self.stale and changes:
            raise RpcError(CONFLICT, f"game {self.id} is read-only: {self.stale}. To go on under the current "
                                     "rules, game.export it and game.import the file as a new game",
                           {"stale": self.stale})

    # -- the step a call arrived at ----------------------------------------------------------
    def arrival(self) -> int:
        """The step open now, as a call remembers it on arrival (before it waits for anything)."""
        return self.opened

    def step_ended(self, turn: int, step: str, how: str) -> None:
        """The open step (``step`` of ``turn``) ended ``how`` ("resolved by itself when the last decision came
        in"); another opens."""
        self.ended.append((self.opened, turn, step, how))
        self.opened += 1

    def still_open(self, arrived: int, nothing: str) -> None:
        """``conflict`` unless the step open when the call arrived (``arrival``) is still open: a call never acts
        on a later step (a step resolved by itself while the call waited for the AI seats). ``nothing``: what the
        call did not do ("nothing was forced")."""
        if arrived == self.opened:
            return
        g = self.game
        then = next(((t, s, how) for n, t, s, how in self.ended if n == arrived), None)
        now = "the game is over" if g.over else f"the {g.step} step of turn {g.state.turn} is open now"
        if then is None:
            said = "the step open when this call arrived has ended"
            details: dict[str, Any] = {}
        else:
            said = f"the {then[1]} step of turn {then[0]} {then[2]}"
            details = {"arrived_turn": then[0], "arrived_step": then[1]}
        raise RpcError(CONFLICT, f"{said} while this call waited; {now}: {nothing}",
                       {**details, "turn": g.state.turn, "step": g.step})

    # -- reading -------------------------------------------------------------------------------
    def deadline(self, kind: str) -> float:
        # the GM's extensions and pauses (service/clock.py) move it on
        return self.step_started + self.meta["windows"].get(kind, 0.0) + clock.shift(self.meta)

    def pending(self, who: str | None) -> list[dict[str, Any]]:
        out = []
        for p in self.game.pending(who):
            entry = {"seat": p.seat, "kind": p.kind, "deadline": self.deadline(self.game.window_step()),
                     "controller": self.meta["controllers"].get(p.seat), "submitted": p.submitted}
            out.append(entry)
        return out

    def view(self, who: str | None) -> dict[str, Any]:
        v = self.game.view(who)
        v["game_id"] = self.id
        v["pending"] = self.pending(who)
        v["controllers"] = dict(self.meta["controllers"])
        v["controller_labels"] = self.controller_labels()  # as the GM chose them: "steward -> steward-search"
        v["played_by_ai"] = self.played_by_ai(who)
        v["played_by_labels"] = self.played_by_labels(who)  # the same, each as the GM chose it when it played
        v["step_started"] = self.step_started
        v["over"] = self.game.over
        v["clock"] = clock.describe(self.meta)
        v["colours"] = self.game.colours()  # public: rules: 003 Orders, players named by colour
        if self.stale:
            v["stale"] = self.stale
        return v

    def controller_labels(self) -> dict[str, str]:
        """AI seat -> its agent as the GM chose it (``steward -> steward-search``, or the agent alone): the view's
        ``controller_labels``, what seat listings name an AI seat by."""
        levels = self.meta.get("ai_levels") or {}
        return {s: ai.agent_label(a, levels.get(s, {}).get(a)) for s, a in self.meta["controllers"].items() if a}

    def played_by_labels(self, who: str | None) -> dict[str, list[str]]:
        """``played_by_ai`` (``who`` may be told of them) with each agent as the GM chose it when it played, every
        level it played by (``expert -> search``, then ``steward -> steward-search``): what the summary picture's
        Played by column and the view's ``played_by_labels`` say."""
        return self.named({s: a for s, a in self.played_by_ai(who).items() if a}, None, who)

    def named(self, deciders: dict[str, list[str]], turns: set[int] | None,
              who: str | None = GM) -> dict[str, list[str]]:
        """``deciders`` (seat -> agents) each as the GM chose it when it decided for the seat in ``turns`` (``None``:
        in the game): the levels the record gives (``_history`` as ``who`` may be told it), else the seat's level now
        (``ai_levels``)."""
        history, levels = self._history(who), self.meta.get("ai_levels") or {}
        out = {}
        for seat, agents in deciders.items():
            told: list[tuple[str, str | None]] = []
            for agent in agents:
                found = [lv for t, a, lv in history.get(seat, []) if a == agent and (turns is None or t in turns)]
                told += [(agent, lv) for lv in found] or [(agent, levels.get(seat, {}).get(agent))]
            out[seat] = ai.agent_labels(told)
        return out

    def decided_label(self, seat: str, agent: str) -> str:
        """``agent`` as the GM chose it when it last decided for ``seat`` (the seat's level now if nothing says)."""
        told = [lv for _, a, lv in self._history().get(seat, []) if a == agent]
        return ai.agent_label(agent, told[-1] if told else (self.meta.get("ai_levels") or {}).get(seat, {}).get(agent))

    def _history(self, who: str | None = GM) -> dict[str, list[list[Any]]]:
        """Seat -> ``[turn, agent, level]`` (the game file's ``ai_history``): an imported file's record, then every
        decision an agent submitted here with the level its row keeps (a row stored before rows kept it: the seat's
        level now, as the reports named it then). For a seat ``who``, without the other seats' decisions in the open
        step (``_unrevealed``: whether a seat's AI decided there is told once the step resolves)."""
        out = {s: [list(e) for e in h] for s, h in (self.meta.get("ai_history") or {}).items()}
        levels = self.meta.get("ai_levels") or {}
        rows = [row for row, _, _ in self.rows]
        last = max((i for i, row in enumerate(rows) if row["a"][0] == "advance"), default=-1)
        hidden = self._unrevealed(who)
        for i, row in enumerate(rows):
            if row["a"][0] == "submit" and ":" in row["by"] and "turn" in row \
                    and not (i > last and (row["a"][1], row["by"].split(":", 1)[1]) in hidden):
                seat, agent = row["a"][1], row["by"].split(":", 1)[1]
                level = row["level"] if "level" in row else levels.get(seat, {}).get(agent)
                gamefile.note_history(out, seat, row["turn"], agent, level)
        return out

    def played_by_ai(self, who: str | None) -> dict[str, list[str]]:
        """Seat -> the agents that ever decided for it, as ``who`` (a seat; GM; ``""``: every player, the game's
        channel) may be told: without an AI decision another seat's open step holds, unless that agent decided for
        it in a step already resolved (``_unrevealed``)."""
        hidden = self._unrevealed(who) - self._resolved_ai()
        out = {}
        for seat, agents in self.meta["ai_played"].items():
            shown = [a for a in agents if (seat, a) not in hidden]
            if shown or not agents:
                out[seat] = shown
        return out

    def _unrevealed(self, who: str | None) -> set[tuple[str, str]]:
        """(seat, agent) of the AI decisions in the open step of the seats other than ``who`` (none for the GM).
        A seat learns neither another seat's decision nor whether it was made (protocol.md): that an AI decided
        for a seat the GM handed over mid-step says its player had not submitted, so it is told once the step
        resolves."""
        if who is GM or self.game.over:
            return set()
        submitted = {p.seat for p in self.game.pending() if p.submitted and p.seat != who}
        return {(s, b.split(":", 1)[1]) for s, b in self.by.items() if ":" in b and s in submitted}

    def _resolved_ai(self) -> set[tuple[str, str]]:
        """(seat, agent) of the AI decisions in resolved steps: the action log's before the open step, and an
        imported file's record for its turns before this one (or all of them, where it does not say which)."""
        rows = [row for row, _, _ in self.rows]
        last = max((i for i, row in enumerate(rows) if row["a"][0] == "advance"), default=-1)
        out = {(row["a"][1], row["by"].split(":", 1)[1]) for row in rows[:last + 1]
               if row["a"][0] == "submit" and ":" in row["by"]}
        imported = self.meta.get("ai_imported") or {}
        for seat, known in (self.meta.get("ai_turns") or {}).items():
            if known is None or any(t < self.game.state.turn for t in known):
                out |= {(seat, a) for a in imported.get(seat, ())}
        return out

    def log(self, who: str | None, since: int) -> dict[str, Any]:
        visible = self.game.events(who)
        out = []
        for n, e in enumerate(visible[since:], start=since):
            d = e.to_dict()
            if who is not GM:
                d.pop("visible_to", None)
            d["n"] = n
            out.append(d)
        return {"events": out, "next": len(visible)}

    def export(self) -> bytes:
        """The game file (service/gamefile.py): the same format ``regent new``/``adjudicate`` write."""
        agents = {s: a for s, a in self.meta["controllers"].items() if a}
        service_part = {"auto_advance": self.meta["auto_advance"],
                        "expiry": {k: v for k, v in self.meta["expiry"].items()},
                        "by": [row["by"] for row, _, _ in self.rows], "game_id": self.id}
        carried = clock.to_file(self.meta, len(self.game.actions))  # a step held by game.undo, a paused clock
        if carried:
            service_part["clock"] = carried
        return gamefile.dumps(gamefile.GameFile(
            self.game, agents=agents, ai_played={s: list(a) for s, a in self.meta["ai_played"].items()},
            ai_levels={s: dict(m) for s, m in (self.meta.get("ai_levels") or {}).items()},
            ai_history=self._history(), ai_turns=self._ai_turns(),
            dms_read={f: list(d) for f, d in (self.meta.get("dms_read") or {}).items()},
            deadlines=dict(self.meta["windows"]), step_started=self.step_started,
            step_ai={s: b.split(":", 1)[1] for s, b in self.by.items() if ":" in b},  # the open step's AI decisions
            service=service_part))

    def settings(self) -> dict[str, Any]:
        """The service keys of an exported setup (``game.export_position``): the game's windows, ``auto_advance``,
        ``expiry``, ``step_ai``, the seats whose decision in the open step their AI made, and ``ai_levels``, the
        levels the GM chose AI seats by (a label: gamefile.py)."""
        return {"deadlines": dict(self.meta["windows"]), "auto_advance": self.meta["auto_advance"],
                "expiry": dict(self.meta["expiry"]),
                "step_ai": {s: b.split(":", 1)[1] for s, b in self.by.items() if ":" in b},
                "ai_levels": {s: dict(m) for s, m in (self.meta.get("ai_levels") or {}).items()},
                "dms_read": {f: list(d) for f, d in (self.meta.get("dms_read") or {}).items()}}

    def _ai_turns(self) -> dict[str, list[int]]:
        """Seat -> the turns an AI decided for it (the game file's ``ai_turns``): the imported file's and the
        action log's. A seat the imported file named without its turns stays without them."""
        known = self.meta.get("ai_turns") or {}
        out = {s: list(t) for s, t in known.items() if t is not None}
        for seat, turn, _agent in self._ai_submits():
            if known.get(seat, []) is None:
                continue  # named by the imported file without its turns: every turn, as there
            turns = out.setdefault(seat, [])
            if turn not in turns:
                turns.append(turn)
        return out

    def _ai_submits(self, rows: list | None = None) -> Iterator[tuple[str, int, str]]:
        """(seat, turn, agent) for every decision an agent submitted here, from the action log's ``by``
        (``ai:<agent>``; an imported game's earlier rows are ``import``); ``rows``: only those."""
        for row in [row for row, _, _ in self.rows] if rows is None else rows:
            if row["a"][0] == "submit" and ":" in row["by"] and "turn" in row:
                yield row["a"][1], row["turn"], row["by"].split(":", 1)[1]

    # -- changing the game ---------------------------------------------------------------------
    def flags(self) -> bool:
        """Refresh meta's ``over`` and ``watch`` (copied to the store's columns, service/store.py):
        ``watch`` while an AI seat has a decision pending, the step is ready to resolve by itself,
        or deadlines resolve by themselves. Returns whether they changed."""
        g = self.game
        over = bool(g.over)
        pending = [] if over else g.pending()
        watch = not over and (bool(self.meta.get("expiry", {}).get("auto"))
                              or any(self.meta["controllers"].get(p.seat) and not p.submitted for p in pending)
                              or (bool(self.meta.get("auto_advance")) and bool(pending)
                                  and all(p.submitted for p in pending)))
        changed = self.meta.get("over") != over or self.meta.get("watch") != watch
        self.meta["over"], self.meta["watch"] = over, watch
        return changed

    def _commit(self, new_rows: list, meta_changed: bool = False) -> None:
        """Store the engine actions just taken; on failure, put the game back as it was stored."""
        meta_changed = self.flags() or meta_changed
        if self.store is None:
            self.rows.extend(new_rows)
            return
        try:
            self.store.append(self.id, len(self.rows), new_rows, self.meta if meta_changed else None)
        except Exception:
            log.exception("store write failed; rebuilding game %s from the store", self.id)
            self._rebuild()
            self._unchanged()
            raise StoreFailed("the game could not be stored; nothing was changed") from None
        self.rows.extend(new_rows)
        if meta_changed:
            self.stored(self.meta)

    def stored(self, meta: dict[str, Any]) -> None:
        """``meta`` is what the store holds now (``_unchanged`` puts it back after a failed write)."""
        self._stored_meta = pack(meta)

    def _unchanged(self) -> None:
        """After a failed write: what the service keeps beside the game as it was stored too (the call had
        already moved the step's clock, given a seat to an AI, cleared who submitted, a step held by game.undo)."""
        self.meta = unpack(self._stored_meta)
        self.step_started = _step_started(self.meta, self.rows)
        self.by = open_step_by(self.rows, self.meta.get("position_ai"))
        self.flags()

    def _rebuild(self) -> None:
        game = Game(self.game.setup)
        for row, _, _ in self.rows:
            apply_action(game, row["a"])
        self.game = game

    def submit(self, who: str | None, seat: Any, text: str, by: str, lenient: bool = False,
               aliases: dict[str, str] | None = None) -> dict[str, Any]:
        named = seat_names.seat_named(self.game, seat)  # Player#3, a display name, a colour (docs/service.md)
        if who is not GM and named != who:  # a seat learns nothing of the other seats, not even which names exist
            raise RpcError(FORBIDDEN, "seat: a seat token submits only for its own seat", {"field": "seat"})
        if named is None:
            raise seat_names.unknown_seat_error(self.game, "seat", seat)
        seat = named
        decided = self.by.get(seat, "")
        if ":" in decided and seat in self.game.state.submissions and seat in self.game.deciding_seats():
            # its AI decided (rules: 003 Each Turn, DMs are final): said as regent adjudicate says it, not "Player#6 has
            # already submitted", which a GM or a player back from a break reads as a DM the player sent
            agent = decided.split(":", 1)[1]
            label = ai.agent_label(agent, (self.meta.get("ai_levels") or {}).get(seat, {}).get(agent))
            raise RpcError(CONFLICT, f"{seat_names.display(self.game, seat)} is already in by its AI ({label}) for the "
                                     f"{self.game.step} step; choices are final", {"seat": seat})
        try:
            result = self.game.submit_dm(seat, text, lenient=lenient, aliases=aliases)  # docs/dm-syntax.md
        except RegentError as err:
            raise order_error(err) from None
        except ValueError as err:  # a value the engine's reader did not check (a 5,000-digit number...)
            log.warning("unchecked value in a DM for game %s: %s", self.id, err)
            raise RpcError(INVALID_ORDER, f"cannot read this DM: {clip(str(err), 200)}",
                           {"rejected": [{"line": "", "reason": clip(str(err), 200)}], "accepted": []}) from None
        self.by[seat] = by
        if by.startswith("ai:"):
            played = self.meta["ai_played"].setdefault(seat, [])
            if by[3:] not in played:
                played.append(by[3:])
        row = {"a": self.game.actions[-1], "by": by, "turn": self.game.state.turn}
        if by.startswith("ai:"):  # the level the agent is chosen by now: the label of this turn's reports
            row["level"] = (self.meta.get("ai_levels") or {}).get(seat, {}).get(by[3:])
        self._commit([(row, time.time(), digest(self.game))], meta_changed=by.startswith("ai:"))
        out = {"accepted": result.lines, "rejected": [], **result.to_dict()}
        if seat in self.game.deciding_seats() and seat not in self.game.state.submissions:
            # rules: 003 Weather forecast / Palantír: a DM of only looks at the decks acts at once and is not yet
            # the seat's orders (assumption INSTANT_ABILITIES); a bot reading only `accepted` took it for them
            out["warnings"] = [*out.get("warnings", []), LOOKS_ONLY]
        return out

    def assign(self, label: Any, agent: Any) -> dict[str, Any]:
        seat = seat_names.seat_named(self.game, label)
        if seat is None or seat not in self.meta["controllers"]:
            raise seat_names.unknown_seat_error(self.game, "seat", label)
        if self.game.state.players[seat].eliminated:  # as regent seat and the Discord bridge's /regent seat refuse it
            raise RpcError(CONFLICT, f"{seat_names.display(self.game, seat)} was eliminated: it has no decisions left "
                                     "for an AI or a player to make", {"seat": seat})
        name = ai.resolve(agent)
        built = ai.check(name)
        self.meta["controllers"][seat] = name
        if name is not None:  # the level the GM gave, if any: reports name the agent "steward -> steward-search"
            gamefile.note_level(self.meta.setdefault("ai_levels", {}), seat, name, agent)
        self.agents.pop(seat, None)
        self.pump_agents.pop(seat, None)
        if built is not None:
            with contextlib.suppress(AttributeError):
                built._regent_name = name
                self.pump_agents[seat] = built
        self._commit([], meta_changed=True)
        return {"seat": seat, "controller": name, "human": name is None}

    def advance(self, force: bool, expired: bool = False, now: float | None = None, how: str = "",
                by: str = "gm") -> dict[str, Any]:
        """Resolve the step. ``expired``: seats whose deadline passed get the game's expiry fill. ``how``: how the
        step ended, for a call that arrived while it was open (``still_open``). ``by``: who resolved it, as the
        stored row and the game file's ``service.by`` say: ``gm`` (game.advance), ``auto`` (everyone was in);
        an expiry is ``expired`` whoever asked."""
        g = self.game
        if g.over:
            raise RpcError(CONFLICT, "the game is over")
        missing = [p.seat for p in g.pending() if not p.submitted]
        new_rows = []
        if expired and missing:
            now = time.time() if now is None else now
            waiting = [s for s in missing if self.deadline(g.window_step()) > now]
            if waiting and not force:
                raise RpcError(CONFLICT, f"deadline not passed yet for {', '.join(waiting)}",
                               {"waiting": waiting, "deadline": self.deadline(g.window_step())})
            fill = self.meta["expiry"]["fill"]
            if fill != ai.RULEBOOK_DEFAULT:
                for seat in missing:
                    new_rows.append(self._ai_submit(seat, fill, f"expired:{fill}"))
            force = True
        resolved = dict(self.by)
        # the seats the rulebook's default plays for now, told so in their own summaries (service/defaulted.py)
        gone = {p.seat: list(default_decision(g.state, p.seat).texts) for p in g.pending() if not p.submitted} \
            if force else {}
        turn, step, start = g.state.turn, g.state.step, len(g.state.events)
        # a Dragon Attack's DPL: which of the turn's attacks a forced seat's summary speaks of (service/defaulted.py)
        attack = g.state.attack.dpl if step == gamefile.DRAGON and g.state.attack is not None else None
        try:
            events = g.advance(force=force)
        except RegentError as err:
            if new_rows:
                self._commit(new_rows, meta_changed=True)
            raise from_exception(err) from None
        except Exception:
            log.exception("advance failed in game %s; rebuilding", self.id)
            self._rebuild()
            raise RpcError(INTERNAL, "the step could not be resolved; nothing was changed") from None
        now = time.time()
        self.step_started = now
        clock.new_step(self.meta, now)
        self.meta.pop("held", None)  # a step held by game.undo is resolved now
        row = {"a": g.actions[-1], "by": "expired" if expired else by}
        # a Bank of Lannuvár round answers the choices just revealed, and its report lists them again: the AI
        # decisions among them stay on record, so that report and the game file's step_ai name the seats an AI
        # played in them, as regent adjudicate's do (``open_step_by`` reads the mark back from the log)
        self.by = {}
        if gamefile.bank_round_began(g, start):
            row["bank_round"] = True
            self.by = {s: b for s, b in resolved.items() if ":" in b}
        if force:  # kept even when empty: a forced step this service recorded needs no replay (_defaulted)
            row.update(defaulted=gone, turn=turn, step=step)
            if attack is not None:
                row["dpl"] = attack
        new_rows.append((row, now, digest(g)))
        self._commit(new_rows, meta_changed=True)
        self.step_ended(turn, step, how or "was resolved by an earlier game.advance")
        return {"events": [e.to_dict() for e in events],
                "report": self.report(start, turn, resolved, list(gone), step, attack),
                "pending": self.pending(GM), "over": g.over, "result": g.result}

    def report(self, start: int, turn: int, resolved: dict[str, str], defaults: Iterable[str] = (), step: str = "",
               dpl: int | None = None) -> str:
        """The text the GM posts: the public events from event ``start`` on under their turns' headers, and at the end
        of ``turn``'s part (the step's: before the next turn's header when a Consolidation ran into it) which seats an
        AI played and, for a step forced, the seats the rulebook's default played for (display names) and in which
        ``step`` (a Dragon Attack's by its ``dpl``), as ``regent adjudicate --force`` says them
        (``defaulted.step_line``, ``service.posting.under_turn``)."""
        names = display_names(self.game.state)
        lines = []
        ai_seats = {s: self.decided_label(s, b.split(":", 1)[1]) for s, b in resolved.items() if ":" in b}
        if ai_seats:
            lines.append(gamefile.played_by_ai(self.game, ai_seats))
        if defaults:  # rules: 003 (each step's default for an inactive player; service/defaulted.py names them)
            lines.append(defaulted.step_line(defaults, step, dpl, lambda s: names.get(s, s)))
        return under_turn(self.game.report(None, None, start), turn, lines)

    def turn_report(self, who: str | None, turn: int | None, since: int | None = None) -> dict[str, Any]:
        """The engine's report as ``who`` may see it (display names), labelling the seats an AI played:
        a turn's (now by default), or with ``since`` only the events from that index on (counted in
        ``who``'s own event list, as ``game.log`` counts them); ``next`` is the index for the next call."""
        g = self.game
        if turn is not None and turn > g.state.turn:
            raise invalid("turn", f"the game is at turn {g.state.turn}")
        self._check_carried(turn)
        t = g.state.turn if turn is None else turn
        visible = g.events(who)
        if since is None:
            text, turns = g.report(t, who), {t}
            quiet = quiet_turn(g, t) if "\n" not in text else ""  # a bare header read as a report left empty
            if quiet:  # by mistake: regent report says so under it, and so does this
                text += "\n" + quiet
        else:
            text = g.report(turn, who, since)
            turns = {e.turn for e in visible[since:]} if turn is None else {t}
        ai_seats = self._told_deciders(who, turns)
        if ai_seats and text and since is not None and turn is None and len(turns) > 1:
            # what is new runs into the next turn (a Consolidation resolved, then the bids and cards): each turn's
            # part ends with the seats an AI played in that turn, not one line for both after the later header
            for t in sorted(turns):
                played = self._told_deciders(who, {t})
                if played:
                    text = under_turn(text, t, [gamefile.played_by_ai(g, self.named(played, {t}, who))])
        elif ai_seats and text:  # each AI as the GM chose it in those turns (expert -> search)
            text += "\n" + gamefile.played_by_ai(g, self.named(ai_seats, turns, who))
        if since is None:  # a turn's report posted again says whose decisions the rulebook made, as regent report's
            names = display_names(g.state)
            line = defaulted.turn_line(self._defaulted(), t, lambda s: names.get(s, s))
            if line:
                text += "\n" + line
        return {"turn": t, "report": text, "played_by_ai": ai_seats, "next": len(visible)}

    def _told_deciders(self, viewer: str | None, turns: set[int]) -> dict[str, list[str]]:
        """``_ai_deciders`` as ``viewer`` may be told: without another seat's AI decision in the open step, unless
        that agent decided for that seat in a resolved step of those turns too (``_unrevealed``)."""
        ai_seats = self._ai_deciders(turns)
        hidden = self._unrevealed(viewer)
        if not hidden:
            return ai_seats
        resolved = self._ai_deciders(turns, resolved=True)
        out = {}
        for seat, agents in ai_seats.items():
            shown = [a for a in agents if (seat, a) not in hidden or a in resolved.get(seat, ())]
            if shown:
                out[seat] = shown
        return out

    def _ai_deciders(self, turns: set[int], seat: str | None = None, resolved: bool = False) -> dict[str, list[str]]:
        """Seat -> the agents that decided for it in ``turns``, only ``seat``'s when given: an imported file's
        record (its ``ai_turns``; a seat it names without them counts for every turn, as the CLI's reports of
        that file say, ``GameFile.ai_in``), then the action log's ``by``. ``resolved``: only the decisions of
        resolved steps (the file's record for this turn may hold the open step's, so only its earlier turns)."""
        ai_seats: dict[str, list[str]] = {}
        imported = self.meta.get("ai_imported")
        if imported is None:  # a game stored before the file's agents were kept apart
            imported = self.meta.get("ai_played") or {}
        now = {self.game.state.turn} if resolved else set()
        for who, known in (self.meta.get("ai_turns") or {}).items():
            if seat in (None, who) and (known is None or (turns & set(known)) - now) and imported.get(who):
                ai_seats[who] = list(imported[who])
        rows = [row for row, _, _ in self.rows]
        if resolved:  # the open step's rows follow the last advance
            rows = rows[:max((i for i, row in enumerate(rows) if row["a"][0] == "advance"), default=-1) + 1]
        for who, turn, agent in self._ai_submits(rows):
            if turn in turns and seat in (None, who):
                agents = ai_seats.setdefault(who, [])
                if agent not in agents:
                    agents.append(agent)
        return ai_seats

    def _check_carried(self, turn: int | None) -> None:
        """A turn before the position a game was set up from has no events here (docs/positions.md: the event
        log is not carried): its report would be empty, which reads as "nothing happened"; it is refused, saying
        why."""
        why = before_position(self.game.setup, turn, "the event log before that is not carried")
        if why:
            raise invalid("turn", why)

    def private_summary(self, who: str | None, label: str, turn: int | None) -> dict[str, Any]:
        """A seat's DM summary (Game.private_summary): the GM may ask for any seat, a seat only for its
        own (its balance and orders are nobody else's business)."""
        g = self.game
        seat = seat_names.seat_named(g, label)
        if seat is None or (who is not GM and seat != who):
            if who is not GM:  # a seat learns nothing about the other seats, not even which names exist
                raise RpcError(FORBIDDEN, "a seat token sees only its own private summary")
            raise seat_names.unknown_seat_error(g, "private", label)
        if turn is not None and turn > g.state.turn:
            raise invalid("turn", f"the game is at turn {g.state.turn}")
        self._check_carried(turn)
        t = g.state.turn if turn is None else turn
        told = defaulted.told(self._defaulted(), seat, t, g)
        # the seat's decisions of that turn its player (or the GM for them) sent, not an AI: with played_by_ai, a
        # summary says whether an AI played the turn or part of it (a seat handed over or back mid-turn)
        own = sum(1 for row, _, _ in self.rows if row["a"][0] == "submit" and row["a"][1] == seat
                  and row.get("turn") == t and ":" not in row["by"])
        text = g.private_summary(seat, turn, self.meta["windows"])  # "Now: ... (within 48h)": the game's own window
        return {"turn": t, "seat": seat, "report": defaulted.with_told(text, told),
                "played_by_ai": self._ai_deciders({t}, seat),  # this seat's only: the turn's steps an AI decided
                "player_decisions": own}

    def _defaulted(self) -> list[defaulted.Defaulted]:
        """Every decision the rulebook's default made for a silent seat: from the log, which records them as this
        service forces a step. A forced step it has no record of (imported from a game file, or stored by an
        older version) needs a replay of the game (service/defaulted.py), done once per state of the record (its
        length and last digest: an undo and new actions are another), as a turn's summaries come one by one."""
        rows = [row for row, _, _ in self.rows]
        if all("defaulted" in row for row in rows if row["a"][0] == "advance" and row["a"][1]):
            return [defaulted.Defaulted(row["turn"], row["step"], seat, tuple(lines), row.get("dpl"))
                    for row in rows if row.get("defaulted") for seat, lines in row["defaulted"].items()]
        key = (len(self.rows), self.rows[-1][2] if self.rows else "")  # the record's length and state digest
        if self._replayed is None or self._replayed[0] != key:
            self._replayed = (key, defaulted.replayed(self.game))
        return self._replayed[1]

    def _ai_submit(self, seat: str, agent_name: str, by: str, made: Any = _DECIDE_NOW) -> tuple:
        """Submit ``agent_name``'s decision for ``seat``: ``made`` (what ``decide_ai`` gave: a decision, or
        the exception the agent raised) or, by default, decided now."""
        g = self.game
        seed = ai.decision_seed(g.setup.get("seed"), seat, g.actions, steps_before(g.setup))
        try:
            if isinstance(made, Exception):
                raise made
            decision = ai.decide(g, seat, agent_name, self.agents, seed) if made is _DECIDE_NOW else made
            g.submit(seat, decision)
        except Exception as err:  # an illegal proposal or a failing agent: the rulebook default instead
            log.warning("agent %s for %s in game %s: %s; using the rulebook default", agent_name, seat, self.id, err)
            g.submit(seat, default_decision(g.state, seat))
        self.by[seat] = f"ai:{agent_name}" if by.startswith("ai") else f"{by.split(':')[0]}:{agent_name}"
        played = self.meta["ai_played"].setdefault(seat, [])
        if agent_name not in played:
            played.append(agent_name)
        # the level the agent was chosen by (the seat's, or the expiry fill's): the label of this turn's reports
        level = self.meta["expiry"].get("level") if by.startswith("expired") else \
            (self.meta.get("ai_levels") or {}).get(seat, {}).get(agent_name)
        return ({"a": g.actions[-1], "by": self.by[seat], "turn": g.state.turn, "level": level}, time.time(),
                digest(g))

    # -- AI seats: decided outside the game's lock ------------------------------------------------------
    def next_ai_turn(self) -> AiTurn | None:
        """The next AI seat the step waits for, with a copy of the game to decide on (under the lock)."""
        g = self.game
        waiting = self._ai_waiting()
        if waiting is None:
            return None
        seat, name = waiting
        resolved, own = ai.step_and_own(g.actions, seat)  # one walk of the log for the seed and the step
        seed = ai.seed_at(g.setup.get("seed"), seat, steps_before(g.setup) + resolved, own)  # as decision_seed
        return AiTurn(seat, name, seed, g.clone(), g, resolved)

    def next_ai_seat(self) -> tuple[str, str] | None:
        """(seat, agent) of the first AI seat the open step still waits for, if any."""
        return self._ai_waiting()

    def _ai_waiting(self) -> tuple[str, str] | None:
        """(seat, agent) of the first AI seat the step still waits for."""
        if self.game.over or self.frozen:
            return None
        for p in self.game.pending():
            name = self.meta["controllers"].get(p.seat)
            if name and not p.submitted:
                return p.seat, name
        return None

    def _resolved_steps(self) -> int:
        return sum(1 for a in self.game.actions if a[0] == "advance")

    def decide_ai(self, turn: AiTurn) -> Any:
        """The agent's decision on ``turn``'s copy of the game, without the lock: an ``expert`` seat thinks
        for seconds while DMs and the GM's calls for the same game go on. A failing agent's exception is
        returned, not raised: ``commit_ai`` then submits the rulebook default and logs why, as
        ``_ai_submit`` does for an agent deciding under the lock."""
        try:
            return ai.decide(turn.game, turn.seat, turn.agent, self.pump_agents, turn.seed)
        except Exception as err:
            return err

    def commit_ai(self, turn: AiTurn, decision: Any) -> bool:
        """Under the lock again: submit ``decision`` if the step it was made for still waits for it from
        that agent. A decision the game has moved past (the GM gave the seat to a player or another
        agent, or the seat's decision came in another way) is dropped. A resolved or undone step would
        drop it too, though ``game.advance``, ``game.undo`` and deadlines wait for AI seats deciding.
        Returns whether it was submitted."""
        g = self.game
        waiting = any(p.seat == turn.seat and not p.submitted for p in g.pending()) if not g.over else False
        if (g is not turn.live or self.frozen or not waiting or self._resolved_steps() != turn.resolved
                or self.meta["controllers"].get(turn.seat) != turn.agent):
            return False
        row = self._ai_submit(turn.seat, turn.agent, f"ai:{turn.agent}", made=decision)
        self._commit([row], meta_changed=True)
        return True

    def work(self) -> bool:
        """Background work once no AI seat is left to decide (``next_ai_turn`` is None): (rules: 003) the
        step resolves at once when everyone has submitted. Returns whether anything changed."""
        g = self.game
        if g.over or self.frozen or self._ai_waiting() is not None:
            return False
        # rules: 003 3. Negotiation and Orders — "If ... all players have submitted their orders before
        # 72h is passed, the game continues immediately"; likewise 5. Consolidation.
        # A step game.undo restored waits for the GM (service/undo.py).
        if (self.meta["auto_advance"] and not self.meta.get("held") and g.pending()
                and all(p.submitted for p in g.pending())):
            self.advance(force=False, how="resolved by itself when the last decision came in", by="auto")
            return True
        return False

    def expired_ready(self, now: float) -> bool:
        g = self.game
        if g.over or self.frozen or not self.meta["expiry"]["auto"] or clock.paused(self.meta) \
                or self.meta.get("held"):
            return False
        missing = [p.seat for p in g.pending() if not p.submitted]
        return bool(missing) and self.deadline(g.window_step()) <= now


def _step_started(meta: dict[str, Any], rows: list) -> float:
    """When the open step started: the game's creation or the last resolved step, or a step game.undo restarted."""
    started = meta.get("created", 0.0)
    for row, at, _ in rows:
        if row["a"][0] == "advance":
            started = at
    return max(started, meta.get("step_started", 0.0))


def order_error(err: RegentError) -> RpcError:
    """``invalid_order`` always lists each rejected line and why (protocol.md)."""
    wire = from_exception(err)
    if wire.code == INVALID_ORDER:
        rejected = wire.details.get("rejected") or [{"line": str(err.input if err.input is not None else ""),
                                                     "reason": err.reason}]
        counts = {k: wire.details[k] for k in ("rejected_count", "line_no") if k in wire.details}
        wire.details = {"rejected": rejected, "accepted": [], **counts}
    return wire
