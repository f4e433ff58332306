"""A bid said as the team's ("Our bid: 30", "Team bid: 30", "We bid 30") in a team game: refused (``team_bids``).

rules: 003 Team Games, Pooled $Realm -- each player on a team bids on their own ("Orders from Player#1: Buy 2, Bid: 25
(110 from Player#2)"), the team's $Realm pooled only as each says. "Our bid: 30" from a player with a team-mate could
be the team's bid (30 between them, or 30 each?) or the player's own: it was read as the sender's Bid 30, so two
team-mates each writing "Our bid: 30" bid 60 between them. Refused, saying the exact words of the player's own bid and
what it pools; in a game without teams, or with no team-mate still in, "Our bid: 30" stays the sender's. Assumption
TEAM_BID.

"Team bid: 30", "team bid 30", "Our team bids 30", "We bid 30", "Bid 30 for the team" (no order word first, or words
after the bid) were refused as "unknown order 'Team'" or "unexpected 'for the team'", which did not say what to write:
they are refused saying it, in any game (without a team-mate, the bid for more than the sender is no bid of theirs).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping

from engine.protectors.dm_entry import DmLine, DmReading
from engine.protectors.dm_lines import HEADER, chat_start, unwrap, words
from engine.protectors.dm_phrases import BID_STEPS
from engine.protectors.dm_pieces import RESERVED
from engine.protectors.dm_whose import seat_named, seats_named
from engine.protectors.notation import MAX_REASON, clip, echo
from engine.protectors.orders import Bid
from engine.protectors.state import GameState

TEAM_BID = True
_TEAM_WORDS = frozenset({"our", "ours", "we", "us", "team", "teams"})
_HELLO = r"(?P<hello>(?:hi|hey|hello)(?:\s+(?:team|all|everyone|gm|guys))?\s*[,!:]\s*)?"  # "Hi team, we bid 30"
_AMOUNT = r"(?P<n>[0-9]+)\s*\$?(?:\s*realm)?(?:\s*(?P<pool>\([^()]*\)))?"
# "Team bid: 30", "team's bid 30", "Our team bids 30", "We will bid 30", "We're bidding 30", "our bid is 30"
_TEAM_BID_SAID = re.compile(
    _HELLO + r"(?:(?:our|the|my)\s+)?(?:team(?:'?s)?|we(?:'re)?|us|our)\s*:?\s+"
    r"(?:(?:will|would|shall|wanna|are|want\s+to|going\s+to)\s+)*(?:bids?|bidding)\b"
    r"(?:\s*(?::|=|is|of|will\s+be|would\s+be|be)\s*|\s+)\$?" + _AMOUNT,
    re.IGNORECASE,
)
# what may follow it on the line, and nothing else: the reason the line was refused for is kept for more
_REST = re.compile(r"[\s.!,]*(?:(?:each|total|in total|together|between us|please|thanks?)[\s.!,]*)?", re.IGNORECASE)
# "Bid 30 for the team", "bid 30 for us"
_BID_FOR_TEAM = re.compile(
    _HELLO + r"bids?\s*:?\s*\$?" + _AMOUNT + r"\s*for\s+(?:the\s+|our\s+|my\s+)?(?:team|us)\b", re.IGNORECASE
)


def team_mates(state: GameState, seat: str) -> list[str]:
    """The seats on ``seat``'s team still in the game, but ``seat`` (rules: 003 Team Games); ``[]`` without teams."""
    team = state.team_of(seat)
    if team is None:
        return []
    return [s for s, p in state.players.items() if p.team == team and s != seat and not p.eliminated]


def team_bids(state: GameState, seat: str, reading: DmReading) -> DmReading:
    """``reading`` with each line that bids for the team refused, saying what to write: a bid after a header naming the
    team or "our", when ``seat`` has a team-mate still in the game, and a line saying the team's bid that the reader
    refused for its words ("Team bid: 30"); else ``reading`` itself."""
    mates = TEAM_BID and bool(team_mates(state, seat))
    bids = reading.step in BID_STEPS  # in another step the refusal says the step takes no bid
    entries = [
        (_refused(e) if mates else None) or (_said_for_team(e, mates) if bids else None) or e for e in reading.entries
    ]
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
        f"{echo(head.strip() + ':')} could head the team's bid or yours: {_write(True, bid.amount, '')}", "syntax"
    )


