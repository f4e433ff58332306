"""A seat's own summary (``regent report --private``) says when an AI played the seat that turn, in the public
report's words: the player back from a break otherwise reads orders they never sent as their own."""

from __future__ import annotations

from service.cli import main
from tests.gm.files import dms, new_game

NAMES = ["Alice", "Bob", "Carol", "Dan", "Eve"]


def test_the_summary_of_a_seat_an_ai_played_says_so_and_no_other_does(tmp_path, capsys):
    game = new_game(tmp_path, NAMES, "ring-5", 3)
    assert main(["seat", str(game), "Dan", "normal"]) == 0
    bids = "".join(f"== {n} ==\nBid {i}\n" for i, n in enumerate(NAMES, start=1) if n != "Dan")
    assert main(["adjudicate", str(game), dms(tmp_path, bids)]) == 0  # Dan's AI bids: turn 1's bid step resolves
    assert main(["seat", str(game), "Dan", "human"]) == 0  # Dan is back for the orders
    capsys.readouterr()
    assert main(["report", str(game), "--private", "Dan", "--turn", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert (
        lines[0] == "== Dan (Player#4): your summary, turn 1 =="
        and lines[1] == "Played by AI: Dan (normal -> heuristic)"
    )
    assert main(["report", str(game), "--private", "Bob"]) == 0
    assert "Played by AI" not in capsys.readouterr().out
    assert main(["report", str(game), "--turn", "1"]) == 0  # the channel was told the same
    assert "Played by AI: Dan (normal -> heuristic)" in capsys.readouterr().out.splitlines()
