"""``regent call``'s fields (hA dogfood defect 4): a key given twice is refused as in every file regent
reads (before, the last one silently won), and large fields come from a file (``@FILE``) or standard
input (``-``): a 158 KB world on the command line failed with "Argument list too long"."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from service.cli import main
from service.cli.call import read_fields

ROOT = Path(__file__).resolve().parents[2]
WORLD = json.loads((ROOT / "examples" / "realms" / "world.json").read_text())


def _big_world() -> dict:
    """The sample world with enough quiet NPR Areas added to weigh over 150 KB."""
    world = json.loads(json.dumps(WORLD))
    for i in range(900):
        world["areas"][f"Far {i:04d} of the long eastern marches"] = {"adjacent": []}
        world["provinces"][f"Quiet hamlet number {i:04d}"] = {"area": f"Far {i:04d} of the long eastern marches",
                                                              "size": "small", "owner": "Dorn"}
    return world


@pytest.mark.parametrize("text", ['{"seed": 1, "seed": 2}', '{"world": {"areas": {}, "areas": {}}}'])
def test_a_key_given_twice_is_refused(text, capsys):
    with pytest.raises(ValueError, match="given twice in one object"):
        read_fields(text)
    assert main(["call", "ping", text, "--unix", "/nonexistent/socket"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("regent: error: fields: the key ") and "given twice" in err[0]


def test_fields_from_a_file_and_from_standard_input(tmp_path):
    path = tmp_path / "fields.json"
    path.write_text('{"seed": 3}')
    assert read_fields(f"@{path}") == {"seed": 3}
    assert read_fields("-", stdin=io.StringIO('{"seed": 4}')) == {"seed": 4}
    path.write_text('{"seed": 3, "seed": 4}')
    with pytest.raises(ValueError, match=f"^{path}: the key 'seed' is given twice"):
        read_fields(f"@{path}")
    with pytest.raises(ValueError, match="must be a JSON object"):
        read_fields("-", stdin=io.StringIO("[1]"))
    with pytest.raises(ValueError, match="needs a file name"):
        read_fields("@")


def test_help_names_the_file_and_stdin_forms(capsys):
    with pytest.raises(SystemExit):
        main(["call", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "@FILE" in text and "standard input" in text and "given twice" in text


def test_a_large_world_goes_through_a_file(server, tmp_path, capsys, monkeypatch):
    from engine.realms import world_from_dict
    from npr_controller.realms.invasions import invasions

    big = _big_world()
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"world": big, "seed": 9}))
    assert path.stat().st_size > 150_000
    assert main(["call", "npr.invasions", f"@{path}", "--unix", server.unix, "--compact"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == json.loads(json.dumps(invasions(world_from_dict(big), seed=9).to_dict()))
    monkeypatch.setattr("sys.stdin", io.StringIO(path.read_text()))
    assert main(["call", "npr.invasions", "-", "--unix", server.unix, "--compact"]) == 0
    assert json.loads(capsys.readouterr().out) == out


def test_a_bad_base64_field_is_named_before_any_connection(capsys):
    # hB item 9: the base64 error did not say which field; now it is named, exit 2, no service needed
    assert main(["call", "game.import", '{"blob": {"$bytes": "!!!"}}', "--port", "1"]) == 2
    assert "fields.blob.$bytes: not base64" in capsys.readouterr().err


def test_an_integer_msgpack_cannot_carry_is_named_before_any_connection(capsys):
    # a seed of 2**64 or more failed in the client's msgpack packing as 'internal error ... a bug in Regent'
    assert main(["call", "game.create", '{"setup": {"seed": 18446744073709551616}}', "--port", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("regent: error: fields.setup.seed: 18446744073709551616 is too large") and "bug" not in err
