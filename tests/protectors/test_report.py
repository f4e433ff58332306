"""Issue 17 item 5: the public report says everything the rules reveal, in display names, only
what is new since the last post; the private summary is the seat's alone.

Each test names the fact it checks; each would fail if the event behind that fact went missing or
leaked."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.random_agent import RandomAgent
from agents.runner import play_turn_step
from engine.protectors.game import Game
from engine.protectors.report import named, private_summary, public_report
from tests.protectors.helpers import dragon_attack, fight, play_orders, position

P = [f"Player#{i}" for i in range(1, 8)]


def dragon_wins() -> Game:
    """Player#1 is Grand Protector and hides; Player#2 (2 green) hides; Player#3 commits 1 of 1."""
    g = position("ring-7", 3, {"P1": ("Player#1", 1), "P2": ("Player#2", 1), "P3": ("Player#2", 1),
                               "P5": ("Player#3", 1)}, ranking=P[:3],
                 realm={"Player#1": 80, "Player#2": 40, "Player#3": 10})
    dragon_attack(g, 9)
    fight(g, {"Player#3": "1 from P5"})
    return g


def protectors_win() -> Game:
    g = position("ring-7", 3, {"P1": ("Player#1", 3), "P2": ("Player#2", 2), "P4": ("Player#3", 1)},
                 realm=dict.fromkeys(P[:3], 0))
    dragon_attack(g, 4)
    fight(g, {"Player#1": "3 from P1 (sac 1)", "Player#2": "2 from P2"})
    return g


class TestDragonAttackFacts:
    def test_min_us_of_every_player_when_the_dragon_attacks(self):
        g = position("ring-7", 2, {"P1": ("Player#1", 1), "P2": ("Player#1", 1), "P4": ("Player#2", 1)})
        dragon_attack(g, 3)
        assert "- min.US: Player#1 2, Player#2 1." in g.report().splitlines()

    def test_worldeater_min_us_is_doubled_in_the_report(self):
        g = position("ring-7", 2, {"P1": ("Player#1", 1), "P4": ("Player#2", 1)})
        dragon_attack(g, 21)
        assert "- min.US (doubled: the Worldeater): Player#1 2, Player#2 2." in g.report().splitlines()

    def test_each_commitment_is_revealed_when_the_attack_resolves(self):
        text = protectors_win().report()
        assert "- Player#1 commits 3 from P1 (sac 1): US 3 of min.US 1." in text.splitlines()
        assert "- Player#2 commits 2 from P2: US 2 of min.US 1." in text.splitlines()
        assert "- Player#3 commits nothing (turns off the lights): US 0 of min.US 1." in text.splitlines()

    def test_commitments_stay_hidden_until_the_attack_resolves(self):
        g = position("ring-7", 2, {"P1": ("Player#1", 2), "P4": ("Player#2", 1)})
        dragon_attack(g, 3)
        g.submit("Player#1", "2 from P1")
        for seat in (None, "Player#2"):
            assert "commits" not in g.report(seat=seat) and "2 from P1" not in g.report(seat=seat)

    def test_units_lost_rewards_and_bonus_vp(self):
        lines = protectors_win().report().splitlines()
        assert "- Player#1 loses 1 unit to the Dragon (P1 1); earns 100 $Realm; bonus: 2 VP and 60 $Realm." in lines
        assert "- Player#2 loses 1 unit to the Dragon (P2 1); earns 100 $Realm; bonus: 1 VP and 15 $Realm." in lines

    def test_dpl_reset_after_a_protector_victory(self):
        assert "- The DPL is reset to 0." in protectors_win().report().splitlines()

    def test_units_lost_when_the_dragon_wins_and_the_dpl_halved(self):
        lines = dragon_wins().report().splitlines()
        assert "- Player#3 loses 1 unit to the Dragon (P5 1)." in lines
        assert "- The DPL is cut in half: 9 -> 5." in lines

    def test_wrath_burns_are_reported(self):
        assert "- The Dragon burns P2, P3 of Player#2 (2 units lost)." in dragon_wins().report().splitlines()

    def test_grand_protector_losing_all_realm_is_public_the_amount_private(self):
        g = dragon_wins()
        public = g.report()
        assert "- Player#1, the Grand Protector, fell short of min.US and loses all $Realm." in public.splitlines()
        assert "(80)" not in public and "(80)" not in g.report(seat="Player#3")
        assert "- You lose all your $Realm (80)." in g.report(seat="Player#1").splitlines()


