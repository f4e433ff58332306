"""A private summary of a finished turn gives the balance, VP, Army Units and Provinces as they were at
the end of that turn (its Consolidation), not as they are now (dogfood s17, discord #4): the bot's
end-of-turn DM goes out after the next turn's reveal (a Plague! may already have killed a unit), and its
catch-up DMs and ``regent report --private X --turn N`` come turns later."""

from __future__ import annotations

import pytest

from agents.heuristic import HeuristicAgent
from agents.runner import play_turn_step
from engine.protectors import game as game_module
from engine.protectors import report
from engine.protectors.game import Game
from engine.protectors.position import export_position

FIGURES = ("Balance:", "Army Units:", "Provinces:")


def figures(text: str) -> list[str]:
    """The summary's balance/VP, Army Units and Provinces lines (and any note about them)."""
    return [ln for ln in text.splitlines() if ln.startswith(FIGURES) or ln.startswith("Not recorded")]


def played(monkeypatch, setup: dict, turns: int) -> tuple[Game, dict[int, dict[str, list[str]]]]:
    """A game played by heuristic agents for ``turns`` turns, and every seat's figure lines as its
    current-turn summary gave them at the very end of each turn's Consolidation (the ground truth)."""
    seen: dict[int, dict[str, list[str]]] = {}
    holder: list[Game] = []
    real = game_module.end_turn_cards

    def at_the_end(st):
        g = holder[0]
        seen[st.turn] = {s: figures(report.private_summary(g, s, st.turn)) for s in st.players}
        real(st)

    monkeypatch.setattr(game_module, "end_turn_cards", at_the_end)
    g = Game(setup)
    holder.append(g)
    agents = {s: HeuristicAgent(i) for i, s in enumerate(g.state.players)}
    while not g.over and g.state.turn <= turns:
        play_turn_step(g, agents)
    return g, seen


@pytest.mark.parametrize("setup", [
    {"board": "ring-5", "seed": 3},
    {"board": "ring-6+island", "seed": 11, "options": {"factions": True}},
], ids=["ring-5", "island-factions"])
def test_a_past_turns_summary_gives_the_figures_at_that_turns_end(monkeypatch, setup):
    g, seen = played(monkeypatch, setup, 5)
    past = sorted(t for t in seen if t < g.state.turn)
    assert len(past) >= 2
    changed = 0
    for t in past:
        for seat, lines in seen[t].items():
            assert figures(g.private_summary(seat, t)) == lines, (t, seat)
            changed += lines != figures(g.private_summary(seat))
    assert changed  # the figures did move since (else this test would prove nothing)


def test_the_current_turn_still_reads_the_live_state():
    g = Game({"board": "ring-4", "seed": 2})
    agents = {s: HeuristicAgent(i) for i, s in enumerate(g.state.players)}
    while g.state.turn < 3:
        play_turn_step(g, agents)
    seat = g.state.active()[0]
    g.state.players[seat].realm += 7  # not through the ledger: only the live state shows it
    assert f"Balance: {g.state.players[seat].realm} $Realm." in g.private_summary(seat)


def test_the_record_holds_no_balance():
    """The history is public (every seat's view has it); balances come from the seat's own ledger."""
    g = Game({"board": "ring-4", "seed": 2})
    agents = {s: HeuristicAgent(i) for i, s in enumerate(g.state.players)}
    while g.state.turn < 3:
        play_turn_step(g, agents)
    assert g.state.history and all(set(h) == {"turn", "provinces", "vp", *report.RECORD_KEYS}
                                   for h in g.state.history)


def test_an_exported_position_carries_the_record(monkeypatch):
    g, seen = played(monkeypatch, {"board": "ring-5", "seed": 3}, 4)
    pos = export_position(g)
    back = Game({"board": "ring-5", "seed": 3, "position": pos})
    assert back.state.history == g.state.history
    seat = next(s for s in g.state.players if not g.state.players[s].eliminated)
    text = back.private_summary(seat, 2)
    # the ledger starts at the import: the balance of turn 2 is not known, and the summary says so
    assert (f"Not recorded for the end of turn 2 (the game was imported from a position on turn {g.state.turn}): "
            f"Balance below is as they are now, on turn {g.state.turn}.") in text.splitlines()
    assert figures(text)[2:] == seen[2][seat][1:]  # Army Units and Provinces as at the end of turn 2


def test_an_older_record_still_loads_and_the_summary_says_what_it_lacks(monkeypatch):
    g, _ = played(monkeypatch, {"board": "ring-5", "seed": 3}, 4)
    pos = export_position(g)
    pos["history"] = [{k: h[k] for k in ("turn", "provinces", "vp")} for h in pos["history"]]
    back = Game({"board": "ring-5", "seed": 3, "position": pos})
    seat = next(s for s in g.state.players if not g.state.players[s].eliminated)
    lines = back.private_summary(seat, 2).splitlines()
    assert lines[1] == (f"Not recorded for the end of turn 2 (the game was imported from a position on turn "
                        f"{g.state.turn}): Balance, Army Units and Provinces below are as they are now, "
                        f"on turn {g.state.turn}.")
    assert lines[2].endswith(f"VP: {pos['history'][1]['vp'][seat]}.")  # the VP the record kept


def test_a_turn_before_an_import_without_a_record_says_so():
    g = Game({"board": "ring-4", "seed": 1, "position": {"turn": 3, "step": "orders"}})
    lines = g.private_summary("Player#1", 1).splitlines()
    assert lines[1] == ("Not recorded for the end of turn 1 (the game was imported from a position on turn 3): "
                        "Balance, VP, Army Units and Provinces below are as they are now, on turn 3.")


def test_a_seat_eliminated_later_was_not_eliminated_in_an_earlier_turns_summary():
    g = Game({"board": "ring-4", "seed": 1, "position": {"turn": 3, "step": "orders"}})
    p = g.state.players["Player#2"]
    p.eliminated, p.eliminated_turn, p.eliminated_by = True, 3, "players"
    assert "You were eliminated" not in g.private_summary("Player#2", 2)
    assert "You were eliminated on turn 3 (players)." in g.private_summary("Player#2", 3)