def _said_for_team(e: DmLine, mates: bool) -> DmLine | None:
    """``e``, refused for its words, refused again saying what to write when it bids for the team ("Team bid: 30",
    "Bid 30 for the team"), else ``None``."""
    if e.kind != "refused" or e.error != "syntax":
        return None
    text = unwrap(e.text)
    m = _TEAM_BID_SAID.match(text) or _BID_FOR_TEAM.match(text)
    if m is None or not _REST.fullmatch(text[m.end() :]):  # "Team bid 30 if Red agrees": said as refused
        return None
    said = text[max(m.end("hello"), 0) : m.end() if m.re is _BID_FOR_TEAM else m.end("n")]
    amount, pool = int(m.group("n")), m.group("pool")
    if mates:
        return e.refuse(
            f"{echo(said.strip())} could be the team's bid or yours: {_write(True, amount, pool)}", "syntax"
        )
    return e.refuse(f"{echo(said.strip())} says a bid for more than you: {_write(False, amount, pool)}", "syntax")


def _write(team: bool, amount: int, pool: str | None) -> str:
    """What to write instead: the player's own bid in words they can send."""
    if pool and team:
        return clip(f"each player bids on their own, so write your own bid as 'Bid {amount} {pool}'", MAX_REASON)
    if not team:
        return f"a DM gives your own bid, written 'Bid {amount}'"
    return clip(
        f"in a team game each player bids on their own, so write your own bid as 'Bid {amount}', and any $Realm it "
        f"takes from a team-mate in brackets, like 'Bid {amount} (10 from Player#2)'",
        MAX_REASON,
    )


# rules: 003 Team Games -- "everyone on the team agrees on the orders for the team as a whole before each player sends
# in their individual orders". A line greeting a team-mate by name before its order ("Hi Red Fortify P27", "Hey Red!
# Fortify P27") may be an order the team agreed for Red, pasted from the team's chat, or the sender's own after a
# greeting: it was read as the sender's, the greeting left out. In a team game it is refused, saying each player sends
# their own orders and the order to write; a greeting alone on its line ("Hi Red" over the orders) stays left out, and
# so does a greeting to anyone else. Without teams nothing changes. Assumption TEAM_MATE_ADDRESSED
TEAM_MATE_ADDRESSED = True
_TOKEN = re.compile(r"\S+")


def addressed_mate(e: DmLine, seats: Mapping[str, str], mates: Collection[str]) -> DmLine:
    """``e`` refused when it greets one of ``mates`` (the sender's team-mates still in the game) by name before the
    order on its line; else ``e``. ``seats`` maps the names as ``notation.seat_map`` keys them to seats."""
    if not TEAM_MATE_ADDRESSED or not mates or e.kind != "order" or not e.why:
        return e
    text = unwrap(e.text)
    if chat_start(text) != "a greeting":
        return e
    end = len(text)
    for m in _TOKEN.finditer(text):  # the greeting: to its mark, or up to the order's first word (an order, a count)
        said = words(m.group())
        name = seat_named(m.group(), seats) is not None  # "Will", "Player#2"
        if not name and any(w in RESERVED or w.isdigit() for w in said):
            end = m.start()
            break
        if m.group()[-1] in ",!:":  # "Hi Will, bid 10"
            end = m.end()
            break
    greeting = text[:end].strip()
    named = sorted(s for s in seats_named(greeting, seats) if s in mates)
    if not named:
        return e
    orders = "', '".join(e.canonical)
    return e.refuse(
        f"{echo(greeting.rstrip(',:;'))} greets {named[0]}, your team-mate, before the order: in a team game each "
        f"player sends their own orders, so it could be one for them; if the order is yours, send it without the "
        f"greeting, '{orders}'",
        "syntax",
    )