class TestConsolidationFacts:
    def consolidate(self, realm: int, dm: str) -> Game:
        g = position("ring-10", 2, {"P5": ("Player#1", 0), "P6": ("Player#1", 2), "P1": ("Player#2", 1)},
                     realm={"Player#1": realm, "Player#2": 0}, phase="consolidation")
        g.submit("Player#1", dm)
        g.advance(force=True)
        return g

    def test_partial_buy_for_lack_of_realm(self):
        g = self.consolidate(150, "Buy 2 in P5. 1 in P6.")
        text = g.report(turn=2)
        assert "- Player#1 buys 1 in P5, 1 in P6." in text.splitlines()
        assert "- Player#1: Buy 2 in P5: 1 bought (not enough $Realm)." in text.splitlines()

    def test_failed_buy_at_the_supply_limit(self):
        g = self.consolidate(500, "Buy 2 in P6")
        assert "- Player#1: Buy 2 in P6: 1 bought (supply limit)." in g.report(turn=2).splitlines()

    def test_a_buy_that_buys_nothing(self):
        g = self.consolidate(70, "Buy 1 in P5")
        assert "- Player#1: Buy 1 in P5: none bought (not enough $Realm)." in g.report(turn=2).splitlines()

    def test_a_bid_reduced_to_what_the_seat_holds_is_told_to_that_seat_alone(self):
        g = self.consolidate(100, "Buy 1 in P5. Bid 50")
        # consolidation: only the seat knows, the others learn nothing yet
        assert "reduced" not in g.report(turn=2)
        assert "- Your bid of 50 is reduced to 25, all the $Realm you hold after buying." in \
            g.report(turn=2, seat="Player#1").splitlines()
        assert "reduced" not in g.report(turn=2, seat="Player#2")
        # next turn's Protector Ranking reveals the bid it became, never the bid asked for (that would tell
        # everyone the seat's balance: assumption BID_REDUCED_PRIVATE)
        assert "- Bids: Player#1 25, Player#2 0" in g.report(turn=3).splitlines()
        assert "reduced" not in g.report(turn=3, seat="Player#2")


class TestCardsAndDpl:
    def test_power_overwhelming_names_itself_when_it_changes_the_dpl(self):
        g = Game({"board": "ring-5", "seed": 1})
        g.state.decks["event"].draw.insert(0, "Power Overwhelming")
        g.state.turn = 2  # past the fixed turn-1 cards
        from engine.protectors.reveal import begin_reveal, reveal_next

        begin_reveal(g.state)
        reveal_next(g.state)
        assert any(line.startswith("- Power Overwhelming: DPL +5 -> ") for line in g.report(turn=2).splitlines())

    def test_a_hoarders_dpl_step_says_why_without_naming_anyone(self):
        g = Game({"board": "ring-5", "seed": 1})
        g.state.players["Player#3"].realm = 260
        g.advance(force=True)
        text = g.report(turn=1)
        assert "(DPL +2 -> 2) (a Protector hoards 250+ $Realm)" in text and "260" not in text


