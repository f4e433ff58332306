"""``regent npr ...`` on the sample world: text by default, JSON with --json, exit 2 on bad input."""

import json
from pathlib import Path

import pytest

from service.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "realms"
WORLD = str(EXAMPLES / "world.json")


def _json(capsys, *argv):
    assert main(["npr", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_invasions_text_and_json(capsys):
    assert main(["npr", "invasions", WORLD, "--seed", "3"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("== npr.invasions ==") and "[000 §13.5" in text
    d = _json(capsys, "invasions", WORLD, "--seed", "3")
    assert d["dice"]["seed"] == 3 and [e["npr"] for e in d["invasions"]] == sorted(e["npr"] for e in d["invasions"])
    assert d == _json(capsys, "invasions", WORLD, "--seed", "3")


def test_defend_retreat_and_deck(capsys):
    d = _json(capsys, "defend", WORLD, str(EXAMPLES / "attacks.json"))
    assert len(d["battles"]) == 6 and all(s["rule"] for s in d["trace"])
    assert _json(capsys, "retreat", WORLD, str(EXAMPLES / "battle.json"))["retreat"] is True
    fight = _json(capsys, "battle", WORLD, str(EXAMPLES / "fight.json"), "--deck", str(EXAMPLES / "deck.json"))
    assert fight["roller"] == "Castamar" and fight["npr_units"] == 7
    d = _json(capsys, "invasions", WORLD, "--deck", str(EXAMPLES / "deck.json"))
    assert "Chancellor Ysolde" in json.dumps(d["trace"])


def test_other_commands(capsys):
    assert _json(capsys, "cta", WORLD, "--attacker", "Castamar", "--target", "Elsmere")["ctas"][0]["to"] == "Brennia"
    assert _json(capsys, "liberate", WORLD, "Dunmoreton")["liberated"][0]["realm"] == "Dorn"
    assert _json(capsys, "release", WORLD)["released"] == []
    assert _json(capsys, "dnpr-expand", WORLD, "Morrow")["province"]
    assert _json(capsys, "capacity", WORLD, "Kestrel", "Tidewatch")["value"] == 6
    for step in ("income", "phase3", "actions"):
        assert _json(capsys, "caretaker", WORLD, "Castamar", "--step", step)["realm"] == "Castamar"
    d = _json(capsys, "caretaker", WORLD, "Brennia", "--step", "cta", "--cta-from", "Elsmere", "--attacker", "Galdor")
    assert d["accept"] is True


@pytest.mark.parametrize(
    "argv",
    [
        ["npr", "defend", WORLD, str(EXAMPLES / "battle.json")],
        ["npr", "capacity", WORLD, "Nobody", "Tidewatch"],
        ["npr", "invasions", str(EXAMPLES / "missing.json")],
        ["npr", "caretaker", WORLD, "Dorn"],
    ],
)
def test_bad_input_exits_2_with_a_clear_message(capsys, argv):
    assert main(argv) == 2
    assert capsys.readouterr().err.startswith("regent: error:")


def test_benchmark_smoke(capsys):
    """The benchmark runs on the sample world and reports per-NPR timings."""
    from benchmarks.realms_bench import main as bench

    result = bench(["--repeat", "2"])
    assert result["nprs"] == 9 and result["invasion_ms_per_npr"] > 0
    assert "per NPR" in capsys.readouterr().out


def test_toml_world_from_worlds_md(capsys):
    """The worlds.md example as TOML: Granada retakes its Occupied Capital Area (000 §13.5 step 1.1)."""
    d = _json(capsys, "invasions", str(EXAMPLES / "iberia.toml"), "--seed", "1")
    granada = d["invasions"][0]
    assert (granada["npr"], granada["target"], granada["priority"]) == ("Granada", "Granada", "1.1 Capital Area")
    morocco = d["invasions"][1]
    assert "Sea only" in morocco["ineligible_areas"]["Murcia"]


def test_a_toml_world_without_suffix_says_to_give_format(tmp_path, capsys):
    """hA defect 10: a TOML file named without a suffix gave a bare JSON error ("Expecting value")."""
    toml = (EXAMPLES / "iberia.toml").read_bytes()
    for name in ("iberia", "iberia.json"):
        path = tmp_path / name
        path.write_bytes(toml)
        assert main(["npr", "release", str(path)]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "--format toml" in err[0] and str(path) in err[0], err
    assert main(["npr", "release", str(tmp_path / "iberia"), "--format", "toml"]) == 0
    # a real JSON mistake in a .json file is not sent looking for TOML
    (tmp_path / "broken.json").write_text('{"areas": ')
    assert main(["npr", "release", str(tmp_path / "broken.json")]) == 2
    assert "--format" not in capsys.readouterr().err


def test_an_npn_world_without_suffix_says_to_give_format(tmp_path, capsys):
    path = tmp_path / "world"
    path.write_bytes((EXAMPLES.parent / "newworld" / "world.json").read_bytes())
    assert main(["npn", "plan", str(path), "--nation", "Spain"]) == 2
    assert "--format toml" in capsys.readouterr().err
    assert main(["npn", "plan", str(path), "--nation", "Spain", "--format", "json"]) == 0


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        (b"\xc1", "a byte that starts no MessagePack value"),  # the decoder's FormatError says nothing at all
        (b"\x81\x91\x01\x01", "a map key that is not a name"),  # {[1]: 1}: npn plan crashed ("internal error")
        (b"\x81\xa1a", "the file ends in the middle of a value"),
        (b"\x80\x80", "more bytes after the end of the document"),
    ],
)
@pytest.mark.parametrize("command", [["npr", "release"], ["npn", "plan"]])
def test_an_unreadable_msgpack_world_says_what_is_wrong_in_one_line(tmp_path, capsys, command, raw, why):
    """A bad world file gets one line naming the file and what is wrong, exit 2, no traceback: a .msgpack
    world with the reserved byte 0xc1 said "not a valid document:" (npr) or "not valid MessagePack:" (npn)
    and nothing more, and one with an array as a map key was an "internal error" of npn plan."""
    path = tmp_path / "world.msgpack"
    path.write_bytes(raw)
    assert main([*command, str(path), *(["--nation", "Spain"] if command[0] == "npn" else [])]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(path) in err[0] and f"not readable MessagePack: {why}" in err[0], err
    assert "internal error" not in err[0] and "Traceback" not in err[0]


@pytest.mark.parametrize(
    ("argv", "option", "why"),
    [
        (["npr", "defend", WORLD, str(EXAMPLES / "attacks.json"), "--supply", "-1"], "--supply", "must be 0 or more"),
        (["npn", "plan", str(EXAMPLES.parent / "newworld" / "world.json"), "--nation", "Spain", "--turn", "0"],
         "--turn", "must be 1 or more"),
    ],
)
def test_a_bad_option_value_is_named_as_the_option_not_as_a_file(capsys, argv, option, why):
    """regent npr defend --supply -1 said "attacks.json: supply: ..." and regent npn plan --turn 0 said
    "world.json: turn: must be a positive integer", blaming the file last read (a New World world has a
    ``turn`` of its own); the line now names the option, and no file."""
    with pytest.raises(SystemExit) as leaving:  # a usage mistake, said by the command's parser (exit 2)
        main(argv)
    assert leaving.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"argument {option}: {why}" in err[0], err
    assert ".json" not in err[0]


@pytest.mark.parametrize("command", ["invasions", "battle"])
def test_deck_help_says_it_is_a_file(capsys, command):
    """--deck read a file while its help said "Military Deck as data ... (JSON list)": a deck given inline
    ('[{"kind": ...}]') was refused as "cannot read: No such file or directory"."""
    with pytest.raises(SystemExit):
        main(["npr", command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--deck FILE" in text and "a file holding the Military Deck" in text
