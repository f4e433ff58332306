""""Alphabetical" in the texts is letter order, not code-point order: case and accents do not count.

000 §13.5 ("Resolve NPRs in alphabetical order", step 2 "pick Provinces alphabetically"), 000 §13
Liberated NPR Provinces ("alphabetically determine a Capital"), rules-gaps.md DNPR expansion ("ties
alphabetically") and the caretaker's "alphabetically first" Province (assumptions.md) all use
``engine.realms.model.alphabetical``. Python's plain ``sorted`` put "Maine" before "le Perche" and
"Faro" before "Évora" (upper case, then lower case, then accented letters).
"""

from hypothesis import given
from hypothesis import strategies as st

from engine.realms.model import alphabetical
from npr_controller.realms.caretaker import phase3
from npr_controller.realms.invasions import invasions
from npr_controller.realms.liberation import dnpr_expansion, liberate
from tests.realms.helpers import prov, town, world


def test_npr_order_ignores_case():
    """000 §13.5: "Resolve NPRs in alphabetical order": al-Andalus before Castile."""
    realms = {"Castile": "npr", "al-Andalus": "npr", "Aragon": "pr"}
    w = world({"A": [], "C": []}, {"a1": prov("A", "al-Andalus"), "c1": prov("C", "Castile")}, realms)
    d = invasions(w, seed=0).to_dict()
    assert [e["npr"] for e in d["invasions"]] == ["al-Andalus", "Castile"]


def test_unrest_provinces_picked_alphabetically_ignoring_case():
    """000 §13.5 step 2: Unrest on 2 t/v, "pick Provinces alphabetically": Anjou, then le Perche."""
    realms = {"Gran": "npr", "Cast": "pr"}
    provs = {"g1": prov("G", "Gran"), "Maine": town("X", "Cast"), "le Perche": town("X", "Cast"),
             "Anjou": town("X", "Cast")}
    w = world({"G": ["X"], "X": []}, provs, realms, wars=[["Cast", "Gran"]])
    e = invasions(w, seed=0).to_dict()["invasions"][0]
    assert e["unrest"] == ["Anjou", "le Perche"]


def test_liberated_capital_alphabetical_ignoring_accents():
    """000 §13 Liberated NPR Provinces: "alphabetically determine a Capital": Évora before Faro."""
    realms = {"Gran": {"kind": "npr", "capital": "g1"}, "Cast": "pr"}
    provs = {"g1": town("G", "Cast", flag="Gran"), "Faro": town("G", "Cast", flag="Gran"),
             "Évora": town("G", "Cast", flag="Gran")}
    d = liberate(world({"G": []}, provs, realms), ["Faro", "Évora"]).to_dict()["liberated"][0]
    assert (d["capital"], d["capital_rule"]) == ("Évora", "alphabetical, Large first")


def test_dnpr_expansion_tie_alphabetical_ignoring_case():
    """rules-gaps.md DNPR expansion: among equally poor NPRs, ties alphabetically: de Vere before Kent."""
    realms = {"Dn": "dnpr", "Kent": "npr", "de Vere": "npr"}
    provs = {"d1": prov("D", "Dn", token="dnpr", dnpr="Dn"), "k1": prov("D", "Kent"), "v1": prov("D", "de Vere")}
    d = dnpr_expansion(world({"D": []}, provs, realms), "Dn").to_dict()
    assert (d["province"], d["from"]) == ("v1", "de Vere")


def test_caretaker_unrest_alphabetically_first_ignoring_case():
    """assumptions.md caretaker: Unrest is added to the alphabetically first eligible Province."""
    provs = {"Maine": town("A", "Cast"), "le Perche": town("A", "Cast")}
    w = world({"A": []}, provs, {"Cast": {"kind": "pr", "stability": -2, "ruler": {"name": "R"}}})
    assert phase3(w, "Cast").to_dict()["unrest"] == {"add_unrest": "le Perche"}


@given(st.lists(st.text(min_size=1, max_size=6), min_size=2, max_size=6, unique=True))
def test_alphabetical_is_a_total_order(names):
    """Sorting never depends on the order the names came in (a tie on letters falls back to the exact
    name), so a decision never depends on how the GM listed the world."""
    assert sorted(reversed(names), key=alphabetical) == sorted(names, key=alphabetical)


@given(st.text(alphabet=st.characters(min_codepoint=ord("a"), max_codepoint=ord("z")), min_size=1, max_size=8),
       st.sampled_from(["", "\u0301", "\u0308"]))
def test_case_and_accents_do_not_count(word, accent):
    """A word sorts with its letters whatever its case and accents: "ANJOU", "anjou" and "Ánjou" alike."""
    accented = word[0] + accent + word[1:]
    assert alphabetical(word.upper())[0] == alphabetical(word)[0] == alphabetical(accented.title())[0]
