"""rules: 003 Factions — every faction ability, its cost, its once-per-game use and its interactions.

Positions are compact literals: set position -> submit DMs -> advance -> assert.
"""

from __future__ import annotations

import re

import pytest

from engine.errors import IllegalOrderError, PhaseError
from engine.protectors import cards as C
from engine.protectors.cards import CARD_DECK
from engine.protectors.decisions import ConsolidationDecision, OrdersDecision
from engine.protectors.factions import CENARION, HODIR, IRON_LIGHT, KALUAK, LANNUVAR, ability_flags
from engine.protectors.game import Game
from engine.protectors.report import private_summary
from engine.protectors.tables import mountain_king_us
from tests.protectors.helpers import dragon_attack, event, fight


def make(board, provinces, *, factions=None, players=None, teams=None, phase="orders", turn=2, realm=None,
         ranking=None, dpl=0, cards=(), seed=0, options=None, **pos) -> Game:
    """A game with factions at ``phase`` of ``turn``. ``provinces``: {"P1": ("Player#1", units[, level[,
    burnt]])}; ``factions``: {"Player#1": "Kalu'Ak"}."""
    provs = {}
    for p, spec in provinces.items():
        owner, units, *rest = spec
        provs[p] = {"owner": owner, "units": units, "level": rest[0] if rest else 0,
                    "burnt": rest[1] if len(rest) > 1 else False}
    m = re.fullmatch(r"ring-(\d+).*", board) if isinstance(board, str) else None
    n = players or (int(m.group(1)) if m else max(int(s.split("#")[1]) for s in {v[0] for v in provinces.values()}))
    seats = [f"Player#{i}" for i in range(1, n + 1)]
    owners = {v[0] for v in provinces.values()}
    active = [s for s in seats if s in owners]
    roster = [{"seat": s, "faction": (factions or {}).get(s), "team": teams[i] if teams else None}
              for i, s in enumerate(seats)]
    opts = {"factions": True, **(options or {})}
    setup = {"board": board, "seed": seed, "players": roster, "options": opts,
             "position": {"turn": turn, "phase": phase, "provinces": provs, "dpl": dpl,
                          "ranking": ranking or active, "realm": realm or dict.fromkeys(active, 0),
                          "eliminated": [s for s in seats if s not in owners], **pos}}
    game = Game(setup)
    if cards:
        game.state.cards_this_turn = [(CARD_DECK[c], c) for c in cards]
    return game


def orders(game: Game, dms: dict) -> list:
    for seat in game.deciding_seats():
        if seat not in game.state.submissions:
            game.submit(seat, dms.get(seat, OrdersDecision()))
    return game.advance()


def next_orders(game: Game, dms: dict | None = None) -> None:
    """Finish the Consolidation (given DMs, else "Bid 0": no buying) and run on to the next orders."""
    for seat in game.deciding_seats():
        game.submit(seat, (dms or {}).get(seat, "Bid 0"))
    game.advance()
    while game.step != "orders":
        game.advance(force=True)


def names(game: Game, seat: str) -> set[str]:
    return {a.name for a in game.legal_abilities(seat)}


P1, P2, P3, P4 = "Player#1", "Player#2", "Player#3", "Player#4"


class TestFactionChoice:
    def test_chosen_with_the_turn_one_bid_known_to_all_random_for_the_silent(self):
        g = Game({"board": "ring-3", "seed": 4, "players": 3, "options": {"factions": True}})
        g.submit(P1, "Bid 5\nFaction Hodir")
        g.submit(P2, "Bid 3\nFaction Kalu'Ak")
        g.advance(force=True)  # Player#3 silent: a random faction
        st = g.state
        assert st.players[P1].faction == HODIR and st.players[P2].faction == KALUAK
        assert st.players[P3].faction in (CENARION, KALUAK, HODIR, IRON_LIGHT, LANNUVAR)
        for viewer in (P1, P2, P3):
            assert g.view(viewer)["players"][P1]["faction"] == HODIR

    def test_random_assignment_refuses_a_choice_and_deals_factions(self):
        picked = set()
        for seed in range(12):
            g = Game({"board": "ring-2", "seed": seed, "players": 2,
                      "options": {"factions": True, "faction_choice": "random"}})
            with pytest.raises(IllegalOrderError, match="dealt at random in this game"):
                g.submit(P1, "Bid 0\nFaction Hodir")  # said, not ignored without a word
            g.submit(P1, "Bid 0")
            g.advance(force=True)
            picked.add(g.state.players[P1].faction)
        assert len(picked) > 1

    def test_a_faction_the_setup_gives_is_not_chosen_again_in_the_turn_one_dm(self):
        # FACTION_FROM_SETUP: the setup's faction is the GM's record of the player's choice; a DM naming another was
        # taken over it without a word (dogfood walk: Heidi, Kalu'Ak in setup.json, became Hodir from 'I bid 2, Hodir')
        players = [{"seat": P1, "faction": "Kalu'Ak"}, {"seat": P2}]
        g = Game({"board": "ring-2", "seed": 3, "players": players, "options": {"factions": True}})
        with pytest.raises(IllegalOrderError, match="your faction is Kalu'Ak, given in the game's setup"):
            g.submit(P1, "I bid 2, Hodir")
        assert P1 not in g.state.submissions
        g.submit(P1, "Bid 2\nFaction Kalu'Ak")  # the same faction again is no change
        g.submit(P2, "Bid 1\nFaction Hodir")  # the setup left P2's open
        g.advance()
        assert g.state.players[P1].faction == KALUAK and g.state.players[P2].faction == HODIR

    def test_the_policy_and_the_random_player_choose_a_faction_only_where_the_seat_may(self):
        from agents.random_agent import RandomAgent
        from agents.spaces.planner import make_planner
        from engine.protectors.seat import SeatContext

        players = [{"seat": P1, "faction": "Hodir"}, {"seat": P2}]
        g = Game({"board": "ring-2", "seed": 5, "players": players, "options": {"factions": True}})
        assert make_planner(g.state, P1).stage == "bid" and make_planner(g.state, P2).stage == "faction"
        for seed in range(20):
            for seat in (P1, P2):
                d = RandomAgent(seed).act(SeatContext(g, seat))
                assert (d.faction is None) == (seat == P1)

    def test_no_faction_line_without_factions(self):
        g = Game({"board": "ring-2", "seed": 1, "players": 2})
        with pytest.raises(IllegalOrderError, match="games with factions"):
            g.submit(P1, "Bid 0\nFaction Hodir")


