"""A bid headed as the team's ("Our bid: 30", "Team bid: 30") in a team game: refused (``team_bids``).

rules: 003 Team Games, Pooled $Realm -- each player on a team bids on their own ("Orders from Player#1: Buy 2, Bid: 25
(110 from Player#2)"), the team's $Realm pooled only as each says. "Our bid: 30" from a player with a team-mate could
be the team's bid (30 between them, or 30 each?) or the player's own: it was read as the sender's Bid 30, so two
team-mates each writing "Our bid: 30" bid 60 between them. Refused, saying to write the player's own bid with what it
pools; in a game without teams, or with no team-mate still in, "Our bid: 30" stays the sender's. Assumption TEAM_BID.
"""

from __future__ import annotations

from engine.protectors.dm_entry import DmLine, DmReading
from engine.protectors.dm_lines import HEADER, unwrap, words
from engine.protectors.notation import MAX_REASON, clip, echo
from engine.protectors.orders import Bid
from engine.protectors.state import GameState

TEAM_BID = True
_TEAM_WORDS = frozenset({"our", "ours", "we", "us", "team", "teams"})


def team_bids(state: GameState, seat: str, reading: DmReading) -> DmReading:
    """``reading`` with each line whose bid follows a header naming the team or "our" refused, when ``seat`` has a
    team-mate still in the game; else ``reading`` itself."""
    team = state.team_of(seat)
    if not TEAM_BID or team is None:
        return reading
    if not any(p.team == team and s != seat and not p.eliminated for s, p in state.players.items()):
        return reading
    entries = [_refused(e) or e for e in reading.entries]
    if all(a is b for a, b in zip(entries, reading.entries, strict=True)):
        return reading
    out = DmReading(entries, reading.step)
    out.no_order = reading.no_order
    return out


def _refused(e: DmLine) -> DmLine | None:
    """``e`` refused when it is a bid after a header saying it is the team's ("Our bid: 30"), else ``None``."""
    if e.kind != "order" or HEADER not in e.why or not any(isinstance(ln.item, Bid) for ln in e.parsed):
        return None
    head, colon, _ = unwrap(e.text).partition(":")
    if not colon or not _TEAM_WORDS & set(words(head)):
        return None
    bid = next(ln.item for ln in e.parsed if isinstance(ln.item, Bid))
    return e.refuse(
        clip(
            f"{echo(head.strip() + ':')} could head the team's bid or yours: in a team game each player bids on their "
            f"own, so write your bid, and any $Realm it takes from a team-mate in brackets, like 'Bid {bid.amount} "
            "(10 from Player#2)'",
            MAX_REASON,
        ),
        "syntax",
    )
