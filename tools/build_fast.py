"""Optional accelerated build: compile the Protectors engine (engine/protectors) with mypyc.

The engine stays pure Python; this only adds C extension modules (``engine/protectors/*.so``) next
to the sources, which Python then imports instead of the ``.py`` files. Same results, bit for bit
(tests/protectors/test_compiled.py plays games both ways); a ring-7 turn takes ~2.5x less time
(docs/benchmarks.md).

    python tools/build_fast.py            # build (needs mypy: pip install mypy; a C compiler)
    python tools/build_fast.py --clean    # remove the compiled modules: back to pure Python
    python tools/build_fast.py --status   # which engine modules are compiled now (exit 1 if stale)

Rebuild after changing any compiled module: a stale ``.so`` keeps running the old code.
``regent`` and the tests use whatever is there; ``--status`` says which.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "engine" / "protectors"
# Every engine/protectors module except: __init__ (empty) and views (its _shallow copies objects
# through __dict__/__slots__, which compiled classes do not have; it is not on the turn's path).
SKIP = {"__init__", "views"}
GROUP = "engine.protectors._compiled"  # the shared library: engine/protectors/_compiled__mypyc*.so
BUILD_DIR = ROOT / "build" / "mypyc"
SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def modules() -> list[Path]:
    return sorted(p for p in PACKAGE.glob("*.py") if p.stem not in SKIP)


def compiled() -> list[Path]:
    return sorted(p for p in PACKAGE.iterdir() if p.name.endswith(SUFFIXES))


def clean(build_dir: bool = True) -> None:
    for so in compiled():
        so.unlink()
    if build_dir:
        shutil.rmtree(BUILD_DIR, ignore_errors=True)


def build() -> int:
    try:
        import mypyc  # noqa: F401
    except ImportError:
        sys.stderr.write("mypyc is missing: pip install mypy (it ships mypyc)\n")
        return 2
    clean()
    files = [str(p.relative_to(ROOT)) for p in modules()]
    # setup() in a child process: setuptools wants to own sys.argv and its output goes to a log.
    script = (
        "import sys\n"
        "from setuptools import setup\n"
        "from mypyc.build import mypycify\n"
        f"files = {files!r}\n"
        "setup(name='regent-fast', script_args=['build_ext', '--inplace', '--build-temp', "
        f"{str(BUILD_DIR / 'temp')!r}],\n"
        "      ext_modules=mypycify(['--ignore-missing-imports', *files], opt_level='3',\n"
        f"                           group_name={GROUP!r}, target_dir={str(BUILD_DIR / 'c')!r}))\n"
    )
    log = BUILD_DIR / "build.log"
    BUILD_DIR.mkdir(parents=True, exist_ok=True)
    print(f"compiling {len(files)} modules with mypyc (about a minute; log: {log.relative_to(ROOT)})")
    with open(log, "w") as out:
        rc = subprocess.call([sys.executable, "-c", script], cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    if rc != 0:
        clean(build_dir=False)
        sys.stderr.write(log.read_text()[-4000:] + f"\nmypyc build failed (exit {rc}); nothing installed\n")
        return rc
    status()
    return 0


def stale() -> list[str]:
    """Compiled modules whose source changed after the build (they would run the old code)."""
    built = {p.name.split(".")[0]: p.stat().st_mtime for p in compiled()}
    return [p.stem for p in modules() if p.stem in built and p.stat().st_mtime > built[p.stem]]


def status() -> int:
    names = {p.name.split(".")[0] for p in compiled()}
    done = [p.stem for p in modules() if p.stem in names]
    listed = f" ({', '.join(done)})" if done else ""
    print(f"compiled engine.protectors modules: {len(done)}/{len(modules())}{listed}")
    old = stale()
    if old:
        print(f"STALE (source newer than the build; rebuild or --clean): {', '.join(old)}")
    return 1 if old else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clean", action="store_true", help="remove the compiled modules (pure Python again)")
    ap.add_argument("--status", action="store_true", help="say which modules are compiled")
    args = ap.parse_args(argv)
    if args.clean:
        clean()
        status()
        return 0
    if args.status:
        return status()
    return build()


if __name__ == "__main__":
    raise SystemExit(main())
