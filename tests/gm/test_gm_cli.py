"""The GM's file workflow: ``regent new``, ``regent seat`` and ``regent adjudicate`` with DMs as they arrive."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.protectors.game import Game
from service import gamefile
from service.cli import main
from service.hosting import HostedGame
from tests.gm.files import dms, new_game

NAMES = ["Alice", "Bob", "Carol", "Dan", "Eve"]


@pytest.fixture()
def game_file(tmp_path):
    return new_game(tmp_path, NAMES, "ring-5", 3, agents={4: "heuristic"})  # players[i].agent: an AI seat


def at_orders(tmp_path, capsys) -> Path:
    """A 5-seat game of NAMES made from a setup file by regent new, its bids in: at turn 1's orders step."""
    setup = tmp_path / "setup.json"
    setup.write_text(json.dumps({"board": "ring-5", "seed": 3, "players": [{"name": n} for n in NAMES]}))
    game = tmp_path / "g.bin"
    assert main(["new", str(game), "--setup", str(setup)]) == 0
    bids = "".join(f"== {n} ==\nBid {i}\n" for i, n in enumerate(NAMES, start=1))
    assert main(["adjudicate", str(game), dms(tmp_path, bids)]) == 0
    capsys.readouterr()
    return game


def test_new_takes_agents_and_display_names(game_file, capsys):
    capsys.readouterr()
    assert main(["new", str(game_file), "--setup", str(game_file.parent / "setup.json")]) == 2
    assert "already exists" in capsys.readouterr().err  # a running game is never overwritten by mistake
    assert main(["new", str(game_file), "--setup", str(game_file.parent / "setup.json"), "--overwrite"]) == 0
    out = capsys.readouterr().out
    gf = gamefile.read(game_file)
    assert gf.agents == {"Player#5": "heuristic"} and gf.game.state.players["Player#2"].name == "Bob"
    assert "Player#5 (Eve) [AI heuristic]" in out
    # the deadline in local time with what is left, never a Unix timestamp
    assert re.search(r"deadline \w{3} \d\d \w{3} \d{4} \d\d:\d\d", out) and "(in 23h 59m)" in out
    assert not re.search(r"\d{9,}", out)


def test_dms_are_stored_as_they_arrive_and_resolve_when_all_are_in(game_file, tmp_path, capsys):
    capsys.readouterr()
    before = game_file.read_bytes()
    assert main(["adjudicate", str(game_file), dms(tmp_path, "== Alice ==\nBid 10\n== player 2 ==\nBid 5\n")]) == 0
    out = capsys.readouterr().out
    assert "Player#1 (Alice): stored: Bid 10" in out and "Player#2 (Bob): stored: Bid 5" in out
    # the AI seat decided too, with a reason a GM can paste
    assert re.search(r"AI Player#5 \(Eve\) \[heuristic\], bid: bids \d+ \(.+\)", out)
    assert "waiting for Player#3 (Carol), Player#4 (Dan)" in out and "in: Player#1 (Alice)" in out
    gf = gamefile.read(game_file)
    assert gf.game.step == "bid" and set(gf.game.state.submissions) == {"Player#1", "Player#2", "Player#5"}
    assert gamefile.backup_path(game_file).read_bytes() == before  # the previous version is kept
    # the late DMs arrive: everyone is in, so the step resolves without --advance
    assert main(["adjudicate", str(game_file), dms(tmp_path, "== Carol ==\nBid 3\n== DAN ==\nbid 4\n")]) == 0
    out = capsys.readouterr().out
    assert "== Turn 1 ==" in out and "Played by AI: Eve (heuristic)" in out
    gf = gamefile.read(game_file)
    assert gf.game.step == "orders" and gf.step_ai == {"Player#5": "heuristic"}  # Eve's orders, this step
    assert gf.ai_played == {"Player#5": ["heuristic"]}


def test_a_bad_dm_is_not_stored_but_the_others_are(game_file, tmp_path, capsys):
    capsys.readouterr()
    code = main(["adjudicate", str(game_file), dms(tmp_path, "== Alice ==\nBid 999\n== Bob ==\nBid 5\n"
                                                            "== Crol ==\nBid 1\n")])
    captured = capsys.readouterr()
    assert code == 2
    assert "Player#2 (Bob): stored: Bid 5" in captured.out
    assert "Player#1 (Alice): rejected (DM at line 1)" in captured.err
    assert "no seat is called 'Crol'; did you mean Player#3 (Carol)?" in captured.err
    assert "2 DM(s) not stored" in captured.err and "Traceback" not in captured.err
    assert set(gamefile.read(game_file).game.state.submissions) == {"Player#2", "Player#5"}


def test_advance_needs_every_dm_and_force_fills_the_silent_seats(game_file, tmp_path, capsys):
    capsys.readouterr()
    assert main(["adjudicate", str(game_file), "--advance"]) == 2
    err = capsys.readouterr().err
    assert "cannot resolve the bid step: waiting for Player#1 (Alice)" in err and "--force" in err
    assert gamefile.read(game_file).game.step == "bid"
    assert main(["adjudicate", str(game_file), "--force"]) == 0
    out = capsys.readouterr().out
    assert "Rulebook defaults for: Alice, Bob, Carol, Dan in the bid step" in out
    assert gamefile.read(game_file).game.step == "orders"


def test_the_seats_the_rulebook_default_played_are_named_in_seat_order(tmp_path, capsys):
    # the Consolidation waits for the seats in the ranking's order; the line named them so (Player#7 before #2)
    path = new_game(tmp_path, [f"P{i}" for i in range(1, 8)], "ring-7", 5)
    lines = []
    for _ in range(3):  # bids, orders, Consolidation: every seat silent
        capsys.readouterr()
        assert main(["adjudicate", str(path), "--force"]) == 0
        lines += [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("Rulebook defaults for: ")]
    assert len(lines) == 3
    every = "Rulebook defaults for: " + ", ".join(f"P{i}" for i in range(1, 8))
    assert lines == [f"{every} in the {step} step" for step in ("bid", "orders", "consolidation")]


def test_what_adjudicate_printed_is_not_posted_again(game_file, capsys):
    assert main(["adjudicate", str(game_file), "--force"]) == 0
    printed = capsys.readouterr().out
    assert "== Turn 1 ==" in printed or "Turn 1" in printed
    assert gamefile.read(game_file).posted > 0  # the step's report counts as posted
    assert main(["report", str(game_file), "--since-last"]) == 0
    again = capsys.readouterr()
    assert again.out.strip() == "" and "nothing new since the last post" in again.err


def test_dry_run_saves_nothing(game_file, tmp_path, capsys):
    before = game_file.read_bytes()
    assert main(["adjudicate", str(game_file), dms(tmp_path, "== Alice ==\nBid 10\n"), "--force", "--dry-run"]) == 0
    assert "dry run: nothing saved" in capsys.readouterr().out and game_file.read_bytes() == before


