"""``discord.toml``: which server, who the GM is, and per game its channel and seats.

The bot token is never in this file: ``token_env`` names the environment variable that holds it.
Every problem is a :class:`ConfigError` naming the file and the key (``discord.toml: games.main.channel:
must be a Discord id``), which the CLI prints as one line.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_PATH = "discord.toml"
DEFAULT_TOKEN_ENV = "REGENT_DISCORD_TOKEN"
DEFAULT_REMINDERS = ("24h", "6h", "1h")
# the difficulty names game.assign takes (service/ai.py's DIFFICULTIES; the bot talks only to the service,
# so the names are written here too, and a test keeps the two lists equal)
AI_LEVELS = ("steward", "fair", "strong", "easy", "normal", "hard", "expert")
STEPS = ("bid", "rebid", "bank_bid", "orders", "dragon", "consolidation")
SEAT_RE = re.compile(r"^Player#[1-9][0-9]?$")
DURATION_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|m|h|d)?\s*$")
UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, None: 1}

TEMPLATE = '''\
# regent discord: the game in your Discord server (docs/discord.md walks you through it).
# The bot token is NOT written here: put it in the environment variable named by token_env.
token_env = "REGENT_DISCORD_TOKEN"
# If `regent serve` was started with --create-token, the bot reads it from this variable to create games.
create_token_env = "REGENT_CREATE_TOKEN"
# The running `regent serve`: "HOST:PORT" or "unix:/path/to/regent.sock".
service = "127.0.0.1:7750"
# The bot's own small state (game ids and tokens, what it already posted); keep it private.
state = "regent-discord.json"
# Your server (guild) id: right-click the server icon -> Copy Server ID (Developer Mode on).
guild = 100000000000000000
# Who may use /regent commands: a role name or a role id.
gm_role = "GM"
# Reminders before a deadline, naming who is still missing: one message per threshold, never repeated.
reminders = ["24h", "6h", "1h"]

# One table per game, one game per channel; as many games as you like.
[games.realm-one]
channel = 200000000000000000   # the game channel's id
board = "ring-5"               # a built-in board
seed = 1
# version = "grand"            # left out: from the board (a ring-N-grand board is Grand, a ring-N Normal)
expiry = true                  # when a deadline passes, resolve with the rulebook defaults
pictures = true                # post the board picture after each resolved step
area_pictures = true           # 10+ seats: each player's turn summary DM carries a picture of their own area
lenient = false                # true: store a DM's valid lines and drop the invalid ones (else refuse it all)
factions = false               # true: the Factions variant (give seats a faction = "..." below, or they pick one)
teams = false                  # true: Team Games (give every seat a team = "A" below; teams of the same size)
# import = "game.bin"          # bring a running game in instead (a game file: regent new/adjudicate, /regent export)
# [games.realm-one.deadlines]  # override the rulebook windows, e.g. orders = "48h"

[games.realm-one.seats]
# Each seat: a Discord user id (with a display name), or an AI level (easy, normal, hard, expert,
# steward, fair, strong) or agent name (heuristic, caretaker, ppo, ...). `colour` is optional: the
# colour players call the seat by (default: the one the board pictures paint it, named in their legend).
# Orders may name a player by display name, colour or Player#N. With teams = true each seat needs team = "A".
"Player#1" = { user = 300000000000000001, name = "Alice", colour = "blue" }
"Player#2" = { user = 300000000000000002, name = "Bob", colour = "red" }
"Player#3" = { user = 300000000000000003, name = "Carol" }
"Player#4" = { user = 300000000000000004, name = "Dan" }
"Player#5" = { ai = "normal", name = "Eve" }
'''


SEAT_KEYS = {"user", "ai", "name", "faction", "colour", "team"}


class ConfigError(ValueError):
    """A problem in discord.toml, naming the file and the key."""


@dataclass
class Seat:
    seat: str
    name: str | None = None
    user: int | None = None
    ai: str | None = None
    faction: str | None = None
    colour: str | None = None
    team: str | None = None


@dataclass
class GameConfig:
    key: str
    channel: int
    seats: dict[str, Seat]
    board: Any = "ring-5"
    seed: int = 1
    version: str | None = None  # None: the engine reads it from the board (Grand with 2x the Provinces)
    expiry: bool = True
    pictures: bool = True
    area_pictures: bool = True  # a big board (service/discord/areas.py, AREA_SEATS): each summary DM shows its area
    lenient: bool = False
    factions: bool = False
    teams: bool = False
    deadlines: dict[str, float] = field(default_factory=dict)
    import_path: str | None = None

    def setup(self) -> dict[str, Any]:
        """The ``game.create`` setup for this game (protocol.md, setup)."""
        players = []
        for s in sorted(self.seats.values(), key=lambda s: int(s.seat.split("#")[1])):
            players.append({"seat": s.seat, **({"name": s.name} if s.name else {}),
                            **({"faction": s.faction} if s.faction else {}),
                            **({"team": s.team} if s.team else {}),
                            **({"colour": s.colour} if s.colour else {})})
        setup: dict[str, Any] = {"rules": "protectors", "board": self.board, "seed": self.seed,
                                 "players": players,
                                 "options": {**({"version": self.version} if self.version else {}),
                                             "factions": self.factions, "teams": self.teams},
                                 "expiry": {"auto": self.expiry}}
        agents = {s.seat: s.ai for s in self.seats.values() if s.ai}
        if agents:
            setup["agents"] = agents
        if self.deadlines:
            setup["deadlines"] = dict(self.deadlines)
        return setup


@dataclass
class Config:
    path: str
    guild: int
    gm_role: str
    games: dict[str, GameConfig]
    service: str = "127.0.0.1:7750"
    state: str = "regent-discord.json"
    token_env: str = DEFAULT_TOKEN_ENV
    create_token_env: str = "REGENT_CREATE_TOKEN"  # the service's --create-token, if it has one
    reminders: list[float] = field(default_factory=lambda: [duration(r, "reminders") for r in DEFAULT_REMINDERS])

    def game_for_channel(self, channel: int) -> GameConfig | None:
        return next((g for g in self.games.values() if g.channel == channel), None)

    def address(self) -> dict[str, Any]:
        """Keyword arguments for ``AsyncClient.connect``."""
        if self.service.startswith("unix:"):
            return {"unix": self.service[5:]}
        host, _, port = self.service.rpartition(":")
        return {"host": host or "127.0.0.1", "port": int(port)}


def duration(value: Any, where: str) -> float:
    """Seconds from ``3600``, ``"72h"``, ``"90m"``, ``"2d"``."""
    if isinstance(value, bool):
        raise ConfigError(f"{where}: must be a duration like \"24h\", not {value!r}")
    if isinstance(value, int | float) and value >= 0:
        return float(value)
    m = DURATION_RE.match(value) if isinstance(value, str) else None
    if not m:
        raise ConfigError(f"{where}: must be a duration like \"24h\", \"90m\" or a number of seconds, not {value!r}")
    return float(m.group(1)) * UNITS[m.group(2)]


def _id(value: Any, where: str) -> int:
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ConfigError(f"{where}: must be a Discord id (a positive number), not {value!r}")
    return value


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{where}: must be a non-empty string, not {value!r}")
    return value.strip()


def parse(data: dict[str, Any], path: str = DEFAULT_PATH) -> Config:
    """Validate a parsed discord.toml; raises :class:`ConfigError` naming the key."""
    def err(msg: str) -> ConfigError:
        return ConfigError(f"{path}: {msg}")

    if "token" in data:
        raise err("token: the bot token must not be in the file; set token_env instead")
    known = {"token_env", "create_token_env", "service", "state", "guild", "gm_role", "reminders", "games"}
    for key in data:
        if key not in known:
            raise err(f"{key}: unknown key; expected one of {', '.join(sorted(known))}")
    try:
        guild = _id(data.get("guild"), "guild")
        gm_role = str(_id(data["gm_role"], "gm_role")) if isinstance(data.get("gm_role"), int) \
            else _str(data.get("gm_role"), "gm_role")
        service = _str(data.get("service", "127.0.0.1:7750"), "service")
        if not service.startswith("unix:") and not re.match(r"^[^:]*:\d{1,5}$", service):
            raise ConfigError(f"service: must be \"HOST:PORT\" or \"unix:PATH\", not {service!r}")
        reminders = data.get("reminders", list(DEFAULT_REMINDERS))
        if not isinstance(reminders, list):
            raise ConfigError("reminders: must be a list of durations like [\"24h\", \"1h\"]")
        reminder_s = sorted({duration(r, f"reminders[{i}]") for i, r in enumerate(reminders)}, reverse=True)
        games_raw = data.get("games")
        if not isinstance(games_raw, dict) or not games_raw:
            raise ConfigError("games: at least one [games.NAME] table is needed")
        games = {key: _game(key, g) for key, g in games_raw.items()}
        for g in games.values():
            if g.import_path:
                g.import_path = _near(path, g.import_path)
        channels: dict[int, str] = {}
        for g in games.values():
            if g.channel in channels:
                raise ConfigError(f"games.{g.key}.channel: channel already used by games.{channels[g.channel]} "
                                  "(one game per channel)")
            channels[g.channel] = g.key
        return Config(path=path, guild=guild, gm_role=gm_role, games=games, service=service,
                      state=_near(path, _str(data.get("state", "regent-discord.json"), "state")),
                      token_env=_str(data.get("token_env", DEFAULT_TOKEN_ENV), "token_env"), reminders=reminder_s,
                      create_token_env=_str(data.get("create_token_env", "REGENT_CREATE_TOKEN"),
                                            "create_token_env"))
    except ConfigError as e:
        raise err(str(e)) from None


def _near(config_path: str, value: str) -> str:
    """A path in the config is relative to the config file's folder, wherever the bot is started."""
    p = Path(value).expanduser()
    return str(p if p.is_absolute() else Path(config_path).parent / p)


