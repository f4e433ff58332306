"""The one Discrete action space and its sections, shared by every env and the policy agent.

Every decision a seat makes is broken into small choices (see ``agents.spaces.planner``); each small choice
picks one index of this space, and the mask says which indices are legal now. The meaning of an
index depends only on its section, never on the step, so a network can learn one embedding.

==========  =======  ======================================================================
section     size     meaning
==========  =======  ======================================================================
DONE        1        finish / skip / no: no (more) order here, commit 0, buy 0, no snitch ...
YES         1        yes: use the Ferry!, upgrade, hide (Nothing to see here!), Faith alone
PROV        33       a Province by number: P0 (the Island) .. P32 (ring-16-grand)
KIND        10       order type: March!, Golden March!, Delayed March!, Delayed Golden March!,
                     Support!, Golden Support!, Fortify!, Golden Fortify!, Work work!, Golden Work
COUNT       16       a number 1..16 (units marched or committed, units bought, Highmagisters)
PLAYER      16       a seat, relative to the acting seat: 0 = yourself, 1 = next seat, ...
AMOUNT      12       a bid as a fraction of the $Realm still free (BID_FRACTIONS)
FACTION     5        Cenarion, Kalu'Ak, Hodir, Iron Light, Lannuvár (turn-1 bid, chosen factions)
==========  =======  ======================================================================
"""

from __future__ import annotations

from engine.protectors.factions import FACTIONS

MAX_PLAYERS = 16
MAX_PROVINCE_NUMBER = 32  # ring-16-grand; P0 is the Island
N_PROV = MAX_PROVINCE_NUMBER + 1
MAX_COUNT = 16
# Bids are fractions of the $Realm still free after this decision's other spending. Buckets keep
# the space small; 0 and "everything" are always there (assumption BID_BUCKETS).
BID_FRACTIONS = (0.0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.33, 0.5, 0.67, 0.85, 1.0)

KINDS = (
    ("march", False, False), ("march", True, False), ("march", False, True), ("march", True, True),
    ("support", False, False), ("support", True, False),
    ("fortify", False, False), ("fortify", True, False),
    ("work", False, False), ("work", True, False),
)  # (kind, golden, delayed)
KIND_INDEX = {k: i for i, k in enumerate(KINDS)}

DONE = 0
YES = 1
PROV0 = 2
KIND0 = PROV0 + N_PROV
COUNT0 = KIND0 + len(KINDS)
PLAYER0 = COUNT0 + MAX_COUNT
AMOUNT0 = PLAYER0 + MAX_PLAYERS
FACTION0 = AMOUNT0 + len(BID_FRACTIONS)
ACTION_SIZE = FACTION0 + len(FACTIONS)

SECTIONS = {
    "DONE": (DONE, 1), "YES": (YES, 1), "PROV": (PROV0, N_PROV), "KIND": (KIND0, len(KINDS)),
    "COUNT": (COUNT0, MAX_COUNT), "PLAYER": (PLAYER0, MAX_PLAYERS), "AMOUNT": (AMOUNT0, len(BID_FRACTIONS)),
    "FACTION": (FACTION0, len(FACTIONS)),
}


def bid_amount(bucket: int, budget: int) -> int:
    """The bid a bucket stands for, given the $Realm free to bid."""
    return int(BID_FRACTIONS[bucket] * max(0, budget))


def describe(action: int) -> str:
    """A readable name for an action index (for logs and error messages)."""
    for name, (start, size) in SECTIONS.items():
        if start <= action < start + size:
            i = action - start
            if name == "PROV":
                return f"PROV P{i}"
            if name == "KIND":
                k, g, d = KINDS[i]
                return f"KIND {'delayed ' if d else ''}{'golden ' if g else ''}{k}"
            if name == "COUNT":
                return f"COUNT {i + 1}"
            if name == "FACTION":
                return f"FACTION {FACTIONS[i]}"
            return f"{name} {i}" if size > 1 else name
    return f"out of range ({action})"
