"""The game file: one format for ``regent new/adjudicate/seat/render/play`` and ``game.export/import``.

A game file is one MessagePack map. Its engine part is exactly the engine's replayable blob
(``Game.to_blob``: ``v``, ``setup``, ``actions``), so ``Game.from_blob`` reads any game file directly;
the keys beside it say what only the GM's tools know:

=================  ==========================================================================
``kind``           ``"regent-game"``
``format``         :data:`FORMAT` (this module's version of the keys below)
``v``              the engine blob version (``engine.protectors.game.BLOB_VERSION``)
``setup``          the engine setup: board, seed, players (``players[i].name`` is the display name),
                   options, and the imported ``position`` if any
``actions``        every accepted DM and every resolved step, in order (replays to the same game)
``agents``         AI seats: seat -> agent name (``heuristic``, ``ppo:normal``...); human seats absent
``ai_played``      seat -> agents that ever decided for it (reports say "played by AI")
``ai_levels``      seat -> {agent: level}: how the GM chose the seat's agent, where they gave a level that resolved to
                   another agent (``regent seat g Bob steward``: ``{"steward-search": "steward"}``): reports and
                   seat listings name it ``steward -> steward-search``. A label only: ``agents`` and ``ai_played``
                   keep the agent, which is what replays. An agent chosen by its own name has no entry (one given
                   by its name since drops it); a file without the key (written before) names the agents alone
``ai_turns``       seat -> the turns in which an AI decided for it (a turn's ``Played by AI`` line names
                   only those seats; a seat in ``ai_played`` without turns, from a file written before,
                   is named for every turn)
``ai_history``     seat -> ``[turn, agent, level]`` for each agent that decided for it in a turn, with the level it
                   was chosen by then (``None``: by its own name): a turn's ``Played by AI`` line and the summary
                   picture name who played that turn as the GM chose it then (``expert -> search``), though the
                   seat's ``ai_levels`` have changed since (a human between, a level resolving to the same agent
                   given later). A turn it does not cover (a file written before it was kept) is named from
                   ``ai_played``, ``ai_turns`` and ``ai_levels`` as before
``deadlines``      decision windows in seconds per step kind (rulebook defaults, overridable)
``step_started``   Unix time the current waiting step started; its deadline is this plus its window
``step_ai``        seat -> agent for the AI decisions already stored in the current step (in a Bank of
                   Lannuvár round, also those of the round it answers, whose choices its report lists again)
``service``        what only the RPC service uses (``auto_advance``, ``expiry``, ``by``, ``game_id``)
``posted``         how far the public report was posted: an index into the game's events
                   (``regent report --since-last`` prints ``Game.report_since(posted)`` and moves it)
``dms_read``       DMs file (its full path) -> the DMs ``regent adjudicate`` read from it to their end, as
                   fingerprints (service/cli/dms_seen.py): a run on the file grown reads only the new ones
``refused``        seat -> ``{"file", "line", "why", "step"}``: the DM of the open step ``regent adjudicate``
                   refused for that seat (``step`` is ``turn:step``); it holds the step, ``--force`` included, in a
                   run without that DMs file too, until the seat's DM is stored, an AI decides for it, or a
                   run on that file no longer refuses it
``digest``         SHA-256 of the game as it was when written (:func:`state_digest`); a file that
                   replays to another state (a rule fixed since it was played) reads with
                   ``GameFile.stale`` set, and the commands say so before going on
=================  ==========================================================================

Older files still load: a bare engine blob (what ``regent new`` wrote before) and the service's
``regent-service-game`` export (engine blob nested under ``engine``, service keys under ``service``).
Writing is atomic, and :func:`write` keeps the previous version as ``<file>.bak``.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import os
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack

from engine.errors import RegentError, ValidationError
from engine.protectors.events import listed
from engine.protectors.game import Game
from engine.protectors.report import BANK_RULE, display_names
from engine.protectors.state import BANK_BID, DRAGON
from service import ai, deadlines, seat_names

KIND = "regent-game"
FORMAT = 1
LEGACY_SERVICE_KIND = "regent-service-game"  # game.export before the one file format
BACKUP_SUFFIX = ".bak"
LOCK_SUFFIX = ".lock"
SERVICE_KEYS = ("auto_advance", "expiry", "by", "game_id", "clock")
NOW = object()  # GameFile.note_ai: the level the seat's ai_levels give the agent now


@dataclass
class GameFile:
    """An engine game plus the GM's tools' state: AI seats, deadlines, who an AI played."""

    game: Game
    agents: dict[str, str] = field(default_factory=dict)
    ai_played: dict[str, list[str]] = field(default_factory=dict)
    ai_turns: dict[str, list[int]] = field(default_factory=dict)
    ai_levels: dict[str, dict[str, str]] = field(default_factory=dict)  # seat -> {agent: the level the GM gave}
    ai_history: dict[str, list[list[Any]]] = field(default_factory=dict)  # seat -> [turn, agent, level or None]
    deadlines: dict[str, float] = field(default_factory=dict)
    step_started: float | None = None
    step_ai: dict[str, str] = field(default_factory=dict)
    service: dict[str, Any] = field(default_factory=dict)
    posted: int = 0  # events up to here were in a posted report (regent report --since-last)
    dms_read: dict[str, list[str]] = field(default_factory=dict)  # DMs file -> DMs read (service/cli/dms_seen.py)
    refused: dict[str, dict[str, Any]] = field(default_factory=dict)  # seat -> its refused DM of the open step
    stale: str | None = None  # read back to another state than it was written in (not written: the digest is)

    def deadline(self) -> float | None:
        """When the current step's window closes (Unix time), if the file knows when it started."""
        window = self.deadlines.get(self.game.window_step())  # a Bank of Lannuvár round: the Bank's window
        if self.step_started is None or window is None:
            return None
        return self.step_started + window

    def display(self, seat: str) -> str:
        """``Player#3 (Alice)``, or just ``Player#3`` when the seat has no display name of its own."""
        return seat_names.display(self.game, seat)

    def name(self, seat: str) -> str:
        """The seat's display name (the seat itself when it has none), as the reports say it."""
        p = self.game.state.players.get(seat)
        return str(getattr(p, "name", None) or seat)

    def seat_named(self, label: str) -> str | None:
        """The seat a GM or a DM header means (``service/seat_names.py``), or ``None``."""
        return seat_names.seat_named(self.game, label)

    def unknown_seat(self, label: str) -> str:
        """Why ``label`` names no seat, with the closest name (a typo) and the seats there are."""
        return seat_names.unknown_seat(self.game, label)

    def label(self, seat: str, agent: str | None = None) -> str:
        """``seat``'s agent (its AI seat's now by default) as the GM chose it: ``steward -> steward-search``."""
        agent = self.agents.get(seat, "") if agent is None else agent
        return ai.agent_label(agent, self.ai_levels.get(seat, {}).get(agent))

    def note_ai(self, seat: str, agent: str, turn: int | None = None, level: Any = NOW) -> None:
        """``agent`` decided for ``seat`` (in ``turn``), chosen by ``level`` (by default the level the seat's
        ``ai_levels`` give it now: the label it is named by in that turn's reports from then on)."""
        played = self.ai_played.setdefault(seat, [])
        if agent not in played:
            played.append(agent)
        turns = self.ai_turns.setdefault(seat, [])
        if turn is not None and turn not in turns:
            turns.append(turn)
        if turn is not None:
            note_history(self.ai_history, seat, turn, agent,
                         self.ai_levels.get(seat, {}).get(agent) if level is NOW else level)

    def ai_in(self, turns: set[int]) -> dict[str, list[str]]:
        """Seat -> its agents, for the seats an AI decided for in ``turns``: those ``ai_history`` names in them,
        and for a turn it does not cover (a file written before it was kept) every agent the seat ever had, as
        before (a seat with no turns on record: for every turn)."""
        return {s: [a for a, _ in told] for s, told in self._deciders(turns).items()}

    def ai_named(self, turns: set[int] | None = None) -> dict[str, list[str]]:
        """Seat -> the AIs that decided for it in ``turns`` (``None``: the whole game), each as the GM chose it
        then (``expert -> search``, ``ai_history``; a turn it does not cover, by the seat's ``ai_levels``): the
        ``Played by AI`` line's and the summary picture's words."""
        return {s: ai.agent_labels(told) for s, told in self._deciders(turns).items()}

    def decided_label(self, seat: str, agent: str) -> str:
        """``agent`` as the GM chose it when it last decided for ``seat`` (``ai_history``; the seat's label now
        if the file does not say): the step just resolved's ``Played by AI`` line, though the seat changed since."""
        told = [lv for _, a, lv in self.ai_history.get(seat, []) if a == agent]
        return ai.agent_label(agent, told[-1]) if told else self.label(seat, agent)

    def _deciders(self, turns: set[int] | None) -> dict[str, list[tuple[str, str | None]]]:
        out = {}
        for seat, agents in self.ai_played.items():
            if not agents:
                continue
            history = self.ai_history.get(seat, [])
            covered = {e[0] for e in history}
            known = set(self.ai_turns.get(seat, []))
            before = [(a, self.ai_levels.get(seat, {}).get(a)) for a in agents]  # named as a file before said it
            told: list[tuple[str, str | None]] = []
            # the turns the file names the seat for without saying by whom: every turn but the history's, for a seat
            # it names without turns (written before they were kept), else its turns the history does not cover
            if not known:
                if turns is None or turns - covered:
                    told += before
            elif known - covered and (turns is None or turns & (known - covered)):
                told += before
            told += [(a, lv) for t, a, lv in history if turns is None or t in turns]
            if told:
                out[seat] = told
        return out