class TestCenarion:
    def _attack(self, faction):
        # Player#2 (ranked first) marches 2 into the Fortified P1 of Player#1
        g = make("ring-4", {"P1": (P1, 1), "P2": (P2, 2), "P3": (P3, 1)},
                 factions={P1: faction}, ranking=[P2, P1, P3])
        return orders(g, {P1: "Fortify! P1", P2: "March! 2 from P2 to P1"})

    def test_defenders_of_the_realm_fortify_gives_two(self):
        assert event(self._attack(CENARION), "battle").data["winner"] == P1  # 1+2 = 3 vs 2
        assert event(self._attack(HODIR), "battle").data["winner"] == P2  # 1+1 = 2 vs 2: rank

    def _dragon(self, realm=400, dpl=10):
        g = make("ring-3", {"P1": (P1, 2), "P2": (P2, 1), "P3": (P3, 1)}, factions={P1: CENARION},
                 realm={P1: realm, P2: 0, P3: 0})
        return dragon_attack(g, dpl)

    def test_fight_fire_with_fire_five(self):
        g = self._dragon()
        assert {a.value for a in g.legal_abilities(P1) if a.name == "fight_fire_with_fire"} == set(range(1, 10))
        ev = fight(g, {P1: "1 from P1\nFight fire with fire: 5"})
        b = event(ev, "dragon_battle")
        assert b.data["contributions"][P1]["us"] == 6 and b.data["protector_us"] == 6
        assert g.state.players[P1].realm == 400 - 175  # 5 x 35; the Dragon won (6 <= 10): no reward
        assert "fight_fire_with_fire" in g.state.players[P1].used

    def test_full_council_gives_thirteen_and_wins(self):
        g = self._dragon()
        ev = fight(g, {P1: "Fight fire with fire: 9"})
        b = event(ev, "dragon_battle")
        assert b.data["contributions"][P1]["us"] == 13 and b.data["won"]
        # DPL 10 >= 3 x 3 Provinces: the Worldeater, min.US 2 (1 green Province, doubled). The council's 13 US are
        # the player's "total US" (003 Cenarion): the reward for 1 green Province (100), and 13 >= 3 x min.US
        # earns the 2 VP and 30 per US above min.US (003 Other events 2b: 30 x 11); the most above: Grand Protector
        assert g.state.players[P1].realm == 400 - 315 + 100 + 30 * (13 - 2)
        assert g.state.players[P1].vp == 2 + 3 and g.state.ranking[0] == P1

    def test_once_per_game_and_affordable(self):
        g = self._dragon(realm=100, dpl=2)
        assert {a.value for a in g.legal_abilities(P1) if a.name == "fight_fire_with_fire"} == {1, 2}
        with pytest.raises(IllegalOrderError, match="costs 105"):
            g.submit(P1, "Fight fire with fire: 3")
        with pytest.raises(IllegalOrderError, match="1 to 9"):
            g.submit(P1, "Fight fire with fire: 10")
        fight(g, {P1: "Fight fire with fire: 1", P2: "1 from P2", P3: "1 from P3"})
        g.state.players[P1].realm = 500
        dragon_attack(g, 3)
        assert "fight_fire_with_fire" not in names(g, P1)
        with pytest.raises(IllegalOrderError, match="once per game"):
            g.submit(P1, "Fight fire with fire: 1")

    def test_other_factions_cannot(self):
        g = make("ring-2", {"P1": (P1, 1), "P2": (P2, 1)}, factions={P1: HODIR}, realm={P1: 400, P2: 0})
        dragon_attack(g, 5)
        with pytest.raises(IllegalOrderError, match="Cenarion"):
            g.submit(P1, "Fight fire with fire: 1")


