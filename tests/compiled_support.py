"""Shared by the compiled-build tests (tests/protectors/test_compiled.py, tests/envs/test_compiled_envs.py):
which modules this process loaded from C extensions, and running code in a child process that imports
the given packages from their ``.py`` sources only."""

from __future__ import annotations

import importlib
import importlib.machinery
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def loaded_compiled(package: str, names: Iterable[str]) -> list[str]:
    """The modules among ``package.<name>`` that this process loaded from a C extension."""
    out = []
    for name in names:
        mod = importlib.import_module(f"{package}.{name}")
        if str(getattr(mod, "__file__", "")).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
            out.append(name)
    return out


def run_from_source(source_dirs: Iterable[str | Path], code: str) -> str:
    """Run ``code`` in a child Python whose imports from ``source_dirs`` come from ``.py`` files only
    (a path hook installed before anything imports them); returns its stdout."""
    dirs = sorted(str(Path(d).resolve()) for d in source_dirs)
    hook = (
        "import importlib.machinery as m, os, sys\n"
        "def _source_only(path):\n"
        f"    if os.path.realpath(path) not in {dirs!r}:\n"
        "        raise ImportError(path)\n"
        "    return m.FileFinder(path, (m.SourceFileLoader, m.SOURCE_SUFFIXES))\n"
        "sys.path_hooks.insert(0, _source_only)\n"
        "sys.path_importer_cache.clear()\n"
    )
    out = subprocess.run([sys.executable, "-c", hook + code], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()
