"""Building a bridge on the fake chat against the real server, and players who DM from their own view."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from service.client import AsyncClient
from service.discord.bridge import Bridge
from service.discord.config import Config, parse
from service.discord.state import State
from tests.discord.fake import FakeChat

GM_USER = 7
NAMES = ["Blue", "Red", "Green", "Gold", "Black", "White"]


def user_of(channel: int, seat_no: int) -> int:
    return channel * 100 + seat_no


def game_table(channel: int, seats: int = 5, ai: dict[str, str] | None = None, **extra: Any) -> dict[str, Any]:
    table: dict[str, Any] = {"channel": channel, "board": f"ring-{seats}", "seed": 5, "pictures": False,
                             "expiry": False, "seats": {}}
    for i in range(1, seats + 1):
        seat = f"Player#{i}"
        if ai and seat in ai:
            table["seats"][seat] = {"ai": ai[seat], "name": NAMES[i - 1]}
        else:
            table["seats"][seat] = {"user": user_of(channel, i), "name": NAMES[i - 1]}
    table.update(extra)
    return table


def make_config(games: dict[str, dict[str, Any]], tmp: Path, **top: Any) -> Config:
    return parse({"guild": 1, "gm_role": "GM", "state": str(tmp / "bot.json"), "reminders": ["24h", "6h", "1h"],
                  "games": games, **top}, "test-discord.toml")


class Harness:
    """One fake Discord, one bot state file; ``bridge()`` makes a (new) bot process on them."""

    def __init__(self, server, config: Config, chat: FakeChat | None = None):
        self.server, self.config = server, config
        self.chat = chat or FakeChat()
        self.chat.roles[GM_USER] = {"GM"}
        self.now = None  # a fixed clock for reminder tests, else the wall clock

    def clock(self) -> float:
        return self.now if self.now is not None else time.time()

    def bridge(self) -> Bridge:
        return Bridge(self.config, self.chat, State(self.config.state),
                      connect=lambda: AsyncClient.connect(unix=self.server.unix), now=self.clock)


async def gm_view(bridge: Bridge, key: str) -> dict[str, Any]:
    """What the GM sees, once the AI seats have decided."""
    return await bridge.rpc("game.view", **bridge._gm(key), wait=True)


async def gm_command(h: Harness, bridge: Bridge, channel: int, name: str, **options: Any) -> str:
    """The GM's slash command ``name`` in ``channel``; the bot's reply."""
    cmd = h.chat.command(name, GM_USER, channel, **options)
    await bridge.on_command(cmd)
    return cmd.reply.text()


async def seat_view(bridge: Bridge, key: str, seat: str) -> dict[str, Any]:
    """What the player of ``seat`` sees (their own token): all a player has to write a DM from."""
    return await bridge.rpc("game.view", **bridge._seat(key, seat), wait=True)


def dm_text(view: dict[str, Any], seat: str, messy: bool = False) -> str:
    """A cautious player's decision; ``messy``: the same in the wording players really use."""
    step = view["step"]
    if step in ("bid", "rebid", "bank_bid"):
        n = min(int(seat.split("#")[1]), view["players"][seat]["realm"])
        return f"Hi GM!\nBid: {n} $Realm\nthanks" if messy else f"Bid {n}"
    if step == "orders":
        mine = [p for p, pr in view["provinces"].items() if pr["holder"] == seat and pr["units"] > 0]
        lines = [f"fortify! {p.lower()}." if messy else f"Fortify! {p}" for p in mine]
        return "\n".join(lines) or "none"
    if step == "consolidation":
        return "none" if messy else "Bid 0"
    return "Turn off the lights"


async def game_file(server, setup: dict[str, Any], path: Path,
                    play: Callable[[AsyncClient, dict[str, Any]], Awaitable[None]] | None = None) -> str:
    """A running game made on the service from ``setup`` (``play(client, made)`` plays it on first), exported
    to ``path``: the game file a GM brings in with ``import =``. Returns the path as the config writes it."""
    async with await AsyncClient.connect(unix=server.unix) as c:
        made = await c.call("game.create", setup=setup)
        if play is not None:
            await play(c, made)
        path.write_bytes((await c.call("game.export", game_id=made["game_id"], token=made["gm_token"]))["blob"])
    return str(path)


def on_host_clock(bridge, skew: float) -> None:
    """The service runs on the bot's host, whose clock is ``skew`` seconds ahead of Discord's: the steps' starts it
    gives (``step_started``) are on that clock, and each comes back to it as it gave it."""
    rpc, given = bridge.rpc, {}

    async def shifted(method, **fields):
        if fields.get("step_started") is not None:
            fields["step_started"] = given[fields["step_started"]]
        out = await rpc(method, **fields)
        if method == "game.view" and out.get("step_started") is not None:
            out = {**out, "step_started": out["step_started"] + skew}
            given[out["step_started"]] = out["step_started"] - skew
        return out

    bridge.rpc = shifted
