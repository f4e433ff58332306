"""What ``regent`` prints when a command fails: one line, never a traceback (issue 23 item 5).

``regent: error: FILE: what is wrong`` with the input file the command was reading when it failed
(named by the exception, or else the last file from the command line the command opened: an audit
hook watches ``open`` calls for exactly those paths), and exit status 2. An exception no input
explains (a bug in Regent) still prints one line, saying so and asking for a report.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, NoReturn

EXIT_ERROR = 2
EXIT_INTERRUPTED = 130
BUG_HINT = "this is a bug in Regent; please report it with the command you ran"

_watch: set[str] = set()  # absolute paths named on the command line
_opened: list[str] = []  # those of them the command opened, in order
_words: list[str] = []  # the command line's path-like words, as typed
_hooked = False


class OneLineParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose usage mistakes (``--turn x``, a missing argument, an unknown command) are
    one line too, naming the command and what is wrong, with where the usage is: argparse prints its usage
    block above the error. Subcommands' parsers are made of the same class (``add_subparsers``)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_ERROR, f"{self.prog}: error: {message} (see {self.prog} -h)\n")


def _audit(event: str, args: tuple) -> None:
    if event != "open" or not _watch or not args:
        return
    path = args[0]
    if isinstance(path, str | bytes | os.PathLike):
        try:
            full = os.path.abspath(os.fsdecode(path))
        except (TypeError, ValueError):
            return
        if full in _watch:
            _opened.append(os.fsdecode(path))


def watch(argv: list[str]) -> None:
    """Note which command-line words are paths, to name the one a failure was reading."""
    global _hooked
    if not _hooked:
        sys.addaudithook(_audit)  # hooks stay for the process: install once, reset the paths per call
        _hooked = True
    _watch.clear()
    _opened.clear()
    _words.clear()
    for word in argv:
        value = word.split("=", 1)[1] if word.startswith("--") and "=" in word else word
        if value and not value.startswith("-"):
            _watch.add(os.path.abspath(value))
            if os.sep in value or "." in value or os.path.exists(value):  # a file name, not a command word
                _words.append(value)


def _file_of(err: BaseException) -> str | None:
    name = getattr(err, "filename", None)
    if isinstance(name, str | bytes | os.PathLike):
        return os.fsdecode(name)
    return _opened[-1] if _opened else None


def _what(err: BaseException) -> tuple[str, bool]:
    """(what is wrong, whether it is a bug rather than bad input)."""
    import msgpack

    if isinstance(err, FileNotFoundError):
        return "no such file", False
    if isinstance(err, IsADirectoryError):
        return "is a directory, not a file", False
    if isinstance(err, PermissionError):
        return "permission denied", False
    if isinstance(err, OSError):
        return err.strerror or str(err) or type(err).__name__, False
    if isinstance(err, UnicodeDecodeError):
        return f"not UTF-8 text (byte {err.start} is {err.object[err.start:err.start + 1]!r})", False
    if isinstance(err, json.JSONDecodeError):
        from engine.json_mistakes import not_json

        return not_json(err), False
    if isinstance(err, RecursionError):
        return "nested too deeply to read (arrays or maps inside each other hundreds of levels deep)", False
    if isinstance(err, MemoryError):
        return "too large to read into memory", False
    if isinstance(err, ModuleNotFoundError) and err.name:  # an optional package: say which extra has it
        from service.extras import EXTRA_OF, install_hint

        if err.name.split(".")[0] in EXTRA_OF:
            return install_hint(err, "this command"), False
    if isinstance(err, msgpack.UnpackException | msgpack.ExtraData):
        return f"not a Regent game file (MessagePack: {type(err).__name__})", False
    if isinstance(err, ValueError):  # every Regent error (engine.errors) is a ValueError naming the field
        return str(err) or type(err).__name__, False
    return f"internal error ({type(err).__name__}: {str(err)[:200]}); {BUG_HINT}", True


def message(err: BaseException) -> str:
    """The one line (without the ``regent: error:`` prefix)."""
    what, _ = _what(err)
    what = " ".join(what.split())  # one line, whatever the message held
    if len(what) > 500:
        what = what[:500] + "..."
    file = _file_of(err)
    named = [w for w in {file, *_words} if w and (what.startswith(w) or f"{w}:" in what)]
    if file and not named:
        return f"{file}: {what}"
    return what


def report(err: BaseException) -> int:
    """Print the one line for ``err`` on stderr; the exit status."""
    if isinstance(err, KeyboardInterrupt):
        print("regent: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    try:
        print(f"regent: error: {message(err)}", file=sys.stderr)
    except Exception:  # never let the report itself raise
        print(f"regent: error: {type(err).__name__}; {BUG_HINT}", file=sys.stderr)
    return EXIT_ERROR


def run(func: Any, args: Any) -> int:
    try:
        return int(func(args) or 0)
    except SystemExit:
        raise
    except BrokenPipeError:  # `regent ... | head`: the reader left; nothing to say
        return 0
    except BaseException as err:  # the CLI's last line of defence: no traceback, ever
        return report(err)


def warn(line: str) -> None:
    """A warning a command goes on after (``regent: warning: FILE: ...``), on standard error."""
    print(line, file=sys.stderr)
