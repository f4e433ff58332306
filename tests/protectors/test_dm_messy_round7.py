"""A seventh round of messy DMs: 10- to 16-seat tables with the options on (teams of 2 and 3, factions, the Island, the
Grand board), the refusals round 6 left weak: a Discord mention greeted before the orders, a team-mate addressed on an
order's line (TEAM_MATE_ADDRESSED), a remark in brackets alone on its line, a faction named before a bid, pooling from
two team-mates at once, two Provinces with a slash.

Each case goes through ``Game.submit_dm`` for Player#1 (Alice), as in the earlier rounds (``test_dm_messy_round6``),
and says what must be stored (the canonical lines) or why it must be refused ("!fragment" of the reason).
"""

from __future__ import annotations

import pytest

from tests.protectors.test_dm_messy_round import _check, _store_in
from tests.protectors.test_dm_messy_round6 import GAMES

F4 = ["Fortify! P27", "Fortify! P28", "Fortify! P32", "Fortify! P1"]  # orders16: Alice's four Provinces fortified
FORT = "Fortify P27, P28, P32, P1\n"

# ---- a Discord mention the bot left as written (no player of this game: the GM, the bot) greeted before the orders:
# was refused as "unknown order 'Hi'" or "not an order: the line starts like a greeting"; the mention is the greeted
# one's name, as 'Alex' is in 'Hi Alex, Fortify P1'. Elsewhere it stays refused, named
MENTION = "a Discord mention Regent cannot match to a player of this game"
GREETED = [
    ("orders16", "Hi <@123>, Fortify P1", ["Fortify! P1"]),
    ("orders16", "Hi <@123> Fortify P27", ["Fortify! P27"]),
    ("orders16", "Hey <@!123>! Fortify P27", ["Fortify! P27"]),  # the older form, its '!' no greeting's end
    ("orders16", "Hi <@&5555>: " + FORT, F4),  # a role (the GMs')
    ("orders16", "Hi <@123>\n" + FORT, F4),
    ("orders16", FORT + "Thanks <@123>!", F4),
    ("t1_16", "Hello <@123>, bid 20\nHodir", ["Bid 20", "Faction Hodir"]),
    ("orders16", "<@123> Fortify P27", f"!unknown order '<@123>' ({MENTION}"),  # no greeting: whose orders?
    ("orders16", "<@123>\n" + FORT, f"!unknown order '<@123>' ({MENTION}"),
    ("orders16", "Hi <@123> <@456> Bob Fortify P27", "!not an order: the line starts like a greeting"),  # 3 names
    ("orders16", "Fortify P27 <@123>", "!unexpected '<@123>' at the end of the order"),
]


@pytest.mark.parametrize(("game", "dm", "want"), GREETED)
def test_a_discord_mention_greeted_before_the_orders(game, dm, want):
    _check(_store_in(GAMES[game](), dm), want)
