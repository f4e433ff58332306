"""AI seat controllers: agent names, difficulties, and one decision for one seat.

Agents come from ``agents.registry`` (the only place that knows how to build them), so a policy
that needs torch is imported only when a seat is actually given that agent.
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import logging
import math
import os
import stat
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from service.errors import RpcError, clip, invalid

log = logging.getLogger("regent.service")

# Difficulty names a GM may use instead of an agent: the first agent present in the registry wins.
# What each does to the rest of the table (who wins, how often the Dragon does) is measured in
# docs/table-health.md: ``steward`` keeps the table alive and wins little itself (the steward's habits
# with a look-ahead for the table, agents/steward_search.py; no torch), ``fair`` wins about a fair share,
# ``strong`` and ``expert`` play to win (and take wins from the humans).
DIFFICULTIES = {
    "steward": ("steward-search", "steward", "caretaker"),
    "fair": ("fair", "heuristic", "caretaker"),
    "strong": ("strong", "ppo:hard", "ppo", "heuristic", "caretaker"),
    "easy": ("ppo:easy", "random"),
    "normal": ("heuristic", "caretaker"),
    "hard": ("strong", "ppo:hard", "ppo", "heuristic", "caretaker"),
    # decision-time search over strong's choices (agents.search): the strongest, seconds a decision
    "expert": ("search", "strong", "ppo:hard", "ppo", "heuristic", "caretaker"),
}
# A GM's words for "a person plays the seat", beside nil: game.assign, a setup's agents, regent seat and the Discord
# bridge's /regent seat (service/discord/seat_command.py keeps the same words: the bot imports no service module;
# tests/discord/test_config.py keeps the two equal).
HUMAN_WORDS = ("human", "none", "player", "off", "-")


def is_human(name: Any) -> bool:
    """Whether ``name`` says a person plays the seat (``HUMAN_WORDS``, any case)."""
    return isinstance(name, str) and name.strip().casefold() in HUMAN_WORDS


def level_named(name: Any) -> str | None:
    """The level (``DIFFICULTIES``) a GM's ``name`` gives, read as :func:`resolve` reads it ("Expert" from a phone that
    capitalises); ``None`` for an agent's name, a human seat or anything else."""
    if not isinstance(name, str):
        return None
    if name in DIFFICULTIES:
        return name
    folded = name.strip().casefold()
    return folded if folded in DIFFICULTIES and name not in registry() else None


def chosen_level(name: Any, agent: str | None) -> str | None:
    """The level the GM gave (``name``) when it resolved to another agent (``agent``, what :func:`resolve` gave):
    the label a seat's agent is named by beside it (:func:`agent_label`). ``None`` when the GM gave an agent's name,
    a level of the same name as its agent (``fair``), or a human seat: the agent alone is named then."""
    level = level_named(name) if agent is not None else None
    return level if level and level != agent else None


def agent_label(agent: str, level: str | None = None) -> str:
    """An AI seat's agent as the GM chose it: ``steward -> steward-search`` for a level that resolved to another
    agent, the agent alone otherwise (the agent stays what the game stores and replays; the level is a label)."""
    return f"{level} -> {agent}" if level and level != agent else agent


def agent_labels(told: Iterable[tuple[str, str | None]]) -> list[str]:
    """``(agent, level)`` pairs that decided for a seat, each named once as the GM chose it, in order: an agent
    named bare (chosen by its own name, or by a record that kept no level: a game brought in from a file) is not
    named again beside the same agent by a level (``heuristic, normal -> heuristic`` reads ``normal -> heuristic``)."""
    told = list(told)
    levelled = {a for a, lv in told if agent_label(a, lv) != a}
    return list(dict.fromkeys(agent_label(a, lv) for a, lv in told if agent_label(a, lv) != a or a not in levelled))


# ``policy:<checkpoint>[@temperature]``: a trained policy by checkpoint (``agents.registry.make_agent``).
POLICY_PREFIX = "policy:"
# The default "fill" for a seat whose deadline passed: the rulebook defaults (rules: 003, inactive players).
RULEBOOK_DEFAULT = "default"
# torch threads for policy inference in the server: the nets are small MLPs, one decision is a few
# matrix-vector products, and extra threads only contend with each other (and with other seats' calls
# running in the pool) on a busy machine: p99 1 ms with one thread against 50+ ms with two under load.
TORCH_THREADS = 1
# Checkpoint files a served game may name (hB item 4: ``policy:/dev/zero`` read 9.3 GB, and the
# replies told a client which server files exist). In a server (``serve_checkpoints``, which
# ``service.app.App`` calls), ``policy:<path>`` must name a regular file of at most
# MAX_CHECKPOINT_BYTES whose real path lies under a checkpoint directory: the shipped ``checkpoints/``
# and any ``regent serve --checkpoint-dir``. A relative path is looked up from the server's working
# directory, then from each checkpoint directory. Every refusal is the same sentence, so a reply says
# nothing about the server's files; the server's log has the reason. Outside a server (the CLI, a
# GM's own files) nothing is restricted.
MAX_CHECKPOINT_BYTES = 64 * 1024 * 1024
_served_dirs: tuple[Path, ...] | None = None


