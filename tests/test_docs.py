"""The user-facing docs stand on their own (issue 17 item 8): README.md, docs/*.md and the examples'
markdown never send a reader outside the repository (``../shared`` is the developers' folder, not
shipped), every relative link in them points to a file that exists, and docs/protocol.md agrees with
the code it describes (its error codes, its example session)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
USER_DOCS = sorted({ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "examples").rglob("*.md")})
OUTSIDE = ("../shared", "shared/design", "shared/rules")

FENCED = re.compile(r"^(`{3,}|~{3,})[^\n]*\n.*?^\1[ \t]*$", re.M | re.S)
INLINE_CODE = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)")
# [text](target) and ![alt](target), with an optional "title"; text may hold one level of [...].
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^()\s<>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def relative_links(text: str) -> list[str]:
    """The relative targets of the markdown links in ``text`` (code blocks and code spans are not links)."""
    prose = INLINE_CODE.sub("", FENCED.sub("", text))
    return [t for t in LINK.findall(prose) if not SCHEME.match(t) and not t.startswith("#")]


def test_the_scan_sees_the_docs_and_their_links():
    names = {_name(p) for p in USER_DOCS}
    assert {"README.md", "docs/protocol.md", "docs/rules-sources.md", "examples/realms/README.md"} <= names
    assert len(relative_links((ROOT / "docs" / "protocol.md").read_text(encoding="utf-8"))) >= 6


def test_link_extraction_skips_code_and_urls():
    text = (
        'See [a](a.md), ![pic](images/x.png) and [b](b.md#part "title"); not [web](https://x.org/y.md),\n'
        "[here](#top) or `[code](c.md)`.\n```\n[block](d.md)\n```\n"
    )
    assert relative_links(text) == ["a.md", "images/x.png", "b.md#part"]


@pytest.mark.parametrize("doc", USER_DOCS, ids=_name)
def test_no_reference_outside_the_repository(doc: Path):
    for no, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
        for bad in OUTSIDE:
            assert bad not in line, (
                f"{_name(doc)}:{no} refers to {bad!r}, which users do not have; "
                f"copy the facts into docs/ and link that: {line.strip()[:120]}"
            )


@pytest.mark.parametrize("doc", USER_DOCS, ids=_name)
def test_relative_links_point_to_existing_files(doc: Path):
    missing = []
    for target in relative_links(doc.read_text(encoding="utf-8")):
        path = target.split("#", 1)[0]
        if path and not (doc.parent / path).exists():
            missing.append(target)
    assert not missing, f"{_name(doc)} links to files that do not exist: {missing}"


def heading_anchors(text: str) -> list[str]:
    """The ``#anchors`` GitHub gives the headings of a markdown text: lower case, punctuation but ``-`` and ``_``
    dropped, spaces as ``-``; a repeated one gets ``-1``, ``-2``..."""
    seen: dict[str, int] = {}
    out = []
    for heading in re.findall(r"^#{1,6}[ \t]+(.*?)[ \t#]*$", FENCED.sub("", text), flags=re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        seen[slug] = seen.get(slug, -1) + 1
        out.append(slug if seen[slug] == 0 else f"{slug}-{seen[slug]}")
    return out


def anchor_links(doc: Path) -> list[tuple[Path, str, str]]:
    """``(target file, anchor, link)`` for every link with an ``#anchor`` into a markdown file (itself or another)."""
    prose = INLINE_CODE.sub("", FENCED.sub("", doc.read_text(encoding="utf-8")))
    out = []
    for target in LINK.findall(prose):
        path, _, anchor = target.partition("#")
        if anchor and not SCHEME.match(target) and (not path or path.endswith(".md")):
            out.append((doc.parent / path if path else doc, anchor, target))
    return out


def test_heading_anchors_are_githubs(tmp_path):
    text = "# Saying `all`\n## Seats, AI and deadlines\n```\n# not a heading\n```\n## Notes\n## Notes\n"
    assert heading_anchors(text) == ["saying-all", "seats-ai-and-deadlines", "notes", "notes-1"]
    doc = tmp_path / "a.md"
    doc.write_text("[x](#notes) [y](b.md#top) [z](https://x.org/c.md#d) [w](img.png#e) `[v](#f)`\n")
    assert [(t.name, a) for t, a, _ in anchor_links(doc)] == [("a.md", "notes"), ("b.md", "top")]


@pytest.mark.parametrize("doc", USER_DOCS, ids=_name)
def test_anchor_links_name_a_heading(doc: Path):
    broken = [
        link
        for target, anchor, link in anchor_links(doc)
        if target.is_file() and anchor not in heading_anchors(target.read_text(encoding="utf-8"))
    ]
    assert not broken, f"{_name(doc)} links to headings that do not exist: {broken}"


def test_protocol_lists_exactly_the_error_codes_the_service_sends():
    from service.errors import CODES

    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    table = text.split("| code | when |", 1)[1].split("\n\n", 1)[0]
    documented = re.findall(r"^\| `([a-z_]+)` \|", table, re.M)
    assert sorted(documented) == sorted(CODES)
    assert len(documented) == len(set(documented))