class TestKaluAkWeatherForecast:
    def _game(self, realm=100, burnt=False, **kw):
        provs = {"P1": (P1, 1), "P2": (P2, 1), "P3": (P3, 1)}
        if burnt:
            provs["P4"] = (P1, 0, 0, True)
        return make("ring-4" if burnt else "ring-3", provs,
                    factions={P1: KALUAK}, realm={P1: realm, P2: 0, P3: 0}, **kw)

    def test_event_peek_each_orders_step_private_to_the_seat(self):
        g = self._game()
        assert g.step == "orders"
        top = g.state.decks[C.EVENT].draw[0]
        assert g.view(P1)["peeks"] == [{"deck": "event", "card": top, "by": "Weather forecast",
                                        "text": f"Weather forecast: the top card of the Event deck is {top}."}]
        assert g.view(P2)["peeks"] == [] and top not in str(g.view(P2)["peeks"])
        assert [e.data["card"] for e in g.events(P1) if e.kind == "peek"] == [top]
        assert not [e for e in g.events(P2) if e.kind == "peek"]
        assert "Weather forecast" not in g.report()  # the GM's public report
        assert g.view()["peeks"][P1][0]["card"] == top  # the GM sees it
        # next turn: a new look at the (new) top card
        orders(g, {})
        g.advance(force=True)
        assert g.step == "orders" and g.state.turn == 3
        top = g.state.decks[C.EVENT].draw[0]
        assert g.view(P1)["peeks"] == [{"deck": "event", "card": top, "by": "Weather forecast",
                                        "text": f"Weather forecast: the top card of the Event deck is {top}."}]

    def test_dragon_deck_once_per_game_for_15_before_the_orders(self):
        g = self._game()
        top = g.state.decks[C.DRAGON].draw[0]
        assert "peek_dragon" in names(g, P1) and "peek_dragon" not in names(g, P2)
        g.submit(P1, "Weather forecast: There be Dragons?")  # a look, not yet the orders
        assert g.state.players[P1].realm == 85
        assert [p["card"] for p in g.view(P1)["peeks"] if p["deck"] == "dragon"] == [top]
        assert not g.view(P2)["peeks"]
        assert g.pending(P1)[0].submitted is False and "peek_dragon" not in names(g, P1)
        g.submit(P1, "Fortify! P1")  # the orders themselves
        assert g.pending(P1)[0].submitted
        with pytest.raises(IllegalOrderError):
            Game.from_blob(g.to_blob()).submit(P2, "Weather forecast: There be Dragons?")

    def test_asking_for_the_forecast_is_accepted(self):
        g = self._game()
        g.submit(P1, "Weather forecast")
        assert g.state.players[P1].realm == 100 and not g.pending(P1)[0].submitted
        with pytest.raises(IllegalOrderError, match="Weather forecast"):
            g.submit(P2, "Weather forecast")

    def test_peek_replays_from_the_blob(self):
        g = self._game()
        g.submit(P1, "Weather forecast: There be Dragons?")
        again = Game.from_blob(g.to_blob())
        assert again.view(P1)["peeks"] == g.view(P1)["peeks"] and again.state.players[P1].realm == 85

    def test_cannot_afford(self):
        g = self._game(realm=10)
        assert "peek_dragon" not in names(g, P1)
        with pytest.raises(IllegalOrderError, match="costs 15"):
            g.submit(P1, "Weather forecast: There be Dragons?")


class TestAshesOfPower:
    def _game(self, event_top=C.CALMS_OF_SUMMER, dragon_top=C.MISTY_MOUNTAINS, burnt=True):
        ev = list(C.DECK_CONTENTS[C.EVENT])
        ev.remove(event_top)
        ev = [event_top, *ev]
        dr = list(C.DECK_CONTENTS[C.DRAGON])
        dr.remove(dragon_top)
        provs = {"P1": (P1, 1), "P2": (P2, 1), "P3": (P3, 1), "P4": (P1 if burnt else P3, 0, 0, burnt)}
        # the imported burnt P4 was not burnt by an eliminating Wrath: count every burnt Province
        # (tests/protectors/test_reading_options.py tests the default reading)
        return make("ring-4", provs, factions={P1: KALUAK}, realm={P1: 500, P2: 0, P3: 0},
                    decks={"event": ev, "dragon": [dragon_top, *dr]}, options={"ashes_burnt": "any"})

    def test_upgraded_while_holding_a_burnt_province(self):
        assert "ashes_of_power" in ability_flags(self._game().state, P1)
        assert "ashes_of_power" not in ability_flags(self._game(burnt=False).state, P1)

    def test_discard_the_top_event_card_to_the_bottom(self):
        g = self._game(event_top=C.FLOOD)
        assert "discard_event" in names(g, P1)
        g.submit(P1, "Discard the top Event card")
        draw = g.state.decks[C.EVENT].draw
        assert draw[-1] == C.FLOOD and draw[0] != C.FLOOD
        assert "discard_event" not in names(g, P1)  # once per look

    @pytest.mark.parametrize("card", [C.BLACK_SWAN, C.POWER_OVERWHELMING])
    def test_black_swan_and_power_overwhelming_stay(self, card):
        g = self._game(event_top=card)
        assert "discard_event" not in names(g, P1)
        with pytest.raises(IllegalOrderError, match="may not be discarded"):
            g.submit(P1, "Discard the top Event card")

    def test_not_without_a_burnt_province(self):
        g = self._game(burnt=False)
        with pytest.raises(IllegalOrderError, match="Ashes of Power"):
            g.submit(P1, "Discard the top Event card")

    def test_replace_a_dragon_card_with_there_be_dragons(self):
        g = self._game(dragon_top=C.BLOODLUST)
        assert "replace_dragon" not in names(g, P1)  # not looked at yet
        g.submit(P1, "Weather forecast: There be Dragons?")
        assert "replace_dragon" in names(g, P1)
        g.submit(P1, "Replace with There be Dragons!")
        deck = g.state.decks[C.DRAGON]
        assert deck.draw[0] == C.THERE_BE_DRAGONS
        assert deck.draw.count(C.THERE_BE_DRAGONS) == 3 and deck.draw.count(C.BLOODLUST) == 1
        assert [e for e in g.events(P1) if e.data.get("removed") == C.BLOODLUST]
        assert not [e for e in g.events(P2) if e.kind == "peek"]

    def test_look_and_replace_in_one_message(self):
        g = self._game(dragon_top=C.MISTY_MOUNTAINS)
        g.submit(P1, "Weather forecast: There be Dragons?\nReplace with There be Dragons!\nFortify! P1")
        assert g.state.decks[C.DRAGON].draw[0] == C.THERE_BE_DRAGONS and g.pending(P1)[0].submitted

    def test_look_and_none_in_one_message(self):
        # a look acts at once; 'none' beside it is the seat's orders: no orders this turn
        g = self._game(dragon_top=C.MISTY_MOUNTAINS)
        lines = g.submit(P1, "Weather forecast: There be Dragons?\nnone")
        assert g.pending(P1)[0].submitted and g.state.submissions[P1] == OrdersDecision()
        assert [e for e in g.events(P1) if e.kind == "peek"]
        assert lines[0].startswith("Weather forecast")
        replayed = Game.from_blob(g.to_blob())  # the record replays to the same stored decision
        assert replayed.state.submissions == g.state.submissions and replayed.pending(P1)[0].submitted

    def test_look_alone_still_leaves_the_orders_to_come(self):
        g = self._game(dragon_top=C.MISTY_MOUNTAINS)
        g.submit(P1, "Weather forecast: There be Dragons?")
        assert not g.pending(P1)[0].submitted

    def test_no_replacing_there_be_dragons(self):
        g = self._game(dragon_top=C.THERE_BE_DRAGONS)
        g.submit(P1, "Weather forecast: There be Dragons?")
        with pytest.raises(IllegalOrderError, match="already is There be Dragons"):
            g.submit(P1, "Replace with There be Dragons!")

    def test_reverts_when_the_burnt_province_is_lost(self):
        # Player#3 marches into the empty burnt P4 of the Kalu'Ak: from the Consolidation on, no upgrade
        g = self._game(event_top=C.FLOOD)
        g.state.provinces["P3"].units = 2
        assert "discard_event" in names(g, P1)
        orders(g, {P3: "March! 1 from P3 to P4"})
        assert g.state.provinces["P4"].owner == P3
        assert "ashes_of_power" not in ability_flags(g.state, P1)
        g.state.attack = None
        dragon_attack(g, 3)
        assert g.legal_abilities(P1) and g.state.players[P1].realm >= 25
        fight(g, {P1: "Nothing to see here!"})
        hide = [d for _, s, d, rule in g.state.ledger if s == P1 and "Nothing to see here" in rule]
        assert hide == [-25]  # 25 per Province again (1 Province)


