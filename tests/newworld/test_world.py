"""engine.newworld: the world document, its validation and the questions the planner asks."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import msgpack
import pytest

from engine.errors import ValidationError
from engine.newworld import DEFAULT_LANDFALL_TABLES, Options, decode_world, load_world, parse_world
from tests.newworld.helpers import doc, hold, world

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "newworld" / "world.json"


def _base():
    return doc({"Spain": {"treasury": 80, "holdings": {"H": {"colonists": 2, "soldiers": 1}}},
                "Dutch": {"player": True, "holdings": hold("O")}})


class TestSampleWorld:
    def test_example_loads_with_the_spain_dutch_standings(self):
        w = load_world(EXAMPLE)
        assert w.pc_areas("Spain") == ("H", "J", "R", "U")
        assert w.pc_areas("Dutch") == ("B", "M", "O")
        assert w.hegemon_lead() == ("Spain", 4, 3)

    def test_adjacency_is_symmetric_when_listed_on_one_side(self):
        w = parse_world(_base())
        # the grid lists only right/down neighbours; J must still know H
        assert "H" in w.areas["J"].adjacent and "J" in w.areas["H"].adjacent

    def test_defaults(self):
        w = parse_world(_base())
        assert w.options == Options()
        assert (w.options.ship_price, w.options.soldier_price, w.options.ship_capacity) == (12, 10, 2)
        assert w.landfall_tables == DEFAULT_LANDFALL_TABLES


def _set(path: str, value):
    """A mutator setting a dotted path of the base document (creating maps on the way)."""
    def mutate(d):
        *parents, last = path.split(".")
        node = d
        for p in parents:
            node = node.setdefault(p, {})
        node[last] = value
    return mutate


def _drop(path: str):
    def mutate(d):
        *parents, last = path.split(".")
        node = d
        for p in parents:
            node = node[p]
        del node[last]
    return mutate


BAD = [
    ("unknown top-level key", _set("turns", 3), "turns"),
    ("turn missing", _drop("turn"), "turn"),
    ("turn zero", _set("turn", 0), "turn"),
    ("turn is a bool", _set("turn", True), "turn"),
    ("areas missing", _drop("areas"), "areas"),
    ("unknown adjacent area", _set("areas.H.adjacent", ["J", "Q"]), "areas.H.adjacent[1]"),
    ("self adjacency", _set("areas.H.adjacent", ["H"]), "areas.H.adjacent[0]"),
    ("coastal not a bool", _set("areas.H.coastal", "yes"), "areas.H.coastal"),
    ("negative natives", _set("areas.H.natives", -1), "areas.H.natives"),
    ("unknown area key", _set("areas.H.coast", True), "areas.H.coast"),
    ("landfall table 3", _set("areas.H.landfall_table", 3), "areas.H.landfall_table"),
    ("landfall table mismatch", _set("areas.H.landfall_table", 2), "areas.H.landfall_table"),
    ("duplicate landfall letter", _set("areas.B.landfall", "H"), "areas.B.landfall"),
    ("negative treasury", _set("nations.Spain.treasury", -5), "nations.Spain.treasury"),
    ("ships a string", _set("nations.Spain.ships", "3"), "nations.Spain.ships"),
    ("unknown nation key", _set("nations.Spain.gold", 3), "nations.Spain.gold"),
    ("holding in unknown area",
     _set("nations.Spain.holdings.Q", {"colonists": 1}), "nations.Spain.holdings.Q"),
    ("holding key typo", _set("nations.Spain.holdings.H.colonist", 1), "nations.Spain.holdings.H.colonist"),
    ("empty holding", _set("nations.Spain.holdings.H", {"colonists": 0}), "nations.Spain.holdings.H"),
    ("claim of unknown area",
     _set("nations.Spain.exclusive_landfall", "Q"), "nations.Spain.exclusive_landfall"),
    ("ship price zero", _set("prices.ship", 0), "prices.ship"),
    ("unknown price", _set("prices.colonist", 1), "prices.colonist"),
    ("unknown pc rule", _set("options.pc_rule", "magic"), "options.pc_rule"),
    ("capacity zero", _set("options.ship_capacity", 0), "options.ship_capacity"),
    ("short landfall table", _set("landfall_tables", {"1": ["H", "J"]}), "landfall_tables.1"),
    ("unknown landfall table", _set("landfall_tables", {"3": list("HJNORU")}), "landfall_tables.3"),
    ("letter naming no area", _set("landfall_tables", {"1": list("HJNORZ")}), "landfall_tables.1[5]"),
    ("rival unknown", _set("hegemon_tie_rival", {"Spain": "Swedes"}), "hegemon_tie_rival.Spain"),
    ("rival itself", _set("hegemon_tie_rival", {"Spain": "Spain"}), "hegemon_tie_rival.Spain"),
    ("declared PC contradicts rule",
     _set("nations.Spain.holdings.H.pc", False), "nations.Spain.holdings.H.pc"),
]


@pytest.mark.parametrize(("case", "mutate", "field"), BAD, ids=[b[0] for b in BAD])
def test_bad_input_names_the_field(case, mutate, field):
    d = copy.deepcopy(_base())
    mutate(d)
    with pytest.raises(ValidationError) as err:
        parse_world(d)
    assert err.value.field == field
    assert err.value.to_wire()["details"]["field"] == field
    assert isinstance(err.value, ValueError)


def test_one_area_claimed_as_two_nations_exclusive_landfall_is_refused():
    """002 Exploration: "if the result obtained is already occupied (or claimed as an Exclusive
    Landfall), roll again". With two claims on N the planner counted the alphabetically first claimant
    only: N was free for the Dutch and blocked for Spain, Spain's own claim ignored."""
    d = copy.deepcopy(_base())
    d["nations"]["Spain"]["exclusive_landfall"] = "N"
    d["nations"]["Dutch"]["exclusive_landfall"] = "N"
    with pytest.raises(ValidationError) as err:
        parse_world(d)
    assert err.value.field == "nations.Dutch.exclusive_landfall" and "already Spain's" in err.value.reason


