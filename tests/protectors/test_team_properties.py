"""rules: 003 Team Games — hypothesis properties over teams of 2 and 3 at 4-16 seats, Normal and Grand boards: the
pooled $Realm of a team's buying and bidding step is accounted for to the unit and the $Realm, and team victory is
the same whichever team-mate holds what. Small example budgets: the file runs in seconds."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine.protectors.tables import UNIT_COST
from engine.protectors.victory import times_up
from tests.protectors.helpers import position

# rules: 003 Golden Work, work! — the Province level table's VPs (level 0-3)
RULEBOOK_LEVEL_VP = {0: 2, 1: 3, 2: 4, 3: 6}
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
POOL_RULES = ("003 Team Games, pooled $Realm to ", "003 Team Games, pooled $Realm from ")


@st.composite
def tables(draw):
    """(seats, team size, Grand board?) with 2+ teams of 2 or 3 and at most 16 seats."""
    size = draw(st.sampled_from([2, 3]))
    teams = draw(st.integers(2, 16 // size))
    return size * teams, size, draw(st.booleans())


def start(i: int, grand: bool) -> str:
    """Seat i's Province (1-based): every Province on a Normal board, every other one on a Grand board."""
    return f"P{2 * i - 1 if grand else i}"


@st.composite
def team_consolidations(draw):
    """A team game at its Consolidation, and every seat's DM: buys, a bid and the pooled $Realm it asks for."""
    n, size, grand = draw(tables())
    seats = [f"Player#{i}" for i in range(1, n + 1)]
    team = [f"T{i // size}" for i in range(n)]
    realm = {s: draw(st.integers(0, 400)) for s in seats}
    units = {s: draw(st.integers(0, 3)) for s in seats}
    dms = {}
    for i, s in enumerate(seats):
        mates = [m for j, m in enumerate(seats) if j != i and team[j] == team[i]]
        asks = {m: draw(st.integers(1, 300)) for m in draw(st.lists(st.sampled_from(mates), unique=True))}
        bid = draw(st.integers(0, realm[s] + sum(asks.values())))  # the DM's bid is within its pool
        pooled = ", ".join(f"{a} from {m}" for m, a in asks.items())
        buy = draw(st.integers(0, 4))
        dms[s] = (
            (f"Buy {buy} in {start(i + 1, grand)}\n" if buy else "") + f"Bid {bid}" + (f" ({pooled})" if pooled else "")
        )
    return n, size, grand, team, realm, units, dms


SIX = [f"Player#{i}" for i in range(1, 7)]


@SETTINGS
@given(team_consolidations())
# the rulebook's example (Team Games, Pooled $Realm): 65, 225 and 50 $Realm; "Player#1 should buy 2 Army Units and
# bid 25 ... he will use 110 from player#2", "Player#3 ... will use 30 $Realm from player#2"
@example(
    (
        6,
        3,
        False,
        ["T0"] * 3 + ["T1"] * 3,
        dict(zip(SIX, [65, 225, 50, 0, 0, 0], strict=True)),
        dict.fromkeys(SIX, 1),
        {
            "Player#1": "Buy 2 in P1\nBid 25 (110 from Player#2)",
            "Player#2": "Buy 1 in P2\nBid 0",
            "Player#3": "Buy 1 in P3\nBid 5 (30 from Player#2)",
            "Player#4": "Bid 0",
            "Player#5": "Bid 0",
            "Player#6": "Bid 0",
        },
    )
)
def test_a_teams_pooled_realm_is_accounted_for_in_the_buying_and_bidding_step(case):
    """rules: 003 Team Games — "Each player will have their separate $Realm balance as in a normal game. However, in
    the Consolidation phase during the buying and bidding step ... all $Realm from the individual players on a given
    team is pooled together. The team can then decide on how to best spend this pooled $Realm on the different
    players on the team." and 5. Consolidation, Buying step — "Buy new Army Units, costing 75 $Realm each".

    No $Realm is made or lost by pooling; each team's balances fall by exactly 75 per unit its seats bought plus the
    bids they set aside; every unit bought is on the board; no balance goes below 0; a team-mate pays what is asked
    of it whenever it holds that much."""
    n, _size, grand, team, realm, units, dms = case
    seats = list(realm)
    board = f"ring-{n}" + ("-grand" if grand else "")
    provs = {start(i, grand): (s, units[s]) for i, s in enumerate(seats, start=1)}
    g = position(
        board, n, provs, phase="consolidation", realm=realm, teams=team, options={"teams": True, "factions": False}
    )
    st_ = g.state
    ledger_at, events_at = len(st_.ledger), len(st_.events)
    for s, dm in dms.items():
        g.submit(s, dm)
    g.advance(force=True)
    moves = [(s, d, rule) for turn, s, d, rule in st_.ledger[ledger_at:]]
    bought = dict.fromkeys(seats, 0)
    for e in st_.events[events_at:]:
        if e.kind == "buy":
            bought[e.data["seat"]] += sum(k for _, k in e.data["bought"])
    spent = dict.fromkeys(seats, 0)
    for s, d, rule in moves:
        assert rule in ("003 Buying step", "003 Bidding step") or rule.startswith(POOL_RULES), rule
        if not rule.startswith(POOL_RULES):
            spent[s] -= d
    assert sum(d for _, d, rule in moves if rule.startswith(POOL_RULES)) == 0  # pooling makes no $Realm
    for s in seats:
        assert st_.players[s].realm >= 0
        assert st_.provinces[start(seats.index(s) + 1, grand)].units == units[s] + bought[s]
        assert -sum(d for who, d, rule in moves if who == s and rule == "003 Buying step") == UNIT_COST * bought[s]
    for t in set(team):
        members = [s for i, s in enumerate(seats) if team[i] == t]
        assert sum(st_.players[s].realm for s in members) == sum(realm[s] - spent[s] for s in members)
    # a team-mate holding at least what all its team-mates ask of it pays it all (before anyone buys: POOL_FIRST;
    # what it was paid by another team-mate before may be passed on)
    asked: dict[str, int] = dict.fromkeys(seats, 0)
    for dm in dms.values():
        if "(" in dm:
            for part in dm[dm.index("(") + 1 : -1].split(", "):
                amount, _, mate = part.split(" ")
                asked[mate] += int(amount)
    paid = {s: -sum(d for who, d, rule in moves if who == s and rule.startswith(POOL_RULES[0])) for s in seats}
    got = {s: sum(d for who, d, rule in moves if who == s and rule.startswith(POOL_RULES[1])) for s in seats}
    for s in seats:
        assert paid[s] <= asked[s] and paid[s] <= realm[s] + got[s]  # never more than asked, nor than it held
        if realm[s] >= asked[s]:
            assert paid[s] == asked[s], (s, realm[s], asked[s])