class TestNothingToSeeHere:
    def _game(self, burnt=False, realm=200):
        provs = {"P1": (P1, 1), "P2": (P2, 1), "P3": (P3, 1), "P4": (P1, 1, 0, burnt)}
        g = make("ring-4-grand", provs, factions={P1: KALUAK}, realm={P1: realm, P2: 0, P3: 0},
                 ranking=[P2, P1, P3], options={"ashes_burnt": "any"})  # an imported burnt P4
        return dragon_attack(g, 11)  # below the Worldeater (12)

    def test_hides_from_the_dragon_and_returns_to_its_rank(self):
        g = self._game()
        ev = fight(g, {P1: "Nothing to see here!", P2: "1 from P2", P3: "1 from P3"})
        assert g.state.players[P1].realm == 200 - 2 * 25
        assert P1 not in event(ev, "dragon_battle").data["contributions"]
        assert not event(ev, "dragon_battle").data["won"]
        assert g.state.provinces["P1"].owner == P1 and not g.state.provinces["P1"].burnt  # no Wrath
        assert g.state.active() == [P2, P1, P3]  # back in its place
        assert "nothing_to_see_here" in g.state.players[P1].used
        dragon_attack(g, 11)
        assert "nothing_to_see_here" not in names(g, P1)
        with pytest.raises(IllegalOrderError, match="already used: a Kalu'Ak player may hide once per game"):
            g.submit(P1, "Nothing to see here!")  # said as spent, not as "only a Kalu'Ak player may"

    def test_a_new_grand_protector_keeps_first_place(self):
        provs = {"P1": (P1, 1), "P2": (P2, 3), "P3": (P3, 1)}
        g = make("ring-3", provs, factions={P1: KALUAK}, realm={P1: 200, P2: 0, P3: 0}, ranking=[P1, P2, P3])
        dragon_attack(g, 2)
        fight(g, {P1: "Nothing to see here!", P2: "3 from P2", P3: "1 from P3"})
        assert g.state.active() == [P2, P1, P3]

    def test_instead_of_committing(self):
        g = self._game()
        with pytest.raises(IllegalOrderError, match="instead of committing"):
            g.submit(P1, "1 from P1\nNothing to see here!")

    def test_cost_per_province_must_be_affordable(self):
        g = self._game(realm=49)
        assert "nothing_to_see_here" not in names(g, P1)
        with pytest.raises(IllegalOrderError, match="costs 50"):
            g.submit(P1, "Nothing to see here!")

    def test_ashes_of_power_45_per_province_and_repeatable(self):
        g = self._game(burnt=True, realm=500)
        fight(g, {P1: "Nothing to see here!", P2: "1 from P2", P3: "1 from P3"})
        assert g.state.players[P1].realm == 500 - 2 * 45
        assert "nothing_to_see_here" not in g.state.players[P1].used
        dragon_attack(g, 11)
        assert "nothing_to_see_here" in names(g, P1)


class TestHodirMerchants:
    def test_work_income_plus_80_percent(self):
        for faction, expected in ((HODIR, 50 + 90), (CENARION, 50 + 50)):
            g = make("ring-2", {"P1": (P1, 1), "P2": (P2, 1)}, factions={P1: faction})
            orders(g, {P1: "Work, work! P1"})
            assert g.state.players[P1].realm == expected


