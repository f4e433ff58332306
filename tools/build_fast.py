"""Optional accelerated build: compile the Protectors engine (engine/protectors) and the observation
encoder and action planners the envs step through (agents/spaces/) with mypyc.

The code stays pure Python; this only adds C extension modules (``engine/protectors/*.so``,
``agents/spaces/*.so``) next to the sources, which Python then imports instead of the ``.py`` files. Same
results, bit for bit (tests/protectors/test_compiled.py plays games both ways; the envs' golden
traces and tests/envs/test_compiled_envs.py hold both ways); a turn takes ~2.7x less time,
a seat env step ~2.3x less than pure Python (~1.5x with the engine alone,
``--engine-only``; docs/benchmarks.md).

    python tools/build_fast.py                # build both (needs mypy: pip install mypy; a C compiler)
    python tools/build_fast.py --engine-only  # only engine/protectors (agents/spaces runs as Python)
    python tools/build_fast.py --clean        # remove the compiled modules: back to pure Python
    python tools/build_fast.py --status       # which modules are compiled now (exit 1 if stale)
    python tools/build_fast.py --typecheck    # mypy and mypyc's C generation, no C compiler (seconds)

Rebuild after changing any compiled module: a stale ``.so`` keeps running the old code (importing
``engine.protectors`` or ``agents.spaces`` warns about it). ``regent`` and the tests use whatever is there;
``--status`` says which.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD_DIR = ROOT / "build" / "mypyc"
SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


@dataclass(frozen=True)
class Package:
    """The modules of one package that the build compiles."""

    key: str  # the command line's name for it
    path: Path
    skip: frozenset[str] = frozenset()  # every module of the package except these ...
    only: tuple[str, ...] = ()  # ... or just these

    def modules(self) -> list[Path]:
        if self.only:
            return [self.path / f"{m}.py" for m in self.only]
        return sorted(p for p in self.path.glob("*.py") if p.stem not in self.skip)

    def compiled(self) -> list[Path]:
        return sorted(p for p in self.path.iterdir() if p.name.endswith(SUFFIXES))

    def label(self) -> str:
        return ".".join(self.path.relative_to(ROOT).parts)


PACKAGES = (
    # Every engine/protectors module except __init__ (the stale check). views is compiled too (since session 31):
    # every decision of the heuristic's play-outs builds its seat's view (``Game.view``).
    Package("engine", ROOT / "engine" / "protectors", skip=frozenset({"__init__"})),
    # The envs' per-step code: the encoder and the planners (agents/spaces; envs/ itself stays Python:
    # seat_env / parallel_env subclass gymnasium / pettingzoo classes, which compiled classes cannot).
    Package("spaces", ROOT / "agents" / "spaces", only=("layout", "planner_base", "planner_orders",
                                                            "planner_phases", "planner", "encoding")),
)
# One mypyc group for everything compiled (its shared library: engine/protectors/_compiled__mypyc*.so):
# the encoder's and planners' reads of engine objects and calls into the engine are then native, not through Python
# (a seat env step ~5% faster than with them in a group of their own).
GROUP = "engine.protectors._compiled"
# mypy's flags for the build: imported modules outside it (envs, agents/__init__ ...) are read for their types
# only, so their mypy errors are not the build's
MYPY_FLAGS = ("--ignore-missing-imports", "--follow-imports=silent")


def modules() -> list[Path]:
    """Every module the full build compiles."""
    return [p for g in PACKAGES for p in g.modules()]


def compiled() -> list[Path]:
    """Every compiled extension present (all packages)."""
    return [p for g in PACKAGES for p in g.compiled()]


def clean(build_dir: bool = True) -> None:
    for so in compiled():
        so.unlink()
    if build_dir:
        shutil.rmtree(BUILD_DIR, ignore_errors=True)


def build(packages: tuple[Package, ...] = PACKAGES) -> int:
    try:
        import mypyc  # noqa: F401
    except ImportError:
        sys.stderr.write("mypyc is missing: pip install mypy (it ships mypyc)\n")
        return 2
    clean()
    files = [str(p.relative_to(ROOT)) for g in packages for p in g.modules()]
    # setup() in a child process (tools/mypyc_setup.py): setuptools wants to own sys.argv and its output goes to a log
    BUILD_DIR.mkdir(parents=True, exist_ok=True)
    spec = BUILD_DIR / "spec.json"
    spec.write_text(json.dumps({"files": files, "flags": list(MYPY_FLAGS), "group": GROUP,
                                "target_dir": str(BUILD_DIR / "c"), "build_temp": str(BUILD_DIR / "temp")}))
    log = BUILD_DIR / "build.log"
    print(f"compiling {len(files)} modules with mypyc (about a minute; log: {log.relative_to(ROOT)})")
    with open(log, "w") as out:
        rc = subprocess.call([sys.executable, str(ROOT / "tools" / "mypyc_setup.py"), str(spec)], cwd=ROOT,
                             stdout=out, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    if rc != 0:
        clean(build_dir=False)
        sys.stderr.write(log.read_text()[-4000:] + f"\nmypyc build failed (exit {rc}); nothing installed\n")
        return rc
    status()
    return 0


def typecheck(files: list[Path] | None = None) -> int:
    """What the build does short of compiling C: mypy's check and mypyc's translation to C of the modules the build
    compiles, with its flags, in a child process. A type error (a loop variable reused with another type) or a
    construct mypyc cannot translate (``x in (*a, *b)``) fails in seconds, without a C compiler; the output is
    shown only when it fails."""
    try:
        import mypyc  # noqa: F401
    except ImportError:
        sys.stderr.write("mypyc is missing: pip install mypy (it ships mypyc)\n")
        return 2
    paths = [str(p) for p in (files if files is not None else modules())]
    group = GROUP if files is None else None
    with tempfile.TemporaryDirectory(prefix="regent-typecheck-") as target:
        script = ("from mypyc.build import mypycify\n"
                  f"mypycify([*{MYPY_FLAGS!r}, *{paths!r}], opt_level='0', multi_file=True, group_name={group!r}, "
                  f"target_dir={target!r})\n")
        run = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    if run.returncode != 0:
        sys.stdout.write(run.stdout)
        sys.stderr.write(run.stderr[-4000:]
                         + f"\ntypecheck failed (exit {run.returncode}): the mypyc build would too\n")
        return run.returncode
    print(f"typecheck: mypy and mypyc take the {len(paths)} modules the build compiles")
    return 0


def stale() -> list[str]:
    """Compiled modules whose source changed after the build (they would run the old code)."""
    with warnings.catch_warnings():  # the import itself warns about exactly what this returns
        warnings.simplefilter("ignore")
        sys.path.insert(0, str(ROOT))
        try:
            from engine.protectors import stale_compiled_modules
        finally:
            sys.path.remove(str(ROOT))
    return [f"{g.label()}.{m}" for g in PACKAGES for m in stale_compiled_modules(str(g.path))]


def status() -> int:
    for g in PACKAGES:
        names = {p.name.split(".")[0] for p in g.compiled()}
        done = [p.stem for p in g.modules() if p.stem in names]
        listed = f" ({', '.join(done)})" if done else ""
        print(f"compiled {g.label()} modules: {len(done)}/{len(g.modules())}{listed}")
    old = stale()
    if old:
        print(f"STALE (source newer than the build; rebuild or --clean): {', '.join(old)}")
    return 1 if old else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    ap.add_argument("--clean", action="store_true", help="remove the compiled modules (pure Python again)")
    ap.add_argument("--status", action="store_true", help="say which modules are compiled")
    ap.add_argument("--typecheck", action="store_true",
                    help="mypy's check and mypyc's translation of the modules the build compiles (no C compiler)")
    ap.add_argument("--engine-only", action="store_true",
                    help="compile only engine/protectors (agents/spaces stays Python)")
    args = ap.parse_args(argv)
    if args.clean:
        clean()
        status()
        return 0
    if args.status:
        return status()
    if args.typecheck:
        return typecheck()
    return build(PACKAGES[:1] if args.engine_only else PACKAGES)


if __name__ == "__main__":
    raise SystemExit(main())