def note_history(history: dict[str, list[list[Any]]], seat: str, turn: int, agent: str, level: str | None) -> None:
    """Keep in ``history`` (a game file's ``ai_history``) that ``agent``, chosen by ``level``, decided for ``seat`` in
    ``turn``: once per turn, agent and level."""
    entry = [turn, agent, level or None]
    kept = history.setdefault(seat, [])
    if entry not in kept:
        kept.append(entry)


def in_seat_order(game: Game, by_seat: dict[str, Any]) -> list[tuple[str, Any]]:
    """``by_seat``'s items in the game's seat order (Player#8 before Player#10, which a plain sort of
    the seat names puts first), seats the game does not have last."""
    order = {s: i for i, s in enumerate(game.state.players)}
    return sorted(by_seat.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0]))


def note_level(levels: dict[str, dict[str, str]], seat: str, agent: str, given: Any, drop: bool = True) -> None:
    """Keep in ``levels`` (a game file's ``ai_levels``, the service's meta) how the GM chose ``seat``'s ``agent``:
    ``given`` is what they gave (``steward``, ``heuristic``). A level that resolved to another agent is kept; an
    agent's own name drops the level kept for that agent (the seat's other agents keep theirs: they name the turns
    they played), unless not to ``drop`` it (a setup's or a file's agents, beside the levels it carries)."""
    level = ai.chosen_level(given, agent)
    if level:
        levels.setdefault(seat, {})[agent] = level
    elif drop and agent in levels.get(seat, {}):
        del levels[seat][agent]
        if not levels[seat]:
            del levels[seat]


