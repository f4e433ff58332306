"""What ``regent adjudicate`` tells the GM and each player about a step: the seats the rulebook default played
(in their own summaries), an orders step nobody gave orders in, and a DMs file run again as it grows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service import gamefile
from service.cli import main
from tests.gm.files import dms, new_game

NAMES = ["Alice", "Bob", "Carol"]


@pytest.fixture()
def game_file(tmp_path):
    return new_game(tmp_path, NAMES, "ring-3", 1)


def run(capsys, *argv: str) -> str:
    capsys.readouterr()
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_a_seat_the_rulebook_default_played_is_told_so_in_its_own_summary_alone(game_file, tmp_path, capsys):
    # Bob never sends his bid nor his orders: the GM forces both steps; Alice and Carol send theirs
    run(capsys, "adjudicate", str(game_file), dms(tmp_path, "== Alice ==\nBid 5\n== Carol ==\nBid 3\n"), "--force")
    out = run(capsys, "adjudicate", str(game_file),
              dms(tmp_path, "== Alice ==\nFortify! P1\n== Carol ==\nnone\n"), "--force")
    assert "Rulebook defaults for: Bob in the orders step" in out  # the public line, in display names
    bob = run(capsys, "report", str(game_file), "--private", "Bob").splitlines()
    assert bob[0] == "== Bob (Player#2): your summary, turn 1 =="
    # rules: 003 1. Protector Ranking (bid 0) and 003 3. Negotiation and Orders (Fortify!): each step named
    assert bob[1] == ("Your bid DM for turn 1 was not stored (none came in time, or none that could be read): "
                      "the rulebook default was played for you: Bid 0 (003 1. Protector Ranking).")
    assert bob[2].startswith("Your orders DM for turn 1 was not stored (none came in time, or none that could be "
                             "read): the rulebook default was played for you: Golden Fortify! P2 (003 3. Negotiation "
                             "and Orders)")
    # secrecy: a seat's summary has only its own; Alice and Carol sent theirs, and are told nothing of Bob's
    for other in ("Alice", "Carol"):
        text = run(capsys, "report", str(game_file), "--private", other)
        assert "not received" not in text and "rulebook default" not in text


def test_an_orders_step_where_every_seat_sent_none_says_no_orders_were_given(game_file, tmp_path, capsys):
    run(capsys, "adjudicate", str(game_file), dms(tmp_path, "".join(f"== {n} ==\nBid 0\n" for n in NAMES)))
    # docs/dm-syntax.md: `none` is no orders at all (the units stay where they are), not the silent seat's Fortify!
    out = run(capsys, "adjudicate", str(game_file), dms(tmp_path, "".join(f"== {n} ==\nnone\n" for n in NAMES)))
    lines = out.splitlines()
    assert "== Turn 1 ==" in lines, out  # the step's report was empty
    at = lines.index("== Turn 1 ==")
    assert lines[at + 1] == "- No orders this turn: every player sent none, so every Army Unit stays where it is."
    assert lines[at + 2].startswith("Turn 1, consolidation step: waiting for")
    # an engine event (rules: 003 4. Execute Orders), so the turn's report says it later too
    assert "- No orders this turn: every player sent" in run(capsys, "report", str(game_file), "--turn", "1")
    # one seat's order is the report's own line: the others' none is not called "no orders this turn"
    run(capsys, "adjudicate", str(game_file), "--force")
    out = run(capsys, "adjudicate", str(game_file),
              dms(tmp_path, "== Alice ==\nWork, work! P1\n== Bob ==\nnone\n== Carol ==\nnone\n"))
    assert "- Alice: Work, work! P1" in out and "No orders this turn" not in out


BIDS = "== Alice ==\nBid 5\n== Bob ==\nBid 5\n== Carol ==\nBid 3\n"  # Alice and Bob tie: a re-bid step (003)


def test_a_grown_dms_file_run_again_reads_only_its_new_dms(game_file, tmp_path, capsys):
    path = tmp_path / "dms.txt"
    path.write_text(BIDS, encoding="utf-8")
    assert "rebid step: waiting for Player#1 (Alice), Player#2 (Bob)" in run(capsys, "adjudicate", str(game_file),
                                                                           str(path))
    path.write_text(BIDS + "== Alice ==\nBid 7\n", encoding="utf-8")  # Alice's re-bid arrives
    out = run(capsys, "adjudicate", str(game_file), str(path))
    # the three bids the first run read are counted in one line; none is read again against the re-bid step
    assert f"{path}: 3 DM(s) already read by an earlier run, not read again (headers at lines 1, 3, 5)" in out
    assert "no decision to make" not in out and "already in" not in out
    assert out.splitlines()[1] == "Player#1 (Alice): stored: Bid 7"  # her re-bid, not her bid read again
    gf = gamefile.read(game_file)
    assert {s: d.bid for s, d in gf.game.state.submissions.items()} == {"Player#1": 7}
    # a new DM that is refused still gets its one line, and holds the step; the old ones stay left out
    path.write_text(BIDS + "== Alice ==\nBid 7\n== Bob ==\nBid 999\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["adjudicate", str(game_file), str(path)]) == 2
    out, err = capsys.readouterr()
    assert "4 DM(s) already read" in out and "Player#2 (Bob): rejected (DM at line 9)" in err
    # the same file run again reads the refused DM again (it was not used), then its correction supersedes it
    path.write_text(BIDS + "== Alice ==\nBid 7\n== Bob ==\nBid 999\n== Bob ==\nBid 6\n", encoding="utf-8")
    out = run(capsys, "adjudicate", str(game_file), str(path))
    assert "rejected (DM at line 9)" in out and "superseded by the DM at line 11" in out
    assert "== Turn 1 ==" in out and gamefile.read(game_file).game.step == "orders"
    out = run(capsys, "adjudicate", str(game_file), str(path))  # nothing new: every DM in it was read
    assert out.splitlines()[0].startswith(f"{path}: 6 DM(s) already read") and len(out.splitlines()) == 2


def test_a_run_that_only_reads_unused_dms_keeps_the_backup_of_the_last_change(game_file, tmp_path, capsys):
    run(capsys, "adjudicate", str(game_file), dms(tmp_path, BIDS))
    backup = gamefile.backup_path(game_file).read_bytes()
    out = run(capsys, "adjudicate", str(game_file), dms(tmp_path, "== Carol ==\nBid 9\n", "late.txt"))
    assert "Player#3 (Carol): has no decision to make in the rebid step; the DM at line 1 is not used" in out
    assert gamefile.backup_path(game_file).read_bytes() == backup  # copying it back still undoes the bids
    assert "already read" in run(capsys, "adjudicate", str(game_file), str(tmp_path / "late.txt"))


def test_a_new_file_under_the_same_name_is_read_whole(game_file, tmp_path, capsys):
    # the GM pastes each batch over the last: a DM whose text the last batch had too is still a new DM
    run(capsys, "adjudicate", str(game_file), dms(tmp_path, "== Alice ==\nBid 0\n== Bob ==\nBid 0\n"), "--force")
    run(capsys, "adjudicate", str(game_file), dms(tmp_path, "== Alice ==\nnone\n== Bob ==\nnone\n"), "--force")
    out = run(capsys, "adjudicate", str(game_file), dms(tmp_path, "== Alice ==\nnone\n"))
    assert "already read" not in out and "Player#1 (Alice): stored: Bid 0" in out  # her Consolidation DM
    assert out.splitlines()[0].endswith("dms.txt: not every DM an earlier run read from this file is still in it "
                                        "(a new batch pasted over it, or a DM edited after it was read), so all of "
                                        "it is read as new")  # said, as a DM edited in place does the same
    gf = gamefile.read(game_file)
    assert gf.game.step == "consolidation" and set(gf.game.state.submissions) == {"Player#1"}



CROL = "no seat is called 'Crol'; did you mean Player#3 (Carol)?"


def test_a_header_naming_no_seat_holds_the_step_until_every_seat_is_in_then_is_not_used(game_file, tmp_path,
                                                                                          capsys):
    path = tmp_path / "dms.txt"
    path.write_text("== Alice ==\nBid 5\n== Crol ==\nBid 3\n", encoding="utf-8")  # the GM misspelt Carol
    capsys.readouterr()
    assert main(["adjudicate", str(game_file), str(path), "--force"]) == 2
    out, err = capsys.readouterr()
    # one line: the file, the header's line, the closest seat; the other DMs read and stored
    assert f"{path} line 3: {CROL}" in err and "Player#1 (Alice): stored: Bid 5" in out
    # it may be Carol's (or Bob's) DM: not even --force stands the rulebook default in for a player who wrote
    assert "not resolved" in out and gamefile.read(game_file).game.step == "bid"
    # the file grows: Bob's DM and Carol's again under the right header; every seat is in, so the block can no
    # longer be used (DMs are final): said, not refused, and the step resolves (it was refused on every run)
    path.write_text("== Alice ==\nBid 5\n== Crol ==\nBid 3\n== Bob ==\nBid 2\n== Carol ==\nBid 3\n",
                    encoding="utf-8")
    out = run(capsys, "adjudicate", str(game_file), str(path))
    assert f"{path} line 3: {CROL}" in out and "every seat is in for the bid step, so that DM is not used" in out
    assert "== Turn 1 ==" in out and gamefile.read(game_file).game.step == "orders"
    out = run(capsys, "adjudicate", str(game_file), str(path))  # read: left out like the others
    assert "4 DM(s) already read by an earlier run, not read again (headers at lines 1, 3, 5, 7)" in out
    assert "Crol" not in out
    # the GM fixes the header after all: the same DM, read; it is not read again against the orders step
    path.write_text(path.read_text(encoding="utf-8").replace("Crol", "Carol"), encoding="utf-8")
    out = run(capsys, "adjudicate", str(game_file), str(path))
    assert "4 DM(s) already read" in out and "rejected" not in out and "not every DM" not in out
    assert not gamefile.read(game_file).game.state.submissions


def test_a_header_fixed_while_it_holds_the_step_is_read_as_that_seats_dm(game_file, tmp_path, capsys):
    path = tmp_path / "dms.txt"
    path.write_text("== Alice ==\nBid 5\n== Crol ==\nBid 3\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["adjudicate", str(game_file), str(path)]) == 2
    path.write_text("== Alice ==\nBid 5\n== Carol ==\nBid 3\n", encoding="utf-8")
    out = run(capsys, "adjudicate", str(game_file), str(path))
    assert "1 DM(s) already read" in out and "Player#3 (Carol): stored: Bid 3" in out and "not every DM" not in out
    assert {s: d.bid for s, d in gamefile.read(game_file).game.state.submissions.items()} == {"Player#1": 5,
                                                                                               "Player#3": 3}


def test_text_above_the_first_header_is_a_dm_naming_no_seat_and_the_others_are_read(game_file, tmp_path, capsys):
    capsys.readouterr()
    assert main(["adjudicate", str(game_file), dms(tmp_path, "\nBid 10\n== Alice ==\nBid 3\n")]) == 2
    out, err = capsys.readouterr()
    assert "dms.txt line 2: text before the first '== Player#N ==' header (whose DM is it?)" in err
    assert "Player#1 (Alice): stored: Bid 3" in out  # nothing of the file was read
    # a GM's own // note above the headers is no DM
    out = run(capsys, "adjudicate", str(game_file), dms(tmp_path, "// turn 1 bids\n== Bob ==\nBid 1\n", "b.txt"))
    assert "Player#2 (Bob): stored: Bid 1" in out


def test_a_resolved_step_is_saved_before_its_report_is_shown(game_file, monkeypatch):
    # `regent adjudicate game.bin --force | head -1`: the reader leaves as the report is printed (a broken pipe);
    # the step that report shows must be stored (it was printed, then lost with the rest of the run, exit 0)
    import builtins

    real_print = builtins.print

    def reader_gone(*args, **kwargs):
        if args and str(args[0]).startswith("== Turn"):
            raise BrokenPipeError
        real_print(*args, **kwargs)

    monkeypatch.setattr(builtins, "print", reader_gone)
    main(["adjudicate", str(game_file), "--force"])
    monkeypatch.undo()
    assert gamefile.read(game_file).game.step == "orders"  # the bids were resolved and stored


def _bank_game(tmp_path, position: dict) -> str:
    """A factions game at ``position`` where Ann (Lannuvár) may use the Bank of Lannuvár; Ben and Cy are AI seats."""
    import json

    provinces = {f"P{i}": {"owner": f"Player#{i}", "units": 3} for i in range(1, 5)}
    setup = {"board": "ring-4", "seed": 5, "options": {"factions": True},
             "players": [{"name": "Ann"}, {"name": "Ben", "agent": "heuristic"}, {"name": "Cy", "agent": "heuristic"},
                         {"name": "Di"}],
             "position": {"ranking": ["Player#1", "Player#2", "Player#3", "Player#4"], "provinces": provinces,
                          "factions": {"Player#1": "Lannuvar"}, "realm": {s: 60 for s in
                                                                          ("Player#1", "Player#2", "Player#3",
                                                                           "Player#4")}, **position}}
    (tmp_path / "setup.json").write_text(json.dumps(setup), encoding="utf-8")
    path = tmp_path / "game.bin"
    assert main(["new", str(path), "--setup", str(tmp_path / "setup.json")]) == 0
    return str(path)


def _posted(out: str) -> str:
    """The report the GM posts: what adjudicate printed down to the line not to post past."""
    return out.split("--- not for posting")[0]


def test_the_bank_round_of_a_dragon_attack_names_the_ai_seats_whose_commitments_it_shows(tmp_path, capsys):
    # rules: 003 The Bank of Lannuvár — Ann commits once the others' commitments are revealed; the attack's report
    # lists Ben's and Cy's (their AI's) again, and ended "Played by AI: none"
    path = _bank_game(tmp_path, {"turn": 4, "step": "dragon", "dpl": 6, "cards_in_play": ["There be Dragons!"],
                                 "attack": {"dpl": 6, "source": "card"}})
    first = _posted(run(capsys, "adjudicate", path, dms(tmp_path, "== Ann ==\nThe Bank of Lannuvár\n"
                                                                    "== Di ==\n1 from P4\n")))
    assert "The Bank of Lannuvár decides next: Ann" in first
    assert "Played by AI: Ben and Cy (heuristic)" in first
    assert gamefile.read(path).step_ai == {"Player#2": "heuristic", "Player#3": "heuristic"}  # kept for the round
    run(capsys, "seat", path, "Ben", "human")  # the AI's commitment stands, and so does the record of it
    bank = _posted(run(capsys, "adjudicate", path, dms(tmp_path, "== Ann ==\n2 from P1\n", "ann.txt")))
    assert "- Ben commits 3 from P2" in bank and "the Protectors win" in bank
    assert bank.rstrip().splitlines()[-1] == "Played by AI: Ben and Cy (heuristic)"
    assert gamefile.read(path).step_ai == {"Player#3": "heuristic"}  # the orders step's own: Cy's AI alone


def test_the_bank_bid_names_the_ai_seats_whose_bids_the_ranking_shows(tmp_path, capsys):
    # Ann activates the Bank in the Consolidation: she bids after Ben's and Cy's AI bids are revealed, and the
    # ranking's report, which lists them, said "Played by AI: none"
    path = _bank_game(tmp_path, {"turn": 3, "step": "consolidation"})
    first = _posted(run(capsys, "adjudicate", path, dms(tmp_path, "== Ann ==\nThe Bank of Lannuvár\n"
                                                                    "== Di ==\nBid 3\n")))
    assert "- Bids revealed: Ben " in first and "Played by AI: Ben and Cy (heuristic)" in first
    assert gamefile.read(path).game.step == "bank_bid"
    bank = _posted(run(capsys, "adjudicate", path, dms(tmp_path, "== Ann ==\nBid 4\n", "ann.txt")))
    assert "- Bids: Ann 4" in bank and "Protector Ranking: " in bank
    assert bank.rstrip().splitlines()[-1] == "Played by AI: Ben and Cy (heuristic)"


def test_a_turns_report_posted_again_names_whose_decisions_the_rulebook_made(game_file, tmp_path, capsys):
    # `regent report --turn N` left out the line `regent adjudicate --force` ended each forced step's report with
    run(capsys, "adjudicate", str(game_file), dms(tmp_path, "== Alice ==\nBid 5\n"))
    assert "Rulebook defaults" not in run(capsys, "report", str(game_file))  # nothing forced yet: no line
    bid = run(capsys, "adjudicate", str(game_file), "--force")
    assert "Rulebook defaults for: Bob, Carol in the bid step\n" in bid  # as the turn's report says it
    orders = run(capsys, "adjudicate", str(game_file), dms(tmp_path, "== Alice ==\nFortify! P1\n== Carol ==\nnone\n",
                                                           "orders.txt"), "--force")
    assert "Rulebook defaults for: Bob in the orders step\n" in orders
    # the turn's report covers both steps: each is named with the seats the rulebook's default played in it
    for argv in (["--turn", "1"], []):
        text = run(capsys, "report", str(game_file), *argv)
        # in the report's display names, as its every line (the service's game.advance says them so too)
        last = text.splitlines()[-1]
        assert last == "Rulebook defaults for: Bob, Carol in the bid step; Bob in the orders step", argv
        assert text.count("Rulebook defaults") == 1
    # the seats' own summaries are unchanged: Carol sent her orders (none), so hers names the bid step alone
    carol = run(capsys, "report", str(game_file), "--private", "Carol")
    assert "Your bid DM for turn 1 was not stored" in carol and "Your orders DM" not in carol


def test_a_silent_seats_summary_names_the_faction_the_rulebook_dealt_it(tmp_path, capsys):
    # turn 1 with factions chosen by the players: Bob sent no bid, so the default bid chose no faction and the game
    # dealt him one, public in the ranking's 'Factions:' line; his own summary said only 'Bid 0'
    setup = {"board": "ring-3", "seed": 2, "options": {"factions": True},
             "players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy", "faction": "Hodir"}]}
    (tmp_path / "setup.json").write_text(json.dumps(setup), encoding="utf-8")
    path = str(tmp_path / "g.bin")
    run(capsys, "new", path, "--setup", str(tmp_path / "setup.json"))
    run(capsys, "adjudicate", path, dms(tmp_path, "== Ann ==\nBid 2, Iron Light\n== Cy ==\nBid 1\n"), "--force")
    bob = gamefile.read(Path(path)).game.state.players["Player#2"].faction
    told = run(capsys, "report", path, "--private", "Bob", "--turn", "1")
    assert f"Your faction, which you did not choose, was dealt by chance: {bob} (003 Factions)." in told
    for other in ("Ann", "Cy"):  # Ann chose hers, Cy's was the setup's: neither was dealt
        assert "dealt by chance" not in run(capsys, "report", path, "--private", other, "--turn", "1")


def test_a_seat_defaulted_in_a_turns_second_dragon_attack_is_told_which_attack(tmp_path, capsys):
    # rules: 003 Dragon's Power Level (the After Burner attacks again in the same turn): every seat commits against the
    # card's attack (DPL 3), then nobody against the After Burner's (DPL 1), forced. A seat's summary names the
    # attack the default played for: "your Dragon attack DM for turn 3 was not stored" alone, to a player who sent one
    provinces = {f"P{i}": {"owner": f"Player#{i}", "units": 2} for i in range(1, 4)}
    setup = {"board": "ring-3", "seed": 11,
             "players": [{"seat": f"Player#{i}", "name": n} for i, n in enumerate(NAMES, start=1)],
             "position": {"turn": 3, "step": "dragon", "dpl": 3, "provinces": provinces,
                          "cards_in_play": ["Deep Snow", "There be Dragons!"], "attack": {"dpl": 3, "source": "card"},
                          "pending_attacks": ["after_burner"]}}
    (tmp_path / "setup.json").write_text(json.dumps(setup), encoding="utf-8")
    game = str(tmp_path / "game.bin")
    run(capsys, "new", game, "--setup", str(tmp_path / "setup.json"))
    out = run(capsys, "adjudicate", game, dms(tmp_path, "".join(f"== {n} ==\n2 from P{i}\n"
                                                                for i, n in enumerate(NAMES, start=1))))
    assert "- The Dragon attacks the Realm with DPL 1 (after burner)." in out.splitlines()
    forced = run(capsys, "adjudicate", game, "--force").splitlines()
    # the public line names the attack too: the channel saw two attacks this turn, and the seats sent DMs for one
    everyone = f"Rulebook defaults for: {', '.join(NAMES)} in the dragon step (the attack at DPL 1)"
    assert everyone in forced
    assert everyone in run(capsys, "report", game, "--turn", "3").splitlines()
    bob = run(capsys, "report", game, "--private", "Bob", "--turn", "3").splitlines()
    assert bob[1] == ("Your Dragon attack DM for turn 3 (the attack at DPL 1) was not stored (none came in time, or "
                      "none that could be read): the rulebook default was played for you: Turn off the lights (no Army "
                      "Units committed) (003 Determine Protector US step).")
