"""Every `regent` command and subcommand prints its --help (argparse %-formats help text: a bare '%'
in it once made `regent eval --help` fail with "unsupported format character")."""

from __future__ import annotations

import argparse

import pytest

from service.cli import build_parser, main


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


@pytest.mark.parametrize(("argv", "said"), [
    (["report", "g.bin", "--turn", "x"], "regent report: error: argument --turn: invalid int value: 'x'"),
    (["render"], "regent render: error: the following arguments are required: game"),
    (["bogus"], "regent: error: argument COMMAND: invalid choice: 'bogus'"),
    (["seat", "g.bin", "Bob", "expert", "--nope"], "regent: error: unrecognized arguments: --nope"),
])
def test_a_usage_mistake_is_one_line_naming_the_command_and_exit_2(argv, said, capsys):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    err = capsys.readouterr().err
    assert stop.value.code == 2
    assert err.count("\n") == 1 and err.startswith(said), err  # argparse put its usage block above it
    assert err.rstrip().endswith("-h)")