def test_protocol_example_session_runs_against_a_real_server(tmp_path):
    """The example in docs/protocol.md, as written (only the port differs), against ``regent serve``."""
    from tests.service.helpers import ServerProcess

    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    code = re.search(r"^## An example session\n.*?^```python\n(.*?)^```", text, re.S | re.M).group(1)
    assert '("127.0.0.1", 7750)' in code
    server = ServerProcess(tmp_path, tcp=True).start()
    try:
        scope: dict = {}
        exec(compile(code.replace("7750", str(server.port)), "docs/protocol.md", "exec"), scope)
        scope["sock"].close()
        fields = documented_error_fields(server)
    finally:
        server.stop()
    errors = text.split("## Errors", 1)[1].split("| code | when |", 1)[0]
    for field in fields:
        assert f"`{field}`" in errors, f"protocol.md's Errors should name details.field {field!r} as the server does"
    assert scope["accepted"]["lines"] == ["Bid 3"]
    assert scope["accepted"]["ignored"] == [{"line_no": 1, "text": "Hi GM!", "why": "a greeting"}]
    assert set(scope["game"]["seat_tokens"]) == {"Player#1", "Player#2", "Player#3"}


def documented_error_fields(server) -> list[str]:
    """``details.field`` of the ``game.create`` errors protocol.md gives as examples, as the server sends them:
    a shape error and a rules error in a well-shaped setup alike name the path from the params (``setup.``)."""
    from service.client import ServiceError

    setups = [
        {"board": "ring-3", "players": [{}, {}, {"name": 5}]},
        {"board": "ring-3", "options": {"factions": True}, "players": [{}, {}, {"faction": "Bogus"}]},
        {"board": "ring-3", "position": {"provinces": {"P3": {"level": 9}}}},
    ]
    fields = []
    with server.client() as c:
        for setup in setups:
            with pytest.raises(ServiceError) as err:
                c.call("game.create", setup=setup)
            fields.append(err.value.details["field"])
    return fields


def test_dm_syntax_canonical_form_example_is_what_normalise_dm_gives():
    """docs/dm-syntax.md, "Canonical form": the DM shown is stored as the text below it, by the call it names."""
    import ast

    from engine.protectors.dm_read import normalise_dm

    text = (ROOT / "docs" / "dm-syntax.md").read_text(encoding="utf-8").split("## Canonical form", 1)[1]
    sent, stored = re.findall(r"^```\n(.*?)^```", text, flags=re.S | re.M)[:2]
    call = re.search(r"`engine\.protectors\.dm_read\.normalise_dm\(text, players=(\{.*?\})\)`", text)
    assert call, "dm-syntax.md's canonical form no longer names the normalise_dm call that gives it"
    assert normalise_dm(sent, players=ast.literal_eval(call.group(1))) == stored.strip("\n")


# A name in a code span that a reader may look up: a dotted Python name from one of the packages
# (`engine.protectors.position.export_position`), or a repository path (`service/cli/failure.py`,
# `agents/spaces/{encoding,layout}`, `service/ai.decision_seed`: a module's file and a name in it).
CODE_SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
DOTTED = re.compile(r"(?:engine|service|agents|envs|training|npr_controller)(?:\.\w+)+")
REPO_PATH = re.compile(
    r"(?:^|(?<=[\s(]))((?:engine|service|agents|envs|training|npr_controller|benchmarks|tools|tests"
    r"|examples|docs)/[\w./{},*<>-]*)"
)
PLACEHOLDER = re.compile(r"[<>]|_N\b")


def python_name_exists(name: str) -> bool:
    import importlib

    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError:
            continue
        return all((obj := getattr(obj, attr, None)) is not None for attr in parts[i:])
    return False


def repo_path_exists(doc: Path, path: str) -> bool:
    braces = re.search(r"\{([^}]*)\}", path)
    if braces:
        return all(
            repo_path_exists(doc, path[: braces.start()] + alt + path[braces.end() :])
            for alt in braces.group(1).split(",")
        )
    path = path.rstrip(".,")
    for base in (ROOT, doc.parent):
        if any(base.glob(path)) or any(base.glob(path + ".py")) or any(base.glob(path + "*")):
            return True
    module, _, attr = path.rpartition(".")
    source = ROOT / (module + ".py")
    return bool(attr) and source.is_file() and re.search(rf"\b{attr}\b", source.read_text(encoding="utf-8")) is not None


def code_references(text: str) -> tuple[list[str], list[str]]:
    names, paths = [], []
    for span in CODE_SPAN.findall(text):
        span = span.strip()
        if DOTTED.fullmatch(span):
            names.append(span)
        paths += [p for p in REPO_PATH.findall(span) if not PLACEHOLDER.search(p)]
    return names, paths