def played_by_ai(game: Game, told: dict[str, Any]) -> str:
    """The reports' ``Played by AI: ...`` line (issue 24: the channel always sees which seats an AI played):
    each seat's display name with its AI, or AIs (a list), in seat order, as ``told`` names them (as the GM chose
    them when they played: ``GameFile.ai_named``); ``none`` when no AI played. Seats played by the same AI are named
    together, the AI once (``Ann, Dan and Eve (normal -> heuristic), Ben (heuristic)``): at 16 seats one level said
    per seat filled a quarter of a Discord message on every step."""
    if not told:
        return "Played by AI: none"
    names = display_names(game.state)
    by_ai: dict[str, list[str]] = {}  # in seat order of each AI's first seat
    for s, t in in_seat_order(game, told):
        by_ai.setdefault(t if isinstance(t, str) else ", ".join(t), []).append(names.get(s, s))
    return "Played by AI: " + ", ".join(f"{listed(seats)} ({label})" for label, seats in by_ai.items())


class DamagedGameFile(ValidationError):
    """The bytes are no whole Regent game file (empty, cut short, not MessagePack, no game in them): the
    ``.bak`` beside the file, if any, is where the GM gets the game back from (``read`` names it)."""


def loads(blob: bytes, where: str = "game file") -> GameFile:
    """A game file (any format Regent ever wrote) from bytes; errors name ``where``."""
    if not blob:
        raise DamagedGameFile(where, "empty (0 bytes): not a Regent game file")
    try:
        data = msgpack.unpackb(blob, raw=False, strict_map_key=False)
    except Exception as err:  # msgpack raises several unrelated types
        if "incomplete input" in str(err):  # a copy or a download that stopped short
            raise DamagedGameFile(where, f"cut short after {len(blob)} bytes (truncated): not a whole Regent game "
                                         "file") from None
        raise DamagedGameFile(where, f"not a Regent game file ({type(err).__name__})") from None
    if not isinstance(data, dict):
        raise DamagedGameFile(where, "not a Regent game file (not a MessagePack map)")
    kind = data.get("kind")
    if kind == LEGACY_SERVICE_KIND:
        engine, service = data.get("engine"), data.get("service") or {}
        if not isinstance(engine, bytes) or not isinstance(service, dict):
            raise ValidationError(where, "malformed service export (no engine blob)")
        controllers = _seat_map(service.get("controllers") or {}, where, "controllers", allow_none=True)
        gf = GameFile(_engine(engine, where), agents={s: a for s, a in controllers.items() if a},
                      ai_played=_played(service.get("ai_played"), where),
                      deadlines=_windows(service.get("deadlines"), where),
                      service={k: service[k] for k in SERVICE_KEYS if k in service})
        if "game_id" in data:
            gf.service["game_id"] = data["game_id"]
        return gf
    if kind not in (None, KIND):
        raise ValidationError(where, f"unknown game file kind {kind!r}")
    if kind == KIND and data.get("format") != FORMAT:
        raise ValidationError(where, f"game file format {data.get('format')!r} is newer than this Regent "
                                     f"reads ({FORMAT}); upgrade Regent")
    if "setup" not in data or "actions" not in data:
        raise DamagedGameFile(where, "not a Regent game file (no setup and actions)")
    started = data.get("step_started")
    if started is not None and (isinstance(started, bool) or not isinstance(started, int | float)):
        raise ValidationError(where, "step_started must be a Unix time")
    service = data.get("service") or {}
    if not isinstance(service, dict):
        raise ValidationError(where, "service must be a map")
    posted = data.get("posted", 0)
    if isinstance(posted, bool) or not isinstance(posted, int) or posted < 0:
        raise ValidationError(where, "posted must be an event index >= 0")
    game = _engine(blob, where)
    agents = _seat_map(data.get("agents") or {}, where, "agents")
    for seat in agents:
        if seat not in game.state.players:
            raise ValidationError(where, f"agents: unknown seat {seat!r}")
    levels = levels_map(data.get("ai_levels"), where)
    history = history_map(data.get("ai_history"), where)
    for key, seats in (("ai_levels", levels), ("ai_history", history)):
        for seat in seats:
            if seat not in game.state.players:
                raise ValidationError(where, f"{key}: unknown seat {seat[:40]!r}")
    written = data.get("digest")
    if written is not None and not isinstance(written, str):
        raise ValidationError(where, "digest must be a string")
    return GameFile(game, agents={s: a for s, a in agents.items() if a},
                    ai_played=_played(data.get("ai_played"), where), ai_turns=_turns(data.get("ai_turns"), where),
                    ai_levels=levels, ai_history=history,
                    deadlines=_windows(data.get("deadlines"), where),
                    step_started=None if started is None else float(started),
                    step_ai={s: a for s, a in _seat_map(data.get("step_ai") or {}, where, "step_ai").items() if a},
                    service={k: service[k] for k in SERVICE_KEYS if k in service}, posted=posted,
                    dms_read=dms_read_map(data.get("dms_read"), where),
                    refused=_refused(data.get("refused"), game, where),
                    stale=STALE if written is not None and written != state_digest(game) else None)


