"""Protector Ranking: bids, ties, brackets and the golden orders each bracket allows.

# rules: 003 1. Protector Ranking
"""

from __future__ import annotations

import random

from engine.protectors.shuffling import shuffle
from engine.protectors.tables import BRACKET_GOLDEN, BRACKETS

BRACKETS_CACHE_SIZE = 4096
"""rankings whose brackets are remembered (a step asks several times for the same ranking: golden limits,
views, encodings); the memo is emptied when it grows past this"""
_BRACKETS_MEMO: dict[tuple[str, ...], dict[str, int]] = {}


def brackets(active_ranking: list[str]) -> dict[str, int]:
    """Seat -> bracket (1-4) for the active players in ranking order (a new dict: the caller may change it).

    # rules: 003 Protector Ranking, brackets table — "dependent (at all times) on the number of
    # active players".
    """
    key = tuple(active_ranking)
    known = _BRACKETS_MEMO.get(key)
    if known is None:
        if len(_BRACKETS_MEMO) >= BRACKETS_CACHE_SIZE:
            _BRACKETS_MEMO.clear()
        known = _BRACKETS_MEMO[key] = _brackets(key)
    return dict(known)


def _brackets(active_ranking: tuple[str, ...]) -> dict[str, int]:
    sizes = BRACKETS[max(1, min(len(active_ranking), 16))]
    out: dict[str, int] = {}
    i = 0
    for b, size in enumerate(sizes, start=1):
        for seat in active_ranking[i:i + size]:
            out[seat] = b
        i += size
    for seat in active_ranking[i:]:  # more than 16 active players: the rest share bracket 4
        out[seat] = 4
    return out


def golden_allowed(bracket: int) -> frozenset[str]:
    """rules: 003 Protector Ranking — 1st bracket: all; 2nd: Support/Fortify/Work; 3rd: Fortify/Work;
    4th: Work."""
    return BRACKET_GOLDEN[bracket]


def order_by_bids(seats: list[str], bids: dict[str, int], previous: list[str]) -> list[str]:
    """Turn 2+: highest bid first; ties by the ranking at the start of the turn.

    # rules: 003 Protector Ranking — "draws ... (turn 2 and onwards) ... resolved based on the
    # Protector Ranking as it were at the start of the turn".
    """
    pos = {s: i for i, s in enumerate(previous)}
    keyed = [(-bids[s], pos.get(s, len(pos)), i) for i, s in enumerate(seats)]  # a stable sort, no key call
    keyed.sort()
    return [seats[k[2]] for k in keyed]


def first_turn_order(seats: list[str], bids: dict[str, int], rng: random.Random) -> tuple[
        list[list[str]], list[list[str]]]:
    """Turn 1: the ranking as a list of groups (highest bid first), and which groups re-bid.

    # rules: 003 Protector Ranking — ties on turn 1 get another round of hidden bids; "If there are
    # only ties between 0 $Realm bids on the first turn, these will simply be resolved randomly".
    Each returned group is either a single seat or a tie; zero-bid ties are shuffled here.
    """
    groups: list[list[str]] = []
    rebid: list[list[str]] = []
    for bid in sorted({bids[s] for s in seats}, reverse=True):
        g = [s for s in seats if bids[s] == bid]
        if len(g) > 1 and bid == 0:
            shuffle(rng, g)
            groups.extend([[s] for s in g])
        elif len(g) > 1:
            groups.append(g)
            rebid.append(g)
        else:
            groups.append(g)
    return groups, rebid


def resolve_rebid(group: list[str], rebids: dict[str, int], rng: random.Random) -> list[str]:
    """rules: 003 Protector Ranking — "If there is still a tie, the player placement on the ranking
    will be done randomly amongst the tied players." (one re-bid round, then random)."""
    out: list[str] = []
    for bid in sorted({rebids[s] for s in group}, reverse=True):
        g = [s for s in group if rebids[s] == bid]
        shuffle(rng, g)
        out.extend(g)
    return out


def bids_text(bids: dict[str, int], bonus: dict[str, int] | None = None) -> str:
    """The revealed bids and what counts on top of each (``bonus``: seat -> The Great Game of politics' +15
    per Province, rules: 003 Lannuvár). # rules: 003 1. Protector Ranking — the secret bids are revealed in
    this phase. A bid reduced to what its seat held is revealed as the bid it became, never with the bid
    asked for: that would tell everyone the seat's balance (assumption BID_REDUCED_PRIVATE)."""
    parts: list[str] = []
    for s, b in bids.items():
        text = f"{s} {b}"
        if bonus and bonus.get(s):
            text += f" (+{bonus[s]}: The Great Game of politics)"
        parts.append(text)
    return ", ".join(parts)


def random_ties(seats: list[str], bids: dict[str, int], zero_only: bool) -> list[list[str]]:
    """The groups of ``seats`` tied on ``bids`` (what counts, the Great Game included) that are placed at
    random: on turn 1 ties at 0 (``zero_only``, rules: 003 Protector Ranking — "ties between 0 $Realm
    bids on the first turn ... resolved randomly"), and every tie left after the re-bid round ("the player
    placement on the ranking will be done randomly amongst the tied players"). Highest first."""
    out: list[list[str]] = []
    for bid in sorted({bids[s] for s in seats}, reverse=True):
        if zero_only and bid != 0:
            continue
        tied = [s for s in seats if bids[s] == bid]
        if len(tied) > 1:
            out.append(tied)
    return out


def ranking_text(active_ranking: list[str], bracket: dict[str, int],
                 ties: list[tuple[list[str], str, int]] | None = None) -> str:
    """The Protector Ranking line, and which places a random draw decided (``ties``: each tied group, what
    it tied on ("bids" or "re-bids") and at how much), so the table knows the order there is the draw's."""
    text = "Protector Ranking: " + ", ".join(
        [f"{i + 1}. {s} (bracket {bracket[s]})" for i, s in enumerate(active_ranking)])
    if ties:
        place = {s: i for i, s in enumerate(active_ranking)}
        text += drawn_text(sorted(ties, key=lambda tie: place.get(tie[0][0], len(place))))  # in ranking order
    return text


def drawn_text(ties: list[tuple[list[str], str, int]]) -> str:
    """". Placed at random: Ann and Ben (re-bids tied at 3); Cat and Dov (bids tied at 0)" (``ties`` as
    :func:`ranking_text` takes them), the empty string for none."""
    if not ties:
        return ""
    return ". Placed at random: " + "; ".join(f"{_joined(group)} ({what} tied at {amount})"
                                             for group, what, amount in ties)


def _joined(seats: list[str]) -> str:
    return seats[0] if len(seats) == 1 else ", ".join(seats[:-1]) + " and " + seats[-1]
