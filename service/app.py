"""The service's methods: games hosted in memory (backed by the store) and the stateless calls.

:class:`App` knows nothing of sockets: ``await app.call(method, params)`` returns the result or
raises :class:`service.errors.RpcError`. CPU-heavy work runs in a thread pool; each game has an
``asyncio.Lock`` so its operations happen one at a time, in arrival order.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import math
import secrets
import threading
import time
import weakref
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from engine.errors import RegentError
from service import ai, clock, limits, seat_names, stateless, structured, undo, validate
from service.errors import (
    CONFLICT,
    INVALID_PARAMS,
    NOT_FOUND,
    RATE_LIMITED,
    UNKNOWN_METHOD,
    RpcError,
    StoreFailed,
    from_exception,
    invalid,
)
from service.fair import FairTurn, Shares
from service.hosting import GM, HostedGame, token_hash
from service.params import Params
from service.posting import split_messages
from service.residency import DEFAULT_MAX_RESIDENT, Residency, game_id_of
from service.store import Store

log = logging.getLogger("regent.service")
PROTOCOL_VERSION = 1
RENDER_LOCK = threading.Lock()
# Pictures a seat token may have waiting or being drawn for one game (game.render); more are rate_limited. A picture
# is drawn from a copy of the game, one at a time (``render_turn``), so it holds up no other call: a bot pipelining
# 256 animations (1.6 s each for a 10-seat game) used to freeze its game for everyone for minutes.
MAX_SEAT_RENDERS = 2
RULES = ["protectors", "realms (npr.*)", "newworld (npn.*)"]
# Small npr.* calls run on the event loop itself instead of a worker thread (issue 8: npr.invasions
# p99 <= 2 ms). Handing a call to a thread and its answer back costs two thread wake-ups and two GIL
# hand-offs; on a busy machine either can wait milliseconds, longer than the call. Only calls known
# to be short qualify: at most INLINE_STATELESS_BYTES on the wire and at most INLINE_STATELESS_WORK by
# inline_work() below, a bound that grows as fast as the realm controllers' cost does (their loops
# run over the realms, Provinces, Areas and stacks of the request, never over a number in it). The
# sample world (9.3 KB, work 2,100) takes about 1 ms; the limit is about 2 ms of work on this 2-core
# machine (a world where every one of 24 NPRs invades), less than the 5 ms GIL switch interval for
# which a busy worker thread can already hold the loop off. At most one such call runs per loop
# iteration, after everything already received (so a pipelined ping is still answered first);
# everything else goes to the pool.
INLINE_STATELESS_BYTES = 16 * 1024
INLINE_STATELESS_WORK = 2_500
INLINE_STATELESS = frozenset(name for name in stateless.METHODS if name.startswith("npr."))
# Bounded work per request (issue 23 item 2): a submission's DM text (or the text a structured
# decision becomes) over this many bytes is refused with invalid_params before the engine reads it
# (a 1 MB DM took ~1.8 s of engine time). `regent serve --max-submission`.
DEFAULT_MAX_SUBMISSION = 64 * 1024
# A game's background work (an AI seat's decision, the step resolving once everyone is in) that the store
# refused (the disk full, the database locked by another program) is tried again after these many seconds,
# then every last one until it is stored: it used to stop there, so the AI seat never decided (the step waited
# for its deadline and the rulebook's default) unless another call to the game came.
STORE_RETRY = (1.0, 2.0, 5.0, 15.0, 60.0)


def regent_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("regent")
    except PackageNotFoundError:
        return "0+unknown"


def inline_work(params: Any) -> int | None:
    """An upper estimate of a realm controller's work on this request: realms x (realms + Provinces +
    Areas + Sea Zones + unit and ship stacks + items of the other array/map fields); None if the
    request does not even have that shape (it then goes to the pool, which reports the problem)."""
    try:
        fields = params[0]
        world = fields["world"]
        realms = len(world["realms"])
        items = realms + sum(len(world.get(key) or ()) for key in ("provinces", "areas", "seas", "units", "ships"))
        items += sum(len(v) for k, v in fields.items() if k != "world" and isinstance(v, list | dict))
    except (TypeError, KeyError, IndexError, AttributeError):
        return None
    return realms * items


STEPS = ("bid", "rebid", "bank_bid", "orders", "dragon", "consolidation", "over")  # game.view's step


def _step_field(p: Params) -> str | None:
    """A call's optional ``step`` guard: one of the steps ``game.view`` names."""
    step = p.str("step", None)
    if step is not None and step not in STEPS:
        raise invalid("step", f"unknown step {step[:40]!r}; one of {', '.join(STEPS)}")
    return step


