"""The ``regent`` command line.

Each command group lives in its own module under ``service.cli`` and exposes
``register(subparsers)``; this module only wires them together, so a GM who only wants NPR
automation never imports torch. Commands from other packages (``regent train`` and ``regent eval``
live in ``training``, which the service must never import) plug in through the ``regent.commands``
entry-point group instead of an import here.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from importlib.metadata import entry_points

# Command modules, in the order ``regent --help`` lists them.
COMMAND_MODULES = ("serve", "call", "play", "adjudicate", "seat", "render", "report", "position", "npr", "npn",
                   "discord")
ENTRY_POINT_GROUP = "regent.commands"


def build_parser() -> argparse.ArgumentParser:
    from service.cli.failure import OneLineParser

    parser = OneLineParser(prog="regent", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"service.cli.{name}")
        except ModuleNotFoundError as err:
            if err.name == f"service.cli.{name}":
                continue  # that command group has not landed yet
            raise
        module.register(sub)
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            register = ep.load()
        except ModuleNotFoundError:
            continue  # an optional package (e.g. training without its extras) is not installed
        register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command. Whatever goes wrong, the user sees one line ``regent: error: FILE: what is
    wrong`` and exit status 2, never a traceback (service/cli/failure.py)."""
    from service.cli import failure

    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
    except SystemExit:
        raise
    except BaseException as err:  # a command module that fails to load
        return failure.report(err)
    failure.watch(argv)
    return failure.run(args.func, args)


if __name__ == "__main__":
    raise SystemExit(main())