class TestDisplayNames:
    def game(self) -> Game:
        names = ["Alice", None, "Carol", "Dan", "Eve"]
        g = Game({"board": "ring-5", "seed": 4, "players": [{"name": n} if n else {} for n in names]})
        g.submit("Player#1", "Bid 7")
        g.advance(force=True)
        return g

    def test_reports_use_display_names_and_player_n_without_one(self):
        text = self.game().report(turn=1)
        assert "Alice 7" in text and "Player#2 0" in text
        for seat in ("Player#1", "Player#3", "Player#4", "Player#5"):
            assert seat not in text

    def test_player_1_is_never_replaced_inside_player_12(self):
        assert named("Player#12 and Player#1.", {"Player#1": "Ann", "Player#12": "Lou"}) == "Lou and Ann."


class TestOnlyWhatIsNew:
    def test_report_since_gives_only_new_events_and_the_next_index(self):
        g = Game({"board": "ring-5", "seed": 2})
        g.advance(force=True)
        first, index = g.report_since(0)
        assert "Calms of Summer" in first and index == len(g.state.events)
        again, same = g.report_since(index)
        assert again == "" and same == index
        g.submit("Player#2", "Fortify! P2")
        g.advance(force=True)
        new, _ = g.report_since(index)
        assert "Calms of Summer" not in new and "Player#2: Fortify! P2" in new
        assert new.startswith("== Turn 1 ==")

    @settings(max_examples=15, deadline=None)
    @given(seed=st.integers(0, 10_000), cuts=st.lists(st.integers(1, 4), min_size=1, max_size=8))
    def test_posts_put_together_are_the_whole_report_once(self, seed, cuts):
        """However often the GM posts, every public line appears once, in order, and nothing else."""
        g = Game({"board": "ring-5", "seed": seed})
        agents = {s: RandomAgent(i) for i, s in enumerate(g.state.players)}
        posted, index = [], 0
        for n in cuts:
            for _ in range(n):
                if not g.over:
                    play_turn_step(g, agents)
            text, index = g.report_since(index)
            posted += [ln for ln in text.splitlines() if not ln.startswith("== Turn")]
        whole = [ln for t in range(1, g.state.turn + 1) for ln in g.report(turn=t).splitlines()
                 if not ln.startswith("== Turn")]
        assert posted == whole

    def test_a_seats_index_counts_only_what_it_may_see(self):
        g = Game({"board": "ring-5", "seed": 2})
        g.advance(force=True)
        for seat in g.state.players:
            _, index = g.report_since(0, seat)
            assert index == len(g.events(seat))