def test_a_removed_landfall_area_is_reported_with_what_to_write():
    d = _base()
    del d["areas"]["U"]
    for spec in d["areas"].values():
        spec["adjacent"] = [a for a in spec["adjacent"] if a != "U"]
    with pytest.raises(ValidationError) as err:
        parse_world(d)
    # the GM wrote no landfall_tables: the error names the key to write (issue 20 item 5)
    assert err.value.field == "off_map_landfalls" and "'U'" in err.value.reason
    d["landfall_tables"] = {"1": list("HJNORU")}
    with pytest.raises(ValidationError) as err:
        parse_world(d)
    assert err.value.field == "landfall_tables.1[5]"
    d["off_map_landfalls"] = ["U"]
    assert parse_world(d).landfall_area("U") is None


def test_a_named_area_can_carry_a_landfall_letter():
    d = _base()
    d["areas"]["Hispaniola"] = d["areas"].pop("H")
    d["areas"]["Hispaniola"]["landfall"] = "H"
    d["nations"]["Spain"]["holdings"] = hold("J")
    w = parse_world(d)
    assert w.landfall_area("H") == "Hispaniola"
    assert w.areas["Hispaniola"].letter == "H"


class TestPoliticalControl:
    def test_sole_presence_natives_cleared_and_a_colonist(self):
        w = world({"Spain": {"holdings": hold("H")}})
        assert w.pc_areas("Spain") == ("H",)

    def test_natives_left_deny_pc(self):
        w = world({"Spain": {"holdings": hold("H")}}, natives={"H": 1})
        assert w.pc_areas("Spain") == ()

    def test_a_second_nation_denies_pc_to_both(self):
        w = world({"Spain": {"holdings": hold("H")}, "Dutch": {"holdings": hold("H")}})
        assert w.pc_areas("Spain") == () and w.pc_areas("Dutch") == ()

    def test_soldiers_alone_do_not_give_pc(self):
        w = world({"Spain": {"holdings": hold("H", colonists=0, soldiers=3)}})
        assert w.pc_areas("Spain") == ()

    def test_declared_rule_trusts_the_flags(self):
        nations = {"Spain": {"holdings": {"H": {"soldiers": 2, "pc": True}, "J": {"colonists": 1}}}}
        w = world(nations, options={"pc_rule": "declared"})
        assert w.pc_areas("Spain") == ("H",)

    def test_hegemon_tie_has_no_lead(self):
        w = world({"Spain": {"holdings": hold("H", "J")}, "Dutch": {"holdings": hold("O", "M")}})
        assert w.hegemon_lead() == (None, 2, 2)


