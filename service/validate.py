"""Edge checks on what a caller hands the engine whole: a game's ``setup`` and an imported game's
record (issue 23 item 3). The engine validates meaning (a board's adjacency, a seat's orders); these
check shape first, so a map where a list belongs is ``invalid_params`` naming the field path
(``blob.actions[3][2]``, ``setup.options``) instead of a ``TypeError`` deep in the engine.
"""

from __future__ import annotations

from typing import Any

from engine.protectors.board import MAX_PLAYERS, MIN_PLAYERS
from service.errors import invalid

ACTIONS = ("submit", "advance")
# A hosted game's board has at most this many Provinces (the built-in boards have up to 32; the
# engine's shortest-path tables grow with the square of the count, so a 100,000-Province map sent
# in one request would hold a worker for minutes).
MAX_BOARD_PROVINCES = 256


def _kind(value: Any) -> str:
    return {dict: "a map", list: "an array", str: "a string", bytes: "bytes", bool: "true or false",
            int: "an integer", float: "a number", type(None): "nil"}.get(type(value), type(value).__name__)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


MAX_SEED = 2**63 - 1  # protocol.md: a seed is up to 63 bits (a fresh one is drawn from 2**63)


def check_setup(setup: Any, path: str = "setup", new: bool = True) -> None:
    """The shape of a Protectors ``setup`` (protocol.md, setup for game.create). ``new``: a setup a game is made
    from now, whose seed must be within 63 bits; a record brought in (``check_record``) keeps the seed it has."""
    if not isinstance(setup, dict):
        raise invalid(path, f"must be a map, not {_kind(setup)}")
    seed = setup.get("seed")
    if seed is not None and not _is_int(seed):
        raise invalid(f"{path}.seed", f"must be an integer, not {_kind(seed)}")
    if new and seed is not None and not 0 <= seed <= MAX_SEED:
        raise invalid(f"{path}.seed", f"must be from 0 to 2**63-1 (63 bits, protocol.md), not "
                                      f"{str(seed)[:30]}; leave it out for a fresh one")
    if "rules" in setup and not isinstance(setup["rules"], str):
        raise invalid(f"{path}.rules", f"must be a string, not {_kind(setup['rules'])}")
    board = setup.get("board")
    if board is not None:
        if isinstance(board, dict):
            provinces = board.get("provinces")
            if not isinstance(provinces, dict):
                raise invalid(f"{path}.board.provinces", f"must be a map of Provinces, not {_kind(provinces)}")
            if len(provinces) > MAX_BOARD_PROVINCES:
                raise invalid(f"{path}.board.provinces", f"at most {MAX_BOARD_PROVINCES} Provinces on a hosted "
                                                         f"board, not {len(provinces)}")
            for name, spec in provinces.items():
                where = f"{path}.board.provinces.{str(name)[:40]}"
                if not isinstance(name, str):
                    raise invalid(where, "Province names must be strings")
                if not isinstance(spec, dict) or not isinstance(spec.get("neighbors", []), list):
                    raise invalid(where, "must be a map {\"neighbors\": [Province, ...]}")
                for i, n in enumerate(spec.get("neighbors", [])):
                    if not isinstance(n, str):
                        raise invalid(f"{where}.neighbors[{i}]", f"must be a Province name, not {_kind(n)}")
            for key in ("island", "name"):
                if board.get(key) is not None and not isinstance(board[key], str):
                    raise invalid(f"{path}.board.{key}", f"must be a string, not {_kind(board[key])}")
            if board.get("coastal") is not None and (not isinstance(board["coastal"], list) or
                                                     not all(isinstance(p, str) for p in board["coastal"])):
                raise invalid(f"{path}.board.coastal", "must be an array of Province names")
        elif not isinstance(board, str):
            raise invalid(f"{path}.board", f"must be a board name or a map, not {_kind(board)}")
    players = setup.get("players")
    if players is not None:
        if isinstance(players, list):
            for i, p in enumerate(players):
                if not isinstance(p, dict):
                    raise invalid(f"{path}.players[{i}]", f"must be a map, not {_kind(p)}")
                for key, v in p.items():
                    if v is not None and not isinstance(v, str) and not (key == "team" and _is_int(v)):
                        raise invalid(f"{path}.players[{i}].{str(key)[:40]}", f"must be a string, not {_kind(v)}")
        elif not _is_int(players):
            raise invalid(f"{path}.players", f"must be a player count or an array of players, not {_kind(players)}")
        if not MIN_PLAYERS <= (players if _is_int(players) else len(players)) <= MAX_PLAYERS:
            raise invalid(f"{path}.players", f"the game is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
    options = setup.get("options")
    if options is not None:
        if not isinstance(options, dict):
            raise invalid(f"{path}.options", f"must be a map, not {_kind(options)}")
        for key in options:
            if not isinstance(key, str):
                raise invalid(f"{path}.options", f"keys must be strings, not {_kind(key)}")
    position = setup.get("position")
    if position is not None and not isinstance(position, dict):
        raise invalid(f"{path}.position", f"must be a map, not {_kind(position)}")


def check_record(data: Any, path: str = "blob") -> None:
    """The shape of an engine record (``Game.to_blob``: ``v``, ``setup``, ``actions``)."""
    if not isinstance(data, dict):
        raise invalid(path, f"must be a map (a game file or engine blob), not {_kind(data)}")
    if "setup" not in data:
        raise invalid(f"{path}.setup", "is required (a game file from regent new or game.export)")
    check_setup(data["setup"], f"{path}.setup", new=False)
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise invalid(f"{path}.actions", f"must be an array of actions, not {_kind(actions)}")
    for i, action in enumerate(actions):
        where = f"{path}.actions[{i}]"
        if not isinstance(action, list) or not action:
            raise invalid(where, f"must be an array [\"submit\", seat, lines] or [\"advance\", force], "
                                 f"not {_kind(action)}")
        if action[0] not in ACTIONS:
            raise invalid(f"{where}[0]", f"must be 'submit' or 'advance', not {str(action[0])[:40]!r}")
        if action[0] == "submit":
            if len(action) != 3:
                raise invalid(where, "a submit is [\"submit\", seat, lines]")
            if not isinstance(action[1], str):
                raise invalid(f"{where}[1]", f"must be a seat name, not {_kind(action[1])}")
            if not isinstance(action[2], list):
                raise invalid(f"{where}[2]", f"must be an array of DM lines, not {_kind(action[2])}")
            for j, line in enumerate(action[2]):
                if not isinstance(line, str):
                    raise invalid(f"{where}[2][{j}]", f"must be a string, not {_kind(line)}")
        elif len(action) != 2 or not isinstance(action[1], bool | int):
            raise invalid(where, "an advance is [\"advance\", force]")


def check_game_file(blob: bytes, path: str = "blob") -> None:
    """The engine record inside a game file (service/gamefile.py: the current format keeps it at the
    top level, the older service export nests it as bytes under ``engine``)."""
    import msgpack

    try:
        data = msgpack.unpackb(blob, raw=False, strict_map_key=False)
    except Exception as err:  # msgpack raises several unrelated types
        raise invalid(path, f"not MessagePack ({type(err).__name__})") from None
    if isinstance(data, dict) and data.get("kind") == "regent-service-game":
        engine = data.get("engine")
        if not isinstance(engine, bytes):
            raise invalid(f"{path}.engine", f"must be the engine blob (bytes), not {_kind(engine)}")
        try:
            data = msgpack.unpackb(engine, raw=False, strict_map_key=False)
        except Exception as err:
            raise invalid(f"{path}.engine", f"not MessagePack ({type(err).__name__})") from None
        path = f"{path}.engine"
    check_record(data, path)


def blob_bytes(value: Any, field: str = "blob") -> bytes:
    """A blob sent as msgpack bin, or as base64 text (what ``regent call`` prints for bytes, and all
    a client whose msgpack library sends bytes as str can send)."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, dict) and set(value) == {"$bytes"}:  # regent call's JSON form of bytes, sent as is
        value = value["$bytes"]
    if isinstance(value, str):
        import base64
        import binascii

        text = value.removeprefix("base64:").strip()
        try:
            return base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            raise invalid(field, "a text blob must be base64 (or send msgpack bin)") from None
    raise invalid(field, f"must be bytes (msgpack bin) or base64 text, not {_kind(value)}")
