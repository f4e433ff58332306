"""Secrecy of what the GM posts at a big table with every option on (10-16 seats, teams of 2 or 3, factions, the Island,
a Grand board): a DM that is in but not yet revealed (a bid, orders, a Dragon commitment, a Consolidation's purchases
and bid set aside, a Palantír or Weather forecast look it asks for) changes neither the public report, nor another
seat's report or private summary, of any turn. rules: 003 Each Turn ("All orders/choices ... will be revealed to all
players at the same time as they are executed"); Kalu'Ak, Weather forecast; Island Rules, Palantír."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.random_agent import RandomAgent
from agents.runner import play_turn_step
from engine.protectors.game import Game
from engine.protectors.report import display_names, named
from engine.protectors.seat import SeatContext


@st.composite
def big_tables(draw):
    players, team = draw(st.sampled_from([(10, 2), (12, 3), (14, 0), (15, 3), (16, 2), (16, 0)]))
    board = f"ring-{players}" + ("-grand" if draw(st.booleans()) else "") + ("+island" if draw(st.booleans()) else "")
    roster = [
        {"seat": f"Player#{i}", "name": f"N{i}", "team": f"T{(i - 1) // team}" if team else None}
        for i in range(1, players + 1)
    ]
    return {
        "board": board,
        "seed": draw(st.integers(0, 10_000)),
        "players": roster,
        "options": {"factions": True, "teams": bool(team)},
    }


def _told(game: Game, seat: str | None) -> list[str]:
    """Everything posted to ``seat`` (None: the channel) about every turn so far."""
    turns = range(1, game.state.turn + 1)
    out = [game.report(turn=t, seat=seat) for t in turns] + [game.report_since(0, seat)[0]]
    if seat is not None:
        out += [game.private_summary(seat, turn=t) for t in turns]
    return out


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(big_tables(), st.integers(2, 30), st.data())
def test_a_dm_not_yet_revealed_changes_nothing_posted_to_anyone_else(setup, steps, data):
    game = Game(setup)
    agents = {s: RandomAgent(setup["seed"] + i) for i, s in enumerate(game.state.players)}
    for _ in range(steps):
        if game.over:
            return
        play_turn_step(game, agents)
    waiting = [p.seat for p in game.pending() if not p.submitted]
    if not waiting:
        return
    sender = data.draw(st.sampled_from(waiting))
    others = [
        None,
        *data.draw(
            st.lists(
                st.sampled_from([s for s in game.state.players if s != sender]), min_size=1, max_size=3, unique=True
            )
        ),
    ]
    before = {s: _told(game, s) for s in others}
    game.submit(sender, agents[sender].act(SeatContext(game, sender)))
    for seat in others:
        assert _told(game, seat) == before[seat], (sender, seat, game.state.turn, game.step)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(big_tables(), st.integers(2, 40))
def test_no_seat_is_told_what_was_told_to_another_seat_alone(setup, steps):
    """What is private to seats (a balance cut, a look at a deck, a loot share, the Grand Protector's loss) is in no
    report or summary of any other seat, nor in the channel's, over whole games."""
    game = Game(setup)
    agents = {s: RandomAgent(setup["seed"] + i) for i, s in enumerate(game.state.players)}
    for _ in range(steps):
        if game.over:
            break
        play_turn_step(game, agents)
    names = display_names(game.state)  # the reports' words: display names for seat ids
    private = [e for e in game.state.events if e.visible_to is not None]
    for seat in [None, *game.state.players]:
        secret = {named(e.text, names) for e in private if seat is None or seat not in e.visible_to}
        secret -= {named(e.text, names) for e in game.events(seat)}  # the same words told to this seat (a loot share)
        for text in _told(game, seat):
            assert not [s for s in secret if s in text], seat
