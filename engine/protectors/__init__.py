"""The Protectors of the Realm rules engine (rules: 003). Pure Python; ``tools/build_fast.py`` can
compile it with mypyc for speed (same results). A compiled module older than its source would run the
old rules, so importing the package warns about it (``warn_stale``, which ``agents.spaces`` uses too)."""

from __future__ import annotations

import os as _os
import warnings as _warnings


def stale_compiled_modules(here: str = _os.path.dirname(__file__)) -> list[str]:
    """Names of modules (in ``here``) whose compiled extension is older than their ``.py`` source."""
    built: dict[str, float] = {}
    sources: dict[str, float] = {}
    for entry in _os.scandir(here):
        stem, _, rest = entry.name.partition(".")
        if rest == "py":
            sources[stem] = entry.stat().st_mtime
        elif rest.endswith("so") or rest.endswith("pyd"):
            built[stem] = entry.stat().st_mtime
    return sorted(s for s, t in built.items() if s in sources and sources[s] > t)


def warn_stale(here: str, what: str, stacklevel: int = 3) -> list[str]:
    """Warn (RuntimeWarning) if a compiled module in ``here`` is older than its source; ``what`` names
    the package in the message. Returns the stale module names."""
    stale = stale_compiled_modules(here)
    if stale:
        _warnings.warn(f"compiled {what} modules older than their source (they run the old code): {', '.join(stale)}; "
                       "rebuild with `python tools/build_fast.py` or remove them with `--clean`",
                       RuntimeWarning, stacklevel=stacklevel)
    return stale


_STALE = warn_stale(_os.path.dirname(__file__), "engine")


def build_of(module_name: str) -> str:
    """Whether ``module_name`` was loaded from its Python source or from the optional mypyc build
    (tools/build_fast.py, ``make fast``): the benchmarks say which code they measured."""
    import importlib

    path = importlib.import_module(module_name).__file__ or ""
    return "pure Python" if path.endswith(".py") else "compiled (mypyc)"
