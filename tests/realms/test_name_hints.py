"""A name the world does not have, one slip of case or a letter or two away from one it has, is refused with the
name meant ('did you mean'), as docs/world-formats.md promises ("often what to write instead"): in the world itself
(a realm in a treaty, a Province's Area or Port, a unit's Area, the realm's Capital) and in what a decision names
beside it (regent npr capacity, liberate, defend, battle, caretaker, dnpr-expand)."""

import json
from pathlib import Path

import pytest

from engine.errors import ValidationError
from engine.realms import world_from_dict
from service.cli import main

WORLD_FILE = Path(__file__).resolve().parents[2] / "examples" / "realms" / "world.json"
SAMPLE = json.loads(WORLD_FILE.read_text(encoding="utf-8"))


def _sample():
    return json.loads(json.dumps(SAMPLE))


def _first_war(d, value):
    d["relations"]["wars"][0][1] = value


def _alliance_npr(d, value):
    d["relations"]["alliances"][0]["npr"] = value


def _province_area(d, value):
    next(iter(d["provinces"].values()))["area"] = value


def _unit_area(d, value):
    d["units"][0]["where"] = value


def _occupier(d, value):
    next(p for p in d["provinces"].values() if p.get("occupied_by"))["occupied_by"] = value


def _capital(d, value):
    realm = next(r for r in d["realms"].values() if r.get("capital"))
    realm["capital"] = value


def _adjacent(d, value):
    next(a for a in d["areas"].values() if a.get("adjacent"))["adjacent"][0] = value


CASES = {  # where the slip is made -> (how, the name the slip is of)
    "a realm at War": (_first_war, lambda d: d["relations"]["wars"][0][1]),
    "an Alliance's NPR": (_alliance_npr, lambda d: d["relations"]["alliances"][0]["npr"]),
    "a Province's Area": (_province_area, lambda d: next(iter(d["provinces"].values()))["area"]),
    "a unit's Area": (_unit_area, lambda d: d["units"][0]["where"]),
    "the occupier": (
        _occupier,
        lambda d: next(p for p in d["provinces"].values() if p.get("occupied_by"))["occupied_by"],
    ),
    "a realm's Capital": (_capital, lambda d: next(r for r in d["realms"].values() if r.get("capital"))["capital"]),
    "an adjacent Area": (_adjacent, lambda d: next(a for a in d["areas"].values() if a.get("adjacent"))["adjacent"][0]),
}


def _slips(name):
    return [name.upper(), name[:-1], name[0] + name[2:] if len(name) > 5 else name.lower()]


@pytest.mark.parametrize("where", sorted(CASES))
def test_a_slip_in_the_world_names_the_name_meant(where):
    how, meant_of = CASES[where]
    meant = meant_of(_sample())
    for slip in _slips(meant):
        d = _sample()
        how(d, slip)
        with pytest.raises(ValidationError) as err:
            world_from_dict(d)
        assert f"{slip!r}" in str(err.value) and f"(did you mean {meant!r}?)" in str(err.value), (slip, err.value)


def test_a_name_near_none_gets_no_guess():
    d = _sample()
    _first_war(d, "Xyzzy")
    with pytest.raises(ValidationError) as err:
        world_from_dict(d)
    assert str(err.value).endswith("unknown realm 'Xyzzy'")


@pytest.mark.parametrize(
    ("argv", "meant"),
    [
        (["capacity", str(WORLD_FILE), "kestrel", "Tidewatch"], "Kestrel"),
        (["capacity", str(WORLD_FILE), "Kestrel", "Tidwatch"], "Tidewatch"),
        (["liberate", str(WORLD_FILE), "Dunmoretn"], "Dunmoreton"),
        (["dnpr-expand", str(WORLD_FILE), "morow"], "Morrow"),
        (["caretaker", str(WORLD_FILE), "castamar"], "Castamar"),
    ],
)
def test_a_slip_in_a_decisions_names_names_the_name_meant(capsys, argv, meant):
    assert main(["npr", *argv]) == 2
    err = capsys.readouterr().err
    assert f"(did you mean {meant!r}?)" in err and len(err.strip().splitlines()) == 1, err


def test_a_slip_in_an_attack_or_a_battle_names_the_name_meant(capsys, tmp_path):
    (tmp_path / "attacks.json").write_text('[{"attacker": "Aurelia", "area": "northwatch", "units": 2}]')
    (tmp_path / "battle.json").write_text('{"npr": "dorn", "area": "Northwatch", "enemy_units": 2}')
    assert main(["npr", "defend", str(WORLD_FILE), str(tmp_path / "attacks.json")]) == 2
    assert "unknown Area 'northwatch' (did you mean 'Northwatch'?)" in capsys.readouterr().err
    assert main(["npr", "battle", str(WORLD_FILE), str(tmp_path / "battle.json")]) == 2
    assert "'dorn' is not an NPR (did you mean 'Dorn'?)" in capsys.readouterr().err