def state_digest(game: Game) -> str:
    """A digest of everything the GM can see plus the event count: equal digests, equal games (the
    service stores one with every action; a game file carries one for the state it was written in)."""
    body = msgpack.packb([game.view(None), len(game.state.events), game.actions[-1:] if game.actions else []],
                         use_bin_type=True, default=str)
    return hashlib.sha256(body).hexdigest()


STALE = ("replayed under this Regent's rules it ends in another state than the one it was saved in (a rule "
         "was fixed since it was played); going on from the state the current rules give")


def dumps(gf: GameFile) -> bytes:
    """The game file's bytes (the engine blob's keys plus the GM keys, see the module docstring)."""
    data = msgpack.unpackb(gf.game.to_blob(), raw=False, strict_map_key=False)
    data.update({"kind": KIND, "format": FORMAT, "agents": dict(gf.agents),
                 "ai_played": {s: list(a) for s, a in gf.ai_played.items()},
                 "ai_turns": {s: list(t) for s, t in gf.ai_turns.items()},
                 "deadlines": dict(gf.deadlines), "step_started": gf.step_started, "step_ai": dict(gf.step_ai),
                 "posted": gf.posted, "digest": state_digest(gf.game)})
    if gf.service:
        data["service"] = dict(gf.service)
    if gf.dms_read:
        data["dms_read"] = {f: list(d) for f, d in gf.dms_read.items()}
    if gf.ai_levels:
        data["ai_levels"] = {s: dict(m) for s, m in gf.ai_levels.items()}
    if gf.ai_history:
        data["ai_history"] = {s: [list(e) for e in h] for s, h in gf.ai_history.items()}
    if gf.refused:
        data["refused"] = {s: dict(r) for s, r in gf.refused.items()}
    return msgpack.packb(data, use_bin_type=True)


