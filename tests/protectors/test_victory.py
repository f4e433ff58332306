"""rules: 003 Protector Victory, Time's Up! — "If there is a tie on VPs between two or more players, the tiebreakers
are as follows: Most Army Units, Most Realm, if still a tie, the highest ranked player on the Protector Ranking is
the winner." Each tiebreaker decides only where the ones before it are equal."""

from __future__ import annotations

from engine.protectors.victory import times_up
from tests.protectors.helpers import position

P = [f"Player#{i}" for i in range(1, 6)]


def five(units: dict[int, int], realm: dict[int, int], ranking=None):
    g = position(
        "ring-5",
        5,
        {f"P{i}": (f"Player#{i}", units.get(i, 1)) for i in range(1, 6)},
        ranking=ranking or P,
        realm={s: realm.get(i, 0) for i, s in enumerate(P, start=1)},
    )
    times_up(g.state)
    return g.result


def test_more_army_units_beat_more_realm():
    result = five({3: 2}, {4: 500})
    assert result["how"] == "times_up" and result["winner"] == "Player#3"
    assert len(set(result["vp"].values())) == 1  # every seat 2 VPs (one lvl 0 Province): the VPs tie


def test_more_realm_beats_a_higher_rank():
    assert five({}, {5: 1}, ranking=P)["winner"] == "Player#5"


def test_more_vps_beat_every_tiebreaker():
    g = position(
        "ring-5",
        5,
        {
            "P1": ("Player#1", 3),
            "P2": ("Player#2", 1, 1),
            "P3": ("Player#3", 1),
            "P4": ("Player#4", 1),
            "P5": ("Player#5", 1),
        },
        realm={**dict.fromkeys(P, 0), "Player#1": 900},
    )
    times_up(g.state)
    assert g.result["winner"] == "Player#2" and g.result["vp"]["Player#2"] == 3  # a lvl 1 Province: 3 VPs


def test_the_province_level_table():
    """rules: 003 Golden Work, work! — Province level 0/1/2/3 produce 50/75/100/150 $Realm and provide 2/3/4/6 VPs."""
    provs = {
        "P1": ("Player#1", 1, 0),
        "P2": ("Player#1", 0, 1),
        "P3": ("Player#1", 0, 2),
        "P4": ("Player#1", 0, 3),
        "P5": ("Player#2", 1),
    }
    g = position("ring-5", 2, provs, realm={"Player#1": 0, "Player#2": 0})
    g.advance(force=True)  # the orders step (default Fortify!), then production
    assert g.state.players["Player#1"].realm == 50 + 75 + 100 + 150
    times_up(g.state)
    assert g.result["vp"] == {"Player#1": 2 + 3 + 4 + 6, "Player#2": 2} and g.result["winner"] == "Player#1"