def shipped_checkpoints() -> Path:
    from agents.checkpoints import CHECKPOINTS_DIR

    return Path(CHECKPOINTS_DIR)


def serve_checkpoints(extra: Iterable[str | os.PathLike] = ()) -> tuple[Path, ...]:
    """Restrict ``policy:`` agents to files under the shipped checkpoints and ``extra`` (for good:
    the process is a server). Returns the directories, real paths."""
    global _served_dirs
    dirs = []
    for d in (shipped_checkpoints(), *extra):
        real = Path(os.path.realpath(d))
        if real not in dirs:
            dirs.append(real)
    _served_dirs = tuple(dirs)
    return _served_dirs


def served_dirs() -> tuple[Path, ...] | None:
    """The checkpoint directories a server allows (``None``: not a server, nothing restricted)."""
    return _served_dirs


def _refusal(name: str, field: str) -> Exception:
    return invalid(field, f"cannot use {clip(name, 120)!r}: a policy seat on this server plays a checkpoint "
                          f"file of at most {MAX_CHECKPOINT_BYTES // (1024 * 1024)} MiB under its checkpoint "
                          f"directories (the shipped checkpoints/, and any regent serve --checkpoint-dir)")


def _served_file(path: str, dirs: tuple[Path, ...]) -> tuple[Path | None, str]:
    """The real path of one checkpoint a server may load, or (None, why not) for the log."""
    if not path or len(path) > 4096 or "\x00" in path:
        return None, "empty, too long or not a path"
    given = Path(path)
    bases = [given] if given.is_absolute() else [Path.cwd() / given, *(d / given for d in dirs)]
    why = "no such file under a checkpoint directory"
    for base in bases:
        for candidate in (base, base.with_name(base.name + ".zip")) if not base.suffix else (base,):
            try:
                real = Path(os.path.realpath(candidate))
                info = os.stat(real)
            except (OSError, ValueError):
                continue
            if not any(real == d or real.is_relative_to(d) for d in dirs):
                why = f"{real} is outside the checkpoint directories"
                continue
            if not stat.S_ISREG(info.st_mode):
                why = f"{real} is not a regular file"
                continue
            if info.st_size > MAX_CHECKPOINT_BYTES:
                why = f"{real} is {info.st_size} bytes, over {MAX_CHECKPOINT_BYTES}"
                continue
            return real, ""
    return None, why


def served_spec(name: str, field: str = "agent") -> str:
    """``policy:<paths>[@T]`` with every path replaced by the real file a server may load; refused
    (``invalid_params``, one sentence whatever the reason) otherwise. Outside a server: ``name``."""
    dirs = _served_dirs
    if dirs is None or not name.startswith(POLICY_PREFIX):
        return name
    body, at, temp = name[len(POLICY_PREFIX):].partition("@")
    if at:
        try:
            t = float(temp)
        except ValueError:
            t = math.nan
        if not math.isfinite(t) or not 0 <= t <= 100:
            raise invalid(field, f"bad temperature in {clip(name, 120)!r}: policy:<checkpoint>@<temperature>, "
                                 f"a number from 0 to 100")
    files = []
    for part in body.split("+"):
        real, why = _served_file(part, dirs)
        if real is None:
            log.info("policy agent refused: %s", why, extra={"agent": clip(name, 200)})
            raise _refusal(name, field)
        files.append(str(real))
    return POLICY_PREFIX + "+".join(files) + (f"@{temp}" if at else "")


def _build(name: str, seed: int | None, field: str = "agent") -> Any:
    """``make_agent`` for ``name``, a served ``policy:`` spec through :func:`served_spec` first."""
    from agents.registry import make_agent

    spec = served_spec(name, field)
    if spec is name or _served_dirs is None:
        return make_agent(spec, seed)
    try:
        return make_agent(spec, seed)
    except ModuleNotFoundError as err:
        from service.extras import install_hint

        raise invalid(field, install_hint(err, f"the agent {clip(name, 120)!r}")) from None
    except Exception as err:  # a file under a checkpoint directory that is no checkpoint
        log.warning("policy agent refused: %s: %s", type(err).__name__, clip(str(err), 200),
                    extra={"agent": clip(name, 200)})
        raise _refusal(name, field) from None


