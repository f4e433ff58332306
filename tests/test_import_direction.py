"""Imports between Regent's packages point one way (the developers' brief, "Layout"):

engine <- npr_controller <- agents <- envs <- training, and service uses engine, npr_controller and
agents, never envs or training. Every import statement counts, the ones inside functions too (a lazy
import is still a dependency). ``agents`` may use ``npr_controller``: its ``caretaker`` agent is the
rulebook's inactive player, which lives there.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ALLOWED = {
    "engine": set(),
    "npr_controller": {"engine"},
    "agents": {"engine", "npr_controller"},
    "envs": {"engine", "npr_controller", "agents"},
    "training": {"engine", "npr_controller", "agents", "envs"},
    "service": {"engine", "npr_controller", "agents"},
}


def imported_packages(path: Path) -> set[tuple[str, int]]:
    """(top-level Regent package, line) for every absolute import in ``path``."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        out |= {(n.split(".")[0], node.lineno) for n in names if n.split(".")[0] in ALLOWED}
    return out


def test_the_scan_sees_imports_inside_functions(tmp_path):
    f = tmp_path / "m.py"
    f.write_text("import os\nfrom engine.protectors import game\n\n"
                 "def g():\n    from training.evaluate import takeover\n")
    assert imported_packages(f) == {("engine", 2), ("training", 5)}


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_imports_point_one_way(package):
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, f"no sources under {package}/"
    wrong = [f"{f.relative_to(ROOT)}:{line} imports {dep}"
             for f in files for dep, line in sorted(imported_packages(f))
             if dep != package and dep not in ALLOWED[package]]
    assert not wrong, "\n".join(wrong)


# The Discord bot is a client of the RPC service (issue 24): it never reads the engine or its
# neighbours directly, only the client, the splitter for chat messages, and its own modules.
DISCORD_ALLOWED = ("service.client", "service.posting", "service.discord")


def discord_imports(path: Path) -> list[tuple[str, int]]:
    """(module, line) for every Regent import in a service/discord file outside DISCORD_ALLOWED."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] if node.module != "service" else [f"service.{a.name}" for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = ["(relative import)"]
        else:
            continue
        out += [(n, node.lineno) for n in names
                if (n.split(".")[0] in ALLOWED or n == "(relative import)")
                and not any(n == a or n.startswith(a + ".") for a in DISCORD_ALLOWED)]
    return out


def test_the_discord_scan_sees_engine_imports(tmp_path):
    f = tmp_path / "m.py"
    f.write_text("from service.client import AsyncClient\nfrom service import hosting\n\n"
                 "def g():\n    import engine.protectors.game\n")
    assert discord_imports(f) == [("service.hosting", 2), ("engine.protectors.game", 5)]


def test_the_discord_bot_only_talks_to_the_service():
    files = [*sorted((ROOT / "service" / "discord").rglob("*.py")), ROOT / "service" / "cli" / "discord.py"]
    wrong = [f"{f.relative_to(ROOT)}:{line} imports {name}" for f in files for name, line in discord_imports(f)]
    assert not wrong, "\n".join(wrong)