@st.composite
def team_endings(draw):
    """A team game at Time's Up!: every seat's one Province (level, units), $Realm, VPs earned against the Dragon,
    whether it is still in the game (one seat at least), and the Protector Ranking; plus a shuffle of the seats within
    each team."""
    n, size, _ = draw(tables())
    team = [f"T{i // size}" for i in range(n)]
    alive = [draw(st.booleans()) for _ in range(n)]  # one team alone in the game: Last man standing!
    alive[draw(st.integers(0, n - 1))] = True
    if draw(st.booleans()):  # (level, units, $Realm, VPs earned) of each seat
        assets = [
            (draw(st.integers(0, 3)), draw(st.integers(1, 3)), draw(st.integers(0, 60)), draw(st.integers(0, 6)))
            for _ in range(n)
        ]
    else:  # alike, every seat in the game: a tie on VPs, Army Units and $Realm, which the ranking breaks
        assets, alive = [(0, 1, 0, 0)] * n, [True] * n
    ranking = draw(st.permutations(list(range(n))))
    shuffle = []
    for t in range(n // size):
        shuffle += [t * size + j for j in draw(st.permutations(list(range(size))))]
    return n, team, alive, assets, ranking, shuffle


def _times_up(n, team, alive, assets, ranking):
    seats = [f"Player#{i}" for i in range(1, n + 1)]
    provs = {f"P{i + 1}": (seats[i], assets[i][1], assets[i][0]) for i in range(n) if alive[i]}
    g = position(
        f"ring-{n}",
        n,
        provs,
        phase="consolidation",
        teams=team,
        options={"teams": True, "factions": False},
        ranking=[seats[i] for i in ranking if alive[i]],
        realm={seats[i]: assets[i][2] for i in range(n) if alive[i]},
    )
    for i in range(n):
        g.state.players[seats[i]].vp = assets[i][3]
    times_up(g.state)
    return g.state.result


ALIKE = [(0, 1, 0, 0)] * 4


@SETTINGS
@given(team_endings())
# the two team-mates left standing win together; a tie all the way down goes to the team of the best-ranked seat
@example((4, ["T0", "T0", "T1", "T1"], [True, True, False, False], ALIKE, [2, 0, 1, 3], [1, 0, 2, 3]))
@example((4, ["T0", "T0", "T1", "T1"], [True] * 4, ALIKE, [1, 2, 0, 3], [1, 0, 2, 3]))
@example(
    (
        6,
        ["T0"] * 3 + ["T1"] * 3,
        [True] * 6,
        [(0, 1, 0, 6), (3, 1, 0, 0), (0, 1, 0, 0), (2, 3, 9, 3), *ALIKE[:2]],
        [0, 1, 2, 3, 4, 5],
        [2, 0, 1, 5, 3, 4],
    )
)
def test_team_victory_is_the_same_whichever_team_mate_holds_what(case):
    """rules: 003 Team Games — "Time's Up! Be the team with the most Victory Points (VPs) ... calculate the VPs for
    each team member individually. Add the VPs from each team member together, the total is the number of VPs
    obtained by the team." / "Most Army Units, Most $Realm, if still a tie, the team that has the highest ranked
    player on the Protector Ranking is the winner." / "Last man standing! ... if all but one team are eliminated.
    The team left standing is victorious".

    The winner is a team (never one of its members), and it stays the same team, with the same table, when the
    team-mates swap everything they hold (Provinces, units, $Realm, VPs, whether they are in the game, and their
    places in the ranking)."""
    n, team, alive, assets, ranking, shuffle = case
    before = _times_up(n, team, alive, assets, ranking)
    where = {old: new for new, old in enumerate(shuffle)}  # seat `new` now holds what seat `old` held
    after = _times_up(
        n,
        team,
        [alive[shuffle[i]] for i in range(n)],
        [assets[shuffle[i]] for i in range(n)],
        [where[i] for i in ranking],
    )
    assert before["winner"] in set(team)
    standing = {team[i] for i in range(n) if alive[i]}
    assert before["how"] == ("last_man_standing" if len(standing) == 1 else "times_up")
    assert (after["how"], after["winner"]) == (before["how"], before["winner"])
    assert after.get("table") == before.get("table")
    if before["how"] == "times_up":  # each team's VPs, Army Units and $Realm: its members' in the game, added up
        sums: dict[str, list[int]] = {}
        for i, (level, units, realm, vp) in enumerate(assets):
            if alive[i]:
                got = sums.setdefault(team[i], [0, 0, 0])
                got[0] += RULEBOOK_LEVEL_VP[level] + vp
                got[1] += units
                got[2] += realm
        assert {r["side"]: [r["vp"], r["units"], r["realm"]] for r in before["table"]} == sums