def read(path: Path, warn: Callable[[str], None] | None = None) -> GameFile:
    """A game file from disk; a missing file or a directory is a one-line error naming it. ``warn``
    (e.g. ``print`` to standard error): told ``regent: warning: FILE: ...`` when the file is stale."""
    path = Path(path)
    if not path.exists():
        raise ValidationError(str(path), "no such game file (create one with 'regent new')")
    if not path.is_file():
        raise ValidationError(str(path), "not a file")
    try:
        gf = loads(path.read_bytes(), str(path))
    except DamagedGameFile as err:
        bak = backup_path(path)
        if bak.is_file():  # the version before the last change is where the GM gets the game back from
            raise DamagedGameFile(str(path), f"{str(err).removeprefix(f'{path}: ')}; {bak} holds the version "
                                             "before the last change") from None
        raise
    if gf.stale and warn is not None:
        warn(f"regent: warning: {path}: {gf.stale}")
    return gf


def write(path: Path, gf: GameFile, backup: bool = True) -> None:
    """Write atomically (a crash leaves the old file or the new one, never half of one); the
    version replaced is kept as ``<path>.bak`` when ``backup``."""
    path = Path(path)
    body = dumps(gf)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(body)
        f.flush()
        os.fsync(f.fileno())
    if backup and path.is_file():
        bak = path.with_name(path.name + BACKUP_SUFFIX)
        bak_tmp = path.with_name(path.name + BACKUP_SUFFIX + ".tmp")
        shutil.copyfile(path, bak_tmp)
        os.replace(bak_tmp, bak)
    os.replace(tmp, path)


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold the game file for one command's read-change-write, so two commands run at once (a GM's
    shell and a script) cannot lose each other's DMs: the second is refused, never made to wait.
    The lock is ``<file>.lock`` (an empty file left in place; removing it would race)."""
    path = Path(path)
    if not path.is_file():  # nothing to protect (the command itself says what is wrong)
        yield
        return
    lock = path.with_name(path.name + LOCK_SUFFIX)
    try:
        f = open(lock, "a+b")  # noqa: SIM115 - held for the whole block
    except OSError as err:  # a read-only directory: nothing to lock against
        if err.errno in (errno.EACCES, errno.EROFS, errno.ENOENT):
            yield
            return
        raise
    with f:
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ValidationError(str(path), "another regent command is changing this game file now; "
                                             "run this one again when it is done") from None
        try:
            yield
        finally:
            fcntl.flock(f.fileno(), fcntl.LOCK_UN)


def backup_path(path: Path) -> Path:
    path = Path(path)
    return path.with_name(path.name + BACKUP_SUFFIX)


def now() -> float:
    """The clock (tests replace it to pin the deadlines they print)."""
    return time.time()


def local_time(ts: float) -> str:
    """A Unix time as the GM's local time, with the zone: ``Thu 26 Nov 2026 15:00 CET``."""
    return time.strftime("%a %d %b %Y %H:%M %Z", time.localtime(ts)).strip()