class TestMountainKing:
    def _game(self, realm, attackers=2, ranking=(P1, P2), **kw):
        g = make("ring-3", {"P1": (P1, 1), "P2": (P2, attackers), "P3": (P3, 1)}, factions={P1: HODIR},
                 realm={P1: realm, P2: 0, P3: 0}, ranking=[*ranking, P3], **kw)
        return g, orders(g, {P2: f"March! {attackers} from P2 to P1"})

    @pytest.mark.parametrize("realm,us", [(0, 1), (50, 1), (51, 2), (150, 2), (151, 3), (300, 3), (301, 4)])
    def test_defender_table(self, realm, us):
        assert mountain_king_us(realm) == us

    def test_saves_the_hodir_gifts_a_unit_and_takes_half(self):
        g, ev = self._game(realm=200)  # His Regards: 3 US vs 2
        mk = [e for e in ev if e.data.get("mountain_king")]
        assert mk and mk[0].data["winner"] == P1
        assert g.state.provinces["P1"].owner == P1 and g.state.provinces["P1"].units == 1
        assert not g.state.players[P1].eliminated and g.state.units_of(P2) == 0
        tribute = event(ev, "mountain_king_tribute")
        assert tribute.data == {"seat": P1} and tribute.text == ("Player#1 is saved and pays the Mountain King a "
                                                                 "tribute of half its $Realm. Long live the King under "
                                                                 "the Mountains!")
        # the amount is half the Hodir's balance: told to the Hodir alone
        paid = event(ev, "tribute_paid")
        assert paid.data["tribute"] == 100 and paid.visible_to == {P1}
        assert "100 $Realm" in g.report(turn=2, seat=P1) and "100 $Realm" not in g.report(turn=2, seat=P2)
        assert "mountain_king" in g.state.players[P1].used
        # the intruder's summary and the turn's picture name the Mountain King, never his event id
        summary = private_summary(g, P2)
        assert "lost the battle in P1 (2 US vs the Mountain King 3 US)" in summary and "mountain_king" not in summary
        from service.render import board_scene

        story = "\n".join(board_scene(g, None, turn=2, view="gm").story)
        assert "Battle P1: the Mountain King 3 vs #2 Player#2 2 US; the Mountain King wins" in story
        assert board_scene(g, None, 2, "gm").battles[0].text.startswith("\u2605MK 3:2 #2")

    def test_the_king_loses(self):
        g, ev = self._game(realm=0)  # 1 US vs 2
        assert g.state.players[P1].eliminated and g.state.provinces["P1"].owner == P2
        assert not [e for e in ev if e.kind == "mountain_king_tribute"]

    def test_tie_goes_to_the_ranking_of_the_hodir(self):
        g, _ = self._game(realm=100)  # 2 vs 2, the Hodir ranked first: His Regards wins but falls
        assert g.state.provinces["P1"].owner == P1 and g.state.provinces["P1"].units == 0
        assert not g.state.players[P1].eliminated
        g, _ = self._game(realm=100, ranking=(P2, P1))
        assert g.state.players[P1].eliminated

    def test_an_intruder_winning_on_a_tie_loses_its_unit_and_the_text_says_so(self):
        """dogfood s17 rules #6: 1 US vs 1 US, the intruder ranked higher: it wins on the Protector Ranking,
        loses 1 unit (its only one) and takes nothing, so the Hodir is saved."""
        g = make("ring-3", {"P1": (P1, 0), "P2": (P2, 1), "P3": (P3, 1)}, factions={P1: HODIR},
                 realm={P1: 0, P2: 0, P3: 0}, ranking=[P2, P1, P3])
        ev = orders(g, {P2: "March! 1 from P2 to P1"})
        battle = next(e for e in ev if e.data.get("mountain_king"))
        assert battle.text == ("Battle in P1: the Mountain King 1 US vs Player#2 1 US; Player#2 wins on the "
                               "Protector Ranking and loses 1 unit; His Regards falls; no unit of Player#2 is "
                               "left in P1 to take it.")
        assert not g.state.players[P1].eliminated and g.state.provinces["P1"].owner == P1
        assert event(ev, "mountain_king_tribute").text.startswith("Player#1 is saved")
        assert ("- March! 1 from P2 to P1: marched 1 to P1; won the battle in P1 (1 US vs the Mountain King 1 US) "
                "on the Protector Ranking, losing 1 unit") in private_summary(g, P2).splitlines()

    def test_the_battle_text_says_what_each_side_lost(self):
        _, ev = self._game(realm=200)  # 3 vs 2
        assert next(e for e in ev if e.data.get("mountain_king")).text.endswith(
            "; the Mountain King wins; Player#2 loses 2; 1 unit is gifted to Player#1.")
        _, ev = self._game(realm=100)  # 2 vs 2, the Hodir ranked first
        assert next(e for e in ev if e.data.get("mountain_king")).text.endswith(
            "; the Mountain King wins on the Protector Ranking and loses His Regards; Player#2 loses 2; no unit is "
            "gifted to Player#1.")
        _, ev = self._game(realm=0, attackers=3)  # 1 vs 3
        assert next(e for e in ev if e.data.get("mountain_king")).text.endswith("; Player#2 wins; His Regards falls.")

    def test_every_contested_province(self):
        provs = {"P1": (P1, 1), "P2": (P2, 2), "P3": (P3, 2), "P4": (P1, 0)}
        g = make("ring-4", provs, factions={P1: HODIR}, realm={P1: 400, P2: 0, P3: 0})
        ev = orders(g, {P2: "March! 2 from P2 to P1", P3: "March! 2 from P3 to P4"})
        assert event(ev, "mountain_king").data["provinces"] == ["P1", "P4"]
        assert [g.state.provinces[p].units for p in ("P1", "P4")] == [1, 1]  # 4 US each time, 1 gifted
        assert event(ev, "tribute_paid").data["tribute"] == 200

    def test_once_per_game(self):
        g, _ = self._game(realm=200, used_abilities={P1: ["mountain_king"]})
        assert g.state.players[P1].eliminated

    def test_not_when_the_hodir_is_not_about_to_be_eliminated(self):
        g = make("ring-4", {"P1": (P1, 1), "P2": (P2, 2), "P3": (P3, 1), "P4": (P1, 1)},
                 factions={P1: HODIR}, realm={P1: 400, P2: 0, P3: 0})
        ev = orders(g, {P2: "March! 2 from P2 to P1"})
        assert not [e for e in ev if e.kind == "mountain_king"]
        assert g.state.provinces["P1"].owner == P2

    def _offer_game(self, capture_new=False):
        provs = {"P1": (P1, 1, 3), "P2": (P2, 3), "P3": (P3, 1), "P4": (P1, 2),
                 "P5": (P3, 0, 3 if capture_new else 0), "P6": (P3, 1)}
        g = make("ring-6", provs, players=3, factions={P1: HODIR}, realm={P1: 300, P2: 0, P3: 0},
                 ranking=[P2, P1, P3], phase="consolidation")
        return g

    def test_the_protection_offer(self):
        g = self._offer_game()
        assert "mountain_king_offer" in names(g, P1) and "mountain_king_offer" not in names(g, P2)
        next_orders(g, {P1: "The Mountain King's protection"})
        assert g.state.players[P1].realm == 250 and g.state.players[P1].offer_turn == 3
        ev = orders(g, {P2: "March! 2 from P2 to P1"})
        mk = [e for e in ev if e.kind == "mountain_king"]
        assert mk and mk[0].data["provinces"] == ["P1"] and mk[0].data["us"] == 3  # only the lvl 3 Province
        assert g.state.provinces["P1"].owner == P1 and g.state.provinces["P1"].units == 1  # 3 US vs 2
        assert event(ev, "tribute_paid").data["tribute"] == 125

    def test_without_the_offer_losing_the_capitol_does_not_trigger(self):
        g = self._offer_game()
        next_orders(g)
        ev = orders(g, {P2: "March! 2 from P2 to P1"})
        assert not [e for e in ev if e.kind == "mountain_king"] and g.state.provinces["P1"].owner == P2

    def test_not_when_a_new_lvl_3_is_captured_the_same_turn(self):
        g = self._offer_game(capture_new=True)
        next_orders(g, {P1: "The Mountain King's protection"})
        ev = orders(g, {P2: "March! 2 from P2 to P1", P1: "March! 2 from P4 to P5"})
        assert not [e for e in ev if e.kind == "mountain_king"]
        assert g.state.provinces["P1"].owner == P2 and g.state.provinces["P5"].owner == P1

    def test_the_offer_once_the_regards_are_spent_says_already_used(self):
        # dogfood 12 players: it said "only a player with an unspent ... may" to the Hodir who had used it
        g = make("ring-2", {"P1": (P1, 1, 3), "P2": (P2, 1)}, factions={P1: HODIR}, realm={P1: 400, P2: 0},
                 phase="consolidation", used_abilities={P1: ["mountain_king"]})
        with pytest.raises(IllegalOrderError, match="already used: 'The Mountain King sends His Regards' is once "
                                                    "per game, and hiring the Mountain King's protection needs it "
                                                    "unspent"):
            g.submit(P1, "The Mountain King's protection")
        h = make("ring-2", {"P1": (P1, 1, 3), "P2": (P2, 1)}, realm={P1: 400, P2: 0}, phase="consolidation")
        with pytest.raises(IllegalOrderError, match="only a player with an unspent"):  # never had it: as before
            h.submit(P1, "The Mountain King's protection")

    def test_offer_needs_a_lvl_3(self):
        g = make("ring-2", {"P1": (P1, 1, 2), "P2": (P2, 1)}, factions={P1: HODIR}, realm={P1: 400, P2: 0},
                 phase="consolidation")
        with pytest.raises(IllegalOrderError, match="level 3"):
            g.submit(P1, "The Mountain King's protection")


