"""The realm model for Non-Player Realms (files 000, 001, 004): world loading, MC/NC, economy, diplomacy."""

from engine.realms.capacity import Capacity, military_capacity, naval_capacity
from engine.realms.loader import load_world, world_from_dict
from engine.realms.model import Province, Realm, World
from engine.realms.options import DEFAULT_RULES, RealmRules

__all__ = ["DEFAULT_RULES", "Capacity", "Province", "Realm", "RealmRules", "World", "load_world",
           "military_capacity", "naval_capacity", "world_from_dict"]
