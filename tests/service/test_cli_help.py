"""Every `regent` command and subcommand prints its --help (argparse %-formats help text: a bare '%'
in it once made `regent eval --help` fail with "unsupported format character")."""

from __future__ import annotations

import argparse

from service.cli import build_parser


def _parsers(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, (*path, name))


def test_every_command_formats_its_help():
    seen = []
    for path, parser in _parsers(build_parser()):
        text = parser.format_help()
        assert text.startswith("usage: "), path
        seen.append(" ".join(path))
    assert {"eval", "eval table", "eval takeovers", "train", "serve", "discord run"} <= set(seen)
