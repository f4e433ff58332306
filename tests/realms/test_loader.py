"""Loading a realm world (worlds.md) from JSON, TOML and msgpack, with validation naming every field."""

import json

import msgpack
import pytest

from engine.errors import ValidationError
from engine.realms import load_world, world_from_dict
from tests.realms.helpers import doc, prov, town

REALMS = {"Gran": {"kind": "npr", "capital": "g1"}, "Cast": "pr"}


def _doc(**kw):
    return doc(
        {"G": ["X"], "X": []},
        {"g1": prov("G", "Gran", "large", port="S"), "x1": town("X", "Cast")},
        REALMS,
        seas={"S": ["G"]},
        wars=[["Cast", "Gran"]],
        units=[("Cast", "X", 2)],
        **kw,
    )


def _toml(d):
    def val(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, str):
            return json.dumps(v)
        if isinstance(v, list):
            return "[" + ", ".join(val(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{" + ", ".join(f"{json.dumps(k)} = {val(x)}" for k, x in v.items() if x is not None) + "}"
        return str(v)

    return "\n".join(f"{k} = {val(v)}" for k, v in d.items()) + "\n"


def test_json_toml_and_msgpack_load_the_same_world(tmp_path):
    d = _doc()
    (tmp_path / "w.json").write_text(json.dumps(d))
    (tmp_path / "w.toml").write_text(_toml(d))
    (tmp_path / "w.msgpack").write_bytes(msgpack.packb(d))
    worlds = [load_world(tmp_path / n) for n in ("w.json", "w.toml", "w.msgpack")]
    for w in worlds:
        assert w.provinces == worlds[0].provinces and w.realms == worlds[0].realms
        assert w.at_war("Cast", "Gran") and w.areas["X"].adjacent == frozenset({"G"})
    assert load_world(msgpack.packb(d)).provinces == worlds[0].provinces


def test_adjacency_is_symmetric_and_sea_lists_merge():
    w = world_from_dict(_doc())
    assert "X" in w.areas["G"].adjacent and "G" in w.areas["X"].adjacent
    assert w.areas["G"].seas == frozenset({"S"}) and w.seas["S"].adjacent == frozenset({"G"})


def _with(path: tuple, value: object) -> dict:
    """The sample document with the field at ``path`` set to ``value``."""
    d = _doc()
    target = d
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return d


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("provinces", "g1", "size"), "huge", "provinces.g1.size: must be 'small' or 'large'"),
        (("provinces", "g1", "colour"), "red", "provinces.g1.colour: unknown key"),
        (("provinces", "g1", "area"), "Nowhere", "provinces.g1.area: unknown Area 'Nowhere'"),
        (("provinces", "g1", "port"), "Atlantis", "provinces.g1.port: unknown Sea Zone 'Atlantis'"),
        (("provinces", "g1", "token"), "t", "provinces.g1.token: 't' needs a PR owner"),
        (("provinces", "x1", "token"), None, "provinces.x1.token: a PR's Province carries its 't'"),
        (("provinces", "g1", "extra_manpower"), -1, "provinces.g1.extra_manpower: must be >= 0"),
        (
            ("realms", "Gran", "kind"),
            "empire",
            "realms.Gran.kind: must be 'pr' or 'npr' or 'vassal' or 'dnpr'",
        ),
        (("realms", "Cast", "stability"), 4, r"realms.Cast.stability: must be between -3 and \+3"),
        (("areas", "G", "adjacent"), ["Q"], r"areas.G.adjacent\[0\]: unknown Area 'Q'"),
        (("units",), [{"realm": "Cast", "where": "X", "cnt": 1}], r"units\[0\].cnt: unknown key"),
        (("relations", "wars"), [["Cast", "Nobody"]], r"relations.wars\[0\]\[1\]: unknown realm 'Nobody'"),
        (("round",), "three", "round: must be a whole number, not the text 'three'$"),
        # rounds are counted from 1 ("round": 1 when left out); round 0 was taken and keyed the dice streams
        (("round",), 0, "round: must be at least 1"),
        # one name, one place: `npr capacity WORLD REALM G` answered the Sea Zone's NC, silently
        (("seas", "G"), {}, "seas.G: 'G' is also the name of an Area"),
        (("typo",), 1, "typo: unknown key"),
        (("units",), [{"realm": "Gran", "where": "X"}], r"units\[0\].realm: army Units belong to a PR"),
        (("ships",), [{"realm": "Gran", "sea": "S"}], r"ships\[0\].realm: Ships on the board belong to PRs"),
        (("realms", "Cast", "monarch_power"), {"adm": 11}, r"realms.Cast.monarch_power.adm: at most 10"),
    ],
)
def test_bad_field_is_named(path, value, message):
    with pytest.raises(ValidationError, match=message):
        world_from_dict(_with(path, value))


