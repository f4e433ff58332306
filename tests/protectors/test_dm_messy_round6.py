"""A sixth round of messy DMs: 7- to 16-seat tables with the options on (teams of 2 and 3, factions, the Island, the
Grand board), as players type on Discord phones: autocorrect, mixed case, emoji, quoted replies, code blocks, Discord
mentions, a whole order list sent again after an edit, several orders on a line, Provinces misspelt or abbreviated,
numbers in words, orders for a team-mate, a bid and orders in one DM, orders for the wrong step; a bid said as the
team's (TEAM_BID) and another language's order words (FOREIGN_ORDER_WORDS).

Each case goes through ``Game.submit_dm`` for Player#1 (Alice), as in the earlier rounds (``test_dm_messy_round5``),
and says what must be stored (the canonical lines) or why it must be refused ("!fragment" of the reason).
"""

from __future__ import annotations

import pytest

from tests.protectors.test_dm_messy_round import _check, _store_in
from tests.protectors.test_dm_messy_round5 import GAMES

# ---- a bid said as the team's, with no order word first or words after it (rules: 003 Team Games, Pooled $Realm: each
# player bids on their own). Were refused as "unknown order 'Team'" or "unexpected 'for the team'", not saying what to
# write; refused now with the player's own bid in the words to send (TEAM_BID)
TEAMS = "could be the team's bid or yours: in a team game each player bids on their own, so write your own bid as"
TEAM_BIDS = [
    ("t1_16", "Team bid: 30\nHodir", f"!'Team bid: 30' {TEAMS} 'Bid 30', and any $Realm it takes from a team-mate"),
    ("t1_16", "team bid 30\nHodir", f"!'team bid 30' {TEAMS} 'Bid 30'"),
    ("t1_16", "Our team bids 30\nHodir", f"!'Our team bids 30' {TEAMS} 'Bid 30'"),
    ("t1_16", "Our team bid: 30 \U0001f4b0\nHodir", f"!'Our team bid: 30' {TEAMS} 'Bid 30'"),
    ("t1_16", "Team's bid: 30\nHodir", f"!\"Team's bid: 30\" {TEAMS} 'Bid 30'"),
    ("t1_16", "We bid 30\nHodir", f"!'We bid 30' {TEAMS} 'Bid 30'"),
    ("t1_16", "We're bidding 30 each\nHodir", f"!\"We're bidding 30\" {TEAMS} 'Bid 30'"),
    ("t1_16", "our bid is 30\nHodir", f"!'our bid is 30' {TEAMS} 'Bid 30'"),
    ("t1_16", "Hi team, we bid 30\nHodir", f"!'we bid 30' {TEAMS} 'Bid 30'"),
    ("t1_16", "Bid 30 for the team\nHodir", f"!'Bid 30 for the team' {TEAMS} 'Bid 30'"),
    ("t1_16", "- **Team bid: 30**\nHodir", f"!'Team bid: 30' {TEAMS} 'Bid 30'"),
    ("t1_16", "Team bid 30 (10 from Red)\nHodir", "!so write your own bid as 'Bid 30 (10 from Red)'"),
    ("t1_12t3", "Team bid: 25", f"!'Team bid: 25' {TEAMS} 'Bid 25'"),  # teams of 3
    ("cons12t3", "Buy 1 in P2\nteam bid: 5", f"!'team bid: 5' {TEAMS} 'Bid 5'"),
    ("cons10", "Buy 1 in P1\nOur team bids 5 total", f"!'Our team bids 5' {TEAMS} 'Bid 5'"),
    # no team-mate: a bid for more than the sender is still no bid of theirs
    ("bank16", "Team bid: 12", "!'Team bid: 12' says a bid for more than you: a DM gives your own bid"),
    ("bank16", "We bid 12", "!a DM gives your own bid, written 'Bid 12'"),
    # more on the line than the bid: refused for it, as before
    ("t1_16", "Team bid 30 if Red agrees\nHodir", "!unknown order 'Team'"),
    ("orders16", "Team bid 30\n" + "Fortify P27, P28, P32, P1", "!unknown order 'Team'"),  # no bid in the orders step
    ("t1_16", "My bid: 30\nHodir", ["Bid 30", "Faction Hodir"]),
    ("t1_16", "Bid 30 (10 from Red)\nHodir", ["Bid 30 (10 from Player#2)", "Faction Hodir"]),
]


@pytest.mark.parametrize(("game", "dm", "want"), TEAM_BIDS)
def test_a_bid_said_as_the_teams(game, dm, want):
    _check(_store_in(GAMES[game](), dm), want)
