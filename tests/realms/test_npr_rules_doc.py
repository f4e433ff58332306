"""Every rule an NPR or NPN trace can cite is explained in docs/npr-rules.md (hA dogfood defect 8).

Two nets: (1) the source of the controllers is read (``ast``) for every string that is a citation
(``000 ...``, ``001 ...``, ``002 ...``, ``004 ...``, ``rules-gaps.md ...``, ``assumptions: ...``),
f-strings included: a placeholder naming a module constant is filled in, any other placeholder must
be listed in EXPANSIONS below, so a new kind of citation fails until it is; (2) a broad set of
decisions is run and every ``rule`` in their traces and notes must have an entry too.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

from npr_controller.newworld.attitude import ORDER

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "npr-rules.md"
SOURCES = sorted(p for d in ("engine/realms", "engine/newworld", "npr_controller") for p in (ROOT / d).rglob("*.py"))
SOURCES.append(ROOT / "service" / "cli" / "npr.py")
CITATION = re.compile(r"^(00[0-4] \S|rules-gaps\.md \S|assumptions: \S)")
PLACEHOLDER = re.compile(r"\{([^{}]+)\}")
# f-string placeholders that are not module constants: every value they can take
EXPANSIONS: dict[str, tuple[str, ...]] = {
    "table": ("1", "2"),  # landfall.py: f"002 Landfall Table #{table}"
    "att": tuple(str(a) for a in ORDER),  # purchases.py: f"002 {att}"
    "attitude": tuple(str(a) for a in ORDER),  # guidelines.py: f"002 {attitude}"
}


def entries() -> set[str]:
    return set(re.findall(r"^### `(.+)`$", DOC.read_text(encoding="utf-8"), re.M))


def _constants(tree: ast.Module) -> dict[str, str]:
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            out.update({t.id: node.value.value for t in node.targets if isinstance(t, ast.Name)})
    return out


def _docstrings(tree: ast.Module) -> set[int]:
    kinds = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return {id(n.body[0].value) for n in ast.walk(tree) if isinstance(n, kinds) and n.body
            and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}


def _expand(template: str, constants: dict[str, str], where: str) -> set[str]:
    names = PLACEHOLDER.findall(template)
    if not names:
        return {template}
    name = names[0]
    if name in constants:
        return _expand(template.replace("{" + name + "}", constants[name], 1), constants, where)
    assert name in EXPANSIONS, f"{where}: citation f-string {template!r}: list the values of {{{name}}} in EXPANSIONS"
    return set().union(*(_expand(template.replace("{" + name + "}", v, 1), constants, where)
                         for v in EXPANSIONS[name]))


def cited_in_source() -> set[str]:
    found: set[str] = set()
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants, skip, parts = _constants(tree), _docstrings(tree), set()
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                parts.update(id(v) for v in node.values)
                text = "".join(v.value if isinstance(v, ast.Constant) else "{" + ast.unparse(v.value) + "}"
                               for v in node.values)
                rule = text.split("|", 1)[0]  # invasions.py keeps "rule|reason" pairs
                head = rule
                for name in PLACEHOLDER.findall(rule):  # module constants filled in: "{R} step 2"
                    head = head.replace("{" + name + "}", constants.get(name, "{" + name + "}"))
                if CITATION.match(head):
                    found |= _expand(rule, constants, path.name)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in parts \
                    and id(node) not in skip and CITATION.match(node.value):
                found.add(node.value.split("|", 1)[0])
    return found


def test_the_scan_finds_the_citations_of_every_controller():
    cited = cited_in_source()
    for known in ("000 §13.5 step 1.4", "000 §13.5 criterion 3 (target)", "002 Landfall Table #2",
                  "002 Status Quo", "004 §11.3 Refusing a CtA", "001 §7.4 Bankruptcy", "rules-gaps.md MC",
                  "assumptions: caretaker policy", "002 Guidelines (Expansion exception)"):
        assert known in cited, known


def test_every_citation_in_the_source_has_an_entry():
    missing = sorted(cited_in_source() - entries())
    assert not missing, f"cited by a controller but not explained in docs/npr-rules.md: {missing}"


def test_the_doc_has_no_entry_for_a_citation_nobody_makes():
    stale = sorted(entries() - cited_in_source())
    assert not stale, f"entries in docs/npr-rules.md that no controller cites: {stale}"


def _realm_decisions() -> list[dict]:
    from engine.realms import world_from_dict
    from npr_controller.realms import caretaker
    from npr_controller.realms.battle import fight, parse_deck, retreat
    from npr_controller.realms.cta import call_to_arms
    from npr_controller.realms.defence import defend
    from npr_controller.realms.invasions import invasions
    from npr_controller.realms.liberation import dnpr_expansion, released_vassals

    ex = ROOT / "examples" / "realms"
    data = json.loads((ex / "world.json").read_text())
    w = world_from_dict(data)
    out = [invasions(w, seed=s).to_dict() for s in range(6)]
    out.append(defend(w, json.loads((ex / "attacks.json").read_text()), seed=1, supply=2).to_dict())
    out.append(retreat(w, json.loads((ex / "battle.json").read_text())).to_dict())
    deck = parse_deck(json.loads((ex / "deck.json").read_text()))
    out += [fight(w, json.loads((ex / "fight.json").read_text()), seed=s, deck=d).to_dict()
            for s in range(3) for d in (None, deck)]
    out.append(call_to_arms(w, {"attacker": "Castamar", "target": "Elsmere"}).to_dict())
    out.append(released_vassals(w).to_dict())
    out += [dnpr_expansion(w, n).to_dict() for n, r in w.realms.items() if r.kind == "dnpr"]
    for pr in (n for n, r in w.realms.items() if r.is_pr):
        out += [caretaker.income_and_upkeep(w, pr).to_dict(), caretaker.phase3(w, pr).to_dict(),
                caretaker.actions(w, pr).to_dict()]
    # the caretaker answers CtAs from its Allies only (004 §11.3): add a PR Alliance for an Offensive one
    data["relations"]["alliances"].append({"pr": "Aurelia", "ally": "Castamar"})
    allied = world_from_dict(data)
    for pr in (n for n, r in allied.realms.items() if r.is_pr):
        for a in allied.alliances_of(pr):
            sender = a.ally if a.pr == pr else a.pr
            out.append(caretaker.answer_cta(allied, pr, sender, attacker="Galdor").to_dict())
            if allied.realms[sender].is_pr:
                out.append(caretaker.answer_cta(allied, pr, sender, attacker="Galdor", kind="offensive").to_dict())
    return out


def _newworld_decisions() -> list[dict]:
    from engine.newworld import parse_world
    from npr_controller.newworld import plan_nation

    data = json.loads((ROOT / "examples" / "newworld" / "world.json").read_text())
    w = parse_world(data)
    return [plan_nation(w, n, seed=s, turn=t).to_dict() for n, v in w.nations.items() if not v.player
            for s in range(8) for t in (1, 2, 6)]


def test_every_rule_in_a_broad_set_of_traces_has_an_entry():
    rules = set()
    for d in (*_realm_decisions(), *_newworld_decisions()):
        rules |= {step["rule"] for step in d["trace"]} | {n["rule"] for n in d.get("notes", [])}
    assert len(rules) > 40
    missing = sorted(rules - entries())
    assert not missing, f"traced but not explained in docs/npr-rules.md: {missing}"
