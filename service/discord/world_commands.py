"""The GM's commands that need no game: ``/regent npr invasions`` and ``/regent npn plan`` on an attached world
file (``world_command``), the file read as JSON or TOML (``parse_world``) and the answer's short head
(``summarise``)."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Awaitable, Callable
from typing import Any

from service.discord.chat import Command, File, Reply


async def world_command(rpc: Callable[..., Awaitable[Any]], cmd: Command, reply: Reply) -> None:
    """``/regent npr invasions`` or ``/regent npn plan`` on the attached world file, through ``rpc``: a short
    summary, the whole decision attached as JSON. ``ValueError`` for a command the GM must give again."""
    if not cmd.files:
        raise ValueError("attach the world file (JSON or TOML) to the command")
    f = cmd.files[0]
    world = parse_world(f)
    if cmd.name == "npr invasions":
        fields: dict[str, Any] = {"world": world}
        if cmd.options.get("seed") is not None:  # a seed of 0 is a seed: only a missing one is drawn
            fields["seed"] = cmd.options["seed"]
        out = await rpc("npr.invasions", **fields)
    else:
        nation = cmd.options.get("nation")
        if not nation:
            raise ValueError("npn plan needs the nation")
        fields = {"world": world, "nation": nation}
        for k in ("turn", "seed"):
            if cmd.options.get(k) is not None:
                fields[k] = cmd.options[k]
        out = await rpc("npn.plan", **fields)
    body = json.dumps(out, indent=2, ensure_ascii=False, default=str).encode()
    summary = summarise(out)
    await reply.send(summary, File(f"{cmd.name.replace(' ', '-')}.json", body))


def parse_world(f: File) -> Any:
    text = f.data.decode("utf-8", "replace")
    try:
        return json.loads(text)
    except ValueError:
        pass
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        raise ValueError(f"{f.name}: the world file is neither JSON nor TOML") from None


def summarise(out: Any, limit: int = 1900) -> str:
    """A short readable head of a decision (the whole of it is in the attached JSON)."""
    lines: list[str] = []
    if isinstance(out, dict):
        for k, v in out.items():
            if k in ("trace", "dice"):
                continue
            lines.append(f"**{k}**: {json.dumps(v, ensure_ascii=False, default=str)[:300]}")
        trace = out.get("trace") or []
        if trace:
            lines.append(f"({len(trace)} trace steps in the attached file)")
    text = "\n".join(lines) or str(out)
    return text if len(text) <= limit else text[: limit - 1] + "…"
