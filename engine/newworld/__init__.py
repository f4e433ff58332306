"""New World (rules file 002): the state a Non-Player Nation planner needs.

``parse_world(data)`` validates a ``world`` document (``../shared/design/worlds.md``) and
``load_world(path)`` reads one from JSON, TOML or MessagePack. Prices, ship capacity and the
political-control rule are :class:`Options` with documented defaults (``docs/assumptions.md``).
"""

from engine.newworld.load import decode_world, load_world
from engine.newworld.parse import parse_world
from engine.newworld.world import (
    DEFAULT_LANDFALL_TABLES,
    DEFAULT_PC_RULE,
    DEFAULT_SHIP_CAPACITY,
    DEFAULT_SHIP_PRICE,
    DEFAULT_SOLDIER_PRICE,
    PC_RULES,
    Area,
    Holding,
    Nation,
    Options,
    World,
)

__all__ = [
    "DEFAULT_LANDFALL_TABLES",
    "DEFAULT_PC_RULE",
    "DEFAULT_SHIP_CAPACITY",
    "DEFAULT_SHIP_PRICE",
    "DEFAULT_SOLDIER_PRICE",
    "PC_RULES",
    "Area",
    "Holding",
    "Nation",
    "Options",
    "World",
    "decode_world",
    "load_world",
    "parse_world",
]