def _started_field(p: Params) -> float | None:
    """A call's optional ``step_started`` guard: when the step it is for started, exactly as ``game.view`` gave it.
    It tells apart two steps of one kind in one turn (a second Dragon attack, a Bank of Lannuvár round) and a step
    ``game.undo`` reopened, which ``turn`` and ``step`` alone cannot."""
    value = p.get("step_started", (int, float), None, "a number (game.view's step_started)")
    if value is None:
        return None
    if not math.isfinite(value):
        raise invalid("step_started", "must be a finite number (game.view's step_started)")
    return float(value)


def _other_step(hosted: HostedGame, turn: int | None, step: str | None, started: float | None) -> bool:
    """Whether the open step is not the one a call's guards name."""
    g = hosted.game
    return ((turn is not None and g.state.turn != turn) or (step is not None and g.step != step)
            or (started is not None and hosted.step_started != started))


MAX_ALIASES = 64  # names one game.submit may add for seats (colours, chat names)


def _aliases(value: dict) -> dict[str, str]:
    """``game.submit``'s ``aliases``: other names players use for seats (the colours a board shows)."""
    if len(value) > MAX_ALIASES:
        raise invalid("aliases", f"at most {MAX_ALIASES} names, not {len(value)}")
    for name, seat in value.items():
        if not isinstance(name, str) or not isinstance(seat, str) or not 0 < len(name) <= 64 or len(seat) > 64:
            raise invalid("aliases", "maps names (strings of 1 to 64 characters) to seats like 'Player#2'")
    return dict(value)


