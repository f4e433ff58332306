"""The readings the rule text (file 003) leaves open, each a named option in the setup's ``options``
(engine.protectors.state.Options; docs/assumptions.md, "Reading options"). Both values of each are
played here, the default first."""

from __future__ import annotations

import pytest

from engine.errors import ValidationError
from engine.protectors.factions import HODIR, KALUAK, LANNUVAR, ability_flags
from engine.protectors.game import Game
from engine.protectors.state import Options
from engine.protectors.victory import power_threshold, times_up
from tests.protectors.helpers import dragon_attack, event, fight, position
from tests.protectors.test_factions import make

P1, P2, P3, P4 = (f"Player#{i}" for i in range(1, 5))


def test_defaults():
    o = Options()
    assert (o.great_game_rebids, o.hidden_grand_protector, o.team_vp_eliminated, o.deep_snow_dragon,
            o.bloodlust_below_floor, o.grand_boards, o.ashes_burnt, o.worldeater_bonus_min, o.no_quarter_wrath) == (
        True, "next", False, False, True, "double", "elimination", "doubled", True)


@pytest.mark.parametrize(("options", "field"), [
    ({"hidden_grand_protector": "first"}, "options.hidden_grand_protector"),
    ({"grand_boards": 2}, "options.grand_boards"),
    ({"deep_snow_dragon": "yes"}, "options.deep_snow_dragon"),
    ({"no_quarter_wrath": 1}, "options.no_quarter_wrath"),
    ({"ashes": "any"}, "options"),
])
def test_bad_values_name_the_option(options, field):
    with pytest.raises(ValidationError) as e:
        Game({"board": "ring-2", "seed": 0, "players": 2, "options": options})
    assert e.value.field == field


def test_the_view_shows_the_options():
    g = Game({"board": "ring-2", "seed": 0, "players": 2, "options": {"ashes_burnt": "any"}})
    assert g.view(P1)["options"]["ashes_burnt"] == "any"
    assert g.view(P1)["options"]["great_game_rebids"] is True


@pytest.mark.parametrize(("rebids", "first"), [(True, P1), (False, P2)])
def test_great_game_in_turn_one_rebids(rebids, first):
    """rules: 003 The Great Game of politics — "When bidding on the Protector Ranking ... all bids are
    counted as being 15 $Realm higher". 0 (+15) ties 15; re-bids 5 (+15 under the default) and 6."""
    g = Game({"board": "ring-2", "seed": 0, "players": 2,
              "options": {"factions": True, "great_game_rebids": rebids}})
    g.submit(P1, f"Bid 0\nFaction {LANNUVAR}")
    g.submit(P2, f"Bid 15\nFaction {HODIR}")
    g.advance()
    assert g.step == "rebid"
    g.submit(P1, "Bid 5")
    g.submit(P2, "Bid 6")
    g.advance()
    assert g.state.ranking[0] == first


@pytest.mark.parametrize(("reading", "burnt"), [("next", False), ("none", True)])
def test_hidden_kaluak_grand_protector(reading, burnt):
    """rules: 003 Nothing to see here! — the hidden Grand Protector is "removed temporarily from the
    Protector Ranking". Under "next" Player#2 (second) is Grand Protector in this attack: short of
    min.US it loses all $Realm and is spared the Wrath; under "none" it faces the Wrath."""
    g = make("ring-3", {"P1": (P1, 1), "P2": (P2, 1), "P3": (P3, 1)}, factions={P1: KALUAK},
             realm={P1: 200, P2: 100, P3: 0}, ranking=[P1, P2, P3], options={"hidden_grand_protector": reading})
    dragon_attack(g, 5)
    fight(g, {P1: "Nothing to see here!", P3: "1 from P3"})
    st = g.state
    assert st.provinces["P2"].burnt is burnt and st.players[P2].eliminated is burnt
    if not burnt:
        assert st.players[P2].realm == 0


@pytest.mark.parametrize(("counted", "winner"), [(False, "B"), (True, "A")])
def test_team_times_up_and_eliminated_members(counted, winner):
    """rules: 003 Team Games, Time's Up! — "calculate the VPs for each team member individually": the
    eliminated Player#2 earned 10 VPs against the Dragon; team A has 2 more from P1, team B 4."""
    g = position("ring-4", 4, {"P1": (P1, 1), "P3": (P3, 1), "P4": (P4, 1)}, teams=["A", "A", "B", "B"],
                 options={"teams": True, "team_vp_eliminated": counted}, vp={P2: 10})
    assert g.state.players[P2].eliminated and g.state.players[P2].vp == 10
    times_up(g.state)
    assert g.state.result["winner"] == winner