def test_seat_an_ai_and_give_the_seat_back(game_file, tmp_path, capsys):
    assert main(["seat", str(game_file), "Dan", "normal"]) == 0  # a difficulty, by display name
    assert "Player#4 (Dan): AI normal -> heuristic;" in capsys.readouterr().out  # as chosen, with what plays
    assert gamefile.read(game_file).agents == {"Player#4": "heuristic", "Player#5": "heuristic"}
    assert main(["seat", str(game_file), "Player#5", "human"]) == 0
    assert gamefile.read(game_file).agents == {"Player#4": "heuristic"}
    assert main(["seat", str(game_file)]) == 0
    listing = capsys.readouterr().out
    assert "Player#4 (Dan): AI normal -> heuristic\n" in listing and "Player#5 (Eve): human" in listing
    assert main(["seat", str(game_file), "Player#9", "random"]) == 2
    assert main(["seat", str(game_file), "Bob", "grandmaster"]) == 2
    err = capsys.readouterr().err
    assert "no seat is called 'Player#9'" in err and "unknown agent 'grandmaster'" in err
    assert main(["seat", str(game_file), "Bob", "hrad"]) == 2  # a typo of a level gets the level
    assert "unknown agent 'hrad' (did you mean hard?); known agents" in capsys.readouterr().err
    assert gamefile.read(game_file).agents == {"Player#4": "heuristic"}


