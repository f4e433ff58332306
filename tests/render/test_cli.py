"""``regent render``: from a game file written by ``regent new`` / ``regent adjudicate``."""

from __future__ import annotations

import json

import pytest

from service.cli import main
from tests.render.helpers import all_text, svg_root


@pytest.fixture()
def game_file(tmp_path):
    path = tmp_path / "game.bin"
    assert main(["new", str(path), "--board", "ring-5", "--seed", "1"]) == 0
    for _ in range(3):  # bids, then on through turn 1
        assert main(["adjudicate", str(path), "--force"]) == 0
    return path


def test_render_board_png_and_svg(game_file, tmp_path, capsys):
    png, svg = tmp_path / "b.png", tmp_path / "b.svg"
    assert main(["render", str(game_file), "-o", str(png)]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert main(["render", str(game_file), "-o", str(svg), "--seat", "Player#2"]) == 0
    text = all_text(svg_root(svg.read_bytes()))
    assert "Player#2's view" in text and "P5" in text
    assert "wrote" in capsys.readouterr().out



def test_the_line_after_a_picture_names_its_view(game_file, tmp_path, capsys):
    # the default picture is the GM's, with every seat's $Realm (a secret): a GM who posts what the guide's
    # "post what happened" step drew is told, and pointed to the channel's
    out = tmp_path / "b.png"
    for extra, said in (((), "the GM view: every $Realm shown, not for posting; --view channel draws the channel's"),
                        (("--view", "channel"), "the channel view: what every player may see"),
                        (("--seat", "Player#2"), "Player#2's own view, for their DM alone"),
                        (("--summary",), "the GM view: every $Realm shown")):
        assert main(["render", str(game_file), "-o", str(out), *extra]) == 0
        assert said in capsys.readouterr().out


def test_render_past_turn_and_summary(game_file, tmp_path):
    out = tmp_path / "t1.svg"
    assert main(["render", str(game_file), "--turn", "1", "--format", "svg", "-o", str(out)]) == 0
    assert "after turn 1" in all_text(svg_root(out.read_bytes()))
    summ = tmp_path / "s.svg"
    assert main(["render", str(game_file), "--summary", "--ai", "Player#3=caretaker", "-o", str(summ)]) == 0
    assert "AI: caretaker" in all_text(svg_root(summ.read_bytes()))


@pytest.mark.parametrize(("extra", "needle"), [
    (["--turn", "9"], "--turn: must be between 1 and the current turn"),  # the flag, as regent report says it
    (["--seat", "Player#9"], "seat"),
    (["--ai", "Player#1"], "--ai"),
    (["--summary", "--turn", "1"], "--turn"),
    (["--summary", "--ai", "nobody=random"], "ai_seats"),
])
def test_render_errors_name_the_problem(game_file, tmp_path, capsys, extra, needle):
    out = tmp_path / "x.png"
    assert main(["render", str(game_file), "-o", str(out), *extra]) == 2
    assert needle in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize(("name", "extra", "needle"), [
    ("x.gif", [], "only with --animate"),
    ("x.png", ["--animate"], "name the file .gif"),
    ("x.png", ["--format", "svg"], "name the file .svg"),
    ("x.jpg", [], "render writes .png, .svg"),
])
def test_an_out_suffix_that_is_not_the_picture_is_refused(game_file, tmp_path, capsys, name, extra, needle):
    out = tmp_path / name
    assert main(["render", str(game_file), "-o", str(out), *extra]) == 2
    err = capsys.readouterr().err
    assert needle in err and name in err and len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_an_out_path_that_cannot_be_written_is_named_as_given(game_file, tmp_path, capsys):
    # dogfood 12 players: '-o /nonexistent/dir/x.png' said '/nonexistent/dir/.x.png.tmp-9718: no such file'
    (tmp_path / "afile").write_text("")
    (tmp_path / "adir.png").mkdir()
    for out, said in ((tmp_path / "no" / "dir" / "x.png", f"no such folder {tmp_path / 'no' / 'dir'} to write it in"),
                      (tmp_path / "afile" / "x.png", f"{tmp_path / 'afile'} is a file, not a folder"),
                      (tmp_path / "adir.png", "is a folder, not a file")):
        assert main(["render", str(game_file), "-o", str(out)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"regent: error: --out: {out}: ") and said in err and ".tmp-" not in err
        assert len(err.strip().splitlines()) == 1
    assert not list(tmp_path.glob("**/.*.tmp-*"))


def test_missing_game_file(tmp_path, capsys):
    assert main(["render", str(tmp_path / "nope.bin"), "-o", str(tmp_path / "x.png")]) == 2
    assert "no such game file" in capsys.readouterr().err


def test_render_views(game_file, tmp_path):
    """--view channel: no $Realm column, 'public view'; --view seat needs --seat; gm shows $Realm."""
    out = {}
    for view, extra in (("gm", []), ("channel", []), ("seat", ["--seat", "Player#2"])):
        path = tmp_path / f"{view}.svg"
        assert main(["render", str(game_file), "--turn", "1", "--view", view, "-o", str(path), *extra]) == 0
        out[view] = all_text(svg_root(path.read_bytes()))
    assert "$Realm" in out["gm"] and "GM view" in out["gm"]
    assert "$Realm" not in out["channel"] and "public view" in out["channel"]
    assert "Player#2's view" in out["seat"]
    summ = tmp_path / "s.svg"
    assert main(["render", str(game_file), "--summary", "--view", "channel", "-o", str(summ)]) == 0
    text = all_text(svg_root(summ.read_bytes()))
    assert "public view" in text and "$Realm" not in text and "The Dragon's DPL after each turn" in text


def test_render_animate(game_file, tmp_path, capsys):
    gif = tmp_path / "game.gif"
    assert main(["render", str(game_file), "--animate", "--ai", "Player#3=caretaker", "-o", str(gif)]) == 0
    data = gif.read_bytes()
    assert data[:6] == b"GIF89a" and "gif" in capsys.readouterr().out
    from io import BytesIO

    from PIL import Image

    assert Image.open(BytesIO(data)).n_frames == 2  # turn 1's board, then the summary


@pytest.mark.parametrize(("extra", "needle"), [
    (["--view", "seat"], "seat"),
    (["--view", "channel", "--seat", "Player#2"], "seat"),
    (["--animate", "--turn", "1"], "--animate"),
    (["--animate", "--summary"], "--animate"),
])
def test_render_view_errors(game_file, tmp_path, capsys, extra, needle):
    out = tmp_path / "x.png"
    assert main(["render", str(game_file), "-o", str(out), *extra]) == 2
    assert needle in capsys.readouterr().err
    assert not out.exists()


def test_unknown_view_is_refused_by_the_parser(game_file, tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["render", str(game_file), "-o", str(tmp_path / "x.png"), "--view", "everyone"])
    assert exit_.value.code == 2 and "--view" in capsys.readouterr().err


def test_a_turn_before_a_position_was_brought_in_says_so(tmp_path, capsys):
    # a game brought in at turn 3 has no boards before it: the error said "turn 2 never reached its Consolidation"
    four = {f"P{i}": {"owner": f"Player#{i}", "units": 2} for i in range(1, 5)}
    setup = {"board": "ring-4", "seed": 1, "players": 4, "position": {"turn": 3, "step": "orders", "provinces": four}}
    (tmp_path / "setup.json").write_text(json.dumps(setup), encoding="utf-8")
    path = tmp_path / "game.bin"
    assert main(["new", str(path), "--setup", str(tmp_path / "setup.json")]) == 0
    capsys.readouterr()
    out = tmp_path / "t2.png"
    assert main(["render", str(path), "--turn", "2", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "--turn: turn 2 predates this game's start" in err and "turn 3" in err and len(err.strip().splitlines()) == 1
    assert not out.exists()
    assert main(["render", str(path), "--turn", "3", "-o", str(out)]) == 0  # its own turn is drawn


@pytest.fixture()
def named_game_file(tmp_path):
    path, setup = tmp_path / "named.bin", tmp_path / "setup.json"
    names = ("Alice", "Bo", "Chidi", "Dana", "Eve", "Fay", "Gus")
    setup.write_text(json.dumps({"board": "ring-7", "seed": 1, "players": [{"name": n} for n in names]}))
    assert main(["new", str(path), "--setup", str(setup)]) == 0
    for _ in range(3):
        assert main(["adjudicate", str(path), "--force"]) == 0
    return path


def test_render_focus_takes_display_names_and_seat_labels(named_game_file, tmp_path, capsys):
    from service import gamefile
    from service.render import render_board

    game = gamefile.read(named_game_file).game
    for label in ("Alice", "player 1", "Player#1", "indigo"):
        out = tmp_path / "a.png"
        assert main(["render", str(named_game_file), "--focus", label, "-o", str(out)]) == 0
        assert out.read_bytes() == render_board(game, None, focus="Player#1")
        said = capsys.readouterr().out
        assert "Player#1 (Alice)'s area, the channel view: what every player may see" in said
    svg = tmp_path / "b.svg"
    assert main(["render", str(named_game_file), "--focus", "Bo", "--radius", "0", "--turn", "1", "-o", str(svg)]) == 0
    assert "Bo (#2)'s Provinces" in all_text(svg_root(svg.read_bytes()))


@pytest.mark.parametrize(("extra", "needle"), [
    (["--focus", "Alcie"], "--focus: no seat is called 'Alcie'; did you mean Player#1 (Alice)?"),
    (["--focus", "Alice", "--radius", "9"], "--radius: must be a whole number from 0 to 4"),
    (["--radius", "2"], "--radius: only a focused picture has a radius: add --focus NAME"),
    (["--focus", "Alice", "--seat", "Bo"], "--focus: draws the board around a seat as every player may see it; "
                                            "leave out --seat"),
    (["--focus", "Alice", "--view", "gm"], "leave out --view"),
    (["--focus", "Alice", "--summary"], "leave out --summary"),
])
def test_render_focus_errors_are_one_line(named_game_file, tmp_path, capsys, extra, needle):
    out = tmp_path / "x.png"
    assert main(["render", str(named_game_file), "-o", str(out), *extra]) == 2
    err = capsys.readouterr().err
    assert needle in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not out.exists()