def _game(key: str, g: Any) -> GameConfig:
    where = f"games.{key}"
    if not isinstance(g, dict):
        raise ConfigError(f"{where}: must be a table")
    known = {"channel", "board", "seed", "version", "expiry", "pictures", "area_pictures", "lenient", "factions",
             "teams", "deadlines", "import", "seats"}
    for k in g:
        if k not in known:
            raise ConfigError(f"{where}.{k}: unknown key; expected one of {', '.join(sorted(known))}")
    seats_raw = g.get("seats")
    if not isinstance(seats_raw, dict) or not seats_raw:
        raise ConfigError(f"{where}.seats: a table mapping each seat (\"Player#1\"...) to a user or an AI")
    seats: dict[str, Seat] = {}
    users: dict[int, str] = {}
    for seat, spec in seats_raw.items():
        w = f"{where}.seats.{seat}"
        if not SEAT_RE.match(seat):
            raise ConfigError(f"{w}: seats are named Player#1, Player#2, ...")
        if isinstance(spec, int | str) and not isinstance(spec, bool):
            spec = {"user": spec} if (isinstance(spec, int) or spec.isdigit()) else {"ai": spec}
        if isinstance(spec, dict) and set(spec) - SEAT_KEYS:
            raise ConfigError(f"{w}.{sorted(set(spec) - SEAT_KEYS)[0]}: unknown key; expected one of "
                              f"{', '.join(sorted(SEAT_KEYS))}")
        if not isinstance(spec, dict):
            raise ConfigError(f"{w}: must be {{ user = ID, name = \"...\" }} or {{ ai = \"normal\" }} "
                              "(and optionally faction = \"...\", colour = \"...\", team = \"...\")")
        if ("user" in spec) == ("ai" in spec):
            raise ConfigError(f"{w}: give exactly one of user (a Discord user id) or ai (an AI level or agent)")
        s = Seat(seat=seat, name=_str(spec["name"], f"{w}.name") if "name" in spec else None,
                 faction=_str(spec["faction"], f"{w}.faction") if "faction" in spec else None,
                 colour=_str(spec["colour"], f"{w}.colour") if "colour" in spec else None,
                 team=_str(str(spec["team"]), f"{w}.team") if "team" in spec else None)
        if "user" in spec:
            s.user = _id(spec["user"], f"{w}.user")
            if s.user in users:
                raise ConfigError(f"{w}.user: that user already holds {users[s.user]} in this game")
            users[s.user] = seat
        else:
            s.ai = _str(spec["ai"], f"{w}.ai")
        seats[seat] = s
    numbers = sorted(int(s.split("#")[1]) for s in seats)
    if numbers != list(range(1, len(numbers) + 1)):
        raise ConfigError(f"{where}.seats: seats must be Player#1 .. Player#{len(numbers)} without gaps")
    deadlines_raw = g.get("deadlines", {})
    if not isinstance(deadlines_raw, dict):
        raise ConfigError(f"{where}.deadlines: must be a table step = duration")
    deadlines = {}
    for step, d in deadlines_raw.items():
        if step not in STEPS:
            raise ConfigError(f"{where}.deadlines.{step}: unknown step; expected one of {', '.join(STEPS)}")
        deadlines[step] = duration(d, f"{where}.deadlines.{step}")
    seed = g.get("seed", 1)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ConfigError(f"{where}.seed: must be a whole number")
    version = g.get("version")
    if version is not None and version not in ("normal", "grand"):
        raise ConfigError(f"{where}.version: must be \"normal\" or \"grand\"")
    flags = {}
    for k in ("expiry", "pictures", "area_pictures", "lenient", "factions", "teams"):
        v = g.get(k, k in ("expiry", "pictures", "area_pictures"))
        if not isinstance(v, bool):
            raise ConfigError(f"{where}.{k}: must be true or false")
        flags[k] = v
    if flags["teams"] and not g.get("import"):
        for s in seats.values():
            if s.team is None:
                raise ConfigError(f"{where}.seats.{s.seat}.team: every seat needs a team when teams = true")
    board = g.get("board", "ring-5")
    if not isinstance(board, str | dict):
        raise ConfigError(f"{where}.board: a built-in board name or a board table")
    imp = g.get("import")
    return GameConfig(key=key, channel=_id(g.get("channel"), f"{where}.channel"), seats=seats, board=board,
                      seed=seed, version=version, deadlines=deadlines,
                      import_path=_str(imp, f"{where}.import") if imp is not None else None, **flags)


def load(path: str | Path = DEFAULT_PATH) -> Config:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{p}: no such file (write a template with `regent discord init {p}`)") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{p}: cannot read: {e}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{p}: not valid TOML: {e}") from None
    return parse(data, str(p))
