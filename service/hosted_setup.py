"""A new hosted game's setup: the engine's part told apart from the service's options (``split_setup``), and those
options checked into the game's service record (``service_meta``: deadlines, auto-advance, expiry, AI seats and the
levels the GM chose them by, the AI decisions an exported position's open step holds, the DMs files already read).
``game.create``, ``game.import`` and ``regent adjudicate`` on a setup all read a setup here."""

from __future__ import annotations

from typing import Any

from engine.protectors.game import Game
from engine.protectors.setup import check_new_names, check_new_options
from service import ai, deadlines, gamefile, seat_names
from service.errors import invalid
from service.params import key_name

SERVICE_SETUP_KEYS = ("deadlines", "auto_advance", "expiry", "agents", "step_ai", "dms_read", "ai_levels")
MAX_AGENT_CHARS = gamefile.MAX_AGENT_CHARS  # an agent's name in ``step_ai`` (a label in reports)


def split_setup(setup: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Separate the engine's setup from the service's options (``deadlines``, ``auto_advance``...)."""
    if not isinstance(setup, dict):
        raise invalid("setup", "must be a map (protocol.md, setup for game.create)")
    _string_keys(setup, "setup")
    engine = {k: v for k, v in setup.items() if k not in SERVICE_SETUP_KEYS}
    service = {k: setup[k] for k in SERVICE_SETUP_KEYS if k in setup}
    options = engine.get("options")
    if isinstance(options, dict):  # service options may also sit in setup.options
        moved = {k: options[k] for k in SERVICE_SETUP_KEYS if k in options}
        for key in moved:  # both places: one was dropped without a word (the top's won)
            if key in service:
                raise invalid(f"setup.options.{key}", f"given at the top of setup too; give {key} once")
        engine["options"] = {k: v for k, v in options.items() if k not in SERVICE_SETUP_KEYS}
        service = {**moved, **service}
    if engine.get("rules", "protectors") != "protectors":
        raise invalid("setup.rules", f"unknown rules {engine['rules']!r}; this service hosts 'protectors'")
    players = engine.get("players")
    if isinstance(players, list):  # players[i].agent: a seat filled by an AI from the start
        if not isinstance(service.get("agents") or {}, dict):
            raise invalid("setup.agents", "must be a map seat -> agent")
        agents = dict(service.get("agents") or {})
        clean = []
        for i, p in enumerate(players):
            if isinstance(p, dict) and "agent" in p:
                if not isinstance(p.get("seat", ""), str):
                    raise invalid(f"setup.players[{i}].seat", "must be a string")
                seat = p.get("seat", f"Player#{i + 1}")
                if seat in agents:  # players[i].agent won over setup.agents without a word
                    raise invalid(f"setup.players[{i}].agent", f"{seat} has an agent in setup.agents too; give it once")
                agents[seat] = p["agent"]
                p = {k: v for k, v in p.items() if k != "agent"}
            clean.append(p)
        engine["players"] = clean
        if agents:
            service["agents"] = agents
    # a ValidationError naming players[i].name or .colour: invalid_params (the players as the engine reads them)
    check_new_names(engine.get("players"))
    check_new_options(engine)  # a faction or a team with its option off: dropped without a word
    return engine, service


def _string_keys(value: Any, path: str) -> None:
    """Every map key in a setup is a string (the engine's messages and the store assume so)."""
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                raise invalid(path, f"map keys must be strings, not {type(k).__name__} ({key_name(k)[:40]})")
            _string_keys(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _string_keys(v, f"{path}[{i}]")


def service_meta(engine_setup: dict[str, Any], service: dict[str, Any], seats: list[str],
                 game: Game | None = None) -> dict[str, Any]:
    """Validated service options for a new game. With ``game``, the seats of ``agents`` and ``step_ai`` are named
    as everywhere else (``service/seat_names.py``: ``Player#3``, a display name, a colour), else by seat alone."""
    meta: dict[str, Any] = {"windows": deadlines.windows(engine_setup, service.get("deadlines"))}
    auto = service.get("auto_advance", True)
    if not isinstance(auto, bool):
        raise invalid("setup.auto_advance", "must be true or false")
    meta["auto_advance"] = auto
    meta["expiry"] = expiry_fill(service.get("expiry") or {})
    agents = service.get("agents") or {}
    if not isinstance(agents, dict):
        raise invalid("setup.agents", "must be a map seat -> agent")
    controllers: dict[str, str | None] = dict.fromkeys(seats)
    # how the GM chose each seat's agent (gamefile.py's ai_levels: a label, ``steward -> steward-search``): an exported
    # setup's, then the levels the agents here are given by
    levels = _by_seat(gamefile.levels_map(service.get("ai_levels"), "setup.ai_levels"), controllers, game,
                      "setup.ai_levels")
    for seat, name in _by_seat(agents, controllers, game, "setup.agents").items():
        controllers[seat] = None if ai.is_human(name) else ai.resolve(name, f"setup.agents.{seat}")
        if controllers[seat]:
            gamefile.note_level(levels, seat, controllers[seat], name, drop=False)
    meta["controllers"] = controllers
    meta["ai_levels"] = levels
    meta["ai_played"] = {}
    # the seats whose decision in the position's open step an AI made (an exported setup's ``step_ai``): the
    # report that resolves the step names them under "Played by AI", as it would have where the game came from
    step_ai = service.get("step_ai") or {}
    if not isinstance(step_ai, dict):
        raise invalid("setup.step_ai", "must be a map seat -> agent")
    if step_ai and engine_setup.get("position") is None:
        raise invalid("setup.step_ai", "names the AI decisions in a position's open step; this setup has no "
                                       "position (leave step_ai out, or give the position it came with)")
    step_ai = _by_seat(step_ai, controllers, game, "setup.step_ai")
    for seat, name in step_ai.items():
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_AGENT_CHARS:
            raise invalid(f"setup.step_ai.{seat}", f"must be the name of the agent that decided for the seat "
                                                   f"(1 to {MAX_AGENT_CHARS} characters)")
    if step_ai:
        meta["position_ai"] = dict(step_ai)
    # an exported setup's dms_read: the DMs `regent adjudicate` already read from each DMs file (gamefile.py), kept so
    # that a run on the same file after the move does not read them again, as DMs for the step the game is at now
    read = gamefile.dms_read_map(service.get("dms_read"), "setup.dms_read")
    if read:
        meta["dms_read"] = read
    return meta


def expiry_fill(expiry: Any) -> dict[str, Any]:
    """``setup.expiry`` checked: ``{auto, fill}`` with ``fill`` the agent it resolves to, and ``level`` the level the
    GM gave for it (``steward``, a label: the seats it fills are named ``steward -> steward-search``, as ``regent
    seat`` names a seat given a level) where it resolved to another agent; an exported setup's ``level`` is kept."""
    if not isinstance(expiry, dict) or set(expiry) - {"auto", "fill", "level"}:
        raise invalid("setup.expiry", "must be a map {auto: bool, fill: 'default' | agent}")
    if not isinstance(expiry.get("auto", False), bool):
        raise invalid("setup.expiry.auto", "must be true or false")
    given = expiry.get("fill", ai.RULEBOOK_DEFAULT)
    fill = given if given == ai.RULEBOOK_DEFAULT else ai.resolve(given, "setup.expiry.fill")
    out = {"auto": expiry.get("auto", False), "fill": fill}
    level = ai.chosen_level(given, fill) if fill != ai.RULEBOOK_DEFAULT else None
    kept = expiry.get("level")  # an exported setup's, or a game file's: the fill as the GM chose it there
    if kept is not None and not level:
        if ai.level_named(kept) is None or fill == ai.RULEBOOK_DEFAULT:
            raise invalid("setup.expiry.level", f"must be the level (one of {', '.join(ai.DIFFICULTIES)}) the agent "
                                                "in fill was chosen by")
        level = ai.level_named(kept)
    if level and level != fill:
        out["level"] = level
    return out


def _by_seat(labelled: dict[Any, Any], seats: dict[str, Any], game: Game | None, field: str) -> dict[str, Any]:
    """``labelled`` keyed by seat: each key read as a GM's label for a seat (``seat_names``), or with no game by seat
    alone; ``invalid_params`` naming the key and the closest seat, or a seat named twice."""
    out: dict[str, Any] = {}
    for label, value in labelled.items():
        seat = seat_names.seat_named(game, label) if game is not None else label
        if seat not in seats:
            if game is not None:
                raise seat_names.unknown_seat_error(game, f"{field}.{str(label)[:64]}", label)
            raise invalid(f"{field}.{str(label)[:64]}", "unknown seat")
        if seat in out:
            raise invalid(f"{field}.{str(label)[:64]}", f"names {seat} again (a seat is named once)")
        out[seat] = value
    return out