class TestIronLight:
    def _game(self, ranking):
        provs = {"P1": (P1, 2), "P2": (P2, 2), "P3": (P3, 2), "P4": (P1, 2), "P5": (P1, 2)}
        return make("ring-5", provs, factions={P1: IRON_LIGHT}, ranking=ranking)

    def test_crusade_a_free_golden_march_outside_the_limit(self):
        g = self._game([P1, P2, P3])  # bracket 1: one golden March! of its own plus Crusade!
        g.submit(P1, "Golden March! 1 from P1 to P2\nDelayed Golden March! 1 from P4 to P3\nGolden Fortify! P5")
        g = self._game([P1, P2, P3])
        with pytest.raises(IllegalOrderError, match="only one Golden order"):
            g.submit(P1, "Golden March! 1 from P1 to P2\nGolden March! 1 from P4 to P3\n"
                         "Golden March! 1 from P5 to P4")

    def test_crusade_in_a_bracket_without_golden_march(self):
        g = self._game([P2, P3, P1])  # bracket 3: no golden March! but for Crusade!
        g.submit(P1, "Golden March! 1 from P1 to P2\nGolden Fortify! P4")
        h = make("ring-5", {"P1": (P1, 2), "P2": (P2, 2), "P3": (P3, 2)}, ranking=[P2, P3, P1])
        with pytest.raises(IllegalOrderError, match="not available to bracket 3"):
            h.submit(P1, "Golden March! 1 from P1 to P2")

    def test_faith_alone_buys_to_four_until_next_consolidation(self):
        g = make("ring-2", {"P1": (P1, 3), "P2": (P2, 1)}, factions={P1: IRON_LIGHT}, realm={P1: 100, P2: 0},
                 phase="consolidation")
        assert "faith_alone" in names(g, P1)
        g.submit(P1, "Faith alone sustains us\nBuy 1 in P1")
        g.advance(force=True)
        assert g.state.provinces["P1"].units == 4 and g.state.players[P1].realm == 100 - 7 - 75
        assert "faith_alone" in g.state.players[P1].used
        while g.step != "orders":
            g.advance(force=True)
        assert "faith_alone" not in names(g, P1)
        orders(g, {})
        assert g.state.provinces["P1"].units == 3  # the next Consolidation: back to 3
        with pytest.raises(IllegalOrderError, match="already used: an Iron Light player may use it once per game"):
            g.submit(P1, "Faith alone sustains us")


