"""``regent npn plan`` and ``regent npr`` read the world from standard input (issue 20 item 6): ``-``
or (npn) a pipe with the file left out; ``--format`` when there is no suffix to go by."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import msgpack
import pytest

from service.cli import main

ROOT = Path(__file__).resolve().parents[2]
NEW_WORLD = ROOT / "examples" / "newworld" / "world.json"
IBERIA = ROOT / "examples" / "realms" / "iberia.toml"
PLAN = ["npn", "plan", "--nation", "Spain", "--seed", "4", "--json"]


def _stdin(monkeypatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


def _plan_from_file(capsys) -> dict:
    assert main([*PLAN, str(NEW_WORLD)]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("argv", [[], ["-"]])
def test_npn_plan_reads_a_pipe_or_dash(monkeypatch, capsys, argv):
    expected = _plan_from_file(capsys)
    _stdin(monkeypatch, NEW_WORLD.read_bytes())
    assert main([*PLAN, *argv]) == 0
    assert json.loads(capsys.readouterr().out) == expected


def test_npn_plan_sniffs_msgpack_and_takes_format(monkeypatch, capsys):
    expected = _plan_from_file(capsys)
    packed = msgpack.packb(json.loads(NEW_WORLD.read_text()))
    _stdin(monkeypatch, packed)
    assert main(PLAN) == 0
    assert json.loads(capsys.readouterr().out) == expected
    _stdin(monkeypatch, packed)
    assert main([*PLAN, "--format", "msgpack"]) == 0
    assert json.loads(capsys.readouterr().out) == expected


def test_npn_plan_toml_needs_format(monkeypatch, capsys):
    toml = 'turn = 1\n[areas.H]\ncoastal = true\n[nations.Spain]\ntreasury = 80\n'  # a one-Area map
    _stdin(monkeypatch, toml.encode())
    assert main(PLAN) == 2
    err = capsys.readouterr().err
    assert err.startswith("regent: error:") and "--format" in err and err[-1] == "\n" and err.count("\n") == 1
    _stdin(monkeypatch, toml.encode())
    assert main([*PLAN, "--format", "toml"]) == 2  # read as TOML: now the world itself is what is wrong
    assert "off_map_landfalls" in capsys.readouterr().err


def test_a_file_without_suffix_with_format(capsys, tmp_path):
    expected = _plan_from_file(capsys)
    plain = tmp_path / "world"
    plain.write_bytes(NEW_WORLD.read_bytes())
    assert main([*PLAN, str(plain)]) == 2  # no suffix: the loader cannot tell
    capsys.readouterr()
    assert main([*PLAN, str(plain), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == expected
    assert main([*PLAN, str(NEW_WORLD), "--format", "toml"]) == 2  # the suffix says otherwise
    assert "named as json" in capsys.readouterr().err


def test_empty_stdin_is_a_clear_error(monkeypatch, capsys):
    _stdin(monkeypatch, b"")
    assert main(PLAN) == 2
    assert "standard input is empty" in capsys.readouterr().err


def test_npr_reads_standard_input_too(monkeypatch, capsys):
    assert main(["npr", "invasions", str(IBERIA), "--seed", "1", "--json"]) == 0
    expected = json.loads(capsys.readouterr().out)
    _stdin(monkeypatch, IBERIA.read_bytes())
    assert main(["npr", "invasions", "-", "--format", "toml", "--seed", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == expected


def test_a_world_file_with_a_json_mistake_is_named_once(capsys, tmp_path):
    # "bad.json: world: bad.json is not valid JSON ...": the file was named twice in the one line
    bad = tmp_path / "bad.json"
    bad.write_text('{"nations": [],}', encoding="utf-8")
    assert main([*PLAN, str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count(str(bad)) == 1 and "not JSON: line 1: a comma after the last entry" in err, err