def test_code_reference_extraction():
    text = (
        "`engine.protectors.game.Game` in `agents/spaces/{encoding,layout}`, `service/ai.decision_seed`,\n"
        "not `RUN/checkpoints/step_N/` nor `docs/x/options-<name>.png` nor `game.view`."
    )
    names, paths = code_references(text)
    assert names == ["engine.protectors.game.Game"]
    assert paths == ["agents/spaces/{encoding,layout}", "service/ai.decision_seed"]
    assert all(repo_path_exists(ROOT / "README.md", p) for p in paths)
    assert not repo_path_exists(ROOT / "README.md", "envs/{encoding,layout}")
    assert not python_name_exists("engine.protectors.position_import.cards_left_out")


@pytest.mark.parametrize("doc", USER_DOCS, ids=_name)
def test_code_references_name_what_exists(doc: Path):
    names, paths = code_references(doc.read_text(encoding="utf-8"))
    missing = [n for n in names if not python_name_exists(n)] + [p for p in paths if not repo_path_exists(doc, p)]
    assert not missing, f"{_name(doc)} names what the repository does not have: {missing}"


def test_protocol_setup_examples_create_a_game():
    """docs/protocol.md's `setup` map and its custom board, as written, are games ``game.create`` makes
    (the setup once gave one player for a 7-Province Normal board: 'the game is for 2 to 16 players')."""
    import json

    from service.hosting import HostedGame

    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8").split("## `setup`: the map", 1)[1]
    setup, board = (json.loads(b) for b in re.findall(r"^```json\n(.*?)^```", text, flags=re.S | re.M)[:2])
    for example in (setup, {"board": board}):
        _, gm_token, seat_tokens = HostedGame.create("g-docs", example, None)
        assert gm_token and len(seat_tokens) == len(example.get("players", board.get("provinces")))


def test_the_seat_colours_the_docs_list_are_the_games():
    """protocol.md and dm-syntax.md list every seat's default colour in seat order; a DM may name a seat by it."""
    from engine.protectors.game import Game

    colours = list(Game({"board": "ring-16"}).colours().values())
    protocol = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    listed = re.search(r"in seat\s+order ((?:`[a-z ]+`,\s+)+`[a-z ]+`)", protocol)
    assert listed, "protocol.md no longer lists the seat colours in seat order"
    assert re.findall(r"`([a-z ]+)`", listed.group(1)) == colours
    dm_syntax = " ".join((ROOT / "docs" / "dm-syntax.md").read_text(encoding="utf-8").split())
    listing = "1 " + dm_syntax.split("(seat 1 ", 1)[1].split(")", 1)[0]  # (seat 1 `indigo`, 2 `sky blue`, ...)
    numbered = re.findall(r"(\d+) `([a-z ]+)`", listing)
    assert [(int(n), c) for n, c in numbered] == list(enumerate(colours, start=1))


def regent_commands(text: str) -> list[str]:
    """Every ``regent ...`` command in a doc: its code blocks' lines (continued lines joined) and its code spans."""
    out = []
    for block in re.findall(r"^(`{3,})[^\n]*\n(.*?)^\1", text, flags=re.S | re.M):
        for line in block[1].replace("\\\n", " ").splitlines():
            out += [c.strip() for c in re.split(r"\s+#\s|&&|\|", line) if c.strip().startswith("regent ")]
    out += [s for s in CODE_SPAN.findall(FENCED.sub("", text)) if s.startswith("regent ")]
    return out


def unknown_flags(command: str) -> list[str]:
    """The ``--flags`` of a ``regent`` command that its subcommand does not take (placeholders and ``[...]`` aside)."""
    import argparse

    from service.cli import build_parser

    parser, words = build_parser(), command.split()[1:]
    while subs := [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]:
        if not words or words[0] not in subs[0].choices:
            return []  # `regent npr ... --json`, `regent eval`: no one command's flags
        parser = subs[0].choices[words.pop(0)]
    known = {s for a in parser._actions for s in a.option_strings}
    flags = [re.match(r"--[\w-]+", w.strip("[]()`,")) for w in words]
    return [f.group() for f in flags if f and f.group() not in known]


def test_flag_check_finds_a_flag_the_command_lacks():
    text = "Run `regent new g.bin --board ring-5`, then\n```sh\nregent render g.bin \\\n    --colourful -o x.png\n```\n"
    assert regent_commands(text) == ["regent render g.bin      --colourful -o x.png", "regent new g.bin --board ring-5"]
    assert [unknown_flags(c) for c in regent_commands(text)] == [["--colourful"], []]
    assert unknown_flags("regent eval takeover --agent x [--turn N] --positions 3") == []
    assert unknown_flags("regent eval takeover --players 5 --field x") == ["--field"]
    assert unknown_flags("regent npr ... --json") == unknown_flags("regent eval --help") == []


@pytest.mark.parametrize("doc", USER_DOCS, ids=_name)
def test_every_regent_flag_the_docs_name_exists(doc: Path):
    bad = {c: unknown_flags(c) for c in regent_commands(doc.read_text(encoding="utf-8"))}
    assert not {c: f for c, f in bad.items() if f}, f"{_name(doc)} names flags the regent CLI does not take"