def _limit_torch_threads() -> None:
    """Once torch is in the process (a policy seat was built), give inference TORCH_THREADS."""
    import sys

    torch = sys.modules.get("torch")
    if torch is not None and torch.get_num_threads() != TORCH_THREADS:
        torch.set_num_threads(TORCH_THREADS)


def registry() -> dict[str, Any]:
    from agents.registry import AGENTS

    return AGENTS


def agent_names() -> list[str]:
    return sorted(registry())


def resolve(name: Any, field: str = "agent") -> str | None:
    """An agent name (or difficulty) as the registry knows it; ``None`` stays a human seat."""
    if name is None:
        return None
    if not isinstance(name, str):
        raise invalid(field, "must be an agent name, a difficulty, or nil for a human seat")
    known = registry()
    folded = name.strip().casefold()
    if name not in known and (folded in DIFFICULTIES or folded in known):  # "Expert" from a phone that capitalises
        name = folded
    if name in DIFFICULTIES:  # a level first: the ``steward`` level is the steward agent with its look-ahead
        for candidate in DIFFICULTIES[name]:
            if candidate in known:
                return candidate
    if name in known:
        return name
    if name.startswith(POLICY_PREFIX):
        if _served_dirs is not None:  # a server: the file is checked and loaded now, for every way in
            _build(name, 0, field)
            _limit_torch_threads()
        return name  # otherwise checked by building it (see ``check``)
    close = difflib.get_close_matches(name.casefold(), [*DIFFICULTIES, *sorted(known)], n=1) if len(name) <= 64 else []
    hint = f" (did you mean {close[0]}?)" if close else ""  # `regent seat game.bin Mallory hrad`
    raise invalid(field, f"unknown agent {clip(name, 64)!r}{hint}; known agents: {', '.join(sorted(known))}; "
                         f"difficulties: {', '.join(DIFFICULTIES)}")


def check(name: str | None, field: str = "agent") -> Any:
    """Build the agent once so a bad checkpoint is refused when assigned, not when it must act."""
    if name is None or not name.startswith(POLICY_PREFIX):
        return None
    try:
        agent = _build(name, 0, field)
    except Exception as err:  # a missing checkpoint, a bad temperature, torch absent
        if isinstance(err, RpcError):
            raise
        raise invalid(field, f"cannot load {clip(name, 120)!r}: {type(err).__name__}: "
                             f"{clip(str(err), 200) or 'unreadable'}") from None
    _limit_torch_threads()
    return agent


def decision_seed(game_seed: Any, seat: str, actions: Sequence[Sequence[Any]], before: int = 0) -> int:
    """A seed for one AI decision, so the same game asks the same question with the same dice.

    It is keyed by the step (the steps resolved so far: ``before`` the game's position, then in ``actions``,
    the game's action log) and by how many decisions the seat itself has made in it, never by how many of
    the other seats' DMs came in before the AI seat decided: the same game gives an AI seat the same dice
    whichever order, and whenever, the players' DMs arrive. ``before`` is
    ``engine.protectors.position.steps_before(setup)``: a game made from an export counts on from where the
    game exported stood, so its AI seats decide as they would have there, in the CLI and the service alike.
    The game's seed is the GM's secret (no seat reads it), so no player can work the dice out."""
    resolved, own = step_and_own(actions, seat)
    return seed_at(game_seed, seat, before + resolved, own)


def step_and_own(actions: Sequence[Sequence[Any]], seat: str) -> tuple[int, int]:
    """(the steps resolved in ``actions``, the decisions ``seat`` has made in the step now open): what
    ``decision_seed`` is keyed by, in one walk of the log."""
    resolved = own = 0
    for action in actions:
        if action[0] == "advance":
            resolved, own = resolved + 1, 0
        elif action[1] == seat:
            own += 1
    return resolved, own


def seed_at(game_seed: Any, seat: str, resolved: int, own: int) -> int:
    """``decision_seed`` from its key (``step_and_own``)."""
    text = f"{game_seed!r}|{seat}|{resolved}|{own}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:4], "big")


def decide(game: Any, seat: str, agent_name: str, cache: dict[str, Any], seed: int) -> Any:
    """The agent's decision for ``seat`` now (the agent sees only the seat's own context)."""
    from engine.protectors.seat import SeatContext

    agent = cache.get(seat)
    if agent is None or getattr(agent, "_regent_name", None) != agent_name:
        agent = _build(agent_name, seed)
        _limit_torch_threads()
        with contextlib.suppress(AttributeError):  # a slotted agent: rebuilt each time
            agent._regent_name = agent_name
        cache[seat] = agent
    agent.reset(seed)
    return agent.act(SeatContext(game, seat))
