"""``regent render``: a board picture (or the game summary, or the whole game animated) from a
saved game file, as PNG, SVG or GIF.

    regent render game.bin -o board.png                     # GM view, now
    regent render game.bin --turn 3 --view channel -o t3.png  # for the public channel
    regent render game.bin --turn 3 --seat Player#2 -o p2.svg # Player#2's own view (their DM)
    regent render game.bin --focus Alice -o alice.png       # Alice's area, public, legible on a phone
    regent render game.bin --summary --ai Player#4=caretaker -o summary.png
    regent render game.bin --animate -o game.gif            # a frame per turn, then the summary (channel view)
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from engine.errors import ValidationError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("render", help="draw the board or the game summary from a game file (PNG or SVG)")
    p.add_argument("game", type=Path, help="game file (from 'regent new' / 'regent adjudicate')")
    p.add_argument("-o", "--out", type=Path, required=True, help="where to write the picture")
    p.add_argument("--turn", type=int, default=None, help="the board at the end of this turn (default: now)")
    p.add_argument("--seat", default=None, help="draw what this seat may see, for its DM (default: the GM view)")
    p.add_argument("--view", choices=("gm", "channel", "seat"), default=None,
                   help="gm: everything ($Realm included); channel: what every player may see, to post in "
                        "the public channel; seat: --seat's own view (default: seat if --seat, else gm; "
                        "--animate: channel)")
    p.add_argument("--format", choices=("png", "svg"), default=None,
                   help="picture format (default: from the --out suffix, else png)")
    p.add_argument("--focus", default=None, metavar="NAME",
                   help="only this seat's Provinces and their neighbours, drawn large for a phone (a display name, "
                        "Player#N or a colour); public information only, to post or DM to anyone")
    p.add_argument("--radius", type=int, default=None,
                   help="with --focus: Provinces up to this many borders away (0-4, default 1)")
    p.add_argument("--summary", action="store_true", help="the game summary instead of the board")
    p.add_argument("--animate", action="store_true",
                   help="the whole game as one animated GIF: the board after each turn, then the summary "
                        "(for the end-of-game post; at most 10 MiB, Discord's limit)")
    p.add_argument("--ai", action="append", default=[], metavar="SEAT=AGENT",
                   help="for --summary/--animate: a seat an AI played, e.g. Player#4=caretaker (repeatable)")
    p.set_defaults(func=run_render)


def parse_ai(items: list[str]) -> dict[str, str]:
    out = {}
    for item in items:
        seat, sep, agent = item.partition("=")
        if not sep or not seat.strip() or not agent.strip():
            raise ValidationError("--ai", f"expected SEAT=AGENT like Player#4=caretaker, not {item!r}")
        out[seat.strip()] = agent.strip()
    return out


def run_render(args: argparse.Namespace) -> int:
    from service import gamefile
    from service.cli import failure
    from service.render import render_animation, render_board, render_summary, resolve_view

    if args.animate and args.summary:
        raise ValidationError("--animate", "draws the boards, not the summary; leave out --summary")
    fmt = args.format or ("svg" if args.out.suffix.lower() == ".svg" else "png")
    _check_suffix(args.out, "gif" if args.animate else fmt)
    # any game file: regent new/adjudicate, game.export, an engine blob
    gf = gamefile.read(args.game, warn=failure.warn)
    game = gf.game
    seat, view = None, args.view
    if args.seat is not None:  # Player#2 or a display name
        seat = gf.seat_named(args.seat)
        if seat is None:
            raise ValidationError("--seat", gf.unknown_seat(args.seat))
    focus = _focus(args, gf, seat)
    if focus is not None:
        view = "channel"
    if args.animate:
        from service.render.animate import MAX_BYTES

        if args.turn is not None or args.format:
            raise ValidationError("--animate", "covers every turn as a GIF; leave out --turn and --format")
        fmt = "gif"
        view = view or ("seat" if seat else "channel")  # a GIF is for posting: the channel's unless asked
        # the closing summary says who an AI played, each agent as the GM chose it when it played (expert -> search)
        ai = {s: ", ".join(t) for s, t in gf.ai_named().items()}
        data = render_animation(game, seat, view, ai_seats={**ai, **parse_ai(args.ai)})
        if len(data) > MAX_BYTES:
            raise ValidationError("--animate", f"the GIF is {len(data)} bytes, over Discord's {MAX_BYTES}")
    elif args.summary:
        if args.turn is not None:
            raise ValidationError("--turn", "the summary covers the whole game; leave out --turn")
        # the seats an AI played, as the game file records them; --ai adds to or overrides them
        ai = {s: ", ".join(t) for s, t in gf.ai_named().items()}  # as the GM chose each when it played
        data = render_summary(game, seat, {**ai, **parse_ai(args.ai)}, fmt=fmt, view=view)
    else:
        if args.ai:
            raise ValidationError("--ai", "only the summary (--summary, --animate) shows who an AI played")
        try:
            data = render_board(game, seat, turn=args.turn, fmt=fmt, view=view, focus=focus, radius=args.radius)
        except ValidationError as err:  # the turn, focus and radius checks name the API's fields: say the flags
            if err.field in ("turn", "focus", "radius"):
                raise ValidationError(f"--{err.field}", err.reason.removeprefix(f"{err.field}: ")) from None
            raise
    _write(args.out, data)
    note = VIEW_NOTES[resolve_view(seat, view)].format(seat=gf.display(seat or ""))
    if focus is not None:
        note = f"{gf.display(focus)}'s area, {note}"
    print(f"wrote {args.out} ({fmt}, {len(data)} bytes; {note})")
    return 0


def _focus(args: argparse.Namespace, gf, seat: str | None) -> str | None:
    """The seat ``--focus`` names (checked against the other flags), or ``None``."""
    if args.focus is None:
        if args.radius is not None:
            raise ValidationError("--radius", "only a focused picture has a radius: add --focus NAME")
        return None
    for flag, given in (("--summary", args.summary), ("--animate", args.animate), ("--seat", seat is not None),
                        ("--view", args.view not in (None, "channel"))):
        if given:
            raise ValidationError("--focus", f"draws the board around a seat as every player may see it; "
                                             f"leave out {flag}")
    focus = gf.seat_named(args.focus)
    if focus is None:
        raise ValidationError("--focus", gf.unknown_seat(args.focus))
    return focus


VIEW_NOTES = {
    "gm": "the GM view: every $Realm shown, not for posting; --view channel draws the channel's",
    "channel": "the channel view: what every player may see",
    "seat": "{seat}'s own view, for their DM alone",
}
"""what the line after a picture says of its view: the default picture (no --seat, no --view) is the GM's, whose
$Realm balances are secrets (rules: 003 Each Turn), so the line says so before the GM posts it"""


PICTURE_SUFFIXES = {".png": "png", ".svg": "svg", ".gif": "gif"}
"""what each --out suffix names; a file without a suffix takes the picture as drawn"""


def _check_suffix(path: Path, fmt: str) -> None:
    """``--out``'s suffix must name the picture written (a PNG in board.gif opens as a broken GIF)."""
    suffix = path.suffix.lower()
    if not suffix or PICTURE_SUFFIXES.get(suffix) == fmt:
        return
    if suffix == ".gif":
        why = "a GIF is drawn only with --animate"
    elif fmt == "gif":
        why = "--animate draws a GIF: name the file .gif"
    elif suffix in PICTURE_SUFFIXES:
        why = f"--format {fmt} draws {fmt.upper()}: name the file .{fmt} or leave out --format"
    else:
        why = "render writes .png, .svg, or .gif with --animate"
    raise ValidationError("--out", f"{path.name}: {why}")


def _write(path: Path, data: bytes) -> None:
    """Atomically: a picture is written whole or not at all. A failure names ``--out`` as given (and its folder),
    never the temporary file beside it."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        try:
            tmp.write_bytes(data)
            os.replace(tmp, path)
        except OSError as err:
            raise ValidationError("--out", f"{path}: {_cannot_write(path, err)}") from None
    finally:
        if tmp.exists():
            tmp.unlink()


def _cannot_write(path: Path, err: OSError) -> str:
    """Why ``path`` could not be written, in words about it and its folder."""
    folder = path.parent
    if not folder.exists():
        return f"no such folder {folder} to write it in"
    if not folder.is_dir():
        return f"{folder} is a file, not a folder to write it in"
    if path.is_dir():
        return "is a folder, not a file"
    if isinstance(err, PermissionError):
        return f"permission denied writing in {folder}"
    return f"cannot write it ({err.strerror or type(err).__name__})"
