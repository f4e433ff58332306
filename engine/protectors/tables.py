"""The rulebook's numeric tables, each in one place.

Every table cites the section it comes from; engine modules read them from here only.
"""

from __future__ import annotations

from math import ceil

# rules: 003 Setup — "1 Province (land area), 1 Army Unit and 50 $Realm".
START_UNITS = 1
START_REALM = 50

# rules: 003 Protector Ranking, brackets table: active players -> players in brackets 1..4.
BRACKETS: dict[int, tuple[int, int, int, int]] = {
    1: (1, 0, 0, 0),  # a lone survivor has already won; kept so the table is total
    2: (1, 1, 0, 0), 3: (1, 1, 1, 0), 4: (1, 1, 1, 1), 5: (2, 1, 1, 1), 6: (2, 2, 1, 1),
    7: (2, 2, 2, 1), 8: (2, 2, 2, 2), 9: (3, 2, 2, 2), 10: (3, 3, 2, 2), 11: (3, 3, 3, 2),
    12: (3, 3, 3, 3), 13: (4, 3, 3, 3), 14: (4, 4, 3, 3), 15: (4, 4, 4, 3), 16: (4, 4, 4, 4),
}
# rules: 003 Protector Ranking — golden orders each bracket may play.
BRACKET_GOLDEN: dict[int, frozenset[str]] = {
    1: frozenset({"march", "support", "fortify", "work"}),
    2: frozenset({"support", "fortify", "work"}),
    3: frozenset({"fortify", "work"}),
    4: frozenset({"work"}),
}

# rules: 003 Consolidation — "Remove any Army Units in excess of the max supply limit of 3".
SUPPLY_LIMIT = 3
ISLAND_SUPPLY_LIMIT = 1  # rules: 003 Island Rules — "The Island has a max supply limit of 1."
# rules: 003 Iron Light, Faith alone sustains us — "their new *temporary* max supply limit of (normally) 4"
FAITH_SUPPLY_BONUS = 1
UNIT_COST = 75  # rules: 003 Consolidation, Buying step — "costing 75 $Realm each"
UPGRADE_COST = 25  # rules: 003 Golden Work, work! — "pay 25 $Realm ... to upgrade"
MAX_LEVEL = 3
WORK_INCOME = 50  # rules: 003 Consolidation — "+50 $Realm per order"
FERRY_COST = 25  # rules: 003 Sea cards, Ferry! — "25 $Realm per Province"

# rules: 003 Golden Work, work! — Province level table: level -> ($Realm production, VPs).
LEVEL_INCOME = {0: 50, 1: 75, 2: 100, 3: 150}
LEVEL_VP = {0: 2, 1: 3, 2: 4, 3: 6}
ISLAND_VP = 3  # rules: 003 Island Rules — "The Island provides 3 VPs at the end of the game."
GRAND_PROTECTOR_VP = 3  # rules: 003 Dragon Attack, Other events 1


# rules: 003 Hoarding $Realm table — the rows start at 0, 250 and 350 $Realm held by any player.
HOARD_BANDS = (250, 350)


def dpl_increase(max_realm: int, provinces: int) -> int:
    """DPL added per card played. # rules: 003 Hoarding $Realm table.

    Columns: #Provinces <14, 14-26, 27-39, 40-52 multiply the row 1/2/3 (0-249, 250-349, 350+).
    Boards beyond 52 continue the pattern (assumption HOARD_TABLE_BEYOND_52).
    """
    row = 1 + sum(max_realm >= band for band in HOARD_BANDS)
    column = max(1, (provinces - 1) // 13 + 1)
    return row * column


def min_us(green: int, worldeater: bool) -> int:
    """rules: 003 "With great power..." min.US = green Provinces; Worldeater doubles it."""
    return green * (2 if worldeater else 1)


def dragon_reward(green: int) -> int:
    """rules: 003 min.US table: 0 -> 0, 1 -> 100, 2 -> 150, 3 -> 200, +50 each.

    The Worldeater does not change rewards ("follow normal rules").
    """
    return 0 if green <= 0 else 50 * (green + 1)


def dragon_victory_burnt(provinces: int) -> int:
    """rules: 003 Fire and blood! — "66% (rounded up) of the Provinces"."""
    return ceil(provinces * 66 / 100)


def dragon_victory_eliminated(starting_players: int) -> int:
    """rules: 003 Fire and blood! — "half of the starting players (rounded up)"."""
    return ceil(starting_players / 2)


def mountain_king_us(realm: int) -> int:
    """rules: 003 Hodir, The Mountain King sends His Regards — Defender US by $Realm holdings."""
    return 1 if realm <= 50 else 2 if realm <= 150 else 3 if realm <= 300 else 4