class TestFiles:
    def test_json_toml_and_msgpack_give_the_same_world(self, tmp_path):
        d = {"turn": 3, "areas": {"H": {"adjacent": ["J"], "coastal": True}, "J": {"natives": 2}},
             "nations": {"Spain": {"treasury": 50, "holdings": {"H": {"colonists": 2}}}},
             "landfall_tables": {"1": ["H", "H", "H", "J", "J", "J"], "2": ["J"] * 6}}
        toml = (
            'turn = 3\n[areas.H]\nadjacent = ["J"]\ncoastal = true\n[areas.J]\nnatives = 2\n'
            '[nations.Spain]\ntreasury = 50\n[nations.Spain.holdings.H]\ncolonists = 2\n'
            '[landfall_tables]\n"1" = ["H", "H", "H", "J", "J", "J"]\n"2" = ["J", "J", "J", "J", "J", "J"]\n'
        )
        (tmp_path / "w.json").write_text(json.dumps(d))
        (tmp_path / "w.toml").write_text(toml)
        (tmp_path / "w.msgpack").write_bytes(msgpack.packb(d))
        worlds = [load_world(tmp_path / f"w.{ext}") for ext in ("json", "toml", "msgpack")]
        assert worlds[0] == worlds[1] == worlds[2]
        assert worlds[0].landfall_tables[1] == ("H", "H", "H", "J", "J", "J")

    def test_msgpack_integer_table_keys(self):
        d = _base()
        d["landfall_tables"] = {1: list("HJNORU")}
        w = parse_world(decode_world(msgpack.packb(d, strict_types=False), "msgpack"))
        assert w.landfall_tables[1] == tuple("HJNORU")

    def test_bad_json_is_a_validation_error(self, tmp_path):
        p = tmp_path / "w.json"
        p.write_text("{not json")
        with pytest.raises(ValidationError) as err:
            load_world(p)
        assert err.value.field == "world" and "JSON" in str(err.value)

    def test_unknown_suffix_and_missing_file(self, tmp_path):
        with pytest.raises(ValidationError, match="unknown file type"):
            load_world(tmp_path / "w.yaml")
        with pytest.raises(ValidationError, match="cannot read"):
            load_world(tmp_path / "missing.json")

    def test_top_level_must_be_a_map(self):
        with pytest.raises(ValidationError) as err:
            parse_world([1, 2])
        assert err.value.field == "world"


def test_a_hand_typed_json_mistake_is_named_where_it_is():
    # the JSON reader's own message points past a trailing comma ("Expecting property name ..." a line below)
    with pytest.raises(ValidationError, match=r"world: w.json: not JSON: line 2: a comma after the last entry"):
        decode_world(b'{\n  "nations": [],\n}', "json", source="w.json")
    with pytest.raises(ValidationError, match=r"line 1: curly quotes"):
        decode_world('{\u201cnations\u201d: []}'.encode(), "json", source="w.json")


@pytest.mark.parametrize(
    ("mutate", "field", "slip", "meant"),
    [
        (lambda d: d["nations"]["Spain"]["holdings"].update({"h": d["nations"]["Spain"]["holdings"].pop("H")}),
         "nations.Spain.holdings.h", "h", "H"),
        (lambda d: d["areas"]["H"]["adjacent"].append("y"), "areas.H.adjacent[2]", "y", "Y"),
        (lambda d: d.update(hegemon_tie_rival={"Spain": "Dutsh"}), "hegemon_tie_rival.Spain", "Dutsh", "Dutch"),
        (lambda d: d["nations"]["Spain"].update(exclusive_landfall="c"), "nations.Spain.exclusive_landfall", "c",
         "C"),
    ],
)
def test_a_slip_in_a_name_is_refused_with_the_name_meant(mutate, field, slip, meant):
    """A GM's slip of case or a letter ('holdings.h', rival 'Dutsh') read only "unknown Area 'h'"; the error now names
    the Area or nation meant, as regent npn plan --nation and the realm world's errors do."""
    d = _base()
    mutate(d)
    with pytest.raises(ValidationError) as err:
        parse_world(d)
    assert err.value.field == field
    assert str(err.value).endswith(f"{slip!r} (did you mean {meant!r}?)")


def test_a_name_near_none_is_refused_without_a_guess():
    d = _base()
    d["areas"]["H"]["adjacent"].append("Atlantis")
    with pytest.raises(ValidationError) as err:
        parse_world(d)
    assert str(err.value) == "areas.H.adjacent[2]: unknown Area 'Atlantis'"
