"""Hypothesis properties over random legal play (rules-independent invariants of the engine)."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.random_agent import RandomAgent
from agents.runner import play_turn_step
from engine.protectors.game import Game
from engine.protectors.seat import SeatContext
from engine.protectors.state import ORDERS
from engine.protectors.tables import ISLAND_SUPPLY_LIMIT, SUPPLY_LIMIT

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def setups(draw):
    players = draw(st.integers(2, 16))
    grand = draw(st.booleans())
    island = draw(st.booleans())
    board = f"ring-{players}" + ("-grand" if grand else "") + ("+island" if island else "")
    teams = players % 2 == 0 and players >= 4 and draw(st.booleans())
    roster = [{"seat": f"Player#{i}", "team": f"T{(i - 1) // 2}" if teams else None} for i in range(1, players + 1)]
    return {"board": board, "seed": draw(st.integers(0, 10_000)), "players": roster,
            "options": {"factions": draw(st.booleans()), "teams": teams}}


def play(setup, check=None, max_steps=400):
    game = Game(setup)
    agents = {s: RandomAgent(setup["seed"] + i) for i, s in enumerate(game.state.players)}
    for _ in range(max_steps):
        if game.over:
            break
        play_turn_step(game, agents)
        if check:
            check(game)
    return game


def check_invariants(game: Game) -> None:
    st_ = game.state
    for seat, p in st_.players.items():
        assert p.realm >= 0, f"{seat} has negative $Realm"
        # every $Realm created or destroyed has a rule as its source
        assert sum(d for _, s, d, _ in st_.ledger if s == seat) == p.realm, f"ledger of {seat} is off"
        if p.eliminated:
            assert not st_.owned(seat) and st_.units_of(seat) == 0, f"eliminated {seat} still owns things"
    # the one-pass count Dragon resolution uses agrees with each seat's own list of green Provinces
    assert st_.green_counts() == {seat: len(st_.green(seat)) for seat in st_.players}
    for prov, pr in st_.provinces.items():
        assert pr.units >= 0
        assert pr.units == 0 or pr.owner is not None or pr.occupant is not None
        if st_.step == ORDERS:  # after Consolidation: supply limits hold, nobody occupies
            assert pr.occupant is None
            # the limit of the last Consolidation (this turn's cards, e.g. Crab Infestation!, act later)
            faith = 1 if pr.owner and "faith_alone" in st_.players[pr.owner].used else 0
            limit = ISLAND_SUPPLY_LIMIT if prov == st_.board.island else SUPPLY_LIMIT + faith
            assert pr.units <= limit, f"{prov} holds {pr.units} units over the supply limit"


class TestRandomPlay:
    @SETTINGS
    @given(setups())
    def test_invariants_hold_every_step(self, setup):
        game = play(setup, check_invariants)
        assert game.over and game.result["how"] in ("dragon", "last_man_standing", "times_up")

    @SETTINGS
    @given(setups())
    def test_same_seed_same_game(self, setup):
        a, b = play(setup), play(setup)
        assert a.to_blob() == b.to_blob()
        assert json.dumps(a.view(), sort_keys=True, default=str) == json.dumps(b.view(), sort_keys=True, default=str)

    @settings(max_examples=10, deadline=None)
    @given(setups())
    def test_blob_replays_to_the_same_state(self, setup):
        game = play(setup, max_steps=12)
        replay = Game.from_blob(game.to_blob())
        assert replay.view() == game.view()
        assert replay.state.ledger == game.state.ledger and replay.state.rng.getstate() == game.state.rng.getstate()


class TestSecrecy:
    @SETTINGS
    @given(setups(), st.integers(0, 30))
    def test_a_seat_never_sees_another_seats_secrets(self, setup, steps):
        game = play(setup, max_steps=steps)
        if game.over:
            return
        # everyone submits (bids, orders or commitments stay hidden until revealed)
        agents = {s: RandomAgent(i) for i, s in enumerate(game.state.players)}
        for p in game.pending():
            game.submit(p.seat, agents[p.seat].act(SeatContext(game, p.seat)))
        for seat in game.state.players:
            v = game.view(seat)
            assert "submissions" not in v and "next_bids" not in v and "decks" not in v
            for other, info in v["players"].items():
                if other != seat:
                    assert "realm" not in info and "used_abilities" not in info
            assert all(p["seat"] == seat for p in v["pending"])
            for e in game.events(seat):
                assert e.visible_to is None or seat in e.visible_to