def test_an_npr_allies_only_one_pr():
    """004 §11.3: an NPR can only be Allied to 1 PR."""
    d = _doc()
    d["realms"]["Arag"] = {"kind": "pr"}
    d["relations"]["alliances"] = [{"pr": "Cast", "npr": "Gran"}, {"pr": "Arag", "npr": "Gran"}]
    with pytest.raises(ValidationError, match=r"relations.alliances\[1\].npr: 'Gran' is already Allied"):
        world_from_dict(d)


def test_no_war_between_parties_in_a_truce():
    """rules-gaps.md Definitions: a Truce means no war between the parties."""
    d = _doc()
    d["relations"]["truces"] = [["Gran", "Cast"]]
    with pytest.raises(ValidationError, match=r"relations.wars\[0\]: Cast and Gran are in a Truce"):
        world_from_dict(d)


def test_dnpr_token_never_on_a_pr_core():
    """000 §13.3: a DNPR token can never be placed on a PR's Core."""
    d = _doc()
    d["realms"]["Dn"] = {"kind": "dnpr"}
    d["provinces"]["d1"] = prov("X", "Dn", flag="Cast", token="dnpr", dnpr="Dn")
    with pytest.raises(ValidationError, match=r"provinces.d1.dnpr: a DNPR token can never be on a PR.s Core"):
        world_from_dict(d)


@pytest.mark.parametrize(
    ("core", "why"), [("Gran", "'Gran' is an NPR"), ("Nobody", "'Nobody' is not a realm of this world")]
)
def test_a_core_token_is_a_player_realms(core, why):
    """001 §7.6 Core tokens: "To place a F, a PR needs to Own all the Provinces in the target Area"."""
    d = _doc()
    d["areas"]["X"]["core"] = "Cast"
    assert world_from_dict(d).core_of(world_from_dict(d).provinces["x1"]) == "Cast"
    d["areas"]["X"]["core"] = core
    with pytest.raises(ValidationError, match=f"areas.X.core: {why}: a Core token is a Player Realm's"):
        world_from_dict(d)


def test_no_dnpr_token_in_an_area_with_a_core_token():
    """001 §7.6: a Core token "displaces any æ" and makes every Province of its Area the PR's Core, where a
    DNPR token can never be (000 §13.3)."""
    d = _doc()
    d["realms"]["Dn"] = {"kind": "dnpr"}
    d["provinces"]["d1"] = prov("X", "Dn", token="dnpr", dnpr="Dn")
    world_from_dict(d)
    d["areas"]["X"]["core"] = "Cast"
    with pytest.raises(ValidationError, match=r"provinces.d1.dnpr: a DNPR token can never be on a PR.s Core: Area"):
        world_from_dict(d)


def test_unreadable_file_is_a_clear_error(tmp_path):
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(ValidationError, match="not a valid document"):
        load_world(tmp_path / "bad.json")
    with pytest.raises(ValidationError, match="cannot read"):
        load_world(tmp_path / "missing.json")