class TestPrivateSummary:
    def test_balance_units_and_the_realm_changes_of_the_turn(self):
        g = dragon_wins()
        text = g.private_summary("Player#1")
        assert "Balance: 0 $Realm." in text and "Army Units: 1 (P1 1)." in text
        assert "- -80 (Dragon wins, Grand Protector loses all $Realm)" in text

    def test_what_happened_to_each_order_and_why(self):
        g = position("ring-7", 3, {"P1": ("Player#1", 3), "P2": ("Player#2", 1), "P3": ("Player#2", 2),
                                   "P5": ("Player#3", 1)}, ranking=P[:3])
        play_orders(g, {"Player#1": "March! 3 from P1 to P2",
                        "Player#2": "Support! Player#2 in P3 from P2\nWork, work! P3",
                        "Player#3": "Fortify! P5"})
        mine = g.private_summary("Player#2")
        assert "- Support! Player#2 in P3 from P2: cancelled: P2 was attacked (003 Support!)" in mine
        assert "- Work, work! P3: no battle" not in mine and "Work, work! P3: succeeded" in mine
        attacker = g.private_summary("Player#1")
        assert "- March! 3 from P1 to P2: marched 3 to P2; won the battle in P2 (3 US vs Player#2 1 US)" in attacker
        assert "- Fortify! P5: no battle in P5" in g.private_summary("Player#3")

    def test_a_support_attacked_only_by_a_later_delayed_march_counted(self):
        # rules: 003 Support! (assumption SUPPORT_CANCELLED_BY_BATTLE): P2's support counted in P1's battle (3 US vs
        # 2) before Player#3's Delayed March! attacked P2; the summary said "cancelled: P2 was attacked"
        provs = {"P1": ("Player#1", 1), "P2": ("Player#1", 2), "P10": ("Player#2", 2), "P3": ("Player#3", 1)}
        dms = {"Player#1": "Support! Player#1 in P1 from P2", "Player#2": "March! 2 from P10 to P1"}
        g = position("ring-10", 3, provs, ranking=["Player#2", "Player#1", "Player#3"])
        play_orders(g, {**dms, "Player#3": "Delayed March! 1 from P3 to P2"})
        assert ("- Support! Player#1 in P1 from P2: counted for Player#1 in the battle in P1 (won); P2 was attacked "
                "only after it, by a Delayed March!") in g.private_summary("Player#1")
        g = position("ring-10", 3, provs, ranking=["Player#2", "Player#1", "Player#3"])
        play_orders(g, {**dms, "Player#3": "March! 1 from P3 to P2"})
        assert "- Support! Player#1 in P1 from P2: cancelled: P2 was attacked (003 Support!)" in g.private_summary(
            "Player#1")

    def test_a_summary_holds_no_other_seats_secrets(self):
        g = position("ring-7", 2, {"P1": ("Player#1", 1), "P4": ("Player#2", 1)},
                     realm={"Player#1": 123, "Player#2": 456})
        play_orders(g, {"Player#1": "Work, work! P1"})
        p1, p2 = g.private_summary("Player#1"), g.private_summary("Player#2")
        assert "Balance: 223 $Realm." in p1 and "Player#1 produces 100 $Realm." in p1
        assert "223" not in p2 and "produces 100" not in p2 and "123" not in p2

    def test_a_golden_work_on_a_level_3_province_offers_no_upgrade(self):
        # rules: 003 Golden Work, work! — "upgrade ... with one (1) level"; levels end at 3
        g = position("ring-7", 2, {"P1": ("Player#1", 1, 3), "P2": ("Player#1", 1, 1), "P4": ("Player#2", 1)})
        play_orders(g, {"Player#1": "Golden Work, work! P1\nWork, work! P2"})
        mine = g.private_summary("Player#1", 2)
        assert "- Golden Work, work! P1: succeeded, but P1 is at level 3 already: no Upgrade" in mine
        assert "you may Upgrade P1" not in mine

    def test_the_balance_line_gives_the_vp_the_scoreboard_shows(self):
        g = position("ring-7", 2, {"P1": ("Player#1", 1, 3), "P4": ("Player#2", 1)}, vp={"Player#1": 10})
        assert "VP: 10 (4 earned against the Dragon)." in g.private_summary("Player#1")  # level 3: 6 VP

    def test_display_name_in_the_title(self):
        g = Game({"board": "ring-5", "seed": 1, "players": [{"name": "Alice"}, {}, {}, {}, {}]})
        assert g.private_summary("Player#1").startswith("== Alice (Player#1): your summary, turn 1 ==")
        assert g.private_summary("Player#2").startswith("== Player#2: your summary, turn 1 ==")

    def test_own_secret_bid_and_dm_are_in_the_summary_only(self):
        g = position("ring-10", 2, {"P5": ("Player#1", 1), "P1": ("Player#2", 1)},
                     realm={"Player#1": 100, "Player#2": 0}, phase="consolidation")
        g.submit("Player#1", "Bid 30")
        assert "Your DM for this step (final): Bid 30" in g.private_summary("Player#1")
        assert "Bid 30" not in g.private_summary("Player#2")
        g.advance(force=True)
        g_turn = g.state.turn
        assert g_turn == 3 and g.step == "orders"  # the bids were revealed at the new turn's ranking
        assert "Bids: Player#1 30, Player#2 0" in g.report(turn=3)

    def test_a_bid_set_aside_is_the_seats_secret_until_revealed(self):
        g = position("ring-10", 2, {"P5": ("Player#1", 1), "P1": ("Player#2", 1)},
                     realm={"Player#1": 100, "Player#2": 0}, phase="consolidation")
        g.state.next_bids["Player#1"] = 30  # as the Bidding step leaves it before the next turn starts
        assert "Your bid for next turn's Protector Ranking: 30 $Realm" in g.private_summary("Player#1")
        assert "30" not in g.private_summary("Player#2")


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 8), factions=st.booleans(), steps=st.integers(1, 40))
def test_no_report_or_summary_shows_a_seat_another_seats_private_event(seed, players, factions, steps):
    """Random games with factions (peeks, hidden bids, abilities): neither a seat's report of any turn
    nor its private summary holds the text of an event private to another seat."""
    g = Game({"board": f"ring-{players}", "seed": seed, "players": players, "options": {"factions": factions}})
    agents = {s: RandomAgent(seed + i) for i, s in enumerate(g.state.players)}
    for _ in range(steps):
        if g.over:
            break
        play_turn_step(g, agents)
    names = {s: p.name or s for s, p in g.state.players.items()}
    for seat in g.state.players:
        mine = {named(e.text, names) for e in g.events(seat)}
        secret = {named(e.text, names) for e in g.state.events if not e.visible(seat)} - mine
        texts = [g.report(turn=t, seat=seat) for t in range(1, g.state.turn + 1)]
        texts.append(g.private_summary(seat))
        for text in texts:
            lines = set(text.splitlines())
            assert not any(f"- {s}" in lines for s in secret), seat
        assert g.report_since(0, seat)[1] == len(g.events(seat))


