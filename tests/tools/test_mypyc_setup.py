"""``tools/mypyc_setup.py`` compiles a group's C files side by side through setuptools' private ``CCompiler``
steps; a setuptools without them gets the serial compile, not a failed build."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def mypyc_setup():
    spec = importlib.util.spec_from_file_location("mypyc_setup", ROOT / "tools" / "mypyc_setup.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["mypyc_setup"] = module
    spec.loader.exec_module(module)
    return module


def test_the_installed_setuptools_has_the_steps_the_parallel_compile_calls():
    # if this fails, a setuptools upgrade renamed them: the build still works, one file after another
    assert mypyc_setup().parallel_compile_possible()


def test_a_compiler_without_them_is_compiled_serially():
    module = mypyc_setup()

    class Bare:
        def _setup_compile(self):
            pass

    assert not module.parallel_compile_possible(Bare)