class TestLannuvar:
    def test_great_game_plus_15_per_province(self):
        g = make("ring-4", {"P1": (P1, 1), "P2": (P2, 1), "P3": (P1, 1)}, players=2, factions={P1: LANNUVAR},
                 phase="ranking", bids={P1: 10, P2: 39}, ranking=[P2, P1])
        assert g.state.ranking[0] == P1  # 10 + 2 x 15 = 40 > 39
        told = next(e.text for e in g.state.events if e.kind == "bids")
        assert told == "Bids: Player#2 39, Player#1 10 (+30: The Great Game of politics)"  # why 10 beats 39

    def _bank_game(self, both=False):
        fac = {P1: LANNUVAR, P2: LANNUVAR if both else CENARION}
        return make("ring-3", {"P1": (P1, 1), "P2": (P2, 1), "P3": (P3, 1)}, factions=fac,
                    realm={P1: 100, P2: 100, P3: 100}, phase="consolidation", ranking=[P3, P2, P1])

    def test_bank_in_the_bidding_step_bids_after_the_reveal(self):
        g = self._bank_game()
        with pytest.raises(IllegalOrderError, match="after the others' bids"):
            g.submit(P1, "The Bank of Lannuvár\nBid 5")
        g.submit(P1, "The Bank of Lannuvár")
        g.submit(P2, "Bid 20")
        g.submit(P3, "Bid 30")
        g.advance()
        assert g.step == "bank_bid" and g.deciding_seats() == [P1] and g.deadline_hours() == 12
        assert g.state.players[P1].realm == 100 - 33
        revealed = [e for e in g.events(P1) if e.kind == "bids"][-1]
        assert revealed.data["bids"] == {P3: 30, P2: 20}
        g.submit(P1, "Bid 31")
        g.advance()
        assert g.state.ranking[0] == P1 and "bank_of_lannuvar" in g.state.players[P1].used
        assert "bank_of_lannuvar" not in names(g, P1)

    def test_the_bank_seats_own_summary_has_the_revealed_bids_it_answers(self):
        """dogfood s17 rules #4: the reveal is made for the Bank's seat, whom it leaves out."""
        g = self._bank_game()
        g.submit(P1, "The Bank of Lannuvár")
        g.submit(P2, "Bid 20")
        g.submit(P3, "Bid 30")
        g.advance()
        lines = private_summary(g, P1).splitlines()
        assert "- Bids revealed: Player#3 30, Player#2 20" in lines
        # the step in words, not its internal name (dogfood: "Now: send your bank_bid DM")
        now = "Now: send your Bank of Lannuvár bid DM (within 12h)."
        assert lines.index("- Bids revealed: Player#3 30, Player#2 20") < lines.index(now)
        assert not any(line.startswith("Your bid for") for line in lines)  # its bid is the one it sends now

    def test_a_seats_bid_revealed_for_the_bank_is_this_turns_not_next_turns(self):
        # dogfood: "Your bid for next turn's Protector Ranking: 0 $Realm (secret until then)." right after the Bank's
        # reveal of that very bid for this turn's ranking
        g = self._bank_game()
        g.submit(P1, "The Bank of Lannuvár")
        g.submit(P2, "Bid 20")
        g.submit(P3, "Bid 30")
        g.advance()
        mine = private_summary(g, P2)
        assert "Your bid for this turn's Protector Ranking: 20 $Realm (revealed)." in mine
        assert "next turn's" not in mine and "secret until then" not in mine
        g.submit(P1, "Bid 31")
        g.advance()
        assert "Your bid for" not in private_summary(g, P2)  # spent in the ranking

    def test_two_lannuvar_players_bid_together_after_the_others(self):
        g = self._bank_game(both=True)
        g.submit(P1, "The Bank of Lannuvár")
        g.submit(P2, "The Bank of Lannuvár")
        g.submit(P3, "Bid 30")
        g.advance()
        assert g.step == "bank_bid" and sorted(g.deciding_seats()) == [P1, P2]
        g.submit(P1, "Bid 5")
        assert "submitted" not in g.view(P2)  # neither sees the other's bid
        g.submit(P2, "Bid 10")
        g.advance()
        # 5 + 15 = 20 and 10 + 15 = 25 vs 30
        assert g.state.ranking == [P3, P2, P1]

    def test_bank_in_a_dragon_attack_commits_after_the_others(self):
        g = make("ring-3", {"P1": (P1, 2), "P2": (P2, 1), "P3": (P3, 1)}, factions={P1: LANNUVAR},
                 realm={P1: 100, P2: 0, P3: 0})
        dragon_attack(g, 3)
        assert "bank_of_lannuvar" in names(g, P1)
        g.submit(P1, "The Bank of Lannuvár")
        g.submit(P2, "1 from P2")
        g.advance(force=True)
        assert g.step == "dragon" and g.deciding_seats() == [P1] and g.deadline_hours() == 12
        assert g.view(P3)["attack"]["revealed"] == {P2: ["1 from P2"], P3: []}
        assert event(g.events(P3), "commitments").data["bank"] == [P1]
        assert g.state.players[P1].realm == 67
        g.submit(P1, "2 from P1")
        ev = g.advance(force=True)
        assert event(ev, "dragon_battle").data["protector_us"] == 3 and g.step != "dragon"

    def test_two_lannuvar_players_commit_together_after_the_others(self):
        g = make("ring-3", {"P1": (P1, 2), "P2": (P2, 1), "P3": (P3, 1)}, factions={P1: LANNUVAR, P2: LANNUVAR},
                 realm={P1: 100, P2: 100, P3: 0})
        dragon_attack(g, 3)
        g.submit(P1, "The Bank of Lannuvár")
        g.submit(P2, "The Bank of Lannuvár")
        g.submit(P3, "1 from P3")
        g.advance()
        assert g.step == "dragon" and sorted(g.deciding_seats()) == [P1, P2]
        assert g.view(P1)["attack"]["revealed"] == {P3: ["1 from P3"]}
        g.submit(P1, "2 from P1")
        g.submit(P2, "1 from P2")
        ev = g.advance()
        assert event(ev, "dragon_battle").data["protector_us"] == 4 and event(ev, "dragon_battle").data["won"]
        assert all("bank_of_lannuvar" in g.state.players[s].used for s in (P1, P2))

    def test_bank_from_the_consolidation_covers_a_dragon_attack_next_turn(self):
        g = self._bank_game()
        g.submit(P1, "The Bank of Lannuvár")
        g.advance(force=True)
        g.submit(P1, "Bid 0")
        g.advance(force=True)
        while g.step not in ("orders", "dragon"):
            g.advance(force=True)
        dragon_attack(g, 2) if g.step == "orders" else None
        assert P1 not in g.deciding_seats() and g.window_step() == "dragon"
        with pytest.raises(PhaseError, match="decides after the others' commitments are revealed"):
            g.submit(P1, "1 from P1")  # told when to send it, not "no decision to make"
        g.advance(force=True)
        assert g.deciding_seats() == [P1] and g.state.attack.bank_round
        assert g.window_step() == "bank_bid" and g.deadline_hours() == 12  # the Bank's 12h window


