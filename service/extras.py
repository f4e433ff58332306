"""Which pip extra brings a missing optional package, so an error can say what to install.

``make setup-core`` installs the engine alone; policies need the ``rl`` extra and pictures the
``render`` extra (pyproject.toml, ``[project.optional-dependencies]``).
"""

from __future__ import annotations

# top-level module -> the extra in pyproject.toml that installs it
EXTRA_OF = {
    "numpy": "rl", "torch": "rl", "stable_baselines3": "rl", "sb3_contrib": "rl", "gymnasium": "rl",
    "pettingzoo": "rl", "tensorboard": "rl",
    "matplotlib": "render", "PIL": "render",
    "ray": "ray",
}


def install_hint(err: ModuleNotFoundError, what: str = "this") -> str:
    """``ppo:normal needs numpy, which is not installed: pip install -e '.[rl]'``."""
    name = (err.name or "").split(".")[0]
    extra = EXTRA_OF.get(name)
    if extra is None:
        return f"{what} needs the Python package {name!r}, which is not installed"
    return f"{what} needs {name}, which is not installed: pip install -e '.[{extra}]' (or make setup)"