def test_a_big_tables_orders_are_reported_in_seat_order_not_as_text_sorts_them():
    provinces = {f"P{i}": (f"Player#{i}", 1) for i in range(1, 13)}
    ranking = [f"Player#{i}" for i in (7, 12, 1, 10, 2, 11, 3, 4, 5, 6, 8, 9)]
    g = position("ring-12", 12, provinces, ranking=ranking)
    events = play_orders(g, {f"Player#{i}": f"Fortify! P{i}" for i in range(1, 13)})
    told = [e.data["seat"] for e in events if e.kind == "orders"]
    assert told == [f"Player#{i}" for i in range(1, 13)]  # not Player#1, Player#10, Player#11, Player#12, Player#2


def test_after_the_game_ends_no_summary_mentions_a_bid_for_a_next_turn():
    from agents.heuristic import HeuristicAgent
    from agents.runner import finish

    g = finish(Game({"board": "ring-6-grand", "seed": 0, "players": 3}),
               {f"Player#{i}": HeuristicAgent(i) for i in range(1, 4)})
    assert g.state.result["how"] == "times_up" and not g.state.next_bids  # LAST_TURN_NO_BID
    assert any(e.kind == "bid_not_taken" for e in g.state.events)  # the heuristics bid and were told
    for seat in g.state.players:
        assert "next turn's Protector Ranking" not in private_summary(g, seat)



def test_a_turn_nobody_gave_a_line_in_says_so_once_and_a_snitch_is_a_line():
    # rules: 003 4. Execute Orders: with every seat's `none` nothing is executed, and the report says so instead of
    # being empty; a seat whose whole DM is a Snitch (Pirates!) gave a line, so the turn is not called "no orders"
    def orders_turn(dms):
        g = position("ring-4", 4, {f"P{i}": (f"Player#{i}", 1) for i in range(1, 5)}, cards=("Pirates!",),
                     realm=dict.fromkeys(P[:4], 50))
        return [e for e in play_orders(g, dms) if e.kind == "no_orders"]

    told = orders_turn({})
    assert [e.text for e in told] == ["No orders this turn: every player sent none, so every Army Unit stays where "
                                      "it is."] and told[0].visible_to is None
    assert orders_turn({"Player#1": "Snitch Player#2"}) == []
    assert orders_turn({"Player#3": "Fortify! P3"}) == []