class TestEnumeration:
    def test_abilities_offered_only_when_usable(self):
        g = make("ring-3", {"P1": (P1, 1), "P2": (P2, 1), "P3": (P3, 1)},
                 factions={P1: IRON_LIGHT, P2: LANNUVAR, P3: HODIR}, realm={P1: 100, P2: 100, P3: 100},
                 phase="consolidation")
        assert names(g, P1) == {"faith_alone"} and names(g, P2) == {"bank_of_lannuvar"} and not names(g, P3)
        assert "The Bank of Lannuvár" in g.view(P2)["abilities"] and not g.view(P3)["abilities"]
        g.submit(P1, ConsolidationDecision(abilities=tuple(g.legal_abilities(P1))))
        g.advance(force=True)
        assert "faith_alone" in g.state.players[P1].used


class TestSecrecyInRandomPlay:
    """Looks at the decks stay with their seat in random play with factions and the Island."""

    def test_peeks_never_reach_another_seat(self):
        from agents.random_agent import RandomAgent
        from agents.runner import play_turn_step

        looked = 0
        for seed in range(25):
            setup = {"board": "ring-5+island", "seed": seed, "players": 5, "options": {"factions": True}}
            g = Game(setup)
            for s in g.state.players:
                g.state.players[s].faction = KALUAK if seed % 2 else g.state.players[s].faction
            agents = {s: RandomAgent(seed * 10 + i) for i, s in enumerate(g.state.players)}
            for _ in range(200):
                if g.over:
                    break
                play_turn_step(g, agents)
                for seat in g.state.players:
                    view = g.view(seat)
                    own = g.state.peeks.get(seat, [])
                    assert [{k: v for k, v in p.items() if k != "text"} for p in view["peeks"]] == own
                    for e in g.events(seat):
                        if e.kind == "peek":
                            assert e.visible_to == frozenset({seat})
                            looked += 1
                public = [e for e in g.state.events if e.kind == "peek" and e.visible_to is None]
                assert not public
        assert looked > 0


class TestPositionImport:
    def test_used_and_gained_abilities(self):
        # a gained ability is the Wizard Sanctum's choice, its holder's (the Island's): position_abilities.read_gained
        g = make("ring-2+island", {"P1": (P1, 1), "P2": (P2, 1), "P0": (P1, 1)}, factions={P1: HODIR},
                 phase="consolidation", realm={P1: 100, P2: 0}, used_abilities={P1: ["mountain_king"]},
                 gained_abilities={P1: ["faith_alone"]})
        assert "faith_alone" in names(g, P1) and "mountain_king" in g.state.players[P1].used

    @pytest.mark.parametrize("key,value", [("used_abilities", ["flying"]), ("gained_abilities", ["peek_dragon"]),
                                           ("gained_abilities", "crusade")])
    def test_unknown_abilities_are_refused(self, key, value):
        from engine.errors import ValidationError

        with pytest.raises(ValidationError, match=f"position.{key}.Player#1"):
            make("ring-2", {"P1": (P1, 1), "P2": (P2, 1)}, **{key: {P1: value}})