def test_a_hand_typed_json_mistake_is_named_where_it_is(tmp_path):
    # the JSON reader's own message points past a trailing comma ("Expecting property name ..." a line below)
    (tmp_path / "w.json").write_text('{\n  "realms": {},\n  "provinces": {},\n}\n')
    with pytest.raises(ValidationError, match=r"line 3: a comma after the last entry, before '\}'"):
        load_world(tmp_path / "w.json")


def test_a_misspelt_capital_written_twice_is_named_as_unknown_not_as_a_second_capital():
    """A GM who marks the Province ``capital = true`` and also types the realm's ``capital`` with a slip was told
    "provinces.g1.capital: 'Gran''s capital is 'G1'", blaming the right line and not naming the unknown Province."""
    d = _doc()
    d["provinces"]["g1"]["capital"] = True
    d["realms"]["Gran"]["capital"] = "G1"
    with pytest.raises(ValidationError, match=r"^realms.Gran.capital: unknown Province 'G1'"):
        world_from_dict(d)


@pytest.mark.parametrize("first", ["realm", "province"])
def test_two_capitals_say_where_the_first_is_given(first):
    d = _doc()
    d["provinces"]["g2"] = prov("G", "Gran", capital=True)
    if first == "province":
        del d["realms"]["Gran"]["capital"]
        d["provinces"]["g1"]["capital"] = True
    where = "realms.Gran.capital" if first == "realm" else "provinces.g1.capital"
    with pytest.raises(ValidationError) as err:
        world_from_dict(d)
    assert err.value.field == "provinces.g2.capital"
    assert f"Gran already has its Capital g1 ({where}): a realm has one Capital" in str(err.value)


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("units", 0, "count"), "2",
         r"units\[0\].count: must be a whole number, not the text '2' \(write 2 without quotes\)"),
        (("round",), " 3", r"round: must be a whole number, not the text ' 3' \(write 3 without quotes\)"),
        (("realms", "Cast", "stability"), 1.5, "realms.Cast.stability: must be a whole number, not 1.5$"),
        (("realms", "Cast", "passed"), "yes", "realms.Cast.passed: must be true or false, not the text 'yes'$"),
        (("areas", "G", "adjacent"), "X", "areas.G.adjacent: must be a list, not the text 'X'$"),
        (("relations",), [], "relations: must be a map, not a list$"),
    ],
)
def test_a_value_of_the_wrong_kind_is_named_in_the_documents_words(path, value, message):
    """A number typed in quotes read 'units[0].count: must be int, not str', Python's words for the GM's slip; the
    error now says the kind in the document's words, shows the value and, for a number in quotes, what to write."""
    with pytest.raises(ValidationError, match=message):
        world_from_dict(_with(path, value))


@pytest.mark.parametrize(("first", "second"), [("g1", "G1"), ("Saint Malo", "Saint-Malo"), ("Evora", "Évora")])
def test_one_province_typed_two_ways_is_refused(first, second):
    """A Province listed twice with its name typed two ways ('Saint Malo' and 'Saint-Malo') was taken as two, its
    Tax Value counted twice (MC, invasion size, income) without a word."""
    d = _doc()
    d["provinces"] = {first: d["provinces"]["g1"], "x1": d["provinces"]["x1"], second: dict(d["provinces"]["g1"])}
    d["realms"]["Gran"]["capital"] = first
    with pytest.raises(ValidationError) as err:
        world_from_dict(d)
    assert err.value.field == f"provinces.{second}"
    assert f"{second!r} and {first!r} differ only in case, accents, spaces or punctuation" in str(err.value)


def test_provinces_with_alike_but_different_names_are_kept():
    d = _doc()
    d["provinces"]["g2"] = dict(d["provinces"]["g1"])  # g1 and g2: two Provinces
    assert {"g1", "g2"} <= set(world_from_dict(d).provinces)