def test_a_seat_that_sent_none_is_told_so_in_its_own_summary_when_everyone_did():
    g = position("ring-4", 4, {f"P{i}": (f"Player#{i}", 1) for i in range(1, 5)}, realm=dict.fromkeys(P[:4], 50))
    play_orders(g, {})
    mine = private_summary(g, "Player#1")
    assert f"Your orders on turn {g.state.turn}: none (you sent none)." in mine and "No orders this turn" not in mine


def test_a_turn_some_seats_gave_no_line_in_names_them_once_in_seat_order():
    # rules: 003 4. Execute Orders: orders are revealed to all as executed; the seats that sent `none` are named, so a
    # reader need not infer them from whose orders are missing
    g = position("ring-4", 4, {f"P{i}": (f"Player#{i}", 1) for i in range(1, 5)}, cards=("Pirates!",),
                 realm=dict.fromkeys(P[:4], 50))
    events = play_orders(g, {"Player#3": "Fortify! P3", "Player#1": "Snitch Player#2"})
    told = [e for e in events if e.kind in ("no_orders", "no_orders_from")]
    assert [(e.kind, e.text, e.data["seats"], e.visible_to) for e in told] == [
        ("no_orders_from", "Sent none this turn (no orders): Player#2 and Player#4.", ["Player#2", "Player#4"], None)]
    assert "Sent none this turn (no orders): Player#2 and Player#4." in public_report(g.state)
    quiet, busy = private_summary(g, "Player#2"), private_summary(g, "Player#3")
    t = g.state.turn
    assert f"Your orders on turn {t}: none (you sent none)." in quiet and "Sent none this turn" not in quiet
    assert f"Your orders on turn {t}:\n- Fortify! P3" in busy and "none (you sent none)" not in busy


def test_the_private_summary_says_the_games_own_window_when_the_gm_set_one():
    g = Game({"board": "ring-3", "seed": 1, "players": 3})
    g.advance(force=True)  # the bids: now the orders step
    assert g.private_summary("Player#1").endswith("Now: send your orders DM (within 72h).")  # the rulebook's
    assert g.private_summary("Player#1", windows={"orders": 172800.0}).endswith("(within 48h).")
    assert g.private_summary("Player#1", windows={"orders": 5400}).endswith("(within 1.5h).")
    assert g.private_summary("Player#1", windows={"bid": 3600}).endswith("(within 72h).")  # not this step's
    assert g.deadline_hours() == 72 and g.deadline_hours(windows={"orders": 172800}) == 48  # only for its call


def _restless(dms: dict[str, str]) -> tuple[Game, list]:
    # rules: 003 Restlessness of Spring: no Fortify!, so a silent seat's rulebook default is no orders at all
    # (assumption RESTLESS_DEFAULT); Player#1 and Player#3 send nothing and the step is forced
    g = position("ring-4", 4, {f"P{i}": (f"Player#{i}", 1) for i in range(1, 5)}, cards=("Restlessness of Spring",),
                 realm=dict.fromkeys(P[:4], 50))
    for seat, text in dms.items():
        g.submit(seat, text)
    return g, g.advance(force=True)


def test_a_seat_the_rulebook_default_played_for_is_never_said_to_have_sent_none():
    # docs/reports.md: a step resolved with defaults never says "sent none" of a seat whose DM did not come
    g, events = _restless({"Player#2": "none", "Player#4": "March! 1 from P4 to P1"})
    told = [(e.kind, e.text, e.data.get("seats")) for e in events if e.kind in ("no_orders", "no_orders_from")]
    assert told == [("no_orders_from", "Sent none this turn (no orders): Player#2.", ["Player#2"])]
    t = g.state.turn
    assert f"Your orders on turn {t}: none (you sent none)." in private_summary(g, "Player#2")
    for silent in ("Player#1", "Player#3"):
        assert "sent none" not in private_summary(g, silent)