@pytest.mark.parametrize(("deep_snow", "won"), [(False, False), (True, True)])
def test_deep_snow_in_a_dragon_fight(deep_snow, won):
    """rules: 003 Deep Snow — "All Attackers suffer -1": 3 US against DPL 3 wins only if the Dragon is
    an Attacker (DPL 2)."""
    g = position("ring-7", 2, {"P1": (P1, 3), "P5": (P2, 0)}, cards=("Deep Snow",),
                 options={"deep_snow_dragon": deep_snow})
    dragon_attack(g, 3)
    ev = fight(g, {P1: "3 from P1"})
    battle = event(ev, "dragon_battle").data
    assert battle["won"] is won and battle["dpl"] == (2 if deep_snow else 3)


def test_deep_snow_never_takes_the_dragon_below_one():
    g = position("ring-7", 2, {"P1": (P1, 1), "P5": (P2, 0)}, cards=("Deep Snow",),
                 options={"deep_snow_dragon": True})
    dragon_attack(g, 1)
    assert event(fight(g, {}), "dragon_battle").data["dpl"] == 1


@pytest.mark.parametrize(("below", "threshold"), [(True, 1), (False, 7)])
def test_bloodlust_below_the_normal_floor(below, threshold):
    """rules: 003 Bloodlust! — 3 of 7 eliminated this turn: 2 x (7 - 3) = 8, minus 3 x 7 under
    Bloodlust! (never below 1); the Normal floor is 7."""
    g = position("ring-7", 7, {f"P{i}": (f"Player#{i}", 1) for i in range(1, 5)},
                 options={"bloodlust_below_floor": below})
    g.state.eliminated_this_turn = ["Player#5", "Player#6", "Player#7"]
    assert power_threshold(g.state) == 8
    assert power_threshold(g.state, bloodlust=True) == threshold


def test_grand_boards_double_by_default():
    with pytest.raises(ValidationError, match="grand_boards") as e:
        Game({"board": "ring-10", "seed": 0, "players": 7})
    assert e.value.field == "players"  # no options.version in the setup: the players and the board disagree
    with pytest.raises(ValidationError, match="at least 2x"):
        Game({"board": "ring-10", "seed": 0, "players": 7, "options": {"version": "grand"}})


@pytest.mark.parametrize(("board", "seats"), [("ring-8-grand", 8), ("ring-16-grand+island", 16), ("ring-7", 7)])
def test_a_grand_boards_name_says_how_many_seats(board, seats):
    # gm-guide: "ring-N-grand (a Grand game: 2N Provinces for N players)"; without "players" it made 2N seats
    # of a Normal game (and failed at 16: 32 players)
    g = Game({"board": board, "seed": 0})
    assert len(g.state.players) == seats
    assert g.state.options.version == ("grand" if "grand" in board else "normal")


def test_a_normal_game_on_a_grand_board_names_the_version_as_the_fix():
    with pytest.raises(ValidationError, match="Grand board for 8 players: set the version to 'grand'") as e:
        Game({"board": "ring-8-grand", "seed": 0, "players": 8, "options": {"version": "normal"}})
    assert "grand_boards" not in str(e.value)


def test_grand_boards_more_than_players():
    """rules: 003 introduction — "A Grand game has more Provinces than there are players"."""
    g = Game({"board": "ring-10", "seed": 0, "players": 7, "options": {"grand_boards": "more"}})
    assert g.state.options.version == "grand"
    with pytest.raises(ValidationError, match="more Provinces than players"):
        Game({"board": "ring-7", "seed": 0, "players": 7, "options": {"grand_boards": "more", "version": "grand"}})


@pytest.mark.parametrize(("reading", "eliminating", "upgraded"), [
    ("elimination", True, True), ("elimination", False, False), ("any", True, True), ("any", False, True)])
