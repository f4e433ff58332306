"""The mypyc build's own process (``tools/build_fast.py`` runs it; setuptools wants its own ``sys.argv``).

    python tools/mypyc_setup.py SPEC.json

SPEC names the modules (``files``), mypy's flags, the group, the C target folder and setuptools' temp folder.
mypyc writes one C file per module (``multi_file``) and this process compiles them on every core: the single file a
group makes otherwise (25 MB) took gcc -O3 about 110 s on one core, the per-module files take about 40 s on two,
and the build runs about 1% slower (docs/benchmarks.md, "The compiled engine").
"""

from __future__ import annotations

import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from mypyc.build import mypycify
from setuptools import setup
from setuptools._distutils import ccompiler

# CCompiler's own steps that _compile_in_parallel calls: private to setuptools' distutils, so a setuptools without
# them compiles one file after another, as setuptools does by itself (slower, the same objects), never fails here
PRIVATE_STEPS = ("_setup_compile", "_get_cc_args", "_compile")


def _compile_in_parallel(self, sources, output_dir=None, macros=None, include_dirs=None, debug=0,
                         extra_preargs=None, extra_postargs=None, depends=None):
    """``CCompiler.compile`` with the sources of one extension compiled side by side (threads: each waits on a
    compiler process); the same objects, in the same order, as the serial method returns."""
    macros, objects, extra_postargs, pp_opts, build = self._setup_compile(output_dir, macros, include_dirs, sources,
                                                                          depends, extra_postargs)
    cc_args = self._get_cc_args(pp_opts, debug, extra_preargs)

    def one(obj: str) -> None:
        src, ext = build[obj]
        self._compile(obj, src, ext, cc_args, extra_postargs, pp_opts)

    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        list(pool.map(one, objects))  # list(): a failed compile raises here
    return objects


def parallel_compile_possible(compiler: type = ccompiler.CCompiler) -> bool:
    """Whether ``compiler`` has the private steps ``_compile_in_parallel`` calls."""
    return all(callable(getattr(compiler, name, None)) for name in PRIVATE_STEPS)


def main(spec: dict) -> None:
    target = Path(spec["target_dir"])
    exts = mypycify([*spec["flags"], *spec["files"]], opt_level="3", multi_file=True, group_name=spec["group"],
                    target_dir=str(target))
    # with a dotted group name, mypyc writes the group's header under its package's folder but the modules' C files
    # at the top of the target folder, which #include it by its bare name
    header_dir = target.joinpath(*spec["group"].split(".")[:-1])
    for ext in exts:
        ext.include_dirs.append(str(header_dir))
    if parallel_compile_possible():
        ccompiler.CCompiler.compile = _compile_in_parallel
    else:
        print(f"mypyc_setup: this setuptools lacks CCompiler.{'/'.join(PRIVATE_STEPS)}; compiling serially",
              file=sys.stderr)
    setup(name="regent-fast", script_args=["build_ext", "--inplace", "--build-temp", spec["build_temp"]],
          ext_modules=exts)


if __name__ == "__main__":
    main(json.loads(Path(sys.argv[1]).read_text()))