def test_a_forced_turn_nobody_sent_orders_in_does_not_say_every_player_sent_none():
    g, events = _restless({"Player#2": "none"})  # Player#4 silent too: only Player#2 sent none
    told = [(e.kind, e.text) for e in events if e.kind in ("no_orders", "no_orders_from")]
    assert told == [("no_orders", "No orders this turn, so every Army Unit stays where it is."),
                    ("no_orders_from", "Sent none this turn (no orders): Player#2.")]
    report = public_report(g.state)
    assert "every player sent none" not in report and "Player#1" not in report.split("Sent none")[1]
    t = g.state.turn
    assert f"Your orders on turn {t}: none (you sent none)." in private_summary(g, "Player#2")
    assert "sent none" not in private_summary(g, "Player#1")
    g, events = _restless({})  # every seat silent
    assert [e.text for e in events if e.kind in ("no_orders", "no_orders_from")] == [
        "No orders this turn, so every Army Unit stays where it is."]
    assert "sent none" not in private_summary(g, "Player#1")


def test_the_private_summary_says_a_dm_already_in_is_in_not_to_send_it():
    # dogfood 16 seats: a seat whose DM was in was told "Now: send your orders DM (within 72h). Received."
    g = Game({"board": "ring-3", "seed": 1, "players": 3})
    g.advance(force=True)  # the bids: now the orders step
    g.submit_dm("Player#1", "Fortify! P1")
    mine = g.private_summary("Player#1")
    assert mine.endswith("Now: your orders DM is in; the step resolves when every seat's is, or at its deadline "
                         "(within 72h).")
    assert "send your" not in mine
    assert g.private_summary("Player#2").endswith("Now: send your orders DM (within 72h).")


def test_a_seat_asked_for_its_dragon_commitments_is_told_its_min_us():
    """A seat's summary in a Dragon Attack says the min.US its commitment is judged by (rules: 003 Resolving a Dragon
    Attack, min.US: its green Provinces): a game brought in at its dragon step has no min.US event to show (the event
    log is not carried), and at 12 seats the public line lists ten of them."""
    g = Game({"board": "ring-5", "seed": 11, "players": 5, "position": {
        "turn": 3, "step": "dragon", "dpl": 9, "ranking": ["Player#2", "Player#1", "Player#5"],
        "eliminated": {"Player#3": {"turn": 2, "by": "players"}, "Player#4": {"turn": 2, "by": "dragon"}},
        "provinces": {"P1": {"owner": "Player#1", "units": 2}, "P2": {"owner": "Player#2", "units": 3},
                      "P3": {"owner": "Player#2", "units": 1}, "P4": {"owner": "Player#1", "burnt": True},
                      "P5": {"owner": "Player#5", "units": 1}},
        "cards_in_play": ["Deep Snow", "There be Dragons!"], "attack": {"dpl": 9, "source": "card"}}})
    ben = private_summary(g, "Player#2").splitlines()
    assert ben[-2:] == ["The Dragon attacks with DPL 9: your min.US is 2 (your 2 green Provinces).",
                        "Now: send your Dragon commitments DM (within 24h)."]
    assert "your min.US is 1 (your 1 green Province)." in private_summary(g, "Player#1")  # its burnt P4 is not green
    g.submit("Player#2", "2 from P2")
    assert "your min.US is 2" in private_summary(g, "Player#2")  # still said once its DM is in
    assert "min.US" not in private_summary(g, "Player#3")  # eliminated: no commitment to make