def test_ashes_of_power_which_burnt_provinces(reading, eliminating, upgraded):
    """rules: 003 Ashes of Power — "controls a burnt-out Province (left behind from the Dragon eliminating a
    player)". Player#2 falls 1 short of min.US and loses P2 to the Wrath: its last green Province (it is
    eliminated) or not (it still holds P3)."""
    provs = {"P1": (P1, 2), "P2": (P2, 0), "P5": (P3, 1)}
    if not eliminating:
        provs["P3"] = (P2, 1)
    g = make("ring-6", provs, players=3, factions={P1: KALUAK}, realm={P1: 0, P2: 0, P3: 0},
             ranking=[P3, P2, P1], options={"ashes_burnt": reading})
    dragon_attack(g, 10)  # below the Worldeater's 18
    fight(g, {P1: "1 from P1", P2: "1 from P3" if not eliminating else ""})
    st = g.state
    assert st.provinces["P2"].burnt and st.players[P2].eliminated is eliminating
    assert ("P2" in st.ashes) is eliminating
    assert g.view(P3)["ashes"] == (["P2"] if eliminating else [])
    st.provinces["P2"].owner = P1  # the Kalu'Ak takes the burnt Province
    assert ("ashes_of_power" in ability_flags(st, P1)) is upgraded


@pytest.mark.parametrize(("reading", "realm", "vp"), [("doubled", 200, 3), ("normal", 200 + 30 * 6, 3 + 2)])
def test_worldeater_bonus(reading, realm, vp):
    """rules: 003 The Mythical Worldeater — "a player that owns 3 green Provinces will have a min.US of 6
    ... and earn 200 $Realm". Player#1 commits 9: under "doubled" that is below 2 x 6, no bonus; under
    "normal" it is 3 x 3 (2 VPs and 30 per US above 3)."""
    g = position("ring-5+island", 2, {"P1": (P1, 3), "P2": (P1, 3), "P3": (P1, 3),
                                      "P4": (P2, 3), "P5": (P2, 3), "P0": (P2, 1)},
                 realm={P1: 0, P2: 0}, options={"worldeater_bonus_min": reading})
    dragon_attack(g, 15)
    assert g.state.attack.worldeater
    ev = fight(g, {P1: "3 from P1\n3 from P2\n3 from P3", P2: "3 from P4\n3 from P5"})
    assert event(ev, "dragon_battle").data["won"]
    assert g.state.players[P1].realm == realm and g.state.players[P1].vp == vp  # 3: Grand Protector


@pytest.mark.parametrize("wrath", [True, False])
def test_no_quarter_and_the_wrath(wrath):
    """rules: 003 outcomes table and No Quarter! — "instead" replaces the drop; the Wrath still burns (default)."""
    seats = [f"Player#{i}" for i in (1, 2, 3)]
    g = position("ring-7", 3, {"P1": ("Player#1", 2), "P2": ("Player#2", 2), "P5": ("Player#3", 2),
                               "P6": ("Player#3", 1)}, ranking=seats, realm=dict.fromkeys(seats, 0),
                 options={"no_quarter_wrath": wrath})
    dragon_attack(g, 20)
    fight(g, {"Player#1": "1 from P1", "Player#2": "1 from P2"})
    st = g.state
    assert st.players["Player#3"].eliminated and st.players["Player#3"].eliminated_by == "dragon"
    assert [st.provinces[q].burnt for q in ("P5", "P6")] == [wrath, wrath]
    assert all(st.provinces[q].owner is None for q in ("P5", "P6"))
    assert any(e.kind == "no_quarter" for e in st.events)  # named either way


def test_a_game_stored_before_a_reading_existed_replays_as_it_was_played():
    """setup.LEGACY_READINGS: a new game writes no_quarter_wrath into its setup; a stored record without it
    (made before session 17) replays under the old reading, so a running game brought in plays on exactly."""
    import msgpack

    g = Game({"board": "ring-4", "seed": 1, "players": 4})
    assert g.setup["options"]["no_quarter_wrath"] is True
    assert Game.from_blob(g.to_blob()).state.options.no_quarter_wrath is True
    old = msgpack.unpackb(g.to_blob(), raw=False, strict_map_key=False)
    del old["setup"]["options"]["no_quarter_wrath"]
    assert Game.from_blob(msgpack.packb(old, use_bin_type=True)).state.options.no_quarter_wrath is False
    chosen = Game({"board": "ring-4", "seed": 1, "players": 4, "options": {"no_quarter_wrath": False}})
    assert Game.from_blob(chosen.to_blob()).state.options.no_quarter_wrath is False
