"""The Discord bot names a game's end as the engine does (it may not import the engine: test_import_direction)."""

from __future__ import annotations

from engine.protectors.victory import HOW_WORDS, how_told
from service.discord.bridge import HOW_WORDS as BOT_HOW_WORDS


def test_the_bot_says_each_end_of_a_game_as_the_engine_does():
    assert set(BOT_HOW_WORDS) == set(HOW_WORDS) == {"dragon", "last_man_standing", "times_up"}
    assert {how: how_told(how) for how in HOW_WORDS} == BOT_HOW_WORDS
    assert how_told("dragon") == "Fire and blood! The Dragon wins" and how_told(None) == "ended"
