"""Every notes file an NPR or NPN trace cites is shipped in docs/ (issue 17 item 8): each
``rules-gaps.md <section>`` a controller can write has that section in docs/rules-gaps.md, each
``assumptions: <topic>`` is in docs/assumptions.md, and every rule-text code is explained (docs/rules-sources.md)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SOURCES = [p for d in ("engine/realms", "engine/newworld", "npr_controller") for p in (ROOT / d).rglob("*.py")]
SOURCES.append(ROOT / "service" / "cli" / "npr.py")  # `regent npr capacity` writes its own trace steps


def _cited(pattern: str) -> set[str]:
    found: set[str] = set()
    for path in SOURCES:
        found.update(m.group(1).strip() for m in re.finditer(pattern, path.read_text(encoding="utf-8")))
    return found


def test_rules_gaps_sections_exist():
    cited = _cited(r'"rules-gaps\.md ([^"]+)"')
    assert {"MC", "NC", "Once per turn", "Battles", "Turn structure", "DNPR expansion"} <= cited
    headings = set(re.findall(r"^## (.+)$", (DOCS / "rules-gaps.md").read_text(encoding="utf-8"), re.M))
    assert cited <= headings, f"cited but not in docs/rules-gaps.md: {sorted(cited - headings)}"


def test_assumption_topics_exist():
    cited = _cited(r'"assumptions: ([^"]+)"')
    assert cited, "the caretaker cites its policy"
    text = (DOCS / "assumptions.md").read_text(encoding="utf-8").lower()
    for topic in cited:
        assert topic.split()[0].lower() in text, topic


def test_rule_text_codes_are_explained():
    codes = _cited(r'"(00[0-4]) ')
    assert codes, "the controllers cite the rule texts by number"
    table = (DOCS / "rules-sources.md").read_text(encoding="utf-8")
    for code in codes:
        assert f"| `{code}` |" in table, code


def test_docs_links_resolve():
    for name in ("rules-gaps.md", "world-formats.md", "rules-sources.md"):
        text = (DOCS / name).read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)#:]+\.md)\)", text):
            assert (DOCS / target).exists(), f"{name} links to missing {target}"


def test_world_formats_examples_load():
    """docs/world-formats.md's two example worlds are valid as written."""
    import json

    from engine.newworld import parse_world
    from engine.realms import world_from_dict

    text = (DOCS / "world-formats.md").read_text(encoding="utf-8")
    realm_part, newworld_part = text.split("## New World world", 1)
    blocks = [re.search(r"```json\n(.*?)```", part, re.S).group(1) for part in (realm_part, newworld_part)]
    assert world_from_dict(json.loads(blocks[0])).realms["Granada"].kind == "npr"
    assert parse_world(json.loads(blocks[1])).off_map_landfalls
