"""``regent export-position``: the position of a game file, as a setup that continues it.

    regent export-position game.bin -o setup.json        # the setup with "position": what `regent new` takes
    regent new game2.bin --setup setup.json              # the same game, from here on (docs/positions.md)
    regent export-position game.bin --position-only      # just the position map, on stdout

The position holds everything the GM knows (docs/positions.md), including the engine's random
state, so the new game plays on exactly as the old one would; beside it the setup keeps what the game
runs with: its AI seats, deadlines, ``auto_advance``, ``expiry`` and ``step_ai`` (the open step's AI decisions).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from engine.errors import ValidationError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("export-position", help="write a game file's position (JSON) to continue it elsewhere")
    p.add_argument("game", type=Path, help="game file (from 'regent new' / 'regent adjudicate' / game.export)")
    p.add_argument("-o", "--out", type=Path, default=None, help="where to write the JSON (default, or -: stdout)")
    p.add_argument("--position-only", action="store_true",
                   help="write only the position map, not the setup around it")
    p.set_defaults(func=run_export_position)


def exported_setup(game: Any, agents: dict[str, str] | None = None,
                   service: dict[str, Any] | None = None) -> dict[str, Any]:
    """The game's setup with its position now (and its AI seats, ``agents``): ``regent new --setup``
    and ``game.create`` continue the game from it. ``service``: the service's own setup keys the game runs
    with (``deadlines``, ``auto_advance``, ``expiry``, ``step_ai``: :func:`file_settings`), written beside
    the position so the game made from it keeps them."""
    from engine.protectors.position import export_position

    setup = {k: v for k, v in game.setup.items() if k != "position"}
    setup["position"] = export_position(game)
    if agents:
        setup["agents"] = dict(agents)
    for key, value in (service or {}).items():
        if value is not None and value != {}:
            setup[key] = value
    return setup


def file_settings(gf: Any) -> dict[str, Any]:
    """A game file's service keys for its exported setup: its decision windows (all of them: the game made from
    the export keeps them even if the rulebook's change), ``auto_advance`` and ``expiry`` as its setup gave them,
    and ``step_ai``: the seats whose decision in the open step their AI made (``position.submissions`` holds
    the decision; this says whose it was, so the report that resolves the step names them under Played by AI)."""
    out: dict[str, Any] = {"deadlines": dict(gf.deadlines)}
    out.update({k: gf.service[k] for k in ("auto_advance", "expiry") if k in gf.service})
    out["step_ai"] = dict(gf.step_ai)
    out["ai_levels"] = {s: dict(m) for s, m in gf.ai_levels.items()}  # the levels the GM chose AI seats by (a label)
    # the DMs already read from each DMs file: a run on the same file, grown, after the move reads only the new ones
    out["dms_read"] = {f: list(d) for f, d in gf.dms_read.items()}
    return out


def run_export_position(args: argparse.Namespace) -> int:
    from engine.protectors.position import export_position
    from service import gamefile
    from service.cli import failure

    gf = gamefile.read(args.game, warn=failure.warn)
    data = export_position(gf.game) if args.position_only else exported_setup(gf.game, gf.agents, file_settings(gf))
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    if args.out is None or str(args.out) == "-":  # "-" is stdout, as everywhere on a command line
        sys.stdout.write(text)
        return 0
    write_text(args.out, text)
    print(f"wrote {args.out} (turn {gf.game.state.turn}, {gf.game.step} step)")
    return 0


def write_text(path: Path, text: str) -> None:
    """Atomic: the old file or the new one, never half of one."""
    if path.is_dir():
        raise ValidationError(str(path), "is a directory")
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as err:
        tmp.unlink(missing_ok=True)
        raise ValidationError(str(path), f"cannot write ({err.strerror})") from None