def describe_deadline(ts: float | None, at: float | None = None) -> str:
    """``deadline Thu 26 Nov 2026 15:00 CET (in 2d 23h)`` or ``... (passed 4h ago)``."""
    if ts is None:
        return "deadline unknown (this file does not say when the step started)"
    left = ts - (now() if at is None else at)
    span = _span(abs(left))
    return f"deadline {local_time(ts)} ({'in ' + span if left >= 0 else 'passed ' + span + ' ago'})"


def _span(seconds: float) -> str:
    minutes = int(seconds // 60)
    d, rest = divmod(minutes, 24 * 60)
    h, m = divmod(rest, 60)
    if d:
        return f"{d}d {h}h"
    return f"{h}h {m}m" if h else f"{m}m"


def _engine(blob: bytes, where: str) -> Game:
    try:
        return Game.from_blob(blob)
    except RegentError as err:
        raise ValidationError(where, str(err)) from None
    except (KeyError, TypeError, IndexError, AttributeError, ValueError) as err:  # a map of the wrong shape
        raise ValidationError(where, f"malformed engine record ({type(err).__name__}: {err})") from None


def _seat_map(value: Any, where: str, key: str, allow_none: bool = False) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValidationError(where, f"{key} must be a map seat -> agent")
    for s, a in value.items():
        if not isinstance(s, str) or not (isinstance(a, str) or (allow_none and a is None)):
            raise ValidationError(where, f"{key} must map seat names to agent names, not {s!r:.40} -> {a!r:.40}")
    return dict(value)


def _played(value: Any, where: str) -> dict[str, list[str]]:
    if value is None:
        return {}
    if not isinstance(value, dict) or any(not isinstance(v, list) for v in value.values()):
        raise ValidationError(where, "ai_played must be a map seat -> list of agents")
    return {str(s): [str(a) for a in v] for s, v in value.items()}


MAX_LEVEL_CHARS = 64  # a level's name in ``ai_levels`` (a label in reports)
MAX_AGENT_CHARS = 200  # an agent's name in ``ai_history`` (``policy:<path>`` names run long)


def levels_map(value: Any, where: str) -> dict[str, dict[str, str]]:
    """An ``ai_levels`` map (seat -> {agent: the level the GM gave}), checked: a game file's, or an exported
    setup's (``regent export-position``), which ``regent new`` and ``game.create`` keep."""
    if value is None:
        return {}
    if not isinstance(value, dict) or any(
            not isinstance(s, str) or not isinstance(m, dict)
            or any(not isinstance(a, str) or not isinstance(lv, str) or not 0 < len(lv) <= MAX_LEVEL_CHARS
                   for a, lv in m.items())
            for s, m in value.items()):
        raise ValidationError(where, f"ai_levels must be a map seat -> {{agent: level}} (a level of 1 to "
                                     f"{MAX_LEVEL_CHARS} characters)")
    return {s: dict(m) for s, m in value.items() if m}


def history_map(value: Any, where: str) -> dict[str, list[list[Any]]]:
    """An ``ai_history`` map (seat -> ``[turn, agent, level or None]`` entries), checked; ``{}`` for a file without."""
    if value is None:
        return {}
    if not isinstance(value, dict) or any(
            not isinstance(s, str) or not isinstance(h, list)
            or any(not isinstance(e, list) or len(e) != 3 or isinstance(e[0], bool) or not isinstance(e[0], int)
                   or not isinstance(e[1], str) or not 0 < len(e[1]) <= MAX_AGENT_CHARS
                   or not (e[2] is None or (isinstance(e[2], str) and 0 < len(e[2]) <= MAX_LEVEL_CHARS))
                   for e in h)
            for s, h in value.items()):
        raise ValidationError(where, f"ai_history must be a map seat -> list of [turn, agent, level or nil] (an agent "
                                     f"of 1 to {MAX_AGENT_CHARS} characters, a level of 1 to {MAX_LEVEL_CHARS})")
    return {s: [list(e) for e in h] for s, h in value.items() if h}


def _turns(value: Any, where: str) -> dict[str, list[int]]:
    if value is None:
        return {}
    if not isinstance(value, dict) or any(
            not isinstance(v, list) or any(isinstance(t, bool) or not isinstance(t, int) for t in v)
            for v in value.values()):
        raise ValidationError(where, "ai_turns must be a map seat -> list of turns")
    return {str(s): list(v) for s, v in value.items()}


def dms_read_map(value: Any, where: str) -> dict[str, list[str]]:
    """A ``dms_read`` map (DMs file -> the fingerprints of the DMs read from it), checked: a game file's, or an exported
    setup's (``regent export-position``), which ``regent new`` and ``game.create`` keep."""
    if value is None:
        return {}
    if not isinstance(value, dict) or any(
            not isinstance(f, str) or not isinstance(v, list) or any(not isinstance(d, str) for d in v)
            for f, v in value.items()):
        raise ValidationError(where, "dms_read must be a map DMs file -> list of DM fingerprints")
    return {f: list(v) for f, v in value.items()}


REFUSED_KEYS = {"file": str, "line": int, "why": str, "step": str}


def _refused(value: Any, game: Game, where: str) -> dict[str, dict[str, Any]]:
    if value is None:
        return {}
    if not isinstance(value, dict) or any(
            s not in game.state.players or not isinstance(r, dict) or set(r) != set(REFUSED_KEYS)
            or any(not isinstance(r[k], t) or isinstance(r[k], bool) for k, t in REFUSED_KEYS.items())
            for s, r in value.items()):
        raise ValidationError(where, "refused must be a map seat -> {file, line, why, step}")
    return {str(s): dict(r) for s, r in value.items()}


def step_key(game: Game) -> str:
    """The open step as ``refused`` names it: ``turn:step``."""
    return f"{game.state.turn}:{game.step}"


def _windows(value: Any, where: str) -> dict[str, float]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValidationError(where, "deadlines must be a map step -> seconds")
    out = {}
    for k, v in value.items():
        problem = deadlines.window_problem(v) if isinstance(k, str) else "a step name must be a string"
        if problem:  # a file written before the bounds (NaN, 1e300) is named, never an internal error
            raise ValidationError(where, f"deadlines.{k}: {problem}")
        out[k] = float(v)
    return out


def bank_round_began(game: Any, since: int) -> bool:
    """rules: 003 The Bank of Lannuvár ("12h to give their highly informed orders, once the other players' choices
    have been revealed to everyone"): the step resolved since event ``since`` revealed the others' bids or Dragon
    commitments, and the game now waits for the Bank's seats. Their round is decided on those choices, and the
    report that resolves it lists them again (the ranking's bids, every seat's commitment), so the file's ``step_ai``
    keeps that round's AI decisions: ``regent adjudicate`` and the service's ``HostedGame`` both ask here."""
    if game.over or game.step not in (BANK_BID, DRAGON):
        return False
    return any(e.rule == BANK_RULE and e.kind in ("bids", "commitments") for e in game.state.events[since:])