def test_a_dm_choosing_nothing_is_read_back_in_the_rules_words_not_as_nothing():
    """'lights out' (or 'none' at the orders) is a choice, stored as no lines: the summary said 'Your DM for this step
    (final): nothing.', as if the DM were lost; it says what the CLI answered the GM."""
    g = Game({"board": "ring-5", "seed": 11, "players": 5, "position": {
        "turn": 3, "step": "dragon", "dpl": 9, "provinces": {f"P{i}": {"owner": f"Player#{i}", "units": 1}
                                                               for i in range(1, 6)},
        "cards_in_play": ["Deep Snow", "There be Dragons!"], "attack": {"dpl": 9, "source": "card"}}})
    g.submit("Player#2", "lights out")
    assert ("Your DM for this step (final): Turn off the lights (no Army Units committed)."
            in private_summary(g, "Player#2").splitlines())
    g = Game({"board": "ring-5", "seed": 11, "players": 5, "position": {"turn": 3, "step": "orders"}})
    g.submit("Player#2", "none")
    assert ("Your DM for this step (final): none (no orders: your units stay where they are and do nothing)."
            in private_summary(g, "Player#2").splitlines())


def test_the_private_summary_names_players_in_its_orders_as_the_public_report_does():
    # a seat's own orders, its DM line for the open step, are read back with the players' display names, as the public
    # report reveals them ('Support! Alice in P1 from P2'), never the internal seat id the DM is stored with
    names = ["Alice", "Bob", "Carol"]
    players = [{"seat": f"Player#{i}", "name": n} for i, n in enumerate(names, 1)]
    provs = {"P1": {"owner": "Player#1", "units": 1}, "P2": {"owner": "Player#2", "units": 1},
             "P3": {"owner": "Player#3", "units": 1}}
    g = Game({"board": "ring-3", "seed": 1, "players": players,
              "position": {"turn": 2, "step": "orders", "provinces": provs}})
    g.submit("Player#2", "Support! Alice in P1 from P2")
    assert "Your DM for this step (final): Support! Alice in P1 from P2." in private_summary(g, "Player#2")
    for seat in ("Player#1", "Player#3"):
        g.submit(seat, "none")
    g.advance()
    mine = private_summary(g, "Player#2", turn=2)
    assert "- Support! Alice in P1 from P2: " in mine and "Player#1" not in mine
    assert "- Bob: Support! Alice in P1 from P2" in public_report(g.state, turn=2)


def test_a_seat_a_position_lists_as_eliminated_without_a_turn_is_not_told_turn_none():
    # position.eliminated as a list names no turn: the seat's summary said "You were eliminated on turn None."
    provs = {"P1": {"owner": "Player#1", "units": 1}, "P2": {"owner": "Player#2", "units": 1}}
    g = Game({"board": "ring-3", "seed": 1, "players": 3,
              "position": {"turn": 4, "step": "orders", "provinces": provs, "eliminated": ["Player#3"]}})
    lines = private_summary(g, "Player#3").splitlines()
    assert lines[1] == "You were eliminated before turn 4, when this game was brought in from a position."
    g = Game({"board": "ring-3", "seed": 1, "players": 3, "position": {
        "turn": 4, "step": "orders", "provinces": provs, "eliminated": {"Player#3": {"turn": 2, "by": "dragon"}}}})
    assert private_summary(g, "Player#3").splitlines()[1] == "You were eliminated on turn 2 (dragon)."


def test_a_seat_that_fought_the_dragon_is_told_who_won_in_its_summary():
    # 16 seats: a summary said 'Pat commits 1 from P4: US 1 of min.US 1.' and 'Pat loses 1 unit to the Dragon' but not
    # the attack's outcome ('Protector US 13 vs DPL 65: the Dragon wins.'), which names no seat: each seat in the
    # fight (one that turned off the lights too) is told it
    g = dragon_wins()
    t = g.state.turn
    for seat in ("Player#1", "Player#2", "Player#3"):
        mine = private_summary(g, seat).splitlines()
        assert "- Protector US 1 vs DPL 9: the Dragon wins." in mine[mine.index(f"What happened to you on turn {t}:"):]
    g = protectors_win()
    assert "- Protector US 5 vs DPL 4: the Protectors win!" in private_summary(g, "Player#3").splitlines()
