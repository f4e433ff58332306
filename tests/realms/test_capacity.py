"""MC and NC exactly per rules-gaps.md and file 000 §13.4, each with its per-Province breakdown."""

from engine.realms import military_capacity, naval_capacity
from tests.realms.helpers import prov, town, world

REALMS = {"Gran": "npr", "Cast": "pr", "Arag": "pr"}


def test_mc_sums_tax_value_in_area_and_adjacent_areas():
    """rules-gaps.md MC: Small 1, Large 2, in that Area or an adjacent one; farther Areas do not count."""
    w = world(
        {"A": ["B"], "B": ["C"]},
        {"a1": prov("A", "Gran", "large"), "b1": prov("B", "Gran"), "c1": prov("C", "Gran")},
        REALMS,
    )
    mc = military_capacity(w, "Gran", "A")
    assert mc.value == 3
    assert {c.province: c.value for c in mc.contributions} == {"a1": 2, "b1": 1}


def test_vassals_add_mc_but_not_nc():
    """004 §11.4: Vassal Provinces contribute to their Overlord's MC, but not to NC."""
    w = world(
        {"A": []},
        {"a1": prov("A", "Gran", port="S"), "v1": prov("A", "Vas", "large", port="S")},
        {**REALMS, "Vas": {"kind": "vassal", "overlord": "Gran"}},
        seas={"S": ["A"]},
    )
    assert military_capacity(w, "Gran", "A").value == 3
    nc = naval_capacity(w, "Gran", "S")
    assert nc.value == 1
    assert [e.province for e in nc.excluded] == ["v1"]


def test_occupied_province_never_counts():
    """rules-gaps.md MC blocking: an Occupied Province never counts, even in its own Area."""
    w = world(
        {"A": ["B"]},
        {"a1": prov("A", "Gran", occupied_by="Cast"), "b1": prov("B", "Gran")},
        REALMS,
        wars=[["Cast", "Gran"]],
    )
    mc = military_capacity(w, "Gran", "A")
    assert mc.value == 1
    assert mc.excluded[0].province == "a1"


def test_hostile_units_keep_a_province_to_its_own_area():
    """rules-gaps.md MC blocking: a Province in an Area with Hostile Units counts only for its own Area."""
    w = world(
        {"A": ["B"]},
        {"a1": prov("A", "Gran"), "b1": prov("B", "Gran", "large")},
        REALMS,
        wars=[["Cast", "Gran"]],
        units=[("Cast", "B", 2)],
    )
    assert military_capacity(w, "Gran", "A").value == 1
    assert military_capacity(w, "Gran", "B").value == 3


def test_port_across_a_non_hostile_sea_counts_but_not_across_a_hostile_one():
    """rules-gaps.md MC: Ports facing the same non-Hostile Sea Zone count as adjacent."""
    layout = (
        {"A": [], "B": []},
        {"a1": prov("A", "Gran"), "b1": prov("B", "Gran", "large", port="S")},
        REALMS,
    )
    calm = world(*layout, seas={"S": ["A", "B"]}, wars=[["Cast", "Gran"]])
    assert military_capacity(calm, "Gran", "A").value == 3
    blocked = world(*layout, seas={"S": ["A", "B"]}, wars=[["Cast", "Gran"]], ships=[("Cast", "S", 1)])
    mc = military_capacity(blocked, "Gran", "A")
    assert mc.value == 1
    assert "Hostile" in mc.excluded[0].reason
    # a non-port Province across the sea never counts
    noport = world(
        {"A": [], "B": []}, {"a1": prov("A", "Gran"), "b1": prov("B", "Gran")}, REALMS, seas={"S": ["A", "B"]}
    )
    assert military_capacity(noport, "Gran", "A").value == 1


def test_extra_manpower_tokens_add_one_each():
    """000 §13.4 Extra Manpower: +1 MC per token in the Area in question and adjacent Areas."""
    w = world(
        {"A": ["B"]},
        {"a1": prov("A", "Gran", extra_manpower=1), "b1": prov("B", "Gran", extra_manpower=2)},
        REALMS,
    )
    assert military_capacity(w, "Gran", "A").value == 1 + 1 + 1 + 2


def test_distant_province_doubles_unless_it_has_an_h():
    """000 §13.4 Distant Continents: Small gives 2, Large 4, except with an H (the tricky Distant H case)."""
    w = world(
        {"D1": ["D2"], "D2": []},
        {"d1": prov("D1", "Gran", "large"), "d2": prov("D2", "Gran", "large", h=True)},
        REALMS,
        distant=("D1", "D2"),
    )
    mc = military_capacity(w, "Gran", "D1")
    assert {c.province: c.value for c in mc.contributions} == {"d1": 4, "d2": 2}
    assert mc.value == 6


def test_distant_example_small_gives_two_large_four_for_mc_and_nc():
    """000 §13.4 NPRs on Distant Continents, the text's own example: "When calculating the MC or NC
    contribution of a Distant Province ... each Small Province contributes 2 Units, while each Large
    Province contributes 4 Units" (for NC as for MC)."""
    w = world(
        {"D1": ["D2"], "D2": []},
        {"d1": prov("D1", "Gran", port="S"), "d2": prov("D2", "Gran", "large", port="S")},
        REALMS,
        distant=("D1", "D2"),
        seas={"S": ["D1", "D2"]},
    )
    mc = military_capacity(w, "Gran", "D1")
    assert {c.province: c.value for c in mc.contributions} == {"d1": 2, "d2": 4}
    nc = naval_capacity(w, "Gran", "S")
    assert {c.province: c.value for c in nc.contributions} == {"d1": 2, "d2": 4}
    assert (mc.value, nc.value) == (6, 6)


def test_inactive_port_gives_no_nc_until_a_token_is_there():
    """000 §13.4: Inactive Ports provide no NC; rules-gaps.md NC: a Large Port counts 2."""
    w = world(
        {"A": []},
        {"a1": prov("A", "Gran", "large", port="S"), "a2": prov("A", "Gran", port="S", port_active=False)},
        REALMS,
        seas={"S": ["A"]},
    )
    nc = naval_capacity(w, "Gran", "S")
    assert nc.value == 2
    assert nc.excluded[0].reason == "Inactive Port"


def test_active_ally_defends_with_half_mc_rounded_up():
    """000 §13.4 / 004 §11.3: an Active Ally defends with half its MC, rounded up (rules-gaps.md)."""
    w = world(
        {"A": ["B"]},
        {
            "a1": prov("A", "Gran", "large", port="S"),
            "b1": prov("B", "Gran", "large"),
            "b2": prov("B", "Gran"),
            "c": town("B", "Arag"),
        },
        REALMS,
        alliances=[{"pr": "Arag", "npr": "Gran", "active": True}],
        seas={"S": ["A"]},
    )
    mc = military_capacity(w, "Gran", "A")
    assert (mc.raw, mc.value, mc.halved) == (5, 3, True)
    # only MC is halved (RealmRules.active_ally_halves_nc is False by default)
    assert naval_capacity(w, "Gran", "S").value == 2
    assert military_capacity(w, "Gran", "A", halve_active_ally=False).value == 5


def test_breakdown_serialises_to_plain_data():
    w = world({"A": []}, {"a1": prov("A", "Gran")}, REALMS)
    d = military_capacity(w, "Gran", "A").to_dict()
    assert d["contributions"] == [
        {
            "province": "a1",
            "realm": "Gran",
            "via": "own Area",
            "tax_value": 1,
            "distant_doubled": False,
            "extra_manpower": 0,
            "value": 1,
        }
    ]
