"""training.informed: the expert's candidates scored on the real future (an analysis player that cheats).

Its play-outs must be the real future (the heuristic's own decision scores exactly what the heuristic
then gets in the real game), it must leave the real game alone, and it must never be seatable."""

from __future__ import annotations

import pytest

from agents.heuristic import HeuristicAgent
from agents.registry import AGENTS, make_agent
from agents.reward import terminal_reward
from agents.runner import finish
from engine.errors import ValidationError
from engine.protectors.seat import SeatContext
from training.evaluate import record_positions
from training.informed import NAME, PRESENT_NAME, InformedSearch, PresentInformedSearch, informed_takeover


@pytest.fixture(scope="module")
def positions():
    return record_positions(3, turn=2, players=5, seed=10000, progress=False)


def test_a_play_out_is_the_real_future(positions):
    checked = 0
    for _, pos in positions:
        seat = pos.state.active()[0]
        informed = InformedSearch(0)
        seen = []  # the play-out's whole result (winner, how, turn, every VP), not only its score
        informed.value = lambda result, s, team, seen=seen: seen.append(result) or terminal_reward(result, s, team)
        decision = HeuristicAgent(0).act(SeatContext(pos, seat))
        before = pos.to_blob()
        [score], finalists = informed._evaluate(SeatContext(pos, seat), [decision])
        assert pos.to_blob() == before  # the real game is untouched
        real = pos.clone()  # the same future, played for real: heuristics everywhere
        real.submit(seat, decision)
        finish(real, {s: HeuristicAgent(i) for i, s in enumerate(real.state.players)})
        assert seen == [real.result] and score == terminal_reward(real.result, seat) and finalists == [0]
        checked += 1
    assert checked == 3


def test_it_is_registered_only_for_its_own_run(positions):
    with pytest.raises(ValidationError):
        make_agent(NAME, 0)
    report = informed_takeover(positions=2, turn=2, players=5, seed=10000, progress=False)
    assert report["mode"] == "takeover" and report["agent"] == NAME and report["positions"] == 2
    assert report["better"] + report["same"] + report["worse"] == 2
    assert NAME not in AGENTS


def test_the_present_informed_search_knows_the_present_but_not_this_steps_secrets_or_the_future(positions):
    _, pos = positions[0]
    seat, other = pos.state.active()[0], pos.state.active()[1]
    pos = pos.clone()
    pos.submit(other, HeuristicAgent(1).act(SeatContext(pos, other)))  # a secret order already given this step
    before = pos.to_blob()
    present = PresentInformedSearch(0)
    known = present._known_state(SeatContext(pos, seat))
    assert other in pos.state.submissions and other not in known.submissions  # re-made in each play-out
    assert {s: p.realm for s, p in known.players.items()} == {s: p.realm for s, p in pos.state.players.items()}
    worlds = [present._sample_world(known, seat, k) for k in range(4)]
    assert all({s: p.realm for s, p in w.players.items()} == {s: p.realm for s, p in pos.state.players.items()}
               for w in worlds)  # the others' hidden $Realm as it is, in every world
    draws = {tuple(c for d in w.decks.values() for c in d.draw) for w in worlds}
    assert len(draws) > 1  # the future is not known: the decks are reshuffled per world
    honest = make_agent("search", 0)._sample_world(SeatContext(pos, seat).state, seat, 0)
    assert {s: p.realm for s, p in honest.players.items() if s != seat} == {
        s: pos.state.players[seat].realm for s in honest.players if s != seat and not honest.players[s].eliminated}
    present.act(SeatContext(pos, seat))
    assert pos.to_blob() == before  # the real game is untouched


def test_the_present_informed_search_is_registered_only_for_its_own_run(positions):
    report = informed_takeover(positions=1, turn=2, players=5, seed=10000, progress=False, present="expert")
    assert report["agent"] == f"{PRESENT_NAME}, expert" and report["better"] + report["same"] + report["worse"] == 1
    assert not [name for name in AGENTS if name.startswith(PRESENT_NAME)]
    with pytest.raises(ValidationError, match="present is 'wide' or 'expert'"):
        informed_takeover(positions=1, turn=2, players=5, seed=10000, progress=False, present="deep")