class App(Residency):
    def __init__(self, store: Store | None, workers: int = 4, expiry_interval: float = 60.0, processes: int = 0,
                 inline_bytes: int = INLINE_STATELESS_BYTES, inline_work: int = INLINE_STATELESS_WORK,
                 max_submission: int = DEFAULT_MAX_SUBMISSION, create_token: str | None = None,
                 max_games: int = limits.DEFAULT_MAX_GAMES, max_resident: int = DEFAULT_MAX_RESIDENT,
                 checkpoint_dirs: tuple[str, ...] = ()):
        self.store = store
        # policy:<path> agents: only checkpoint files under these and the shipped checkpoints/ (service/ai.py)
        self.checkpoint_dirs = ai.serve_checkpoints(checkpoint_dirs)
        self.max_submission = max_submission
        self.create_token = create_token or None  # game.create / game.import need it as their token
        self.max_games = max_games
        self._creating = 0  # creates and imports under way (counted against max_games)
        self.init_residency(max_resident)
        self.inline_bytes = inline_bytes  # 0: every stateless call goes to the pool
        self.inline_work = inline_work
        self._inline_free = True  # no inline call yet in this loop iteration
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="regent-worker")
        # AI seats think in a pool of their own: an expert seat at a 16-seat table thinks for seconds, and with the
        # workers all thinking (four games with AI seats deciding) every other call, in any game, waited behind them
        # (a game.view took up to 25 s). The calls' workers are left for the calls.
        self.thinkers = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="regent-ai")
        # Steps expiring by themselves with an agent as expiry.fill, filling at once (_expire): each thinks in that pool
        # for every silent seat (a minute at a 16-seat table of experts); half of it is left for other games' AI seats.
        self.fill_slots = asyncio.Semaphore(max(1, workers // 2))
        # Stateless npr.*/npn.* calls may run in worker processes (true parallelism on many cores).
        self.processes = ProcessPoolExecutor(max_workers=processes) if processes > 0 else None
        # a connection's jobs in the calls' workers, and in the processes, at once (service/fair.py)
        self.shares, self.process_shares = Shares(workers), Shares(processes)
        self.games: dict[str, HostedGame] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        # Each game's line of calls (``_locked``): a call takes its place on arrival and keeps it while it waits
        # (game.advance and game.undo for the AI seats deciding), so calls on one game apply in arrival order
        # (protocol.md). The background work (AI seats, the rules' immediate advance) takes only ``locks``. A line
        # nobody stands in is dropped with its last reference.
        self.lines: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self.pumps: dict[str, asyncio.Task] = {}
        self.rendering: dict[tuple[str, str], int] = {}  # (game, seat) -> its pictures waiting or being drawn
        # one picture drawn at a time, waited for on the loop, not in a worker; the games take turns (service/fair.py)
        self.render_turn = FairTurn()
        self.progress: dict[str, asyncio.Future] = {}  # set when a game's background work has done one thing
        self.retries: dict[str, tuple[int, asyncio.TimerHandle]] = {}  # background work the store refused (STORE_RETRY)
        self.expiry_interval = expiry_interval
        self._expiry_task: asyncio.Task | None = None
        self.expiring: dict[str, asyncio.Task] = {}  # a game's step resolving as its deadline passed (_expire)
        self.methods: dict[str, Callable[[Params], Awaitable[Any]]] = {
            "ping": self.ping, "version": self.version, "methods": self.list_methods,
            "game.create": self.create, "game.view": self.view, "game.pending": self.pending,
            "game.submit": self.submit, "game.assign": self.assign, "game.advance": self.advance,
            "game.log": self.log, "game.export": self.export, "game.import": self.import_,
            "game.render": self.render, "game.list": self.list_games, "game.report": self.report,
            "game.undo": self.undo, "game.deadline": self.deadline,
            "game.export_position": self.export_position,
        }
        for name, fn in stateless.METHODS.items():
            self.methods[name] = self._stateless(name, fn)

    # -- lifecycle -----------------------------------------------------------------------------
    def load(self) -> int:
        """Resume the stored games that need attention at once (service/residency.py); the others
        load when a call names them. Returns the unfinished games the store holds (the "listening" log line's
        ``games``), not the few loaded now."""
        loaded = self.load_watched()
        return loaded if self.store is None else self.store.count_live()

    def load_all(self) -> int:
        """Resume every stored game (replayed and checked against its stored digest)."""
        if self.store is None:
            return 0
        for stored in self.store.load_all():
            self.adopt(HostedGame.restore(stored, self.store))
        return len(self.games)

    def start(self) -> None:
        for game_id in self.games:
            self.kick(game_id)  # AI seats whose decision was pending when the server stopped
        if self.expiry_interval > 0:
            self._expiry_task = asyncio.get_running_loop().create_task(self._expiry_loop(),
                                                                       context=contextvars.Context())

    async def close(self) -> None:
        if self._expiry_task:
            self._expiry_task.cancel()
        for task in [*self.pumps.values(), *self.expiring.values()]:
            task.cancel()
        for _, handle in self.retries.values():
            handle.cancel()
        self.executor.shutdown(wait=True, cancel_futures=True)
        self.thinkers.shutdown(wait=True, cancel_futures=True)
        if self.processes is not None:
            self.processes.shutdown(wait=True, cancel_futures=True)

    # -- dispatch ------------------------------------------------------------------------------
    async def call(self, method: Any, params: Any, size: int | None = None) -> Any:
        """Run ``method``; ``size`` is the request's size in bytes where known (the RPC layer)."""
        if not isinstance(method, str):
            raise invalid("method", "must be a string")
        handler = self.methods.get(method)
        if handler is None:
            raise RpcError(UNKNOWN_METHOD, f"unknown method {method[:100]!r}; call 'methods' for the list",
                           {"method": method[:100]})
        if size is not None and size <= self.inline_bytes and self._inline_free and method in INLINE_STATELESS:
            work = inline_work(params)
            if work is not None and work <= self.inline_work:
                return self._inline(stateless.METHODS[method], Params(method, params))
        game_id = game_id_of(params)
        self.enter(game_id)
        try:
            await self.ensure_resident(game_id)
            return await handler(Params(method, params))
        finally:
            self.leave(game_id)

    def _inline(self, fn: Callable[[Params], Any], p: Params) -> Any:
        """A small stateless call on the loop (see INLINE_STATELESS_BYTES); the next one may run
        inline only after the loop has polled for I/O again."""
        self._inline_free = False
        asyncio.get_running_loop().call_soon(self._free_inline)
        try:
            return fn(p)
        except RpcError:
            raise
        except Exception as err:
            raise self._wire(err, fn) from None

    def _free_inline(self) -> None:
        self._inline_free = True

    async def _run(self, fn: Callable[..., Any], *args: Any, pool: ThreadPoolExecutor | None = None,
                   shared: bool = True) -> Any:
        """``fn(*args)`` in ``pool`` (the calls' workers by default); in the calls' workers, within the calling
        connection's share of them (``shared``; service/fair.py ``Shares``). The AI seats' pool is not shared out:
        a GM's expiry fill thinking there for a minute would hold its connection's other calls (the Discord bot's
        players' DMs) behind it."""
        pool = pool or self.executor
        async with self.shares.share() if shared and pool is self.executor else contextlib.nullcontext():
            try:
                return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)
            except RpcError:
                raise
            except Exception as err:
                raise self._wire(err, fn) from None

    @staticmethod
    def _wire(err: Exception, fn: Callable[..., Any]) -> RpcError:
        wire = from_exception(err)
        if wire.code == "internal":
            log.exception("internal error in %s", getattr(fn, "__name__", fn))
        elif not isinstance(err, RpcError | RegentError):  # a plain ValueError: refused, but worth a look
            log.warning("unvalidated value in %s: %s", getattr(fn, "__name__", fn), wire.message, exc_info=err)
        return wire

    def _stateless(self, name: str, fn: Callable[[Params], Any]) -> Callable[[Params], Awaitable[Any]]:
        async def handler(p: Params) -> Any:
            if self.processes is None:
                return await self._run(fn, p)
            loop = asyncio.get_running_loop()
            async with self.process_shares.share():
                status, value = await loop.run_in_executor(self.processes, stateless.run, name, [p.fields])
            if status == "error":
                raise RpcError(value["code"], value["message"], value["details"])
            return value
        return handler

    # -- plain methods -------------------------------------------------------------------------
    async def ping(self, p: Params) -> str:
        p.done()
        return "pong"

    async def version(self, p: Params) -> dict[str, Any]:
        p.done()
        return {"regent": regent_version(), "protocol": PROTOCOL_VERSION, "rules": RULES,
                "agents": ai.agent_names(), "difficulties": list(ai.DIFFICULTIES)}

    async def list_methods(self, p: Params) -> list[str]:
        p.done()
        return sorted(self.methods)

    # -- games ---------------------------------------------------------------------------------
    def _game(self, p: Params) -> HostedGame:
        game_id = p.str("game_id")
        if "\ufffd" in game_id:  # bytes that were not UTF-8 (read with U+FFFD in their place): no game has such an id
            raise invalid("game_id", "is not valid UTF-8 (or holds U+FFFD); a game_id is the ASCII text "
                                    "game.create answered")
        hosted = self.games.get(game_id)
        if hosted is None:
            raise RpcError(NOT_FOUND, f"game_id: no game {game_id[:64]!r}", {"field": "game_id"})
        return hosted

    def _auth(self, p: Params, hosted: HostedGame) -> str | None:
        return hosted.who(p.get("token", str, what="a string"))

    def _line(self, game_id: str) -> asyncio.Lock:
        line = self.lines.get(game_id)
        if line is None:
            line = self.lines[game_id] = asyncio.Lock()
        return line

    async def _locked(self, hosted: HostedGame, fn: Callable[[], Any], changes: bool = False,
                      in_line: bool = False, pool: ThreadPoolExecutor | None = None) -> Any:
        """Run ``fn`` under the game's lock, in the call's turn in the game's line (``in_line``: the caller
        already holds its place, ``_line``); in ``pool`` if given (``thinkers``: work in which AI seats decide)."""
        if not in_line:
            async with self._line(hosted.id):
                return await self._locked(hosted, fn, changes, in_line=True, pool=pool)
        async with self.locks[hosted.id]:
            hosted.check(changes)
            result = await self._run(fn, pool=pool)
        if changes:
            self.kick(hosted.id)
        return result

    def _register(self, hosted: HostedGame) -> None:
        self.games[hosted.id] = hosted
        self.locks[hosted.id] = asyncio.Lock()
        self.kick(hosted.id)

    async def _room(self, p: Params, method: str) -> None:
        """game.create / game.import: the create token, then room under --max-games."""
        limits.check_create_token(self.create_token, p.take("token", None), method)
        limits.check_room(await self.live_games() + self._creating, self.max_games)

    async def create(self, p: Params) -> dict[str, Any]:
        setup = p.get("setup", dict, what="a map")
        await self._room(p, "game.create")
        p.done()
        game_id = "g-" + secrets.token_urlsafe(9)
        self._creating += 1
        try:
            hosted, gm_token, seat_tokens = await self._run(HostedGame.create, game_id, setup, self.store)
        finally:
            self._creating -= 1
        self._register(hosted)
        log.info("game created", extra={"game_id": game_id, "seats": len(seat_tokens)})
        return {"game_id": game_id, "gm_token": gm_token, "seat_tokens": seat_tokens, "notes": hosted.notes}

    async def import_(self, p: Params) -> dict[str, Any]:
        blob = validate.blob_bytes(p.take("blob"))
        await self._room(p, "game.import")
        p.done()
        game_id = "g-" + secrets.token_urlsafe(9)
        self._creating += 1
        try:
            hosted, gm_token, seat_tokens = await self._run(HostedGame.imported, game_id, blob, self.store)
        finally:
            self._creating -= 1
        self._register(hosted)
        log.info("game imported", extra={"game_id": game_id})
        return {"game_id": game_id, "gm_token": gm_token, "seat_tokens": seat_tokens, "notes": hosted.notes}

    async def _wait(self, p: Params, hosted: HostedGame) -> None:
        if p.bool("wait", False):
            task = self.pumps.get(hosted.id)
            if task is not None:
                await asyncio.shield(task)

    async def view(self, p: Params) -> dict[str, Any]:
        hosted = self._game(p)
        who = self._auth(p, hosted)
        await self._wait(p, hosted)
        p.done()
        return await self._locked(hosted, lambda: hosted.view(who))

    async def pending(self, p: Params) -> list[dict[str, Any]]:
        hosted = self._game(p)
        who = self._auth(p, hosted)
        await self._wait(p, hosted)
        p.done()
        return await self._locked(hosted, lambda: hosted.pending(who))

    async def submit(self, p: Params) -> dict[str, Any]:
        hosted = self._game(p)
        who = self._auth(p, hosted)
        seat = p.str("seat", who)
        if seat is None:
            raise invalid("seat", "is required with the GM token")
        has_text, has_decision = "text" in p.fields, "decision" in p.fields
        if has_text == has_decision:
            raise invalid("text", "give exactly one of text (DM text) or decision (a map)")
        text = p.str("text") if has_text else structured.to_text(p.get("decision", dict, what="a map"))
        self._check_size(text, "text" if has_text else "decision")
        lenient = p.bool("lenient", False)
        aliases = _aliases(p.get("aliases", dict, {}, what="a map of name -> seat"))
        # Optional guards: store only while this step of this turn is open (a DM the bridge saw arrive in the bid
        # step is never stored as the next step's decision: `none` as the Consolidation's `Bid 0`)
        turn, step, started = p.int("turn", None, minimum=1), _step_field(p), _started_field(p)
        p.done()
        by = "gm" if who is GM else "seat"

        def store() -> dict[str, Any]:
            g = hosted.game
            if _other_step(hosted, turn, step, started):
                asked = " ".join(x for x in (f"turn {turn}" if turn is not None else "",
                                             f"{step} step" if step is not None else "") if x)
                asked = f"the {asked}" if asked else "a step"
                if started is not None and turn in (None, g.state.turn) and step in (None, g.step):
                    asked += f" that started at {started} (this one started at {hosted.step_started})"
                now = "the game is over" if g.over else f"the game is at turn {g.state.turn}, {g.step} step"
                raise RpcError(CONFLICT, f"{now}; this decision was for {asked}: nothing was stored",
                               {"turn": g.state.turn, "step": g.step, "step_started": hosted.step_started,
                                "for_turn": turn, "for_step": step, "for_step_started": started})
            return hosted.submit(who, seat, text, by, lenient, aliases)

        return await self._locked(hosted, store, changes=True)

    def _check_size(self, text: str, field: str) -> None:
        size = len(text) if len(text) > self.max_submission else len(text.encode("utf-8", "replace"))
        if size > self.max_submission:
            raise RpcError(INVALID_PARAMS, f"{field}: a submission is at most {self.max_submission} bytes of text "
                                           f"(got {size}); the server's --max-submission",
                           {"field": field, "limit": self.max_submission, "size": size})

    async def assign(self, p: Params) -> dict[str, Any]:
        hosted = self._game(p)
        hosted.require_gm(self._auth(p, hosted), "game.assign")
        seat = p.str("seat")
        if "agent" not in p.fields:  # a missing field never gives an AI seat back to a player by default
            raise invalid("agent", "is required: an agent, a difficulty, or nil (or 'human') to give the seat "
                                   "back to its player")
        agent = p.take("agent")
        if ai.is_human(agent):  # as `regent seat game.bin Dan human` reads it
            agent = None
        p.done()
        return await self._locked(hosted, lambda: hosted.assign(seat, agent), changes=True)

    async def advance(self, p: Params) -> dict[str, Any]:
        hosted = self._game(p)
        hosted.require_gm(self._auth(p, hosted), "game.advance")
        force, expired, wait = p.bool("force", False), p.bool("expired", False), p.bool("wait", False)
        # Optional guards: resolve only if the game is still at this turn / step (a GM tool that
        # retries, or races the rules' immediate advance, never resolves a step it did not mean to).
        turn, step, started = p.int("turn", None, minimum=1), _step_field(p), _started_field(p)
        p.done()
        arrived = hosted.arrival()  # the step it resolves: the one open now, never a later one

        def advance() -> dict[str, Any]:
            g = hosted.game
            if _other_step(hosted, turn, step, started):
                asked = ", ".join(x for x in (f"turn {turn}" if turn is not None else "",
                                              f"step {step}" if step is not None else "",
                                              f"started at {started}" if started is not None else "") if x)
                raise RpcError(CONFLICT, f"the game is at turn {g.state.turn}, step {g.step} (started at "
                                         f"{hosted.step_started}); not advancing (asked for {asked})",
                               {"turn": g.state.turn, "step": g.step, "step_started": hosted.step_started})
            hosted.still_open(arrived, "nothing was forced" if force or expired else "nothing was resolved")
            return hosted.advance(force, expired)

        async with self._line(hosted.id):
            # AI seats finish the step they are deciding before the GM resolves it
            await self._ai_decided(hosted, arrived)
            result = await self._locked(hosted, advance, changes=True, in_line=True,
                                        pool=self._filling(hosted) if expired else None)
        if wait and hosted.id in self.pumps:
            await asyncio.shield(self.pumps[hosted.id])
            result["pending"] = await self._locked(hosted, lambda: hosted.pending(GM))
        return result

    async def undo(self, p: Params) -> dict[str, Any]:
        """Roll the last resolved step back (service/undo.py); the step then waits for the GM."""
        hosted = self._game(p)
        hosted.require_gm(self._auth(p, hosted), "game.undo")
        drop = p.get("drop", list, None, what="a list of seats")
        if drop is not None and not all(isinstance(s, str) for s in drop):
            raise invalid("drop", "must be a list of seat names")
        p.done()
        arrived = hosted.arrival()  # it rolls back the step resolved before the one open now, never a later one

        def roll_back() -> dict[str, Any]:
            hosted.still_open(arrived, "nothing was undone")
            turn, step = hosted.game.state.turn, hosted.game.step
            seats = []  # named as in game.submit and game.assign (service/seat_names.py)
            for i, label in enumerate(drop or ()):
                seat = seat_names.seat_named(hosted.game, label)
                if seat is None:
                    raise seat_names.unknown_seat_error(hosted.game, f"drop[{i}]", label)
                seats.append(seat)
            out = undo.undo(hosted, seats)
            hosted.step_ended(turn, step, "was rolled back by an earlier game.undo")
            return out

        async with self._line(hosted.id):
            await self._ai_decided(hosted, arrived)  # AI seats finish what they are deciding first
            return await self._locked(hosted, roll_back, changes=True, in_line=True)

    def _filling(self, hosted: HostedGame) -> ThreadPoolExecutor | None:
        """Where a step expires: with an agent as ``expiry.fill`` it decides for every silent seat (an expert at a
        16-seat table, seconds each), so in the AI seats' pool, never holding the calls' workers."""
        return None if hosted.meta["expiry"]["fill"] == ai.RULEBOOK_DEFAULT else self.thinkers

    async def _ai_decided(self, hosted: HostedGame, arrived: int) -> None:
        """Wait until the AI seats deciding in the step open when the call arrived have decided (their decisions
        are in before the GM resolves or rolls back), or that step has ended. The background work goes on past
        that step by itself (the step resolving once everyone is in, the next step's AI seats): that is not
        waited for, and ``HostedGame.still_open`` then refuses the call."""
        while True:
            pump = self.pumps.get(hosted.id)
            if pump is None or pump.done():
                return
            progress = self.progress.get(hosted.id)
            if progress is None or progress.done():
                progress = self.progress[hosted.id] = asyncio.get_running_loop().create_future()
            async with self.locks[hosted.id]:
                if hosted.arrival() != arrived or hosted.next_ai_seat() is None:
                    return
            await asyncio.wait([pump, progress], return_when=asyncio.FIRST_COMPLETED)

    def _progressed(self, game_id: str) -> None:
        """The game's background work did one thing (an AI decision in, a step resolved): wake ``_ai_decided``."""
        progress = self.progress.pop(game_id, None)
        if progress is not None and not progress.done():
            progress.set_result(None)

    async def deadline(self, p: Params) -> dict[str, Any]:
        """The GM extends, pauses or resumes the current step's deadline (service/clock.py)."""
        hosted = self._game(p)
        hosted.require_gm(self._auth(p, hosted), "game.deadline")
        action = p.str("action")
        seconds = p.take("seconds", None)
        p.done()

        def change() -> dict[str, Any]:
            now = time.time()
            clock.change(hosted.meta, action, seconds, now)
            hosted._commit([], meta_changed=True)  # a failed write puts the clock back
            return {**clock.describe(hosted.meta, now), "pending": hosted.pending(GM)}

        return await self._locked(hosted, change, changes=True)

    async def log(self, p: Params) -> dict[str, Any]:
        hosted = self._game(p)
        who = self._auth(p, hosted)
        since = p.int("since", 0, minimum=0)
        p.done()
        return await self._locked(hosted, lambda: hosted.log(who, since))

    async def report(self, p: Params) -> dict[str, Any]:
        """The text a GM posts for a turn (now by default), with the seats an AI played; ``since``: only
        the events from that index on (``next`` in the answer is the index for the next post);
        ``private``: a seat's DM summary instead (a seat token may ask only for its own); ``split``: also
        the text cut into ``messages`` of at most that many characters (2000 for Discord)."""
        hosted = self._game(p)
        who = self._auth(p, hosted)
        turn = p.int("turn", None, minimum=1)
        since = p.int("since", None, minimum=0)
        private = p.str("private", None)
        split = p.int("split", None, minimum=1)
        await self._wait(p, hosted)
        p.done()
        if private is not None:
            if since is not None:
                raise invalid("since", "a private summary is always whole; leave out since")
            out = await self._locked(hosted, lambda: hosted.private_summary(who, private, turn))
        else:
            out = await self._locked(hosted, lambda: hosted.turn_report(who, turn, since))
        if split is not None:
            out["messages"] = await self._run(split_messages, out["report"], split)  # in a worker: a long report
            # cut into many short messages (split: 1) held the loop, and with it every connection, for milliseconds
        return out

    async def export(self, p: Params) -> dict[str, Any]:
        hosted = self._game(p)
        hosted.require_gm(self._auth(p, hosted), "game.export")
        p.done()
        blob = await self._locked(hosted, hosted.export)
        return {"game_id": hosted.id, "blob": blob}

    async def export_position(self, p: Params) -> dict[str, Any]:
        """The game's position (docs/positions.md) and a setup that continues it (for game.create)."""
        from service.cli.position import exported_setup

        hosted = self._game(p)
        hosted.require_gm(self._auth(p, hosted), "game.export_position")
        p.done()

        def export() -> dict[str, Any]:
            agents = {s: a for s, a in hosted.meta["controllers"].items() if a}
            setup = exported_setup(hosted.game, agents, hosted.settings())
            return {"game_id": hosted.id, "position": setup["position"], "setup": setup}

        return await self._locked(hosted, export)

    async def list_games(self, p: Params) -> list[str]:
        """Games a GM token runs (an unknown token simply gets an empty list)."""
        token = p.str("token")
        p.done()
        if self.store is not None:  # every stored game, in memory or not
            return sorted(await asyncio.get_running_loop().run_in_executor(
                self.executor, self.store.games_of, token_hash(token)))
        out = []
        for game_id, hosted in self.games.items():
            try:
                if hosted.who(token) is GM:
                    out.append(game_id)
            except RpcError:
                continue
        return sorted(out)

    async def render(self, p: Params) -> Any:
        """A picture to post, as bytes: the board (now or after ``turn``), the game summary, or the
        whole game animated (``kind``), as ``view`` shows it: the GM may have any view drawn (``gm``,
        ``channel``, or ``seat`` with ``seat``), a seat token its own seat view or the channel view
        (``service/render/access.py``; ``public: true`` = the channel view). ``focus`` (and ``radius``): the
        area around a seat, drawn for a phone from public information only, for any token."""
        hosted = self._game(p)
        who = self._auth(p, hosted)
        turn = p.int("turn", None, minimum=1)
        fmt = p.str("format", None)
        kind = p.str("kind", "board")
        public = p.bool("public", False)
        view = p.str("view", None)
        seat = p.str("seat", None)
        focus = p.str("focus", None)
        radius = p.int("radius", None)
        p.done()
        try:
            from service import render as rendering
            from service.render.access import picture_focus, picture_format, picture_view
        except (ImportError, AttributeError):
            raise RpcError("internal", "rendering is not installed (service.render is missing; "
                                       "install the render extra)") from None
        fmt = picture_format(kind, fmt)
        focus = picture_focus(hosted.game, None if who is GM else who, focus, radius, kind, view, seat)
        if focus is not None:  # the area around a seat, public: drawn from the channel view whoever asks
            view = "channel"
        if seat is not None:  # Player#3, a display name, a colour, as every other seat field (docs/service.md)
            named = seat_names.seat_named(hosted.game, seat)
            if named is None and who is GM:
                raise seat_names.unknown_seat_error(hosted.game, "seat", seat)
            seat = seat if named is None else named  # a seat token naming no seat: refused below as another's
        view, seat = picture_view(who, view, seat, public)
        if turn is not None and kind != "board":
            raise invalid("turn", f"a {kind} covers the whole game; leave out turn")

        def snapshot() -> tuple[Any, dict[str, str]]:  # under the game's lock: a copy to draw from
            told = hosted.played_by_labels(None if view == "gm" else seat or "")  # the channel: no seat's own
            # each agent as the GM chose it when it played ("expert -> search"), as the reports name it
            return hosted.game.clone(), {s: ", ".join(t) for s, t in told.items()}

        def draw(game: Any, ai_seats: dict[str, str]) -> bytes:
            with RENDER_LOCK:  # matplotlib is not thread-safe
                if kind == "summary":
                    return rendering.render_summary(game, seat, ai_seats, fmt, view=view)
                if kind == "animation":
                    return rendering.render_animation(game, seat, view, ai_seats=ai_seats)
                return rendering.render_board(game, seat, turn, fmt, view=view, focus=focus, radius=radius)

        key = (hosted.id, who)
        if who is not GM and self.rendering.get(key, 0) >= MAX_SEAT_RENDERS:
            raise RpcError(RATE_LIMITED, f"{MAX_SEAT_RENDERS} pictures of this game for this seat are still being "
                                         f"drawn; ask for another once they are back", {"limit": MAX_SEAT_RENDERS})
        self.rendering[key] = self.rendering.get(key, 0) + 1
        try:
            game, ai_seats = await self._locked(hosted, snapshot)
            async with self.render_turn.turn(hosted.id):  # (one picture in the pool at a time: not shared)
                return await self._run(draw, game, ai_seats, shared=False)
        except RpcError as err:
            if err.code == "internal" and "ModuleNotFoundError" in err.message:
                raise RpcError("internal", "rendering is not installed (install the render extra: matplotlib)") \
                    from None
            raise
        finally:
            self.rendering[key] -= 1
            if not self.rendering[key]:
                del self.rendering[key]

    # -- background work: AI seats, the rules' immediate advance, expired deadlines ------------
    def kick(self, game_id: str) -> None:
        task = self.pumps.get(game_id)
        if task is None or task.done():
            # in a context of its own: the work is the game's, not the share of the connection whose call kicked it
            task = asyncio.get_running_loop().create_task(self._pump(game_id), context=contextvars.Context())
            self.pumps[game_id] = task
            task.add_done_callback(lambda t, g=game_id: self._pump_done(g, t))

    def _pump_done(self, game_id: str, task: asyncio.Task) -> None:
        if self.pumps.get(game_id) is task:
            del self.pumps[game_id]
        self._progressed(game_id)

    async def _pump(self, game_id: str) -> None:
        """A game's background work: AI seats decide, then the step resolves when everyone has submitted.
        An AI seat decides on a copy of the game without holding its lock (an ``expert`` seat thinks for
        seconds), so players' DMs and the GM's calls for the game are answered meanwhile."""
        hosted = self.games[game_id]
        lock = self.locks[game_id]
        while True:
            try:
                async with lock:
                    turn = await self._run(hosted.next_ai_turn)
                    if turn is None and not await self._run(hosted.work):
                        self._drop_retry(game_id)
                        return
                if turn is None:
                    self._progressed(game_id)
                    continue
                decision = await self._run(hosted.decide_ai, turn, pool=self.thinkers)
                async with lock:
                    await self._run(hosted.commit_ai, turn, decision)
                self._progressed(game_id)
            except RpcError as err:
                log.error("background work failed: %s", err.message, extra={"game_id": game_id})
                if isinstance(err, StoreFailed):
                    self._retry(game_id)
                return
            else:
                self._drop_retry(game_id)

    def _retry(self, game_id: str) -> None:
        """The store refused the background work's write: kick the game again later (STORE_RETRY)."""
        tries = self.retries[game_id][0] if game_id in self.retries else 0
        delay = STORE_RETRY[min(tries, len(STORE_RETRY) - 1)]
        handle = asyncio.get_running_loop().call_later(delay, self._kick_again, game_id)
        self.retries[game_id] = (tries + 1, handle)

    def _kick_again(self, game_id: str) -> None:
        if game_id in self.games:  # (a game that left memory is kicked when it comes back)
            self.kick(game_id)

    def _drop_retry(self, game_id: str) -> None:
        retry = self.retries.pop(game_id, None)
        if retry is not None:
            retry[1].cancel()

    async def _expiry_loop(self) -> None:
        """Every ``expiry_interval``: read each game's clock and start, for a game whose step's deadline passed, a
        task of its own resolving it (``_expire``). The loop waits for no game: it waited for each expired game's
        AI seats in turn, so one game's slow AI seats (an expert at a 16-seat table) held every other game's
        deadlines. One expiry task at a time per game; their work runs in the pools, so it stays bounded."""
        while True:
            await asyncio.sleep(self.expiry_interval)
            now = time.time()
            for game_id, hosted in list(self.games.items()):
                if game_id in self.expiring:
                    continue
                try:
                    ready = hosted.expired_ready(now)
                except Exception:  # one game's bad state never stops the other games' deadlines
                    log.exception("expiry check failed", extra={"game_id": game_id})
                    continue
                if ready:
                    task = asyncio.get_running_loop().create_task(self._expire(game_id, hosted))
                    self.expiring[game_id] = task
                    task.add_done_callback(lambda t, g=game_id: self._expired(g, t))

    def _expired(self, game_id: str, task: asyncio.Task) -> None:
        if self.expiring.get(game_id) is task:
            del self.expiring[game_id]
        if not task.cancelled() and task.exception() is not None:
            log.error("expiry failed", exc_info=task.exception(), extra={"game_id": game_id})

    async def _expire(self, game_id: str, hosted: HostedGame) -> None:
        """Resolve one game's step whose deadline passed, as ``game.advance {"expired": true}`` does: its AI seats
        still deciding get their own decisions in first, then the step resolves under the game's lock."""
        pump = self.pumps.get(game_id)
        if pump is not None:
            await asyncio.shield(pump)
        pool = self._filling(hosted)
        async with self.fill_slots if pool is self.thinkers else contextlib.nullcontext():
            if self.games.get(game_id) is not hosted:  # it left memory meanwhile
                return
            try:
                async with self.locks[game_id]:
                    if hosted.expired_ready(time.time()):
                        how = "resolved by itself as its deadline passed"
                        await self._run(lambda: hosted.advance(False, True, how=how), pool=pool)
                        log.info("deadline passed: step resolved", extra={"game_id": game_id})
            except RpcError as err:  # tried again at the next check (a store failure included)
                log.warning("expiry advance failed: %s", err.message, extra={"game_id": game_id})
        self.kick(game_id)
