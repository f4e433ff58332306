"""The game file a configured game imports (``import =`` in discord.toml), read as pure functions: discord.toml's
settings written into it (``with_settings``), a JSON setup told from a game file (``is_setup``), the seats the file's
AI plays (``file_ai``), and where its seats' names and colours differ from the table's (``renamed``)."""

from __future__ import annotations

import json
from typing import Any

import msgpack

from service.discord.config import GameConfig
from service.discord.texts import shown
from service.posting import by_seat


def with_settings(blob: bytes, game: GameConfig) -> bytes:
    """The game file ``blob`` with discord.toml's ``expiry`` and ``[deadlines]`` for its game written in, so that
    ``game.import`` applies them as ``game.create`` would (the service takes a game's expiry and windows from the
    game file only). The windows the table does not name stay the file's. A blob that is not a game file's map is
    sent as it is: the service's refusal names what is wrong with it. A seat the file's AI plays that the table gives
    to a member (``user``) is taken out of the file's AI seats: the member plays it from the import on."""
    try:
        data = msgpack.unpackb(blob, raw=False, strict_map_key=False)
    except Exception:  # msgpack raises several unrelated types
        return blob
    service = data.get("service") if isinstance(data, dict) else None
    if not isinstance(data, dict) or not isinstance(service if service is not None else {}, dict):
        return blob
    service = dict(service or {})
    expiry = service.get("expiry")
    service["expiry"] = {**(expiry if isinstance(expiry, dict) else {}), "auto": game.expiry}
    data["service"] = service
    # a seat of the file's AI that discord.toml gives to a member is that member's from the import on: the AI must
    # not decide for it (the service would start it as the game comes in); the file's own export of old kept its
    # AI seats as "controllers" under "service", a game file as "agents" at the top
    members = {s.seat for s in game.seats.values() if s.user is not None}
    for holder, name in ((data, "agents"), (service, "controllers")):
        seats = holder.get(name)
        if isinstance(seats, dict) and members & set(seats):
            holder[name] = {seat: agent for seat, agent in seats.items() if seat not in members}
    if game.deadlines:
        # the service's own export of old kept its windows under "service"; a game file keeps them at the top
        holder = service if data.get("kind") == "regent-service-game" else data
        windows = holder.get("deadlines")
        holder["deadlines"] = {**(windows if isinstance(windows, dict) else {}), **game.deadlines}
    return msgpack.packb(data, use_bin_type=True)


def is_setup(blob: bytes) -> bool:
    """Whether ``blob`` is a setup written as JSON (docs/positions.md: a position typed in, or `regent
    export-position`'s output), which ``game.import`` would refuse as "not MessagePack"."""
    if blob.lstrip()[:1] != b"{":  # a game file is a MessagePack map, whose first byte is never "{" (0x7b)
        return False
    try:
        return isinstance(json.loads(blob), dict)
    except ValueError:
        return False


def file_ai(blob: bytes) -> dict[str, str]:
    """The seats an AI plays in the game file ``blob`` (seat -> agent; ``{}`` for a blob that is not a game file's
    map: the service's refusal names what is wrong with it)."""
    try:
        data = msgpack.unpackb(blob, raw=False, strict_map_key=False)
    except Exception:  # msgpack raises several unrelated types
        return {}
    if not isinstance(data, dict):
        return {}
    service = data.get("service")
    seats = (service or {}).get("controllers") if data.get("kind") == "regent-service-game" and isinstance(
        service, dict) else data.get("agents")
    return {str(s): str(a) for s, a in seats.items() if a} if isinstance(seats, dict) else {}



def renamed(game: GameConfig, view: dict[str, Any]) -> list[str]:
    """Where an imported game's seats differ from discord.toml's names and colours: ``Player#2 is "Sam", not
    "Samuel"``, one item per seat."""
    out = []
    players, colours = view.get("players") or {}, view.get("colours") or {}
    for seat in by_seat(game.seats):
        spec, have = game.seats[seat], []
        name = (players.get(seat) or {}).get("name")
        if spec.name and spec.name != name:
            have.append(f'"{shown(name or seat)}", not "{shown(spec.name)}"')
        colour = colours.get(seat)
        if spec.colour and colour and spec.colour.casefold() != str(colour).casefold():
            have.append(f'colour "{shown(str(colour))}", not "{shown(spec.colour)}"')
        if have:
            out.append(f"{seat} is " + " and ".join(have))
    return out