def test_a_missing_optional_package_says_which_extra(game_file, capsys, monkeypatch):
    import agents.registry

    def missing(name, seed=None):
        raise ModuleNotFoundError("No module named 'numpy'", name="numpy")

    monkeypatch.setattr(agents.registry, "make_agent", missing)
    assert main(["seat", str(game_file), "Bob", "ppo:hard"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs numpy" in err and "pip install -e '.[rl]'" in err


@pytest.mark.parametrize("what", ["game", "dms"])
def test_missing_files_are_one_line_errors(game_file, tmp_path, capsys, what):
    args = ["adjudicate", str(tmp_path / "nope.bin") if what == "game" else str(game_file)]
    if what == "dms":
        args.append(str(tmp_path / "nope.txt"))
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("regent: error: ")
    assert ("no such game file" if what == "game" else "no such DMs file") in err


@pytest.mark.parametrize("kind", ["missing", "directory", "device", "not utf-8"])
def test_a_setup_that_is_no_file_is_named_in_one_line(tmp_path, capsys, kind):
    path = {"missing": tmp_path / "nope.json", "directory": tmp_path, "device": Path("/dev/null"),
            "not utf-8": tmp_path / "latin1.json"}[kind]
    if kind == "not utf-8":
        path.write_bytes(b'{"board": "ring-5", "name": "Caf\xe9"}')
    out = tmp_path / "g.bin"
    assert main(["new", "--setup", str(path), str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"regent: error: {path}: ")
    assert {"missing": "no such setup file", "directory": "not a regular file", "device": "not a regular file",
            "not utf-8": "not UTF-8 text"}[kind] in err
    assert not out.exists()


def test_headers_as_pasted_from_discord_name_their_seat(game_file, tmp_path, capsys):
    capsys.readouterr()
    text = "**== Alice ==**\nBid 10\n== @Bob ==\nBid 5\n== Carol: ==\nBid 3\n"
    assert main(["adjudicate", str(game_file), dms(tmp_path, text)]) == 0
    assert set(gamefile.read(game_file).game.state.submissions) == {"Player#1", "Player#2", "Player#3",
                                                                     "Player#5"}


def test_a_conversation_copied_from_discord_reads_without_headers_added(game_file, tmp_path, capsys):
    """Discord's copy of a message group starts with the sender and when it was sent: that line is the DM's header,
    so a GM can paste the DMs as copied. The GM's own replies are left out with --gm, and said."""
    capsys.readouterr()
    text = ("Alice — Today at 14:03\nBid 10\n"
            "Regent GM — Today at 14:04\ngot it, thanks!\n"
            "@Bob – Yesterday at 9:41 PM\nBid 5\nthx\n"
            "carol — 11/28/26, 2:03 PM\nBid 3 — final answer\n")  # a dash in an order's line is no header
    path = dms(tmp_path, text)
    assert main(["adjudicate", str(game_file), path, "--gm", "Regent GM"]) == 2
    out, err = capsys.readouterr()
    assert f"{path}: 1 message(s) of yours (--gm) left out (headers at line 3)" in out
    assert "Player#1 (Alice): stored: Bid 10" in out and "Player#2 (Bob): stored: Bid 5" in out
    assert "Player#3 (Carol): rejected (DM at line 8): 'Bid 3 — final answer'" in err  # read as Carol's DM
    assert set(gamefile.read(game_file).game.state.submissions) == {"Player#1", "Player#2", "Player#5"}


@pytest.mark.parametrize("name", ["Alice", "@alice", "Player#1", "indigo"])
def test_gm_naming_a_seat_is_refused_and_nothing_is_read(game_file, tmp_path, capsys, name):
    """A slip (a player's name for --gm) would leave that player's DMs out without a word."""
    before = game_file.read_bytes()
    capsys.readouterr()
    path = dms(tmp_path, "Alice — Today at 14:03\nBid 10\nBob — Today at 14:04\nBid 5\n")
    assert main(["adjudicate", str(game_file), path, "--gm", name]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("regent: error: ") and f"--gm: {name!r} names" in err
    assert "names the seat Player#1 (Alice), whose DMs it would leave out" in err
    assert game_file.read_bytes() == before  # nothing stored, nothing marked read


def test_a_reply_of_the_gms_own_without_gm_is_refused_with_the_option_named(game_file, tmp_path, capsys):
    path = dms(tmp_path, "Alice — 28/11/2026 14:03\nBid 10\nRegent GM — 28/11/2026 14:05\nthanks\n"
                         "Crol — 28/11/2026 14:06\nBid 3\n")
    assert main(["adjudicate", str(game_file), path]) == 2
    err = capsys.readouterr().err
    assert f"{path} line 3: no seat is called 'Regent GM' (seats:" in err
    assert "if it is your own message, --gm 'Regent GM' leaves it out; that DM is not stored" in err
    # a name close to a seat's is a typo, not the GM: only the closest seat is named
    assert "no seat is called 'Crol'; did you mean Player#3 (Carol)?" in err and err.count("--gm") == 1
    assert set(gamefile.read(game_file).game.state.submissions) == {"Player#1", "Player#5"}


@pytest.mark.parametrize("line", ["Bid 5 — 14:03", "Alice — today", "— Today at 14:03", "Alice - Today at 14:03",
                                  "Alice — Today at noon", "March! 1 from P1 — Today at 14:03 ok"])
def test_lines_short_of_discords_copy_header_are_no_header(line):
    from service.cli.adjudicate import DISCORD_COPY

    assert DISCORD_COPY.match(line) is None


def test_text_before_the_first_header_is_an_error(game_file, tmp_path, capsys):
    assert main(["adjudicate", str(game_file), dms(tmp_path, "Bid 10\n== Alice ==\nBid 3\n")]) == 2
    assert "line 1: text before the first" in capsys.readouterr().err
    assert set(gamefile.read(game_file).game.state.submissions) == {"Player#1", "Player#5"}  # the rest is read


def test_a_dms_file_with_no_dm_in_it_is_said(game_file, tmp_path, capsys):
    for text in ("", "\n\n", "// nothing yet\n"):
        capsys.readouterr()
        assert main(["adjudicate", str(game_file), dms(tmp_path, text)]) == 0
        assert capsys.readouterr().out.startswith(f"{tmp_path / 'dms.txt'}: no DM in it (each goes under a")


def test_a_service_export_works_in_every_command(tmp_path, capsys):
    hosted, _, _ = HostedGame.create("g-1", {"board": "ring-5", "seed": 2, "agents": {"Player#3": "caretaker"}},
                                     None)
    hosted.submit(None, "Player#1", "Bid 7", "gm")
    path = tmp_path / "exported.bin"
    path.write_bytes(hosted.export())
    assert main(["adjudicate", str(path), dms(tmp_path, "== Player#2 ==\nBid 2\n"), "--force"]) == 0
    out = capsys.readouterr().out
    assert "AI Player#3 [caretaker]" in out and "Played by AI: Player#3 (caretaker)" in out
    assert main(["render", str(path), "-o", str(tmp_path / "b.svg")]) == 0
    assert main(["seat", str(path), "Player#4", "random"]) == 0
    assert gamefile.read(path).agents == {"Player#3": "caretaker", "Player#4": "random"}


def test_an_old_engine_blob_still_works(tmp_path, capsys):
    path = tmp_path / "old.bin"
    path.write_bytes(Game({"board": "ring-5", "seed": 1}).to_blob())
    assert main(["adjudicate", str(path), dms(tmp_path, "== Player#1 ==\nBid 4\n")]) == 0
    assert "deadline unknown" in capsys.readouterr().out
    assert gamefile.read(path).game.state.submissions


def test_play_saves_a_game_file_with_its_ai_seats(tmp_path):
    path = tmp_path / "played.bin"
    assert main(["play", "--board", "ring-5", "--seats", "caretaker,random", "--seed", "2", "--quiet",
                 "--save", str(path)]) == 0
    gf = gamefile.read(path)
    assert gf.game.over and gf.agents == {"Player#1": "caretaker", "Player#2": "random"}


def test_lenient_drops_only_the_invalid_lines_and_a_grown_file_can_be_run_again(game_file, tmp_path, capsys):
    capsys.readouterr()
    text = "== Alice ==\nHi GM!\n\nBid 10\nFaction Hodir\nThanks, Alice\n== Bob ==\nBid: 20 $Realm\n"
    path = dms(tmp_path, text)
    assert main(["adjudicate", str(game_file), path]) == 2  # strict: Alice's DM is refused whole
    assert "Player#1 (Alice): rejected (DM at line 1)" in capsys.readouterr().err
    assert main(["adjudicate", str(game_file), path, "--lenient"]) == 0
    out = capsys.readouterr().out
    assert "Player#1 (Alice): stored: Bid 10" in out
    assert "dropped line 5: 'Faction Hodir'" in out and "ignored line 2: 'Hi GM!'" in out
    assert "1 DM(s) already read by an earlier run, not read again (headers at line 7)" in out  # Bob's: stored
    assert "Player#2 (Bob): " not in out  # by the first run, it is not read again (nor called "already in")
    assert "''" not in out  # blank lines are not listed
    gf = gamefile.read(game_file)
    assert {s: d.bid for s, d in gf.game.state.submissions.items()} == {"Player#1": 10, "Player#2": 20,
                                                                          "Player#5": 15}


def test_lenient_never_stores_a_dm_whose_every_order_it_dropped_as_a_choice_of_nothing(game_file, tmp_path, capsys):
    # a DM for another step in a file grown as DMs arrive, then the seat's real DM: --lenient dropped the only
    # line of the first and stored what was left, nothing (Bid 0), as final; the real DM was then "already in"
    text = "== Alice ==\nFortify! P1\n== Alice ==\nBid 12\n"
    capsys.readouterr()
    assert main(["adjudicate", str(game_file), dms(tmp_path, text), "--lenient"]) == 0
    out = capsys.readouterr().out
    # (--lenient mends only a seat's last DM in the file: the first is refused as without it, then superseded)
    assert "Player#1 (Alice): rejected (DM at line 1)" in out and "not a choice for the bid step" in out
    assert "superseded by the DM at line 3" in out and "Player#1 (Alice): stored: Bid 12" in out
    assert gamefile.read(game_file).game.state.submissions["Player#1"].bid == 12
    # alone, it is refused and holds the step (her DM did come), as without --lenient
    assert main(["adjudicate", str(game_file), dms(tmp_path, "== Bob ==\nMarch! 1 from P2 to P3\n", "b.txt"),
                 "--lenient", "--force"]) == 2
    assert "Player#2 (Bob): rejected (DM at line 1)" in capsys.readouterr().err
    assert "Player#2" not in gamefile.read(game_file).game.state.submissions


def test_lenient_keeps_a_players_correction_not_their_first_dm(game_file, tmp_path, capsys):
    # --lenient (run to mend another player's DM) stored Alice's first DM without its bad line, and her correction
    # below it was "already in ... not used (DMs are final)"; without --lenient the correction stood
    text = "== Alice ==\nBid 10\ngoing big!\n== Alice ==\nchanged my mind, sorry:\nBid 12\n== Bob ==\nBid 5\nyolo\n"
    capsys.readouterr()
    assert main(["adjudicate", str(game_file), dms(tmp_path, text), "--lenient"]) == 0
    out = capsys.readouterr().out
    assert "Player#1 (Alice): stored: Bid 12" in out and "superseded by the DM at line 4" in out
    assert "Player#2 (Bob): stored: Bid 5" in out and "dropped line 9: 'yolo'" in out  # his only DM: mended
    subs = gamefile.read(game_file).game.state.submissions
    assert subs["Player#1"].bid == 12 and subs["Player#2"].bid == 5


def test_a_refused_dm_holds_the_step_in_a_run_without_its_file(game_file, tmp_path, capsys):
    # the guide's step 4 is `regent adjudicate game.bin --force`, without the DMs file: Alice's refused DM held the
    # step only when the file was passed again, so --force played her default (and told her no DM was received)
    path = dms(tmp_path, "== Alice ==\nBid 999\n== Bob ==\nBid 5\n")
    capsys.readouterr()
    assert main(["adjudicate", str(game_file), path]) == 2
    capsys.readouterr()
    assert gamefile.read(game_file).refused["Player#1"]["line"] == 1
    assert main(["adjudicate", str(game_file), "--force"]) == 2
    captured = capsys.readouterr()
    assert "Player#1 (Alice): rejected by an earlier run (DM at line 1 of dms.txt): 'Bid 999'" in captured.err
    assert "not resolved: a DM was not stored" in captured.out and "the bid step is held by 1 DM(s)" in captured.err
    state = gamefile.read(game_file).game
    assert state.step == "bid" and "Player#1" not in state.state.submissions
    # another DMs file with her corrected DM: stored, and the refusal no longer holds the step
    assert main(["adjudicate", str(game_file), dms(tmp_path, "== Carol ==\nBid 3\n", "c.txt")]) == 0  # a reminder
    captured = capsys.readouterr()
    assert "Player#3 (Carol): stored: Bid 3" in captured.out and "rejected by an earlier run" in captured.err
    assert main(["adjudicate", str(game_file), dms(tmp_path, "== Alice ==\nBid 9\n", "b.txt")]) == 0
    assert "Player#1 (Alice): the DM an earlier run rejected; superseded by the DM at line 1" in capsys.readouterr().out
    assert gamefile.read(game_file).refused == {}
    assert main(["adjudicate", str(game_file), "--force"]) == 0
    assert gamefile.read(game_file).game.step == "orders"


def test_a_refused_dm_the_gm_deletes_from_its_file_holds_the_step_no_more(game_file, tmp_path, capsys):
    path = dms(tmp_path, "== Alice ==\nBid 999\n== Bob ==\nBid 5\n")
    assert main(["adjudicate", str(game_file), path]) == 2
    Path(path).write_text("== Bob ==\nBid 5\n", encoding="utf-8")  # the GM gave up on it: the block deleted
    capsys.readouterr()
    assert main(["adjudicate", str(game_file), path, "--force"]) == 0
    assert "Rulebook defaults for: Alice, Carol, Dan in the bid step" in capsys.readouterr().out
    assert gamefile.read(game_file).refused == {}


def test_a_rejected_dm_fixed_later_in_the_same_file_no_longer_holds_the_step(game_file, tmp_path, capsys):
    # the file grows as DMs arrive: Alice's refused DM, then her corrected one, then everyone else's
    capsys.readouterr()
    text = ("== Alice ==\nBid 999\n== Alice ==\nBid 10\n== Bob ==\nBid 5\n== Carol ==\nBid 3\n"
            "== Dan ==\nBid 4\n")
    assert main(["adjudicate", str(game_file), dms(tmp_path, text)]) == 0
    captured = capsys.readouterr()
    assert "Player#1 (Alice): rejected (DM at line 1)" in captured.out  # still said, as superseded
    assert "superseded by the DM at line 3" in captured.out and "not stored" not in captured.err
    assert "== Turn 1 ==" in captured.out  # every seat is in: the step resolved as the rules say
    assert gamefile.read(game_file).game.step == "orders"


def test_a_refused_dm_of_a_seat_an_ai_took_since_no_longer_holds_the_step(game_file, tmp_path, capsys):
    path = dms(tmp_path, "== Alice ==\nBid 999\n== Bob ==\nBid 5\n== Carol ==\nBid 3\n== Dan ==\nBid 4\n")
    capsys.readouterr()
    assert main(["adjudicate", str(game_file), path]) == 2
    assert "Player#1 (Alice): rejected (DM at line 1)" in capsys.readouterr().err
    assert main(["seat", str(game_file), "Alice", "heuristic"]) == 0  # she went silent: an AI takes her seat
    capsys.readouterr()
    # the file run again: her refused DM is read again, the AI decides for her; the step was held (exit 2) though
    # every seat was in, by a DM the AI's decision had replaced
    assert main(["adjudicate", str(game_file), path]) == 0
    out = capsys.readouterr().out
    assert "AI Player#1 (Alice) [heuristic], bid:" in out
    assert "Player#1 (Alice): rejected (DM at line 1)" in out
    assert "superseded by the decision of its AI (heuristic)" in out
    assert "== Turn 1 ==" in out and gamefile.read(game_file).game.step == "orders"


def test_render_takes_a_display_name_for_the_seat(game_file, tmp_path, capsys):
    out = tmp_path / "bob.svg"
    assert main(["render", str(game_file), "-o", str(out), "--seat", "bob"]) == 0
    mine = out.read_bytes()
    assert main(["render", str(game_file), "-o", str(out), "--seat", "Player#2"]) == 0
    assert out.read_bytes() == mine  # the same seat's view
    assert main(["render", str(game_file), "-o", str(out), "--seat", "Bobby"]) == 2
    assert "did you mean Player#2 (Bob)?" in capsys.readouterr().err


def test_any_command_missing_an_extra_names_it(game_file, tmp_path, capsys, monkeypatch):
    import service.render

    def missing(*args, **kwargs):
        raise ModuleNotFoundError("No module named 'matplotlib'", name="matplotlib")

    monkeypatch.setattr(service.render, "render_board", missing)
    assert main(["render", str(game_file), "-o", str(tmp_path / "b.png")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs matplotlib" in err and "pip install -e '.[render]'" in err


def test_a_shipped_policy_takes_a_seat(game_file, tmp_path, capsys):
    assert main(["seat", str(game_file), "Player#4", "ppo:normal"]) == 0
    assert main(["adjudicate", str(game_file)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"AI Player#4 \(Dan\) \[ppo:normal\], bid: bids \d+ "
                     r"\(the trained policy's choice, drawn at temperature 1: this level varies its play\)", out)


def test_the_fair_level_says_which_of_its_two_parts_decided(game_file, capsys):
    """``fair`` bids its opening bid and commits to the Dragon as the heuristic does, and plays the rest as
    its policy: each line says which, so a GM can tell the players."""
    assert main(["seat", str(game_file), "Player#4", "fair"]) == 0
    assert main(["adjudicate", str(game_file), "--force"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"AI Player#4 \(Dan\) \[fair\], bid: bids \d+ \(aims for a high rank", out)
    assert re.search(r"AI Player#4 \(Dan\) \[fair\], orders: .* \(the trained policy's choice, drawn at "
                     r"temperature 3\.5: this level varies its play\)", out)


def test_the_expert_level_says_which_candidate_won_and_whose_it_was(game_file, capsys):
    """``expert`` searches orders, Dragon and Consolidation decisions: the line names the winning candidate's
    origin (the policy's, the heuristic's, a heuristic variant's), and says when a step is not searched."""
    assert main(["seat", str(game_file), "Player#4", "expert"]) == 0
    assert main(["adjudicate", str(game_file), "--force"]) == 0  # turn 1's bid: not searched
    assert main(["adjudicate", str(game_file), "--force"]) == 0  # the orders: searched
    out = capsys.readouterr().out
    # a 5-seat game: strong's opening bid is the policy's (agents/strong.py: no bid from 7 seats on)
    assert re.search(r"\[expert -> search\], bid: bids \d+ \(strong's choice: this step is not searched\)", out)
    assert re.search(r"\[expert -> search\], orders: .* \((the only candidate|the best of \d+ candidates in simulated "
                     r"play-outs, (strong's own choice|the heuristic's|one sampled from strong at temperature "
                     r"[\d.]+|the heuristic's with [a-z_]+ \w+))\)", out)


def test_a_failing_agent_falls_back_to_the_rulebook_default(game_file, capsys, monkeypatch):
    from agents.heuristic import HeuristicAgent

    def broken(self, ctx):
        raise RuntimeError("out of ideas")

    monkeypatch.setattr(HeuristicAgent, "act", broken)
    assert main(["adjudicate", str(game_file)]) == 0
    out = capsys.readouterr().out
    assert "AI Player#5 (Eve) [heuristic], bid: bids 0 (the rulebook default: the agent's " \
           "choice failed: RuntimeError: out of ideas)" in out
    assert gamefile.read(game_file).game.state.submissions["Player#5"].bid == 0


def test_a_second_command_on_the_same_file_at_once_is_refused(game_file, tmp_path, capsys):
    before = game_file.read_bytes()
    with gamefile.locked(game_file):  # as another regent command holding the file would
        assert main(["adjudicate", str(game_file), dms(tmp_path, "== Alice ==\nBid 3\n")]) == 2
        assert main(["seat", str(game_file), "Bob", "random"]) == 2
    assert "another regent command is changing this game file" in capsys.readouterr().err
    assert game_file.read_bytes() == before
    assert main(["adjudicate", str(game_file), dms(tmp_path, "== Alice ==\nBid 3\n")]) == 0  # free again


def test_seats_are_listed_in_seat_order_at_a_big_table(tmp_path, capsys):
    # Player#8 before Player#10: the AI seats at a table of 12, in what new, adjudicate and report print
    agents = {8: "caretaker", 10: "caretaker", 12: "caretaker"}
    setup = {"board": "ring-12", "seed": 1,
             "players": [{"seat": f"Player#{i}", "name": f"N{i}", **({"agent": agents[i]} if i in agents else {})}
                         for i in range(1, 13)]}
    (tmp_path / "setup.json").write_text(json.dumps(setup), encoding="utf-8")
    path = tmp_path / "game.bin"
    assert main(["new", str(path), "--setup", str(tmp_path / "setup.json")]) == 0
    assert "AI seats: Player#8 (N8): caretaker, Player#10 (N10): caretaker, Player#12" in capsys.readouterr().out
    assert main(["adjudicate", str(path), "--force"]) == 0
    assert "Played by AI: N8, N10 and N12 (caretaker)" in capsys.readouterr().out
    assert main(["report", str(path), "--turn", "1"]) == 0
    assert "Played by AI: N8, N10 and N12 (caretaker)" in capsys.readouterr().out


def test_a_dm_under_an_ai_seats_header_is_stored_and_said(game_file, tmp_path, capsys):
    capsys.readouterr()
    assert main(["adjudicate", str(game_file), dms(tmp_path, "== Alice ==\nBid 10\n== Eve ==\nBid 7\n")]) == 0
    out = capsys.readouterr().out
    # stored as the seat's decision (a seat may change hands mid-step), but never silently
    assert "Player#5 (Eve): stored: Bid 7" in out
    assert (f"Player#5 (Eve) is an AI seat (heuristic): this DM was stored as its decision; "
            f"to give the seat back: regent seat {game_file} Eve human") in out
    assert out.count("is an AI seat") == 1  # Alice's DM: no warning
    assert not re.search(r"AI Player#5 \(Eve\) \[heuristic\]", out)  # the AI did not decide over the DM
    gf = gamefile.read(game_file)
    assert gf.game.state.submissions["Player#5"] is not None and "Player#5" not in gf.step_ai


def test_a_dm_for_an_ai_seat_that_already_decided_says_the_ai_decided(game_file, tmp_path, capsys):
    assert main(["adjudicate", str(game_file), dms(tmp_path, "== Alice ==\nBid 10\n")]) == 0
    assert "AI Player#5 (Eve) [heuristic]" in capsys.readouterr().out  # the AI seat decided its bid
    assert main(["adjudicate", str(game_file), dms(tmp_path, "== Eve ==\nBid 7\n")]) == 0
    out = capsys.readouterr().out
    assert "Player#5 (Eve): already in by its AI (heuristic) for the bid step; the DM at line 1 is not used" in out
    assert gamefile.read(game_file).game.state.submissions["Player#5"] is not None


def test_a_look_at_a_deck_is_printed_for_its_player_alone(tmp_path, capsys):
    # rules: 003 Kalu'Ak, Weather forecast: the GM must pass the look on before the orders are due
    setup = {"board": "ring-3", "seed": 6, "options": {"factions": True},
             "players": [{"seat": f"Player#{i}", "name": n} for i, n in ((1, "Ann"), (2, "Bob"), (3, "Cy"))],
             "position": {"turn": 2, "step": "orders", "ranking": ["Player#1", "Player#2", "Player#3"],
                          "factions": {"Player#1": "Kalu'Ak", "Player#2": "Hodir", "Player#3": "Cenarion"},
                          "realm": {"Player#1": 80, "Player#2": 50, "Player#3": 50}}}
    (tmp_path / "setup.json").write_text(json.dumps(setup))
    path = tmp_path / "g.bin"
    assert main(["new", str(path), "--setup", str(tmp_path / "setup.json")]) == 0
    out = capsys.readouterr().out
    assert "tell Player#1 (Ann) alone: Weather forecast: the top card of the Event deck is " in out
    # set apart as a secret, as adjudicate sets its looks apart (no report stood above it, so no line did)
    assert "--- not for posting (the GM and the seats named only) ---\ntell Player#1 (Ann) alone" in out
    assert main(["adjudicate", str(path), str(dms(tmp_path, "== Ann ==\nWeather forecast: There be Dragons?\n"))]) == 0
    out = capsys.readouterr().out
    assert "Player#1 (Ann): stored: Weather forecast: There be Dragons?" in out
    assert "    tell Player#1 (Ann) alone: Weather forecast: the top card of the There be Dragons? deck is " in out
    assert "    these act at once; Player#1 (Ann)'s decision for the orders step is still to come" in out
    assert "event deck" not in out  # the free look was told when the game came in
    assert main(["adjudicate", str(path), str(dms(tmp_path, "== Bob ==\nhi regent fortify P2\n", "b.txt"))]) == 0
    out = capsys.readouterr().out
    assert "Player#2 (Bob): stored: Fortify! P2\n    line 2: left out 'hi regent': a greeting" in out
    assert "ignored" not in out  # the line's order was read: only the words beside it were left out
    # a choice of nothing: the words beside it are said too (they were dropped silently before)
    assert main(["adjudicate", str(path), str(dms(tmp_path, "== Cy ==\nnothing this turn, sorry\n", "c.txt"))]) == 0
    out = capsys.readouterr().out
    assert "Player#3 (Cy): stored: none" in out and "    line 2: left out 'sorry': an apology" in out


def test_a_step_no_ai_decided_says_so_in_a_game_with_ai_seats(tmp_path, capsys):
    # the Bank of Lannuvár's late bid: only its human seat decides, and the others' bids came in with the position
    # (no AI of this file made them): the report still says who an AI played, nobody
    four = {f"P{i}": {"owner": f"Player#{i}", "units": 2} for i in range(1, 5)}
    setup = {"board": "ring-4", "seed": 1, "options": {"factions": True},
             "players": [{"name": "Ann"}, {"name": "Ben", "agent": "heuristic"}, {"name": "Cy"}, {"name": "Di"}],
             "position": {"turn": 2, "step": "bank_bid", "provinces": four, "factions": {"Player#1": "Lannuvar"},
                          "effects": {"Player#1": ["bank_bid"]}, "bids": {"Player#2": 5, "Player#3": 0,
                                                                          "Player#4": 1}, "realm": {"Player#1": 40}}}
    (tmp_path / "setup.json").write_text(json.dumps(setup), encoding="utf-8")
    path = tmp_path / "game.bin"
    assert main(["new", str(path), "--setup", str(tmp_path / "setup.json")]) == 0
    capsys.readouterr()
    assert main(["adjudicate", str(path), dms(tmp_path, "== Ann ==\nBid 6\n"), "--advance"]) == 0
    out = capsys.readouterr().out
    report = out.split("--- not for posting ---")[0]
    assert "Played by AI: none" in report and "Ben (heuristic)" not in report


def test_adjudicate_says_which_provinces_a_stored_dm_left_without_an_order(tmp_path, capsys):
    # dogfood s17: "Snitch X" or "Send ..." alone is stored as the whole orders; the GM is told what it leaves
    four = {f"P{i}": {"owner": f"Player#{i}", "units": 2} for i in range(1, 5)}
    setup = {"board": "ring-4", "seed": 1, "players": [{"name": n} for n in ("Ann", "Ben", "Cy", "Di")],
             "position": {"turn": 2, "step": "orders", "provinces": four, "realm": {"Player#1": 20}}}
    (tmp_path / "setup.json").write_text(json.dumps(setup), encoding="utf-8")
    path = tmp_path / "game.bin"
    assert main(["new", str(path), "--setup", str(tmp_path / "setup.json")]) == 0
    capsys.readouterr()
    assert main(["adjudicate", str(path), dms(tmp_path, "== Ann ==\nSend 5 to Ben\n== Ben ==\nFortify! P2\n")]) == 0
    out = capsys.readouterr().out
    assert "Player#1 (Ann): stored: Send 5 to Player#2\n    note: P1 has Army Units but no order in this DM" in out
    assert "Player#2 (Ben): stored: Fortify! P2\n" in out and out.count("note:") == 1


def test_a_file_that_replays_to_another_state_is_read_with_one_warning(game_file, tmp_path, capsys):
    # a game file carries the digest of the state it was written in; a Regent whose rules changed since
    # reads it to another state, says so in one line on stderr, and goes on (writing the new digest)
    import msgpack

    data = msgpack.unpackb(game_file.read_bytes(), raw=False, strict_map_key=False)
    assert data["digest"] == gamefile.state_digest(gamefile.read(game_file).game)
    assert gamefile.read(game_file).stale is None
    data["digest"] = "0" * 64  # as if written by a Regent whose rules differ
    game_file.write_bytes(msgpack.packb(data, use_bin_type=True))
    assert gamefile.read(game_file).stale == gamefile.STALE
    capsys.readouterr()
    assert main(["report", str(game_file)]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"regent: warning: {game_file}: {gamefile.STALE}"]
    assert main(["adjudicate", str(game_file), dms(tmp_path, "== Alice ==\nBid 10\n")]) == 0
    assert "regent: warning" in capsys.readouterr().err
    assert gamefile.read(game_file).stale is None  # written back with the state it now has
    del data["digest"]  # a file from before digests: nothing to compare, no warning
    game_file.write_bytes(msgpack.packb(data, use_bin_type=True))
    assert gamefile.read(game_file).stale is None
    data["digest"] = 5
    game_file.write_bytes(msgpack.packb(data, use_bin_type=True))
    assert main(["report", str(game_file)]) == 2
    assert capsys.readouterr().err.strip() == f"regent: error: {game_file}: digest must be a string"


def test_a_seat_given_back_after_its_ai_decided_still_says_the_ai_played_that_step(game_file, tmp_path, capsys):
    # the AI's bid stands once stored (DMs are final): giving the seat back mid-step must not hide it, neither
    # from the player's late DM ("already in by its AI") nor from the step's report ("Played by AI: Eve")
    assert main(["adjudicate", str(game_file), dms(tmp_path, "== Alice ==\nBid 10\n")]) == 0
    assert "AI Player#5 (Eve) [heuristic]" in capsys.readouterr().out
    assert main(["seat", str(game_file), "Eve", "human"]) == 0
    text = "".join(f"== {n} ==\nBid 3\n" for n in ("Bob", "Carol", "Dan", "Eve"))
    assert main(["adjudicate", str(game_file), dms(tmp_path, text)]) == 0
    out = capsys.readouterr().out
    assert "Player#5 (Eve): already in by its AI (heuristic) for the bid step" in out
    report = out.split("--- not for posting")[0]
    assert "== Turn 1 ==" in report and "Played by AI: Eve (heuristic)" in report


def test_an_ai_decision_made_in_the_run_that_resolves_its_step_is_under_the_not_for_posting_line(game_file, tmp_path,
                                                                                                   capsys):
    # the AI seat decided at the run's start and its line (with its reason: a secret) came above the report, so a
    # GM copying the output down to the not-for-posting line posted it; it now comes under that line
    text = "".join(f"== {n} ==\nBid 3\n" for n in ("Alice", "Bob", "Carol", "Dan"))
    assert main(["adjudicate", str(game_file), dms(tmp_path, text), "--advance"]) == 0
    out = capsys.readouterr().out
    above, marker, below = out.partition("--- not for posting (the GM and the seats named only) ---")
    assert marker and "== Turn 1 ==" in above and "Played by AI: Eve (heuristic)" in above
    assert "AI Player#5 (Eve) [heuristic], bid" in below and "AI Player#5" not in above


def test_a_seat_changing_hands_mid_step_says_whose_decision_stands(game_file, tmp_path, capsys):
    # rules: 003 Each Turn, DMs are final: a seat given back after its AI decided the step, or given to an AI after
    # its player's DM came, keeps that decision; `regent seat` says so, so the GM does not ask for another DM
    assert main(["adjudicate", str(game_file), dms(tmp_path, "== Alice ==\nBid 10\n")]) == 0  # Eve's AI bids
    capsys.readouterr()
    assert main(["seat", str(game_file), "Eve", "human"]) == 0
    assert capsys.readouterr().out.strip() == ("Player#5 (Eve): human (was AI heuristic); its AI's decision for the "
                                               "bid step stands (DMs are final): the player decides from the next step")
    assert main(["seat", str(game_file), "Alice", "heuristic"]) == 0
    assert capsys.readouterr().out.strip() == ("Player#1 (Alice): AI heuristic; the player's own DM for the bid step "
                                               "stands (DMs are final): the AI decides from the next step")
    assert main(["seat", str(game_file), "Bob", "heuristic"]) == 0  # Bob has sent nothing: his AI bids now
    assert capsys.readouterr().out.strip() == "Player#2 (Bob): AI heuristic; it decides at the next 'regent adjudicate'"


def test_a_refused_dm_lists_every_refused_line_for_the_gm_to_pass_on(game_file, tmp_path, capsys):
    # the refusal's reason names the first refused line and counts the others ("and 1 more line refused"): the GM
    # sees each of them, with its line in the file and why, so the player fixes them all in one DM, not one a round
    capsys.readouterr()
    assert main(["adjudicate", str(game_file), dms(tmp_path, "== Bob ==\nBid 10\nFortify P2\nWork P2\n")]) == 2
    err = capsys.readouterr().err.splitlines()
    at = next(i for i, line in enumerate(err) if line.startswith("Player#2 (Bob): rejected (DM at line 1): "))
    step = "not a choice for the bid step; it takes Bid 20 (in turn 1 with factions also Faction Hodir), or none"
    assert err[at].endswith(f"(DM at line 1): line 3: 'Fortify P2': {step}")
    assert err[at + 1] == f"    also line 4: 'Work P2': {step}"


def test_a_dms_refused_lines_are_each_listed_once_in_the_files_order(tmp_path, capsys):
    # the rules' refusals came joined in the order the rules check them, then each but the first again as "also line
    # N", out of order: the GM read three reasons, two of them twice
    game = at_orders(tmp_path, capsys)
    text = "== Alice ==\nSnitch Carol\nWork P99\nSupport! Player#3 in P5 from P17\n"
    assert main(["adjudicate", str(game), dms(tmp_path, text)]) == 2
    err = capsys.readouterr().err.splitlines()
    at = next(i for i, line in enumerate(err) if line.startswith("Player#1 (Alice): rejected (DM at line 1): "))
    assert err[at].endswith("line 2: 'Snitch Carol': snitching is only for Pirates! turns")
    assert err[at + 1:at + 3] == ["    also line 3: 'Work, work! P99': P99 is not on this board",
                                  "    also line 4: 'Support! Carol in P5 from P17': P17 is not on this board"]
    assert sum("P99" in line for line in err) == 1


def test_a_refusal_names_players_by_their_names_not_seat_ids(tmp_path, capsys):
    # the GM passes the reason on to the player, who wrote 'Snitch on Cy' (no Pirates! this turn): the quoted order
    # reads 'Snitch Cy', not the seat id the reader turned the name into ('Snitch Player#3'), in this run and in a
    # later one that lists the refusal again
    path = _ben_by_ai_from(tmp_path, 3)
    capsys.readouterr()
    assert main(["adjudicate", str(path), dms(tmp_path, "== Ann ==\nFortify P1\nSnitch on Cy\n")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert "Player#1 (Ann): rejected (DM at line 1): 'Snitch Cy': snitching is only for Pirates! turns" in err
    assert main(["adjudicate", str(path), "--force"]) == 2
    assert "(DM at line 1 of dms.txt): 'Snitch Cy': " in capsys.readouterr().err
    # the syntax examples of what the step takes stay patterns ('Snitch Player#2'), not Ben's name
    assert main(["adjudicate", str(path), dms(tmp_path, "== Cy ==\nFortfy P3\n", "cy.txt")]) == 2
    assert "Support! Player#2 in P2, Fortify! P1" in capsys.readouterr().err


def test_a_dm_that_came_once_every_seat_was_in_is_read_for_the_next_step(tmp_path, capsys):
    # rules: 003 Each Turn, "the game continues immediately" once every seat is in: Ann's Consolidation DM, pasted
    # below the last orders DM, is the next step's. It was answered "already in for the orders step; not used", marked
    # read, and never read again: lost
    path = _ben_by_ai_from(tmp_path, 3)
    before = path.read_bytes()
    text = "== Ann ==\nFortify P1\n== Cy ==\nnone\n== Di ==\nnone\n== Ann ==\nBid 5\n"
    capsys.readouterr()
    assert main(["adjudicate", str(path), dms(tmp_path, text)]) == 0
    out = capsys.readouterr().out
    assert ("Player#1 (Ann): already in for the orders step, as is every seat: the DM at line 7 came after the step "
            "was complete, so it is read for the next step") in out
    assert "Player#1 (Ann): stored: Bid 5" in out.split("== Turn 3 ==")[1]
    gf = gamefile.read(path)
    assert gf.game.step == "consolidation" and "Player#1" in gf.game.state.submissions
    assert (tmp_path / "game.bin.bak").read_bytes() == before  # the .bak still undoes the whole run
    # with a seat still missing, a second DM is the same step's: not used (DMs are final), as before
    (tmp_path / "two").mkdir()
    path = _ben_by_ai_from(tmp_path / "two", 3)
    assert main(["adjudicate", str(path), dms(tmp_path, "== Ann ==\nFortify P1\n== Ann ==\nWork P1\n", "b.txt")]) == 0
    assert "the DM at line 3 is not used (DMs are final)" in capsys.readouterr().out


def _ben_by_ai_from(tmp_path, turn):
    """A 4-seat game brought in at ``turn``'s orders step (two units in each home), Ben's seat an AI's."""
    four = {f"P{i}": {"owner": f"Player#{i}", "units": 2} for i in range(1, 5)}
    setup = {"board": "ring-4", "seed": 1,
             "players": [{"name": "Ann"}, {"name": "Ben", "agent": "heuristic"}, {"name": "Cy"}, {"name": "Di"}],
             "position": {"turn": turn, "step": "orders", "provinces": four}}
    (tmp_path / "setup.json").write_text(json.dumps(setup), encoding="utf-8")
    path = tmp_path / "game.bin"
    assert main(["new", str(path), "--setup", str(tmp_path / "setup.json")]) == 0
    return path


def test_a_turn_before_a_typed_in_position_has_no_report_and_says_why(tmp_path, capsys):
    # a game brought in at turn 3 has no events before it: `report --turn 2` printed an empty "== Turn 2 =="
    # (as if nothing happened) under a "Played by AI" line naming seats an AI never played then
    path = _ben_by_ai_from(tmp_path, turn=3)
    assert main(["adjudicate", str(path)]) == 0
    capsys.readouterr()
    assert main(["report", str(path), "--turn", "2"]) == 2
    out, err = capsys.readouterr()
    assert not out and err.count("\n") == 1 and "turn 2 predates this game's start" in err and "turn 3" in err
    assert main(["report", str(path), "--turn", "3"]) == 0
    assert "== Turn 3 ==" in capsys.readouterr().out


def test_the_report_of_a_game_just_brought_in_says_nothing_has_happened_since(tmp_path, capsys):
    # `regent report` straight after `regent new --setup position.json` printed a bare "== Turn 3 ==": an empty
    # report, as if something had been lost
    path = _ben_by_ai_from(tmp_path, turn=3)
    came = ("Nothing has happened since the game was brought in here from a position, at turn 3's orders step (what "
            "came before is not in its record).")
    for argv in ([], ["--turn", "3"]):
        capsys.readouterr()
        assert main(["report", str(path), *argv]) == 0
        assert capsys.readouterr().out.splitlines() == ["== Turn 3 ==", came], argv
    assert main(["adjudicate", str(path)]) == 0  # Ben's AI decides; nothing is resolved, so nothing happened yet
    capsys.readouterr()
    assert main(["report", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == ["== Turn 3 ==", came, "Played by AI: Ben (heuristic)"]
    orders = "".join(f"== {n} ==\nFortify! P{i}\n" for i, n in ((1, "Ann"), (3, "Cy"), (4, "Di")))
    assert main(["adjudicate", str(path), dms(tmp_path, orders, "o3.txt")]) == 0
    capsys.readouterr()
    assert main(["report", str(path)]) == 0
    out = capsys.readouterr().out
    assert "- Ann: Fortify! P1" in out and "Nothing has happened" not in out  # the turn has its events now


def test_the_report_of_a_turn_nothing_has_happened_in_yet_says_so(game_file, capsys):
    capsys.readouterr()
    assert main(["report", str(game_file)]) == 0  # a new game waiting for its first bids
    assert capsys.readouterr().out.splitlines() == ["== Turn 1 ==", "Nothing has happened yet this turn."]


def test_a_turn_played_by_the_player_again_is_not_labelled_played_by_ai(tmp_path, capsys):
    # Ben's AI plays turn 2, Ben plays turn 3 himself: `report --turn 3` (and --since-last over turn 3 only)
    # named Ben as played by AI, from every agent the seat ever had
    path = _ben_by_ai_from(tmp_path, turn=2)
    orders = "".join(f"== {n} ==\nFortify! P{i}\n" for i, n in ((1, "Ann"), (3, "Cy"), (4, "Di")))
    assert main(["adjudicate", str(path), dms(tmp_path, orders, "o2.txt")]) == 0  # Ben's AI: orders, consolidation
    assert main(["seat", str(path), "Ben", "human"]) == 0
    bids = "".join(f"== {n} ==\nBid 0\n" for n in ("Ann", "Cy", "Di"))
    assert main(["adjudicate", str(path), dms(tmp_path, bids, "c2.txt")]) == 0
    assert main(["report", str(path), "--since-last"]) == 0
    capsys.readouterr()
    orders3 = "".join(f"== {n} ==\nWork, work! P{i}\n" for i, n in enumerate(("Ann", "Ben", "Cy", "Di"), start=1))
    assert main(["adjudicate", str(path), dms(tmp_path, orders3, "o3.txt")]) == 0
    out = capsys.readouterr().out
    assert "- Ben: Work, work! P2" in out and "Played by AI" not in out  # the step's own report was right
    assert gamefile.read(path).game.state.turn == 3
    assert main(["report", str(path), "--turn", "3"]) == 0
    out = capsys.readouterr().out
    assert "== Turn 3 ==" in out and "Played by AI" not in out
    assert main(["report", str(path), "--turn", "2"]) == 0
    assert "Played by AI: Ben (heuristic)" in capsys.readouterr().out


def test_a_position_at_its_ranking_step_prints_the_ranking_and_cards_regent_new_revealed(tmp_path, capsys):
    # docs/positions.md: a `ranking` position runs on by itself (bids revealed, cards drawn); `regent new` printed
    # none of it, and the next adjudicate counted it as posted, so the turn's ranking was never seen to post
    four = {f"P{i}": {"owner": f"Player#{i}", "units": 2} for i in range(1, 5)}
    setup = {"board": "ring-4", "seed": 1, "players": [{"name": n} for n in ("Ann", "Ben", "Cy", "Di")],
             "position": {"turn": 3, "step": "ranking", "provinces": four,
                          "bids": {"Player#1": 4, "Player#2": 9, "Player#3": 0, "Player#4": 1}}}
    (tmp_path / "setup.json").write_text(json.dumps(setup), encoding="utf-8")
    path = tmp_path / "game.bin"
    assert main(["new", str(path), "--setup", str(tmp_path / "setup.json")]) == 0
    out = capsys.readouterr().out
    assert "== Turn 3 ==\n- Bids: Ann 4, Ben 9, Cy 0, Di 1\n- Protector Ranking: 1. Ben" in out
    assert " is revealed " in out
    assert main(["report", str(path), "--since-last"]) == 0  # printed by `new`: counted as posted
    assert capsys.readouterr().err == "nothing new since the last post\n"


def test_seat_refuses_an_eliminated_seat_in_one_line(tmp_path, capsys):
    # dogfood 12 players: 'regent seat game.bin Alice heuristic' on an eliminated seat succeeded silently (the Discord
    # bridge's /regent seat refuses it); so is giving it back to its player, and the file is left as it was
    provinces = {"P1": {"owner": "Player#2", "units": 1}, "P2": {"owner": "Player#2", "units": 1},
                 "P3": {"owner": "Player#3", "units": 1}}
    setup = {"board": "ring-3", "seed": 4,
             "players": [{"seat": f"Player#{i}", "name": NAMES[i - 1]} for i in (1, 2, 3)],
             "position": {"turn": 2, "step": "orders", "ranking": ["Player#2", "Player#3"],
                          "eliminated": {"Player#1": {"turn": 1, "by": "players"}}, "provinces": provinces}}
    (tmp_path / "setup.json").write_text(json.dumps(setup))
    path = tmp_path / "game.bin"
    assert main(["new", str(path), "--setup", str(tmp_path / "setup.json")]) == 0
    before = path.read_bytes()
    capsys.readouterr()
    for agent in ("heuristic", "human"):
        assert main(["seat", str(path), "Alice", agent]) == 2
        out, err = capsys.readouterr()
        assert err == (f"regent: error: {path}: Player#1 (Alice) was eliminated: it has no decisions left for an AI "
                       "or a player to make\n") and out == ""
    assert path.read_bytes() == before
    assert main(["seat", str(path), "Bob", "heuristic"]) == 0  # a seat still in the game takes an AI


@pytest.mark.parametrize(("name", "why"), [
    ("x\n- Bob bids 999 and wins\n== Turn 9 ==", "players[0].name: a display name is one line of text"),
    ("x" * 3000, "players[0].name: a display name is text of 1 to 32 characters (here: 3000 characters)"),
    ("Player#2", "players[0].name: 'Player#2' reads as the seat Player#2, not this seat (Player#1)"),
])
def test_new_refuses_a_bad_display_name_in_one_line(tmp_path, capsys, name, why):
    # a name with a newline would write lines of its own into the public report (dogfood)
    setup = tmp_path / "setup.json"
    setup.write_text(json.dumps({"board": "ring-3", "seed": 1, "players": [{"name": name}, {"name": "Bob"}, {}]}))
    capsys.readouterr()
    assert main(["new", str(tmp_path / "g.bin"), "--setup", str(setup)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and why in err and "Traceback" not in err
    assert not (tmp_path / "g.bin").exists()


def test_new_reads_the_setups_agents_by_display_name_as_the_service_does(tmp_path, capsys):
    # setup.agents keyed by a player's display name: the service reads it (service/seat_names.py); regent new said
    # 'setup.agents.Eve: unknown seat'
    setup = {"board": "ring-5", "seed": 3, "players": [{"name": n} for n in NAMES], "agents": {"Eve": "heuristic"}}
    (tmp_path / "setup.json").write_text(json.dumps(setup), encoding="utf-8")
    assert main(["new", str(tmp_path / "g.bin"), "--setup", str(tmp_path / "setup.json")]) == 0
    assert gamefile.read(tmp_path / "g.bin").agents == {"Player#5": "heuristic"}
    setup["agents"] = {"Evee": "heuristic"}
    (tmp_path / "setup.json").write_text(json.dumps(setup), encoding="utf-8")
    assert main(["new", str(tmp_path / "h.bin"), "--setup", str(tmp_path / "setup.json")]) == 2
    assert "did you mean Player#5 (Eve)?" in capsys.readouterr().err


def test_a_refusals_syntax_example_stays_a_pattern_when_players_are_named(tmp_path, capsys):
    # "'Zed' is not a player like Player#2 or one of ..." read "like Bob or one of ...": the example became a player
    game = at_orders(tmp_path, capsys)
    assert main(["adjudicate", str(game), dms(tmp_path, "== Alice ==\nSend 5 to Zed\n")]) == 2
    err = capsys.readouterr().err
    assert "'Zed' is not a player like Player#2" in err and "like Bob" not in err, err


def test_already_in_by_its_ai_names_the_ai_as_the_gm_chose_it(game_file, tmp_path, capsys):
    # "already in by its AI (heuristic)" for a seat the GM gave the normal level: the reports say "normal -> heuristic"
    assert main(["seat", str(game_file), "Eve", "normal"]) == 0
    assert main(["adjudicate", str(game_file), dms(tmp_path, "== Alice ==\nBid 10\n")]) == 0  # Eve's AI bids
    assert main(["seat", str(game_file), "Eve", "human"]) == 0
    capsys.readouterr()
    assert main(["adjudicate", str(game_file), dms(tmp_path, "== Eve ==\nBid 3\n")]) == 0
    assert "Player#5 (Eve): already in by its AI (normal -> heuristic) for the bid step" in capsys.readouterr().out


def test_new_blames_a_mistake_on_the_flag_that_changed_the_setup_too(tmp_path, capsys):
    # --board ring-5 over a 7-player setup was blamed on the setup file alone ('s.json: options.version: ... this
    # board has 5'), though the board came from the flag
    setup = tmp_path / "s.json"
    setup.write_text(json.dumps({"players": 7}), encoding="utf-8")
    assert main(["new", str(tmp_path / "g.bin"), "--setup", str(setup), "--board", "ring-5"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"regent: error: {setup} with --board ring-5: ") and "this board has 5" in err, err
    assert main(["new", str(tmp_path / "g.bin"), "--board", "ring-1", "--seed", "4"]) == 2
    assert capsys.readouterr().err.startswith("regent: error: --board ring-1 with --seed 4: board: ")
    assert not (tmp_path / "g.bin").exists()


def test_every_board_name_new_help_shows_makes_a_game(tmp_path, capsys):
    """``regent new --help`` once showed ``ring-N-grand(-island)``, a name the board reader refuses."""
    from service.cli import build_parser

    new = next(a for a in build_parser()._actions if hasattr(a, "choices") and a.choices and "new" in a.choices)
    board_help = next(a.help for a in new.choices["new"]._actions if "--board" in a.option_strings)
    forms = re.findall(r"ring-N[^\s,;)]*", board_help)
    assert {"ring-N", "ring-N-grand", "ring-N-grand+island"} <= set(forms), board_help
    for form in forms:
        out = tmp_path / f"{form}.bin"
        assert main(["new", str(out), "--board", form.replace("N", "4")]) == 0, capsys.readouterr().err
